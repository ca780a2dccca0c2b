//go:build js || plan9

package main

import "os"

// cleanupSignals is the interrupt alone where the system names no other:
// Plan 9 has notes, not signals, and js/wasm no SIGHUP.
var cleanupSignals = []os.Signal{os.Interrupt}

// exitSignal is the exit status after the interrupt, 130, as shells report
// a process that Ctrl-C ended.
func exitSignal(os.Signal) int { return 130 }
