package kernel

import (
	"fmt"
	"testing"

	"github.com/twofish-go/twofish/internal/testrand"
)

// The key schedule as section 4.3 of the specification writes it, one
// byte and one field multiplication at a time: the reference that the
// fast schedules are checked against.

// rsRef returns the RS matrix times the eight bytes m, S_i of section 4.3.
func rsRef(m []byte) uint32 {
	var w uint32
	for i := range 4 {
		var y byte
		for c := range 8 {
			y ^= gfMul(rs[i][c], m[c], rsPoly)
		}
		w |= uint32(y) << (8 * i)
	}
	return w
}

// sboxRef returns key-dependent S-box j on x for the key words l (L[0]
// first): the byte chain of the h function before the MDS multiply.
func sboxRef(j int, x byte, l []uint32) byte {
	for m := len(l) - 1; m >= 0; m-- {
		x = qLevel[m][j][x] ^ byte(l[m]>>(8*j))
	}
	return qLast[j][x]
}

// hRef is the function h of section 4.3.2.
func hRef(x uint32, l []uint32) uint32 {
	var w uint32
	for j := range 4 {
		w ^= mdsColumn(j, sboxRef(j, byte(x>>(8*j)), l))
	}
	return w
}

// scheduleRef returns the subkeys and the S-boxes (before the MDS
// multiply) of key.
func scheduleRef(key []byte) (k [40]uint32, sbox [4][256]byte, sv []uint32) {
	n := len(key) / 8
	me, mo := make([]uint32, n), make([]uint32, n)
	sv = make([]uint32, n)
	for i := range n {
		me[i] = uint32(key[8*i]) | uint32(key[8*i+1])<<8 | uint32(key[8*i+2])<<16 | uint32(key[8*i+3])<<24
		mo[i] = uint32(key[8*i+4]) | uint32(key[8*i+5])<<8 | uint32(key[8*i+6])<<16 | uint32(key[8*i+7])<<24
		sv[n-1-i] = rsRef(key[8*i : 8*i+8])
	}
	const rho = 0x01010101
	for i := range uint32(20) {
		a := hRef(2*i*rho, me)
		b := hRef((2*i+1)*rho, mo)
		b = b<<8 | b>>24
		k[2*i] = a + b
		c := a + 2*b
		k[2*i+1] = c<<9 | c>>23
	}
	for j := range 4 {
		for x := range 256 {
			sbox[j][x] = sboxRef(j, byte(x), sv)
		}
	}
	return k, sbox, sv
}

// TestSchedules compares every schedule with the reference on many keys
// of each size, structured (testrand.Keys: zeros, ones, each single bit)
// and random: the subkeys, the table kernels' MDS·S-box
// words (from the table pass, and built from the byte-sliced S-boxes as a
// Cipher builds them on use, in Go and, where the CPU has it, in
// assembly), the byte-sliced S-boxes (from the table pass, from the
// constant-time one and, where the CPU has it, from the vector schedule
// with both layouts), and the constant-time kernels' S vector and nibble
// tables.
func TestSchedules(t *testing.T) {
	r := testRand(t)
	n := 200
	if testing.Short() {
		n = 20
	}
	for _, size := range keySizes {
		t.Run(fmt.Sprintf("key=%d", 8*size), func(t *testing.T) {
			tables, slicedCT, ct := withLayouts(tablesLayout, slicedLayout), withLayouts(slicedLayout), withLayouts(nibblesLayout)
			vecTables, vecSliced := withLayouts(tablesLayout, slicedLayout), withLayouts(slicedLayout)
			vector := false
			for _, key := range testrand.Keys(r, size, n) {
				k, sbox, sv := scheduleRef(key)
				tables.expandTables(key, true)
				slicedCT.expandSliced(key)
				ct.expandCT(key)
				built, builtGo := withLayouts(tablesLayout), withLayouts(tablesLayout)
				built.k, builtGo.k = slicedCT.k, slicedCT.k
				built.tables().fromSliced(slicedCT)
				tablesFromSliced(&builtGo.tables().s, slicedCT.sliced())
				schedules := map[string]*Schedule{"tables": tables, "sliced (ct)": slicedCT, "ct": ct, "tables from sliced": built}
				slicedSchedules := map[string]*Schedule{"tables": tables, "constant-time": slicedCT}
				if vector = expandVector(vecTables, true, true, key); vector {
					expandVector(vecSliced, false, true, key)
					schedules["vector tables"], schedules["vector sliced"] = vecTables, vecSliced
					slicedSchedules["vector"], slicedSchedules["vector (alone)"] = vecTables, vecSliced
				}
				for name, ks := range schedules {
					if ks.k != k {
						t.Fatalf("key %x: %s subkeys\n%08x\nwant\n%08x", key, name, ks.k, k)
					}
				}
				var svWant [4]uint32
				copy(svWant[:], sv)
				if n := ct.nibbles(); n.kw != size/8 || n.sv != svWant {
					t.Fatalf("key %x: S vector %08x (kw %d), want %08x", key, n.sv, n.kw, sv)
				}
				for j := range 4 {
					for x := range 256 {
						want := mdsColumn(j, sbox[j][x])
						if got := tables.tables().s[j][x]; got != want {
							t.Fatalf("key %x: s[%d][%#02x] = %#08x, want %#08x", key, j, x, got, want)
						}
						if got := built.tables().s[j][x]; got != want {
							t.Fatalf("key %x: s[%d][%#02x] built from the byte-sliced S-boxes = %#08x, want %#08x", key, j, x, got, want)
						}
						if got := builtGo.tables().s[j][x]; got != want {
							t.Fatalf("key %x: s[%d][%#02x] built from the byte-sliced S-boxes in Go = %#08x, want %#08x", key, j, x, got, want)
						}
						if vector && vecTables.tables().s[j][x] != want {
							t.Fatalf("key %x: vector s[%d][%#02x] = %#08x, want %#08x", key, j, x, vecTables.tables().s[j][x], want)
						}
						for name, ks := range slicedSchedules {
							if got := ks.slicedSbox(j, byte(x)); got != sbox[j][x] {
								t.Fatalf("key %x: %s byte-sliced S-box %d at %#02x = %#02x, want %#02x", key, name, j, x, got, sbox[j][x])
							}
						}
						if got := ct.nibbles().nibbleColumn(j, byte(x)); got != want {
							t.Fatalf("key %x: nibble tables give %#08x for byte %d = %#02x, want %#08x", key, got, j, x, want)
						}
					}
				}
			}
			if !vector {
				t.Log("no vector key schedule on this CPU")
			}
		})
	}
}

// TestInitLayouts checks that Init fills every layout of a plan that
// mixes a table kernel with constant-time ones from its one table pass:
// each kernel of the plan encrypts as generic does.
func TestInitLayouts(t *testing.T) {
	r := testRand(t)
	for _, k := range All() {
		if !k.Supported || k.layout() == tablesLayout {
			continue
		}
		t.Run(k.Name, func(t *testing.T) {
			for _, size := range keySizes {
				key := randBytes(r, size)
				c := newPlanCipher(Plan{Single: Generic, Short: Generic, Bulk: k, From: 1}, key)
				ref := newPlanCipher(Pin(Generic), key)
				src := randBytes(r, 2*k.Blocks*BlockSize)
				want, got := make([]byte, len(src)), make([]byte, len(src))
				ref.EncryptBlocks(want, src)
				c.EncryptBlocks(got, src)
				if string(got) != string(want) {
					t.Fatalf("key %x: %s in a plan with generic encrypts differently", key, k.Name)
				}
			}
		})
	}
}
