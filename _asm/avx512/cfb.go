package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The CFB kernel is the 64-block encryption kernel run for CFB's
// decryption: each block's plaintext is its ciphertext XOR the encryption
// of the ciphertext block before it (the IV before the first), so the
// kernel loads, for register r of a group (blocks 4r to 4r+3), the 64
// bytes that start one block before it, and XORs the register's own
// ciphertext in as it stores it. CFB decryption then makes no passes of
// its own over the message: before it, the package copied each chunk's
// ciphertext one block along into a buffer, encrypted the buffer and XORed
// it into the message, at 0.63x ECB's speed on Zen 5 (8 KiB,
// BenchmarkModeVsECB's xECBmin, as cfb.go in the root package has it).
//
// As in the CBC kernel, the first register of a body takes lane 0 from the
// frame and lanes 1 to 3 from the body's first three blocks (VALIGNQ), so
// that no load reads before the source; a body loads all its blocks before
// the rounds, and keeps its last ciphertext block, which the next body's
// first register needs, in the frame before it stores anything, so that
// decryption in place overwrites no ciphertext that is still to be read.
//
// It counts bytes, and masks its last group (kern.blocks), a partial last
// block's bytes too, as CTR's kernel does, the last block's key stream to
// *rest.
type cfbKernel struct {
	chain
	rest reg.GPVirtual
}

// name is the kernel's name: it decrypts CFB, with the block cipher's
// encryption.
func (o *cfbKernel) name(bool) string { return "decryptCFB64AVX512" }

// load reads the four blocks before those of register r of group g (the
// slot's block and the first three of the body for the body's first) and
// whitens them.
func (o *cfbKernel) load(src reg.Register, g, r int, white zmm) zmm {
	x := c.ZMM()
	at := blocks*16*g + 64*r
	if at > 0 {
		// The blocks before register r's: its blocks' mask, the last
		// block's, maybe partial, not among them.
		m := operand.Mem{Base: src, Disp: at - 16}
		if o.k.masked == g+1 {
			x = o.k.stretch(g, true).load(src, r, -16, func() reg.OpmaskVirtual { return o.k.mask(r) }, false)
			c.VPXORD(white, x, x)
		} else {
			c.VPXORD(m, white, x)
		}
		return x
	}
	iv := c.ZMM()
	c.VBROADCASTI32X4(o.slot, iv)
	first := o.k.loadFirst(src)
	c.VALIGNQ(operand.U8(6), iv, first, x) // lane 3 of iv, lanes 0 to 2 of first
	c.VPXORD(x, white, x)
	return x
}

// begin loads the arguments.
func (o *cfbKernel) begin(k *kern, slot operand.Mem) {
	o.chain.begin(k, slot)
	o.rest = c.GP64()
	c.Load(c.Param("rest"), o.rest)
}

// stores moves the body's last ciphertext block to the slot, but for the
// last body, the masked one.
func (o *cfbKernel) stores(src reg.Register, ng int) {
	if o.k.masked > 0 {
		return
	}
	x := c.XMM()
	c.VMOVDQU64(operand.Mem{Base: src, Disp: blocks*16*ng - 16}, x)
	c.VMOVDQA64(x, o.slot)
}

// store XORs register r of group g's ciphertext into it, whitened, and
// stores it.
func (o *cfbKernel) store(src, dst reg.Register, g, r int, x, white zmm) {
	at := operand.Mem{Base: src, Disp: blocks*16*g + 64*r}
	to := operand.Mem{Base: dst, Disp: blocks*16*g + 64*r}
	if o.k.masked == g+1 {
		o.k.xorTail(src, dst, g, r, x, white, o.rest)
		return
	}
	c.VPTERNLOGD(operand.U8(0x96), at, white, x)
	c.VMOVDQU64(x, to)
}

func (o *cfbKernel) unit() int { return 16 }
