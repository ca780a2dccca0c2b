//go:build gc && !purego

package kernel

// CTRGroups XORs into src the key stream of CTR from the counter *ctr
// (the 128-bit integer ctr[1]<<64 | ctr[0], as a big-endian block, wrapping
// modulo 2^128), for the whole groups of 64 blocks at its start, writes dst
// (which may be src), moves *ctr on past them, and returns how many bytes
// it did: none unless c's bulk kernel has a kernel that makes the counter
// blocks and XORs the key stream in itself (avx512-vbmi, avx512-gfni). The caller does
// the rest. All the groups go to one kernel call.
func (c *Cipher) CTRGroups(dst, src []byte, ctr *[2]uint64) int {
	n := c.fusedGroups(dst, src)
	if n == 0 {
		return 0
	}
	if c.Head() == AVX512GFNI {
		encryptCTR64AVX512GFNI(c.ks, &dst[0], &src[0], n, ctr)
	} else {
		encryptCTR64AVX512(c.ks, &dst[0], &src[0], n, ctr)
	}
	return n * FusedGroup * BlockSize
}

// CBCDecryptGroups decrypts in CBC mode, from the IV *iv, the whole groups
// of 64 blocks at the start of src into dst (which may be src), leaves the
// last ciphertext block in *iv, and returns how many bytes it did: none
// unless c's bulk kernel has a kernel that XORs in the ciphertext blocks
// itself (avx512-vbmi, avx512-gfni). The caller does the rest. All the groups go to one
// kernel call.
func (c *Cipher) CBCDecryptGroups(dst, src []byte, iv *[BlockSize]byte) int {
	n := c.fusedGroups(dst, src)
	if n == 0 {
		return 0
	}
	if c.Head() == AVX512GFNI {
		decryptCBC64AVX512GFNI(c.ks, &dst[0], &src[0], n, iv)
	} else {
		decryptCBC64AVX512(c.ks, &dst[0], &src[0], n, iv)
	}
	return n * FusedGroup * BlockSize
}

// XTSGroups encrypts or decrypts in XTS mode the whole groups of 64 blocks
// at the start of src into dst (which may be src), block i with the tweak
// T·x^i in GF(2^128), T the 128-bit little-endian integer
// tweak[1]<<64 | tweak[0], leaves the tweak after the last block in
// *tweak, and returns how many bytes it did: none unless c's bulk kernel
// has kernels that make the tweaks and XOR them in themselves
// (avx512-vbmi, avx512-gfni). The caller does the rest. All the groups go to one kernel
// call.
func (c *Cipher) XTSGroups(dst, src []byte, tweak *[2]uint64, dec bool) int {
	n := c.fusedGroups(dst, src)
	if n == 0 {
		return 0
	}
	switch gfni := c.Head() == AVX512GFNI; {
	case gfni && dec:
		decryptXTS64AVX512GFNI(c.ks, &dst[0], &src[0], n, tweak)
	case gfni:
		encryptXTS64AVX512GFNI(c.ks, &dst[0], &src[0], n, tweak)
	case dec:
		decryptXTS64AVX512(c.ks, &dst[0], &src[0], n, tweak)
	default:
		encryptXTS64AVX512(c.ks, &dst[0], &src[0], n, tweak)
	}
	return n * FusedGroup * BlockSize
}

// Fused reports whether c's bulk kernel has the fused mode kernels of
// CTRGroups, CBCDecryptGroups and XTSGroups (avx512-vbmi, avx512-gfni), so that a
// caller can tell before it calls them.
func (c *Cipher) Fused() bool { return c.Head() == AVX512VBMI || c.Head() == AVX512GFNI }

// fusedGroups returns how many whole groups of 64 blocks of src (and dst,
// which must be as long) c's fused kernels take: none unless its bulk
// kernel is avx512-vbmi or avx512-gfni.
func (c *Cipher) fusedGroups(dst, src []byte) int {
	n := len(src) / (FusedGroup * BlockSize)
	if n == 0 || !c.Fused() {
		return 0
	}
	_ = dst[n*FusedGroup*BlockSize-1]
	return n
}
