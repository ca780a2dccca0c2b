//go:build gc && !purego

package twofish

import "github.com/twofish-go/twofish/internal/kernel"

// Encrypt encrypts the first block of src into dst. dst and src must
// overlap entirely or not at all.
//
// Encrypt and Decrypt switch on the single-block kernel of c's plan
// themselves, the path of single blocks and the serial modes: a call level
// between them and the kernel costs about 3% of a 1-way block.
func (c *Cipher) Encrypt(dst, src []byte) {
	checkBlock(dst, src)
	k, ks, t := c.k.Single()
	if t == nil {
		k, ks, t = c.k.WarmSingle()
	}
	switch k {
	case kernel.AMD64x1BMI:
		kernel.EncryptBlock1xBMI(t, ks, &dst[0], &src[0])
	case kernel.AMD64x1:
		kernel.EncryptBlock1x(t, ks, &dst[0], &src[0])
	case kernel.AVX512GFNI:
		kernel.EncryptBlockAVX512GFNI(ks, &dst[0], &src[0])
	case kernel.AVX512VBMI:
		kernel.EncryptBlockAVX512(ks, &dst[0], &src[0])
	case kernel.AVX2CT:
		kernel.EncryptBlockAVX2CT(ks, dst, src)
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
	case kernel.AMD64x1BMI:
		kernel.DecryptBlock1xBMI(t, ks, &dst[0], &src[0])
	case kernel.AMD64x1:
		kernel.DecryptBlock1x(t, ks, &dst[0], &src[0])
	case kernel.AVX512GFNI:
		kernel.DecryptBlockAVX512GFNI(ks, &dst[0], &src[0])
	case kernel.AVX512VBMI:
		kernel.DecryptBlockAVX512(ks, &dst[0], &src[0])
	case kernel.AVX2CT:
		kernel.DecryptBlockAVX2CT(ks, dst, src)
	case kernel.GenericCT:
		kernel.DecryptBlockGenericCT(ks, dst, src)
	case kernel.Generic:
		kernel.DecryptBlockGeneric(t, ks, dst, src)
	default:
		panic(errNoKey)
	}
}
