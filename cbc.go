package twofish

import (
	"crypto/cipher"
	"crypto/subtle"

	"github.com/twofish-go/twofish/internal/kernel"
)

// NewCBCEncrypter returns a BlockMode that encrypts in cipher block chaining
// mode with b and the initialisation vector iv, which must be one block
// long. Encryption is serial: each block needs the previous ciphertext. The
// mode, and NewCBCDecrypter's, also has crypto/cipher's SetIV([]byte).
func NewCBCEncrypter(b cipher.Block, iv []byte) cipher.BlockMode {
	bb := blocksOf(b)
	if len(iv) != BlockSize {
		panic("cipher.NewCBCEncrypter: IV length must equal block size")
	}
	x := &cbcEncrypter{b: bb}
	copy(x.iv[:], iv)
	return x
}

// NewCBCDecrypter returns a BlockMode that decrypts in cipher block chaining
// mode with b and iv, which must be one block long. Decryption is parallel:
// a *Cipher decrypts many blocks per kernel call.
func NewCBCDecrypter(b cipher.Block, iv []byte) cipher.BlockMode {
	bb := blocksOf(b)
	if len(iv) != BlockSize {
		panic("cipher.NewCBCDecrypter: IV length must equal block size")
	}
	x := &cbcDecrypter{b: bb}
	copy(x.iv[:], iv)
	return x
}

type cbcEncrypter struct {
	b  blocks
	iv [BlockSize]byte
}

func (x *cbcEncrypter) BlockSize() int { return BlockSize }

func (x *cbcEncrypter) CryptBlocks(dst, src []byte) {
	checkBlocks(dst, src)
	if x.b.c != nil && x.b.c.k.Chain(kernel.ChainCBC, dst, src, &x.iv) {
		return
	}
	iv := x.iv[:]
	for len(src) > 0 {
		xorBlock(dst[:BlockSize], src[:BlockSize], iv)
		x.b.encryptBlock(dst[:BlockSize], dst[:BlockSize])
		iv = dst[:BlockSize]
		dst, src = dst[BlockSize:], src[BlockSize:]
	}
	copy(x.iv[:], iv)
}

// SetIV resets the chain to the IV iv, which must be one block long, as the
// SetIV of crypto/cipher's CBC modes does: code that reuses a CBC mode
// through it keeps working when crypto/cipher.NewCBCEncrypter returns this
// package's mode for a *Cipher.
func (x *cbcEncrypter) SetIV(iv []byte) { setIV(&x.iv, iv) }

type cbcDecrypter struct {
	b  blocks
	iv [BlockSize]byte
}

func (x *cbcDecrypter) BlockSize() int { return BlockSize }

// SetIV is cbcEncrypter.SetIV for decryption.
func (x *cbcDecrypter) SetIV(iv []byte) { setIV(&x.iv, iv) }

// setIV copies iv into the chain value c, panicking as crypto/cipher's CBC
// modes do if iv is not one block long.
func setIV(c *[BlockSize]byte, iv []byte) {
	if len(iv) != BlockSize {
		panic("cipher: incorrect length IV")
	}
	copy(c[:], iv)
}

// cbcChunk is how many bytes of CBC decryption go to the kernels at once.
const cbcChunk = 1024

func (x *cbcDecrypter) CryptBlocks(dst, src []byte) {
	checkBlocks(dst, src)
	// The blocks go, where the Cipher's bulk kernel can, to a kernel that
	// XORs in the ciphertext blocks itself (the whole groups, and a padded
	// rest): 0.75x ECB's speed became 0.99x at 8 KiB (Zen 5,
	// BenchmarkModeVsECB's xECBmin).
	if x.b.c != nil && len(src) >= fusedMin {
		n := x.b.c.k.CBCDecryptGroups(dst, src, &x.iv)
		dst, src = dst[n:], src[n:]
		if len(src) == 0 {
			return // without zeroing saved
		}
	}
	// Decrypt a chunk at a time through the kernels, keeping a copy of its
	// ciphertext so that in-place decryption can still XOR each block with
	// the ciphertext block before it.
	var saved [cbcChunk]byte
	for len(src) > 0 {
		n := min(len(src), cbcChunk)
		copy(saved[:n], src[:n])
		x.b.decryptBlocks(dst[:n], src[:n])
		subtle.XORBytes(dst[:BlockSize], dst[:BlockSize], x.iv[:])
		subtle.XORBytes(dst[BlockSize:n], dst[BlockSize:n], saved[:n-BlockSize])
		copy(x.iv[:], saved[n-BlockSize:n])
		dst, src = dst[n:], src[n:]
	}
}
