package main

import "os"

// sameFile reports whether a and b describe the same file, as os.SameFile,
// but a pipe or a console is no other file: Windows gives them no file ID,
// and os.SameFile calls any two such files the same (go.dev/issue/62042),
// which refused every pipeline as writing over its input.
func sameFile(a, b os.FileInfo) bool {
	const noID = os.ModeNamedPipe | os.ModeCharDevice
	return a.Mode()&noID == 0 && b.Mode()&noID == 0 && os.SameFile(a, b)
}
