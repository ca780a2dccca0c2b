//go:build !aix && !darwin && !dragonfly && !freebsd && !linux && !netbsd && !openbsd && !solaris

package main

import (
	"fmt"
	"io"

	"golang.org/x/term"
)

// readPassword writes prompt to out and reads a line from the terminal fd
// with its echo off: on Windows x/term's ReadPassword, which reads the
// console through an os.File, where a read of no bytes is io.EOF (so it
// ends there, unlike its Unix reader); the other systems here (Plan 9,
// WebAssembly) have no terminal, so the prompt never gets this far.
func readPassword(fd int, out io.Writer, prompt string) ([]byte, error) {
	fmt.Fprint(out, prompt)
	return term.ReadPassword(fd)
}
