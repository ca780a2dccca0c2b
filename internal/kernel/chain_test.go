package kernel

import (
	"bytes"
	"crypto/subtle"
	"fmt"
	"testing"
)

var chainModes = []ChainMode{ChainCBC, ChainCFB, ChainOFB, ChainMAC}

func (m ChainMode) String() string {
	return [...]string{"CBC", "CFB", "OFB", "MAC"}[m]
}

// hasChain reports whether c should run the chained modes in one call:
// where amd64-1way, avx512-gfni, avx2-ct or arm64-1way, in an assembly
// build the kernels with chain kernels, takes its single blocks.
func hasChain(c *Cipher) bool {
	switch c.plan.Single.Name {
	case "amd64-1way", "avx512-gfni", "avx2-ct", "arm64-1way":
		return true
	}
	return false
}

// chainByBlocks runs mode m over n blocks from the chain value s a block at
// a time with ref, as the modes define it.
func chainByBlocks(ref *Cipher, m ChainMode, dst, src []byte, s *[BlockSize]byte, n int) {
	for i := range n {
		var x [BlockSize]byte
		switch m {
		case ChainCBC, ChainMAC:
			subtle.XORBytes(x[:], s[:], src[BlockSize*i:])
			ref.EncryptBlocks(s[:], x[:])
		case ChainCFB:
			ref.EncryptBlocks(x[:], s[:])
			subtle.XORBytes(s[:], x[:], src[BlockSize*i:])
		case ChainOFB:
			ref.EncryptBlocks(s[:], s[:])
		}
		if m != ChainMAC {
			copy(dst[BlockSize*i:], s[:])
		}
	}
}

// TestChain runs every chained mode through Cipher.Chain with every kernel
// and checks that the kernels that should have chain kernels run it, and
// the others decline it.
func TestChain(t *testing.T) {
	forEachKernel(t, checkChain)
}

// checkChain checks Cipher.Chain with k's plan against chainByBlocks with
// generic: every mode, block counts 0 to 40, every key size, separate and
// in place (CBC, CFB), with the chain value carried from call to call.
func checkChain(t *testing.T, k *Kernel) {
	r := testRand(t)
	for _, size := range keySizes {
		key := randBytes(r, size)
		c, ref := newCipher(key, k), newCipher(key, Generic)
		want := hasChain(c)
		for _, m := range chainModes {
			var s, ws [BlockSize]byte
			copy(s[:], randBytes(r, BlockSize))
			ws = s
			for n := range 41 {
				for _, inPlace := range []bool{false, true} {
					if inPlace && (m == ChainOFB || m == ChainMAC) {
						continue
					}
					what := fmt.Sprintf("%d-bit key, %v, %d blocks, in place %v", 8*size, m, n, inPlace)
					src := randBytes(r, n*BlockSize+1)[1:]
					dst := make([]byte, n*BlockSize+1)[1:]
					wantDst := make([]byte, n*BlockSize)
					chainByBlocks(ref, m, wantDst, src, &ws, n)
					if inPlace {
						dst = src
					}
					in, out := src, dst
					switch m {
					case ChainOFB:
						in = nil
					case ChainMAC:
						out = nil
					}
					if got := c.Chain(m, out, in, &s); got != want {
						t.Fatalf("%s: Chain ran %v, want %v (single blocks: %s)", what, got, want, c.plan.Single.Name)
					}
					if !want {
						return
					}
					if s != ws {
						t.Fatalf("%s: chain value %x, want %x", what, s, ws)
					}
					if m != ChainMAC && !bytes.Equal(dst, wantDst) {
						t.Fatalf("%s: output differs from the mode a block at a time", what)
					}
				}
			}
		}
	}
}

// TestChainUnknownMode gives Cipher.Chain a mode it does not define: every
// kernel with chain kernels panics, at every key size, before it writes the
// output or the chain value, where a kernel's last case might otherwise
// catch it and run CBC-MAC.
func TestChainUnknownMode(t *testing.T) {
	forEachKernel(t, func(t *testing.T, k *Kernel) {
		r := testRand(t)
		for _, size := range keySizes {
			c := newCipher(randBytes(r, size), k)
			if !hasChain(c) {
				t.Skipf("%s has no chain kernels", k.Name)
			}
			src, dst := randBytes(r, 2*BlockSize), make([]byte, 2*BlockSize)
			var s [BlockSize]byte
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%d-bit key: Chain ran mode %d", 8*size, len(chainModes))
					}
				}()
				c.Chain(ChainMode(len(chainModes)), dst, src, &s)
			}()
			if !bytes.Equal(dst, make([]byte, len(dst))) || s != [BlockSize]byte{} {
				t.Errorf("%d-bit key: wrote before it panicked", 8*size)
			}
		}
	})
}
