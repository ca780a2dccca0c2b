//go:build linux || darwin

package ghash

import (
	"testing"
	"unsafe"

	"github.com/twofish-go/twofish/internal/guardpage"
)

// TestGHASHGuardPages runs every GHASH implementation with its data, its
// running value and its key each flush against a page that faults, after
// and before it, for every block count up to 100 (every tail of the runs
// of 4, 8 and 16 blocks) and a few large ones: an implementation that
// reads or writes one byte outside them crashes the test. GCM's guard
// test reaches only the implementation that this CPU chose, with its
// running value and key inside Go values.
func TestGHASHGuardPages(t *testing.T) {
	forEachGHASH(t, func(t *testing.T, g ghashImplInfo) {
		r := testRand(t)
		var h [16]byte
		copy(h[:], randBytes(r, 16))
		var ref Key
		ref.initWith(&h, ghashGeneric)
		counts := []int{}
		for n := 1; n <= 100; n++ {
			counts = append(counts, n)
		}
		counts = append(counts, 128, 255, 256+17)
		maxBytes := 16 * counts[len(counts)-1]
		for _, atEnd := range []bool{true, false} {
			k := (*Key)(unsafe.Pointer(&guardpage.Flush(t, int(unsafe.Sizeof(Key{})), atEnd)[0]))
			k.initWith(&h, g.impl)
			y := (*[16]byte)(guardpage.Flush(t, 16, atEnd))
			region := guardpage.New(t, maxBytes)
			for _, n := range counts {
				data := region.AtStart(16 * n)
				if atEnd {
					data = region.AtEnd(16 * n)
				}
				copy(data, randBytes(r, len(data)))
				start := randBytes(r, 16)
				var want [16]byte
				copy(want[:], start)
				ghashBlocksGeneric(&ref, &want, data)
				copy(y[:], start)
				if Blocks(k, y, data); *y != want {
					t.Fatalf("%d blocks, at the end of their pages %v: %x, want %x", n, atEnd, *y, want)
				}
			}
		}
	})
}
