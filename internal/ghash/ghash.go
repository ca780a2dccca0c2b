// Package ghash is GHASH, the universal hash of GCM (NIST SP 800-38D,
// section 6.4): portable constant-time code and carry-less multiplication
// kernels, PCLMULQDQ and VPCLMULQDQ on amd64 and PMULL on arm64; none looks
// anything up in a table. A Key hashes with the implementation internal/cpu
// chose.
package ghash

import (
	"encoding/binary"
	"math/bits"

	"github.com/twofish-go/twofish/internal/cpu"
)

//
// # Representation
//
// GCM numbers the bits of a block from the most significant bit of its
// first byte, and bit i is the coefficient of x^i of an element of
// GF(2^128) = GF(2)[x]/(x^128 + x^7 + x^2 + x + 1). Read as one big-endian
// 128-bit integer, a block therefore holds its polynomial reflected: the
// coefficient of x^i is integer bit 127-i. Every implementation here works
// on that integer as it is (fe: hi is the first eight bytes, big-endian),
// so no bit is ever reversed:
//
//   - The carry-less product of two reflected 128-bit integers is the
//     255-bit reflection of the product polynomial, one bit short of a
//     256-bit reflection. The key is therefore stored as H·x⁻¹ (shifting a
//     reflected integer left by one divides by x), and the product of the
//     reflected Y with the stored key is exactly the 256-bit reflection of
//     Y·H, unreduced.
//   - Reducing a reflected product modulo the field polynomial is a
//     Montgomery reduction by 2^128 with the reflected polynomial
//     1 + z^121 + z^126 + z^127 + z^128 (reduce below; the assembly does
//     the same with two carry-less multiplications by 0xC2<<56).
//
// # Portable code
//
// The portable multiplication is constant-time: no table is indexed with
// data or key. clmul64 multiplies 64-bit polynomials with integer
// multiplications whose operands have holes: each is split into five
// parts, every fifth bit, so that an integer product of two parts adds at
// most 13 one-bits in any column, which fits in four bits and cannot carry
// into the next column of the same part (five columns on). The parts of
// the key are computed once per key. The integer multiplications take the
// same time whatever their operands on x86, arm64 and ARMv7-A cores, but
// not on some small ones (ARM7TDMI, ARM9 and Cortex-M3 end a multiplication
// early on small operands; on 32-bit ports Go builds a 64-bit product from
// 32-bit ones): there this code is only as constant-time as the core's
// multiplier.

// fe is an element of GF(2^128) in GCM's bit order, as a 128-bit integer:
// hi holds bytes 0 to 7 of the block, big-endian, and lo bytes 8 to 15.
type fe struct{ hi, lo uint64 }

func loadFE(b []byte) fe {
	return fe{binary.BigEndian.Uint64(b), binary.BigEndian.Uint64(b[8:])}
}

func (a fe) put(b []byte) {
	binary.BigEndian.PutUint64(b, a.hi)
	binary.BigEndian.PutUint64(b[8:], a.lo)
}

// divX returns a·x⁻¹. In the reflected integer that is a left shift, and
// the coefficient of x⁰ that falls out comes back as x⁻¹ = x¹²⁷ + x⁶ + x + 1,
// the integer 0xC2000000_00000000_00000000_00000001. No branch on a.
func (a fe) divX() fe {
	carry := -(a.hi >> 63)
	return fe{a.hi<<1 | a.lo>>63 ^ 0xC2<<56&carry, a.lo<<1 ^ 1&carry}
}

// Masks of every fifth bit, starting at bits 0 to 4: the holes of clmul64.
const (
	mask5_0 = 0x1084210842108421
	mask5_1 = 0x2108421084210842
	mask5_2 = 0x4210842108421084
	mask5_3 = 0x8421084210842108
	mask5_4 = 0x0842108421084210
)

// parts5 is a 64-bit polynomial split into its five sparse parts.
type parts5 [5]uint64

func split5(y uint64) parts5 {
	return parts5{y & mask5_0, y & mask5_1, y & mask5_2, y & mask5_3, y & mask5_4}
}

// clmul64 returns the 128-bit carry-less product of x and the polynomial
// whose parts are y. Parts i and j multiply into columns congruent to
// i+j mod 5; the five sums of products are masked to their columns.
func clmul64(x uint64, y *parts5) (hi, lo uint64) {
	x0, x1, x2, x3, x4 := x&mask5_0, x&mask5_1, x&mask5_2, x&mask5_3, x&mask5_4
	y0, y1, y2, y3, y4 := y[0], y[1], y[2], y[3], y[4]

	// Columns ≡ 0: (0,0) (1,4) (2,3) (3,2) (4,1).
	h0, l0 := bits.Mul64(x0, y0)
	h, l := bits.Mul64(x1, y4)
	h0, l0 = h0^h, l0^l
	h, l = bits.Mul64(x2, y3)
	h0, l0 = h0^h, l0^l
	h, l = bits.Mul64(x3, y2)
	h0, l0 = h0^h, l0^l
	h, l = bits.Mul64(x4, y1)
	h0, l0 = h0^h, l0^l

	// Columns ≡ 1: (0,1) (1,0) (2,4) (3,3) (4,2).
	h1, l1 := bits.Mul64(x0, y1)
	h, l = bits.Mul64(x1, y0)
	h1, l1 = h1^h, l1^l
	h, l = bits.Mul64(x2, y4)
	h1, l1 = h1^h, l1^l
	h, l = bits.Mul64(x3, y3)
	h1, l1 = h1^h, l1^l
	h, l = bits.Mul64(x4, y2)
	h1, l1 = h1^h, l1^l

	// Columns ≡ 2: (0,2) (1,1) (2,0) (3,4) (4,3).
	h2, l2 := bits.Mul64(x0, y2)
	h, l = bits.Mul64(x1, y1)
	h2, l2 = h2^h, l2^l
	h, l = bits.Mul64(x2, y0)
	h2, l2 = h2^h, l2^l
	h, l = bits.Mul64(x3, y4)
	h2, l2 = h2^h, l2^l
	h, l = bits.Mul64(x4, y3)
	h2, l2 = h2^h, l2^l

	// Columns ≡ 3: (0,3) (1,2) (2,1) (3,0) (4,4).
	h3, l3 := bits.Mul64(x0, y3)
	h, l = bits.Mul64(x1, y2)
	h3, l3 = h3^h, l3^l
	h, l = bits.Mul64(x2, y1)
	h3, l3 = h3^h, l3^l
	h, l = bits.Mul64(x3, y0)
	h3, l3 = h3^h, l3^l
	h, l = bits.Mul64(x4, y4)
	h3, l3 = h3^h, l3^l

	// Columns ≡ 4: (0,4) (1,3) (2,2) (3,1) (4,0).
	h4, l4 := bits.Mul64(x0, y4)
	h, l = bits.Mul64(x1, y3)
	h4, l4 = h4^h, l4^l
	h, l = bits.Mul64(x2, y2)
	h4, l4 = h4^h, l4^l
	h, l = bits.Mul64(x3, y1)
	h4, l4 = h4^h, l4^l
	h, l = bits.Mul64(x4, y0)
	h4, l4 = h4^h, l4^l

	// Column c of the high word is column 64+c of the product, and
	// 64 ≡ 4 (mod 5): the high word's column classes are shifted by one.
	lo = l0&mask5_0 | l1&mask5_1 | l2&mask5_2 | l3&mask5_3 | l4&mask5_4
	hi = h0&mask5_1 | h1&mask5_2 | h2&mask5_3 | h3&mask5_4 | h4&mask5_0
	return hi, lo
}

// mulKey is a multiplier prepared for the portable code: the parts of the
// high and low halves of K = H·x⁻¹ and of their XOR (Karatsuba).
type mulKey [3]parts5

func newMulKey(h fe) mulKey {
	k := h.divX()
	return mulKey{split5(k.hi), split5(k.lo), split5(k.hi ^ k.lo)}
}

// mul returns y·H for the H that k was made from.
func (k *mulKey) mul(y fe) fe {
	a1, a0 := clmul64(y.lo, &k[1])
	b1, b0 := clmul64(y.hi, &k[0])
	c1, c0 := clmul64(y.hi^y.lo, &k[2])
	c1 ^= a1 ^ b1
	c0 ^= a0 ^ b0
	return reduce(b1, b0^c1, a1^c0, a0)
}

// reduce returns the field element whose 256-bit reflection is the integer
// w3:w2:w1:w0 (w3 most significant). In the reflected variable z the
// reduction polynomial is P = 1 + z^121 + z^126 + z^127 + z^128, and the
// low half W0 = w1:w0 is cancelled Montgomery-style: with
// Q = W0·P⁻¹ mod z^128 = W0 + W0·(z^121 + z^126 + z^127) mod z^128, the
// low half of W + Q·P is zero and its high half, W1 + Q + (Q·(z^121 +
// z^126 + z^127) >> 128), is the answer.
func reduce(w3, w2, w1, w0 uint64) fe {
	q1 := w1 ^ w0<<57 ^ w0<<62 ^ w0<<63
	q0 := w0
	return fe{
		w3 ^ q1 ^ q1>>1 ^ q1>>2 ^ q1>>7,
		w2 ^ q0 ^ (q0>>1 | q1<<63) ^ (q0>>2 | q1<<62) ^ (q0>>7 | q1<<57),
	}
}

// ghashPowers is how many powers of H the assembly keeps: it hashes up to
// this many blocks per reduction.
const ghashPowers = 16

// A Key is the hash key of one GCM instance in the forms its
// implementations read. It is read-only after Init.
type Key struct {
	mul mulKey // the portable code's H
	// powers are H^16 ... H^1, each times x⁻¹, as little-endian 128-bit
	// integers (low quadword first), in the order the assembly multiplies
	// a run of blocks: block j of a run of r meets powers[16-r+j].
	powers [ghashPowers][16]byte
	impl   ghashImpl // the implementation that hashes with this key
}

// Init sets k to the hash key h (the encryption of the zero block), to hash
// with the implementation internal/cpu chose.
func (k *Key) Init(h *[16]byte) { k.initWith(h, hostImpl) }

// initWith is Init with the implementation impl.
func (k *Key) initWith(h *[16]byte, impl ghashImpl) {
	k.impl = impl
	hf := loadFE(h[:])
	k.mul = newMulKey(hf)
	k.setPower(ghashPowers-1, hf)
	if powersAsm(k) {
		return
	}
	p := hf
	for i := ghashPowers - 2; i >= 0; i-- {
		p = k.mul.mul(p)
		k.setPower(i, p)
	}
}

// setPower sets powers[i] to p·x⁻¹, the form the assembly multiplies by.
func (k *Key) setPower(i int, p fe) {
	q := p.divX()
	binary.LittleEndian.PutUint64(k.powers[i][:], q.lo)
	binary.LittleEndian.PutUint64(k.powers[i][8:], q.hi)
}

// ghashBlocksGeneric hashes the whole blocks of data into the running
// value y (GCM byte order), with the portable code.
func ghashBlocksGeneric(k *Key, y *[16]byte, data []byte) {
	s := loadFE(y[:])
	for ; len(data) >= 16; data = data[16:] {
		s.hi ^= binary.BigEndian.Uint64(data)
		s.lo ^= binary.BigEndian.Uint64(data[8:])
		s = k.mul.mul(s)
	}
	s.put(y[:])
}

// Padded hashes data into y, the last partial block padded with zeros, as
// GCM hashes its associated data and ciphertext.
func Padded(k *Key, y *[16]byte, data []byte) {
	whole := len(data) &^ 15
	if whole > 0 {
		Blocks(k, y, data[:whole])
	}
	if whole < len(data) {
		var last [16]byte
		copy(last[:], data[whole:])
		Blocks(k, y, last[:])
	}
}

// hostImpl is the implementation that internal/cpu chose.
var hostImpl = implOf(cpu.Host().GHASH.Name)
