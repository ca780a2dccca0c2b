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
	return &ctr{
		b:  bb,
		hi: binary.BigEndian.Uint64(iv),
		lo: binary.BigEndian.Uint64(iv[8:]),
	}
}

type ctr struct {
	b      blocks
	hi, lo uint64 // the next counter block
	keyStream
}

func (x *ctr) XORKeyStream(dst, src []byte) { x.keyStream.xor(x, dst, src) }

// generate encrypts the next len(buf)/BlockSize counter blocks into buf.
func (x *ctr) generate(buf []byte) {
	for i := 0; i < len(buf); i += BlockSize {
		binary.BigEndian.PutUint64(buf[i:], x.hi)
		binary.BigEndian.PutUint64(buf[i+8:], x.lo)
		x.lo++
		if x.lo == 0 {
			x.hi++
		}
	}
	x.b.encryptBlocks(buf, buf)
}
