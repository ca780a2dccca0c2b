//go:build gc && !purego

package kernel

import (
	"bytes"
	"crypto/subtle"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twofish-go/twofish/internal/cpu"
)

// TestOCBMaskImplementationsDistinct checks that each OCBMask
// implementation internal/cpu names runs code of its own: a name that ran
// another's code would pass TestOCBMaskAssembly on that code and leave its
// own untested.
func TestOCBMaskImplementationsDistinct(t *testing.T) {
	seen := map[int]string{}
	for _, impl := range cpu.Host().OCBMask.Options {
		i := ocbMaskIndex(impl.Name)
		if other, ok := seen[i]; ok {
			t.Errorf("OCBMask %s runs the code of %s", impl.Name, other)
		}
		seen[i] = impl.Name
	}
}

// TestOCBMaskAssembly compares each OCBMask implementation this CPU runs
// with ocbMaskGeneric: every block count of a batch, every op, in place
// and not, unaligned.
func TestOCBMaskAssembly(t *testing.T) {
	for _, impl := range cpu.Host().OCBMask.Options {
		t.Run(impl.Name, func(t *testing.T) {
			if !impl.Supported {
				t.Skipf("OCBMask %s is not supported on this CPU", impl.Name)
			}
			if impl.Name != "generic" && ocbMaskIndex(impl.Name) == ocbMaskGo {
				t.Fatalf("OCBMask %s runs the Go code", impl.Name)
			}
			r := testRand(t)
			table := randomOCBTable(r)
			for op := range 3 {
				for n := 0; n <= OCBBatch/BlockSize; n++ {
					for _, inPlace := range []bool{false, true} {
						offs, sum0 := randomOCBOffsets(r)
						src := randBytes(r, n*BlockSize+1)[1:]
						want, wantSum := make([]byte, len(src)), sum0
						ocbMaskGeneric(want, src, table, &offs, &wantSum, op)
						got, gotSum := make([]byte, len(src)+1)[1:], sum0
						if inPlace {
							got = bytes.Clone(src)
							src = got
						}
						ocbMaskWith(ocbMaskIndex(impl.Name), got, src, table, &offs, &gotSum, op)
						what := fmt.Sprintf("op %d, %d blocks, in place %v", op, n, inPlace)
						if !bytes.Equal(got, want) {
							t.Fatalf("%s: blocks differ from ocbMaskGeneric", what)
						}
						if gotSum != wantSum {
							t.Fatalf("%s: checksum differs from ocbMaskGeneric", what)
						}
					}
				}
			}
		})
	}
}

// TestOCBGroupsAssembly compares the OCB kernels of avx512-vbmi and
// avx512-gfni, which apply the offsets themselves, with passes of
// ocbMaskGeneric around the block cipher: every number of whole groups in
// a batch, alone and with blocks after them, both directions and the hash,
// in place and not, unaligned. OCBGroups takes the whole groups, and the
// blocks after them that a pinned plan gives the 16- and 32-block kernels
// (through the word layout's OCB kernels) or pads into a group (the
// 64-block kernels mask it); it declines a batch longer than OCBBatch; and
// it leaves the rest of dst alone. OCBHash takes the same blocks, adds up
// their encryptions, whitened as OCBGroups whitens them, and writes
// nothing but the sum.
func TestOCBGroupsAssembly(t *testing.T) {
	forEachFused(t, func(t *testing.T, kern *Kernel) {
		r := testRand(t)
		for _, bits := range []int{128, 256} {
			c := newCipher(randBytes(r, bits/8), kern)
			table := randomOCBTable(r)
			for g := 0; g <= OCBBatch/(OCBGroup*BlockSize); g++ {
				for _, rest := range []int{0, 1, smallTail, smallTail + 1, 16, 17, narrowMost, narrowMost + 1, OCBGroup - 1} {
					n := g*OCBGroup + rest
					done := g * OCBGroup // a rest for the 4-block kernels
					switch {
					case n > OCBBatch/BlockSize:
						done = 0
					case rest == 0 || rest > smallTail:
						done = n
					}
					for _, dec := range []bool{false, true} {
						for _, inPlace := range []bool{false, true} {
							offs, sum0 := randomOCBOffsets(r)
							src := randBytes(r, n*BlockSize+1)[1:]
							want, wantSum := make([]byte, len(src)), sum0
							if inPlace {
								copy(want, src)
							}
							w := want[:done*BlockSize]
							if dec {
								ocbMaskGeneric(w, src[:len(w)], table, &offs, &wantSum, OCBWhiten)
								c.DecryptBlocks(w, w)
								ocbMaskGeneric(w, w, table, &offs, &wantSum, OCBSumDst)
							} else {
								ocbMaskGeneric(w, src[:len(w)], table, &offs, &wantSum, OCBSumSrc)
								c.EncryptBlocks(w, w)
								ocbMaskGeneric(w, w, table, &offs, &wantSum, OCBWhiten)
							}
							got, gotSum := make([]byte, len(src)+1)[1:], sum0
							if inPlace {
								got = bytes.Clone(src)
								src = got
							}
							what := fmt.Sprintf("%d-bit key, %d groups and %d blocks, decrypt %v, in place %v", bits, g, rest, dec, inPlace)
							if m := c.OCBGroups(got, src, table, &offs, &gotSum, dec); m != done*BlockSize {
								t.Fatalf("%s: OCBGroups did %d bytes, want %d", what, m, done*BlockSize)
							}
							if !bytes.Equal(got, want) {
								t.Fatalf("%s: blocks differ from ocbMaskGeneric around the kernels", what)
							}
							if gotSum != wantSum {
								t.Fatalf("%s: checksum differs from ocbMaskGeneric around the kernels", what)
							}
						}
					}
					offs, sum0 := randomOCBOffsets(r)
					src := randBytes(r, n*BlockSize+1)[1:]
					orig := bytes.Clone(src)
					w, wantSum, unused := make([]byte, done*BlockSize), sum0, sum0
					ocbMaskGeneric(w, src[:len(w)], table, &offs, &unused, OCBWhiten)
					c.EncryptBlocks(w, w)
					for b := 0; b < len(w); b += BlockSize {
						subtle.XORBytes(wantSum[:], wantSum[:], w[b:b+BlockSize])
					}
					what := fmt.Sprintf("%d-bit key, %d groups and %d blocks, hash", bits, g, rest)
					gotSum := sum0
					if m := c.OCBHash(src, table, &offs, &gotSum); m != done*BlockSize {
						t.Fatalf("%s: OCBHash did %d bytes, want %d", what, m, done*BlockSize)
					}
					if gotSum != wantSum {
						t.Fatalf("%s: sum differs from ocbMaskGeneric and the block cipher", what)
					}
					if !bytes.Equal(src, orig) {
						t.Fatalf("%s: OCBHash wrote to its source", what)
					}
				}
			}
		}
	})
}

// TestOCBMaskBatchOnly gives each OCBMask implementation this CPU runs
// more than a batch, a group more: it does the batch's blocks, as it does
// them alone, and leaves the blocks after them and their part of the
// checksum alone, where offs has no offsets for them.
func TestOCBMaskBatchOnly(t *testing.T) {
	for _, impl := range cpu.Host().OCBMask.Options {
		t.Run(impl.Name, func(t *testing.T) {
			if !impl.Supported {
				t.Skipf("OCBMask %s is not supported on this CPU", impl.Name)
			}
			r := testRand(t)
			table := randomOCBTable(r)
			offs, sum0 := randomOCBOffsets(r)
			src := randBytes(r, OCBBatch+OCBGroup*BlockSize)
			for op := range 3 {
				want, wantSum := make([]byte, OCBBatch), sum0
				ocbMaskWith(ocbMaskIndex(impl.Name), want, src[:OCBBatch], table, &offs, &wantSum, op)
				got, gotSum := randBytes(r, len(src)), sum0
				guard := bytes.Clone(got[OCBBatch:])
				ocbMaskWith(ocbMaskIndex(impl.Name), got, src, table, &offs, &gotSum, op)
				if !bytes.Equal(got[:OCBBatch], want) || gotSum != wantSum {
					t.Fatalf("op %d: the batch differs from the batch alone", op)
				}
				if !bytes.Equal(got[OCBBatch:], guard) {
					t.Fatalf("op %d: wrote past the batch", op)
				}
			}
		})
	}
}

// randomOCBTable returns a random table in the place of OCB's.
func randomOCBTable(r *rand.Rand) *OCBTable {
	var t OCBTable
	for k := range t {
		copy(t[k][:], randBytes(r, BlockSize))
	}
	return &t
}

// randomOCBOffsets returns random offsets of a batch and a random checksum.
func randomOCBOffsets(r *rand.Rand) (offs OCBOffsets, sum [BlockSize]byte) {
	for g := range offs.Base {
		copy(offs.Base[g][:], randBytes(r, BlockSize))
		copy(offs.Fix[g][:], randBytes(r, BlockSize))
	}
	copy(sum[:], randBytes(r, BlockSize))
	return offs, sum
}

// TestOCBGroupsDecline checks that OCBGroups and OCBHash decline, leaving
// dst and the checksum alone, what their kernels cannot take: any batch on
// a Cipher without them, and on one with them a batch with more groups
// than OCBOffsets has offsets for, whose offsets the kernels would read
// from past the end of offs.
func TestOCBGroupsDecline(t *testing.T) {
	r := testRand(t)
	table := randomOCBTable(r)
	offs, sum0 := randomOCBOffsets(r)
	group := OCBGroup * BlockSize
	for _, k := range All() {
		if !k.Supported {
			continue
		}
		c := newCipher(randBytes(r, 16), k)
		sizes := []int{OCBBatch + group, 2 * OCBBatch}
		if !c.Fused() {
			sizes = append(sizes, group, OCBBatch)
		}
		for _, size := range sizes {
			src := randBytes(r, size)
			for _, dec := range []bool{false, true} {
				dst, sum := make([]byte, size), sum0
				if c.OCBGroups(dst, src, table, &offs, &sum, dec) != 0 {
					t.Errorf("%s: OCBGroups took %d blocks (decrypt %v)", k.Name, size/BlockSize, dec)
				}
				if !bytes.Equal(dst, make([]byte, size)) || sum != sum0 {
					t.Errorf("%s: OCBGroups declined %d blocks (decrypt %v) but wrote", k.Name, size/BlockSize, dec)
				}
			}
			sum := sum0
			if c.OCBHash(src, table, &offs, &sum) != 0 || sum != sum0 {
				t.Errorf("%s: OCBHash took or added up %d blocks", k.Name, size/BlockSize)
			}
		}
	}
}
