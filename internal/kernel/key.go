package kernel

import "encoding/binary"

// Schedule is the expanded key that every kernel reads: the four
// key-dependent S-boxes already multiplied by their MDS columns, and the 40
// whitening and round subkeys. Its layout is part of the assembly kernels'
// contract: s at offset 0, k at offset 4096, ct at offset 4256.
type Schedule struct {
	// s[j][x] is column j of the MDS matrix times key-dependent S-box j
	// applied to x, so that g(X) = s[0][X0] ^ s[1][X1] ^ s[2][X2] ^ s[3][X3].
	s [4][256]uint32
	// k[0:4] whiten the input, k[4:8] the output, and k[8+2r], k[9+2r]
	// are the subkeys of round r.
	k [40]uint32
	// ct is the key material of the constant-time kernels (key_ct.go), at
	// offset 4256; only their ladders fill it, and they leave s zero.
	ct ctSchedule
}

// qLevel[m][j] is the permutation that byte j of the h function passes
// through at the level that XORs in key word L[m] (section 4.3.2); the final
// permutation of each byte is folded into mdsq.
var qLevel = [4][4]*[256]byte{
	{&q0, &q0, &q1, &q1},
	{&q0, &q1, &q0, &q1},
	{&q1, &q1, &q0, &q0},
	{&q1, &q0, &q0, &q1},
}

// hByte runs byte position j of the h function on x with key words l, up to
// but excluding the last permutation and the MDS multiply (both in mdsq).
func hByte(j int, x byte, l []uint32) byte {
	for m := len(l) - 1; m >= 0; m-- {
		x = qLevel[m][j][x] ^ byte(l[m]>>(8*j))
	}
	return x
}

// h is the function h of section 4.3.2.
func h(x uint32, l []uint32) uint32 {
	return mdsq[0][hByte(0, byte(x), l)] ^
		mdsq[1][hByte(1, byte(x>>8), l)] ^
		mdsq[2][hByte(2, byte(x>>16), l)] ^
		mdsq[3][hByte(3, byte(x>>24), l)]
}

// expand computes the schedule of a 16, 24 or 32-byte key (section 4.3).
func (ks *Schedule) expand(key []byte) {
	w := splitKey(key)
	ks.setSubkeys(
		func(x uint32) uint32 { return h(x, w.me[:w.k]) },
		func(x uint32) uint32 { return h(x, w.mo[:w.k]) })
	for j := range 4 {
		for x := range 256 {
			ks.s[j][x] = mdsq[j][hByte(j, byte(x), w.sv[:w.k])]
		}
	}
}

// keyWords are the words of a key that section 4.3 derives everything
// from: the even words Me, the odd words Mo and the S vector, each k long.
type keyWords struct {
	me, mo, sv [4]uint32
	k          int // the key's length in 64-bit words: 2, 3 or 4
}

// splitKey returns the words of a 16, 24 or 32-byte key. The S vector is
// in the order the h function uses it: L[0] = S_{k-1}. It takes the same
// time for every key.
func splitKey(key []byte) keyWords {
	w := keyWords{k: len(key) / 8}
	for i := range w.k {
		w.me[i] = binary.LittleEndian.Uint32(key[8*i:])
		w.mo[i] = binary.LittleEndian.Uint32(key[8*i+4:])
		w.sv[w.k-1-i] = rsMultiply((*[8]byte)(key[8*i:]))
	}
	return w
}

// setSubkeys sets the 40 subkeys from hMe(x) = h(x, Me) and hMo(x) =
// h(x, Mo): A_i = hMe(2iρ), B_i = rol(hMo((2i+1)ρ), 8), K_2i = A_i + B_i,
// K_2i+1 = rol(A_i + 2B_i, 9).
func (ks *Schedule) setSubkeys(hMe, hMo func(x uint32) uint32) {
	const rho = 0x01010101
	for i := range uint32(20) {
		a := hMe(2 * i * rho)
		b := rotl(hMo((2*i+1)*rho), 8)
		ks.k[2*i] = a + b
		ks.k[2*i+1] = rotl(a+2*b, 9)
	}
}

// rsMultiply returns the RS matrix times eight key bytes, as a
// little-endian word. It takes the same time for every key.
func rsMultiply(m *[8]byte) uint32 {
	var w uint32
	for i := range 4 {
		var y byte
		for c := range 8 {
			y ^= gfMulCT(rs[i][c], m[c], rsPoly)
		}
		w |= uint32(y) << (8 * i)
	}
	return w
}

// gfMulCT multiplies the public constant a by the secret b in GF(2^8)
// modulo poly without branching on b.
func gfMulCT(a, b byte, poly uint32) byte {
	var p uint32
	aa, bb := uint32(a), uint32(b)
	for range 8 {
		p ^= aa & -(bb & 1)
		bb >>= 1
		aa = aa<<1 ^ poly&-(aa>>7&1)
	}
	return byte(p)
}

func rotl(x uint32, n int) uint32 { return x<<n | x>>(32-n) }
