package kernel

import (
	"bytes"
	"testing"
)

// TestChainWholeBlocks runs every chained mode over a source with a
// partial last block (OFB: a destination with one) into a destination
// longer than the source: Chain runs the whole blocks and nothing more, as
// the modes' callers expect, and writes no byte past them (MAC: none at
// all), whatever the destination's length.
func TestChainWholeBlocks(t *testing.T) {
	forEachKernel(t, func(t *testing.T, k *Kernel) {
		r := testRand(t)
		key := randBytes(r, 32)
		c, ref := newCipher(key, k), newCipher(key, Generic)
		if !hasChain(c) {
			t.Skipf("%s's single blocks have no chain kernel", c.plan.Single.Name)
		}
		for n := range 4 {
			for _, tail := range []int{1, 7, BlockSize - 1} {
				for _, m := range chainModes {
					src := randBytes(r, n*BlockSize+tail)
					dst := bytes.Repeat([]byte{0xa5}, len(src)+BlockSize)
					want := bytes.Clone(dst)
					var s, ws [BlockSize]byte
					copy(s[:], randBytes(r, BlockSize))
					ws = s
					chainByBlocks(ref, m, want, src, &ws, n)
					in, out := src, dst
					switch m {
					case ChainOFB:
						in, out = nil, dst[:len(src)]
					case ChainMAC:
						out = nil
					}
					if !c.Chain(m, out, in, &s) {
						t.Fatalf("%v, %d blocks and %d bytes: Chain declined", m, n, tail)
					}
					if s != ws {
						t.Fatalf("%v, %d blocks and %d bytes: chain value %x, want %x", m, n, tail, s, ws)
					}
					if !bytes.Equal(dst, want) {
						t.Fatalf("%v, %d blocks and %d bytes: destination %x, want %x", m, n, tail, dst, want)
					}
				}
			}
		}
	})
}

// TestChainShortDst runs CBC and CFB encryption with a destination shorter
// than the source's whole blocks, in front of spare capacity: Chain panics
// before a kernel writes a byte, in the destination or past it, and leaves
// the chain value as it was.
func TestChainShortDst(t *testing.T) {
	forEachKernel(t, func(t *testing.T, k *Kernel) {
		r := testRand(t)
		c := newCipher(randBytes(r, 32), k)
		if !hasChain(c) {
			t.Skipf("%s's single blocks have no chain kernel", c.plan.Single.Name)
		}
		const blocks = 5
		src := randBytes(r, blocks*BlockSize)
		for _, m := range []ChainMode{ChainCBC, ChainCFB} {
			for _, short := range []int{1, BlockSize, blocks*BlockSize - 1} {
				buf := make([]byte, len(src))
				var s [BlockSize]byte
				copy(s[:], randBytes(r, BlockSize))
				was := s
				func() {
					defer func() {
						if recover() == nil {
							t.Errorf("%v, dst of %d bytes for %d blocks: no panic", m, short, blocks)
						}
					}()
					c.Chain(m, buf[:short], src, &s)
				}()
				if !bytes.Equal(buf, make([]byte, len(src))) || s != was {
					t.Errorf("%v, dst of %d bytes for %d blocks: wrote before it panicked", m, short, blocks)
				}
			}
		}
	})
}
