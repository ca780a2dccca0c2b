package twofish

import (
	"crypto/cipher"
	"encoding/binary"
	"sync"

	"github.com/twofish-go/twofish/internal/kernel"
)

// fusedBytes is a group of the fused mode kernels (kernel.Cipher.CTRGroups
// and the others), and fusedMin the shortest run they take, in bytes.
const (
	fusedBytes = kernel.FusedGroup * BlockSize
	fusedMin   = kernel.FusedMin
)

// blocks is the block cipher under a mode: a *Cipher, whose runs of
// blocks go to its kernels, or any other cipher.Block with 16-byte blocks,
// one block at a time. It is a concrete type, so that the modes' buffers
// on their own stacks do not escape through interface calls: a short
// message costs no allocation.
type blocks struct {
	c *Cipher
	b cipher.Block // when c is nil
}

// blocksOf returns the blocks of b for a mode, and panics if b has no key
// or its blocks are not 16 bytes long.
func blocksOf(b cipher.Block) blocks {
	bb, ok := newBlocks(b)
	if !ok {
		panic("twofish: block size must be 16 bytes")
	}
	return bb
}

// newBlocks returns the blocks of b, or false if b's blocks are not 16
// bytes long. It panics for a Cipher without a key.
func newBlocks(b cipher.Block) (blocks, bool) {
	if c, ok := b.(*Cipher); ok {
		if !c.k.Keyed() {
			panic(errNoKey)
		}
		return blocks{c: c}, true
	}
	if b.BlockSize() != BlockSize {
		return blocks{}, false
	}
	return blocks{b: b}, true
}

// encryptBlock encrypts the first block of src into dst.
func (a *blocks) encryptBlock(dst, src []byte) {
	if a.c != nil {
		a.c.Encrypt(dst, src)
		return
	}
	otherBlocks(a.b, dst[:BlockSize], src[:BlockSize], false)
}

// encryptOnce encrypts the first block of src into dst as encryptBlock
// does, for a mode's setup (a hash key, an offset, a tag): a Cipher that
// has yet to build the tables of its single-block kernel may do it with
// its bulk kernel instead, so that a key used for one message need not
// build them (see NewCipher).
func (a *blocks) encryptOnce(dst, src []byte) {
	if a.c != nil && a.c.k.EncryptOnce(dst, src) {
		return
	}
	a.encryptBlock(dst, src)
}

// encryptBlocks encrypts the whole blocks of src into dst; in place is
// allowed.
func (a *blocks) encryptBlocks(dst, src []byte) {
	if a.c != nil {
		a.c.encryptBlocks(dst, src)
		return
	}
	otherBlocks(a.b, dst, src, false)
}

// decryptBlocks decrypts the whole blocks of src into dst; in place is
// allowed.
func (a *blocks) decryptBlocks(dst, src []byte) {
	if a.c != nil {
		a.c.decryptBlocks(dst, src)
		return
	}
	otherBlocks(a.b, dst, src, true)
}

// otherBlocks runs a cipher.Block that is not a *Cipher over the whole
// blocks of src, through a block on the heap: b's methods are interface
// calls, which would make any buffer handed to them escape, and the
// callers' buffers are on their stacks. The heap blocks are reused.
func otherBlocks(b cipher.Block, dst, src []byte, decrypt bool) {
	t := scratchBlocks.Get().(*[BlockSize]byte)
	// len(src)-i, not i+BlockSize: that would overflow an int after the
	// last block of a run of 2 GiB less a block on 32-bit platforms, and
	// write a block past the run.
	for i := 0; len(src)-i >= BlockSize; i += BlockSize {
		copy(t[:], src[i:])
		if decrypt {
			b.Decrypt(t[:], t[:])
		} else {
			b.Encrypt(t[:], t[:])
		}
		copy(dst[i:], t[:])
	}
	*t = [BlockSize]byte{} // it held data; the pool keeps none
	scratchBlocks.Put(t)
}

var scratchBlocks = sync.Pool{New: func() any { return new([BlockSize]byte) }}

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
