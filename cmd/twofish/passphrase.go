package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"

	"golang.org/x/term"
)

// readPassphrase asks for a passphrase on the terminal (openTerminal's,
// so that standard input can carry the data), without echo, and with
// confirm asks again and checks that both agree. The prompts go to the
// terminal too, where stderr may be redirected.
func readPassphrase(confirm bool) ([]byte, error) {
	in, out, err := openTerminal()
	if err != nil {
		return nil, errors.New("no passphrase: give -passphrase-file, -passphrase-env or -key-file, or run on a terminal")
	}
	defer in.Close()
	if out != in {
		defer out.Close()
	}
	return promptPassphrase(in, out, confirm)
}

// echoOff holds, while a prompt has the terminal's echo off, what puts the
// terminal back as it was: a signal that ends the process in the middle of
// the prompt (cleanup) runs it, where the process would otherwise leave
// the shell without echo.
var echoOff atomic.Pointer[func()]

// restoreTerminal puts back the terminal whose echo a prompt has turned
// off, if one has.
func restoreTerminal() {
	if f := echoOff.Load(); f != nil {
		(*f)()
	}
}

// promptPassphrase reads a passphrase from the terminal in without echo,
// with its prompts on out.
func promptPassphrase(in, out *os.File, confirm bool) ([]byte, error) {
	fd := int(in.Fd())
	if !term.IsTerminal(fd) {
		return nil, errors.New("no passphrase: give -passphrase-file, -passphrase-env or -key-file, or run on a terminal")
	}
	ask := func(prompt string) ([]byte, error) {
		if st, err := term.GetState(fd); err == nil {
			restore := func() {
				term.Restore(fd, st)
				fmt.Fprintln(out)
			}
			echoOff.Store(&restore)
			defer echoOff.Store(nil)
		}
		p, err := readPassword(fd, out, prompt)
		fmt.Fprintln(out)
		if err == io.EOF {
			return nil, errors.New("no passphrase: the terminal's input ended")
		}
		if err != nil {
			return nil, fmt.Errorf("reading the passphrase: %v", err)
		}
		return p, nil
	}
	p, err := ask("passphrase: ")
	if err != nil {
		return nil, err
	}
	if len(p) == 0 {
		return nil, errors.New("the passphrase is empty")
	}
	if confirm {
		again, err := ask("passphrase again: ")
		if err != nil {
			clear(p)
			return nil, err
		}
		same := bytes.Equal(p, again)
		clear(again)
		if !same {
			clear(p)
			return nil, errors.New("the passphrases differ")
		}
	}
	return p, nil
}
