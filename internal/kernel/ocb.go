package kernel

import "encoding/binary"

// What OCB (the root package's ocb.go) hands the kernels: batches of
// blocks with their offsets, applied by passes of OCBMask around the block
// cipher or, where the kernel can, by the kernel itself as it loads and
// stores the blocks (Cipher.OCBGroups).

// OCBGroup is how many blocks share a base offset: block k of a group is
// whitened with the group's base offset XOR table[k].
const OCBGroup = 64

// OCBBatch is the most bytes of blocks one OCBMask or OCBGroups call takes:
// eight groups.
const OCBBatch = 8 * OCBGroup * BlockSize

// An OCBTable holds the offsets of the blocks of a group relative to its
// base.
type OCBTable = [OCBGroup][BlockSize]byte

// OCBOffsets are what OCBMask reads for a batch: each group's base offset
// (the offset of the block before it), and what the last block of a whole
// group XORs in besides table[63]. The assembly reads Fix at offset 128.
type OCBOffsets struct {
	Base [OCBBatch / (OCBGroup * BlockSize)][BlockSize]byte
	Fix  [OCBBatch / (OCBGroup * BlockSize)][BlockSize]byte
}

// The operations of OCBMask on each block: whiten it with its offset, and
// add it to the checksum before (OCBSumSrc) or after (OCBSumDst).
const (
	OCBWhiten = iota
	OCBSumSrc
	OCBSumDst
)

// OCBMask applies a batch's offsets to the blocks of src (at most OCBBatch
// bytes, starting with a group), writing dst, per op, with the
// implementation internal/cpu chose.
func OCBMask(dst, src []byte, t *OCBTable, offs *OCBOffsets, sum *[BlockSize]byte, op int) {
	ocbMaskWith(ocbMaskHost, dst, src, t, offs, sum, op)
}

// ocbMaskGeneric is OCBMask in Go.
func ocbMaskGeneric(dst, src []byte, t *OCBTable, offs *OCBOffsets, sum *[BlockSize]byte, op int) {
	le := binary.LittleEndian
	s0, s1 := le.Uint64(sum[:]), le.Uint64(sum[8:])
	n := min(len(src), OCBBatch) / BlockSize
	for b := range n {
		g, k := b/OCBGroup, b%OCBGroup
		x0, x1 := le.Uint64(src[16*b:]), le.Uint64(src[16*b+8:])
		if op == OCBSumSrc {
			s0 ^= x0
			s1 ^= x1
		}
		x0 ^= le.Uint64(offs.Base[g][:]) ^ le.Uint64(t[k][:])
		x1 ^= le.Uint64(offs.Base[g][8:]) ^ le.Uint64(t[k][8:])
		if k == OCBGroup-1 {
			x0 ^= le.Uint64(offs.Fix[g][:])
			x1 ^= le.Uint64(offs.Fix[g][8:])
		}
		if op == OCBSumDst {
			s0 ^= x0
			s1 ^= x1
		}
		le.PutUint64(dst[16*b:], x0)
		le.PutUint64(dst[16*b+8:], x1)
	}
	le.PutUint64(sum[:], s0)
	le.PutUint64(sum[8:], s1)
}
