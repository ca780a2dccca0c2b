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
// 9-9.5x faster a block. No memory address and no branch depends on the key
// or the data. Both are many times slower than generic.

// gCT is the g function of the key whose schedule ks holds, in constant
// time.
func (ks *Schedule) gCT(x uint32) uint32 {
	ct := ks.packed()
	var w uint32
	for j := range 4 {
		v := uint64(byte(x >> (8 * j)))
		// The nibbles (a, β), β the second before its last linear map.
		a, b := v>>4, v&15
		a, b = a^b, nib(packedMix, a)^b
		p := 2 // P after the first mix
		for s := range ct.kw {
			f := &packedFirst[qType[ct.kw-1-s][j]]
			u := nib(f[p], b)
			a, b = nib(f[0], a)^u, nib(f[1], a)^u
			n := &ct.packed[s][j]
			u = nib(n[1], b)
			a, b = nib(n[0], a)^u, nib(n[2], a)^u
			p = 3 // P after a second layer
		}
		q := lastType[j]
		f := &packedFirst[q]
		u := nib(f[p], b)
		a, b = nib(f[0], a)^u, nib(f[1], a)^u
		y := nib(packedLast[q][0], a) | nib(packedLast[q][1], b)<<4
		w ^= mdsColumnCT(j, uint32(y))
	}
	return w
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
