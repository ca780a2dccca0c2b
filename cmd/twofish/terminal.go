//go:build !windows

package main

import "os"

// openTerminal opens the process's terminal for a prompt, to read from and
// write to: /dev/tty, whatever standard input and output are.
func openTerminal() (in, out *os.File, err error) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	return tty, tty, err
}
