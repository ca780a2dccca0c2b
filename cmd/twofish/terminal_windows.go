package main

import "os"

// openTerminal opens the console for a prompt: CONIN$ to read from and
// CONOUT$ to write to, Windows' names for the console's keyboard and
// screen whatever standard input and output are (it has no /dev/tty, and
// every prompt failed as if no terminal were there).
func openTerminal() (in, out *os.File, err error) {
	in, err = os.OpenFile("CONIN$", os.O_RDWR, 0)
	if err != nil {
		return nil, nil, err
	}
	out, err = os.OpenFile("CONOUT$", os.O_WRONLY, 0)
	if err != nil {
		in.Close()
		return nil, nil, err
	}
	return in, out, nil
}
