package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// A stretch is the part of a run whose loads and stores are masked, the
// last group of a 64-block kernel, a word kernel's pass or a 4-block
// kernel's four: count blocks (or bytes, where blocks is false) from
// displacement start of the source and destination registers, in
// registers of 64 bytes.
//
// Its loads and stores never reach into a page past the run. A masked
// access touches no memory where its mask is clear, but where those bytes
// lie in a page that is not mapped in (fresh memory from the heap or mmap,
// never written; a guard page), Zen 5 takes a slow assist for it each
// time: 1200 bytes ending at such a page took 5.05 µs in ECB and 7.1 µs in
// CBC decryption, against 0.57 and 0.58 with the page mapped, when every
// register of the group was loaded and stored with its mask; 0.89 and 0.91
// µs with the registers past the run left alone, 0.57 and 0.58 with the
// partial one too (go test -run '^$' -bench PageEnd .). So a register past
// the run is neither loaded nor stored (holds), a whole one is loaded and
// stored as it is, and the partial one, the run's last, takes masked
// accesses where its 64 bytes lie in one page (nearOrFar) and otherwise the
// 64 bytes that end where the run does, its bytes moved into place with a
// VPERMB, the other way for the store, whose byte mask writes only the
// run's bytes. Those 64 bytes lie in the run's last page, or in its last
// two where it spans them: in a run shorter than a register, whose
// register's 64 bytes cross into the next page, the bytes before the run
// that they take are in its first page, a register's length from its end.
//
// A stretch counted in bytes whose loads read the ciphertext block before
// each block (CFB decryption's) takes its count rounded up to whole blocks
// (rounded): the block before a partial last one is whole, and the 64
// bytes that end with it end a block before the rounded count.
type stretch struct {
	count           reg.Register
	blocks, rounded bool
	start           int
}

// per is what a register holds, in the stretch's count.
func (s stretch) per() int {
	if s.blocks {
		return 4
	}
	return 64
}

// holds emits access only where register r has a block or a byte of the
// stretch, behind a branch on the public count: count > per·r. Register 0
// needs no test, count being at least 1.
func (s stretch) holds(r int, access func()) {
	if r == 0 {
		access()
		return
	}
	labels++
	skip := fmt.Sprintf("tailnone%d", labels)
	c.CMPQ(s.count, operand.U32(s.per()*r))
	c.JBE(operand.LabelRef(skip))
	access()
	c.Label(skip)
}

// split emits whole where register r is whole and partial where it is the
// run's last and partial; it must hold something.
func (s stretch) split(r int, whole, partial func()) {
	from := s.per() * (r + 1)
	if s.rounded {
		from -= 15
	}
	choose(func() { c.CMPQ(s.count, operand.U32(from)) }, c.JB, whole, partial)
}

// nearOrFar emits near where the 64 bytes at at lie in one page, far
// where they cross into the next: a masked access within the page of a
// run's byte touches only mapped memory, and takes no more time.
func nearOrFar(at operand.Mem, near, far func()) {
	choose(func() {
		p := c.GP64()
		c.LEAQ(at, p)
		c.ANDQ(operand.U32(4095), p)
		c.CMPQ(p, operand.U32(4096-64))
	}, c.JA, near, far)
}

// choose emits test, then first where jump (a conditional jump) does not
// jump on the flags that test leaves and other where it does.
func choose(test func(), jump func(operand.Op), first, other func()) {
	labels++
	alt, done := fmt.Sprintf("tailalt%d", labels), fmt.Sprintf("taildone%d", labels)
	test()
	jump(operand.LabelRef(alt))
	first()
	c.JMP(operand.LabelRef(done))
	c.Label(alt)
	other()
	c.Label(done)
}

// labels numbers the stretches' labels.
var labels int

// bytes returns the stretch's count in bytes in a new register.
func (s stretch) bytes() reg.GPVirtual {
	b := c.GP64()
	c.MOVQ(s.count, b)
	switch {
	case s.blocks:
		c.SHLQ(operand.U8(4), b)
	case s.rounded:
		c.ADDQ(operand.U8(15), b)
		c.ANDQ(operand.I8(-16), b)
	}
	return b
}

// end returns where the 64 bytes that end with the run begin, less off:
// base + start + bytes - 64 is Disp start + off - 64 of the register it
// returns.
func (s stretch) end(base reg.Register, off int) operand.Mem {
	p := s.bytes()
	c.ADDQ(base, p)
	return operand.Mem{Base: p, Disp: s.start + off - 64}
}

// gap returns, for register r the partial last, s = 64(r+1) - bytes: how
// far its footprint reaches past the run, 1 to 63.
func (s stretch) gap(r int) reg.GPVirtual {
	g := s.bytes()
	c.NEGQ(g)
	c.ADDQ(operand.U32(64*(r+1)), g)
	return g
}

// rotation returns the VPERMB index that takes byte (i + by) mod 64 to
// byte i.
func rotation(by reg.GPVirtual) zmm {
	idx := c.ZMM()
	c.VPBROADCASTB(by.As32(), idx)
	c.VPADDB(iota64, idx, idx)
	return idx
}

// load returns register r of the stretch, the 64 bytes at base + start +
// 64r + off, with the bytes or 32-bit words outside mask's zero (none past
// the run are read); zeros where r has nothing.
func (s stretch) load(base reg.Register, r, off int, mask func() reg.OpmaskVirtual, byteMask bool) zmm {
	x := c.ZMM()
	zero(x)
	at := operand.Mem{Base: base, Disp: s.start + 64*r + off}
	move := func(src operand.Op) {
		if byteMask {
			c.VMOVDQU8_Z(src, mask(), x)
		} else {
			c.VMOVDQU32_Z(src, mask(), x)
		}
	}
	s.holds(r, func() {
		s.split(r, func() { c.VMOVDQU64(at, x) }, func() {
			nearOrFar(at, func() { move(at) }, func() {
				t := c.ZMM()
				c.VMOVDQU64(s.end(base, off), t)
				c.VPERMB(t, rotation(s.gap(r)), t)
				move(t)
			})
		})
	})
	return x
}

// store stores x, register r of the stretch, to base + start + 64r: the
// bytes or 32-bit words in mask, and none past the run.
func (s stretch) store(x zmm, base reg.Register, r int, mask func() reg.OpmaskVirtual, byteMask bool) {
	at := operand.Mem{Base: base, Disp: s.start + 64*r}
	s.holds(r, func() {
		s.split(r, func() { c.VMOVDQU64(x, at) }, func() {
			masked := func() {
				if byteMask {
					c.VMOVDQU8(x, mask(), at)
				} else {
					c.VMOVDQU32(x, mask(), at)
				}
			}
			nearOrFar(at, masked, func() { s.storeEnd(x, base, r) })
		})
	})
}

// storeEnd stores the run's bytes of x, register r the partial last, with
// the 64 bytes that end with the run.
func (s stretch) storeEnd(x zmm, base reg.Register, r int) {
	// Byte j of the 64 that end with the run is byte j - gap of x, for
	// j ≥ gap: the run's bytes of register r.
	gap := s.gap(r)
	back := c.GP64()
	c.MOVQ(operand.U32(64), back)
	c.SUBQ(gap, back)
	t := c.ZMM()
	c.VPERMB(x, rotation(back), t)
	c.MOVQ(gap, reg.RCX)
	m := c.GP64()
	c.MOVQ(operand.I32(-1), m)
	c.SHLQ(reg.CL, m)
	k := c.K()
	c.KMOVQ(m, k)
	c.VMOVDQU8(t, k, s.end(base, 0))
}
