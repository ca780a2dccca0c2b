package twofish

import (
	"crypto/cipher"

	"github.com/twofish-go/twofish/internal/kernel"
)

// NewOFB returns a Stream that encrypts or decrypts in output feedback mode
// with b and iv, which must be one block long. The key stream is serial:
// each block is the encryption of the one before.
func NewOFB(b cipher.Block, iv []byte) cipher.Stream {
	bb := blocksOf(b)
	if len(iv) != BlockSize {
		panic("cipher.NewOFB: IV length must equal block size")
	}
	x := &stream{b: bb, ofb: true}
	copy(x.r[:], iv)
	return x
}

// feedback makes the next len(buf)/BlockSize blocks of key stream, each
// the encryption of the one before.
func (s *stream) feedback(buf []byte) {
	if s.b.c != nil && s.b.c.k.Chain(kernel.ChainOFB, buf, nil, &s.r) {
		return
	}
	prev := s.r[:]
	for i := 0; i < len(buf); i += BlockSize {
		s.b.encryptBlock(buf[i:i+BlockSize], prev)
		prev = buf[i : i+BlockSize]
	}
	copy(s.r[:], prev)
}
