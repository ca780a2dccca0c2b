package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchSVGWriteFails runs bench with a file size limit (ulimit -f)
// below the size of its chart, so that writing -svg fails part way: the
// command must fail, and leave the file that -svg names as it was and no
// temporary file.
func TestBenchSVGWriteFails(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("ulimit needs a shell:", err)
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "chart.svg")
	old := []byte("the chart of an earlier run\n")
	writeFile(t, name, old)
	args := []string{"bench", "-impl", "generic", "-keysize", "128", "-modes", "ecb", "-duration", "1ms", "-svg", name}
	cmd := exec.Command("sh", append([]string{"-c", `ulimit -f 1 && exec "$@"`, "sh", tool(t)}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitFailure || !strings.Contains(stderr.String(), "-svg") {
		t.Fatalf("twofish %q under ulimit -f 1: %v, stderr:\n%s", args, err, stderr.String())
	}
	if got := readFile(t, name); !bytes.Equal(got, old) {
		t.Errorf("the failed -svg left %d bytes in %s: %.40q", len(got), name, got)
	}
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("files left: %q", names)
	}
}

// TestBenchStdoutFails runs bench in each format with standard output on
// /dev/full, where every write fails: the results are lost, and the status
// must say so.
func TestBenchStdoutFails(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer full.Close()
	for _, format := range []string{"text", "json", "csv", "gobench"} {
		args := []string{"bench", "-impl", "generic", "-keysize", "128", "-modes", "ecb", "-duration", "1ms", "-format", format}
		cmd := execCommand(t, args...)
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = full, &stderr
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitFailure || !strings.Contains(stderr.String(), "no space left on device") {
			t.Errorf("twofish %q > /dev/full: %v, stderr:\n%s", args, err, stderr.String())
		}
	}
}
