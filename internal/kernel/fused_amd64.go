//go:build gc && !purego

package kernel

import "math/bits"

// The fused mode kernels take the whole groups of 64 blocks of a run, and
// the blocks after them too: as one more group wherever c's bulk kernel
// would pad them (padsTail; the last whole group with them where the
// whole groups are odd in number, and CTR's and CFB decryption's partial
// last block among them, or ending the last whole group), in place, the 64-block kernels
// masking the group's missing blocks and bytes, where they were padded in
// a buffer before (Zen 5, NewCipher, a message of 1504 bytes at 8 offsets
// in turn, medians of 5 runs of two builds taking turns: XTS 1.11x, CBC
// decryption 1.08x, CFB decryption 1.05-1.08x, CTR of 600 to 3000 bytes
// 1.02-1.10x, OCB of 3008 bytes 1.03-1.04x); and through the word layout's mode
// kernels where its 16- and 32-block kernels would take them (narrowTail;
// CTR's and CFB decryption's partial last block among them, loaded and
// stored byte by byte, in place): so a run of a few hundred bytes, a disk
// sector or a packet, also makes no passes of its own over the message. On Zen 5, with NewCipher,
// the word layout's mode kernels took 512 bytes (32 blocks) of CTR from
// 0.77x to 0.87x the speed of ECB, of CBC decryption from 0.84x to 0.93x,
// of CFB decryption from 0.82x to 0.90x and of XTS from 0.61x to 0.71-0.73x
// (the rest is the tweak's own encryption)
// (BenchmarkModeVsECB/mode=/dir=/impl=auto/key=256/size=512, xECBmin,
// medians of 5 runs of the two test binaries taking turns, each figure
// low by 5-8 points: that benchmark's timing then charged the mode about
// 20 ns a call more than ECB; timed alike, internal/turns, they run at
// 0.93-0.96x, 1.00x, 0.93-0.96x and 0.75-0.76x, medians of 7 in two
// sessions' runs).
//
// They take such runs from 5 blocks whatever the plan's short crossover
// (Plan.From), below which EncryptBlocks gives a run to the 3-way ladder:
// with the mode's work in the kernel, one call of the 16-block mode kernel
// beats the 3-way ladder with the work in Go around it, where the plain
// 16-block kernel does not. Zen 5, NewCipher, 256-bit key, 5 and 6 blocks
// (80 and 96 bytes), medians of 5 runs of two builds taking turns: CBC
// decryption 1.12-1.14x, CTR 1.07-1.10x, XTS 1.07-1.08x, CFB decryption
// 1.05x, OCB 1.03-1.04x. With a partial last block, in place rather than
// through a buffer: CTR of 90 to 300 bytes 1.04-1.07x, CFB decryption
// 1.07-1.14x (Zen 5, as above).

// CTRGroups XORs into src the key stream of CTR from the counter *ctr
// (the 128-bit integer ctr[1]<<64 | ctr[0], as a big-endian block, wrapping
// modulo 2^128), for the blocks at its start that the fused kernels take,
// writes dst (which may be src), moves *ctr on past them, and returns how
// many bytes it did: none unless c's bulk kernel has a kernel that makes
// the counter blocks and XORs the key stream in itself (avx512-vbmi,
// avx512-gfni). The caller does the rest. If rest is not nil, a partial
// block at the end of src counts as a block, which the kernels may take
// with the others: then CTRGroups returns len(src), and its whole block of
// key stream is in rest, so that a stream can use the rest of it later.
func (c *Cipher) CTRGroups(dst, src []byte, ctr *[2]uint64, rest *[BlockSize]byte) int {
	return c.fused(fusedCTR, dst, src, ctr, nil, rest)
}

// GCMGroups is CTRGroups with GCM's counter (NIST SP 800-38D's inc32):
// only its low 32 bits count, and they wrap around alone. It takes whole
// groups of FusedGroup blocks only, and leaves *ctr after the last.
func (c *Cipher) GCMGroups(dst, src []byte, ctr *[2]uint64) int {
	n := len(src) &^ (FusedGroup*BlockSize - 1)
	if !c.Fused() || n == 0 {
		return 0
	}
	_ = dst[n-1]
	c.fused64(fusedGCM, &dst[0], &src[0], n, ctr, nil, nil)
	return n
}

// The bits of the counter that count, for the CTR kernels: all of CTR's,
// the low 32 of GCM's.
var (
	countingCTR = [2]uint64{^uint64(0), ^uint64(0)}
	countingGCM = [2]uint64{1<<32 - 1, 0}
)

// CBCDecryptGroups decrypts in CBC mode, from the IV *iv, the blocks at
// the start of src that the fused kernels take into dst (which may be
// src), leaves the last ciphertext block in *iv, and returns how many
// bytes it did: none unless c's bulk kernel has a kernel that XORs in the
// ciphertext blocks itself (avx512-vbmi, avx512-gfni). The caller does the
// rest.
func (c *Cipher) CBCDecryptGroups(dst, src []byte, iv *[BlockSize]byte) int {
	return c.fused(fusedCBC, dst, src, nil, iv, nil)
}

// CFBDecryptGroups decrypts in CFB mode, from the IV *iv, the blocks at
// the start of src that the fused kernels take into dst (which may be
// src), leaves the last ciphertext block in *iv, and returns how many
// bytes it did: none unless c's bulk kernel has a kernel that encrypts the
// ciphertext blocks and XORs them in itself (avx512-vbmi, avx512-gfni).
// The caller does the rest. If rest is not nil, a partial block at the end
// of src counts as a block, which the kernels may take with the others:
// then CFBDecryptGroups returns len(src), its key stream (the encryption of
// the ciphertext block before it) is in rest, and its ciphertext at the
// start of *iv, so that a stream can go on within it.
func (c *Cipher) CFBDecryptGroups(dst, src []byte, iv, rest *[BlockSize]byte) int {
	return c.fused(fusedCFB, dst, src, nil, iv, rest)
}

// XTSGroups encrypts or decrypts in XTS mode the blocks at the start of
// src that the fused kernels take into dst (which may be src), block i
// with the tweak T·x^i in GF(2^128), T the 128-bit little-endian integer
// tweak[1]<<64 | tweak[0]; it leaves the tweak after the last block it did
// in *tweak, and returns how many bytes it did: none unless c's bulk kernel
// has kernels that make the tweaks and XOR them in themselves
// (avx512-vbmi, avx512-gfni). The caller does the rest.
func (c *Cipher) XTSGroups(dst, src []byte, tweak *[2]uint64, dec bool) int {
	if dec {
		return c.fused(fusedXTSDec, dst, src, tweak, nil, nil)
	}
	return c.fused(fusedXTSEnc, dst, src, tweak, nil, nil)
}

// XTSHalves encrypts or decrypts in XTS mode the whole groups of 64
// blocks at the start of src into dst (which may be src), each half of a
// group, XTSHalf blocks, with a tweak of its own: block i of half h with
// the tweak T·x^i in GF(2^128), T the 128-bit little-endian integer
// tweaks[h][1]<<64 | tweaks[h][0]. It takes as many groups as src holds
// and tweaks has pairs for, and returns how many bytes it did: none unless
// c's bulk kernel has kernels that make the tweaks and XOR them in
// themselves (avx512-vbmi, avx512-gfni). The caller does the rest.
func (c *Cipher) XTSHalves(dst, src []byte, tweaks [][2]uint64, dec bool) int {
	n := min(len(src)/(FusedGroup*BlockSize), len(tweaks)/2)
	if !c.Fused() || n == 0 {
		return 0
	}
	_ = dst[n*FusedGroup*BlockSize-1]
	gfni := c.Head() == AVX512GFNI
	switch {
	case !dec && gfni:
		encryptXTSHalves64AVX512GFNI(c.ks, &dst[0], &src[0], n, &tweaks[0])
	case !dec:
		encryptXTSHalves64AVX512(c.ks, &dst[0], &src[0], n, &tweaks[0])
	case gfni:
		decryptXTSHalves64AVX512GFNI(c.ks, &dst[0], &src[0], n, &tweaks[0])
	default:
		decryptXTSHalves64AVX512(c.ks, &dst[0], &src[0], n, &tweaks[0])
	}
	return n * FusedGroup * BlockSize
}

// XTSHalvesTake reports whether XTSHalves is the way for sectors of
// sectorBytes bytes: where c has the halves kernels, sectors of a multiple
// of 512 bytes but those of two whole groups or more, which go a sector a
// call to XTSGroups, whose avx512-gfni kernels step each register's tweaks
// by VPCLMULQDQ, faster than the halves kernels' shifts
// (BenchmarkXTSSectors on Zen 5, medians of 5 alternating runs, 64 KiB:
// 1 KiB sectors 19.9 µs by halves, 26.2 a sector a call; 2 KiB 20.2 and
// 19.7; 4 KiB 20.1 and 18.9).
func (c *Cipher) XTSHalvesTake(sectorBytes int) bool {
	const half = XTSHalf * BlockSize
	wholeGroups := sectorBytes%(2*half) == 0 && sectorBytes >= 4*half
	return c.Fused() && sectorBytes > 0 && sectorBytes%half == 0 && !wholeGroups
}

// The fused mode kernels, for fused and fused64.
const (
	fusedCTR = iota
	fusedGCM // CTR with GCM's counter, in fused64 only
	fusedCBC
	fusedCFB
	fusedXTSEnc
	fusedXTSDec
)

// fused runs the fused kernel of mode m over the whole groups of src into
// dst, and then over the blocks after them: as a group where c's plan pads
// them, the 64-block kernel masking what is missing of it, in place (with
// the last whole group where the whole groups are odd in number), or through the word
// layout's mode kernels where the 16- and 32-block kernels would take them
// (narrowTail); and returns how many bytes it did. It moves on the mode's
// counter or tweak ctr, or its IV iv, by the blocks it did. With rest (CTR
// and CFB), a partial block at the end of src counts as a block, and its
// key stream goes to rest if a kernel takes it: in the masked group or the
// words' run, or in the last whole group that it ends, whatever the plan.
func (c *Cipher) fused(m int, dst, src []byte, ctr *[2]uint64, iv, rest *[BlockSize]byte) int {
	if !c.Fused() {
		return 0
	}
	n, end := len(src)/BlockSize, len(src)&^(BlockSize-1)
	partial := rest != nil && end < len(src)
	if partial {
		n, end = n+1, len(src)
	}
	whole := n - n%FusedGroup
	words := narrowTail(n)
	if !words && !c.plan.padsTail(n) && !(partial && whole == n) {
		if whole > 0 {
			_ = dst[whole*BlockSize-1]
			c.fused64(m, &dst[0], &src[0], whole*BlockSize, ctr, iv, nil)
		}
		return whole * BlockSize
	}
	_ = dst[end-1]
	i := 0 // where the words' run starts
	if words {
		i = whole * BlockSize
		if i > 0 {
			c.fused64(m, &dst[0], &src[0], i, ctr, iv, nil)
		}
	}
	var before [2]uint64
	if ctr != nil {
		before = *ctr
	}
	// The last ciphertext block, or as much as there is of it, the next
	// IV of CBC and CFB: kept before dst, which may be src, overwrites it.
	var last [BlockSize]byte
	l := copy(last[:], src[(end-1)&^(BlockSize-1):end])
	var stream [BlockSize]byte // the last block's key stream (CTR, CFB)
	if words {
		c.fusedWords(m, &dst[i], &src[i], end-i, ctr, iv, &stream)
	} else {
		c.fused64(m, &dst[0], &src[0], end, ctr, iv, &stream)
	}
	// Set the state as the r blocks leave it: the words' kernels did not
	// move it on, and the 64-block kernel moved it by whole groups.
	r := uint64(n - i/BlockSize)
	switch m {
	case fusedCTR:
		lo, carry := bits.Add64(before[0], r, 0)
		*ctr = [2]uint64{lo, before[1] + carry}
	case fusedCBC, fusedCFB:
		copy(iv[:], last[:l])
	default:
		for ; r >= FusedGroup/2; r -= FusedGroup / 2 {
			before = TimesX(before, FusedGroup/2)
		}
		if r > 0 {
			before = TimesX(before, uint(r))
		}
		*ctr = before
	}
	if partial {
		*rest = stream
	}
	return end
}

// fusedWords runs c's mode kernel of the word layout for mode m over the
// size bytes (5 to 32 blocks, CTR's and CFB's last one maybe partial, whose
// key stream goes to stream) of a words' run: the 16-block kernel's up to
// 16 blocks, the 32-block kernel's above. It leaves the mode's state as it
// was.
func (c *Cipher) fusedWords(m int, dst, src *byte, size int, ctr *[2]uint64, iv, stream *[BlockSize]byte) {
	n := (size + BlockSize - 1) / BlockSize
	gfni, w16 := c.Head() == AVX512GFNI, n <= 16
	switch {
	case m == fusedCTR && gfni && w16:
		encryptCTR16AVX512GFNI(c.ks, dst, src, size, ctr, stream)
	case m == fusedCTR && gfni:
		encryptCTR32AVX512GFNI(c.ks, dst, src, size, ctr, stream)
	case m == fusedCTR && w16:
		encryptCTR16AVX512(c.ks, dst, src, size, ctr, stream)
	case m == fusedCTR:
		encryptCTR32AVX512(c.ks, dst, src, size, ctr, stream)
	case m == fusedCBC && gfni && w16:
		decryptCBC16AVX512GFNI(c.ks, dst, src, n, iv)
	case m == fusedCBC && gfni:
		decryptCBC32AVX512GFNI(c.ks, dst, src, n, iv)
	case m == fusedCBC && w16:
		decryptCBC16AVX512(c.ks, dst, src, n, iv)
	case m == fusedCBC:
		decryptCBC32AVX512(c.ks, dst, src, n, iv)
	case m == fusedCFB && gfni && w16:
		decryptCFB16AVX512GFNI(c.ks, dst, src, size, iv, stream)
	case m == fusedCFB && gfni:
		decryptCFB32AVX512GFNI(c.ks, dst, src, size, iv, stream)
	case m == fusedCFB && w16:
		decryptCFB16AVX512(c.ks, dst, src, size, iv, stream)
	case m == fusedCFB:
		decryptCFB32AVX512(c.ks, dst, src, size, iv, stream)
	case m == fusedXTSEnc && gfni && w16:
		encryptXTS16AVX512GFNI(c.ks, dst, src, n, ctr)
	case m == fusedXTSEnc && gfni:
		encryptXTS32AVX512GFNI(c.ks, dst, src, n, ctr)
	case m == fusedXTSEnc && w16:
		encryptXTS16AVX512(c.ks, dst, src, n, ctr)
	case m == fusedXTSEnc:
		encryptXTS32AVX512(c.ks, dst, src, n, ctr)
	case gfni && w16:
		decryptXTS16AVX512GFNI(c.ks, dst, src, n, ctr)
	case gfni:
		decryptXTS32AVX512GFNI(c.ks, dst, src, n, ctr)
	case w16:
		decryptXTS16AVX512(c.ks, dst, src, n, ctr)
	default:
		decryptXTS32AVX512(c.ks, dst, src, n, ctr)
	}
}

// fused64 runs c's 64-block kernel of mode m over size bytes (whole blocks
// but for CTR's and CFB's, whose last block may be partial, its key stream
// to rest if rest is not nil).
func (c *Cipher) fused64(m int, dst, src *byte, size int, ctr *[2]uint64, iv, rest *[BlockSize]byte) {
	if rest == nil {
		rest = new([BlockSize]byte)
	}
	gfni, n := c.Head() == AVX512GFNI, size/BlockSize
	switch {
	case m == fusedCTR && gfni:
		encryptCTR64AVX512GFNI(c.ks, dst, src, size, ctr, rest, &countingCTR)
	case m == fusedCTR:
		encryptCTR64AVX512(c.ks, dst, src, size, ctr, rest, &countingCTR)
	case m == fusedGCM && gfni:
		encryptCTR64AVX512GFNI(c.ks, dst, src, size, ctr, rest, &countingGCM)
	case m == fusedGCM:
		encryptCTR64AVX512(c.ks, dst, src, size, ctr, rest, &countingGCM)
	case m == fusedCBC && gfni:
		decryptCBC64AVX512GFNI(c.ks, dst, src, n, iv)
	case m == fusedCBC:
		decryptCBC64AVX512(c.ks, dst, src, n, iv)
	case m == fusedCFB && gfni:
		decryptCFB64AVX512GFNI(c.ks, dst, src, size, iv, rest)
	case m == fusedCFB:
		decryptCFB64AVX512(c.ks, dst, src, size, iv, rest)
	case m == fusedXTSEnc && gfni:
		encryptXTS64AVX512GFNI(c.ks, dst, src, n, ctr)
	case m == fusedXTSEnc:
		encryptXTS64AVX512(c.ks, dst, src, n, ctr)
	case gfni:
		decryptXTS64AVX512GFNI(c.ks, dst, src, n, ctr)
	default:
		decryptXTS64AVX512(c.ks, dst, src, n, ctr)
	}
}

// padsTail reports whether, in a run of n blocks, p's bulk kernel takes
// the blocks after the last whole group as one padded group of its own, as
// crypt64AVX512 does: more than smallTail of them and not narrowTail's, in
// a run that EncryptBlocks gives it whole. (A Cipher that builds its
// tables on use also gives the bulk kernel shorter remainders until it has
// built them; the fused kernels leave those to the caller, which takes
// them the slower way only until then.)
func (p *Plan) padsTail(n int) bool {
	r := n % p.Bulk.Blocks
	return r > smallTail && !narrowTail(n) && (p.From == 0 || p.bulkBlocks(n) == n)
}

// narrowMost is the most blocks after the last full group of 64 (or its
// last pair) that go through the 16- and 32-block kernels, in word layout,
// rather than through one padded group of 64 (narrowTail).
const narrowMost = 32

// narrowTail reports whether, in a run of n blocks, the 64-block kernels'
// blocks after the last whole group go to the 16- or 32-block kernels, in
// word layout, rather than padded into a group: more than smallTail of
// them, at most 32, after an even number of whole groups (none, for a
// run shorter than a group). A padded group alone takes 340 ns on Zen 5
// and those kernels 189 ns for up to 16 blocks and 244 ns for up to 32
// (avx512-gfni; avx512-vbmi 404, 236 and 287 ns; go test -run '^$' -bench
// 'AVX512Tail' ./internal/kernel, medians of 5); after an odd number, the padded group pairs with the
// last whole one, for 180-190 ns more than that one alone (the 64-block kernels pair them: kern.blocks in _asm/avx512).
func narrowTail(n int) bool {
	r := n % FusedGroup
	return r > smallTail && r <= narrowMost && n/FusedGroup%2 == 0
}

// TakesAsGroup reports whether EncryptBlocks and DecryptBlocks give n
// blocks after a whole group to c's bulk kernel, one with fused mode
// kernels, as one group: n is FusedGroup, or fewer that it pads into a
// group. A caller that gives whole groups to a fused kernel and such a run
// after them to EncryptBlocks does better, where its whole groups are odd
// in number, to give the last of them to EncryptBlocks too: the bulk
// kernel takes the two groups together, as a pair (the 64-block kernels pair them: kern.blocks in _asm/avx512).
func (c *Cipher) TakesAsGroup(n int) bool {
	return c.Fused() && (n == FusedGroup || n < FusedGroup && c.plan.padsTail(FusedGroup+n))
}

// Fused reports whether c's bulk kernel has the fused mode kernels of
// CTRGroups, CBCDecryptGroups, CFBDecryptGroups, XTSGroups and XTSHalves
// (avx512-vbmi, avx512-gfni), so that a caller can tell before it calls
// them.
func (c *Cipher) Fused() bool { return c.Head() == AVX512VBMI || c.Head() == AVX512GFNI }
