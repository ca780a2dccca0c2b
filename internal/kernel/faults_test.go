//go:build (linux || darwin) && gc && !purego && (amd64 || arm64)

package kernel

import (
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"testing"
	"unsafe"

	"github.com/twofish-go/twofish/internal/guardpage"
)

// faults runs f, and returns the fault it caused, if any, as an error
// rather than a crash.
func faults(f func()) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	f()
	return nil
}

// checkChainNoBlocks runs the chain kernel of every mode with no blocks
// through run, its buffers at an address on an inaccessible page and a
// random chain value: each must touch neither buffer and leave the chain
// value as it was.
func checkChainNoBlocks(t *testing.T, r *rand.Rand, what string, run func(m ChainMode, none *byte, s *[BlockSize]byte)) {
	t.Helper()
	end := guardpage.Flush(t, BlockSize, true)
	none := (*byte)(unsafe.Add(unsafe.Pointer(&end[0]), BlockSize)) // the guard page
	for _, m := range chainModes {
		var s [BlockSize]byte
		copy(s[:], randBytes(r, BlockSize))
		was := s
		if err := faults(func() { run(m, none, &s) }); err != nil {
			t.Errorf("%s, %v: no blocks: %v", what, m, err)
		} else if s != was {
			t.Errorf("%s, %v: no blocks changed the chain value", what, m)
		}
	}
}
