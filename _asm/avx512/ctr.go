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
// words, low then high, in the frame's slot: the first counter of the next
// group, in every 128-bit lane. A group's blocks are made in word layout
// (wordMaker), where the plain kernel transposes the blocks it loads into
// it, and within a group only the counter's low 32 bits vary, but for a
// carry out of them: word 3 of block b, the big-endian counter block's
// last four bytes read as a little-endian word, is the byte swap of the
// low 32 bits of the group's first counter plus b (one VPADDD of the
// blocks' offsets, in the order kern.load puts the blocks in, and a
// VPSHUFB); VPCMPUD finds the blocks whose addition wrapped, and words 0
// to 2 are the group's first counter's (c = 0) or that counter plus 2^32's
// (c = 1), made once a group in a 128-bit lane, as a 128-bit addition
// (add: VPCMPUQ finds a low 64-bit word that wrapped, KSHIFTLW moves the
// carry to the high word, where a masked VPADDQ adds it, so the count
// wraps modulo 2^128), byte-swapped and broadcast a word to a register,
// and a masked move picks each block's. The next group's first
// counter is the group's plus 64, one such addition. The offsets and the
// byte swap's indexes are memory operands in the frame, copied there once
// a call, for the reason frameCopies gives (from the binary's data, CTR
// ran at 0.975x ECB's speed against 0.981x). CTR runs at 0.98x ECB's
// speed, and GCM's counter blocks likewise, where made as blocks, with
// every counter a 128-bit addition, a byte swap of the lane and the
// transposes, they ran at 0.957x and 0.947x (Zen 5, avx512-gfni, go test
// -run '^$' -bench 'FusedGroups/impl=avx512-gfni/mode=(CTR|GCM-CTR)/'
// ./internal/kernel, xECBmin, medians of 5 alternating runs).
//
// The argument counting says which bits of the counter count. The kernel
// counts in all 128 bits, whatever it says; the bits that do not count it
// takes from the first counter instead, with the whitening that it XORs
// in anyway: one VPTERNLOGD computes (word AND counting) XOR (fixed bits
// XOR whitening), all in big-endian order, for word 3 in each register and
// for the other words once a group. CTR counts all 128 bits; GCM counts
// the low 32, which wrap around alone (NIST SP 800-38D's inc32), so that
// the kernel takes GCM's key stream whatever its counter, a secret where
// J0 comes from GHASH, and wherever it wraps.
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
	// offs and swap32 are the frame's copies of ctrWordOffsets and
	// ctrSwap32.
	offs, swap32 operand.Mem
	// While a group loads: low holds the low 32 bits of its first
	// counter, high[c][w] word w of its counter blocks whose low 32 bits
	// carried c, and count3 and fixed3 word 3 of counting and of the fixed
	// bits XOR the whitening, each in every 32-bit word.
	low            zmm
	high           [2][3]zmm
	count3, fixed3 zmm
}

// The CTR kernels' constants: the offsets 4r+l of the blocks in register r
// and lane l of the word layout's kernel (wordCTR; in the low words of
// ctrOffsets+64r), and of those kern.load puts in register q of a word (in
// each 32-bit word of ctrWordOffsets+64q), 64 and 2^32 in each lane's low
// word, 1 in every word, and the VPSHUFB indexes that reverse the bytes of
// each lane and of each 32-bit word.
var ctrOffsets, ctrWordOffsets, ctr64, ctr2e32, ctrOne, ctrSwap, ctrSwap32 operand.Mem

func ctrConstants() {
	// The blocks of the widest word-layout kernel, two sets.
	offsets := make([]uint64, 2*2*wordsSet)
	for b := range 2 * wordsSet {
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
	// Word 4l+d of register q holds block 16q+4d+l (kern.load).
	words := make([]uint64, blocks/2)
	for q := range 4 {
		for i := range 16 {
			l, d := i/4, i%4
			words[8*q+i/2] |= uint64(16*q+4*d+l) << (32 * (i % 2))
		}
	}
	ctrWordOffsets = asmgen.Words(c, "ctrWordOffsets", words...)
	ctr2e32 = table("ctr2e32", func(i int) byte {
		if i%16 == 4 {
			return 1
		}
		return 0
	})
	ctrSwap32 = table("ctrSwap32", func(i int) byte { return byte(i&^3 | 3 - i&3) })
}

func (o *ctrKernel) name(bool) string { return "encryptCTR64AVX512" }

// frame is the counter's slot, counting and fixed, and the copies of the
// word layout's constants.
func (o *ctrKernel) frame() int { return 192 + 320 }

func (o *ctrKernel) unit() int { return 16 }

// begin puts the counter into the slot, sets counting and fixed, and
// copies the word layout's constants.
func (o *ctrKernel) begin(k *kern, slot operand.Mem) {
	o.k = k
	k.bytesOnly = true
	o.slot, o.counting, o.fixed = slot, slot.Offset(64), slot.Offset(128)
	o.offs, o.swap32 = slot.Offset(192), slot.Offset(448)
	cp := func(from, to operand.Mem) {
		z := c.ZMM()
		c.VMOVDQU64(from, z)
		c.VMOVDQA64(z, to)
	}
	for q := range 4 {
		cp(ctrWordOffsets.Offset(64*q), o.offs.Offset(64*q))
	}
	cp(ctrSwap32, o.swap32)
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

// start makes what the words of a group's counter blocks are made from,
// whitened with white, and moves the slot on to the next group.
func (o *ctrKernel) start(white zmm) {
	base, one, bswap, fw := c.ZMM(), c.ZMM(), c.ZMM(), c.ZMM()
	c.VMOVDQA64(o.slot, base)
	c.VMOVDQU64(ctrOne, one)
	next := c.ZMM()
	add(next, base, ctr64, one)
	c.VMOVDQA64(next, o.slot)
	c.VMOVDQU64(ctrSwap, bswap)
	c.VPXORQ(o.fixed, white, fw)
	for carry := range o.high {
		x := base
		if carry == 1 {
			x = c.ZMM()
			add(x, base, ctr2e32, one)
		}
		b := c.ZMM()
		c.VPSHUFB(bswap, x, b)
		c.VPTERNLOGQ(operand.U8(0x6C), o.counting, fw, b) // b&counting ^ fw
		for w := range o.high[carry] {
			o.high[carry][w] = c.ZMM()
			c.VPSHUFD(operand.U8(0x55*w), b, o.high[carry][w])
		}
	}
	o.low, o.count3, o.fixed3 = c.ZMM(), c.ZMM(), c.ZMM()
	c.VPSHUFD(operand.U8(0), base, o.low)
	c.VPSHUFD(operand.U8(0xFF), o.counting, o.count3)
	c.VPSHUFD(operand.U8(0xFF), fw, o.fixed3)
}

// words returns the counter blocks of register q of a group, in word
// layout, whitened with white: it reads no source. The group's first
// register starts the group.
func (o *ctrKernel) words(_, q int, white zmm) [4]zmm {
	if q == 0 {
		o.start(white)
	}
	var t [4]zmm
	x, k := c.ZMM(), c.K()
	off := o.offs.Offset(64 * q)
	c.VPADDD(off, o.low, x)
	c.VPCMPUD(operand.U8(1), off, x, k) // k: x < off, where the low 32 bits wrapped
	c.VPSHUFB(o.swap32, x, x)
	c.VPTERNLOGD(operand.U8(0x6C), o.count3, o.fixed3, x) // x&count3 ^ fixed3
	t[3] = x
	// A move and a merge-masked move, not VPBLENDMD, which avo takes to
	// read its destination.
	for w := range 3 {
		t[w] = c.ZMM()
		c.VMOVDQA64(o.high[0][w], t[w])
		c.VMOVDQA32(o.high[1][w], k, t[w])
	}
	return t
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
