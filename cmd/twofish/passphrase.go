package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"golang.org/x/term"
)

// readPassphrase asks for a passphrase on the terminal (/dev/tty, so that
// standard input can carry the data), without echo, and with confirm asks
// again and checks that both agree. The prompts go to the terminal too,
// where stderr may be redirected.
func readPassphrase(confirm bool) ([]byte, error) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, errors.New("no passphrase: give -passphrase-file, -passphrase-env or -key-file, or run on a terminal")
	}
	defer tty.Close()
	return promptPassphrase(tty, confirm)
}

// promptPassphrase reads a passphrase from the terminal t without echo.
func promptPassphrase(t *os.File, confirm bool) ([]byte, error) {
	fd := int(t.Fd())
	if !term.IsTerminal(fd) {
		return nil, errors.New("no passphrase: give -passphrase-file, -passphrase-env or -key-file, or run on a terminal")
	}
	ask := func(prompt string) ([]byte, error) {
		fmt.Fprint(t, prompt)
		p, err := term.ReadPassword(fd)
		fmt.Fprintln(t)
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
