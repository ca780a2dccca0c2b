//go:build aix || linux || solaris

package main

import "golang.org/x/sys/unix"

// The requests that read and set a terminal's attributes (termios).
const (
	getTermios = unix.TCGETS
	setTermios = unix.TCSETS
)
