package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/twofish-go/twofish/internal/testenv"
)

// The end-to-end tests run the command itself, built once per test run.

var (
	toolDir   string // holds the binary; removed by TestMain
	toolPath  string
	toolErr   error
	toolSkip  string // why the built binary cannot run here, if it cannot
	buildOnce sync.Once
	// buildTags are the tags of this test binary that the command should
	// be built with too (set by files with build constraints).
	buildTags []string
	buildRace bool // set under -race
)

func TestMain(m *testing.M) {
	code := m.Run()
	if toolDir != "" {
		os.RemoveAll(toolDir)
	}
	os.Exit(code)
}

// tool returns the path of the twofish binary, building it on first use
// with the test binary's tags, or the binary that TWOFISH_TEST_TOOL names,
// built beforehand with the same tags where the tests run without a Go
// toolchain or on another architecture (.ci/run's Windows tests under
// Wine, 386 in qemu-system; under qemu-user a script that runs the command
// in the emulator).
func tool(t testing.TB) string {
	t.Helper()
	testenv.MustHaveExec(t)
	buildOnce.Do(func() {
		if toolPath = os.Getenv("TWOFISH_TEST_TOOL"); toolPath != "" {
			return
		}
		toolDir, toolErr = os.MkdirTemp("", "twofish-cmd-test")
		if toolErr != nil {
			return
		}
		toolPath = filepath.Join(toolDir, "twofish")
		if runtime.GOOS == "windows" {
			toolPath += ".exe"
		}
		args := []string{"build", "-o", toolPath}
		if len(buildTags) > 0 {
			args = append(args, "-tags", strings.Join(buildTags, ","))
		}
		if buildRace {
			args = append(args, "-race")
		}
		// go test puts its own GOROOT/bin first on PATH.
		cmd := exec.Command("go", append(args, ".")...)
		if out, err := cmd.CombinedOutput(); err != nil {
			toolErr = fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
			return
		}
		// Under go test -exec qemu-arm the binary is built for arm too,
		// which this machine runs only inside the emulator.
		if err := exec.Command(toolPath).Run(); testenv.NotExecutable(err) {
			toolSkip = fmt.Sprintf("the command, built for %s, does not run here: %v", runtime.GOARCH, err)
		}
	})
	if toolErr != nil {
		t.Fatal(toolErr)
	}
	if toolSkip != "" {
		t.Skip(toolSkip)
	}
	return toolPath
}

// execCommand returns a command that runs the binary with args.
func execCommand(t testing.TB, args ...string) *exec.Cmd {
	cmd := exec.Command(tool(t), args...)
	if buildRace {
		// A binary built with -race sleeps a second before exiting,
		// unless told not to; a race it finds still fails the test,
		// with exit status 66 and a report on stderr.
		cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0")
	}
	return cmd
}

// An execResult is what a run of the binary did.
type execResult struct {
	code           int
	stdout, stderr []byte
}

// exe runs the binary with args, stdin as its standard input (nil for
// none) and env added to the environment.
func exe(t testing.TB, stdin []byte, env []string, args ...string) execResult {
	t.Helper()
	cmd := execCommand(t, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := testenv.Run(t, cmd)
	r := execResult{stdout: out.Bytes(), stderr: errOut.Bytes()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("twofish %q: %v", args, err)
	}
	return r
}

// mustRun runs the binary as exe does and fails t unless it succeeds. It
// returns standard output.
func mustRun(t testing.TB, stdin []byte, env []string, args ...string) []byte {
	t.Helper()
	r := exe(t, stdin, env, args...)
	if r.code != 0 {
		t.Fatalf("twofish %q: exit status %d, stderr:\n%s", args, r.code, r.stderr)
	}
	return r.stdout
}

// checkOneLineError checks that r failed with status code and printed one
// line to stderr containing want (and no stack trace), and nothing to
// stdout.
func checkOneLineError(t testing.TB, r execResult, code int, want string, args []string) {
	t.Helper()
	stderr := string(r.stderr)
	switch {
	case r.code != code:
		t.Errorf("twofish %q: exit status %d, want %d; stderr:\n%s", args, r.code, code, stderr)
	case strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n"):
		t.Errorf("twofish %q: stderr is not one line:\n%s", args, stderr)
	case !strings.Contains(stderr, want):
		t.Errorf("twofish %q: stderr %q does not say %q", args, stderr, want)
	case strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic"):
		t.Errorf("twofish %q: stack trace:\n%s", args, stderr)
	case len(r.stdout) != 0:
		t.Errorf("twofish %q: wrote %d bytes to stdout", args, len(r.stdout))
	}
}

// TestExecUsage checks the command's own usage errors through the binary:
// status 2 and the usage message.
func TestExecUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"nosuchcommand"}, {"selftest", "-nosuchflag"}} {
		r := exe(t, nil, nil, args...)
		if r.code != exitUsage || !bytes.Contains(r.stderr, []byte("usage: twofish")) {
			t.Errorf("twofish %q: exit status %d, stderr:\n%s", args, r.code, r.stderr)
		}
	}
	r := exe(t, nil, nil, "info")
	if r.code != 0 || !bytes.Contains(r.stdout, []byte("NewCipher: long runs ")) {
		t.Errorf("twofish info: exit status %d, stdout:\n%s", r.code, r.stdout)
	}
}

// readFile returns the contents of name, failing t if it cannot.
func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeFile writes b to name, failing t if it cannot.
func writeFile(t testing.TB, name string, b []byte) {
	t.Helper()
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// symlink makes newname a symbolic link to oldname and reports whether it
// did: not on Windows without the privilege to, nor under Wine 8, whose
// os.Symlink succeeds and leaves no link behind.
func symlink(t testing.TB, oldname, newname string) bool {
	t.Helper()
	if err := os.Symlink(oldname, newname); err != nil {
		t.Logf("no symbolic links here (%v): %s is not tried", err, newname)
		return false
	}
	if fi, err := os.Lstat(newname); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Logf("os.Symlink left no link behind: %s is not tried", newname)
		return false
	}
	return true
}

// osError returns the text of the operating system's error in err, an
// *fs.PathError: what the command's messages end with.
func osError(t testing.TB, err error) string {
	t.Helper()
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		t.Fatalf("%v: want an *fs.PathError", err)
	}
	return pe.Err.Error()
}

// dirNames returns the names in dir.
func dirNames(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
