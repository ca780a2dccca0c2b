package twofish

import (
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"

	"github.com/twofish-go/twofish/internal/alias"
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

// ctrBatch is how many bytes of key stream one refill makes at most.
const ctrBatch = 1024

type ctr struct {
	b      blocks
	hi, lo uint64         // the next counter block
	buf    [ctrBatch]byte // counter blocks, then key stream
	ks     []byte         // unused key stream at the end of buf
}

func (x *ctr) XORKeyStream(dst, src []byte) {
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

// refill makes enough key stream for n more bytes, up to ctrBatch.
func (x *ctr) refill(n int) {
	n = min((n+BlockSize-1)/BlockSize*BlockSize, ctrBatch)
	for i := 0; i < n; i += BlockSize {
		binary.BigEndian.PutUint64(x.buf[i:], x.hi)
		binary.BigEndian.PutUint64(x.buf[i+8:], x.lo)
		x.lo++
		if x.lo == 0 {
			x.hi++
		}
	}
	x.b.encryptBlocks(x.buf[:n], x.buf[:n])
	x.ks = x.buf[:n]
}
