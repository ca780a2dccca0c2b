//go:build unix

package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startStalled starts enc -mode ctr with the flags given writing to dir/out
// from a pipe, feeds it more than a chunk, and waits until its temporary
// file has data, so that it is mid-way; it returns the command, the pipe,
// left open, and what the command writes to stderr.
func startStalled(t *testing.T, dir string, flags ...string) (*exec.Cmd, io.WriteCloser, *strings.Builder) {
	t.Helper()
	args := append([]string{"enc", "-mode", "ctr", "-key", key128, "-out", filepath.Join(dir, "out")}, flags...)
	cmd := execCommand(t, args...)
	stderr := new(strings.Builder)
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go stdin.Write(make([]byte, 3*chunkSize))
	deadline := time.Now().Add(60 * time.Second)
	for {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if fi, err := e.Info(); err == nil && strings.HasPrefix(e.Name(), ".out.") && fi.Size() > 0 {
				return cmd, stdin, stderr
			}
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("no temporary file with data in %s after 60s: %q", dir, dirNames(t, dir))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestKilledLeavesNoOutput kills enc mid-way with SIGKILL, which it cannot
// catch: the output name must not exist (a temporary file may remain).
func TestKilledLeavesNoOutput(t *testing.T) {
	dir := t.TempDir()
	cmd, stdin, _ := startStalled(t, dir, "-iv", iv128)
	cmd.Process.Kill()
	cmd.Wait()
	stdin.Close()
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Fatal("a killed enc left its output")
	}
}

// TestInterruptedLeavesNothing stops enc mid-way with SIGTERM, SIGINT and
// SIGHUP (the terminal hung up): each must remove its temporary file, say
// so, and exit with 128 plus the signal's number, as shells report a
// process a signal ended (130 for Ctrl-C).
func TestInterruptedLeavesNothing(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		dir := t.TempDir()
		cmd, stdin, stderr := startStalled(t, dir, "-iv", iv128)
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		err := cmd.Wait()
		stdin.Close()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 128+int(sig) {
			t.Errorf("%v: enc ended with %v, want exit status %d", sig, err, 128+int(sig))
		}
		if got := stderr.String(); !strings.HasSuffix(got, "; no output written\n") || strings.Count(got, "\n") != 1 {
			t.Errorf("%v: stderr %q", sig, got)
		}
		if names := dirNames(t, dir); len(names) != 0 {
			t.Errorf("%v: files left: %q", sig, names)
		}
	}
}

// TestIVOutKeptWhenOutputFails runs enc -f with an existing -iv-out file
// and makes the output's rename fail at the end (a directory takes the
// output's name while enc works): enc must fail and leave the IV file as it
// was, the IV of the output that is still there.
func TestIVOutKeptWhenOutputFails(t *testing.T) {
	dir := t.TempDir()
	out, ivFile := filepath.Join(dir, "out"), filepath.Join(dir, "iv")
	old := []byte("the IV of an earlier output\n")
	writeFile(t, ivFile, old)
	cmd, stdin, stderr := startStalled(t, dir, "-f", "-iv-out", ivFile)
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	if err := cmd.Wait(); err == nil {
		t.Fatal("enc succeeded with a directory in the output's place")
	}
	if msg := stderr.String(); !strings.Contains(msg, "-out "+out+": ") || strings.Contains(msg, ".tmp") {
		t.Errorf("stderr %q does not name the output alone", msg)
	}
	if got, err := os.ReadFile(ivFile); err != nil || string(got) != string(old) {
		t.Errorf("after the failure, -iv-out holds %q, %v; want %q", got, err, old)
	}
	if names := dirNames(t, dir); len(names) != 2 {
		t.Errorf("files left: %q; stderr %s", names, stderr)
	}
}

// TestIVOutRemovedWhenOutputFails runs enc without -f with a new -iv-out
// file and makes the output's commit fail at the end (a file takes the
// output's name while enc works): enc must fail, keep the file that
// appeared, and remove the IV file it had put in place, the IV of an output
// that was not written. TestIVOutKeptWhenOutputFails covers -f, where an
// old IV file is put back.
func TestIVOutRemovedWhenOutputFails(t *testing.T) {
	dir := t.TempDir()
	out, ivFile := filepath.Join(dir, "out"), filepath.Join(dir, "iv")
	cmd, stdin, stderr := startStalled(t, dir, "-iv-out", ivFile)
	writeFile(t, out, []byte("appeared"))
	stdin.Close()
	if err := cmd.Wait(); err == nil {
		t.Fatal("enc succeeded with a file in the output's place")
	}
	if msg := stderr.String(); !strings.Contains(msg, "-out "+out+" exists (it appeared while working)") {
		t.Errorf("stderr %q", msg)
	}
	if got := string(readFile(t, out)); got != "appeared" {
		t.Errorf("the file that appeared holds %q", got)
	}
	if _, err := os.Lstat(ivFile); err == nil {
		t.Error("the IV file of an output that was not written is left")
	}
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("files left: %q; stderr %s", names, stderr)
	}
}
