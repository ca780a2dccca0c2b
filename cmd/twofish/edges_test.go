package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersion checks -version: one line naming the tool and the Go
// toolchain, status 0.
func TestVersion(t *testing.T) {
	status, stdout, stderr := runTool(t, "-version")
	if status != exitOK || stderr != "" || !strings.HasPrefix(stdout, "twofish ") || strings.Count(stdout, "\n") != 1 || !strings.Contains(stdout, " go1.") {
		t.Errorf("-version: status %d, stdout %q, stderr %q", status, stdout, stderr)
	}
}

// TestVersionLine checks what -version says of each kind of build: the
// module's version, the commit cut to 12 digits where the build recorded
// one (none where it is shorter, as no commit hash is), "(unknown)" without
// build information, then the toolchain and platform.
func TestVersionLine(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	tail := ", " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
	for _, tc := range []struct {
		bi   *debug.BuildInfo
		ok   bool
		want string
	}{
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, true, "twofish v1.2.3"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "true"},
		}}, true, "twofish (devel) 0123456789ab"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: rev[:12]},
		}}, true, "twofish (devel) 0123456789ab"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: rev[:11]},
		}}, true, "twofish (devel)"},
		{nil, false, "twofish (unknown)"},
	} {
		if got := versionLine(tc.bi, tc.ok); got != tc.want+tail {
			t.Errorf("versionLine(%+v) = %q, want %q", tc.bi, got, tc.want+tail)
		}
	}
}

// TestIVFile checks that dec reads the IV that enc -iv-out wrote, and that
// enc tells a random IV only for an output that was written.
func TestIVFile(t *testing.T) {
	dir := t.TempDir()
	in, enc, iv, out := filepath.Join(dir, "in"), filepath.Join(dir, "enc"), filepath.Join(dir, "iv"), filepath.Join(dir, "out")
	writeFile(t, in, []byte("a message with an IV kept in a file"))
	status, _, stderr := runTool(t, "enc", "-mode", "cbc", "-key", key128, "-in", in, "-out", enc, "-iv-out", iv)
	if status != exitOK || !strings.HasPrefix(stderr, "iv=") {
		t.Fatalf("enc: status %d, stderr %q", status, stderr)
	}
	if status, _, stderr := runTool(t, "dec", "-mode", "cbc", "-key", key128, "-in", enc, "-out", out, "-iv-file", iv); status != exitOK {
		t.Fatalf("dec -iv-file: status %d, stderr %q", status, stderr)
	}
	if got := string(readFile(t, out)); got != "a message with an IV kept in a file" {
		t.Errorf("dec -iv-file gave %q", got)
	}
	// The output exists now: enc fails, and must not tell an IV.
	status, _, stderr = runTool(t, "enc", "-mode", "cbc", "-key", key128, "-in", in, "-out", enc)
	if status != exitFailure || strings.Contains(stderr, "iv=") {
		t.Errorf("enc over an existing output: status %d, stderr %q", status, stderr)
	}
	writeFile(t, filepath.Join(dir, "badiv"), []byte("0011zz\n"))
	for _, tc := range []struct {
		code int
		want string
		args []string
	}{
		{1, "-iv-file " + filepath.Join(dir, "badiv") + ": not an IV in hex (character 5 is not a hex digit)", []string{"dec", "-mode", "cbc", "-key", key128, "-in", enc, "-iv-file", filepath.Join(dir, "badiv")}},
		{2, "-iv and -iv-file: give one", []string{"dec", "-mode", "cbc", "-key", key128, "-in", enc, "-iv-file", iv, "-iv", "00"}},
		{2, "-key: not hex (character 32 is not a hex digit)", []string{"enc", "-mode", "ctr", "-key", "000102030405060708090a0b0c0d0e0g"}},
		{2, "-key: not hex (33 hex digits, an odd number)", []string{"enc", "-mode", "ctr", "-key", key128 + "0"}},
		{2, "-iv-file FILE", []string{"dec", "-mode", "cbc", "-key", key128, "-in", enc}},
	} {
		status, stdout, stderr := runTool(t, tc.args...)
		checkOneLineError(t, execResult{code: status, stdout: []byte(stdout), stderr: []byte(stderr)}, tc.code, tc.want, tc.args)
	}
}

// TestIVUntold checks that enc fails, and leaves no output file, where it
// cannot tell the IV it made (stderr closed or full): output whose IV no
// one saw could never be decrypted.
func TestIVUntold(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	writeFile(t, in, []byte("a message whose IV is lost"))
	for _, mode := range []string{"ctr", "gcm"} {
		status := run([]string{"enc", "-mode", mode, "-key", key128, "-in", in, "-out", out}, io.Discard, &failingWriter{})
		if status != exitFailure {
			t.Errorf("%s with an unwritable stderr: status %d, want %d", mode, status, exitFailure)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s with an unwritable stderr left %s, whose IV no one saw", mode, out)
		}
	}
}

// TestKeySources checks the keys of enc and dec from a raw key file and
// from the environment.
func TestKeySources(t *testing.T) {
	dir := t.TempDir()
	raw, in := filepath.Join(dir, "raw"), filepath.Join(dir, "in")
	writeFile(t, raw, mustHex(key128))
	writeFile(t, in, []byte("sixteen byte msg"))
	want := mustRun(t, nil, nil, "enc", "-mode", "ctr", "-key", key128, "-iv", key128, "-in", in)
	if got := mustRun(t, nil, nil, "enc", "-mode", "ctr", "-key-file", raw, "-iv", key128, "-in", in); !bytes.Equal(got, want) {
		t.Error("a raw key file gave another ciphertext than the same key in hex")
	}
	if got := mustRun(t, nil, []string{"TWOFISH_TEST_KEY=" + key128}, "enc", "-mode", "ctr", "-key-env", "TWOFISH_TEST_KEY", "-iv", key128, "-in", in); !bytes.Equal(got, want) {
		t.Error("-key-env gave another ciphertext than -key")
	}
	r := exe(t, nil, []string{"TWOFISH_TEST_KEY=00112233"}, "enc", "-mode", "ctr", "-key-env", "TWOFISH_TEST_KEY", "-iv", key128, "-in", in)
	checkOneLineError(t, r, exitFailure, "-key-env TWOFISH_TEST_KEY: the key is 4 bytes", nil)
	// A file of a raw key's length that is not hex is a raw key only if
	// it is no text and takes enough values (notKey): hex with a typo, a
	// passphrase and zeros are refused, not used as keys.
	for name, b := range map[string]string{
		"hex-typo":   "00112233445566778899aabbccddeefg",
		"passphrase": "correct horse battery staple!!!\n",
		"zeros":      strings.Repeat("\x00", 16),
	} {
		key := filepath.Join(dir, name)
		writeFile(t, key, []byte(b))
		args := []string{"enc", "-mode", "ctr", "-key-file", key, "-iv", key128, "-in", in}
		status, stdout, stderr := runTool(t, args...)
		checkOneLineError(t, execResult{code: status, stdout: []byte(stdout), stderr: []byte(stderr)}, exitFailure, "not a raw key", args)
	}
}

// TestIgnoredImplWarns runs enc with a TWOFISH_IMPL that names no
// implementation: it works with the automatic choice and says so.
func TestIgnoredImplWarns(t *testing.T) {
	r := exe(t, []byte("sixteen byte msg"), []string{"TWOFISH_IMPL=nonesuch"}, "enc", "-mode", "ctr", "-key", key128, "-iv", key128)
	if r.code != exitOK || !strings.Contains(string(r.stderr), `warning: TWOFISH_IMPL=nonesuch is ignored: unknown implementation "nonesuch"`) {
		t.Errorf("status %d, stderr %q", r.code, r.stderr)
	}
}

// TestBenchImplList checks that bench -impl takes a list, as -modes and
// -keysize do.
func TestBenchImplList(t *testing.T) {
	got := benchTablesRows(t, []string{"ECB enc", "ECB dec"}, "-impl", "generic,generic-ct,generic", "-keysize", "128", "-modes", "ecb")
	want := []string{"Twofish (impl=generic, key=128)", "Twofish (impl=generic-ct, key=128)"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tables %q, want %q", got, want)
	}
	if status, _, stderr := runTool(t, "bench", "-impl", "generic,nonesuch"); status != exitUsage || !strings.Contains(stderr, `"nonesuch": unknown implementation`) {
		t.Errorf("-impl with an unknown name: status %d, stderr %q", status, stderr)
	}
}
