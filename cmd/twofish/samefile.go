//go:build !wasip1 && !windows

package main

import "os"

// sameFile reports whether a and b describe the same file, as os.SameFile.
func sameFile(a, b os.FileInfo) bool { return os.SameFile(a, b) }
