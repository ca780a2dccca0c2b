package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The CTR kernel is the 64-block encryption kernel with the counter blocks
// made in registers where the plain kernel loads its input, and the key
// stream XORed into the source where it stores its output, so that CTR
// makes no passes of its own over the message: before it, the package made
// the counter blocks in Go into a buffer, encrypted the buffer and XORed it
// into the message, at 0.6x ECB's speed on Zen 5.
//
// The counter is a 128-bit integer, held as two little-endian 64-bit
// words, low then high, in each 128-bit lane: lane l of a group's register
// r has the counter of block 4r+l. A register's successor adds 4 to each
// lane's low word, and VPCMPUQ finds where that wrapped (the sum is less
// than 4): KSHIFTLW moves each lane's carry bit from its low word to its
// high word, where a masked VPADDQ adds it, so the count carries into the
// high word wherever the low one wraps and wraps itself modulo 2^128.
// VPSHUFB turns each lane into the big-endian counter block.
type ctrKernel struct {
	ctr reg.GPVirtual
	// slot holds the counters of the next register 0, in the frame.
	slot operand.Mem
	// x is the counters of the current register; four, one and bswap are
	// the constants in registers during a group's load.
	x, four, one, bswap zmm
}

// The CTR kernel's constants: each lane's offset from the counter (in the
// low words), 4 in each lane's low word, 1 in every word, and the VPSHUFB
// index that reverses the bytes of each lane.
var ctrLanes, ctrFour, ctrOne, ctrSwap operand.Mem

func ctrConstants() {
	ctrLanes = table("ctrLanes", func(i int) byte {
		if i%16 == 0 {
			return byte(i / 16)
		}
		return 0
	})
	ctrFour = table("ctrFour", func(i int) byte {
		if i%16 == 0 {
			return 4
		}
		return 0
	})
	ctrOne = table("ctrOne", func(i int) byte {
		if i%8 == 0 {
			return 1
		}
		return 0
	})
	ctrSwap = table("ctrSwap", func(i int) byte { return byte(i&^15 | 15 - i&15) })
}

func (o *ctrKernel) name() string { return "CTR" }

// frame is the counters' slot.
func (o *ctrKernel) frame() int { return 64 }

// begin puts the counters of blocks 0 to 3 into the slot.
func (o *ctrKernel) begin(_ *kern, slot operand.Mem) {
	o.slot = slot
	o.ctr = c.GP64()
	c.Load(c.Param("ctr"), o.ctr)
	x := c.ZMM()
	c.VBROADCASTI32X4(operand.Mem{Base: o.ctr}, x)
	add(x, ctrLanes, ctrLanes, ctrOne)
	c.VMOVDQA64(x, o.slot)
}

// add adds d (a register or memory) to the counters in x, each lane's high
// word taking the carry of its low word: one is 1 in every word.
func add(x zmm, d, dd, one operand.Op) {
	k := c.K()
	c.VPADDQ(d, x, x)
	c.VPCMPUQ(operand.U8(1), dd, x, k) // k: x < d, where x wrapped
	c.KSHIFTLW(operand.U8(1), k, k)
	c.VPADDQ(one, x, k, x)
}

func (o *ctrKernel) group(int, zmm) {}

// load returns the counter blocks of register r of a group whitened with
// white: it reads no source, and moves the slot on by 64 blocks.
func (o *ctrKernel) load(_ reg.Register, _, r int, white zmm) zmm {
	if r == 0 {
		o.x, o.four, o.one, o.bswap = c.ZMM(), c.ZMM(), c.ZMM(), c.ZMM()
		c.VMOVDQA64(o.slot, o.x)
		c.VMOVDQU64(ctrFour, o.four)
		c.VMOVDQU64(ctrOne, o.one)
		c.VMOVDQU64(ctrSwap, o.bswap)
	}
	b := c.ZMM()
	c.VPSHUFB(o.bswap, o.x, b)
	c.VPXORD(white, b, b)
	add(o.x, o.four, o.four, o.one)
	if r == 15 {
		c.VMOVDQA64(o.x, o.slot)
	}
	return b
}

func (o *ctrKernel) stores(reg.Register, int) {}

// store XORs register r of group g's key stream, whitened, into the
// source and stores it.
func (o *ctrKernel) store(src, dst reg.Register, g, r int, x, white zmm) {
	at := blocks*16*g + 64*r
	c.VPTERNLOGD(operand.U8(0x96), operand.Mem{Base: src, Disp: at}, white, x)
	c.VMOVDQU64(x, operand.Mem{Base: dst, Disp: at})
}

func (o *ctrKernel) endGroup() {}

func (o *ctrKernel) next(int) {}

// end stores the counter of the block after the last, lane 0 of the slot.
func (o *ctrKernel) end() {
	x := c.XMM()
	c.VMOVDQA64(o.slot, x)
	c.VMOVDQU64(x, operand.Mem{Base: o.ctr})
}
