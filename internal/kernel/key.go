package kernel

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// Schedule is the expanded key that every kernel reads: the four
// key-dependent S-boxes already multiplied by their MDS columns, and the 40
// whitening and round subkeys. Its layout is part of the assembly kernels'
// contract: s at offset 0, k at offset 4096, ct at offset 4256, and the
// byte-sliced S-boxes at slicedOffset, inside ct.
type Schedule struct {
	// s[j][x] is column j of the MDS matrix times key-dependent S-box j
	// applied to x, so that g(X) = s[0][X0] ^ s[1][X1] ^ s[2][X2] ^ s[3][X3].
	s [4][256]uint32
	// k[0:4] whiten the input, k[4:8] the output, and k[8+2r], k[9+2r]
	// are the subkeys of round r.
	k [40]uint32
	// ct is the key material of the constant-time kernels (key_ct.go), at
	// offset 4256; only their ladders fill it, and they leave s zero. The
	// byte-sliced kernels keep their S-boxes in the same bytes (sliced):
	// no plan runs both, and so a plan of table kernels and a byte-sliced
	// one (NewCipher with avx512-vbmi) needs one Schedule, not two.
	ct ctSchedule
}

// slicedOffset is where the byte-sliced S-boxes are in a Schedule: the
// first 64-byte boundary in ct (4256 is 32 past one), so that the kernels'
// 64-byte loads of them do not straddle cache lines.
const slicedOffset = 4288

// sliced returns the byte-sliced S-boxes of ks, S-box j (before the MDS
// multiply) at bytes 256j..256j+255 in memory order, which the byte-sliced
// kernels read at slicedOffset.
func (ks *Schedule) sliced() *[256]uint32 {
	return (*[256]uint32)(unsafe.Add(unsafe.Pointer(ks), slicedOffset))
}

// qLevel[m][j] is the permutation that byte j of the h function passes
// through at the level that XORs in key word L[m] (section 4.3.2), and
// qLast[j] the last one, which mdsq[j] folds into the MDS column.
var (
	qLevel = [4][4]*[256]byte{
		{&q0, &q0, &q1, &q1},
		{&q0, &q1, &q0, &q1},
		{&q1, &q1, &q0, &q0},
		{&q1, &q0, &q0, &q1},
	}
	qLast = [4]*[256]byte{&q1, &q0, &q1, &q0}
)

// The table schedule, for the table kernels: the h function evaluated by
// looking q0, q1 and mdsq up at key-dependent indexes, which is what
// those kernels do with every block anyway. One pass computes the 1024
// entries of the four S-boxes with the levels of each key length written
// out (sboxes2, sboxes3, sboxes4), and can store the S-box bytes before
// the MDS multiply beside them, which are the byte-sliced kernels'
// S-boxes (key_avx512.go): a plan that mixes both layouts pays for one
// pass, not two. Where the CPU has AVX-512 VBMI, Init takes the vector
// schedule instead (key_avx512_amd64.go), which fills both layouts in
// constant time, 10x to 12x faster than this pass (0.16-0.45 us a key
// against 1.8-4.3 us; go test -run '^$' -bench Expand ./internal/kernel,
// medians of 5 runs, Zen 5 under load).

// expandTables computes the table kernels' schedule of a 16, 24 or 32-byte
// key (section 4.3) into ks and,
// unless sliced is nil, the byte-sliced kernels' schedule of it into
// sliced (as expandSliced does, but with key-indexed look-ups), which may
// be ks.
func (ks *Schedule) expandTables(key []byte, sliced *Schedule) {
	w := splitKey(key)
	ks.k = subkeys(w)
	var y [256]byte
	for j := range 4 {
		c := newByteChain(j, &w.sv, w.k)
		c.run(y[:])
		mq := c.mq
		for x := range y {
			ks.s[j][x] = mq[y[x]]
		}
		if sliced != nil {
			// Little-endian words: byte x of S-box j at byte 256j+x.
			last, d := c.last, sliced.sliced()[64*j:64*j+64]
			for i := range d {
				d[i] = uint32(last[y[4*i]]) | uint32(last[y[4*i+1]])<<8 |
					uint32(last[y[4*i+2]])<<16 | uint32(last[y[4*i+3]])<<24
			}
		}
	}
	if sliced != nil {
		sliced.k = ks.k
	}
}

// A byteChain is byte j of the h function for the key words l: the
// permutation q[m] of each level m, the key byte b[m] that follows it,
// and the last permutation with (mq) and without (last) the MDS column.
type byteChain struct {
	q    [4]*[256]byte
	b    [4]byte
	last *[256]byte
	mq   *[256]uint32
	k    int // levels: 2, 3 or 4
}

func newByteChain(j int, l *[4]uint32, k int) byteChain {
	c := byteChain{last: qLast[j], mq: &mdsq[j], k: k}
	for m := range 4 {
		c.q[m], c.b[m] = qLevel[m][j], byte(l[m]>>(8*j))
	}
	return c
}

// run sets y[x] to the byte chain on x up to the last permutation, for x
// = 0..len(y)-1. The loop of each key length has its levels written out,
// and reads the tables as slices of length 256 indexed by bytes, which
// need neither bounds nor nil checks.
func (c *byteChain) run(y []byte) {
	qa, qb, qc, qd := c.q[0][:], c.q[1][:], c.q[2][:], c.q[3][:]
	b0, b1, b2, b3 := c.b[0], c.b[1], c.b[2], c.b[3]
	switch c.k {
	case 2:
		for x := range y {
			y[x] = qa[qb[byte(x)]^b1] ^ b0
		}
	case 3:
		for x := range y {
			y[x] = qa[qb[qc[byte(x)]^b2]^b1] ^ b0
		}
	default:
		for x := range y {
			y[x] = qa[qb[qc[qd[byte(x)]^b3]^b2]^b1] ^ b0
		}
	}
}

// subkeys returns the 40 subkeys of the key words w, with hMe(x) = h(x,
// Me) and hMo(x) = h(x, Mo): A_i = hMe(2iρ), B_i = rol(hMo((2i+1)ρ), 8),
// K_2i = A_i + B_i, K_2i+1 = rol(A_i + 2B_i, 9) (section 4.3). With x = nρ
// every byte of x is n.
func subkeys(w keyWords) (k [40]uint32) {
	var a, b [20]uint32
	var ye, yo [40]byte
	for j := range 4 {
		ce, co := newByteChain(j, &w.me, w.k), newByteChain(j, &w.mo, w.k)
		ce.run(ye[:])
		co.run(yo[:])
		mq := ce.mq
		for i := range 20 {
			a[i] ^= mq[ye[2*i]]
			b[i] ^= mq[yo[2*i+1]]
		}
	}
	return combineSubkeys(&a, &b)
}

// combineSubkeys returns the subkeys of A_i = hMe(2iρ) and hMo((2i+1)ρ)
// (b, before its rotation).
func combineSubkeys(a, b *[20]uint32) (k [40]uint32) {
	for i := range 20 {
		bi := bits.RotateLeft32(b[i], 8)
		k[2*i] = a[i] + bi
		k[2*i+1] = bits.RotateLeft32(a[i]+2*bi, 9)
	}
	return k
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
		m := binary.LittleEndian.Uint64(key[8*i:])
		w.me[i], w.mo[i] = uint32(m), uint32(m>>32)
		w.sv[w.k-1-i] = rsMultiply(m)
	}
	return w
}

// rsMultiply returns the RS matrix times the eight key bytes of m (byte c
// in bits 8c to 8c+7), as a little-endian word. The product is linear
// over GF(2): bit r of it is the parity of the key bits that rsRows[r]
// selects. It takes the same time for every key.
func rsMultiply(m uint64) uint32 {
	var w uint32
	for r, row := range &rsRows {
		w |= uint32(bits.OnesCount64(m&row)&1) << r
	}
	return w
}

// rsRows[8i+t] selects the key bits that bit t of byte i of the RS
// product adds up: bit 8c+u where rs[i][c]·2^u has bit t set.
var rsRows = func() (rows [32]uint64) {
	for i := range 4 {
		for c := range 8 {
			for u := range 8 {
				p := gfMul(rs[i][c], byte(1)<<u, rsPoly)
				for t := range 8 {
					rows[8*i+t] |= uint64(p>>t&1) << (8*c + u)
				}
			}
		}
	}
	return rows
}()
