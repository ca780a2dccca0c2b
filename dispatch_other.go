//go:build (!amd64 && !arm64) || !gc || purego

package twofish

import "github.com/twofish-go/twofish/internal/kernel"

// Encrypt encrypts the first block of src into dst. dst and src must
// overlap entirely or not at all.
func (c *Cipher) Encrypt(dst, src []byte) {
	checkBlock(dst, src)
	k, ks, t := c.k.Single()
	if t == nil {
		k, ks, t = c.k.WarmSingle()
	}
	switch k {
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
	case kernel.GenericCT:
		kernel.DecryptBlockGenericCT(ks, dst, src)
	case kernel.Generic:
		kernel.DecryptBlockGeneric(t, ks, dst, src)
	default:
		panic(errNoKey)
	}
}
