// Command ghash generates internal/ghash/ghash_amd64.s, GCM's GHASH with carry-less
// multiplication, with avo. Run it through go generate in the package
// directory:
//
//	go run -C ../../_asm/ghash . -out ../../internal/ghash/ghash_amd64.s -pkg ghash
//
// # Arithmetic
//
// The representation is ghash.go's: a block, byte-reversed into a 128-bit
// register (PSHUFB), is its polynomial reflected, and the key powers in
// the table are H^i·x⁻¹ in the same form, so that the 256-bit carry-less
// product of a block with a power is the reflection of their field product,
// unreduced. A run of r blocks X1..Xr is hashed into the running value Y as
//
//	Y' = (Y+X1)·H^r + X2·H^(r-1) + ... + Xr·H
//
// with one reduction for the whole run: the products' low, high and middle
// quadword products are summed first (schoolbook, four PCLMULQDQ per block;
// the middle ones meet again only at the end). The reduction is the
// Montgomery step of ghash.go's reduce, one quadword at a time: the low
// quadword q is cancelled by adding q·P, which puts q·0xC200000000000000 one
// quadword up and q itself two quadwords up; twice.
//
// The AVX2 function adds Y into the first block of each run (Y alone times
// the run's first power, off the chain through the folds, measured 0.88x
// over 8 KiB on Zen 5 with ymm registers, where that chain is short and the
// four more products weigh more). The AVX-512 function is bound on the carry-less multiplier (on Zen 5, one
// VPCLMULQDQ of any width issues every two cycles or so): it multiplies
// with Karatsuba's three products instead of four, the middle one
// (x.lo^x.hi)·(h.lo^h.hi) from two VPSHUFD and two XORs, and keeps four
// running values in the lanes of one register, so that a run needs no fold
// across the lanes and one of its blocks no product (functionAVX512).
//
// # Functions
//
// Each takes the table of H^16..H^1 (ghash.Key.powers), the running value
// (16 bytes, GCM order), the data and a count of blocks:
//
//   - ghashBlocksCLMUL: SSE and PCLMULQDQ, eight blocks per reduction.
//   - ghashBlocksAVX2: VEX-encoded VPCLMULQDQ on ymm registers (two blocks
//     each), sixteen blocks per reduction.
//   - ghashBlocksAVX512: EVEX-encoded VPCLMULQDQ on zmm registers (four
//     blocks each), sixteen blocks per reduction, reduced four lanes at a
//     time.
//
// ghashPowersCLMUL fills the table from its last entry, H·x⁻¹: the
// product of two entries, a·x⁻¹ and b·x⁻¹, by the blocks' arithmetic is
// (a·b)·x⁻¹, the next entry's form.
//
// The blocks left over (fewer than a full run) are hashed as one shorter
// run, meeting the powers H^r..H^1: with xmm registers, and in the AVX-512
// function with zmm registers from four blocks (tailAVX512).
//
// No memory address depends on data or key, and the only branches are on
// the count: the code is constant-time.
//
// The generator refuses BP and SP (asmgen.RefuseBP): the functions keep
// the frame-pointer convention.
package main

import (
	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/twofish-go/twofish/_asm/internal/asmgen"
)

var c = build.NewContext()

func main() {
	asmgen.Main(c, "ghash", "github.com/twofish-go/twofish/internal/ghash", func() {
		constants()
		function("ghashBlocksCLMUL", sse, 8)
		function("ghashBlocksAVX2", avx2, 16)
		functionAVX512("ghashBlocksAVX512")
		powersFunction()
	})
}

// Constants in memory.
var (
	// bswapMask is the PSHUFB index that reverses the bytes of each
	// 128-bit lane, four lanes of it for the widest registers.
	bswapMask operand.Mem
	// polyMask holds the reduction constant 0xC2<<56 in both quadwords.
	polyMask operand.Mem
	// tailMasks are the quadword write masks of 0 to 3 blocks.
	tailMasks operand.Mem
)

func constants() {
	bswapMask = c.StaticGlobal("ghashBswapMask")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for range 4 {
		c.AppendDatum(operand.U64(0x08090a0b0c0d0e0f))
		c.AppendDatum(operand.U64(0x0001020304050607))
	}
	tailMasks = c.StaticGlobal("ghashTailMasks")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for r := range 4 {
		c.AppendDatum(operand.U16(1<<(2*r) - 1))
	}
	polyMask = c.StaticGlobal("ghashPoly")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	c.AppendDatum(operand.U64(0xC200000000000000))
	c.AppendDatum(operand.U64(0xC200000000000000))
}

// isa is an instruction set the code is emitted for.
type isa int

const (
	sse    isa = iota // legacy SSE encoding, two-operand, xmm only
	avx2              // VEX: xmm and ymm
	avx512            // EVEX for zmm, VEX for xmm and ymm
)

// emitter emits the xmm operations in the encoding of its isa. Its
// methods take virtual registers and copy where SSE's two-operand forms
// need it.
type emitter struct{ isa isa }

// load sets dst to the 16 (32) bytes at m.
func (e emitter) load(m operand.Mem, dst reg.Register) {
	if e.isa == sse {
		c.MOVOU(m, dst)
	} else {
		c.VMOVDQU(m, dst)
	}
}

// store writes src to m.
func (e emitter) store(src reg.Register, m operand.Mem) {
	if e.isa == sse {
		c.MOVOU(src, m)
	} else {
		c.VMOVDQU(src, m)
	}
}

// mov copies the xmm register src to dst (VEX: clearing the rest of
// dst's wider register).
func (e emitter) mov(src, dst reg.Register) {
	if e.isa == sse {
		c.MOVO(src, dst)
	} else {
		c.VMOVDQU(src, dst)
	}
}

// bswap reverses the bytes of each 128-bit lane of x, with the index in
// mask.
func (e emitter) bswap(mask, x reg.Register) {
	if e.isa == sse {
		c.PSHUFB(mask, x)
	} else {
		c.VPSHUFB(mask, x, x)
	}
}

// xor sets dst ^= src.
func (e emitter) xor(src, dst reg.Register) {
	if e.isa == sse {
		c.PXOR(src, dst)
	} else {
		c.VPXOR(src, dst, dst)
	}
}

// clmul returns a new register holding the carry-less product of the
// quadwords of x and h that imm selects (bit 0: x's, bit 4: h's).
func (e emitter) clmul(imm uint8, h, x reg.Register) reg.Register {
	t := e.like(x)
	if e.isa == sse {
		c.MOVO(x, t)
		c.PCLMULQDQ(operand.U8(imm), h, t)
	} else {
		c.VPCLMULQDQ(operand.U8(imm), h, x, t)
	}
	return t
}

// clmulInto sets x to the product clmul would return, reusing x.
func (e emitter) clmulInto(imm uint8, h, x reg.Register) {
	if e.isa == sse {
		c.PCLMULQDQ(operand.U8(imm), h, x)
	} else {
		c.VPCLMULQDQ(operand.U8(imm), h, x, x)
	}
}

// like returns a new virtual register of x's width.
func (e emitter) like(x reg.Register) reg.Register {
	switch x.Size() {
	case 64:
		return c.ZMM()
	case 32:
		return c.YMM()
	}
	return c.XMM()
}

// sums are the three running sums of a run of products: the low and high
// quadword products and the two middle ones.
type sums struct{ lo, hi, mid reg.Register }

// first starts the sums with the product of x and h.
func (e emitter) first(h, x reg.Register) sums {
	s := sums{lo: e.clmul(0x00, h, x), hi: e.clmul(0x11, h, x), mid: e.clmul(0x01, h, x)}
	e.clmulInto(0x10, h, x)
	e.xor(x, s.mid)
	return s
}

// add adds the product of x and h to the sums; x is overwritten.
func (e emitter) add(s sums, h, x reg.Register) {
	t := e.clmul(0x00, h, x)
	e.xor(t, s.lo)
	t = e.clmul(0x11, h, x)
	e.xor(t, s.hi)
	t = e.clmul(0x01, h, x)
	e.xor(t, s.mid)
	e.clmulInto(0x10, h, x)
	e.xor(x, s.mid)
}

// split adds the middle sum into the low and high ones, lane by lane: the
// low and high 128 bits of each lane's 256-bit product.
func (e emitter) split(s sums) {
	t := e.like(s.mid)
	if e.isa == sse {
		c.MOVO(s.mid, t)
		c.PSRLDQ(operand.U8(8), t)
		c.PSLLDQ(operand.U8(8), s.mid)
	} else {
		c.VPSRLDQ(operand.U8(8), s.mid, t)
		c.VPSLLDQ(operand.U8(8), s.mid, s.mid)
	}
	e.xor(t, s.hi)
	e.xor(s.mid, s.lo)
}

// reduce returns the field element whose reflection is hi:lo, in lo (xmm
// registers; poly holds the reduction constant).
func (e emitter) reduce(lo, hi, poly reg.Register) reg.Register {
	for range 2 {
		t := e.clmul(0x00, poly, lo)
		if e.isa == sse {
			c.PSHUFD(operand.U8(0x4E), lo, lo)
		} else {
			c.VPSHUFD(operand.U8(0x4E), lo, lo)
		}
		e.xor(t, lo)
	}
	e.xor(hi, lo)
	return lo
}

// function emits one GHASH function for isa (sse or avx2), hashing runs
// of run blocks.
func function(name string, a isa, run int) {
	c.Implement(name)
	c.Attributes(attr.NOSPLIT)
	c.Commentf("%s hashes n blocks, %d per reduction; generated by _asm/ghash.", name, run)
	e := emitter{a}
	x := emitter{a} // xmm operations

	powers := c.Load(c.Param("powers"), c.GP64())
	yp := c.Load(c.Param("y"), c.GP64())
	data := c.Load(c.Param("data"), c.GP64())
	n := c.Load(c.Param("n"), c.GP64())

	// Vector width of the runs.
	lanes := map[isa]int{sse: 1, avx2: 2}[a]
	vec := func() reg.Register {
		if lanes == 2 {
			return c.YMM()
		}
		return c.XMM()
	}

	mask := vec()
	e.load(bswapMask, mask)
	maskX := mask.(reg.Vec).AsX()
	poly := c.XMM()
	x.load(polyMask, poly)
	y := c.XMM()
	x.load(operand.Mem{Base: yp}, y)
	x.bswap(maskX, y)

	// Whole runs.
	c.Comment("Runs of whole groups.")
	c.CMPQ(n, operand.U32(run))
	c.JB(operand.LabelRef(name + "_tail"))
	c.Label(name + "_run")
	regs := run / lanes
	var s sums
	for j := range regs {
		v := vec()
		e.load(operand.Mem{Base: data, Disp: 16 * lanes * j}, v)
		e.bswap(mask, v)
		if j == 0 {
			// y's upper lanes are zero: a VEX write to xmm clears the
			// rest of the register.
			e.xor(widen(y, lanes), v)
		}
		h := vec()
		e.load(operand.Mem{Base: powers, Disp: 16 * (ghashPowers - run + lanes*j)}, h)
		if j == 0 {
			s = e.first(h, v)
		} else {
			e.add(s, h, v)
		}
	}
	e.split(s)
	lo, hi := fold(s.lo, lanes), fold(s.hi, lanes)
	x.mov(x.reduce(lo, hi, poly), y)
	c.ADDQ(operand.U32(16*run), data)
	c.SUBQ(operand.U32(run), n)
	c.CMPQ(n, operand.U32(run))
	c.JAE(operand.LabelRef(name + "_run"))

	tail(x, name, powers, yp, y, data, n, maskX, poly)
	if a != sse {
		c.VZEROUPPER()
	}
	c.RET()
}

// tail emits the end of a function: the blocks left over (n, fewer than a
// full run) are hashed into y as one shorter run with xmm registers, block
// j of r meeting powers[16-r+j], and y is stored back, byte-reversed.
func tail(x emitter, name string, powers, yp, y, data, n, maskX, poly reg.Register) {
	c.Label(name + "_tail")
	c.Comment("The blocks left over, one at a time, as one run.")
	c.TESTQ(n, n)
	c.JZ(operand.LabelRef(name + "_done"))
	p := c.GP64()
	c.MOVQ(n, p)
	c.NEGQ(p)
	c.SHLQ(operand.U8(4), p)
	c.LEAQ(operand.Mem{Base: powers, Index: p, Scale: 1, Disp: 16 * ghashPowers}, p)
	v := c.XMM()
	h := c.XMM()
	x.load(operand.Mem{Base: data}, v)
	x.bswap(maskX, v)
	x.xor(y, v)
	x.load(operand.Mem{Base: p}, h)
	t := x.first(h, v)
	c.ADDQ(operand.U8(16), data)
	c.ADDQ(operand.U8(16), p)
	c.DECQ(n)
	c.JZ(operand.LabelRef(name + "_reduce"))
	c.Label(name + "_one")
	x.load(operand.Mem{Base: data}, v)
	x.bswap(maskX, v)
	x.load(operand.Mem{Base: p}, h)
	x.add(t, h, v)
	c.ADDQ(operand.U8(16), data)
	c.ADDQ(operand.U8(16), p)
	c.DECQ(n)
	c.JNZ(operand.LabelRef(name + "_one"))
	c.Label(name + "_reduce")
	x.split(t)
	x.mov(x.reduce(t.lo, t.hi, poly), y)

	c.Label(name + "_done")
	x.bswap(maskX, y)
	x.store(y, operand.Mem{Base: yp})
}

// ghashPowers is the size of ghash.Key.powers.
const ghashPowers = 16

// widen returns the register of width lanes·16 bytes whose low lane is x.
func widen(x reg.Register, lanes int) reg.Register {
	if lanes == 2 {
		return x.(reg.Vec).AsY()
	}
	return x
}

// fold returns the xmm sum of the lanes of v.
func fold(v reg.Register, lanes int) reg.Register {
	if lanes == 4 {
		t := c.YMM()
		c.VEXTRACTI64X4(operand.U8(1), v, t)
		c.VPXOR(t, v.(reg.Vec).AsY(), t)
		v = t
		lanes = 2
	}
	if lanes == 2 {
		t := c.XMM()
		c.VEXTRACTI128(operand.U8(1), v, t)
		c.VPXOR(t, v.(reg.Vec).AsX(), t)
		return t
	}
	return v
}

// powersFunction emits ghashPowersCLMUL, which sets powers[i] to
// H^(16-i)·x⁻¹ for i = 14 down to 0 from powers[15] = H·x⁻¹, with SSE
// and PCLMULQDQ: each entry is the one after it times powers[15],
// multiplied and reduced as the functions above multiply a block.
func powersFunction() {
	c.Implement("ghashPowersCLMUL")
	c.Attributes(attr.NOSPLIT)
	c.Comment("ghashPowersCLMUL fills the key powers from H; generated by _asm/ghash.")
	x := emitter{sse}
	powers := c.Load(c.Param("powers"), c.GP64())
	poly := c.XMM()
	x.load(polyMask, poly)
	h := c.XMM()
	x.load(operand.Mem{Base: powers, Disp: 16 * (ghashPowers - 1)}, h)
	var a reg.Register = c.XMM()
	x.mov(h, a)
	for i := ghashPowers - 2; i >= 0; i-- {
		s := x.first(h, a)
		x.split(s)
		a = x.reduce(s.lo, s.hi, poly)
		x.store(a, operand.Mem{Base: powers, Disp: 16 * i})
	}
	c.RET()
}

// functionAVX512 emits the AVX-512 GHASH function. Its zmm accumulator A
// holds four running values, lane l those of the blocks whose index is l
// modulo 4, and each run of 16 blocks X0..X3 (zmm registers, four blocks
// each) but the last makes it
//
//	A' = A·H^16 + X0·H^12 + X1·H^8 + X2·H^4 + X3
//
// with the powers broadcast to all four lanes and held in registers for
// the whole call, and one reduction of all four lanes at once; Y then is
// A0·H^4 + A1·H^3 + A2·H^2 + A3·H. Y itself joins the first block of the
// first run, where A is still zero. Only A·H^16 and the reduction are on
// the chain from one run to the next, no fold across the lanes is, and X3
// needs no product: 14 carry-less multiplications a run, where hashing
// each run into Y, with the folds, took 18. On Zen 5 that is 1.3x over
// 8 KiB (BenchmarkGHASH, medians of 5 alternating runs); the reduction
// with shifts instead of its two multiplications measured 0.89x, its chain
// longer. The reduction does not split the middle sum into the low and
// high ones but cancels the low quadword into the middle sum and then the
// middle sum's low quadword into the high sum, which is the result.
//
// The last run, and every run of a message of fewer than avx512LaneRuns
// blocks, is hashed into Y as runs were before: each block with its own
// power, the sum folded across the lanes, and Y alone times H^16 in xmm
// registers, off the blocks' chain, then one reduction. The lanes save
// multiplications but add latency from Y in to Y out (A's reduction, then
// its fold into Y), which short messages and a string of short calls
// (GCM's associated data, ciphertext and lengths) wait on: with lanes
// from 32 blocks, 512 bytes took 1.3x as long.
func functionAVX512(name string) {
	c.Implement(name)
	c.Attributes(attr.NOSPLIT)
	c.Commentf("%s hashes n blocks, 16 per reduction; generated by _asm/ghash.", name)
	x := emitter{avx512} // xmm operations

	powers := c.Load(c.Param("powers"), c.GP64())
	yp := c.Load(c.Param("y"), c.GP64())
	data := c.Load(c.Param("data"), c.GP64())
	n := c.Load(c.Param("n"), c.GP64())

	mask := c.ZMM()
	c.VMOVDQU64(bswapMask, mask)
	maskX := mask.(reg.Vec).AsX()
	poly := c.XMM()
	x.load(polyMask, poly)
	y := c.XMM()
	x.load(operand.Mem{Base: yp}, y)
	x.bswap(maskX, y)

	c.CMPQ(n, operand.U32(16))
	c.JB(operand.LabelRef(name + "_tail"))
	c.CMPQ(n, operand.U32(avx512LaneRuns))
	c.JB(operand.LabelRef(name + "_last"))
	c.Comment("Runs of 16 blocks but the last, four running values in the lanes of a zmm register.")
	polyZ := c.ZMM()
	c.VBROADCASTI32X4(polyMask, polyZ)
	// power returns H^i broadcast to the four lanes, and for Karatsuba
	// its halves' XOR in both quadwords of each lane.
	power := func(i int) [2]reg.Register {
		h := c.ZMM()
		c.VBROADCASTI32X4(operand.Mem{Base: powers, Disp: 16 * (ghashPowers - i)}, h)
		return [2]reg.Register{h, karatsubaHalves(h)}
	}
	h16 := power(16)
	hk := [3][2]reg.Register{power(12), power(8), power(4)}
	acc := c.ZMM()
	// run emits A' from A (none in the first run, where y joins the first
	// block instead: its lanes 1 to 3 are zero, as a VEX write clears the
	// rest of the register).
	run := func(first bool) {
		var s sums
		for j := range 3 {
			v := c.ZMM()
			c.VMOVDQU64(operand.Mem{Base: data, Disp: 64 * j}, v)
			c.VPSHUFB(mask, v, v)
			if first && j == 0 {
				c.VPXORQ(y.(reg.Vec).AsZ(), v, v)
			}
			karatsuba(&s, hk[j], v, j == 0)
		}
		x3 := c.ZMM()
		c.VMOVDQU64(operand.Mem{Base: data, Disp: 64 * 3}, x3)
		c.VPSHUFB(mask, x3, x3)
		c.VPTERNLOGD(operand.U8(0x96), s.lo, s.hi, s.mid) // Karatsuba's middle sum
		c.VPXORQ(x3, s.hi, s.hi)
		if !first {
			// A·H^16, its own Karatsuba sums added in here.
			var a sums
			karatsuba(&a, h16, acc, true)
			c.VPXORQ(a.lo, s.lo, s.lo)
			c.VPXORQ(a.hi, s.hi, s.hi)
			c.VPXORQ(a.lo, a.hi, a.lo)
			c.VPTERNLOGD(operand.U8(0x96), a.mid, a.lo, s.mid)
		}
		reduce3(s, polyZ)
		c.VMOVDQU64(s.hi, acc)
		c.ADDQ(operand.U32(16*16), data)
		c.SUBQ(operand.U32(16), n)
	}
	run(true)
	c.CMPQ(n, operand.U32(32))
	c.JB(operand.LabelRef(name + "_fold"))
	c.Label(name + "_run")
	run(false)
	c.CMPQ(n, operand.U32(32))
	c.JAE(operand.LabelRef(name + "_run"))

	c.Label(name + "_fold")
	c.Comment("Y = A0·H^4 + A1·H^3 + A2·H^2 + A3·H.")
	h := c.ZMM()
	c.VMOVDQU64(operand.Mem{Base: powers, Disp: 16 * (ghashPowers - 4)}, h)
	var f sums
	karatsuba(&f, [2]reg.Register{h, karatsubaHalves(h)}, acc, true)
	x.mov(foldReduce(f, poly), y)

	c.Label(name + "_last")
	c.Comment("The last run, into Y with each block's own power.")
	var s sums
	for j := range 4 {
		v := c.ZMM()
		c.VMOVDQU64(operand.Mem{Base: data, Disp: 64 * j}, v)
		c.VPSHUFB(mask, v, v)
		h := c.ZMM()
		c.VMOVDQU64(operand.Mem{Base: powers, Disp: 64 * j}, h)
		karatsuba(&s, [2]reg.Register{h, karatsubaHalves(h)}, v, j == 0)
	}
	c.VPTERNLOGD(operand.U8(0x96), s.lo, s.hi, s.mid) // Karatsuba's middle sum
	lo, hi, mid := fold(s.lo, 4), fold(s.hi, 4), fold(s.mid, 4)
	h16x := c.XMM()
	x.load(operand.Mem{Base: powers}, h16x)
	t := x.first(h16x, y)
	x.xor(lo, t.lo)
	x.xor(hi, t.hi)
	x.xor(mid, t.mid)
	x.mov(reduce3(t, poly), y)
	c.ADDQ(operand.U32(16*16), data)
	c.SUBQ(operand.U32(16), n)
	c.CMPQ(n, operand.U32(16))
	c.JAE(operand.LabelRef(name + "_last"))

	tailAVX512(name, powers, yp, y, data, n, mask, poly)
	c.VZEROUPPER()
	c.RET()
}

// tailAVX512 is tail for functionAVX512: the blocks left over go through
// zmm registers with Karatsuba's three products, first the one to three
// beyond a multiple of four with a masked load (the lanes past them zero,
// their loads suppressed), then four at a time; all are summed, folded and
// reduced once. Y joins the first block. Only zmm (EVEX) instructions touch
// the sums, which the register allocator may put in Z16 to Z31. One to
// three blocks go through xmm registers instead: through zmm one or two
// took 1.2x and 1.1x as long (BenchmarkGHASH, 16 and 32 bytes), and three
// took a masked load whose 64 bytes reached 16 past the data, which costs
// a slow assist each time where that is a page not mapped in (the kernel
// generator's stretch.go); with four or more the masked load's 64 bytes
// are all data.
func tailAVX512(name string, powers, yp, y, data, n, mask, poly reg.Register) {
	x := emitter{avx512}
	maskX := mask.(reg.Vec).AsX()
	c.Label(name + "_tail")
	c.Comment("The blocks left over, as one run: up to three with a mask, then four at a time.")
	c.TESTQ(n, n)
	c.JZ(operand.LabelRef(name + "_done"))
	p := c.GP64()
	c.MOVQ(n, p)
	c.NEGQ(p)
	c.SHLQ(operand.U8(4), p)
	c.LEAQ(operand.Mem{Base: powers, Index: p, Scale: 1, Disp: 16 * ghashPowers}, p)
	c.CMPQ(n, operand.U8(4))
	c.JAE(operand.LabelRef(name + "_blocks"))
	// One to three blocks, as GCM's lengths block and short associated
	// data are: in xmm registers, whose path from Y in to Y out is the
	// shortest.
	vx, hx := c.XMM(), c.XMM()
	x.load(operand.Mem{Base: data}, vx)
	x.bswap(maskX, vx)
	x.xor(y, vx)
	x.load(operand.Mem{Base: p}, hx)
	t1 := x.first(hx, vx)
	c.CMPQ(n, operand.U8(1))
	c.JE(operand.LabelRef(name + "_reduce1"))
	for i := 1; i < 3; i++ {
		x.load(operand.Mem{Base: data, Disp: 16 * i}, vx)
		x.bswap(maskX, vx)
		x.load(operand.Mem{Base: p, Disp: 16 * i}, hx)
		x.add(t1, hx, vx)
		if i == 1 {
			c.CMPQ(n, operand.U8(2))
			c.JE(operand.LabelRef(name + "_reduce1"))
		}
	}
	c.Label(name + "_reduce1")
	x.mov(reduce3(t1, poly), y)
	c.JMP(operand.LabelRef(name + "_done"))

	c.Label(name + "_blocks")
	pend := c.ZMM()
	c.VMOVDQU64(y.(reg.Vec).AsZ(), pend) // lanes 1 to 3 are zero: a VEX write clears the rest
	s := sums{lo: c.ZMM(), hi: c.ZMM(), mid: c.ZMM()}
	for _, r := range []reg.Register{s.lo, s.hi, s.mid} {
		c.VPXORQ(r, r, r)
	}
	// block adds the product of the blocks at data and the powers at p,
	// four or those k selects, to the sums.
	block := func(k reg.Register) {
		v, h := c.ZMM(), c.ZMM()
		if k == nil {
			c.VMOVDQU64(operand.Mem{Base: data}, v)
			c.VMOVDQU64(operand.Mem{Base: p}, h)
		} else {
			c.VMOVDQU64_Z(operand.Mem{Base: data}, k, v)
			c.VMOVDQU64_Z(operand.Mem{Base: p}, k, h)
		}
		c.VPSHUFB(mask, v, v)
		c.VPXORQ(pend, v, v)
		c.VPXORQ(pend, pend, pend)
		karatsuba(&s, [2]reg.Register{h, karatsubaHalves(h)}, v, false)
	}
	r := c.GP64()
	c.MOVQ(n, r)
	c.ANDQ(operand.U8(3), r)
	c.JZ(operand.LabelRef(name + "_four"))
	k := c.K()
	masks := c.GP64()
	c.LEAQ(tailMasks, masks)
	c.KMOVW(operand.Mem{Base: masks, Index: r, Scale: 2}, k)
	block(k)
	c.SUBQ(r, n)
	c.SHLQ(operand.U8(4), r)
	c.ADDQ(r, data)
	c.ADDQ(r, p)
	c.Label(name + "_four")
	c.TESTQ(n, n)
	c.JZ(operand.LabelRef(name + "_tailfold"))
	block(nil)
	c.ADDQ(operand.U8(64), data)
	c.ADDQ(operand.U8(64), p)
	c.SUBQ(operand.U8(4), n)
	c.JMP(operand.LabelRef(name + "_four"))

	c.Label(name + "_tailfold")
	c.VPTERNLOGD(operand.U8(0x96), s.lo, s.hi, s.mid) // Karatsuba's middle sum
	polyZ := c.ZMM()
	c.VBROADCASTI32X4(polyMask, polyZ)
	t := reduce3(sums{lo: foldZ(s.lo), hi: foldZ(s.hi), mid: foldZ(s.mid)}, polyZ)
	c.VMOVDQU64(t, y.(reg.Vec).AsZ())

	c.Label(name + "_done")
	x.bswap(maskX, y)
	x.store(y, operand.Mem{Base: yp})
}

// foldZ returns a zmm register whose low lane is the sum of the lanes of
// v, with AVX-512 instructions only (any of the 32 registers).
func foldZ(v reg.Register) reg.Register {
	t, u := c.ZMM(), c.ZMM()
	c.VEXTRACTI64X4(operand.U8(1), v, t.(reg.Vec).AsY())
	c.VPXORQ(v, t, t)
	c.VEXTRACTI32X4(operand.U8(1), t, u.(reg.Vec).AsX())
	c.VPXORQ(t, u, u)
	return u
}

// karatsubaHalves returns, for a power h, the XOR of its quadwords in both
// quadwords of each lane, the multiplier of Karatsuba's middle product.
func karatsubaHalves(h reg.Register) reg.Register {
	hs := c.ZMM()
	c.VPSHUFD(operand.U8(0x4E), h, hs)
	c.VPXORQ(h, hs, hs)
	return hs
}

// karatsuba adds the product of the zmm register x and the power h (h[1]
// its karatsubaHalves) to the sums with three products, not four: the
// middle sum gets (x.lo^x.hi)·(h.lo^h.hi), which is the middle product
// plus the low and high ones, so the caller adds the low and high sums
// into it once, at the end. x is read, not written.
func karatsuba(s *sums, h [2]reg.Register, x reg.Register, first bool) {
	lo, hi := e512.clmul(0x00, h[0], x), e512.clmul(0x11, h[0], x)
	xs := c.ZMM()
	c.VPSHUFD(operand.U8(0x4E), x, xs)
	c.VPXORQ(x, xs, xs)
	c.VPCLMULQDQ(operand.U8(0x00), h[1], xs, xs)
	if first {
		*s = sums{lo: lo, hi: hi, mid: xs}
		return
	}
	c.VPXORQ(lo, s.lo, s.lo)
	c.VPXORQ(hi, s.hi, s.hi)
	c.VPXORQ(xs, s.mid, s.mid)
}

// foldReduce returns in an xmm register the field element that is the sum
// of the lanes of the Karatsuba sums s, reduced.
func foldReduce(s sums, poly reg.Register) reg.Register {
	c.VPTERNLOGD(operand.U8(0x96), s.lo, s.hi, s.mid) // Karatsuba's middle sum
	lo, hi, mid := fold(s.lo, 4), fold(s.hi, 4), fold(s.mid, 4)
	return reduce3(sums{lo: lo, hi: hi, mid: mid}, poly)
}

// avx512LaneRuns is the fewest blocks that functionAVX512 hashes with the
// running values in lanes; shorter messages go run by run into Y.
const avx512LaneRuns = 64

// e512 emits in the AVX-512 encodings.
var e512 = emitter{avx512}

// reduce3 returns, in s.hi, the field element whose reflection is the
// 256-bit s.hi·2^128 + s.mid·2^64 + s.lo, lane by lane (s.mid is the
// unsplit middle sum; poly holds the reduction constant in every lane):
// the low quadword q of s.lo is cancelled by adding q·P, q·0xC2<<56 into
// s.mid and q itself, with the rest of s.lo, swapped into it; then the
// same with s.mid's low quadword into s.hi.
func reduce3(s sums, poly reg.Register) reg.Register {
	for _, p := range [][2]reg.Register{{s.lo, s.mid}, {s.mid, s.hi}} {
		t := e512.clmul(0x00, poly, p[0])
		c.VPSHUFD(operand.U8(0x4E), p[0], p[0])
		if p[1].Size() == 64 {
			c.VPTERNLOGD(operand.U8(0x96), t, p[0], p[1])
		} else { // VPTERNLOGD on xmm would need AVX512VL
			c.VPXOR(t, p[1], p[1])
			c.VPXOR(p[0], p[1], p[1])
		}
	}
	return s.hi
}
