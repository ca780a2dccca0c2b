//go:build gc && !purego

package kernel

import (
	"bytes"
	"fmt"
	"testing"
)

// TestARM64KernelsSetTheirTableBases runs each arm64 table kernel
// (arm64-1way's and arm64-2way's block kernels and arm64-1way's chain
// kernels, _asm/arm64scalar) right after each of them has run with another
// key's tables, and compares it with generic. Each kernel must set the base
// registers of all four MDS·S-box tables (R0 and R5..R7) from its own t
// argument. One that left a base out would use whatever an earlier call
// left in the register; the other tests run a cipher's kernels back to
// back with one Tables, so that a base left by the kernel before would be
// the right one, and such a kernel would pass wherever a call with the
// same tables happened to come first. Here the base left behind belongs to
// the other key's tables, and the answer is wrong.
func TestARM64KernelsSetTheirTableBases(t *testing.T) {
	for _, k := range []*Kernel{ARM64x1, arm64x2} {
		if !k.Supported {
			skipUnsupported(t, k.Name)
		}
	}
	r := testRand(t)
	const n = 4 // blocks: two groups of arm64-2way
	type keyed struct {
		ref *Cipher
		tb  *Tables
		ks  *Schedule
	}
	newKeyed := func(size int) keyed {
		key := randBytes(r, size)
		_, ks, tb := newCipher(key, ARM64x1).WarmSingle()
		return keyed{newCipher(key, Generic), tb, ks}
	}
	src := randBytes(r, n*BlockSize)
	iv := randBytes(r, BlockSize)
	type kernel struct {
		name string
		run  func(c keyed, dst []byte) // dst: n blocks, or the chain value after them
		want func(c keyed, dst []byte)
	}
	var kernels []kernel
	for _, blocks := range []struct {
		name     string
		enc, dec func(t *Tables, ks *Schedule, dst, src *byte, n int)
		lanes    int
	}{
		{"Blocks1x", encryptBlocks1x, decryptBlocks1x, 1},
		{"Blocks2x", encryptBlocks2x, decryptBlocks2x, 2},
	} {
		kernels = append(kernels,
			kernel{"encrypt" + blocks.name,
				func(c keyed, dst []byte) { blocks.enc(c.tb, c.ks, &dst[0], &src[0], n/blocks.lanes) },
				func(c keyed, dst []byte) { c.ref.EncryptBlocks(dst, src) }},
			kernel{"decrypt" + blocks.name,
				func(c keyed, dst []byte) { blocks.dec(c.tb, c.ks, &dst[0], &src[0], n/blocks.lanes) },
				func(c keyed, dst []byte) { c.ref.DecryptBlocks(dst, src) }})
	}
	for _, m := range chainModes {
		kernels = append(kernels, kernel{fmt.Sprintf("chain %v", m),
			func(c keyed, dst []byte) {
				var s [BlockSize]byte
				copy(s[:], iv)
				out := make([]byte, n*BlockSize)
				d, p := &out[0], &src[0]
				switch m {
				case ChainOFB:
					p = nil
				case ChainMAC:
					d = nil
				}
				chain1x(c.tb, c.ks, m, d, p, n, &s)
				copy(dst, s[:])
			},
			func(c keyed, dst []byte) {
				var s [BlockSize]byte
				copy(s[:], iv)
				chainByBlocks(c.ref, m, make([]byte, n*BlockSize), src, &s, n)
				copy(dst, s[:])
			}})
	}
	for _, size := range keySizes {
		before, c := newKeyed(size), newKeyed(size)
		for _, next := range kernels {
			want := make([]byte, n*BlockSize)
			next.want(c, want)
			for _, first := range kernels {
				first.run(before, make([]byte, n*BlockSize))
				got := make([]byte, n*BlockSize)
				next.run(c, got)
				if !bytes.Equal(got, want) {
					t.Errorf("%d-bit key, %s right after %s with another key's tables: %x, want %x", 8*size, next.name, first.name, got, want)
				}
			}
		}
	}
}
