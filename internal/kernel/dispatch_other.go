//go:build (!amd64 && !arm64) || !gc || purego

package kernel

// archKernels returns the kernels of this architecture, in order of
// preference; the portable kernels are not among them.
func archKernels() []*Kernel { return nil }

func (k *Kernel) encrypt(ks *Schedule, dst, src []byte) {
	if k == GenericCT {
		encryptBlocksGenericCT(ks, dst, src)
		return
	}
	encryptBlocksGeneric(ks, dst, src)
}

func (k *Kernel) decrypt(ks *Schedule, dst, src []byte) {
	if k == GenericCT {
		decryptBlocksGenericCT(ks, dst, src)
		return
	}
	decryptBlocksGeneric(ks, dst, src)
}

// expandKey computes the schedule of key that k's ladder reads: the
// subkeys and S vector, without secret-indexed loads, for generic-ct, the
// MDS·S-box tables for generic.
func (k *Kernel) expandKey(ks *Schedule, key []byte) {
	if k == GenericCT {
		ks.expandCT(key)
		return
	}
	ks.expand(key)
}
