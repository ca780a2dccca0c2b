//go:build (!amd64 && !arm64) || !gc || purego

package kernel

// archKernels returns the kernels of this architecture, in order of
// preference; the portable kernels are not among them.
func archKernels() []*Kernel { return nil }

func (k *Kernel) encrypt(ks *Schedule, t *Tables, dst, src []byte) {
	if k == GenericCT {
		encryptBlocksGenericCT(ks, dst, src)
		return
	}
	encryptBlocksGeneric(ks, t, dst, src)
}

func (k *Kernel) decrypt(ks *Schedule, t *Tables, dst, src []byte) {
	if k == GenericCT {
		decryptBlocksGenericCT(ks, dst, src)
		return
	}
	decryptBlocksGeneric(ks, t, dst, src)
}
