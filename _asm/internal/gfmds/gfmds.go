// Package gfmds emits the MDS step of the avx512-gfni kernels whose blocks
// keep their bytes in place, in xmm or zmm registers (the single-block,
// 4-block and word-layout kernels): the MDS matrix times the S-box
// outputs y, with its products by 5B and EF in VGF2P8AFFINEQB.
package gfmds

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Step returns the MDS matrix times y. mat(m) is the 8-byte VGF2P8AFFINEQB
// matrix of the product by m, broadcast; shuffle(m, occ) the VPSHUFB
// control that puts at each output byte its occ-th term with multiplier m,
// false where no row has one; alloc a new register of y's width.
//
// The products come first, one VGF2P8AFFINEQB each on y as the S-boxes
// give it; five VPSHUFBs then put each output byte's terms in place, y[j],
// 5B·y[j] or EF·y[j] (5B and EF appear twice in some rows), and two
// VPTERNLOGDs add the five, the 5B terms, which arrive first, in the first.
// On Zen 5 the products share two pipes with the shuffles: shuffling
// first, as these kernels did (an XOR of each doubled multiplier's two
// terms, the products, one VPTERNLOGD), put five shuffles ahead of them, a
// block 173 ns in the single-block kernel against 162 this way, and 16
// blocks 222 ns in the 16-block kernel against 204 (quiet Zen 5, medians
// of 5 alternating runs).
func Step(c *build.Context, y reg.VecVirtual, alloc func() reg.VecVirtual, mat func(m byte) operand.Mem, shuffle func(m byte, occ int) (operand.Mem, bool)) reg.VecVirtual {
	prod := map[byte]reg.VecVirtual{0x01: y}
	for _, m := range []byte{0x5B, 0xEF} {
		prod[m] = alloc()
		c.VGF2P8AFFINEQB_BCST(operand.U8(0), mat(m), y, prod[m])
	}
	var terms []reg.VecVirtual // 01, 5B, 5B, EF, EF
	for _, m := range []byte{0x01, 0x5B, 0xEF} {
		for occ := range 2 {
			if ctrl, ok := shuffle(m, occ); ok {
				t := alloc()
				c.VPSHUFB(ctrl, prod[m], t)
				terms = append(terms, t)
			}
		}
	}
	c.VPTERNLOGD(operand.U8(0x96), terms[0], terms[1], terms[2])
	c.VPTERNLOGD(operand.U8(0x96), terms[3], terms[4], terms[2])
	return terms[2]
}
