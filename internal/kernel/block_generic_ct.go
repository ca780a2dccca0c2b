package kernel

import (
	"encoding/binary"
	"math/bits"
)

// The portable constant-time block functions: the "generic-ct"
// implementation, for every architecture and the purego build. A single
// block (and a run of fewer than bitslicedMin) takes the generic block
// functions with the g function computed on nibbles, as the avx2-ct
// kernels compute it (see ctSchedule in key_ct.go), from tables packed
// into uint64s and read by shifting, instead of looked up in key-dependent
// tables; longer runs take the bitsliced functions (block_bitsliced.go),
// 5.5-6.3x faster a block. No memory address and no branch depends on the key
// or the data. Both are many times slower than generic.

// gCT is the g function of the key whose schedule ks holds, in constant
// time. The four bytes go through the layers of their q permutations side
// by side, each as its two nibbles (a, β: β the second before its last
// linear map), then through the MDS matrix together.
func (ks *Schedule) gCT(x uint32) uint32 {
	ct := ks.packed()
	a0, b0 := nibbles(x)
	a1, b1 := nibbles(x >> 8)
	a2, b2 := nibbles(x >> 16)
	a3, b3 := nibbles(x >> 24)
	p := 2 // P after the first mix
	first := &firstTables[ct.kw]
	for s := range ct.kw {
		f, n := &first[s], &ct.packed[s]
		f0, f1, f2, f3 := f[0], f[1], f[2], f[3]
		u0, u1, u2, u3 := nib(f0[p], b0), nib(f1[p], b1), nib(f2[p], b2), nib(f3[p], b3)
		a0, b0 = nib(f0[0], a0)^u0, nib(f0[1], a0)^u0
		a1, b1 = nib(f1[0], a1)^u1, nib(f1[1], a1)^u1
		a2, b2 = nib(f2[0], a2)^u2, nib(f2[1], a2)^u2
		a3, b3 = nib(f3[0], a3)^u3, nib(f3[1], a3)^u3
		u0, u1, u2, u3 = nib(n[0][1], b0), nib(n[1][1], b1), nib(n[2][1], b2), nib(n[3][1], b3)
		a0, b0 = nib(n[0][0], a0)^u0, nib(n[0][2], a0)^u0
		a1, b1 = nib(n[1][0], a1)^u1, nib(n[1][2], a1)^u1
		a2, b2 = nib(n[2][0], a2)^u2, nib(n[2][2], a2)^u2
		a3, b3 = nib(n[3][0], a3)^u3, nib(n[3][2], a3)^u3
		p = 3 // P after a second layer
	}
	// The last q permutation of each byte: its first layer, then its
	// second (packedLast), which gives the byte.
	q0, q1, q2, q3 := lastType[0], lastType[1], lastType[2], lastType[3]
	f0, f1, f2, f3 := &packedFirst[q0], &packedFirst[q1], &packedFirst[q2], &packedFirst[q3]
	u0, u1, u2, u3 := nib(f0[p], b0), nib(f1[p], b1), nib(f2[p], b2), nib(f3[p], b3)
	a0, b0 = nib(f0[0], a0)^u0, nib(f0[1], a0)^u0
	a1, b1 = nib(f1[0], a1)^u1, nib(f1[1], a1)^u1
	a2, b2 = nib(f2[0], a2)^u2, nib(f2[1], a2)^u2
	a3, b3 = nib(f3[0], a3)^u3, nib(f3[1], a3)^u3
	y := nib(packedLast[q0][0], a0) | nib(packedLast[q0][1], b0)<<4 |
		(nib(packedLast[q1][0], a1)|nib(packedLast[q1][1], b1)<<4)<<8 |
		(nib(packedLast[q2][0], a2)|nib(packedLast[q2][1], b2)<<4)<<16 |
		(nib(packedLast[q3][0], a3)|nib(packedLast[q3][1], b3)<<4)<<24
	return mdsCT(uint32(y))
}

// firstTables[kw][s][j] is the key-independent first layer of the q
// permutation that byte j passes through at level s of a key of kw words.
var firstTables [5][4][4]*[4]uint64

func init() {
	for kw := 2; kw <= 4; kw++ {
		for s := range kw {
			for j := range 4 {
				firstTables[kw][s][j] = &packedFirst[qType[kw-1-s][j]]
			}
		}
	}
}

// nibbles returns the nibbles of the low byte of x after the first mix.
func nibbles(x uint32) (a, b uint64) {
	v := uint64(byte(x))
	a, b = v>>4, v&15
	return a ^ b, nib(packedMix, a) ^ b
}

func EncryptBlockGenericCT(ks *Schedule, dst, src []byte) {
	_, _ = src[15], dst[15]
	a := binary.LittleEndian.Uint32(src[0:]) ^ ks.k[0]
	b := binary.LittleEndian.Uint32(src[4:]) ^ ks.k[1]
	c := binary.LittleEndian.Uint32(src[8:]) ^ ks.k[2]
	d := binary.LittleEndian.Uint32(src[12:]) ^ ks.k[3]
	for r := 8; r < 40; r += 4 {
		t0 := ks.gCT(a)
		t1 := ks.gCT(bits.RotateLeft32(b, 8))
		c = bits.RotateLeft32(c^(t0+t1+ks.k[r]), -1)
		d = bits.RotateLeft32(d, 1) ^ (t0 + 2*t1 + ks.k[r+1])
		t0 = ks.gCT(c)
		t1 = ks.gCT(bits.RotateLeft32(d, 8))
		a = bits.RotateLeft32(a^(t0+t1+ks.k[r+2]), -1)
		b = bits.RotateLeft32(b, 1) ^ (t0 + 2*t1 + ks.k[r+3])
	}
	binary.LittleEndian.PutUint32(dst[0:], c^ks.k[4])
	binary.LittleEndian.PutUint32(dst[4:], d^ks.k[5])
	binary.LittleEndian.PutUint32(dst[8:], a^ks.k[6])
	binary.LittleEndian.PutUint32(dst[12:], b^ks.k[7])
}

func DecryptBlockGenericCT(ks *Schedule, dst, src []byte) {
	_, _ = src[15], dst[15]
	c := binary.LittleEndian.Uint32(src[0:]) ^ ks.k[4]
	d := binary.LittleEndian.Uint32(src[4:]) ^ ks.k[5]
	a := binary.LittleEndian.Uint32(src[8:]) ^ ks.k[6]
	b := binary.LittleEndian.Uint32(src[12:]) ^ ks.k[7]
	for r := 36; r >= 8; r -= 4 {
		t0 := ks.gCT(c)
		t1 := ks.gCT(bits.RotateLeft32(d, 8))
		a = bits.RotateLeft32(a, 1) ^ (t0 + t1 + ks.k[r+2])
		b = bits.RotateLeft32(b^(t0+2*t1+ks.k[r+3]), -1)
		t0 = ks.gCT(a)
		t1 = ks.gCT(bits.RotateLeft32(b, 8))
		c = bits.RotateLeft32(c, 1) ^ (t0 + t1 + ks.k[r])
		d = bits.RotateLeft32(d^(t0+2*t1+ks.k[r+1]), -1)
	}
	binary.LittleEndian.PutUint32(dst[0:], a^ks.k[0])
	binary.LittleEndian.PutUint32(dst[4:], b^ks.k[1])
	binary.LittleEndian.PutUint32(dst[8:], c^ks.k[2])
	binary.LittleEndian.PutUint32(dst[12:], d^ks.k[3])
}

// encryptBlocksGenericCT encrypts the len(src)/BlockSize whole blocks of src:
// bitsliced from bitslicedMin blocks, else one at a time.
func encryptBlocksGenericCT(ks *Schedule, dst, src []byte) {
	if len(src) >= bitslicedMin*BlockSize {
		encryptBitsliced(ks, dst, src)
		return
	}
	for len(src) >= BlockSize {
		EncryptBlockGenericCT(ks, dst, src)
		dst, src = dst[BlockSize:], src[BlockSize:]
	}
}

// decryptBlocksGenericCT decrypts the len(src)/BlockSize whole blocks of src:
// bitsliced from bitslicedMin blocks, else one at a time.
func decryptBlocksGenericCT(ks *Schedule, dst, src []byte) {
	if len(src) >= bitslicedMin*BlockSize {
		decryptBitsliced(ks, dst, src)
		return
	}
	for len(src) >= BlockSize {
		DecryptBlockGenericCT(ks, dst, src)
		dst, src = dst[BlockSize:], src[BlockSize:]
	}
}
