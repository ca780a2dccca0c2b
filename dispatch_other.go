//go:build !amd64 || !gc || purego

package twofish

// archKernels returns the kernels of this architecture, in order of
// preference; the portable kernel is not among them.
func archKernels() []*kernel { return nil }

// policy names the kernel NewCipher uses and says why.
func policy() (name, reason string) {
	return "generic", "no assembly kernels in this build"
}

func (k *kernel) encrypt(ks *schedule, dst, src []byte) { encryptBlocksGeneric(ks, dst, src) }
func (k *kernel) decrypt(ks *schedule, dst, src []byte) { decryptBlocksGeneric(ks, dst, src) }

// encryptBlock and decryptBlock process one block with k, the narrowest
// kernel of a ladder: the path of Encrypt, Decrypt and the serial modes.
func (k *kernel) encryptBlock(ks *schedule, dst, src *[BlockSize]byte) {
	encryptBlockGeneric(ks, dst[:], src[:])
}

func (k *kernel) decryptBlock(ks *schedule, dst, src *[BlockSize]byte) {
	decryptBlockGeneric(ks, dst[:], src[:])
}

// expandKey computes the schedule of key that k's ladder reads.
func (k *kernel) expandKey(ks *schedule, key []byte) { ks.expand(key) }
