//go:build gc && !purego && (linux || darwin)

package kernel

import (
	"testing"
	"unsafe"

	"github.com/twofish-go/twofish/internal/guardpage"
)

// TestScheduleAVX512Guarded runs scheduleAVX512, and tablesFromSlicedAVX512
// on its S-boxes, with each of their buffers flush against a page that
// faults, after and before it: they must read and write nothing outside
// them.
func TestScheduleAVX512Guarded(t *testing.T) {
	if !keyAVX512 {
		skipUnsupported(t, "avx512-vbmi")
	}
	r := testRand(t)
	for _, size := range keySizes {
		key := randBytes(r, size)
		ref := withLayouts(tablesLayout, slicedLayout)
		ref.expandTables(key, true)
		w := splitKey(key)
		inGo := newKeyBytes(key, w)
		for _, atEnd := range []bool{true, false} {
			place := func(n int) unsafe.Pointer { return unsafe.Pointer(&guardpage.Flush(t, n, atEnd)[0]) }
			s := (*[4][256]uint32)(place(4096))
			y := (*[256]uint32)(place(1024))
			h := (*[48]uint32)(place(4 * 48))
			in := (*keyBytesAVX512)(place(int(unsafe.Sizeof(inGo))))
			*in = inGo
			scheduleAVX512(s, y, h, in, w.k)
			if *s != ref.tables().s || *y != *ref.sliced() {
				t.Fatalf("key %x: guarded S-boxes differ from expandTables", key)
			}
			var k [40]uint32
			if setSubkeysOfH(&k, (*[40]uint32)(h[:40])); k != ref.k {
				t.Fatalf("key %x: guarded subkeys differ from expandTables", key)
			}
			s2 := (*[4][256]uint32)(place(4096))
			tablesFromSlicedAVX512(s2, y)
			if *s2 != ref.tables().s {
				t.Fatalf("key %x: guarded tables from the byte-sliced S-boxes differ from expandTables", key)
			}
		}
	}
}
