//go:build (linux || darwin) && gc && !purego

package kernel

import (
	"fmt"
	"testing"
)

// TestChainKernelsNoBlocks calls arm64-1way's chain kernels with no
// blocks and their buffers on an inaccessible page, as on amd64
// (chain_none_amd64_test.go): they must touch neither buffer and leave the
// chain value as it was.
func TestChainKernelsNoBlocks(t *testing.T) {
	r := testRand(t)
	for _, bits := range []int{128, 192, 256} {
		c := newCipher(randBytes(r, bits/8), ARM64x1)
		_, ks, tb := c.Single()
		checkChainNoBlocks(t, r, fmt.Sprintf("%d-bit key", bits), func(m ChainMode, none *byte, s *[BlockSize]byte) {
			chain1x(tb, ks, m, none, none, 0, s)
		})
	}
}
