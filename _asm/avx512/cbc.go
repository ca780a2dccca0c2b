package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The CBC kernel is the 64-block decryption kernel that XORs each block's
// output with the ciphertext block before it (the IV before the first) as
// it stores it, so that CBC decryption makes no passes of its own over the
// message: before it, the package copied each chunk's ciphertext aside,
// decrypted the chunk and XORed the copy in, at 0.75x ECB's speed on Zen 5
// (8 KiB, BenchmarkModeVsECB's xECBmin, as cbc.go in the root package has it).
//
// Register r of a group (blocks 4r to 4r+3) XORs in the 64 bytes that
// start one block before it, which one unaligned load reads. In place,
// the store of register r overwrites the last of the blocks that register
// r+1 needs, so each register's load comes before the store of the one
// before it; and a body stores the ciphertext block that the next body
// needs first, its last, in the frame before it stores anything. The
// first register of a body takes lane 0 from the frame and lanes 1 to 3
// from the body's first three blocks (VALIGNQ), so that no load reads
// before the source: with a masked load that did, crossing into the page
// before, CBC decryption of 8 KiB ran at 0.94x the speed of ECB, where it
// now runs at 0.99x (Zen 5, BenchmarkModeVsECB's xECBmin).
type cbcKernel struct {
	chain
	// prev is what the next register XORs in; ng the groups of the body.
	prev zmm
	ng   int
}

// chain is what the CBC and CFB kernels share: the IV argument, and a slot
// in the frame that holds the ciphertext block before the next body, the
// IV before the first, and after the last the next IV.
type chain struct {
	k    *kern
	iv   reg.GPVirtual
	slot operand.Mem
}

// frame is the slot of the block before a body.
func (o *chain) frame() int { return 64 }

// begin copies the IV into the slot.
func (o *chain) begin(k *kern, slot operand.Mem) {
	o.k = k
	o.slot = slot
	o.iv = c.GP64()
	c.Load(c.Param("iv"), o.iv)
	x := c.XMM()
	c.VMOVDQU64(operand.Mem{Base: o.iv}, x)
	c.VMOVDQA64(x, o.slot)
}

func (o *chain) group(int, zmm) {}

func (o *chain) endGroup() {}

func (o *chain) next(int) {}

// end stores the last ciphertext block as the next IV.
func (o *chain) end() {
	x := c.XMM()
	c.VMOVDQA64(o.slot, x)
	c.VMOVDQU64(x, operand.Mem{Base: o.iv})
}

func (o *cbcKernel) name(bool) string { return "decryptCBC64AVX512" }

// load reads register r of group g from src and whitens it.
func (o *cbcKernel) load(src reg.Register, g, r int, white zmm) zmm {
	if o.k.masked == g+1 {
		x := o.k.loadBlocks(src, g, r)
		c.VPXORD(white, x, x)
		return x
	}
	x := c.ZMM()
	c.VPXORD(operand.Mem{Base: src, Disp: blocks*16*g + 64*r}, white, x)
	return x
}

// stores loads what register 0 XORs in and moves the body's last
// ciphertext block to the slot.
func (o *cbcKernel) stores(src reg.Register, ng int) {
	o.ng = ng
	iv := c.ZMM()
	c.VBROADCASTI32X4(o.slot, iv)
	first := o.k.loadFirst(src)
	o.prev = c.ZMM()
	c.VALIGNQ(operand.U8(6), iv, first, o.prev) // lane 3 of iv, lanes 0 to 2 of first
	if o.k.masked > 0 {
		return // the last body: no next one takes its last block
	}
	x := c.XMM()
	c.VMOVDQU64(operand.Mem{Base: src, Disp: blocks*16*ng - 16}, x)
	c.VMOVDQA64(x, o.slot)
}

// store XORs the ciphertext before register r of group g into it, whitened,
// and stores it, after loading what the next register XORs in.
func (o *cbcKernel) store(src, dst reg.Register, g, r int, x, white zmm) {
	at := blocks*16*g + 64*r
	p := o.prev
	if g < o.ng-1 || r < 15 {
		// The ciphertext blocks before register r+1's, or before the
		// next group's register 0: that register's blocks' mask.
		o.prev = c.ZMM()
		next := operand.Mem{Base: src, Disp: at + 64 - 16}
		if gn, rn := g+(r+1)/16, (r+1)%16; o.k.masked == gn+1 {
			o.prev = o.k.stretch(gn, false).load(src, rn, -16, func() reg.OpmaskVirtual { return o.k.mask(rn) }, false)
		} else {
			c.VMOVDQU64(next, o.prev)
		}
	}
	c.VPTERNLOGD(operand.U8(0x96), p, white, x)
	o.k.storeBlocks(dst, g, r, x)
}

func (o *cbcKernel) unit() int { return 1 }
