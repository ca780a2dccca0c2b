package main

import (
	"io"
	"os"
	"testing"
)

// TestPromptLeavesNoRestore checks that a prompt that has ended leaves
// nothing for a signal to restore: the terminal is as it was, and a
// signal during the work after it must not put back the state it saved
// nor write a newline into the output.
func TestPromptLeavesNoRestore(t *testing.T) {
	master, slave := newPTY(t, 80)
	tty, err := os.OpenFile(slave, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	go io.Copy(io.Discard, master) // the prompts
	if _, err := master.Write([]byte("open sesame\r")); err != nil {
		t.Fatal(err)
	}
	if _, err := promptPassphrase(tty, tty, false); err != nil {
		t.Fatal(err)
	}
	if echoOff.Load() != nil {
		t.Error("a restore left behind after the prompt")
	}
}
