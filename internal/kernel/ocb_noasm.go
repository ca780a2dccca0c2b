//go:build !amd64 || !gc || purego

package kernel

// ocbMaskHost is the only OCBMask of this build, the portable one.
const ocbMaskHost = 0

// ocbMaskWith is OCBMask with the implementation impl.
func ocbMaskWith(_ int, dst, src []byte, t *OCBTable, offs *OCBOffsets, sum *[BlockSize]byte, op int) {
	ocbMaskGeneric(dst, src, t, offs, sum, op)
}

// OCBGroups reports that no kernel of this build applies OCB's offsets
// itself: it does nothing and returns 0.
func (c *Cipher) OCBGroups([]byte, []byte, *OCBTable, *OCBOffsets, *[BlockSize]byte, bool) int {
	return 0
}

// OCBHash reports, as OCBGroups, that no kernel of this build applies OCB's
// offsets: it does nothing and returns 0.
func (c *Cipher) OCBHash([]byte, *OCBTable, *OCBOffsets, *[BlockSize]byte) int {
	return 0
}

// OCBTakes reports, as OCBGroups, that no kernel of this build applies
// OCB's offsets: 0.
func (c *Cipher) OCBTakes(int) int { return 0 }
