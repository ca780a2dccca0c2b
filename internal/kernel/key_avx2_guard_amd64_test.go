//go:build gc && !purego && (linux || darwin)

package kernel

import (
	"testing"
	"unsafe"

	"github.com/twofish-go/twofish/internal/guardpage"
)

// TestScheduleAVX2Guarded runs scheduleAVX2, and subkeysAVX2, with each of
// their buffers flush
// against a page that faults, after and before it: they must read and
// write nothing outside them.
func TestScheduleAVX2Guarded(t *testing.T) {
	if !runsKeyAVX2 {
		skipUnsupported(t, "avx2")
	}
	r := testRand(t)
	for _, size := range keySizes {
		key := randBytes(r, size)
		ref := withLayouts(tablesLayout)
		ref.expandTables(key, false)
		w := splitKey(key)
		inGo := newKeyBytes(key, w)
		for _, atEnd := range []bool{true, false} {
			place := func(n int) unsafe.Pointer { return unsafe.Pointer(&guardpage.Flush(t, n, atEnd)[0]) }
			s := (*[4][256]uint32)(place(4096))
			h := (*[40]uint32)(place(4 * 40))
			in := (*keyBytesAVX512)(place(int(unsafe.Sizeof(inGo))))
			*in = inGo
			scheduleAVX2(s, h, in, w.k)
			if *s != ref.tables().s {
				t.Fatalf("key %x: guarded tables differ from expandTables", key)
			}
			var k [40]uint32
			if setSubkeysOfH(&k, h); k != ref.k {
				t.Fatalf("key %x: guarded subkeys differ from expandTables", key)
			}
			*h = [40]uint32{}
			subkeysAVX2(h, in, w.k)
			if setSubkeysOfH(&k, h); k != ref.k {
				t.Fatalf("key %x: guarded subkeys of subkeysAVX2 differ from expandTables", key)
			}
		}
	}
}
