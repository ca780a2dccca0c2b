package twofish

import (
	"crypto/cipher"
	"encoding/binary"
)

// NewCTR returns a Stream that encrypts or decrypts in counter mode with the
// block cipher b. The whole of iv is the initial value of a 128-bit
// big-endian counter, which wraps around modulo 2^128. A *Cipher encrypts
// many counter blocks per kernel call.
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
// The counter stays in locals, which the stores to buf cannot alias.
func (s *stream) counters(buf []byte) {
	hi, lo := s.hi, s.lo
	for i := 0; i+BlockSize <= len(buf); i += BlockSize {
		b := (*[BlockSize]byte)(buf[i:])
		binary.BigEndian.PutUint64(b[:8], hi)
		binary.BigEndian.PutUint64(b[8:], lo)
		lo++
		if lo == 0 {
			hi++
		}
	}
	s.hi, s.lo = hi, lo
	s.b.encryptBlocks(buf, buf)
}
