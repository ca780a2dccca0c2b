//go:build linux || darwin

package kernel

import (
	"bytes"
	"testing"

	"github.com/twofish-go/twofish/internal/guardpage"
)

// TestChainGuarded runs every chained mode, where a kernel has chain
// kernels, over buffers that touch an inaccessible page on either side
// (OFB with a destination only, MAC with a source only), separate and in
// place, for every block count up to 20: a chain kernel that reads or
// writes a byte outside them crashes the test.
func TestChainGuarded(t *testing.T) {
	forEachKernel(t, checkChainGuarded)
}

// checkChainGuarded is TestChainGuarded for k's plan.
func checkChainGuarded(t *testing.T, k *Kernel) {
	r := testRand(t)
	key := randBytes(r, 32)
	c, ref := newCipher(key, k), newCipher(key, Generic)
	if !hasChain(c) {
		t.Skipf("%s's single blocks have no chain kernel", c.plan.Single.Name)
	}
	const maxBlocks = 20
	a := guardpage.New(t, maxBlocks*BlockSize)
	b := guardpage.New(t, maxBlocks*BlockSize)
	for n := 1; n <= maxBlocks; n++ {
		size := n * BlockSize
		for _, place := range guardpage.Placements(a, b, size) {
			for _, m := range chainModes {
				copy(place.Src, randBytes(r, size))
				var s, ws [BlockSize]byte
				copy(s[:], randBytes(r, BlockSize))
				ws = s
				want := make([]byte, size)
				chainByBlocks(ref, m, want, place.Src, &ws, n)
				in, out := place.Src, place.Dst
				switch m {
				case ChainOFB:
					in = nil
				case ChainMAC:
					out = nil
				}
				c.Chain(m, out, in, &s)
				if s != ws || (out != nil && !bytes.Equal(out, want)) {
					t.Fatalf("%v, %d blocks, %s: differs from the mode a block at a time", m, n, place.Name)
				}
			}
		}
	}
}
