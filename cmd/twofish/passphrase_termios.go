//go:build aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris

package main

import (
	"io"

	"golang.org/x/sys/unix"
)

// readPassword reads a line from the terminal fd with its echo off, and
// puts the terminal back as it was. Where x/term's ReadPassword reads
// again after a read of no bytes, which is what a terminal gives for
// Ctrl-D at the start of a line (so that Ctrl-D at the prompt did
// nothing), it returns io.EOF. The line is what ReadPassword makes of the
// same bytes (a backspace takes the byte before it back, a carriage
// return is dropped), so that a passphrase typed at either reads the same.
func readPassword(fd int) ([]byte, error) {
	saved, err := unix.IoctlGetTermios(fd, getTermios)
	if err != nil {
		return nil, err
	}
	noEcho := *saved
	noEcho.Lflag = noEcho.Lflag&^unix.ECHO | unix.ICANON | unix.ISIG
	noEcho.Iflag |= unix.ICRNL
	if err := unix.IoctlSetTermios(fd, setTermios, &noEcho); err != nil {
		return nil, err
	}
	defer unix.IoctlSetTermios(fd, setTermios, saved)

	var line []byte
	var b [1]byte
	for {
		n, err := unix.Read(fd, b[:])
		if err == nil && n == 0 {
			err = io.EOF
		}
		if err != nil {
			clear(line)
			return nil, err
		}
		switch b[0] {
		case '\n':
			return line, nil
		case '\r':
		case '\b':
			if len(line) > 0 {
				line = line[:len(line)-1]
			}
		default:
			line = append(line, b[0])
		}
	}
}
