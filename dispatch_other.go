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

// encryptBlock and decryptBlock process one block with k, the narrowest
// kernel of a ladder: the path of Encrypt, Decrypt and the serial modes.
func (k *kernel) encryptBlock(ks *schedule, dst, src *[BlockSize]byte) {
	if k == genericCT {
		encryptBlockGenericCT(ks, dst[:], src[:])
		return
	}
	encryptBlockGeneric(ks, dst[:], src[:])
}

func (k *kernel) decryptBlock(ks *schedule, dst, src *[BlockSize]byte) {
	if k == genericCT {
		decryptBlockGenericCT(ks, dst[:], src[:])
		return
	}
	decryptBlockGeneric(ks, dst[:], src[:])
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
