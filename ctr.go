package twofish

import (
	"crypto/cipher"
	"encoding/binary"
	"math/bits"
)

// NewCTR returns a Stream that encrypts or decrypts in counter mode with the
// block cipher b. The whole of iv is the initial value of a 128-bit
// big-endian counter, which wraps around modulo 2^128. A *Cipher encrypts
// many counter blocks per kernel call, and where its bulk kernel can, makes
// them and XORs the key stream in within the kernel.
func NewCTR(b cipher.Block, iv []byte) cipher.Stream {
	bb := blocksOf(b)
	if len(iv) != BlockSize {
		panic("cipher.NewCTR: IV length must equal block size")
	}
	return &stream{
		b:  bb,
		hi: binary.BigEndian.Uint64(iv),
		lo: binary.BigEndian.Uint64(iv[8:]),
	}
}

// counters encrypts the next len(buf)/BlockSize counter blocks into buf.
// The counter stays in locals, which the stores to buf cannot alias. Its
// carry is bits.Add64's, not a branch on the low word: EAX's counter
// (eax.ctr) is OMAC's output, a secret, and a compiler may make
// "if lo == 0" a branch (Go 1.26 does for 386, arm, riscv64, s390x,
// loong64 and mips64; amd64 and arm64 get a SETEQ or CSINC).
func (s *stream) counters(buf []byte) {
	hi, lo := s.hi, s.lo
	for i := 0; i+BlockSize <= len(buf); i += BlockSize {
		b := (*[BlockSize]byte)(buf[i:])
		binary.BigEndian.PutUint64(b[:8], hi)
		binary.BigEndian.PutUint64(b[8:], lo)
		var carry uint64
		lo, carry = bits.Add64(lo, 1, 0)
		hi += carry
	}
	s.hi, s.lo = hi, lo
	s.b.encryptBlocks(buf, buf)
}

// fused XORs the key stream into the blocks at the start of src that the
// fused kernels take (the whole groups, and a padded rest, a partial last
// block among it) through a kernel that makes the counter blocks itself,
// where s's Cipher has one (kernel.Cipher.CTRGroups), and returns how many
// bytes it did; s keeps the rest of a partial block's key stream. The
// kernel reads each source block once and writes each destination block
// once: CTR at 8 KiB runs at 0.97x the speed of ECB, where making the
// counter blocks into a buffer and XORing it in afterwards ran at 0.64x
// (Zen 5, BenchmarkModeVsECB's xECBmin).
func (s *stream) fused(dst, src []byte) int {
	if s.b.c == nil {
		return 0
	}
	ctr := [2]uint64{s.lo, s.hi}
	n := s.b.c.k.CTRGroups(dst, src, &ctr, &s.rest)
	s.lo, s.hi = ctr[0], ctr[1]
	if p := n % BlockSize; p > 0 {
		s.left = BlockSize - p
	}
	return n
}
