//go:build !amd64 || !gc || purego

package twofish

// ocbMask applies a group's offsets to the blocks of src, writing dst, per
// op (see ocb.go).
func ocbMask(dst, src []byte, t *[ocbGroup][BlockSize]byte, base, sum *[BlockSize]byte, op int) {
	ocbMaskGeneric(dst, src, t, base, sum, op)
}
