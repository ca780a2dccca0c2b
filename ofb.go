package twofish

import "crypto/cipher"

// NewOFB returns a Stream that encrypts or decrypts in output feedback mode
// with b and iv, which must be one block long. The key stream is serial:
// each block is the encryption of the one before.
func NewOFB(b cipher.Block, iv []byte) cipher.Stream {
	bb := blocksOf(b)
	if len(iv) != BlockSize {
		panic("cipher.NewOFB: IV length must equal block size")
	}
	x := &ofb{b: bb}
	copy(x.r[:], iv)
	return x
}

type ofb struct {
	b blocks
	r [BlockSize]byte // the last key stream block made
	keyStream
}

func (x *ofb) XORKeyStream(dst, src []byte) { x.keyStream.xor(x, dst, src) }

// generate makes the next len(buf)/BlockSize blocks of key stream, each the
// encryption of the one before.
func (x *ofb) generate(buf []byte) {
	prev := x.r[:]
	for i := 0; i < len(buf); i += BlockSize {
		x.b.Encrypt(buf[i:i+BlockSize], prev)
		prev = buf[i : i+BlockSize]
	}
	copy(x.r[:], prev)
}
