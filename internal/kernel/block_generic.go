package kernel

import (
	"encoding/binary"
	"math/bits"
)

// The portable block functions: the "generic" implementation, used on every
// architecture and with the purego build tag, and the reference that every
// other kernel is tested against. Two Feistel rounds per loop iteration keep
// the four words in place instead of swapping halves. Runs of blocks go
// three at a time, interleaved (genericBlocks), which TestGenericInterleaved
// checks against the single blocks.

// g is the g function with the key-dependent tables s.
func g(s *[4][256]uint32, x uint32) uint32 {
	return s[0][byte(x)] ^ s[1][byte(x>>8)] ^ s[2][byte(x>>16)] ^ s[3][x>>24]
}

// gRol8 is g(s, bits.RotateLeft32(x, 8)), the second g function of a
// round, with the rotation folded into the choice of bytes.
func gRol8(s *[4][256]uint32, x uint32) uint32 {
	return s[0][x>>24] ^ s[1][byte(x)] ^ s[2][byte(x>>8)] ^ s[3][byte(x>>16)]
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
		t1 := gRol8(s, b)
		c = bits.RotateLeft32(c^(t0+t1+ks.k[r]), -1)
		d = bits.RotateLeft32(d, 1) ^ (t0 + 2*t1 + ks.k[r+1])
		t0 = g(s, c)
		t1 = gRol8(s, d)
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
		t1 := gRol8(s, d)
		a = bits.RotateLeft32(a, 1) ^ (t0 + t1 + ks.k[r+2])
		b = bits.RotateLeft32(b^(t0+2*t1+ks.k[r+3]), -1)
		t0 = g(s, a)
		t1 = gRol8(s, b)
		c = bits.RotateLeft32(c, 1) ^ (t0 + t1 + ks.k[r])
		d = bits.RotateLeft32(d^(t0+2*t1+ks.k[r+1]), -1)
	}
	binary.LittleEndian.PutUint32(dst[0:], a^ks.k[0])
	binary.LittleEndian.PutUint32(dst[4:], b^ks.k[1])
	binary.LittleEndian.PutUint32(dst[8:], c^ks.k[2])
	binary.LittleEndian.PutUint32(dst[12:], d^ks.k[3])
}

// encryptBlocksGeneric encrypts the len(src)/BlockSize whole blocks of src,
// genericBlocks at a time; two left over go padded, one alone.
func encryptBlocksGeneric(ks *Schedule, t *Tables, dst, src []byte) {
	for len(src) >= genericBlocks*BlockSize {
		encrypt3Generic(t, ks, dst, src)
		dst, src = dst[genericBlocks*BlockSize:], src[genericBlocks*BlockSize:]
	}
	switch len(src) / BlockSize {
	case 2:
		// The pad is the second block again, as in crypt3x, so that it
		// holds only the caller's blocks and their images (a zero block's
		// would be E(0), GCM's hash key, left on the stack).
		var pad [genericBlocks * BlockSize]byte
		copy(pad[:], src[:2*BlockSize])
		copy(pad[2*BlockSize:], src[BlockSize:2*BlockSize])
		encrypt3Generic(t, ks, pad[:], pad[:])
		copy(dst, pad[:2*BlockSize])
	case 1:
		EncryptBlockGeneric(t, ks, dst, src)
	}
}

// decryptBlocksGeneric is the inverse of encryptBlocksGeneric.
func decryptBlocksGeneric(ks *Schedule, t *Tables, dst, src []byte) {
	for len(src) >= genericBlocks*BlockSize {
		decrypt3Generic(t, ks, dst, src)
		dst, src = dst[genericBlocks*BlockSize:], src[genericBlocks*BlockSize:]
	}
	switch len(src) / BlockSize {
	case 2:
		var pad [genericBlocks * BlockSize]byte
		copy(pad[:], src[:2*BlockSize])
		copy(pad[2*BlockSize:], src[BlockSize:2*BlockSize])
		decrypt3Generic(t, ks, pad[:], pad[:])
		copy(dst, pad[:2*BlockSize])
	case 1:
		DecryptBlockGeneric(t, ks, dst, src)
	}
}

// genericBlocks is how many blocks the generic kernel interleaves: one
// block's rounds form a single chain of dependent look-ups, which leaves
// most of a core idle; three independent chains in one loop keep it busy.
// On Zen 5 (go test -run '^$' -bench Generic ./internal/kernel) three at a
// time run 2.0x one at a time, and two padded to three 1.24x two alone
// (BenchmarkRuns, n=2); an experiment that interleaved two to four blocks
// ran 1.6x, 1.9x and 1.9x one at a time, the 14 general registers of amd64
// spilling from three. In Node's WebAssembly (GOOS=js GOARCH=wasm) three
// run 1.2x to 1.4x one at a time. llvm-mca 19 (tools/arm64mca.py)
// estimates three at a time at 1.50x (Neoverse N1), 1.18x (Cortex-A76),
// 1.11x (Apple M1) and 1.84x (Neoverse V1) one at a time; 386, whose seven
// registers spill more, is unmeasured.
const genericBlocks = 3

// encrypt3Generic encrypts the first three blocks of src into dst, as
// EncryptBlockGeneric does each, their rounds interleaved.
func encrypt3Generic(t *Tables, ks *Schedule, dst, src []byte) {
	_, _ = src[47], dst[47]
	s := &t.s
	a0 := binary.LittleEndian.Uint32(src[0:]) ^ ks.k[0]
	b0 := binary.LittleEndian.Uint32(src[4:]) ^ ks.k[1]
	c0 := binary.LittleEndian.Uint32(src[8:]) ^ ks.k[2]
	d0 := binary.LittleEndian.Uint32(src[12:]) ^ ks.k[3]
	a1 := binary.LittleEndian.Uint32(src[16:]) ^ ks.k[0]
	b1 := binary.LittleEndian.Uint32(src[20:]) ^ ks.k[1]
	c1 := binary.LittleEndian.Uint32(src[24:]) ^ ks.k[2]
	d1 := binary.LittleEndian.Uint32(src[28:]) ^ ks.k[3]
	a2 := binary.LittleEndian.Uint32(src[32:]) ^ ks.k[0]
	b2 := binary.LittleEndian.Uint32(src[36:]) ^ ks.k[1]
	c2 := binary.LittleEndian.Uint32(src[40:]) ^ ks.k[2]
	d2 := binary.LittleEndian.Uint32(src[44:]) ^ ks.k[3]
	for r := 8; r < 40; r += 4 {
		k0, k1 := ks.k[r], ks.k[r+1]
		x0, y0 := g(s, a0), gRol8(s, b0)
		x1, y1 := g(s, a1), gRol8(s, b1)
		x2, y2 := g(s, a2), gRol8(s, b2)
		c0 = bits.RotateLeft32(c0^(x0+y0+k0), -1)
		d0 = bits.RotateLeft32(d0, 1) ^ (x0 + 2*y0 + k1)
		c1 = bits.RotateLeft32(c1^(x1+y1+k0), -1)
		d1 = bits.RotateLeft32(d1, 1) ^ (x1 + 2*y1 + k1)
		c2 = bits.RotateLeft32(c2^(x2+y2+k0), -1)
		d2 = bits.RotateLeft32(d2, 1) ^ (x2 + 2*y2 + k1)
		k0, k1 = ks.k[r+2], ks.k[r+3]
		x0, y0 = g(s, c0), gRol8(s, d0)
		x1, y1 = g(s, c1), gRol8(s, d1)
		x2, y2 = g(s, c2), gRol8(s, d2)
		a0 = bits.RotateLeft32(a0^(x0+y0+k0), -1)
		b0 = bits.RotateLeft32(b0, 1) ^ (x0 + 2*y0 + k1)
		a1 = bits.RotateLeft32(a1^(x1+y1+k0), -1)
		b1 = bits.RotateLeft32(b1, 1) ^ (x1 + 2*y1 + k1)
		a2 = bits.RotateLeft32(a2^(x2+y2+k0), -1)
		b2 = bits.RotateLeft32(b2, 1) ^ (x2 + 2*y2 + k1)
	}
	binary.LittleEndian.PutUint32(dst[0:], c0^ks.k[4])
	binary.LittleEndian.PutUint32(dst[4:], d0^ks.k[5])
	binary.LittleEndian.PutUint32(dst[8:], a0^ks.k[6])
	binary.LittleEndian.PutUint32(dst[12:], b0^ks.k[7])
	binary.LittleEndian.PutUint32(dst[16:], c1^ks.k[4])
	binary.LittleEndian.PutUint32(dst[20:], d1^ks.k[5])
	binary.LittleEndian.PutUint32(dst[24:], a1^ks.k[6])
	binary.LittleEndian.PutUint32(dst[28:], b1^ks.k[7])
	binary.LittleEndian.PutUint32(dst[32:], c2^ks.k[4])
	binary.LittleEndian.PutUint32(dst[36:], d2^ks.k[5])
	binary.LittleEndian.PutUint32(dst[40:], a2^ks.k[6])
	binary.LittleEndian.PutUint32(dst[44:], b2^ks.k[7])
}

// decrypt3Generic is the inverse of encrypt3Generic.
func decrypt3Generic(t *Tables, ks *Schedule, dst, src []byte) {
	_, _ = src[47], dst[47]
	s := &t.s
	c0 := binary.LittleEndian.Uint32(src[0:]) ^ ks.k[4]
	d0 := binary.LittleEndian.Uint32(src[4:]) ^ ks.k[5]
	a0 := binary.LittleEndian.Uint32(src[8:]) ^ ks.k[6]
	b0 := binary.LittleEndian.Uint32(src[12:]) ^ ks.k[7]
	c1 := binary.LittleEndian.Uint32(src[16:]) ^ ks.k[4]
	d1 := binary.LittleEndian.Uint32(src[20:]) ^ ks.k[5]
	a1 := binary.LittleEndian.Uint32(src[24:]) ^ ks.k[6]
	b1 := binary.LittleEndian.Uint32(src[28:]) ^ ks.k[7]
	c2 := binary.LittleEndian.Uint32(src[32:]) ^ ks.k[4]
	d2 := binary.LittleEndian.Uint32(src[36:]) ^ ks.k[5]
	a2 := binary.LittleEndian.Uint32(src[40:]) ^ ks.k[6]
	b2 := binary.LittleEndian.Uint32(src[44:]) ^ ks.k[7]
	for r := 36; r >= 8; r -= 4 {
		k0, k1 := ks.k[r+2], ks.k[r+3]
		x0, y0 := g(s, c0), gRol8(s, d0)
		x1, y1 := g(s, c1), gRol8(s, d1)
		x2, y2 := g(s, c2), gRol8(s, d2)
		a0 = bits.RotateLeft32(a0, 1) ^ (x0 + y0 + k0)
		b0 = bits.RotateLeft32(b0^(x0+2*y0+k1), -1)
		a1 = bits.RotateLeft32(a1, 1) ^ (x1 + y1 + k0)
		b1 = bits.RotateLeft32(b1^(x1+2*y1+k1), -1)
		a2 = bits.RotateLeft32(a2, 1) ^ (x2 + y2 + k0)
		b2 = bits.RotateLeft32(b2^(x2+2*y2+k1), -1)
		k0, k1 = ks.k[r], ks.k[r+1]
		x0, y0 = g(s, a0), gRol8(s, b0)
		x1, y1 = g(s, a1), gRol8(s, b1)
		x2, y2 = g(s, a2), gRol8(s, b2)
		c0 = bits.RotateLeft32(c0, 1) ^ (x0 + y0 + k0)
		d0 = bits.RotateLeft32(d0^(x0+2*y0+k1), -1)
		c1 = bits.RotateLeft32(c1, 1) ^ (x1 + y1 + k0)
		d1 = bits.RotateLeft32(d1^(x1+2*y1+k1), -1)
		c2 = bits.RotateLeft32(c2, 1) ^ (x2 + y2 + k0)
		d2 = bits.RotateLeft32(d2^(x2+2*y2+k1), -1)
	}
	binary.LittleEndian.PutUint32(dst[0:], a0^ks.k[0])
	binary.LittleEndian.PutUint32(dst[4:], b0^ks.k[1])
	binary.LittleEndian.PutUint32(dst[8:], c0^ks.k[2])
	binary.LittleEndian.PutUint32(dst[12:], d0^ks.k[3])
	binary.LittleEndian.PutUint32(dst[16:], a1^ks.k[0])
	binary.LittleEndian.PutUint32(dst[20:], b1^ks.k[1])
	binary.LittleEndian.PutUint32(dst[24:], c1^ks.k[2])
	binary.LittleEndian.PutUint32(dst[28:], d1^ks.k[3])
	binary.LittleEndian.PutUint32(dst[32:], a2^ks.k[0])
	binary.LittleEndian.PutUint32(dst[36:], b2^ks.k[1])
	binary.LittleEndian.PutUint32(dst[40:], c2^ks.k[2])
	binary.LittleEndian.PutUint32(dst[44:], d2^ks.k[3])
}
