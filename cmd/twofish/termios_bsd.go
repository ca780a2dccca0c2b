//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package main

import "golang.org/x/sys/unix"

// The requests that read and set a terminal's attributes (termios).
const (
	getTermios = unix.TIOCGETA
	setTermios = unix.TIOCSETA
)
