package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/twofish-go/twofish/_asm/internal/asmgen"
)

// The XTS kernels are the 64-block kernels with IEEE 1619's tweaks made in
// registers and XORed into the blocks where they are loaded and stored, so
// that XTS makes no passes of its own over the message: before them, the
// package wrote the tweaks into a buffer in Go and XORed it in before and
// after the block cipher.
//
// A tweak is an element of GF(2^128), a little-endian 128-bit integer, so
// a 128-bit lane holds it as its block: lane l of a group's register r has
// the tweak of block 4r+l, the group's first tweak times x^(4r+l). A
// product by x^k (k at most 57) is a shift left by k of the 128-bit
// integer, and the k bits shifted out, o, come back as o times
// x^7+x^2+x+1 (o ^ o<<1 ^ o<<2 ^ o<<7, which fits in the low word): no
// table and no branch. Registers 1 to 8 are register 0 times x^(4r), and
// 9 to 15 register 8 times x^(4(r-8)), so that no chain runs through the
// sixteen registers of a group; the next group's register 0 is register 8
// times x^32. The load stores each register's tweaks in the frame, and the
// store XORs them in from there.
//
// The GFNI variants, for CPUs that have VPCLMULQDQ too, make the sixteen
// registers' tweaks that way once a call, and then each register's next
// group's from its own with one product by x^64: the low word moves up, and
// the high word comes back as its carry-less product by x^7+x^2+x+1, one
// VPCLMULQDQ, in place of the shifts. Three operations a register instead
// of ten: measured on Zen 5, the XTS kernels then run at 0.95-0.96x the
// speed of ECB where they ran at 0.92-0.93x (BenchmarkFusedGroups's
// xECBmin, medians of 7 runs alternating with the shift version's). Making
// the tweaks again at the store instead of keeping them in the frame
// measured the same.
//
// The halves kernels take the tweak of each half of a group, blocks 0-31
// and 32-63, from an array, one 16-byte tweak a half: XTS over consecutive
// sectors of 512 bytes (VeraCrypt's data units, dm-crypt's sectors), two
// sectors a group, where the kernels above take one sector a call, a
// padded half-empty group. Each half's registers 0 and 8 are its tweak
// times x^l in lane l, and the others are made from them as above.
type xtsKernel struct {
	// halves selects the kernels of a tweak a half-group, whose tweak
	// argument is the array and moves on by two tweaks a group.
	halves bool
	k      *kern
	tweak  reg.GPVirtual
	// slot holds register 0's tweaks of the next group, and tweaks the
	// tweaks of each register of a body's groups, in the frame. With
	// VPCLMULQDQ, slot holds every register's tweaks of the next group.
	slot   operand.Mem
	tweaks operand.Mem
	// r0 and r8 are registers 0 and 8 of the current group.
	r0, r8 zmm
}

// clmul is whether the XTS kernel being generated steps each register's
// tweaks with VPCLMULQDQ: the GFNI variants' of one tweak a call.
func (o *xtsKernel) clmul() bool { return gfni && !o.halves }

// The XTS kernel's constants: the shifts of the tweaks of register 0 from
// the tweak of block 0, l in both words of lane l, and 64-l; and
// x^7+x^2+x+1 in the low word of each lane, for VPCLMULQDQ.
var xtsLeft, xtsRight, xtsPoly operand.Mem

func xtsConstants() {
	var left, right, poly [8]uint64
	for l := range 8 {
		left[l], right[l] = uint64(l/2), uint64(64-l/2)
		if l%2 == 0 {
			poly[l] = 0x87
		}
	}
	xtsLeft = asmgen.Words(c, "xtsLeft", left[:]...)
	xtsRight = asmgen.Words(c, "xtsRight", right[:]...)
	xtsPoly = asmgen.Words(c, "xtsPoly", poly[:]...)
}

func (o *xtsKernel) name(dec bool) string {
	if o.halves {
		return direction(dec) + "XTSHalves64AVX512"
	}
	return direction(dec) + "XTS64AVX512"
}

// frame is the slot (one register's tweaks, sixteen with VPCLMULQDQ, none
// in the halves kernels) and the tweaks of the registers of two groups.
func (o *xtsKernel) frame() int {
	if o.halves {
		return groups * 16 * 64
	}
	if o.clmul() {
		return 16*64 + groups*16*64
	}
	return 64 + groups*16*64
}

// begin puts register 0's tweaks of the first group into the slot, or with
// VPCLMULQDQ every register's.
func (o *xtsKernel) begin(k *kern, slot operand.Mem) {
	o.k = k
	if o.halves {
		o.tweaks = slot
		o.tweak = c.GP64()
		c.Load(c.Param("tweaks"), o.tweak)
		return
	}
	o.slot = slot
	o.tweaks = slot.Offset(64)
	if o.clmul() {
		o.tweaks = slot.Offset(16 * 64)
	}
	o.tweak = c.GP64()
	c.Load(c.Param("tweak"), o.tweak)
	t := c.ZMM()
	c.VBROADCASTI32X4(operand.Mem{Base: o.tweak}, t)
	left, right := c.ZMM(), c.ZMM()
	c.VMOVDQU64(xtsLeft, left)
	c.VMOVDQU64(xtsRight, right)
	o.r0 = mulX(t, left, right)
	c.VMOVDQA64(o.r0, o.slot)
	if !o.clmul() {
		return
	}
	o.r8 = mulX(o.r0, operand.U8(32), nil)
	for r := 1; r < 16; r++ {
		c.VMOVDQA64(o.tweaksOf(r), o.slot.Offset(64*r))
	}
}

// mulX64 returns the tweaks in t times x^64: the low word of each lane
// moved up, XOR the high word's carry-less product by x^7+x^2+x+1.
func mulX64(t zmm) zmm {
	s, p := c.ZMM(), c.ZMM()
	c.VPSLLDQ(operand.U8(8), t, s)
	c.VPCLMULQDQ(operand.U8(0x01), xtsPoly, t, p)
	c.VPXORQ(p, s, s)
	return s
}

// mulX returns the tweaks in t times x^k, k at most 57: with left and
// right registers, k and 64-k in both words of each lane; otherwise
// left is the shift k itself.
func mulX(t zmm, left, right operand.Op) zmm {
	s, y := c.ZMM(), c.ZMM()
	if l, ok := left.(operand.U8); ok {
		c.VPSRLQ(operand.U8(64-l), t, s)
		c.VPSLLQ(l, t, y)
	} else {
		c.VPSRLVQ(right, t, s)
		c.VPSLLVQ(left, t, y)
	}
	// s has the bits shifted out of each word: the low word's go to the
	// high word, and the high word's (o) to the low word, reduced.
	hi, o := c.ZMM(), c.ZMM()
	c.VPSLLDQ(operand.U8(8), s, hi)
	c.VPSRLDQ(operand.U8(8), s, o)
	c.VPTERNLOGD(operand.U8(0x96), hi, o, y)
	o1, o2, o7 := c.ZMM(), c.ZMM(), c.ZMM()
	c.VPSLLQ(operand.U8(1), o, o1)
	c.VPSLLQ(operand.U8(2), o, o2)
	c.VPSLLQ(operand.U8(7), o, o7)
	c.VPTERNLOGD(operand.U8(0x96), o1, o2, y)
	c.VPXORQ(o7, y, y)
	return y
}

func (o *xtsKernel) group(int, zmm) {}

// tweaksOf returns the tweaks of register r of the current group.
func (o *xtsKernel) tweaksOf(r int) zmm {
	switch {
	case r == 0:
		return o.r0
	case r <= 8:
		if r == 8 {
			return o.r8
		}
		return mulX(o.r0, operand.U8(4*r), nil)
	}
	return mulX(o.r8, operand.U8(4*(r-8)), nil)
}

// load reads register r of group g from src, XORs in its tweaks, which it
// keeps in the frame for store, and whitens it. The group's first register
// moves the slot on to the next group; with VPCLMULQDQ, each register moves
// its own.
func (o *xtsKernel) load(src reg.Register, g, r int, white zmm) zmm {
	if o.halves && r%8 == 0 {
		// The half's tweak times x^l in lane l.
		t := c.ZMM()
		c.VBROADCASTI32X4(operand.Mem{Base: o.tweak, Disp: 16 * (2*g + r/8)}, t)
		if r == 0 {
			o.r0 = mulX(t, xtsLeft, xtsRight)
		} else {
			o.r8 = mulX(t, xtsLeft, xtsRight)
		}
	}
	if o.clmul() {
		t := c.ZMM()
		c.VMOVDQA64(o.slot.Offset(64*r), t)
		c.VMOVDQA64(t, o.tweaks.Offset(64*(16*g+r)))
		c.VMOVDQA64(mulX64(t), o.slot.Offset(64*r))
		x := o.k.loadBlocks(src, g, r)
		c.VPTERNLOGD(operand.U8(0x96), t, white, x)
		return x
	}
	if r == 0 && !o.halves {
		o.r0 = c.ZMM()
		c.VMOVDQA64(o.slot, o.r0)
		o.r8 = mulX(o.r0, operand.U8(32), nil)
		c.VMOVDQA64(mulX(o.r8, operand.U8(32), nil), o.slot)
	}
	t := o.tweaksOf(r)
	c.VMOVDQA64(t, o.tweaks.Offset(64*(16*g+r)))
	x := o.k.loadBlocks(src, g, r)
	c.VPTERNLOGD(operand.U8(0x96), t, white, x)
	return x
}

func (o *xtsKernel) stores(reg.Register, int) {}

// store XORs the tweaks of register r of group g into it, whitened, and
// stores it.
func (o *xtsKernel) store(_, dst reg.Register, g, r int, x, white zmm) {
	c.VPTERNLOGD(operand.U8(0x96), o.tweaks.Offset(64*(16*g+r)), white, x)
	o.k.storeBlocks(dst, g, r, x)
}

func (o *xtsKernel) endGroup() {}

// next moves the halves kernels' tweaks on by n groups.
func (o *xtsKernel) next(n int) {
	if o.halves {
		c.ADDQ(operand.U32(32*n), o.tweak)
	}
}

// end stores the tweak of the block after the last, lane 0 of the slot:
// the halves kernels have none to store.
func (o *xtsKernel) end() {
	if o.halves {
		return
	}
	x := c.XMM()
	c.VMOVDQA64(o.slot, x)
	c.VMOVDQU64(x, operand.Mem{Base: o.tweak})
}

// unit is blocks, the last group masked, but for the kernels of a tweak a
// half-group, which take whole groups.
func (o *xtsKernel) unit() int {
	if o.halves {
		return 0
	}
	return 1
}
