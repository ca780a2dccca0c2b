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

// CFBDecryptGroups decrypts in CFB mode, from the IV *iv, the whole groups
// of 64 blocks at the start of src into dst (which may be src), leaves the
// last ciphertext block in *iv, and returns how many bytes it did: none
// unless c's bulk kernel has a kernel that encrypts the ciphertext blocks
// and XORs them in itself (avx512-vbmi, avx512-gfni). The caller does the
// rest. All the groups go to one kernel call.
func (c *Cipher) CFBDecryptGroups(dst, src []byte, iv *[BlockSize]byte) int {
	n := c.fusedGroups(dst, src)
	if n == 0 {
		return 0
	}
	if c.Head() == AVX512GFNI {
		decryptCFB64AVX512GFNI(c.ks, &dst[0], &src[0], n, iv)
	} else {
		decryptCFB64AVX512(c.ks, &dst[0], &src[0], n, iv)
	}
	return n * FusedGroup * BlockSize
}

// XTSGroups encrypts or decrypts in XTS mode the whole groups of 64 blocks
// at the start of src into dst (which may be src), and the blocks after
// them too where c's bulk kernel would pad them into a group of their own
// (padsTail), block i with the tweak T·x^i in GF(2^128), T the 128-bit
// little-endian integer tweak[1]<<64 | tweak[0]; it leaves the tweak after
// the last block it did in *tweak, and returns how many bytes it did: none
// unless c's bulk kernel has kernels that make the tweaks and XOR them in
// themselves (avx512-vbmi, avx512-gfni). The caller does the rest. All the
// whole groups go to one kernel call.
//
// A sector of 512 bytes, 32 blocks, then takes one padded call of the
// fused kernel instead of a padded call of the block kernel between passes
// in Go that make the tweaks and XOR them in: on Zen 5, XTS of 512 bytes
// with NewXTS runs at 0.81x the speed of ECB, where it ran at 0.72x
// (BenchmarkModeVsECB/mode=XTS/dir=enc/impl=auto/key=256/size=512,
// xECBmin, medians of 5; the rest is the tweak's own encryption).
func (c *Cipher) XTSGroups(dst, src []byte, tweak *[2]uint64, dec bool) int {
	if !c.Fused() {
		return 0
	}
	n := len(src) / BlockSize
	whole := n - n%FusedGroup
	if whole > 0 {
		_ = dst[whole*BlockSize-1]
		c.xts64(&dst[0], &src[0], whole/FusedGroup, tweak, dec)
	}
	if !c.plan.padsTail(n) {
		return whole * BlockSize
	}
	i, end := whole*BlockSize, n*BlockSize
	_ = dst[end-1]
	var buf [FusedGroup * BlockSize]byte
	copy(buf[:], src[i:end])
	t := *tweak
	c.xts64(&buf[0], &buf[0], 1, tweak, dec)
	copy(dst[i:end], buf[:])
	*tweak = timesX(t, uint(n-whole))
	return end
}

// xts64 runs c's XTS kernel of the direction over n groups of 64 blocks.
func (c *Cipher) xts64(dst, src *byte, n int, tweak *[2]uint64, dec bool) {
	switch gfni := c.Head() == AVX512GFNI; {
	case gfni && dec:
		decryptXTS64AVX512GFNI(c.ks, dst, src, n, tweak)
	case gfni:
		encryptXTS64AVX512GFNI(c.ks, dst, src, n, tweak)
	case dec:
		decryptXTS64AVX512(c.ks, dst, src, n, tweak)
	default:
		encryptXTS64AVX512(c.ks, dst, src, n, tweak)
	}
}

// padsTail reports whether, in a run of n blocks, p's bulk kernel takes
// the blocks after the last whole group as one padded group of its own, as
// crypt64AVX512 does: more than smallTail of them, in a run that
// EncryptBlocks gives it whole.
func (p *Plan) padsTail(n int) bool {
	r := n % p.Bulk.Blocks
	return r > smallTail && (p.From == 0 || p.bulkBlocks(n) == n)
}

// timesX returns the XTS tweak t (t[1]<<64 | t[0]) times x^k in GF(2^128),
// modulo x^128 + x^7 + x^2 + x + 1, for k from 1 to 63, without branching
// on t: the 128-bit shift by k, and the k bits shifted out, o, back as o
// times x^7 + x^2 + x + 1.
func timesX(t [2]uint64, k uint) [2]uint64 {
	o := t[1] >> (64 - k)
	lo := t[0]<<k ^ o ^ o<<1 ^ o<<2 ^ o<<7
	hi := (t[1]<<k | t[0]>>(64-k)) ^ o>>63 ^ o>>62 ^ o>>57
	return [2]uint64{lo, hi}
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
