package kernel

// The constant-time h function, bitsliced: 64 evaluations at once, each
// a lane of eight bit planes (p[i] holds bit i of the 64 bytes), so that
// q0 and q1 are fixed sequences of AND and XOR on whole words, and a key
// byte enters as eight XORs with all-ones or all-zero masks. No memory
// address and no branch depends on the key. This serves both
// constant-time schedules: the byte-sliced S-boxes (expandSliced, 1024
// evaluations) and the subkeys (subkeysCT, 160).
//
// The t-boxes of section 4.3.5 are written in algebraic normal form (the
// XOR of the products of input bits that each output bit is), as checked
// by TestTboxes; q is two layers of two t-boxes with the linear mixes of
// qPerm between them.

// planes holds 64 bytes as bit planes: lane l's byte has bit i equal to
// bit l of p[i].
type planes [8]uint64

// qSliced applies q0 (q = 0) or q1 (q = 1) to every lane of p, as qPerm
// does: (a, b) = (x>>4, x&15), twice a' = a ^ b, b' = a ^ ror4(b) ^ 8a mod
// 16 and then a t-box on each, and the byte b<<4 | a.
func qSliced(q int, p *planes) {
	a0, a1, a2, a3 := p[4], p[5], p[6], p[7]
	b0, b1, b2, b3 := p[0], p[1], p[2], p[3]
	a0, a1, a2, a3, b0, b1, b2, b3 = a0^b0, a1^b1, a2^b2, a3^b3, a0^b1, a1^b2, a2^b3, a3^b0^a0
	if q == 0 {
		a0, a1, a2, a3 = tbox00(a0, a1, a2, a3)
		b0, b1, b2, b3 = tbox01(b0, b1, b2, b3)
	} else {
		a0, a1, a2, a3 = tbox10(a0, a1, a2, a3)
		b0, b1, b2, b3 = tbox11(b0, b1, b2, b3)
	}
	a0, a1, a2, a3, b0, b1, b2, b3 = a0^b0, a1^b1, a2^b2, a3^b3, a0^b1, a1^b2, a2^b3, a3^b0^a0
	if q == 0 {
		a0, a1, a2, a3 = tbox02(a0, a1, a2, a3)
		b0, b1, b2, b3 = tbox03(b0, b1, b2, b3)
	} else {
		a0, a1, a2, a3 = tbox12(a0, a1, a2, a3)
		b0, b1, b2, b3 = tbox13(b0, b1, b2, b3)
	}
	*p = planes{a0, a1, a2, a3, b0, b1, b2, b3}
}

// transpose turns the planes of p into bytes: afterwards byte k of p[r] is
// the byte of lane 8k+r. It transposes each 8x8 block of bits (rows p[0]
// to p[7], columns 8k to 8k+7) with three rounds of masked swaps.
func (p *planes) transpose() {
	for _, s := range [3]struct {
		d    uint
		mask uint64
	}{{1, 0x5555555555555555}, {2, 0x3333333333333333}, {4, 0x0F0F0F0F0F0F0F0F}} {
		for r := range 8 {
			if r&int(s.d) == 0 {
				t := (p[r]>>s.d ^ p[r+int(s.d)]) & s.mask
				p[r+int(s.d)] ^= t
				p[r] ^= t << s.d
			}
		}
	}
}

// sliceBytes returns the planes of the 64 bytes f(l), l = 0..63.
func sliceBytes(f func(l int) byte) (p planes) {
	for l := range 64 {
		v := f(l)
		for i := range p {
			p[i] |= uint64(v>>i&1) << l
		}
	}
	return p
}

// chainSliced runs the h function's byte chain j on each of p, which holds
// the first permutation of the chain applied to the inputs: for m = k-1
// down to 0 it XORs in key byte j of L[m] (or of L'[m] in the lanes of
// lanes) and applies the next permutation, the last one after L[0].
func chainSliced(p []planes, j int, l, l2 *[4]uint32, lanes uint64, k int) {
	for m := k - 1; m >= 0; m-- {
		b, c := byte(l[m]>>(8*j)), byte(l2[m]>>(8*j))
		var key planes // the key bit of each plane, in every lane
		for i := range key {
			key[i] = -uint64(b>>i&1)&lanes | -uint64(c>>i&1)&^lanes
		}
		q := lastType[j]
		if m > 0 {
			q = qType[m-1][j]
		}
		for g := range p {
			for i := range key {
				p[g][i] ^= key[i]
			}
			qSliced(q, &p[g])
		}
	}
}

// mdsSliced returns the MDS matrix times the bytes y[0..3] of each lane,
// byte i of the product in the planes of element i. In GF(2^8) modulo
// x^8+x^6+x^5+x^3+1, 0x5B·y = y ^ y/x^2 and 0xEF·y = y ^ y/x ^ y/x^2
// (as mdsCT); dividing by x moves each plane down one and adds the
// lowest to the planes of 0xB4.
func mdsSliced(y *[4]planes) (h [4]planes) {
	div := func(v planes) planes {
		return planes{v[1], v[2], v[3] ^ v[0], v[4], v[5] ^ v[0], v[6] ^ v[0], v[7], v[0]}
	}
	for j := range 4 {
		d1 := div(y[j])
		d2 := div(d1)
		var prod [3]planes // times 0x01, 0x5B, 0xEF
		for i := range 8 {
			prod[0][i] = y[j][i]
			prod[1][i] = y[j][i] ^ d2[i]
			prod[2][i] = prod[1][i] ^ d1[i]
		}
		for i := range 4 {
			v := &prod[mdsProduct[i][j]]
			for b := range 8 {
				h[i][b] ^= v[b]
			}
		}
	}
	return h
}

// subkeyInputs[q] holds q0 (q = 0) or q1 applied to the lane numbers: the
// subkeys take h at x = nρ, every byte n, for n = 0..39, Me at the even n
// and Mo at the odd ones.
var subkeyInputs = [2]planes{
	sliceBytes(func(l int) byte { return q0[l] }),
	sliceBytes(func(l int) byte { return q1[l] }),
}

// evenLanes selects the lanes of even n, which take Me.
const evenLanes = 0x5555555555555555

// subkeysCT returns the 40 subkeys of the key words w as subkeys does, in
// constant time: h(n·ρ, Me or Mo) for n = 0..39 in the lanes of one
// bitsliced chain per byte.
func subkeysCT(w keyWords) [40]uint32 {
	var y [4]planes
	for j := range 4 {
		y[j] = subkeyInputs[qType[w.k-1][j]]
		chainSliced(y[j:j+1], j, &w.me, &w.mo, evenLanes, w.k)
	}
	h := mdsSliced(&y)
	for i := range h {
		h[i].transpose()
	}
	var a, b [20]uint32
	for n := range 40 {
		var v uint32
		for i := range 4 {
			v |= uint32(byte(h[i][n%8]>>(8*(n/8)))) << (8 * i)
		}
		if n%2 == 0 {
			a[n/2] = v
		} else {
			b[n/2] = v
		}
	}
	return combineSubkeys(&a, &b)
}

// The t-boxes of q0 (tbox0i) and q1 (tbox1i) in algebraic normal form:
// output bit y_b is the XOR of the products of input bits listed for it
// (xS the product of the bits x_s, s in S), complemented where the form
// has the constant term.

func tbox00(x0, x1, x2, x3 uint64) (y0, y1, y2, y3 uint64) {
	x01 := x1 & x0
	x12 := x2 & x1
	x012 := x12 & x0
	x03 := x3 & x0
	x13 := x3 & x1
	x013 := x13 & x0
	x023 := x03 & x2
	x123 := x13 & x2
	return x0 ^ x1 ^ x01 ^ x012 ^ x023 ^ x123,
		x1 ^ x01 ^ x2 ^ x12 ^ x012 ^ x03 ^ x13 ^ x123,
		x1 ^ x2 ^ x013,
		^(x0 ^ x1 ^ x2 ^ x12 ^ x012 ^ x3 ^ x13 ^ x023 ^ x123)
}

func tbox01(x0, x1, x2, x3 uint64) (y0, y1, y2, y3 uint64) {
	x01 := x1 & x0
	x02 := x2 & x0
	x12 := x2 & x1
	x012 := x12 & x0
	x03 := x3 & x0
	x013 := x03 & x1
	x23 := x3 & x2
	x023 := x23 & x0
	x123 := x23 & x1
	return x1 ^ x01 ^ x2 ^ x02 ^ x12 ^ x3 ^ x03 ^ x23 ^ x023,
		^(x0 ^ x2 ^ x12 ^ x013 ^ x23),
		^(x1 ^ x2 ^ x12 ^ x012 ^ x013 ^ x23 ^ x023 ^ x123),
		^(x2 ^ x03 ^ x023 ^ x123)
}

func tbox02(x0, x1, x2, x3 uint64) (y0, y1, y2, y3 uint64) {
	x01 := x1 & x0
	x02 := x2 & x0
	x12 := x2 & x1
	x012 := x12 & x0
	x03 := x3 & x0
	x13 := x3 & x1
	x013 := x13 & x0
	x23 := x3 & x2
	x023 := x23 & x0
	x123 := x23 & x1
	return ^(x0 ^ x2 ^ x12 ^ x3 ^ x03 ^ x13 ^ x23 ^ x123),
		^(x1 ^ x01 ^ x02 ^ x3 ^ x013 ^ x23 ^ x123),
		x1 ^ x2 ^ x3 ^ x03 ^ x13 ^ x123,
		^(x1 ^ x01 ^ x2 ^ x02 ^ x012 ^ x13 ^ x023)
}

func tbox03(x0, x1, x2, x3 uint64) (y0, y1, y2, y3 uint64) {
	x01 := x1 & x0
	x02 := x2 & x0
	x12 := x2 & x1
	x012 := x12 & x0
	x03 := x3 & x0
	x13 := x3 & x1
	x23 := x3 & x2
	x023 := x23 & x0
	x123 := x23 & x1
	return ^(x01 ^ x02 ^ x12 ^ x23 ^ x123),
		x0 ^ x1 ^ x012 ^ x023 ^ x123,
		^(x2 ^ x12 ^ x3 ^ x23 ^ x023),
		^(x0 ^ x2 ^ x02 ^ x012 ^ x03 ^ x13 ^ x23 ^ x123)
}

func tbox10(x0, x1, x2, x3 uint64) (y0, y1, y2, y3 uint64) {
	x01 := x1 & x0
	x02 := x2 & x0
	x012 := x02 & x1
	x03 := x3 & x0
	x13 := x3 & x1
	x013 := x13 & x0
	x23 := x3 & x2
	x023 := x23 & x0
	x123 := x23 & x1
	return x1 ^ x2 ^ x3 ^ x13 ^ x013,
		^(x0 ^ x02 ^ x13 ^ x013 ^ x23 ^ x023 ^ x123),
		x01 ^ x2 ^ x012 ^ x23 ^ x123,
		x0 ^ x1 ^ x01 ^ x2 ^ x012 ^ x03 ^ x23 ^ x023
}

func tbox11(x0, x1, x2, x3 uint64) (y0, y1, y2, y3 uint64) {
	x01 := x1 & x0
	x02 := x2 & x0
	x12 := x2 & x1
	x012 := x12 & x0
	x03 := x3 & x0
	x13 := x3 & x1
	x013 := x13 & x0
	x23 := x3 & x2
	x023 := x23 & x0
	x123 := x23 & x1
	return ^(x0 ^ x1 ^ x2 ^ x02 ^ x3 ^ x13 ^ x123),
		x0 ^ x1 ^ x01 ^ x02 ^ x012 ^ x3 ^ x13 ^ x013 ^ x023 ^ x123,
		x0 ^ x01 ^ x2 ^ x02 ^ x12 ^ x3 ^ x03 ^ x13 ^ x23 ^ x123,
		x0 ^ x012 ^ x13 ^ x23 ^ x023
}

func tbox12(x0, x1, x2, x3 uint64) (y0, y1, y2, y3 uint64) {
	x01 := x1 & x0
	x02 := x2 & x0
	x12 := x2 & x1
	x012 := x12 & x0
	x03 := x3 & x0
	x13 := x3 & x1
	x013 := x13 & x0
	x23 := x3 & x2
	x023 := x23 & x0
	x123 := x23 & x1
	return x1 ^ x2 ^ x02 ^ x12 ^ x013 ^ x23 ^ x123,
		x1 ^ x01 ^ x02 ^ x12 ^ x012 ^ x03 ^ x13 ^ x23 ^ x123,
		^(x2 ^ x02 ^ x012 ^ x3 ^ x03 ^ x13 ^ x23 ^ x123),
		x0 ^ x01 ^ x02 ^ x12 ^ x012 ^ x13 ^ x023
}

func tbox13(x0, x1, x2, x3 uint64) (y0, y1, y2, y3 uint64) {
	x01 := x1 & x0
	x02 := x2 & x0
	x12 := x2 & x1
	x012 := x12 & x0
	x13 := x3 & x1
	x013 := x13 & x0
	x23 := x3 & x2
	x023 := x23 & x0
	x123 := x23 & x1
	return ^(x2 ^ x02 ^ x12 ^ x3 ^ x13 ^ x23 ^ x023),
		^(x0 ^ x1 ^ x01 ^ x2 ^ x12 ^ x012 ^ x13 ^ x23),
		x1 ^ x01 ^ x2 ^ x02 ^ x12 ^ x3 ^ x13 ^ x013 ^ x023 ^ x123,
		^(x1 ^ x02 ^ x12 ^ x012 ^ x3 ^ x13 ^ x013 ^ x023)
}
