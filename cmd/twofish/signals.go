//go:build !js && !plan9 && !wasip1

package main

import (
	"os"
	"syscall"
)

// cleanupSignals are the signals after which a cleanup removes its outputs'
// temporary files (Ctrl-C, kill's default and the terminal's hang-up), each
// with the exit status then: 128 plus its number, as shells report a
// process that a signal ended (130 for Ctrl-C).
var cleanupSignals = map[os.Signal]int{
	syscall.SIGINT:  128 + int(syscall.SIGINT),
	syscall.SIGTERM: 128 + int(syscall.SIGTERM),
	syscall.SIGHUP:  128 + int(syscall.SIGHUP),
}
