package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The GCM kernels are the CTR kernel with GHASH folded in: each register
// of four ciphertext blocks is hashed as it is stored (sealing) or as its
// source is loaded for the XOR (opening, so that in place works), while
// the out-of-order core runs the next groups' rounds. Before them, GCM ran
// the CTR kernel over 8 KiB and then GHASH over the same 8 KiB, at 0.75x
// the speed of ECB on Zen 5.
//
// The arithmetic is _asm/ghash's: the blocks byte-reversed in each lane,
// the key powers H^16..H^1 times x⁻¹ (ghash.Key's table), sixteen blocks,
// four registers, per reduction, their products summed without the
// running value Y and folded to one lane, and Y multiplied by H^16 alone
// in xmm registers, so that the chain from one run's Y to the next is
// four products, the split and the reduction. Y lives in the frame between
// runs, in its byte-reversed form.
type gcmKernel struct {
	ctrKernel
	open   bool
	powers reg.GPVirtual
	yp     reg.GPVirtual
	// yslot holds Y, byte-reversed, in the frame (after the counter).
	yslot operand.Mem
	// lo, hi and mid are the sums of the current run's products.
	lo, hi, mid zmm
}

// gcmPoly is the reduction constant 0xC2<<56 in both quadwords.
var gcmPoly operand.Mem

func gcmConstants() {
	gcmPoly = table("gcmPoly", func(i int) byte {
		if i%8 == 7 {
			return 0xC2
		}
		return 0
	})
}

func (o *gcmKernel) name() string {
	if o.open {
		return "GCMOpen"
	}
	return "GCMSeal"
}

// frame is the counter's slot and Y's.
func (o *gcmKernel) frame() int { return 128 }

func (o *gcmKernel) begin(k *kern, slot operand.Mem) {
	o.ctrKernel.begin(k, slot)
	o.yslot = slot.Offset(64)
	o.powers, o.yp = c.GP64(), c.GP64()
	c.Load(c.Param("powers"), o.powers)
	c.Load(c.Param("y"), o.yp)
	y := c.XMM()
	c.VMOVDQU64(operand.Mem{Base: o.yp}, y)
	c.VPSHUFB(ctrSwap, y, y)
	c.VMOVDQA64(y, o.yslot)
}

// store XORs register r of group g's key stream into the source, stores
// it, and hashes the ciphertext: the source when opening, the output when
// sealing.
func (o *gcmKernel) store(src, dst reg.Register, g, r int, x, white zmm) {
	at := blocks*16*g + 64*r
	ct := x
	if o.open {
		ct = c.ZMM()
		c.VMOVDQU64(operand.Mem{Base: src, Disp: at}, ct)
		c.VPTERNLOGD(operand.U8(0x96), ct, white, x)
	} else {
		c.VPTERNLOGD(operand.U8(0x96), operand.Mem{Base: src, Disp: at}, white, x)
	}
	c.VMOVDQU64(x, operand.Mem{Base: dst, Disp: at})
	o.hash(ct, r%4)
}

// hash adds the products of the four ciphertext blocks in x, register j
// of a run of sixteen, with their powers to the run's sums, and after the
// run's last register reduces them into Y.
func (o *gcmKernel) hash(x zmm, j int) {
	v := c.ZMM()
	c.VPSHUFB(ctrSwap, x, v)
	p := operand.Mem{Base: o.powers, Disp: 64 * j}
	lo, hi, m := c.ZMM(), c.ZMM(), c.ZMM()
	c.VPCLMULQDQ(operand.U8(0x00), p, v, lo)
	c.VPCLMULQDQ(operand.U8(0x11), p, v, hi)
	c.VPCLMULQDQ(operand.U8(0x01), p, v, m)
	c.VPCLMULQDQ(operand.U8(0x10), p, v, v)
	if j == 0 {
		o.lo, o.hi, o.mid = lo, hi, m
		c.VPXORQ(v, o.mid, o.mid)
	} else {
		c.VPXORQ(lo, o.lo, o.lo)
		c.VPXORQ(hi, o.hi, o.hi)
		c.VPTERNLOGD(operand.U8(0x96), m, v, o.mid)
	}
	if j == 3 {
		o.reduce()
	}
}

// reduce folds the run's sums to one lane, adds Y·H^16 (H^16·x⁻¹ is the
// table's first entry) and reduces the sum into Y.
func (o *gcmKernel) reduce() {
	lo, hi, mid := fold4(o.lo), fold4(o.hi), fold4(o.mid)
	y := c.XMM()
	c.VMOVDQA64(o.yslot, y)
	h := operand.Mem{Base: o.powers}
	t := c.XMM()
	c.VPCLMULQDQ(operand.U8(0x00), h, y, t)
	c.VPXORQ(t, lo, lo)
	t = c.XMM()
	c.VPCLMULQDQ(operand.U8(0x11), h, y, t)
	c.VPXORQ(t, hi, hi)
	t = c.XMM()
	c.VPCLMULQDQ(operand.U8(0x01), h, y, t)
	c.VPCLMULQDQ(operand.U8(0x10), h, y, y)
	c.VPTERNLOGD(operand.U8(0x96), t, y, mid)
	// The middle sum straddles the low and high halves.
	t = c.XMM()
	c.VPSRLDQ(operand.U8(8), mid, t)
	c.VPSLLDQ(operand.U8(8), mid, mid)
	c.VPXORQ(t, hi, hi)
	c.VPXORQ(mid, lo, lo)
	// Two Montgomery steps of a quadword each (ghash.go's reduce).
	poly := c.XMM()
	c.VMOVDQU64(gcmPoly.Offset(0), poly)
	for range 2 {
		t := c.XMM()
		c.VPCLMULQDQ(operand.U8(0x00), poly, lo, t)
		c.VPSHUFD(operand.U8(0x4E), lo, lo)
		c.VPXORQ(t, lo, lo)
	}
	c.VPXORQ(hi, lo, lo)
	c.VMOVDQA64(lo, o.yslot)
}

// fold4 returns the xmm sum of the four lanes of z.
func fold4(z zmm) reg.VecVirtual {
	y := c.YMM()
	c.VEXTRACTI64X4(operand.U8(1), z, y)
	c.VPXORQ(y, z.AsY(), y)
	x := c.XMM()
	c.VEXTRACTI32X4(operand.U8(1), y, x)
	c.VPXORQ(x, y.AsX(), x)
	return x
}

// end stores the counter and Y, in GCM's byte order.
func (o *gcmKernel) end() {
	o.ctrKernel.end()
	y := c.XMM()
	c.VMOVDQA64(o.yslot, y)
	c.VPSHUFB(ctrSwap, y, y)
	c.VMOVDQU64(y, operand.Mem{Base: o.yp})
}
