package kernel

// A key schedule without secret-indexed memory accesses, for the byte-sliced
// kernels (avx512-vbmi, arm64-neon): the 40 subkeys, and the four
// key-dependent S-boxes as bytes instead of the table kernels' 4 KiB of
// MDS·S-box words. Both come from the bitsliced h function
// (key_bitsliced.go): each S-box is four chains of 64 inputs.

// sboxInputs[q][g] holds q0 (q = 0) or q1 applied to the inputs x =
// 64g + 8(l%8) + l/8 in lane l: the order in which transpose leaves the
// bytes of x = 64g + 8r .. 64g + 8r + 7 in p[r], in memory order.
var sboxInputs = func() (in [2][4]planes) {
	for g := range 4 {
		x := func(l int) int { return 64*g + 8*(l%8) + l/8 }
		in[0][g] = sliceBytes(func(l int) byte { return q0[x(l)] })
		in[1][g] = sliceBytes(func(l int) byte { return q1[x(l)] })
	}
	return in
}()

// expandSliced computes the schedule of a 16, 24 or 32-byte key for the
// byte-sliced kernels: ks.k as expand computes it, and S-box j (key-dependent
// S-box j of the specification, before the MDS multiply) as the bytes
// 256j..256j+255 of ks.sliced(), in memory order; ks must have the sliced
// layout.
// No memory address and no branch depends on the key.
func (ks *Schedule) expandSliced(key []byte) {
	w := splitKey(key)
	ks.k = subkeysCT(w)
	for j := range 4 {
		p := sboxInputs[qType[w.k-1][j]]
		chainSliced(p[:], j, &w.sv, &w.sv, 0, w.k)
		for g := range p {
			p[g].transpose()
			// Little-endian words: byte x of S-box j at byte 256j+x.
			d := ks.sliced()[64*j+16*g:]
			for r, v := range p[g] {
				d[2*r], d[2*r+1] = uint32(v), uint32(v>>32)
			}
		}
	}
}
