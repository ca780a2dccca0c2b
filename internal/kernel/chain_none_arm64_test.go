//go:build (linux || darwin) && gc && !purego

package kernel

import (
	"testing"
	"unsafe"

	"github.com/twofish-go/twofish/internal/guardpage"
)

// TestChainKernelsNoBlocks calls arm64-1way's chain kernels with no
// blocks and their buffers on an inaccessible page, as on amd64
// (chain_none_amd64_test.go): they must touch neither buffer and leave the
// chain value as it was.
func TestChainKernelsNoBlocks(t *testing.T) {
	end := guardpage.Flush(t, BlockSize, true)
	none := (*byte)(unsafe.Add(unsafe.Pointer(&end[0]), BlockSize)) // the guard page
	r := testRand(t)
	for _, bits := range []int{128, 192, 256} {
		c := newCipher(randBytes(r, bits/8), ARM64x1)
		_, ks, tb := c.Single()
		for _, m := range chainModes {
			var s [BlockSize]byte
			copy(s[:], randBytes(r, BlockSize))
			was := s
			if err := faults(func() { chain1x(tb, ks, m, none, none, 0, &s) }); err != nil {
				t.Errorf("%d-bit key, %v: no blocks: %v", bits, m, err)
			} else if s != was {
				t.Errorf("%d-bit key, %v: no blocks changed the chain value", bits, m)
			}
		}
	}
}
