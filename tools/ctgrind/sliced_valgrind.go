//go:build linux && amd64 && gc && valgrind && !purego

package main

import (
	"fmt"

	"github.com/twofish-go/twofish/internal/kernel"
)

// checkSlicedSchedule expands a secret key of each size for the byte-sliced
// kernels without running one: valgrind's CPU has no AVX-512, so this is
// the Go schedule (expandSliced) that arm64-neon's constant-time Cipher
// takes, which no other check here runs.
//
//go:noinline
func checkSlicedSchedule(ck *checker) {
	type holder struct{ c kernel.Cipher }
	for _, ks := range keySizes {
		kernel.New(kernel.Pin(kernel.AVX512VBMI), secretCopy(data(ks, 16)), func(h *holder) *kernel.Cipher { return &h.c })
		ck.paths = append(ck.paths, fmt.Sprintf("byte-sliced key schedule %d", ks*8))
	}
}
