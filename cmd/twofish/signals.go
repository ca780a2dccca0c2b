//go:build !js && !plan9

package main

import (
	"os"
	"syscall"
)

// cleanupSignals are the signals after which a cleanup removes its outputs'
// temporary files: Ctrl-C, kill's default and the terminal's hang-up.
var cleanupSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// exitSignal is the exit status after the signal sig: 128 plus its number,
// as shells report a process that a signal ended (130 for Ctrl-C).
func exitSignal(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return exitFailure
}
