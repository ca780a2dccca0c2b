package twofish

import (
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"

	"github.com/twofish-go/twofish/internal/alias"
)

// blocks is what the modes need from a block cipher: a single block for the
// serial steps and whole runs of blocks for the parallel ones. A *Cipher
// hands runs to its kernel ladder; any other cipher.Block goes one block at
// a time. The modes of this package are for 16-byte block ciphers.
type blocks interface {
	Encrypt(dst, src []byte)
	encryptBlocks(dst, src []byte)
	decryptBlocks(dst, src []byte)
}

func blocksOf(b cipher.Block) blocks {
	if c, ok := b.(*Cipher); ok {
		if !c.k.Keyed() {
			panic(errNoKey)
		}
		return c
	}
	if b.BlockSize() != BlockSize {
		panic("twofish: block size must be 16 bytes")
	}
	return blockByBlock{b}
}

// blockByBlock adapts any cipher.Block.
type blockByBlock struct{ b cipher.Block }

func (b blockByBlock) Encrypt(dst, src []byte) { b.b.Encrypt(dst, src) }

func (b blockByBlock) encryptBlocks(dst, src []byte) {
	for ; len(src) > 0; dst, src = dst[BlockSize:], src[BlockSize:] {
		b.b.Encrypt(dst, src)
	}
}

func (b blockByBlock) decryptBlocks(dst, src []byte) {
	for ; len(src) > 0; dst, src = dst[BlockSize:], src[BlockSize:] {
		b.b.Decrypt(dst, src)
	}
}

// NewCTR is NewCTR(c, iv). crypto/cipher.NewCTR calls it, so code written
// against the standard library gets the bulk path too.
func (c *Cipher) NewCTR(iv []byte) cipher.Stream { return NewCTR(c, iv) }

// NewCBCEncrypter is NewCBCEncrypter(c, iv), for crypto/cipher.NewCBCEncrypter.
func (c *Cipher) NewCBCEncrypter(iv []byte) cipher.BlockMode { return NewCBCEncrypter(c, iv) }

// NewCBCDecrypter is NewCBCDecrypter(c, iv), for crypto/cipher.NewCBCDecrypter.
func (c *Cipher) NewCBCDecrypter(iv []byte) cipher.BlockMode { return NewCBCDecrypter(c, iv) }

// xorBlock sets dst = a ^ b for one block; cheaper than subtle.XORBytes
// for the single blocks of the serial modes.
func xorBlock(dst, a, b []byte) {
	_, _, _ = dst[15], a[15], b[15]
	le := binary.LittleEndian
	le.PutUint64(dst, le.Uint64(a)^le.Uint64(b))
	le.PutUint64(dst[8:], le.Uint64(a[8:])^le.Uint64(b[8:]))
}

// keyStream is what CTR and OFB share: key stream made ahead, up to
// streamBatch bytes at a time, and XORed into the data as it comes.
type keyStream struct {
	buf [streamBatch]byte
	ks  []byte // unused key stream at the end of buf
}

// streamBatch is how many bytes of key stream one batch makes at most.
const streamBatch = 1024

// A generator makes the next len(buf) bytes of a key stream, a whole
// number of blocks.
type generator interface{ generate(buf []byte) }

// xor implements cipher.Stream's XORKeyStream with the key stream of g.
func (s *keyStream) xor(g generator, dst, src []byte) {
	if len(dst) < len(src) {
		panic("crypto/cipher: output smaller than input")
	}
	if alias.InexactOverlap(dst[:len(src)], src) {
		panic("crypto/cipher: invalid buffer overlap")
	}
	for len(src) > 0 {
		if len(s.ks) == 0 {
			n := min((len(src)+BlockSize-1)/BlockSize*BlockSize, streamBatch)
			g.generate(s.buf[:n])
			s.ks = s.buf[:n]
		}
		n := subtle.XORBytes(dst, src, s.ks)
		s.ks = s.ks[n:]
		dst, src = dst[n:], src[n:]
	}
}
