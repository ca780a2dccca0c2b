package twofish

import (
	"crypto/cipher"
	"crypto/subtle"

	"github.com/twofish-go/twofish/internal/alias"
)

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

// ofbBatch is how many bytes of key stream one refill makes at most.
const ofbBatch = 512

type ofb struct {
	b   blocks
	r   [BlockSize]byte // the last key stream block made
	buf [ofbBatch]byte
	ks  []byte // unused key stream at the end of buf
}

func (x *ofb) XORKeyStream(dst, src []byte) {
	if len(dst) < len(src) {
		panic("crypto/cipher: output smaller than input")
	}
	if alias.InexactOverlap(dst[:len(src)], src) {
		panic("crypto/cipher: invalid buffer overlap")
	}
	for len(src) > 0 {
		if len(x.ks) == 0 {
			x.refill(len(src))
		}
		n := subtle.XORBytes(dst, src, x.ks)
		x.ks = x.ks[n:]
		dst, src = dst[n:], src[n:]
	}
}

// refill makes enough key stream for n more bytes, up to ofbBatch.
func (x *ofb) refill(n int) {
	n = min((n+BlockSize-1)/BlockSize*BlockSize, ofbBatch)
	prev := x.r[:]
	for i := 0; i < n; i += BlockSize {
		x.b.encryptBlock(x.buf[i:i+BlockSize], prev)
		prev = x.buf[i : i+BlockSize]
	}
	copy(x.r[:], prev)
	x.ks = x.buf[:n]
}
