package testenv

import (
	"bytes"
	"os/exec"
	"testing"
)

// startTries is how many times Start tries to start a program.
const startTries = 3

// Start starts cmd as cmd.Start does, but where the system fails to start
// the program it logs the error and tries again, three times in all: Wine
// 8 (.ci/run's Windows step), among the emulators running beside it, now
// and then fails CreateProcess with "Internal error" before the program
// has run at all, so starting it again hides nothing the program did. A
// program that the system cannot execute (NotExecutable) and a cmd that
// exec.Command could not resolve fail at once; so does one made by
// exec.CommandContext, whose context a new try would lose. cmd's Stdin,
// Stdout and Stderr must be set directly, not through its Pipe methods,
// whose pipes a failed start closes.
func Start(t testing.TB, cmd *exec.Cmd) error {
	t.Helper()
	for try := 1; ; try++ {
		err := cmd.Start()
		if err == nil || try == startTries || NotExecutable(err) || cmd.Err != nil || cmd.Cancel != nil {
			return err
		}
		t.Logf("%s did not start (%v); starting it again", cmd.Path, err)
		// A Cmd cannot be started twice; nothing of it was used: its
		// input is copied only once the program runs.
		*cmd = exec.Cmd{Path: cmd.Path, Args: cmd.Args, Env: cmd.Env, Dir: cmd.Dir,
			Stdin: cmd.Stdin, Stdout: cmd.Stdout, Stderr: cmd.Stderr,
			ExtraFiles: cmd.ExtraFiles, SysProcAttr: cmd.SysProcAttr, WaitDelay: cmd.WaitDelay}
	}
}

// Run runs cmd as cmd.Run does, started by Start.
func Run(t testing.TB, cmd *exec.Cmd) error {
	t.Helper()
	if err := Start(t, cmd); err != nil {
		return err
	}
	return cmd.Wait()
}

// CombinedOutput runs cmd as cmd.CombinedOutput does, started by Start.
func CombinedOutput(t testing.TB, cmd *exec.Cmd) ([]byte, error) {
	t.Helper()
	// One writer for both: exec.Cmd then writes to it from one goroutine.
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := Run(t, cmd)
	return out.Bytes(), err
}
