package twofish

import (
	"crypto/cipher"
	"crypto/subtle"
)

// NewCBCEncrypter returns a BlockMode that encrypts in cipher block chaining
// mode with b and the initialisation vector iv, which must be one block
// long. Encryption is serial: each block needs the previous ciphertext.
func NewCBCEncrypter(b cipher.Block, iv []byte) cipher.BlockMode {
	bb := blocksOf(b)
	if len(iv) != BlockSize {
		panic("cipher.NewCBCEncrypter: IV length must equal block size")
	}
	return &cbcEncrypter{b: bb, iv: append([]byte(nil), iv...)}
}

// NewCBCDecrypter returns a BlockMode that decrypts in cipher block chaining
// mode with b and iv, which must be one block long. Decryption is parallel:
// a *Cipher decrypts many blocks per kernel call.
func NewCBCDecrypter(b cipher.Block, iv []byte) cipher.BlockMode {
	bb := blocksOf(b)
	if len(iv) != BlockSize {
		panic("cipher.NewCBCDecrypter: IV length must equal block size")
	}
	return &cbcDecrypter{b: bb, iv: append([]byte(nil), iv...)}
}

type cbcEncrypter struct {
	b  blocks
	iv []byte
}

func (x *cbcEncrypter) BlockSize() int { return BlockSize }

func (x *cbcEncrypter) CryptBlocks(dst, src []byte) {
	checkBlocks(dst, src)
	iv := x.iv
	for len(src) > 0 {
		subtle.XORBytes(dst[:BlockSize], src[:BlockSize], iv)
		x.b.encryptBlock(dst[:BlockSize], dst[:BlockSize])
		iv = dst[:BlockSize]
		dst, src = dst[BlockSize:], src[BlockSize:]
	}
	copy(x.iv, iv)
}

type cbcDecrypter struct {
	b  blocks
	iv []byte
}

func (x *cbcDecrypter) BlockSize() int { return BlockSize }

// cbcChunk is how many bytes of CBC decryption go to the kernels at once.
const cbcChunk = 1024

func (x *cbcDecrypter) CryptBlocks(dst, src []byte) {
	checkBlocks(dst, src)
	if len(src) == 0 {
		return
	}
	// Work backwards from the end in chunks so that in-place decryption
	// never overwrites a ciphertext block that is still needed: each chunk
	// is decrypted into buf, then XORed, last block first, with the
	// ciphertext blocks before it.
	var buf [cbcChunk]byte
	var nextIV [BlockSize]byte
	copy(nextIV[:], src[len(src)-BlockSize:])
	for end := len(src); end > 0; {
		start := max(end-cbcChunk, 0)
		x.b.decryptBlocks(buf[:end-start], src[start:end])
		for i := end - BlockSize; i >= start; i -= BlockSize {
			prev := x.iv
			if i > 0 {
				prev = src[i-BlockSize : i]
			}
			subtle.XORBytes(dst[i:i+BlockSize], buf[i-start:i-start+BlockSize], prev)
		}
		end = start
	}
	copy(x.iv, nextIV[:])
}
