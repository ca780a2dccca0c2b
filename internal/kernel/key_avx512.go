package kernel

// A key schedule without secret-indexed memory accesses, for the byte-sliced
// kernels (avx512-vbmi): the 40 subkeys, and the four key-dependent S-boxes
// as bytes instead of the table kernels' 4 KiB of MDS·S-box words.
//
// The h function is a chain of the fixed permutations q0 and q1 and XORs
// with key bytes. Evaluating it point by point looks q0 and q1 up at
// secret indexes. Here it is built as a whole table instead, by composing
// functions from the outside in: a table F of the chain so far (starting
// with the last permutation) is re-indexed by the XOR with a key byte,
// which is a fixed pattern of conditional swaps, one stage per key bit,
// done with masks; and then composed with the next permutation q on its
// input side, F∘q, which reads F at q[z] for z = 0..255: addresses that
// depend on nothing secret. One table holds eight byte lanes, so the
// chains of several key words run side by side.

// hTables sets f to the table of the h function's byte chains for the key
// words l0 (and l1), up to but excluding the MDS multiply: byte j of entry
// x is chain j of x with the key words l0 (last[j] ∘ ... ∘ q(x)), and byte
// 4+j the same with l1. len(l0) == len(l1) is the number of 64-bit key
// halves, 2 to 4.
func hTables(f *[256]uint64, l0, l1 []uint32) {
	// The last permutation of byte j: q1, q0, q1, q0.
	for y := range 256 {
		v := uint64(q1[y]) | uint64(q0[y])<<8 | uint64(q1[y])<<16 | uint64(q0[y])<<24
		f[y] = v | v<<32
	}
	var g [256]uint64
	cur, next := f, &g
	for m := range l0 {
		// F'[y] = F[y ^ l]: for each bit b of l (per lane), swap the
		// entries y and y ^ 2^b where it is set.
		l := uint64(l0[m]) | uint64(l1[m])<<32
		for b := range 8 {
			mask := (l >> b & 0x0101010101010101) * 0xFF
			d := 1 << b
			for base := 0; base < 256; base += 2 * d {
				for y := base; y < base+d; y++ {
					u, v := &cur[y&255], &cur[(y+d)&255]
					t := (*u ^ *v) & mask
					*u ^= t
					*v ^= t
				}
			}
		}
		// F'[z] = F[q[z]], q = qLevel[m][j] for lane j.
		var sel0 uint64 // the lanes whose permutation is q0
		for j := range 4 {
			if qLevel[m][j] == &q0 {
				sel0 |= 0xFF << (8 * j)
			}
		}
		sel0 |= sel0 << 32
		for z := range 256 {
			next[z] = cur[q0[z]]&sel0 | cur[q1[z]]&^sel0
		}
		cur, next = next, cur
	}
	if cur != f {
		*f = *cur
	}
}

// mdsBits[j][b] is column j of the MDS matrix times 2^b: the MDS product of
// a byte is the XOR of the columns of its set bits.
var mdsBits = func() (t [4][8]uint32) {
	for j := range 4 {
		for b := range 8 {
			t[j][b] = mdsColumn(j, 1<<b)
		}
	}
	return t
}()

// mdsMultiplyCT returns the MDS matrix times the bytes of y, without
// branches or memory accesses that depend on y.
func mdsMultiplyCT(y uint32) uint32 {
	var w uint32
	for j := range 4 {
		v := y >> (8 * j)
		for b := range 8 {
			w ^= mdsBits[j][b] & -(v >> b & 1)
		}
	}
	return w
}

// expandSliced computes the schedule of a 16, 24 or 32-byte key for the
// byte-sliced kernels: ks.k as expand computes it, and S-box j (key-dependent
// S-box j of the specification, before the MDS multiply) as the bytes
// 256j..256j+255 of ks.s, in memory order, in place of the table kernels'
// s[0]. The rest of ks.s is left zero. No memory address and no branch
// depends on the key.
func (ks *Schedule) expandSliced(key []byte) {
	w := splitKey(key)
	k, sv := w.k, w.sv

	// The subkeys: h(2i·ρ, Me) and h((2i+1)·ρ, Mo), read from the tables
	// at the public indexes 2i and 2i+1 (x = nρ has every byte n).
	var t [256]uint64
	hTables(&t, w.me[:k], w.mo[:k])
	ks.setSubkeys(
		func(x uint32) uint32 { return mdsMultiplyCT(uint32(t[byte(x)])) },
		func(x uint32) uint32 { return mdsMultiplyCT(uint32(t[byte(x)] >> 32)) })

	// The S-boxes: lane j of the table with the S vector.
	s := &t
	hTables(s, sv[:k], sv[:k])
	ks.s = [4][256]uint32{}
	for j := range 4 {
		for x := 0; x < 256; x += 4 {
			var w uint32
			for i := range 4 {
				w |= uint32(byte(s[x+i]>>(8*j))) << (8 * i)
			}
			// Little-endian words: byte x of S-box j at byte 256j+x.
			ks.s[0][(256*j+x)/4] = w
		}
	}
}

// slicedSbox returns byte x of S-box j as expandSliced stores it.
func (ks *Schedule) slicedSbox(j int, x byte) byte {
	i := 256*j + int(x)
	return byte(ks.s[0][i/4] >> (8 * (i % 4)))
}
