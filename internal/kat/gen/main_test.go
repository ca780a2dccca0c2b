package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/testenv"
)

// TestMain runs the command itself, with the arguments after the test
// flag, in the copy of the test binary that runGen starts.
func TestMain(m *testing.M) {
	if os.Getenv("KAT_GEN_TEST_CHILD") == "1" {
		os.Args = append(os.Args[:1], os.Args[2:]...) // drop the test flag
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runGen runs the command with -src src -dst dst and returns its output
// and whether it succeeded.
func runGen(t *testing.T, src, dst string) (string, bool) {
	t.Helper()
	testenv.MustHaveExec(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$", "-src", src, "-dst", dst)
	cmd.Env = append(os.Environ(), "KAT_GEN_TEST_CHILD=1")
	out, err := testenv.CombinedOutput(t, cmd)
	if testenv.NotExecutable(err) {
		t.Skipf("cannot re-execute the test binary here (%v)", err)
	}
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return string(out), err == nil
}

// TestGenWritesEachFile checks that every .TXT file of src becomes a
// .TXT.gz in dst that decompresses to it, named after it and with no time
// stamp, so that the output depends on the input alone.
func TestGenWritesEachFile(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	files := map[string]string{"A.TXT": "KEYSIZE=128\n", "B.TXT": strings.Repeat("I=0\n", 100)}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(src, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(src, "notes.md"), []byte("not a test file"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, ok := runGen(t, src, dst); !ok {
		t.Fatalf("gen failed:\n%s", out)
	}
	entries, err := os.ReadDir(dst)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(files) {
		t.Errorf("gen wrote %d files, want %d", len(entries), len(files))
	}
	for name, data := range files {
		z, err := os.ReadFile(filepath.Join(dst, name+".gz"))
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(z))
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != data || zr.Name != name || !zr.ModTime.IsZero() {
			t.Errorf("%s.gz: %q named %q at %v, want %q named %q and no time", name, got, zr.Name, zr.ModTime, data, name)
		}
	}
}

// TestGenFails checks that the command fails, rather than write nothing
// and report success, where src holds no .TXT file (go generate run with
// the wrong directory) and where one of several cannot be read, which a
// later file read well must not hide.
func TestGenFails(t *testing.T) {
	if out, ok := runGen(t, t.TempDir(), t.TempDir()); ok || !strings.Contains(out, "no .TXT files") {
		t.Errorf("gen of a directory with no .TXT files: success %v, output %q", ok, out)
	}
	src := t.TempDir()
	// A directory matches *.TXT but cannot be read as a file; it sorts
	// before the file that can.
	if err := os.Mkdir(filepath.Join(src, "A.TXT"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "B.TXT"), []byte("KEYSIZE=128\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, ok := runGen(t, src, t.TempDir()); ok {
		t.Errorf("gen with an unreadable A.TXT: success, output %q", out)
	}
}
