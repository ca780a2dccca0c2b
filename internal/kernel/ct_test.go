package kernel

import (
	"fmt"
	"testing"
	"unsafe"
)

// Tests of the constant-time key schedule and of the avx2-ct nibble tables
// against the table-based key schedule. The kernels themselves are checked
// like every other, through Implementations (kat_test.go, kernels_test.go).

// TestQTypes checks the q0/q1 choices of the constant-time code against
// the table schedule's permutations.
func TestQTypes(t *testing.T) {
	qs := [2]*[256]byte{&q0, &q1}
	for m := range 4 {
		for j := range 4 {
			if qs[qType[m][j]] != qLevel[m][j] {
				t.Errorf("qType[%d][%d] does not match qLevel", m, j)
			}
		}
	}
	for j := range 4 {
		if qs[lastType[j]] != qLast[j] {
			t.Errorf("lastType[%d] does not match qLast", j)
		}
		for x := range 256 {
			if mdsCT(uint32(qLast[j][x])<<(8*j)) != mdsq[j][x] {
				t.Fatalf("mdsCT of qLast[%d] differs from mdsq at %#02x", j, x)
			}
		}
	}
}

// TestMDSCT checks mdsCT against mdsColumn: on every vector of one
// non-zero element, which spans the space its linear map acts on, and on
// random vectors.
func TestMDSCT(t *testing.T) {
	for j := range 4 {
		for x := range 256 {
			if got, want := mdsCT(uint32(x)<<(8*j)), mdsColumn(j, byte(x)); got != want {
				t.Fatalf("mdsCT(%#08x) = %#08x, want %#08x", uint32(x)<<(8*j), got, want)
			}
		}
	}
	r := testRand(t)
	for range 1000 {
		y := r.Uint32()
		var want uint32
		for j := range 4 {
			want ^= mdsColumn(j, byte(y>>(8*j)))
		}
		if got := mdsCT(y); got != want {
			t.Fatalf("mdsCT(%#08x) = %#08x, want %#08x", y, got, want)
		}
	}
}

// TestExpandCT checks the constant-time key schedules against the table
// one: the same subkeys, and the same g function, computed by generic-ct
// from its packed tables and by the nibble tables as the avx2-ct kernels
// use them.
func TestExpandCT(t *testing.T) {
	r := testRand(t)
	for _, size := range keySizes {
		t.Run(fmt.Sprintf("key=%d", 8*size), func(t *testing.T) {
			for range 8 {
				key := randBytes(r, size)
				want, got, packed := withLayouts(tablesLayout), withLayouts(nibblesLayout), withLayouts(packedLayout)
				want.expandTables(key, false)
				got.expandCT(key)
				packed.expandPacked(key)
				if got.k != want.k || packed.k != want.k {
					t.Fatalf("key %x: subkeys\n%08x\n%08x (packed)\nwant\n%08x", key, got.k, packed.k, want.k)
				}
				if kw, pkw := got.nibbles().kw, packed.packed().kw; kw != size/8 || pkw != size/8 {
					t.Fatalf("kw = %d, %d (packed), want %d", kw, pkw, size/8)
				}
				for i := range 2000 {
					x := r.Uint32()
					if i < 256 {
						x = uint32(i) * 0x01010101
					}
					if g, w := packed.gCT(x), g(&want.tables().s, x); g != w {
						t.Fatalf("key %x: gCT(%#08x) = %#08x, want %#08x", key, x, g, w)
					}
				}
				for j := range 4 {
					for x := range 256 {
						g := got.nibbles().nibbleColumn(j, byte(x))
						if w := want.tables().s[j][x]; g != w {
							t.Fatalf("key %x: nibble tables give %#08x for byte %d = %#02x, want %#08x", key, g, j, x, w)
						}
					}
				}
			}
		})
	}
}

// nibbleColumn evaluates the key-dependent S-box of byte j on x and its MDS
// column with the nibble tables, as the avx2-ct kernels do with VPSHUFB.
func (ct *ctSchedule) nibbleColumn(j int, x byte) uint32 {
	look := func(tab *[16]byte, i byte) byte {
		if i >= 16 {
			panic("nibble out of range")
		}
		return tab[i]
	}
	// (a, β), β the second nibble before its last linear map.
	a, b := x>>4, x&15
	a, b = a^b, look(&ct.mix, a)^b
	afterMix := true
	for s := 0; ; s++ {
		q := lastType[j]
		if s < ct.kw {
			q = qType[ct.kw-1-s][j]
		}
		f := &ct.first[q]
		p := &f[3]
		if afterMix {
			p = &f[2]
		}
		u := look(p, b)
		a, b = look(&f[0], a)^u, look(&f[1], a)^u
		afterMix = false
		if s == ct.kw {
			break
		}
		n := &ct.second[s][j]
		u = look(&n[1], b)
		a, b = look(&n[0], a)^u, look(&n[2], a)^u
	}
	var w uint32
	for i := range 4 {
		p := &ct.mds[j][mdsProduct[i][j]]
		w |= uint32(look(&p[0], a)^look(&p[1], b)) << (8 * i)
	}
	return w
}

// TestCTLayout pins the offsets that the avx2-ct kernels (_asm/avx2ct)
// read, from the Schedule that they are passed.
func TestCTLayout(t *testing.T) {
	var ct ctSchedule
	for _, f := range []struct {
		name      string
		got, want uintptr
	}{
		{"nibbles", unsafe.Offsetof(nibblesOnly{}.ct), ctOffset},
		{"nibbles after tables", unsafe.Offsetof(tablesNibbles{}.ct) - unsafe.Offsetof(tablesNibbles{}.ks), ctOffset},
		{"ct.mix", unsafe.Offsetof(ct.mix), 0},
		{"ct.first", unsafe.Offsetof(ct.first), 16},
		{"ct.second", unsafe.Offsetof(ct.second), 144},
		{"ct.mds", unsafe.Offsetof(ct.mds), 912},
		{"ct.sv", unsafe.Offsetof(ct.sv), 1296},
	} {
		if f.got != f.want {
			t.Errorf("offset of %s = %d, want %d", f.name, f.got, f.want)
		}
	}
}

func TestGenericCTBlocks(t *testing.T) {
	r := testRand(t)
	for _, size := range keySizes {
		key := randBytes(r, size)
		ref, ks := withLayouts(tablesLayout), withLayouts(packedLayout)
		ref.expandTables(key, false)
		ks.expandPacked(key)
		src := randBytes(r, 5*BlockSize)
		want, got := make([]byte, len(src)), make([]byte, len(src))
		encryptBlocksGeneric(ref, ref.tables(), want, src)
		encryptBlocksGenericCT(ks, got, src)
		if string(got) != string(want) {
			t.Fatalf("key %x: generic-ct encryption differs from generic", key)
		}
		decryptBlocksGenericCT(ks, got, want)
		if string(got) != string(src) {
			t.Fatalf("key %x: generic-ct decryption does not invert encryption", key)
		}
	}
}
