//go:build gc && !purego && (linux || darwin)

package kernel

import (
	"bytes"
	"fmt"
	"testing"
	"unsafe"

	"github.com/twofish-go/twofish/internal/cpu"
	"github.com/twofish-go/twofish/internal/guardpage"
)

// TestOCBMaskGuardPages runs each OCBMask implementation this CPU runs,
// with every op, over blocks flush against a page that faults, after and
// before them, for every block count of a batch, and with its table,
// offsets and checksum each flush against one too: an implementation that
// reads or writes one byte outside them (a vector load of a whole register
// for the last block or two of a batch, say) crashes the test. The guard
// tests of the OCB mode reach only the implementation this CPU chose.
// With -short (under emulation), past two groups only the counts at each
// group's edges run.
func TestOCBMaskGuardPages(t *testing.T) {
	for _, impl := range cpu.Host().OCBMask.Options {
		t.Run(impl.Name, func(t *testing.T) {
			if !impl.Supported {
				t.Skipf("OCBMask %s is not supported on this CPU", impl.Name)
			}
			r := testRand(t)
			a, b := guardpage.New(t, OCBBatch), guardpage.New(t, OCBBatch)
			for _, atEnd := range []bool{true, false} {
				table := (*OCBTable)(unsafe.Pointer(&guardpage.Flush(t, int(unsafe.Sizeof(OCBTable{})), atEnd)[0]))
				*table = *randomOCBTable(r)
				offs := (*OCBOffsets)(unsafe.Pointer(&guardpage.Flush(t, int(unsafe.Sizeof(OCBOffsets{})), atEnd)[0]))
				var sum0 [BlockSize]byte
				*offs, sum0 = randomOCBOffsets(r)
				sum := (*[BlockSize]byte)(guardpage.Flush(t, BlockSize, atEnd))
				for n := 1; n <= OCBBatch/BlockSize; n++ {
					if k := n % OCBGroup; testing.Short() && n > 2*OCBGroup && k > 1 && k < OCBGroup-1 {
						continue // with -short, past two groups only each group's edges
					}
					size := n * BlockSize
					for _, place := range guardpage.Placements(a, b, size) {
						for op := range 3 {
							copy(place.Src, randBytes(r, size))
							want, wantSum := make([]byte, size), sum0
							ocbMaskGeneric(want, place.Src, table, offs, &wantSum, op)
							*sum = sum0
							ocbMaskWith(ocbMaskIndex(impl.Name), place.Dst, place.Src, table, offs, sum, op)
							what := fmt.Sprintf("op %d, %d blocks, %s, key material at the end of its page %v", op, n, place.Name, atEnd)
							if !bytes.Equal(place.Dst, want) || *sum != wantSum {
								t.Fatalf("%s: differs from ocbMaskGeneric", what)
							}
						}
					}
				}
			}
		})
	}
}

// TestOCBGroupsShortDst runs OCBGroups with a destination shorter than the
// blocks it takes, flush against a guard page: it panics before a kernel
// writes a byte past it or adds a block to the checksum, whatever part of
// the batch (whole groups, a padded group, the word layout's run after
// two groups, a whole batch) would reach there.
func TestOCBGroupsShortDst(t *testing.T) {
	forEachFused(t, func(t *testing.T, kern *Kernel) {
		r := testRand(t)
		c := newCipher(randBytes(r, 32), kern)
		table := randomOCBTable(r)
		offs, sum0 := randomOCBOffsets(r)
		for _, blocks := range []int{OCBGroup, OCBGroup + 37, 2*OCBGroup + 20, OCBBatch / BlockSize} {
			src := randBytes(r, blocks*BlockSize)
			if took := c.OCBTakes(blocks); took != blocks {
				t.Fatalf("%d blocks: OCBGroups takes %d of them", blocks, took)
			}
			for _, short := range []int{BlockSize + 1, len(src) / 2, len(src) - 1} {
				for _, dec := range []bool{false, true} {
					dst, sum := guardpage.Flush(t, short, true), sum0
					func() {
						defer func() {
							if recover() == nil {
								t.Errorf("%d blocks, dst of %d bytes, decrypt %v: no panic", blocks, short, dec)
							}
						}()
						c.OCBGroups(dst, src, table, &offs, &sum, dec)
					}()
					if !bytes.Equal(dst, make([]byte, short)) || sum != sum0 {
						t.Errorf("%d blocks, dst of %d bytes, decrypt %v: wrote before it panicked", blocks, short, dec)
					}
				}
			}
		}
	})
}
