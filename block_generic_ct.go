package twofish

import (
	"encoding/binary"
	"math/bits"
)

// The portable constant-time block functions: the "generic-ct"
// implementation, for every architecture and the purego build. They are
// the generic block functions with the g function computed by hCT from the
// S vector (key_ct.go) instead of looked up in key-dependent tables: no
// memory address and no branch depends on the key or the data. They are
// several times slower than generic.

// gCT is the g function of the key whose schedule ks holds, in constant
// time.
func (ks *schedule) gCT(x uint32) uint32 { return hCT(x, ks.ct.sv[:ks.ct.kw]) }

func encryptBlockGenericCT(ks *schedule, dst, src []byte) {
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

func decryptBlockGenericCT(ks *schedule, dst, src []byte) {
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

// encryptBlocksGenericCT encrypts the len(src)/BlockSize whole blocks of src.
func encryptBlocksGenericCT(ks *schedule, dst, src []byte) {
	for len(src) >= BlockSize {
		encryptBlockGenericCT(ks, dst, src)
		dst, src = dst[BlockSize:], src[BlockSize:]
	}
}

// decryptBlocksGenericCT decrypts the len(src)/BlockSize whole blocks of src.
func decryptBlocksGenericCT(ks *schedule, dst, src []byte) {
	for len(src) >= BlockSize {
		decryptBlockGenericCT(ks, dst, src)
		dst, src = dst[BlockSize:], src[BlockSize:]
	}
}
