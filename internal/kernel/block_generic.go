package kernel

import (
	"encoding/binary"
	"math/bits"
)

// The portable block functions: the "generic" implementation, used on every
// architecture and with the purego build tag, and the reference that every
// other kernel is tested against. Two Feistel rounds per loop iteration keep
// the four words in place instead of swapping halves.

// g is the g function with the key-dependent tables s.
func g(s *[4][256]uint32, x uint32) uint32 {
	return s[0][byte(x)] ^ s[1][byte(x>>8)] ^ s[2][byte(x>>16)] ^ s[3][x>>24]
}

// EncryptBlockGeneric encrypts the first block of src into dst with the
// tables t and the subkeys of ks.
func EncryptBlockGeneric(t *Tables, ks *Schedule, dst, src []byte) {
	_, _ = src[15], dst[15]
	s := &t.s
	a := binary.LittleEndian.Uint32(src[0:]) ^ ks.k[0]
	b := binary.LittleEndian.Uint32(src[4:]) ^ ks.k[1]
	c := binary.LittleEndian.Uint32(src[8:]) ^ ks.k[2]
	d := binary.LittleEndian.Uint32(src[12:]) ^ ks.k[3]
	for r := 8; r < 40; r += 4 {
		t0 := g(s, a)
		t1 := g(s, bits.RotateLeft32(b, 8))
		c = bits.RotateLeft32(c^(t0+t1+ks.k[r]), -1)
		d = bits.RotateLeft32(d, 1) ^ (t0 + 2*t1 + ks.k[r+1])
		t0 = g(s, c)
		t1 = g(s, bits.RotateLeft32(d, 8))
		a = bits.RotateLeft32(a^(t0+t1+ks.k[r+2]), -1)
		b = bits.RotateLeft32(b, 1) ^ (t0 + 2*t1 + ks.k[r+3])
	}
	binary.LittleEndian.PutUint32(dst[0:], c^ks.k[4])
	binary.LittleEndian.PutUint32(dst[4:], d^ks.k[5])
	binary.LittleEndian.PutUint32(dst[8:], a^ks.k[6])
	binary.LittleEndian.PutUint32(dst[12:], b^ks.k[7])
}

// DecryptBlockGeneric is the inverse of EncryptBlockGeneric.
func DecryptBlockGeneric(t *Tables, ks *Schedule, dst, src []byte) {
	_, _ = src[15], dst[15]
	s := &t.s
	c := binary.LittleEndian.Uint32(src[0:]) ^ ks.k[4]
	d := binary.LittleEndian.Uint32(src[4:]) ^ ks.k[5]
	a := binary.LittleEndian.Uint32(src[8:]) ^ ks.k[6]
	b := binary.LittleEndian.Uint32(src[12:]) ^ ks.k[7]
	for r := 36; r >= 8; r -= 4 {
		t0 := g(s, c)
		t1 := g(s, bits.RotateLeft32(d, 8))
		a = bits.RotateLeft32(a, 1) ^ (t0 + t1 + ks.k[r+2])
		b = bits.RotateLeft32(b^(t0+2*t1+ks.k[r+3]), -1)
		t0 = g(s, a)
		t1 = g(s, bits.RotateLeft32(b, 8))
		c = bits.RotateLeft32(c, 1) ^ (t0 + t1 + ks.k[r])
		d = bits.RotateLeft32(d^(t0+2*t1+ks.k[r+1]), -1)
	}
	binary.LittleEndian.PutUint32(dst[0:], a^ks.k[0])
	binary.LittleEndian.PutUint32(dst[4:], b^ks.k[1])
	binary.LittleEndian.PutUint32(dst[8:], c^ks.k[2])
	binary.LittleEndian.PutUint32(dst[12:], d^ks.k[3])
}

// encryptBlocksGeneric encrypts the len(src)/BlockSize whole blocks of src.
func encryptBlocksGeneric(ks *Schedule, t *Tables, dst, src []byte) {
	for len(src) >= BlockSize {
		EncryptBlockGeneric(t, ks, dst, src)
		dst, src = dst[BlockSize:], src[BlockSize:]
	}
}

// decryptBlocksGeneric decrypts the len(src)/BlockSize whole blocks of src.
func decryptBlocksGeneric(ks *Schedule, t *Tables, dst, src []byte) {
	for len(src) >= BlockSize {
		DecryptBlockGeneric(t, ks, dst, src)
		dst, src = dst[BlockSize:], src[BlockSize:]
	}
}
