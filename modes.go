package twofish

import "crypto/cipher"

// blocks is what the modes need from a block cipher: a single block for the
// serial steps and whole runs of blocks for the parallel ones. A *Cipher
// hands runs to its kernel ladder; any other cipher.Block goes one block at
// a time. The modes of this package are for 16-byte block ciphers.
type blocks interface {
	encryptBlock(dst, src []byte)
	encryptBlocks(dst, src []byte)
	decryptBlocks(dst, src []byte)
}

func blocksOf(b cipher.Block) blocks {
	if c, ok := b.(*Cipher); ok {
		return c
	}
	if b.BlockSize() != BlockSize {
		panic("twofish: block size must be 16 bytes")
	}
	return blockByBlock{b}
}

// encryptBlock encrypts one block without Encrypt's checks, for the modes.
func (c *Cipher) encryptBlock(dst, src []byte) { c.encrypt1(&c.ks, dst, src) }

// blockByBlock adapts any cipher.Block.
type blockByBlock struct{ b cipher.Block }

func (b blockByBlock) encryptBlock(dst, src []byte) { b.b.Encrypt(dst, src) }

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
