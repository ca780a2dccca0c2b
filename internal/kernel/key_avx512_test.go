package kernel

import (
	"fmt"
	"testing"
)

// TestExpandSliced checks the byte-sliced key schedule against the table
// one: the same subkeys, and S-box bytes whose MDS columns are the table
// kernels' s.
func TestExpandSliced(t *testing.T) {
	r := testRand(t)
	for _, size := range keySizes {
		t.Run(fmt.Sprintf("key=%d", 8*size), func(t *testing.T) {
			keys := [][]byte{make([]byte, size)}
			for range 16 {
				keys = append(keys, randBytes(r, size))
			}
			for _, key := range keys {
				want, got := withLayouts(tablesLayout), withLayouts(slicedLayout)
				want.expandTables(key, false)
				got.expandSliced(key)
				if got.k != want.k {
					t.Fatalf("key %x: subkeys\n%08x\nwant\n%08x", key, got.k, want.k)
				}
				for j := range 4 {
					for x := range 256 {
						s := got.slicedSbox(j, byte(x))
						if g, w := mdsColumn(j, s), want.tables().s[j][x]; g != w {
							t.Fatalf("key %x: S-box %d at %#02x is %#02x, MDS column %#08x, want %#08x", key, j, x, s, g, w)
						}
					}
				}
			}
		})
	}
}
