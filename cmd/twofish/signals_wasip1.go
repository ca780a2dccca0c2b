package main

import "os"

// cleanupSignals is empty on wasip1: WASI delivers no signals, and once
// signal.Notify has been called Go 1.26's wasip1 runtime spins on a read
// or write of a pipe that would block (wazero 1.12 makes standard input
// and output non-blocking), so a slow reader hung the command.
var cleanupSignals map[os.Signal]int
