//go:build gc && !purego

package twofish

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestOCBMaskAssembly compares each ocbMask function this CPU runs with
// ocbMaskGeneric: every block count of a batch, every op, in place and
// not, unaligned.
func TestOCBMaskAssembly(t *testing.T) {
	saved := ocbMaskImpl
	defer func() { ocbMaskImpl = saved }()
	for _, impl := range []struct {
		name      string
		n         int
		supported bool
	}{{"sse2", 1, true}, {"avx2", 2, haveOCBAVX2}, {"avx512", 3, haveOCBAVX512}} {
		t.Run(impl.name, func(t *testing.T) {
			if !impl.supported {
				t.Skipf("ocbMask %s is not supported on this CPU", impl.name)
			}
			r := testRand(t)
			table := randomOCBTable(r)
			for op := range 3 {
				for n := 0; n <= ocbBatch/BlockSize; n++ {
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
						ocbMaskImpl = impl.n
						ocbMask(got, src, table, &offs, &gotSum, op)
						ocbMaskImpl = saved
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

// TestOCBGroupsAssembly compares the OCB kernels of avx512-vbmi, which
// apply the offsets themselves, with passes of ocbMaskGeneric around the
// 64-block kernels: every number of groups in a batch, both directions, in
// place and not, unaligned.
func TestOCBGroupsAssembly(t *testing.T) {
	if !haveAVX512VBMI {
		t.Skip("avx512-vbmi is not supported on this CPU")
	}
	r := testRand(t)
	for _, bits := range []int{128, 256} {
		c := mustCipher(t, randBytes(r, bits/8), "avx512-vbmi")
		b := aeadBlock{c: c}
		table := randomOCBTable(r)
		for n := 1; n <= ocbBatch/(ocbGroup*BlockSize); n++ {
			for _, dec := range []bool{false, true} {
				for _, inPlace := range []bool{false, true} {
					offs, sum0 := randomOCBOffsets(r)
					src := randBytes(r, n*ocbGroup*BlockSize+1)[1:]

					want, wantSum := make([]byte, len(src)), sum0
					if dec {
						ocbMaskGeneric(want, src, table, &offs, &wantSum, ocbWhiten)
						c.decryptBlocks(want, want)
						ocbMaskGeneric(want, want, table, &offs, &wantSum, ocbSumDst)
					} else {
						ocbMaskGeneric(want, src, table, &offs, &wantSum, ocbSumSrc)
						c.encryptBlocks(want, want)
						ocbMaskGeneric(want, want, table, &offs, &wantSum, ocbWhiten)
					}

					got, gotSum := make([]byte, len(src)+1)[1:], sum0
					if inPlace {
						got = bytes.Clone(src)
						src = got
					}
					if !ocbGroups(&b, got, src, table, &offs, &gotSum, dec) {
						t.Fatalf("ocbGroups declined %d groups", n)
					}
					what := fmt.Sprintf("%d-bit key, %d groups, decrypt %v, in place %v", bits, n, dec, inPlace)
					if !bytes.Equal(got, want) {
						t.Fatalf("%s: blocks differ from ocbMaskGeneric around the kernels", what)
					}
					if gotSum != wantSum {
						t.Fatalf("%s: checksum differs from ocbMaskGeneric around the kernels", what)
					}
				}
			}
		}
	}
}

// randomOCBTable returns a random table in the place of ocb.t.
func randomOCBTable(r *rand.Rand) *[ocbGroup][BlockSize]byte {
	var t [ocbGroup][BlockSize]byte
	for k := range t {
		copy(t[k][:], randBytes(r, BlockSize))
	}
	return &t
}

// randomOCBOffsets returns random offsets of a batch and a random checksum.
func randomOCBOffsets(r *rand.Rand) (offs ocbOffsets, sum [BlockSize]byte) {
	for g := range offs.base {
		copy(offs.base[g][:], randBytes(r, BlockSize))
		copy(offs.fix[g][:], randBytes(r, BlockSize))
	}
	copy(sum[:], randBytes(r, BlockSize))
	return offs, sum
}
