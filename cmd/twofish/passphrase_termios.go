//go:build aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris

package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"

	"golang.org/x/sys/unix"
)

// readPassword writes prompt to out and reads a line from the terminal fd
// with its echo off, then puts the terminal back as it was. It differs
// from x/term's ReadPassword in two ways:
//
//   - A read of no bytes, what a terminal gives for Ctrl-D at the start of
//     a line, returns io.EOF; ReadPassword reads again, so Ctrl-D at the
//     prompt did nothing.
//   - When the process goes on after a stop (Ctrl-Z, then the shell's fg),
//     the prompt turns the echo off again and asks again. A shell puts its
//     own modes back on the terminal when a job stops, echo on, and leaves
//     them when the job goes on, so with ReadPassword what was typed after
//     fg showed on the screen: the passphrase in clear.
//
// The line is what ReadPassword makes of the same bytes (a backspace takes
// the byte before it back, a carriage return is dropped), so that a
// passphrase typed at either reads the same.
func readPassword(fd int, out io.Writer, prompt string) ([]byte, error) {
	saved, err := unix.IoctlGetTermios(fd, getTermios)
	if err != nil {
		return nil, err
	}
	noEcho := *saved
	noEcho.Lflag = noEcho.Lflag&^unix.ECHO | unix.ICANON | unix.ISIG
	noEcho.Iflag |= unix.ICRNL

	// The watch for SIGCONT starts before the prompt shows, so that a
	// stop at any time after it is seen gets the prompt again. mu keeps
	// that apart from the prompt's first showing and from its end, so
	// that the terminal is left as it was. (SIGCONT goes on continuing
	// the process after signal.Stop: the kernel does that whatever the
	// handler.)
	var mu sync.Mutex
	shown, ended := false, false
	conts := make(chan os.Signal, 1)
	signal.Notify(conts, unix.SIGCONT)
	go func() {
		for range conts {
			mu.Lock()
			if shown && !ended {
				unix.IoctlSetTermios(fd, setTermios, &noEcho)
				fmt.Fprint(out, prompt)
			}
			mu.Unlock()
		}
	}()
	defer func() {
		signal.Stop(conts)
		close(conts)
		mu.Lock()
		ended = true
		unix.IoctlSetTermios(fd, setTermios, saved)
		mu.Unlock()
	}()
	mu.Lock()
	err = unix.IoctlSetTermios(fd, setTermios, &noEcho)
	if err == nil {
		fmt.Fprint(out, prompt)
		shown = true
	}
	mu.Unlock()
	if err != nil {
		return nil, err
	}

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
