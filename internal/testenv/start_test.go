package testenv

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	// As a child of TestStartTriesAgain, the test binary copies its input
	// to its output.
	if os.Getenv("TESTENV_TEST_CAT") == "1" {
		io.Copy(os.Stdout, os.Stdin)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// logHook is a testing.TB whose Logf also calls a function.
type logHook struct {
	*testing.T
	onLog func()
}

func (h logHook) Logf(format string, args ...any) {
	h.T.Helper()
	h.T.Logf(format, args...)
	h.onLog()
}

// TestStartTriesAgain checks that a program that does not start the first
// time is started again, with all of its input, and that one that never
// starts is given up on after three tries, with the system's error.
func TestStartTriesAgain(t *testing.T) {
	MustHaveExec(t)
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Skipf("cannot read the test binary: %v", err)
	}
	prog := filepath.Join(t.TempDir(), "cat.exe")
	tries := 0
	// The program appears only once the first try has failed.
	tb := logHook{t, func() {
		tries++
		if err := os.WriteFile(prog, self, 0o755); err != nil {
			t.Fatal(err)
		}
	}}
	cmd := exec.Command(prog)
	cmd.Env = append(os.Environ(), "TESTENV_TEST_CAT=1")
	in := strings.Repeat("the input, whole; ", 10000)
	cmd.Stdin = strings.NewReader(in)
	out, err := CombinedOutput(tb, cmd)
	if NotExecutable(err) {
		t.Skipf("cannot execute a copy of the test binary here (%v)", err)
	}
	if err != nil || string(out) != in || tries != 1 {
		t.Fatalf("after %d tries: %v, %d bytes of output, want the %d of the input", tries+1, err, len(out), len(in))
	}

	missing := filepath.Join(t.TempDir(), "missing.exe")
	var logs int
	err = Run(logHook{t, func() { logs++ }}, exec.Command(missing))
	if err == nil || !strings.Contains(err.Error(), "missing.exe") || logs != startTries-1 {
		t.Errorf("a program that is not there: %v, after %d tries", err, logs+1)
	}
}
