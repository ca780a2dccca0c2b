package main

import (
	"os"
	"syscall"
)

// sameFile reports whether a and b describe the same file, as os.SameFile,
// but a file without an inode number is no other file: wazero 1.12 gives
// standard input, output and error device 0 and inode 0, which made every
// use of standard input and output look like writing the input over.
func sameFile(a, b os.FileInfo) bool {
	for _, fi := range []os.FileInfo{a, b} {
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Ino == 0 {
			return false
		}
	}
	return os.SameFile(a, b)
}
