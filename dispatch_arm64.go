//go:build gc && !purego

package twofish

import "github.com/twofish-go/twofish/internal/kernel"

// Encrypt encrypts the first block of src into dst. dst and src must
// overlap entirely or not at all.
//
// Encrypt and Decrypt switch on the single-block kernel of c's plan
// themselves, the path of single blocks and the serial modes, so that a
// block is one call from here to the kernel.
func (c *Cipher) Encrypt(dst, src []byte) {
	checkBlock(dst, src)
	k, ks, t := c.k.Single()
	if t == nil {
		k, ks, t = c.k.WarmSingle()
	}
	switch k {
	case kernel.ARM64x1:
		kernel.EncryptBlock1x(t, ks, &dst[0], &src[0])
	case kernel.ARM64NEON:
		kernel.EncryptBlockNEON(ks, dst, src)
	case kernel.GenericCT:
		kernel.EncryptBlockGenericCT(ks, dst, src)
	case kernel.Generic:
		kernel.EncryptBlockGeneric(t, ks, dst, src)
	default:
		panic(errNoKey)
	}
}

// Decrypt decrypts the first block of src into dst. dst and src must
// overlap entirely or not at all.
func (c *Cipher) Decrypt(dst, src []byte) {
	checkBlock(dst, src)
	k, ks, t := c.k.Single()
	if t == nil {
		k, ks, t = c.k.WarmSingle()
	}
	switch k {
	case kernel.ARM64x1:
		kernel.DecryptBlock1x(t, ks, &dst[0], &src[0])
	case kernel.ARM64NEON:
		kernel.DecryptBlockNEON(ks, dst, src)
	case kernel.GenericCT:
		kernel.DecryptBlockGenericCT(ks, dst, src)
	case kernel.Generic:
		kernel.DecryptBlockGeneric(t, ks, dst, src)
	default:
		panic(errNoKey)
	}
}
