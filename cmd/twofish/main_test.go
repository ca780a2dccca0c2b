package main

import (
	"bytes"
	"strings"
	"testing"
)

// runTool runs the tool in process and returns its exit status and output.
func runTool(t *testing.T, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	status = run(args, &out, &errOut)
	return status, out.String(), errOut.String()
}

// TestUsageErrors checks that bad command lines print the usage message to
// stderr, nothing to stdout, and exit with status 2.
func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-h"},
		{"-help"},
		{"-nosuchflag"},
		{"nosuchcommand"},
		{"info", "-h"},
		{"info", "extra"},
		{"bench", "-h"},
		{"bench", "-nosuchflag"},
		{"bench", "extra"},
		{"bench", "-impl", "nosuchimpl"},
		{"bench", "-impl", ""},
		{"bench", "-keysize", "100"},
		{"bench", "-keysize", "128,"},
		{"bench", "-keysize", ""},
		{"bench", "-size", "100"},
		{"bench", "-size", "4096"},
		{"bench", "-size", "8200"},
		{"bench", "-size", "0"},
		{"bench", "-size", "-16"},
		{"bench", "-size", "1099511627776"},
		{"bench", "-duration", "0s"},
		{"bench", "-duration", "-1s"},
		{"bench", "-duration", "soon"},
		{"bench", "-compare=maybe"},
		{"bench", "-modes", "ccm"},
		{"bench", "-modes", "ctr,"},
		{"bench", "-modes", ""},
		{"bench", "-format", "xml"},
		{"bench", "-svg", "/nonexistent/dir/chart.svg"},
		{"bench", "-svg", "."},
		{"bench", "-svg", "-"},
		{"bench", "-svg", "/dev/null"},
		{"bench", "-svg", "/proc/chart.svg"},
		{"bench", "-sweep=maybe"},
		{"info", "-json=maybe"},
		{"selftest", "-h"},
		{"selftest", "extra"},
		{"selftest", "-impl", "nosuchimpl"},
		{"selftest", "-seed", "x"},
		{"selftest", "-full=maybe"},
		{"help", "nosuchcommand"},
		{"help", "seal", "open"},
	} {
		status, stdout, stderr := runTool(t, args...)
		if status != exitUsage {
			t.Errorf("twofish %q: exit status %d, want %d", args, status, exitUsage)
		}
		if stdout != "" {
			t.Errorf("twofish %q: wrote to stdout:\n%s", args, stdout)
		}
		if !strings.Contains(stderr, "usage: twofish") {
			t.Errorf("twofish %q: no usage message on stderr:\n%s", args, stderr)
		}
	}
}

// TestHelp checks "twofish help" and "twofish help COMMAND": the usage
// message and each command's, on stdout with status 0, where -h gives the
// same on stderr as a usage error.
func TestHelp(t *testing.T) {
	status, stdout, stderr := runTool(t, "help")
	if status != exitOK || stderr != "" || !strings.Contains(stdout, "usage: twofish [-version] COMMAND") || !strings.Contains(stdout, "twofish help COMMAND") {
		t.Errorf("twofish help: status %d, stdout %q, stderr %q", status, stdout, stderr)
	}
	for _, c := range commands {
		status, stdout, stderr := runTool(t, "help", c.name)
		_, _, usage := runTool(t, c.name, "-h")
		if status != exitOK || stderr != "" || stdout != usage || !strings.HasPrefix(stdout, "usage: twofish "+c.name) {
			t.Errorf("twofish help %s: status %d, stderr %q, stdout %q, want -h's %q", c.name, status, stderr, stdout, usage)
		}
	}
}

// TestUnknownImplementation checks that the error names the implementations
// there are.
func TestUnknownImplementation(t *testing.T) {
	_, _, stderr := runTool(t, "bench", "-impl", "nosuchimpl")
	if !strings.Contains(stderr, `"nosuchimpl"`) || !strings.Contains(stderr, "generic") {
		t.Errorf("stderr does not name the bad implementation and the good ones:\n%s", stderr)
	}
}

// TestUsageAligned checks that the usage message lists each command on a
// line of its own, its summary in one column for all.
func TestUsageAligned(t *testing.T) {
	var b strings.Builder
	usage(&b)
	for _, c := range commands {
		line := "  " + c.name + strings.Repeat(" ", 9-len(c.name)) + c.summary + "\n"
		if !strings.Contains(b.String(), "\n"+line) {
			t.Errorf("no line %q in the usage message:\n%s", line, b.String())
		}
	}
}

// TestUsageErrorsSayWhy checks that a usage error says what was wrong
// before the usage message: no command, or an argument after the flags.
func TestUsageErrorsSayWhy(t *testing.T) {
	if _, _, stderr := runTool(t); strings.Contains(stderr, "unknown command") || !strings.HasPrefix(stderr, "usage: twofish") {
		t.Errorf("no command: stderr:\n%s", stderr)
	}
	if _, _, stderr := runTool(t, "info", "extra"); !strings.HasPrefix(stderr, `twofish info: unexpected argument "extra"`+"\n") {
		t.Errorf("an argument after the flags: stderr:\n%s", stderr)
	}
}
