//go:build gc && !purego

package kernel

import (
	"fmt"
	"testing"
)

// TestScheduleAVX512 checks the vector key schedule against the Go one on
// random keys of each size, with each layout alone and both together:
// every subkey, table word and byte-sliced S-box byte. TestSchedules
// checks both against the specification's reference.
func TestScheduleAVX512(t *testing.T) {
	if !keyAVX512 {
		skipUnsupported(t, "avx512-vbmi")
	}
	r := testRand(t)
	n := 500
	if testing.Short() {
		n = 50
	}
	for _, size := range keySizes {
		t.Run(fmt.Sprintf("key=%d", 8*size), func(t *testing.T) {
			for i := range n {
				key := randBytes(r, size)
				if i == 0 {
					key = make([]byte, size)
				}
				ref := withLayouts(tablesLayout, slicedLayout)
				ref.expandTables(key, true)
				both, tablesOnly, slicedOnly := withLayouts(tablesLayout, slicedLayout), withLayouts(tablesLayout, slicedLayout), withLayouts(tablesLayout, slicedLayout)
				expandAVX512(both, true, true, key)
				expandAVX512(tablesOnly, true, false, key)
				expandAVX512(slicedOnly, false, true, key)
				alone, slicedAlone := withLayouts(tablesLayout), withLayouts(slicedLayout)
				expandAVX512(alone, true, false, key)
				expandAVX512(slicedAlone, false, true, key)
				for name, got := range map[string]*Schedule{"tables (with sliced)": both, "tables (only)": tablesOnly, "tables (alone)": alone} {
					if got.tables().s != ref.tables().s || got.k != ref.k {
						t.Fatalf("key %x: %s differ from expandTables", key, name)
					}
				}
				if *tablesOnly.sliced() != ([256]uint32{}) {
					t.Fatalf("key %x: the tables alone wrote the byte-sliced S-boxes", key)
				}
				for name, got := range map[string]*Schedule{"sliced (with tables)": both, "sliced (only)": slicedOnly, "sliced (alone)": slicedAlone} {
					if *got.sliced() != *ref.sliced() || got.k != ref.k {
						t.Fatalf("key %x: %s differs from expandTables", key, name)
					}
				}
				if slicedOnly.tables().s != ([4][256]uint32{}) {
					t.Fatalf("key %x: the byte-sliced S-boxes alone wrote the tables", key)
				}
			}
		})
	}
}

// TestKeyAVX512AssemblyIsConstantTime checks key_avx512_amd64.s as
// TestAVX512AssemblyIsConstantTime checks the kernels: no memory operand
// with an index register, general-purpose registers loaded only from the
// argument frame, constants and addresses, no flags from vector or mask
// data, VZEROUPPER before RET; no GFNI (which Bochs computes wrongly), and
// no feature that internal/cpu's rule for avx512-vbmi does not check.
func TestKeyAVX512AssemblyIsConstantTime(t *testing.T) {
	checkAVX512Assembly(t, "key_avx512_amd64.s", "scheduleAVX512")
}
