package twofish

import (
	"crypto/cipher"

	"github.com/twofish-go/twofish/internal/alias"
)

// NewECBEncrypter returns a BlockMode that encrypts each block independently
// (electronic codebook mode). ECB leaks which plaintext blocks are equal; it
// exists for formats that require it, such as key blocks in Password Safe.
func NewECBEncrypter(b cipher.Block) cipher.BlockMode { return ecb{blocksOf(b), false} }

// NewECBDecrypter returns a BlockMode that decrypts in electronic codebook
// mode.
func NewECBDecrypter(b cipher.Block) cipher.BlockMode { return ecb{blocksOf(b), true} }

type ecb struct {
	b       blocks
	decrypt bool
}

func (x ecb) BlockSize() int { return BlockSize }

func (x ecb) CryptBlocks(dst, src []byte) {
	checkBlocks(dst, src)
	if x.decrypt {
		x.b.decryptBlocks(dst, src)
	} else {
		x.b.encryptBlocks(dst, src)
	}
}

// checkBlocks enforces cipher.BlockMode's contract for CryptBlocks, with
// crypto/cipher's messages.
func checkBlocks(dst, src []byte) {
	if len(src)%BlockSize != 0 {
		panic("crypto/cipher: input not full blocks")
	}
	if len(dst) < len(src) {
		panic("crypto/cipher: output smaller than input")
	}
	if alias.InexactOverlap(dst[:len(src)], src) {
		panic("crypto/cipher: invalid buffer overlap")
	}
}
