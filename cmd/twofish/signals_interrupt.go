//go:build js || plan9

package main

import "os"

// cleanupSignals is the interrupt alone where the system names no other
// (Plan 9 has notes, not signals, and js/wasm no SIGHUP), with 130 as the
// exit status, as shells report a process that Ctrl-C ended.
var cleanupSignals = map[os.Signal]int{os.Interrupt: 130}
