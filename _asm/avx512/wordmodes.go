package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The mode kernels of the word layout are the 16- and 32-block kernels
// with the modes' work done where they load and store the blocks, as the
// 64-block mode kernels do it: CTR's counter blocks made in registers and
// its key stream XORed into the source as it is stored, the ciphertext
// blocks XORed into CBC's output and taken as CFB's input, XTS's tweaks
// made in registers and XORed in on both sides. They take one pass, at
// most 16·sets blocks, the run that the word kernels take in ECB (a
// message of 5 to 32 blocks, or that many after an even number of groups),
// where the package made the counter blocks or the tweaks in Go and XORed
// them in passes of its own around the kernel.
//
// Each register holds four blocks in memory order (register r blocks 4r
// to 4r+3), before the transpose to word layout on load and after the one
// back on store. Blocks missing from the pass are neither read nor
// written: the pass is a stretch (stretch.go), as in ECB. The state after
// the pass (the counter, the IV, the tweak) is the caller's to move on:
// the kernels read it and do not write it.
//
// CTR's and CFB decryption's kernels take a partial last block, their
// count n in bytes: the source's bytes past n are neither read nor written,
// and the last block's key stream goes to *rest, so that a stream can use
// the rest of it later.
type wordMode interface {
	// name is the kernel's name without its block count and suffix.
	name(dec bool) string
	// partial reports whether the kernel's count is in bytes, its last
	// block maybe partial.
	partial() bool
	// begin loads the mode's argument.
	begin()
	// load returns register r of the kernel's input, in memory order,
	// from the source's present blocks.
	load(src reg.Register, r int, masks wordMasks) zmm
	// store finishes the output registers out and stores them.
	store(src, dst reg.Register, out []zmm, masks wordMasks)
}

// wordMasks makes the masks of register r of a pass: the 32-bit words of
// its present blocks; and in the kernels of a partial last block its
// present bytes, and the 64-bit words of the last block if r holds it.
// The pass is a stretch of n blocks (nbytes bytes where the last block may
// be partial).
type wordMasks struct {
	blocks, bytes, last func(r int) reg.OpmaskVirtual
	n, nbytes           reg.Register
}

// load returns register r's present blocks of the 64 bytes at base + 64r
// + off, zeros elsewhere.
func (m wordMasks) load(base reg.Register, r, off int) zmm {
	return stretch{count: m.n, blocks: true}.load(base, r, off, func() reg.OpmaskVirtual { return m.blocks(r) }, false)
}

// store stores register r's present blocks of x to base + 64r.
func (m wordMasks) store(x zmm, base reg.Register, r int) {
	stretch{count: m.n, blocks: true}.store(x, base, r, func() reg.OpmaskVirtual { return m.blocks(r) }, false)
}

// partialMasks returns wordMasks' bytes and last for a pass of nbytes
// bytes in n blocks: the first min(max(nbytes - 64r, 0), 64) bytes of
// register r (byteMasks), and, with L = n - 1 the last block, 3 << 2(L mod
// 4) in register L/4 and none in the others (lastBlock). Like setMask, they
// branch on the count alone, and shift through CL.
func partialMasks(n, nbytes reg.Register) (bytes, last func(int) reg.OpmaskVirtual) {
	lastReg, lastWords := lastBlock(n)
	bytes = byteMasks(nbytes)
	last = func(r int) reg.OpmaskVirtual {
		labels++
		done := fmt.Sprintf("last%d", labels)
		u := c.GP64()
		c.XORQ(u, u)
		c.CMPQ(lastReg, operand.U8(r))
		c.JNE(operand.LabelRef(done))
		c.MOVQ(lastWords, u)
		c.Label(done)
		k := c.K()
		c.KMOVW(u.As32(), k)
		return k
	}
	return bytes, last
}

// lastBlock returns, with L = n - 1 the last of n blocks, the register
// that holds it, L/4, and its 64-bit words there, 3 << 2(L mod 4).
func lastBlock(n reg.Register) (lastReg, lastWords reg.GPVirtual) {
	lastReg, lastWords = c.GP64(), c.GP64()
	c.LEAQ(operand.Mem{Base: n, Disp: -1}, lastReg)
	c.MOVQ(lastReg, reg.RCX)
	c.ANDQ(operand.U8(3), reg.RCX)
	c.SHLQ(operand.U8(1), reg.RCX)
	c.MOVQ(operand.U32(3), lastWords)
	c.SHLQ(reg.CL, lastWords)
	c.SHRQ(operand.U8(2), lastReg)
	return lastReg, lastWords
}

// byteMasks returns the function that makes register r's mask of the
// first min(max(nbytes - 64r, 0), 64) bytes.
func byteMasks(nbytes reg.Register) func(r int) reg.OpmaskVirtual {
	return func(r int) reg.OpmaskVirtual {
		labels++
		done := fmt.Sprintf("bytes%d", labels)
		u, v := c.GP64(), c.GP64()
		c.MOVQ(operand.I32(-1), v)
		c.MOVQ(nbytes, u)
		if r > 0 {
			c.SUBQ(operand.U32(64*r), u)
		}
		c.CMPQ(u, operand.U8(64))
		c.JGE(operand.LabelRef(done))
		c.XORQ(v, v)
		c.CMPQ(u, operand.U8(0))
		c.JLE(operand.LabelRef(done))
		c.MOVQ(u, reg.RCX)
		c.MOVQ(operand.U32(1), v)
		c.SHLQ(reg.CL, v)
		c.DECQ(v)
		c.Label(done)
		k := c.K()
		c.KMOVQ(v, k)
		return k
	}
}

// xorStore XORs each output register, CTR's or CFB's key stream, into the
// source's register r and stores it, byte by byte, as the last block may be
// partial; that block's key stream goes to *rest, one VPCOMPRESSQ a
// register into a register that only the last block's register writes.
func xorStore(src, dst, rest reg.Register, out []zmm, masks wordMasks) {
	kept := c.ZMM()
	c.VPXORD(kept, kept, kept)
	st := stretch{count: masks.nbytes}
	for r, x := range out {
		mask := func() reg.OpmaskVirtual { return masks.bytes(r) }
		in := st.load(src, r, 0, mask, true)
		st.holds(r, func() {
			c.VPCOMPRESSQ(x, masks.last(r), kept)
			c.VPXORD(in, x, x)
		})
		st.store(x, dst, r, mask, true)
	}
	c.VMOVDQU64(kept.AsX(), operand.Mem{Base: rest})
}

// chained returns register r's ciphertext blocks shifted by one, the IV at
// iv before the first: what CBC decryption XORs into register r's output,
// and CFB decryption encrypts. Register 0 takes lanes 1 to 3 from the
// source's first three blocks (VALIGNQ), so that no load reads before the
// source; where the last block may be partial (CFB's, masks.nbytes), from
// the blocks before the last alone, which are whole, so that no load reads
// past it either.
func chained(src, iv reg.Register, r int, masks wordMasks) zmm {
	if r > 0 {
		return masks.load(src, r, -16)
	}
	v, p := c.ZMM(), c.ZMM()
	c.VBROADCASTI32X4(operand.Mem{Base: iv}, v)
	var first zmm
	if masks.nbytes != nil {
		first = wholeBefore(src, masks.n)
	} else {
		first = masks.load(src, 0, 0)
	}
	c.VALIGNQ(operand.U8(6), v, first, p) // lane 3 of v, lanes 0 to 2 of the source
	return p
}

// wholeBefore returns the source's blocks before the last of n, at most
// four (register 0's), zeros elsewhere: none, behind a branch on the
// public count, where n is 1.
func wholeBefore(src, n reg.Register) zmm {
	before, bits, x := c.GP64(), c.GP64(), c.ZMM()
	zero(x)
	c.LEAQ(operand.Mem{Base: n, Disp: -1}, before)
	labels++
	none, all := fmt.Sprintf("beforenone%d", labels), fmt.Sprintf("beforeall%d", labels)
	c.TESTQ(before, before)
	c.JZ(operand.LabelRef(none))
	// A 32-bit word mask of min(before, 4) blocks.
	c.MOVQ(operand.I32(-1), bits)
	c.CMPQ(before, operand.U8(4))
	c.JAE(operand.LabelRef(all))
	c.MOVQ(before, reg.RCX)
	c.SHLQ(operand.U8(2), reg.RCX)
	c.MOVQ(operand.U32(1), bits)
	c.SHLQ(reg.CL, bits)
	c.DECQ(bits)
	c.Label(all)
	k := c.K()
	c.KMOVW(bits.As32(), k)
	y := stretch{count: before, blocks: true}.load(src, 0, 0, func() reg.OpmaskVirtual { return k }, false)
	c.VMOVDQA64(y, x)
	c.Label(none)
	return x
}

// wordCTR is CTR: register r's counter blocks are the counter plus 4r+l
// in lane l, made as ctrKernel makes them.
type wordCTR struct {
	rest             reg.Register
	base, one, bswap zmm
}

func (o *wordCTR) name(bool) string { return "encryptCTR" }

func (o *wordCTR) partial() bool { return true }

func (o *wordCTR) begin() {
	o.rest = c.Load(c.Param("rest"), c.GP64())
	ctr := c.Load(c.Param("ctr"), c.GP64())
	o.base, o.one, o.bswap = c.ZMM(), c.ZMM(), c.ZMM()
	c.VBROADCASTI32X4(operand.Mem{Base: ctr}, o.base)
	c.VMOVDQU64(ctrOne, o.one)
	c.VMOVDQU64(ctrSwap, o.bswap)
}

func (o *wordCTR) load(_ reg.Register, r int, _ wordMasks) zmm {
	x := c.ZMM()
	add(x, o.base, ctrOffsets.Offset(64*r), o.one)
	c.VPSHUFB(o.bswap, x, x)
	return x
}

func (o *wordCTR) store(src, dst reg.Register, out []zmm, masks wordMasks) {
	xorStore(src, dst, o.rest, out, masks)
}

// wordCBC is CBC decryption: each output block XORed with the ciphertext
// block before it. In place, the store of a register overwrites the block
// that the register after it XORs in, so the registers are stored from the
// last to the first, each loading what it XORs in just before.
type wordCBC struct {
	iv reg.Register
}

func (o *wordCBC) name(bool) string { return "decryptCBC" }

func (o *wordCBC) partial() bool { return false }

func (o *wordCBC) begin() { o.iv = c.Load(c.Param("iv"), c.GP64()) }

func (o *wordCBC) load(src reg.Register, r int, masks wordMasks) zmm {
	return masks.load(src, r, 0)
}

func (o *wordCBC) store(src, dst reg.Register, out []zmm, masks wordMasks) {
	for r := len(out) - 1; r >= 0; r-- {
		c.VPXORD(chained(src, o.iv, r, masks), out[r], out[r])
		masks.store(out[r], dst, r)
	}
}

// wordCFB is CFB decryption: the encryption of the ciphertext blocks
// shifted by one, XORed into the source. Every load comes before the
// first store, so in place needs no order.
type wordCFB struct {
	iv, rest reg.Register
}

func (o *wordCFB) name(bool) string { return "decryptCFB" }

func (o *wordCFB) partial() bool { return true }

func (o *wordCFB) begin() {
	o.iv = c.Load(c.Param("iv"), c.GP64())
	o.rest = c.Load(c.Param("rest"), c.GP64())
}

func (o *wordCFB) load(src reg.Register, r int, masks wordMasks) zmm {
	return chained(src, o.iv, r, masks)
}

func (o *wordCFB) store(src, dst reg.Register, out []zmm, masks wordMasks) {
	xorStore(src, dst, o.rest, out, masks)
}

// wordXTS is XTS: register r's tweaks are the tweak times x^(4r+l) in
// lane l, made as xtsKernel makes them, once for the load and again for
// the store rather than held in eight registers through the rounds.
type wordXTS struct {
	tweak reg.Register
	// r0 is register 0's tweaks, while a load or store phase runs.
	r0 zmm
}

func (o *wordXTS) name(dec bool) string { return direction(dec) + "XTS" }

func (o *wordXTS) partial() bool { return false }

func (o *wordXTS) begin() { o.tweak = c.Load(c.Param("tweak"), c.GP64()) }

// tweaks returns register r's tweaks, making register 0's first.
func (o *wordXTS) tweaks(r int) zmm {
	if r == 0 {
		t := c.ZMM()
		c.VBROADCASTI32X4(operand.Mem{Base: o.tweak}, t)
		o.r0 = mulX(t, xtsLeft, xtsRight)
		return o.r0
	}
	return mulX(o.r0, operand.U8(4*r), nil)
}

func (o *wordXTS) load(src reg.Register, r int, masks wordMasks) zmm {
	x := masks.load(src, r, 0)
	c.VPXORD(o.tweaks(r), x, x)
	return x
}

func (o *wordXTS) store(_, dst reg.Register, out []zmm, masks wordMasks) {
	for r, x := range out {
		c.VPXORD(o.tweaks(r), x, x)
		masks.store(x, dst, r)
	}
}

// wordOCB is OCB, as ocbKernel: block k of the run (k below 32, so no
// group's last block and no fix) is whitened with base ^ t[k] before and
// after the block cipher, base the offset of the block before the run's
// group, a broadcast made again for each phase rather than held through
// the rounds. The checksum of the plaintext adds up in a register and is
// added to *sum at the end: in encryption from the source, loaded again
// before the first store overwrites it in place, in decryption from the
// output of the present blocks. The hash kernel (hash) adds up the block
// cipher's outputs of the present blocks instead, and stores nothing.
type wordOCB struct {
	dec, hash    bool
	t, base, sum reg.Register
	// b is the broadcast base while the loads run.
	b zmm
}

func (o *wordOCB) name(dec bool) string {
	if o.hash {
		return "hashOCB"
	}
	return direction(dec) + "OCB"
}

func (o *wordOCB) partial() bool { return false }

func (o *wordOCB) begin() {
	o.t = c.Load(c.Param("t"), c.GP64())
	o.base = c.Load(c.Param("base"), c.GP64())
	o.sum = c.Load(c.Param("sum"), c.GP64())
}

// whiten XORs register r's offsets into x, with b the broadcast base.
func (o *wordOCB) whiten(x, b zmm, r int) {
	c.VPTERNLOGD(operand.U8(0x96), operand.Mem{Base: o.t, Disp: 64 * r}, b, x)
}

// broadcastBase returns the base offset in every lane.
func (o *wordOCB) broadcastBase() zmm {
	b := c.ZMM()
	c.VBROADCASTI32X4(operand.Mem{Base: o.base}, b)
	return b
}

func (o *wordOCB) load(src reg.Register, r int, masks wordMasks) zmm {
	if r == 0 {
		o.b = o.broadcastBase()
	}
	x := masks.load(src, r, 0)
	o.whiten(x, o.b, r)
	return x
}

func (o *wordOCB) store(src, dst reg.Register, out []zmm, masks wordMasks) {
	present := masks.blocks
	acc := c.ZMM()
	c.VPXORD(acc, acc, acc)
	if o.hash {
		for r, x := range out {
			c.VPXORD(x, acc, present(r), acc)
		}
		addLanes(acc, o.sum)
		return
	}
	if !o.dec {
		for r := range out {
			c.VPXORD(masks.load(src, r, 0), acc, acc)
		}
	}
	o.b = o.broadcastBase()
	for r, x := range out {
		o.whiten(x, o.b, r)
		if o.dec {
			c.VPXORD(x, acc, present(r), acc)
		}
		masks.store(x, dst, r)
	}
	addLanes(acc, o.sum)
}
