package main

import (
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The OCB kernels are the 64-block kernels with RFC 7253's offsets applied
// where the blocks are loaded and stored, so that OCB makes no passes of its
// own over the message: a pass costs about half as much as the block
// cipher's loads and stores do in a kernel call, and two of them 6% of the
// whole. Block k of group i of a batch has the offset offs.base[i] ^ t[k],
// and block 63 offs.fix[i] besides (see ocb.go in the package); the
// offsets are a broadcast of the group's base, XORed into the subkey
// whitening, and the table t as memory operands: one VPTERNLOGD per
// register of four blocks, where the plain kernels have a VPXORD. The
// checksum, of the plaintext (src in encryption, dst in decryption), adds
// up per group in a register and then in a 64-byte stack slot, and folds
// to a block at the end.
//
// The hash kernel (hash) is the encryption's, for HASH(K, A): it adds up
// the block cipher's outputs instead, and stores nothing. Of a whole
// group's 64 outputs it adds up the state before the output whitening,
// which each lane of the sum takes an even number of times (16), so that it
// cancels, as do the offsets, which HASH does not apply after the cipher;
// a last group of fewer blocks adds up the whitened outputs of its blocks.
type ocbKernel struct {
	dec, hash bool
	k         *kern
	t, offs   reg.GPVirtual
	// lane3 selects the 32-bit words of lane 3, where register 15 of a
	// group holds block 63.
	lane3 reg.OpmaskVirtual
	// slot is the checksum, one lane per block of a register.
	slot operand.Mem
	// fix is the current group's fix; acc its checksum so far, or nil.
	fix operand.Mem
	acc zmm
	// white is the output whitening, in the hash kernel's masked group.
	white zmm
}

func (o *ocbKernel) name(dec bool) string {
	if o.hash {
		return "hashOCB64AVX512"
	}
	return direction(dec) + "OCB64AVX512"
}

// frame is the checksum's slot.
func (o *ocbKernel) frame() int { return 64 }

// begin loads the arguments of the OCB kernels and clears the checksum.
func (o *ocbKernel) begin(k *kern, slot operand.Mem) {
	o.k = k
	o.dec = k.dec
	o.t, o.offs = c.GP64(), c.GP64()
	c.Load(c.Param("t"), o.t)
	c.Load(c.Param("offs"), o.offs)
	o.slot = slot
	z := c.ZMM()
	c.VPXORD(z, z, z)
	c.VMOVDQA64(z, o.slot)
	o.lane3 = c.K()
	t := c.GP64()
	c.MOVQ(operand.U32(0xF000), t)
	c.KMOVW(t.As32(), o.lane3)
}

// group adds group g's base offset to the whitening in white.
func (o *ocbKernel) group(g int, white zmm) {
	b := c.ZMM()
	c.VBROADCASTI32X4(operand.Mem{Base: o.offs, Disp: 16 * g}, b)
	c.VPXORD(b, white, white)
	o.fix = operand.Mem{Base: o.offs, Disp: fixOffset + 16*g}
}

// fixOffset is where kernel.OCBOffsets.Fix starts: after the base offsets
// of the eight groups of a batch.
const fixOffset = 8 * 16

// load reads register r of group g from src and whitens it with white and
// the offsets; in encryption it adds the plaintext to the checksum.
func (o *ocbKernel) load(src reg.Register, g, r int, white zmm) zmm {
	x := o.k.loadBlocks(src, g, r)
	if !o.dec && !o.hash {
		o.add(x, nil)
	}
	o.whiten(x, white, r)
	return x
}

func (o *ocbKernel) stores(reg.Register, int) {}

// store whitens register r of group g's output with white and the offsets
// and stores it; in decryption it adds the plaintext to the checksum. The
// hash kernel adds x, unwhitened, and stores nothing.
func (o *ocbKernel) store(_, dst reg.Register, g, r int, x, white zmm) {
	if o.hash && o.k.masked == g+1 {
		// A group with fewer blocks: its lanes' sums need the output
		// whitening, which they take an odd number of times maybe.
		if r == 0 {
			o.white = c.ZMM()
			c.VBROADCASTI32X4(o.k.subkey(4), o.white)
		}
		y := c.ZMM()
		c.VPXORD(o.white, x, y)
		o.add(y, o.k.mask(r))
		return
	}
	if o.hash {
		o.add(x, nil)
		return
	}
	o.whiten(x, white, r)
	if o.dec {
		var k reg.OpmaskVirtual
		if o.k.masked == g+1 {
			k = o.k.mask(r)
		}
		o.add(x, k)
	}
	o.k.storeBlocks(dst, g, r, x)
}

func (o *ocbKernel) whiten(x, white zmm, r int) {
	c.VPTERNLOGD(operand.U8(0x96), operand.Mem{Base: o.t, Disp: 64 * r}, white, x)
	if r == 15 {
		f := c.ZMM()
		c.VBROADCASTI32X4(o.fix, f)
		c.VPXORD(f, x, o.lane3, x)
	}
}

// add adds x to the group's checksum, only the blocks of the mask k if it
// is not nil.
func (o *ocbKernel) add(x zmm, k reg.OpmaskVirtual) {
	switch {
	case o.acc == nil && k != nil:
		o.acc = c.ZMM()
		c.VMOVDQA32_Z(x, k, o.acc)
	case o.acc == nil:
		o.acc = c.ZMM()
		c.VMOVDQA64(x, o.acc)
	case k != nil:
		c.VPXORD(x, o.acc, k, o.acc)
	default:
		c.VPXORD(x, o.acc, o.acc)
	}
}

// endGroup adds the group's checksum to the slot.
func (o *ocbKernel) endGroup() {
	if o.acc == nil {
		return
	}
	c.VPXORD(o.slot, o.acc, o.acc)
	c.VMOVDQA64(o.acc, o.slot)
	o.acc = nil
}

// next moves the offsets on by n groups.
func (o *ocbKernel) next(n int) {
	c.ADDQ(operand.U8(16*n), o.offs)
}

// end folds the checksum's four lanes into *sum.
func (o *ocbKernel) end() {
	s := c.ZMM()
	c.VMOVDQA64(o.slot, s)
	addLanes(s, c.Load(c.Param("sum"), c.GP64()))
}

// addLanes XORs the four 128-bit lanes of s into the block at p, with
// AVX-512 forms throughout: the kernels need no AVX2.
func addLanes(s zmm, p reg.Register) {
	y := c.YMM()
	c.VEXTRACTI64X4(operand.U8(1), s, y)
	c.VPXORD(s.AsY(), y, y)
	x := c.XMM()
	c.VEXTRACTI32X4(operand.U8(1), y, x)
	c.VPXORD(y.AsX(), x, x)
	c.VPXORD(operand.Mem{Base: p}, x, x)
	c.VMOVDQU64(x, operand.Mem{Base: p})
}

// unit is blocks, the last group masked.
func (o *ocbKernel) unit() int { return 1 }
