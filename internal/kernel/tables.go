package kernel

// The fixed tables of Twofish, derived at package initialisation from their
// definitions in the specification (Schneier et al., "Twofish: A 128-Bit
// Block Cipher", 1998, sections 4.2 to 4.3.5) rather than transcribed as
// literals: the definitions are short enough to read against the paper, and
// tables_test.go checks the results against values printed there.

// The 4-bit t-boxes that build the permutations q0 and q1 (section 4.3.5).
var (
	q0t = [4][16]byte{
		{0x8, 0x1, 0x7, 0xD, 0x6, 0xF, 0x3, 0x2, 0x0, 0xB, 0x5, 0x9, 0xE, 0xC, 0xA, 0x4},
		{0xE, 0xC, 0xB, 0x8, 0x1, 0x2, 0x3, 0x5, 0xF, 0x4, 0xA, 0x6, 0x7, 0x0, 0x9, 0xD},
		{0xB, 0xA, 0x5, 0xE, 0x6, 0xD, 0x9, 0x0, 0xC, 0x8, 0xF, 0x3, 0x2, 0x4, 0x7, 0x1},
		{0xD, 0x7, 0xF, 0x4, 0x1, 0x2, 0x6, 0xE, 0x9, 0xB, 0x3, 0x0, 0x8, 0x5, 0xC, 0xA},
	}
	q1t = [4][16]byte{
		{0x2, 0x8, 0xB, 0xD, 0xF, 0x7, 0x6, 0xE, 0x3, 0x1, 0x9, 0x4, 0x0, 0xA, 0xC, 0x5},
		{0x1, 0xE, 0x2, 0xB, 0x4, 0xC, 0x3, 0x7, 0x6, 0xD, 0xA, 0x5, 0xF, 0x9, 0x0, 0x8},
		{0x4, 0xC, 0x7, 0x5, 0x1, 0x6, 0x9, 0xA, 0x0, 0xE, 0xD, 0x8, 0x2, 0xB, 0x3, 0xF},
		{0xB, 0x9, 0x5, 0x1, 0xC, 0x3, 0xD, 0xE, 0x6, 0x4, 0x7, 0xF, 0x2, 0x0, 0x8, 0xA},
	}
)

// The MDS matrix of the g function (section 4.2), over GF(2^8) modulo
// x^8+x^6+x^5+x^3+1, and the RS matrix of the key schedule (section 4.3),
// over GF(2^8) modulo x^8+x^6+x^3+x^2+1.
var (
	mds = [4][4]byte{
		{0x01, 0xEF, 0x5B, 0x5B},
		{0x5B, 0xEF, 0xEF, 0x01},
		{0xEF, 0x5B, 0x01, 0xEF},
		{0xEF, 0x01, 0xEF, 0x5B},
	}
	rs = [4][8]byte{
		{0x01, 0xA4, 0x55, 0x87, 0x5A, 0x58, 0xDB, 0x9E},
		{0xA4, 0x56, 0x82, 0xF3, 0x1E, 0xC6, 0x68, 0xE5},
		{0x02, 0xA1, 0xFC, 0xC1, 0x47, 0xAE, 0x3D, 0x19},
		{0xA4, 0x55, 0x87, 0x5A, 0x58, 0xDB, 0x9E, 0x03},
	}
)

const (
	mdsPoly = 0x169 // x^8 + x^6 + x^5 + x^3 + 1
	rsPoly  = 0x14D // x^8 + x^6 + x^3 + x^2 + 1
)

// q0 and q1 are the fixed 8-bit permutations. mdsCols[j][x] is column j
// of the MDS matrix times x, and mdsq[j][x] that times the last permutation
// that byte j of the h function passes through (q1, q0, q1, q0 for j =
// 0..3), as little-endian words, so that h ends in four table look-ups and
// three XORs. They are variables with initialisers, not filled by an init
// function, so that the other tables derived from them at initialisation
// (sboxInputs, subkeyInputs) see them.
var (
	q0, q1  = qTable(&q0t), qTable(&q1t)
	mdsCols = func() (t [4][256]uint32) {
		for j := range 4 {
			for x := range 256 {
				t[j][x] = mdsColumn(j, byte(x))
			}
		}
		return t
	}()
	mdsq = func() (t [4][256]uint32) {
		for j := range 4 {
			for x := range 256 {
				t[j][x] = mdsCols[j][qLast[j][x]]
			}
		}
		return t
	}()
)

// qTable returns the permutation of the t-boxes t, as a table.
func qTable(t *[4][16]byte) (q [256]byte) {
	for x := range 256 {
		q[x] = qPerm(t, byte(x))
	}
	return q
}

// qPerm evaluates one of the permutations q0 or q1 on x from its t-boxes.
func qPerm(t *[4][16]byte, x byte) byte {
	ror4 := func(v byte) byte { return (v>>1 | v<<3) & 0xF }
	a, b := x>>4, x&0xF
	a, b = a^b, (a^ror4(b)^(a<<3))&0xF
	a, b = t[0][a], t[1][b]
	a, b = a^b, (a^ror4(b)^(a<<3))&0xF
	a, b = t[2][a], t[3][b]
	return b<<4 | a
}

// mdsColumn returns column j of the MDS matrix multiplied by x, with row i in
// byte i of the result.
func mdsColumn(j int, x byte) uint32 {
	var w uint32
	for i := range 4 {
		w |= uint32(gfMul(mds[i][j], x, mdsPoly)) << (8 * i)
	}
	return w
}

// gfMul multiplies a and b in GF(2^8) modulo poly.
func gfMul(a, b byte, poly uint32) byte {
	var p uint32
	aa := uint32(a)
	for ; b != 0; b >>= 1 {
		if b&1 != 0 {
			p ^= aa
		}
		aa <<= 1
		if aa&0x100 != 0 {
			aa ^= poly
		}
	}
	return byte(p)
}
