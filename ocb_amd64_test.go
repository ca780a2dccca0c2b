//go:build gc && !purego

package twofish

import (
	"bytes"
	"fmt"
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
			var table [ocbGroup][BlockSize]byte
			for k := range table {
				copy(table[k][:], randBytes(r, BlockSize))
			}
			for op := range 3 {
				for n := 0; n <= ocbBatch/BlockSize; n++ {
					for _, inPlace := range []bool{false, true} {
						var offs ocbOffsets
						for g := range offs.base {
							copy(offs.base[g][:], randBytes(r, BlockSize))
							copy(offs.fix[g][:], randBytes(r, BlockSize))
						}
						var sum0 [BlockSize]byte
						copy(sum0[:], randBytes(r, BlockSize))
						src := randBytes(r, n*BlockSize+1)[1:]
						want, wantSum := make([]byte, len(src)), sum0
						ocbMaskGeneric(want, src, &table, &offs, &wantSum, op)
						got, gotSum := make([]byte, len(src)+1)[1:], sum0
						if inPlace {
							got = bytes.Clone(src)
							src = got
						}
						ocbMaskImpl = impl.n
						ocbMask(got, src, &table, &offs, &gotSum, op)
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
