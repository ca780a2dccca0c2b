//go:build !amd64 || !gc || purego

package twofish

// ocbMask applies a batch's offsets to the blocks of src, writing dst, per
// op (see ocb.go).
func ocbMask(dst, src []byte, t *[ocbGroup][BlockSize]byte, offs *ocbOffsets, sum *[BlockSize]byte, op int) {
	ocbMaskGeneric(dst, src, t, offs, sum, op)
}

// ocbGroups reports that there is no kernel that applies OCB's offsets
// itself in this build.
func ocbGroups(*aeadBlock, []byte, []byte, *[ocbGroup][BlockSize]byte, *ocbOffsets, *[BlockSize]byte, bool) bool {
	return false
}
