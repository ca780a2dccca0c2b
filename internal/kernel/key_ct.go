package kernel

import (
	"encoding/binary"
	"math/bits"
)

// The constant-time key schedule: the same subkeys as expand, computed
// without indexing any table with key bytes, and the key material of the
// constant-time kernels (generic-ct, avx2-ct), which never index a table
// with secret data either.
//
// The permutations q0 and q1 are evaluated from their 4-bit t-boxes
// (section 4.3.5), each packed into a uint64 and read by shifting it: a
// shift takes the same time for every count, where a table look-up takes
// a time that depends on which cache line holds the entry. The MDS and RS
// products use multiplications by constants written as shifts and masked
// XORs, without branches.

// qtPacked[q][i] is t-box t_i of q0 (q = 0) or q1 (q = 1), entry x in bits
// 4x to 4x+3.
var qtPacked [2][4]uint64

// qType[m][j] is 0 for q0 and 1 for q1: the permutation that byte j of the
// h function passes through at the level of key word L[m] (qLevel), and
// lastType[j] the last one (folded into mdsq for the table kernels).
var (
	qType    = [4][4]int{{0, 0, 1, 1}, {0, 1, 0, 1}, {1, 1, 0, 0}, {1, 0, 0, 1}}
	lastType = [4]int{1, 0, 1, 0}
)

// mdsProduct[i][j] says which of the products by 01, 5B and EF (0, 1, 2)
// row i of the MDS matrix takes from column j.
var mdsProduct [4][4]int

func init() {
	for q, t := range [2]*[4][16]byte{&q0t, &q1t} {
		for i := range 4 {
			for x := range 16 {
				qtPacked[q][i] |= uint64(t[i][x]) << (4 * x)
			}
		}
	}
	for i := range 4 {
		for j := range 4 {
			switch mds[i][j] {
			case 0x01:
				mdsProduct[i][j] = 0
			case 0x5B:
				mdsProduct[i][j] = 1
			case 0xEF:
				mdsProduct[i][j] = 2
			default:
				panic("twofish: unexpected MDS entry")
			}
		}
	}
	for d := range 4 {
		for i := range 4 {
			j := (i + d) % 4
			mdsSelect[d][mdsProduct[i][j]] |= 0xFF << (8 * j)
		}
	}
}

// nib returns entry x (0 to 15) of the packed t-box t.
func nib(t, x uint64) uint64 { return t >> (4 * (x & 15)) & 15 }

// ror4 rotates the nibble v right by one bit; mix4 is v ^ (8v mod 16). The
// second nibble of each q layer is a ^ ror4(b) ^ 8a mod 16 = mix4(a) ^ ror4(b).
func ror4(v uint64) uint64 { return (v>>1 | v<<3) & 15 }
func mix4(v uint64) uint64 { return (v ^ v<<3) & 15 }

// mdsSelect[d][p] has the bytes j of a packed vector whose product p (by
// 01, 5B or EF, as mdsProduct) row j-d (mod 4) of the MDS matrix takes.
var mdsSelect [4][3]uint32

// mdsCT multiplies the MDS matrix by y, whose byte j (little-endian) is
// element j of the vector, without branches. In GF(2^8) modulo
// x^8+x^6+x^5+x^3+1, 1/x is 0xB4, so 0x5B = 1 + 1/x^2 and 0xEF = 1 + 1/x +
// 1/x^2 (section 4.2), and division by x is a shift with a masked XOR: the
// products of the four bytes at once, then for each diagonal of the matrix
// the products it takes, rotated to the rows they go to.
func mdsCT(y uint32) uint32 {
	y1 := y>>1&0x7F7F7F7F ^ mulB4(y&0x01010101)
	y2 := y1>>1&0x7F7F7F7F ^ mulB4(y1&0x01010101)
	p0, p1, p2 := y, y^y2, y^y1^y2
	s := &mdsSelect
	w := p0&s[0][0] | p1&s[0][1] | p2&s[0][2]
	w ^= bits.RotateLeft32(p0&s[1][0]|p1&s[1][1]|p2&s[1][2], -8)
	w ^= bits.RotateLeft32(p0&s[2][0]|p1&s[2][1]|p2&s[2][2], -16)
	w ^= bits.RotateLeft32(p0&s[3][0]|p1&s[3][1]|p2&s[3][2], -24)
	return w
}

// mulB4 multiplies each byte of m, 0 or 1, by B4.
func mulB4(m uint32) uint32 { return m<<7 | m<<5 | m<<4 | m<<2 }

// ctSchedule is the key material of the avx2-ct kernels, beside the
// subkeys in Schedule.k: the nibble tables, and the S vector. Its layout is part of the avx2-ct kernels' contract (see
// _asm/avx2ct): every table is 16 bytes, and the tables follow each other
// in the order of the fields, from offset 0 of the struct.
//
// The tables evaluate the key-dependent S-boxes of the g function on the
// two nibbles of each byte, with one 16-entry look-up per nibble and table
// (VPSHUFB). Each q permutation is two layers of t-box look-ups, with a
// linear mix of the nibbles before each layer (section 4.3.5); a layer,
// together with what follows it up to the next look-up (the mix, the XOR
// of a key byte, the next q's first mix), maps the nibbles (a, b) to
//
//	a' = A0[a] ^ A1[b]
//	b' = B0[a] ^ B1[b]
//
// where, in every layer, B1 is A1 followed by a fixed linear map L of
// nibbles (ror4 after a first layer, mix4 after a second). So the kernels
// keep β = L⁻¹(b) instead of b, and a layer is three look-ups and two
// XORs: u = P[β], a' = A0[a] ^ u, β' = Q[a] ^ u, with P = A1∘L_prev (L_prev
// the map of the layer before) and Q = L⁻¹∘B0.
type ctSchedule struct {
	// mix takes the byte's nibbles (a, b) = (x>>4, x&15) into the first
	// layer of the first q: a' = a ^ b and β' = mix[a] ^ b, where b' =
	// mix4(a) ^ ror4(b) (L = ror4).
	mix [16]byte
	// first[q] is the first layer of q0 or q1, A0 = t0, Q = ror4⁻¹∘mix4∘t0,
	// and P = t1∘ror4 after the first mix or t1∘mix4 after a second layer:
	// [A0, Q, P after ror4, P after mix4] (L = ror4).
	first [2][4][16]byte
	// second[s][j] is the second layer of the q of stage s of byte j
	// (stage 0 is the first q a byte meets), followed by the XOR of key
	// byte κ and the next q's first mix: A0 = t2 ^ κlo ^ κhi, P = t3∘ror4,
	// Q = mix4∘(ror4∘(t2 ^ κlo) ^ mix4(κhi)) (L = mix4, its own inverse).
	// Stages kw to 3 are unused.
	second [4][4][3][16]byte
	// mds[j][c] is the second layer of the last q of byte j multiplied by
	// the MDS constant c (0x01, 0x5B, 0xEF): y = t2[a] | t3[b]<<4, and
	// c·y = mds[j][c][0][a] ^ mds[j][c][1][β], β = ror4⁻¹(b).
	mds [4][3][2][16]byte
	// sv is the S vector, sv[m] = L_m of section 4.3.2, and kw the key
	// length in 64-bit words (2, 3 or 4): h(x, sv[:kw]) is the g function.
	sv [4]uint32
	kw int
}

// packedSchedule is the key material of generic-ct, beside the subkeys:
// ctSchedule.second with each table packed into a uint64 (entry x in bits
// 4x to 4x+3), for look-ups by shifting, the S vector, whose bytes the
// bitsliced functions spread into lanes, and the key length in 64-bit
// words.
type packedSchedule struct {
	packed [4][4][3]uint64
	sv     [4]uint32
	kw     int
}

// The key-independent nibble tables of generic-ct, packed like
// packedSchedule.packed: the first mix, the first layers of q0 and q1 (A0, Q,
// P after ror4, P after mix4), and the second layer of the last q of a
// byte without the MDS multiply (t2 and t3∘ror4).
var (
	packedMix   uint64
	packedFirst [2][4]uint64
	packedLast  [2][2]uint64
)

// ctFixed holds the tables of a ctSchedule that no key changes: mix,
// first and mds, which setKey copies rather than computes.
var ctFixed ctSchedule

func init() {
	ct := &ctFixed
	ct.buildFixed()
	for q := range 2 {
		for x := range uint64(16) {
			t2 := nib(qtPacked[q][2], x)
			for i, v := range [3]uint64{t2, nib(qtPacked[q][3], ror4(x)), mix4(ror4(t2))} {
				secondFixed[q][i][x] = byte(v)
			}
		}
		for i := range 3 {
			packedSecond[q][i] = pack16(&secondFixed[q][i])
		}
	}
	packedMix = pack16(&ct.mix)
	for q := range 2 {
		for i := range 4 {
			packedFirst[q][i] = pack16(&ct.first[q][i])
		}
		for x := range uint64(16) {
			packedLast[q][0] |= nib(qtPacked[q][2], x) << (4 * x)
			packedLast[q][1] |= nib(qtPacked[q][3], ror4(x)) << (4 * x)
		}
	}
}

// pack16 packs a table of 16 nibbles into a uint64.
func pack16(t *[16]byte) uint64 {
	var p uint64
	for x, v := range t {
		p |= uint64(v) << (4 * x)
	}
	return p
}

// expandCT computes the subkeys of a 16, 24 or 32-byte key into ks.k and
// the avx2-ct kernels' nibble tables into ks.nibbles(), without
// secret-dependent memory accesses or branches. ks must have the nibbles
// layout.
func (ks *Schedule) expandCT(key []byte) {
	w := splitKey(key)
	if !subkeysVector(&ks.k, key, w) {
		ks.k = subkeysCT(w)
	}
	ks.nibbles().setKey(w)
}

// expandPacked is expandCT for generic-ct: the subkeys, and the packed
// tables into ks.packed(), which ks must have.
func (ks *Schedule) expandPacked(key []byte) {
	w := splitKey(key)
	if !subkeysVector(&ks.k, key, w) {
		ks.k = subkeysCT(w)
	}
	ks.packed().setKey(w)
}

// setKey fills ct with the key material of the key words w.
func (ct *ctSchedule) setKey(w keyWords) {
	ct.mix, ct.first, ct.mds = ctFixed.mix, ctFixed.first, ctFixed.mds
	ct.sv, ct.kw = w.sv, w.k
	ct.second = [4][4][3][16]byte{}
	for s := range w.k {
		for j := range 4 {
			q, c := secondKey(w, s, j)
			for i, f := range &secondFixed[q] {
				// Eight entries at a time, in either byte order.
				b := spread8(c[i])
				t := &ct.second[s][j][i]
				binary.LittleEndian.PutUint64(t[:8], binary.LittleEndian.Uint64(f[:8])^b)
				binary.LittleEndian.PutUint64(t[8:], binary.LittleEndian.Uint64(f[8:])^b)
			}
		}
	}
}

// setKey fills p with the key material of the key words w.
func (p *packedSchedule) setKey(w keyWords) {
	p.kw, p.sv = w.k, w.sv
	p.packed = [4][4][3]uint64{}
	for s := range w.k {
		for j := range 4 {
			q, c := secondKey(w, s, j)
			for i := range 3 {
				p.packed[s][j][i] = packedSecond[q][i] ^ spread8(c[i]|c[i]<<4)
			}
		}
	}
}

// spread8 returns x, below 256, in every byte: by shifts, where a
// multiplication by 0x0101010101010101 takes a time that depends on x on
// some 32-bit cores (Go's 64-bit product is 32-bit multiplications there,
// which ARM9 and Cortex-M3's UMULL end early on small operands).
func spread8(x uint64) uint64 {
	x |= x << 8
	x |= x << 16
	return x | x<<32
}

// The second layer of a q that a key byte κ = (hi, lo) follows
// (ctSchedule.second) is linear in κ: the XOR of κ into every entry
// of a key-independent table, because ror4 and mix4 are linear over GF(2)
// and mix4 is its own inverse:
//
//	A0 = t2 ^ κlo ^ κhi
//	P  = t3∘ror4
//	Q  = mix4∘(ror4∘(t2 ^ κlo) ^ mix4(κhi)) = mix4∘ror4∘t2 ^ mix4(ror4(κlo)) ^ κhi
//
// So a key's second layers are secondFixed (packedSecond for generic-ct)
// with the nibbles that secondKey returns XORed in: no table is indexed by
// a key byte, and a key costs 48 XORs, not 768 look-ups.

// secondFixed[q] is the second layer of q0 (q = 0) or q1 before the key:
// [t2, t3∘ror4, mix4∘ror4∘t2]; packedSecond holds it packed like
// packedSchedule.packed.
var (
	secondFixed  [2][3][16]byte
	packedSecond [2][3]uint64
)

// secondKey returns the permutation (0 for q0, 1 for q1) of the second
// layer at stage s of byte j of the key words w, and the nibble that the
// key byte there XORs into each of its three tables.
func secondKey(w keyWords, s, j int) (q int, c [3]uint64) {
	m := w.k - 1 - s
	key := uint64(byte(w.sv[m] >> (8 * j)))
	lo, hi := key&15, key>>4
	return qType[m][j], [3]uint64{lo ^ hi, 0, mix4(ror4(lo)) ^ hi}
}

// buildFixed fills the tables that do not depend on the key: mix, first
// and mds.
func (ct *ctSchedule) buildFixed() {
	t := func(q, i int, x uint64) uint64 { return nib(qtPacked[q][i], x) }
	// rol4 is the inverse of ror4; mix4 is its own inverse.
	rol4 := func(v uint64) uint64 { return (v<<1 | v>>3) & 15 }
	for x := range uint64(16) {
		ct.mix[x] = byte(rol4(mix4(x)))
		for q := range 2 {
			f := &ct.first[q]
			f[0][x] = byte(t(q, 0, x))
			f[1][x] = byte(rol4(mix4(t(q, 0, x))))
			f[2][x] = byte(t(q, 1, ror4(x)))
			f[3][x] = byte(t(q, 1, mix4(x)))
		}
		for j := range 4 {
			q := lastType[j]
			lo, hi := byte(t(q, 2, x)), byte(t(q, 3, ror4(x))<<4)
			for c, v := range [3]byte{0x01, 0x5B, 0xEF} {
				ct.mds[j][c][0][x] = gfMul(v, lo, mdsPoly)
				ct.mds[j][c][1][x] = gfMul(v, hi, mdsPoly)
			}
		}
	}
}
