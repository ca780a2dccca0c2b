//go:build !amd64 || !gc || purego

package twofish

// archKernels returns the kernels of this architecture, in order of
// preference; the portable kernel is not among them.
func archKernels() []*kernel { return nil }

// policy names the kernel NewCipher uses and says why.
func policy() (name, reason string) {
	return "generic", "no assembly kernels in this build"
}

func (k *kernel) encrypt(ks *schedule, dst, src []byte) {
	if k == genericCT {
		encryptBlocksGenericCT(ks, dst, src)
		return
	}
	encryptBlocksGeneric(ks, dst, src)
}

func (k *kernel) decrypt(ks *schedule, dst, src []byte) {
	if k == genericCT {
		decryptBlocksGenericCT(ks, dst, src)
		return
	}
	decryptBlocksGeneric(ks, dst, src)
}

// Encrypt encrypts the first block of src into dst. dst and src must
// overlap entirely or not at all.
func (c *Cipher) Encrypt(dst, src []byte) {
	checkBlock(dst, src)
	switch c.narrow {
	case genericCT:
		encryptBlockGenericCT(&c.ks, dst, src)
	case generic:
		encryptBlockGeneric(&c.ks, dst, src)
	default:
		panic(errNoKey)
	}
}

// Decrypt decrypts the first block of src into dst. dst and src must
// overlap entirely or not at all.
func (c *Cipher) Decrypt(dst, src []byte) {
	checkBlock(dst, src)
	switch c.narrow {
	case genericCT:
		decryptBlockGenericCT(&c.ks, dst, src)
	case generic:
		decryptBlockGeneric(&c.ks, dst, src)
	default:
		panic(errNoKey)
	}
}

// expandKey computes the schedule of key that k's ladder reads: the
// subkeys and S vector, without secret-indexed loads, for generic-ct, the
// MDS·S-box tables for generic.
func (k *kernel) expandKey(ks *schedule, key []byte) {
	if k == genericCT {
		ks.expandCT(key)
		return
	}
	ks.expand(key)
}
