package kernel

// FusedGroup is how many blocks the fused kernels of CTR, CBC and CFB
// decryption and XTS (Cipher.CTRGroups, CBCDecryptGroups,
// CFBDecryptGroups, XTSGroups) take at a time: they take the whole groups
// of a run, and the blocks after them where the bulk kernel takes them,
// padded into one more group or in its 16- and 32-block kernels (CTR's and
// CFB decryption's partial last block among them, where the caller asks);
// the caller does the rest. GCM's (Cipher.GCMGroups) takes whole groups
// only.
const FusedGroup = 64

// smallTail is the most blocks left after the last full group of 64 that
// go through the 4-block kernels rather than through one padded group of
// 64. On Zen 5 one call of the 4-block kernels takes about 2/3 of a
// 64-block group (avx512-gfni's, since they run the single-block rounds on
// zmm registers, under half), and two calls more than a call of the
// 16-block kernel (BenchmarkAVX512Tail).
const smallTail = 4

// FusedMin is the shortest run, in bytes, of whole blocks that the fused
// kernels take: more than smallTail blocks, padded into a group (with a
// partial last block, CTRGroups and CFBDecryptGroups take as few as
// smallTail blocks and a byte). Callers call them for no run shorter than
// FusedMin, so that short messages pay nothing for them (CTR of 16 bytes
// ran at 0.95x without such a check).
const FusedMin = (smallTail + 1) * BlockSize

// XTSHalf is how many blocks each tweak of Cipher.XTSHalves covers: half a
// group, 512 bytes, a disk sector.
const XTSHalf = FusedGroup / 2

// TimesX returns the XTS tweak t (t[1]<<64 | t[0]) times x^k in GF(2^128),
// modulo x^128 + x^7 + x^2 + x + 1, for k from 1 to 63, without branching
// on t: the 128-bit shift by k, and the k bits shifted out, o, back as o
// times x^7 + x^2 + x + 1.
func TimesX(t [2]uint64, k uint) [2]uint64 {
	o := t[1] >> (64 - k)
	lo := t[0]<<k ^ o ^ o<<1 ^ o<<2 ^ o<<7
	hi := (t[1]<<k | t[0]>>(64-k)) ^ o>>63 ^ o>>62 ^ o>>57
	return [2]uint64{lo, hi}
}
