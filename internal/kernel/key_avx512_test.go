package kernel

import (
	"fmt"
	"testing"
)

// TestExpandSliced checks the byte-sliced key schedule against the table
// one: the same subkeys, S-box bytes whose MDS columns are the table
// kernels' s, and nothing else written.
func TestExpandSliced(t *testing.T) {
	r := testRand(t)
	for _, size := range keySizes {
		t.Run(fmt.Sprintf("key=%d", 8*size), func(t *testing.T) {
			keys := [][]byte{make([]byte, size)}
			for range 16 {
				keys = append(keys, randBytes(r, size))
			}
			for _, key := range keys {
				var want, got Schedule
				want.expand(key)
				got.expandSliced(key)
				if got.k != want.k {
					t.Fatalf("key %x: subkeys\n%08x\nwant\n%08x", key, got.k, want.k)
				}
				for j := range 4 {
					for x := range 256 {
						s := got.slicedSbox(j, byte(x))
						if g, w := mdsColumn(j, s), want.s[j][x]; g != w {
							t.Fatalf("key %x: S-box %d at %#02x is %#02x, MDS column %#08x, want %#08x", key, j, x, s, g, w)
						}
					}
				}
				for j := 1; j < 4; j++ {
					if got.s[j] != ([256]uint32{}) {
						t.Fatalf("expandSliced wrote s[%d]", j)
					}
				}
			}
		})
	}
}

// TestHTables checks the composed tables of the h function's byte chains
// against hByte, with different key words in the two halves.
func TestHTables(t *testing.T) {
	r := testRand(t)
	for k := 2; k <= 4; k++ {
		l0, l1 := make([]uint32, k), make([]uint32, k)
		for i := range k {
			l0[i], l1[i] = r.Uint32(), r.Uint32()
		}
		var tab [256]uint64
		hTables(&tab, l0, l1)
		last := [4]*[256]byte{&q1, &q0, &q1, &q0}
		for x := range 256 {
			for j := range 4 {
				for h, l := range [][]uint32{l0, l1} {
					want := last[j][hByte(j, byte(x), l)]
					if got := byte(tab[x] >> (32*h + 8*j)); got != want {
						t.Fatalf("k=%d, half %d, byte %d, x=%#02x: %#02x, want %#02x", k, h, j, x, got, want)
					}
				}
			}
		}
	}
}

func TestMDSMultiplyCT(t *testing.T) {
	r := testRand(t)
	for range 10000 {
		y := r.Uint32()
		var want uint32
		for j := range 4 {
			want ^= mdsColumn(j, byte(y>>(8*j)))
		}
		if got := mdsMultiplyCT(y); got != want {
			t.Fatalf("mdsMultiplyCT(%#08x) = %#08x, want %#08x", y, got, want)
		}
	}
}

func BenchmarkExpandSliced(b *testing.B) {
	for _, bits := range []int{128, 192, 256} {
		key := make([]byte, bits/8)
		b.Run(fmt.Sprintf("key=%d", bits), func(b *testing.B) {
			b.ReportAllocs()
			var ks Schedule
			for b.Loop() {
				ks.expandSliced(key)
			}
		})
	}
}
