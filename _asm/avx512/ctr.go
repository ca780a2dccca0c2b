package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/twofish-go/twofish/_asm/internal/asmgen"
)

// The CTR kernel is the 64-block encryption kernel with the counter blocks
// made in registers where the plain kernel loads its input, and the key
// stream XORed into the source where it stores its output, so that CTR
// makes no passes of its own over the message: before it, the package made
// the counter blocks in Go into a buffer, encrypted the buffer and XORed it
// into the message, at 0.64x ECB's speed on Zen 5 (8 KiB,
// BenchmarkModeVsECB's xECBmin, as ctr.go in the root package has it).
//
// The counter is a 128-bit integer, held as two little-endian 64-bit
// words, low then high, in each 128-bit lane: lane l of a group's register
// r has the counter of block 4r+l, the group's first counter plus 4r+l.
// VPCMPUQ finds the lanes whose low word that addition wrapped (the sum is
// less than the addend), KSHIFTLW moves each lane's carry bit from its low
// word to its high word, and a masked VPADDQ adds it there, so the count
// carries into the high word wherever the low one wraps and wraps itself
// modulo 2^128. VPSHUFB turns each lane into the big-endian counter block.
// Each register's counters are the group's first plus a constant, not the
// register before's plus 4: a chain through the sixteen registers of a
// group delayed the rounds after it: CTR ran at 0.90x the speed of ECB,
// where it now runs at 0.98x (Zen 5, BenchmarkFusedGroups, medians of 7).
//
// The argument counting says which bits of the counter count. The kernel
// counts in all 128 bits, whatever it says; the bits that do not count it
// takes from the first counter instead as it makes each counter block,
// with the whitening that it XORs in there anyway: one VPTERNLOGQ
// computes (block AND counting) XOR (fixed bits XOR whitening), all in
// big-endian order, where the plain CTR kernel had a VPXORD. CTR counts
// all 128 bits; GCM counts the low 32, which wrap around alone (NIST SP
// 800-38D's inc32), so that the kernel takes GCM's key stream whatever
// its counter, a secret where J0 comes from GHASH, and wherever it wraps.
//
// It counts bytes, and masks its last group as the blocks kernels do
// (kern.blocks), a partial last block's bytes too (kern.xorTail), the last
// block's key stream to *rest, as the word layout's CTR kernel hands it
// over. The counter it leaves after a partial last group is the caller's
// to set.
type ctrKernel struct {
	k         *kern
	ctr, rest reg.GPVirtual
	// slot holds the first counter of the next group in every lane, in
	// the frame; counting the bits that count, and fixed the first
	// counter's other bits, each in big-endian order, in every lane.
	slot, counting, fixed operand.Mem
	// base is the current group's first counter; one and bswap are
	// constants in registers during a group's load, and white the fixed
	// bits XOR the whitening.
	base, one, bswap, white zmm
}

// The CTR kernel's constants: the offsets 4r+l of register r from a
// group's first counter (in the low words of ctrOffsets+64r), 64 in each
// lane's low word, 1 in every word, and the VPSHUFB index that reverses
// the bytes of each lane.
var ctrOffsets, ctr64, ctrOne, ctrSwap operand.Mem

func ctrConstants() {
	offsets := make([]uint64, 2*blocks)
	for b := range blocks {
		offsets[2*b] = uint64(b)
	}
	ctrOffsets = asmgen.Words(c, "ctrOffsets", offsets...)
	ctr64 = table("ctr64", func(i int) byte {
		if i%16 == 0 {
			return blocks
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

func (o *ctrKernel) name(bool) string { return "encryptCTR64AVX512" }

// frame is the counter's slot, counting and fixed.
func (o *ctrKernel) frame() int { return 192 }

func (o *ctrKernel) unit() int { return 16 }

// begin puts the counter into the slot, and sets counting and fixed.
func (o *ctrKernel) begin(k *kern, slot operand.Mem) {
	o.k = k
	k.bytesOnly = true
	o.slot, o.counting, o.fixed = slot, slot.Offset(64), slot.Offset(128)
	o.ctr = c.GP64()
	c.Load(c.Param("ctr"), o.ctr)
	o.rest = c.GP64()
	c.Load(c.Param("rest"), o.rest)
	x, m, bswap := c.ZMM(), c.ZMM(), c.ZMM()
	c.VBROADCASTI32X4(operand.Mem{Base: o.ctr}, x)
	c.VMOVDQA64(x, o.slot)
	counting := c.Load(c.Param("counting"), c.GP64())
	c.VBROADCASTI32X4(operand.Mem{Base: counting}, m)
	c.VPANDNQ(x, m, x) // the bits that do not count
	c.VMOVDQU64(ctrSwap, bswap)
	c.VPSHUFB(bswap, m, m)
	c.VPSHUFB(bswap, x, x)
	c.VMOVDQA64(m, o.counting)
	c.VMOVDQA64(x, o.fixed)
}

// add sets x to b plus d (a register or memory) in each lane's 128-bit
// counter, the high word taking the carry of the low word: one is 1 in
// every word.
func add(x, b zmm, d, one operand.Op) {
	k := c.K()
	c.VPADDQ(d, b, x)
	c.VPCMPUQ(operand.U8(1), d, x, k) // k: x < d, where x wrapped
	c.KSHIFTLW(operand.U8(1), k, k)
	c.VPADDQ(one, x, k, x)
}

func (o *ctrKernel) group(int, zmm) {}

// load returns the counter blocks of register r of a group whitened with
// white: it reads no source. The group's first register moves the slot on
// to the next group.
func (o *ctrKernel) load(_ reg.Register, _, r int, white zmm) zmm {
	if r == 0 {
		o.base, o.one, o.bswap, o.white = c.ZMM(), c.ZMM(), c.ZMM(), c.ZMM()
		c.VMOVDQA64(o.slot, o.base)
		c.VMOVDQU64(ctrOne, o.one)
		c.VMOVDQU64(ctrSwap, o.bswap)
		c.VPXORQ(o.fixed, white, o.white)
		next := c.ZMM()
		add(next, o.base, ctr64, o.one)
		c.VMOVDQA64(next, o.slot)
	}
	d, x := c.ZMM(), c.ZMM()
	c.VMOVDQU64(ctrOffsets.Offset(64*r), d)
	add(x, o.base, d, o.one)
	c.VPSHUFB(o.bswap, x, x)
	c.VPTERNLOGQ(operand.U8(0x6C), o.counting, o.white, x) // x&counting ^ white
	return x
}

func (o *ctrKernel) stores(reg.Register, int) {}

// store XORs register r of group g's key stream, whitened, into the
// source and stores it; in the masked group, byte by byte, the last
// block's key stream to *rest after the last register.
func (o *ctrKernel) store(src, dst reg.Register, g, r int, x, white zmm) {
	at := operand.Mem{Base: src, Disp: blocks*16*g + 64*r}
	to := operand.Mem{Base: dst, Disp: blocks*16*g + 64*r}
	if o.k.masked != g+1 {
		c.VPTERNLOGD(operand.U8(0x96), at, white, x)
		c.VMOVDQU64(x, to)
		return
	}
	o.k.xorTail(src, dst, g, r, x, white, o.rest)
}

func (o *ctrKernel) endGroup() {}

func (o *ctrKernel) next(int) {}

// end stores the counter of the block after the last, lane 0 of the slot
// with the bits that do not count as the first counter had them.
func (o *ctrKernel) end() {
	x, bswap, fixed := c.XMM(), c.XMM(), c.XMM()
	c.VMOVDQA64(o.slot, x)
	c.VMOVDQU64(ctrSwap, bswap)
	c.VMOVDQA64(o.fixed, fixed)
	c.VPSHUFB(bswap, x, x)
	c.VPTERNLOGQ(operand.U8(0x6C), o.counting, fixed, x) // x&counting ^ fixed
	c.VPSHUFB(bswap, x, x)
	c.VMOVDQU64(x, operand.Mem{Base: o.ctr})
}
