// Command scalar generates internal/kernel/scalar_amd64.s, the 1-way and 3-way x86-64
// Twofish kernels, with avo. Run it through go generate in the package
// directory:
//
//	go run -C ../../_asm/scalar . -out ../../internal/kernel/scalar_amd64.s -pkg kernel
//
// Each kernel is written once, parameterised by the number of lanes (blocks
// in flight) and the direction; Go loops below interleave the lanes' rounds
// into one instruction stream, so that an out-of-order core overlaps the
// independent blocks' table look-ups. The kernels take two pointers, to the
// types of key.go: the Tables, the four MDS·S-box tables s[0..3] at offsets
// 0, 1024, 2048 and 3072, and the Schedule, whose first 160 bytes are the 40
// subkeys k. A Cipher may hold the two apart (cipher.go).
//
// The chain kernels (chain.go) run the serial modes with the 1-way
// kernels' half-rounds, a whole run of blocks a call.
//
// The generator refuses BP: a kernel that writes BP breaks frame-pointer
// unwinding (profilers, debuggers, tracers) while it runs, so the build
// fails if avo's register allocator ever picks it.
package main

import (
	"fmt"
	"strings"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/twofish-go/twofish/_asm/internal/asmgen"
	"github.com/twofish-go/twofish/_asm/internal/serial"
)

var c = build.NewContext()

func main() {
	asmgen.Main(c, "scalar", "github.com/twofish-go/twofish/internal/kernel", func() {
		for _, lanes := range []int{1, 3} {
			for _, dec := range []bool{false, true} {
				kernel(lanes, dec)
			}
		}
		for _, m := range serial.Modes {
			chainKernel(m)
		}
	})
}

// keys is where a kernel finds its key material: the register that holds
// the tables' address, and the subkeys, at their address in a register or
// copied into the frame.
type keys struct {
	t reg.Register
	k operand.Mem
}

// table returns the memory operand s[j][i] for the index register i.
func (ks keys) table(j int, i reg.Register) operand.Mem {
	return operand.Mem{Base: ks.t, Index: i, Scale: 4, Disp: 1024 * j}
}

// subkey returns the memory operand k[n].
func (ks keys) subkey(n int) operand.Mem { return ks.k.Offset(4 * n) }

// gpr is a general-purpose register, physical or virtual.
type gpr interface {
	reg.Register
	reg.GP
}

// step is one short run of instructions of one lane. The lanes' steps are
// emitted round-robin: step k of every lane, then step k+1.
type step func()

func interleave(lanes [][]step) {
	for k := range lanes[0] {
		for _, l := range lanes {
			l[k]()
		}
	}
}

// lane is the state of one block between half-rounds. Twofish's round
// function reads two words (the active pair) and updates the other two (the
// passive pair); the next half-round swaps the roles.
//
// With one lane there are registers to spare, and the code is built for
// latency, since one block's rounds leave an out-of-order core little to
// overlap (its scheduler fills with the rounds that wait for the current
// one, so even independent blocks hardly overlap): the four words stay in
// AX, BX, CX and DX, whose second bytes (AH, BH, CH, DH) a MOVBLZX reads
// without a shift, the g function reads the active pair without destroying
// it, and the sums after it take the subkeys first (see halfRound). That
// makes a half-round 12 cycles from one active pair to the next on Zen 5,
// against about 14 for the portable code.
//
// With three lanes the 14 usable registers hold only the active pairs and
// the g function's sums, and the code is built for throughput: the passive
// pair waits in one of two 8-byte stack slots, which the half-rounds take
// in turn, and the g function shifts the active words apart once they are
// in their slot.
type lane struct {
	x, y    gpr           // the active pair (AX..DX with one lane)
	passive [2]operand.Op // where the passive pair is
	slots   [2]operand.Mem
	inMem   bool
	// skew is how many cycles after y x is ready, from a model of the
	// critical path: the word whose update ends in a rotation right comes
	// one instruction later.
	skew int
	// hi are the byte-index registers for the second bytes of x and y:
	// SI and DI, which an instruction that reads AH..DH may name.
	hi [2]gpr
	// bmi, in the BMI1/BMI2 body of the 1-way kernels, holds the operands
	// that read bytes 2 and 3 of a word in one instruction each: the BEXTR
	// control that selects byte 2, and the SHRX count 24.
	bmi *[2]gpr
}

// halfRound emits one Feistel round for every lane, interleaved. The g
// function of the active words x and rol(y, 8) gives t0 and t1; with the
// subkeys K0 = k[k0], K1 = k[k0+1] the passive words p0 and p1 become
//
//	encryption: p0 = ror(p0 ^ (t0+t1+K0), 1), p1 = rol(p1, 1) ^ (t0+2*t1+K1)
//	decryption: p0 = rol(p0, 1) ^ (t0+t1+K0), p1 = ror(p1 ^ (t0+2*t1+K1), 1)
//
// and are the next active pair. s is the memory slot that takes the current
// active pair. ro is nil, or in a rolled loop the stack slot that holds the
// byte offset of this iteration's subkeys from k[k0].
func halfRound(ks keys, ls []*lane, k0 int, dec bool, s int, ro operand.Op) {
	steps := make([][]step, len(ls))
	// The subkeys' offset, loaded by lane 0 for all.
	var o reg.GPVirtual
	if ro != nil {
		o = c.GP64()
	}
	for li, l := range ls {
		old := l.passive
		t0, t1 := c.GP32(), c.GP32()
		var ss []step
		if l.inMem {
			x, y, m := l.x, l.y, l.slots[s]
			l.passive = [2]operand.Op{m, m.Offset(4)}
			ss = append(ss, func() { c.MOVL(x, m); c.MOVL(y, m.Offset(4)) })
		} else {
			l.passive = [2]operand.Op{l.x, l.y}
		}
		// Byte j of x goes through table j; byte j of y through table j+1,
		// which is g(rol(y, 8)).
		ws, ts := [2]gpr{l.x, l.y}, [2]gpr{t0, t1}
		order := []int{0, 1, 2, 3}
		if !l.inMem {
			order = []int{0, 1, 23} // bytes 2 and 3 together: see look23
		}
		for _, j := range order {
			for k := range 2 {
				if j == 23 {
					ss = append(ss, l.look23(ks, ws[k], ts[k], (2+k)%4, (3+k)%4))
					continue
				}
				ss = append(ss, l.look(ks, ws[k], ts[k], l.hi[k], j, (j+k)%4))
			}
		}

		// The pseudo-Hadamard transform and the subkeys:
		// f0 = t0+t1+K0, u = t0+2*t1+K1.
		var f0, u gpr
		if l.inMem {
			// With no registers to spare, the sums use the subkeys from
			// memory. The one of t0 and t1 that is ready first goes in
			// first (see lane.skew), for one more instruction.
			f0, u = t0, c.GP32()
			// In a rolled loop, ro holds the subkeys' offset.
			sk := ks.subkey
			if ro != nil {
				sk = func(n int) operand.Mem { m := ks.subkey(n); m.Index, m.Scale = o, 1; return m }
			}
			pht := len(ss)
			switch {
			case l.skew == 0:
				ss = append(ss,
					func() {
						c.LEAL(operand.Mem{Base: t0.As64(), Index: t1.As64(), Scale: 2}, u)
						c.ADDL(t1, t0)
					},
					func() {
						c.ADDL(sk(k0+1), u)
						c.ADDL(sk(k0), t0)
					},
				)
			case l.skew > 0: // t1 first: f0 one instruction after t0
				f0 = t1
				ss = append(ss,
					func() {
						c.LEAL(operand.Mem{Base: t1.As64(), Index: t1.As64(), Scale: 1}, u)
						c.ADDL(sk(k0), t1)
					},
					func() {
						c.ADDL(sk(k0+1), u)
						c.ADDL(t0, t1)
						c.ADDL(t0, u)
					},
				)
			default: // t0 first: f0 and u one instruction after t1
				ss = append(ss,
					func() {
						c.MOVL(t0, u)
						c.ADDL(sk(k0+1), u)
						c.ADDL(sk(k0), t0)
					},
					func() {
						c.ADDL(t1, t0)
						c.LEAL(operand.Mem{Base: u.As64(), Index: t1.As64(), Scale: 2}, u)
					},
				)
			}
			if o != nil && li == 0 {
				first := ss[pht]
				ss[pht] = func() { c.MOVQ(ro, o); first() }
			}
			l.skew = nextSkew(l.skew, dec)
		} else {
			// Shortest path. The word that the last half-round rotated
			// right is ready one instruction after the other, and so is
			// its sum from the g function: t0 in encryption, t1 in
			// decryption. The sums start from the subkeys, loaded ahead of
			// time, and take in the earlier of t0 and t1 first, so that
			// the later needs one instruction instead of two.
			f0, u = c.GP32(), c.GP32()
			first := ss[0]
			ss[0] = func() {
				c.MOVL(ks.subkey(k0), f0)
				c.MOVL(ks.subkey(k0+1), u)
				first()
			}
			add1 := func() { c.ADDL(t1, f0); c.LEAL(operand.Mem{Base: u.As64(), Index: t1.As64(), Scale: 2}, u) }
			add0 := func() { c.ADDL(t0, f0); c.ADDL(t0, u) }
			if dec {
				add0, add1 = add1, add0
			}
			ss = append(ss, add1, add0)
		}

		// The updates: xorRor(p, f) = ror(p ^ f, 1), rolXor(p, f) =
		// rol(p, 1) ^ f. A passive word in a register is updated in place;
		// one in memory is read into f's register or a fresh one.
		xorRor := func(p operand.Op, f gpr) (gpr, step) {
			if r, ok := p.(gpr); ok {
				return r, func() { c.XORL(f, r); c.RORL(operand.Imm(1), r) }
			}
			return f, func() { c.XORL(p, f); c.RORL(operand.Imm(1), f) }
		}
		rolXor := func(p operand.Op, f gpr) (gpr, step) {
			if r, ok := p.(gpr); ok {
				return r, func() { c.ROLL(operand.Imm(1), r); c.XORL(f, r) }
			}
			v := c.GP32()
			return v, func() { c.MOVL(p, v); c.ROLL(operand.Imm(1), v); c.XORL(f, v) }
		}
		var s0, s1 step
		if !dec {
			l.x, s0 = xorRor(old[0], f0)
			l.y, s1 = rolXor(old[1], u)
		} else {
			l.x, s0 = rolXor(old[0], f0)
			l.y, s1 = xorRor(old[1], u)
		}
		steps[li] = append(ss, s1, s0)
	}
	interleave(steps)
}

// look emits the table look-up of byte j of w through table tab into the
// accumulator t: the first (j = 0) loads t, the others XOR into it.
func (l *lane) look(ks keys, w, t, hi gpr, j, tab int) step {
	load := func(i reg.Register) {
		m := ks.table(tab, i.(gpr).As64())
		if j == 0 {
			c.MOVL(m, t)
		} else {
			c.XORL(m, t)
		}
	}
	if l.inMem {
		// Shift w apart, in order: its value is safe in the slot. After
		// three shifts only the top byte is left.
		return func() {
			if j > 0 {
				c.SHRL(operand.Imm(8), w)
			}
			if j == 3 {
				load(w)
				return
			}
			i := c.GP32()
			c.MOVBLZX(w.As8(), i)
			load(i)
		}
	}
	// Read bytes 0 and 1 of w without changing it.
	return func() {
		var i gpr = hi
		if j == 0 {
			i = c.GP32()
			c.MOVBLZX(w.As8L(), i)
		} else {
			c.MOVBLZX(w.As8H(), i)
		}
		load(i)
	}
}

// look23 emits the look-ups of bytes 2 and 3 of w, through tables tab2
// and tab3, into t, from one copy of w shifted right by 16: byte 3 is ready
// one instruction after byte 2, as soon as the accumulator needs it.
func (l *lane) look23(ks keys, w, t gpr, tab2, tab3 int) step {
	if l.bmi != nil {
		// Two instructions fewer, and byte 3 one cycle earlier. Fewer
		// instructions per round let the out-of-order core start more of
		// the next block while this one's rounds wait on each other.
		return func() {
			i, j := c.GP32(), c.GP32()
			c.BEXTRL(l.bmi[0], w, j)
			c.XORL(ks.table(tab2, j.As64()), t)
			c.SHRXL(l.bmi[1], w, i)
			c.XORL(ks.table(tab3, i.As64()), t)
		}
	}
	return func() {
		i, j := c.GP32(), c.GP32()
		c.MOVL(w, i)
		c.SHRL(operand.Imm(16), i)
		c.MOVBLZX(i.As8(), j)
		c.XORL(ks.table(tab2, j.As64()), t)
		c.SHRL(operand.Imm(8), i)
		c.XORL(ks.table(tab3, i.As64()), t)
	}
}

// kernel emits encryptBlocks<lanes>x or decryptBlocks<lanes>x: n groups of
// lanes blocks from src to dst.
//
// The 1-way kernels have a second body for CPUs with BMI1 and BMI2,
// encryptBlocks1xBMI and decryptBlocks1xBMI, which internal/cpu chooses.
func kernel(lanes int, dec bool) {
	emit := func(bmi, single bool) {
		name, dir := fmt.Sprintf("encryptBlocks%dx", lanes), "encrypts"
		if dec {
			name, dir = fmt.Sprintf("decryptBlocks%dx", lanes), "decrypts"
		}
		unit := fmt.Sprintf("n groups of %d blocks", lanes)
		if single {
			name, unit = strings.Replace(name, "Blocks", "Block", 1), "one block"
		}
		if bmi {
			name += "BMI"
		}
		c.Implement(name)
		c.Attributes(attr.NOSPLIT)
		c.Commentf("%s %s %s; generated by _asm/scalar.", name, dir, unit)
		body(lanes, dec, bmi, single)
	}
	emit(false, false)
	if lanes == 1 {
		emit(true, false)
		emit(false, true)
		emit(true, true)
	}
}

// body emits one body of a kernel, from loading its arguments to RET; bmi
// selects the 1-way body that reads bytes with BEXTR and SHRX, and single
// the 1-way entry of one block, which has no count and no loop: the entry
// of Encrypt and Decrypt.
func body(lanes int, dec, bmi, single bool) {
	// Whitening words: input active/passive pair, output passive/active.
	inA, inP, outP, outA := 0, 2, 4, 6
	if dec {
		inA, inP, outP, outA = 4, 6, 0, 2
	}
	label := func(l string) string {
		if bmi {
			return l + "BMI"
		}
		return l
	}

	ks := keys{t: c.GP64()}
	c.Load(c.Param("t"), ks.t)
	k := c.Load(c.Param("ks"), c.GP64())

	inMem := lanes > 1
	ls := make([]*lane, lanes)
	// The pointers and count live in registers when there are enough,
	// else in the frame.
	var src, dst, n operand.Op
	var locals operand.Mem
	if inMem {
		// With no register for their address either, the subkeys are
		// copied into the frame, 10 loads and stores a call.
		locals = c.AllocLocal(24 + 16*lanes + 8 + 160)
		src, dst, n = locals, locals.Offset(8), locals.Offset(16)
		for i := range ls {
			m := locals.Offset(24 + 16*i)
			ls[i] = &lane{inMem: true, slots: [2]operand.Mem{m, m.Offset(8)}}
		}
		ks.k = locals.Offset(24 + 16*lanes + 8)
		x := c.XMM()
		for i := 0; i < 160; i += 16 {
			c.MOVUPS(operand.Mem{Base: k, Disp: i}, x)
			c.MOVUPS(x, ks.k.Offset(i))
		}
		t := c.GP64()
		c.Load(c.Param("n"), t)
		c.TESTQ(t, t)
		c.JZ(operand.LabelRef("done"))
		c.MOVQ(t, n)
		c.Load(c.Param("src"), t)
		c.MOVQ(t, src)
		c.Load(c.Param("dst"), t)
		c.MOVQ(t, dst)
	} else {
		// The subkeys' address and, in the BMI body, the BEXTR control
		// and SHRX count take the registers of src, dst and n, which stay
		// in their argument slots.
		ks.k = operand.Mem{Base: k}
		src, dst, n = operand.NewParamAddr("src", 24), operand.NewParamAddr("dst", 16), operand.NewParamAddr("n", 32)
		ls[0] = &lane{hi: [2]gpr{reg.ESI, reg.EDI}}
		if bmi {
			ops := [2]gpr{c.GP32(), c.GP32()}
			c.MOVL(operand.U32(0x0810), ops[0]) // 8 bits from bit 16
			c.MOVL(operand.U32(24), ops[1])
			ls[0].bmi = &ops
		}
		if !single {
			c.CMPQ(n, operand.Imm(0))
			c.JE(operand.LabelRef(label("done")))
		}
	}

	if !single {
		c.Label(label("loop"))
	}
	ptr := func(p operand.Op) reg.Register {
		if r, ok := p.(reg.Register); ok {
			return r
		}
		r := c.GP64()
		c.MOVQ(p, r)
		return r
	}

	// Load and whiten: words 0, 1 are the first active pair, 2, 3 the
	// passive pair.
	in := ptr(src)
	for i, l := range ls {
		b := operand.Mem{Base: in, Disp: 16 * i}
		if l.inMem {
			l.x, l.y = c.GP32(), c.GP32()
		} else {
			l.x, l.y = reg.EAX, reg.EBX
		}
		c.MOVL(b, l.x)
		c.XORL(ks.subkey(inA), l.x)
		c.MOVL(b.Offset(4), l.y)
		c.XORL(ks.subkey(inA+1), l.y)
		if l.inMem {
			t := c.GP64()
			c.MOVQ(b.Offset(8), t)
			c.XORQ(ks.subkey(inP), t)
			c.MOVQ(t, l.slots[1])
			l.passive = [2]operand.Op{l.slots[1], l.slots[1].Offset(4)}
		} else {
			p0, p1 := reg.ECX, reg.EDX
			c.MOVL(b.Offset(8), p0)
			c.XORL(ks.subkey(inP), p0)
			c.MOVL(b.Offset(12), p1)
			c.XORL(ks.subkey(inP+1), p1)
			l.passive = [2]operand.Op{p0, p1}
		}
	}

	if !inMem {
		for h := range 16 {
			k0 := 8 + 2*h
			if dec {
				k0 = 38 - 2*h
			}
			halfRound(ks, ls, k0, dec, h%2, nil)
		}
	} else {
		// Three lanes' 16 half-rounds unrolled would be 7 KB of code; a
		// loop over two half-rounds is 1.2 KB and as fast (on Zen 5). The
		// subkeys' offset lives in the frame: there is no register for it.
		ro := locals.Offset(24 + 16*lanes)
		kstep := 16 // bytes of subkeys per turn
		k0, k1 := 8, 10
		if dec {
			kstep, k0, k1 = -16, 38, 36
		}
		// Emit the loop body for the skews it has from its second turn on.
		for _, l := range ls {
			for range 2 {
				l.skew = nextSkew(l.skew, dec)
			}
		}
		c.MOVQ(operand.I32(0), ro)
		c.Label("rounds")
		top := make([][2]gpr, len(ls))
		for i, l := range ls {
			top[i] = [2]gpr{l.x, l.y}
		}
		halfRound(ks, ls, k0, dec, 0, ro)
		halfRound(ks, ls, k1, dec, 1, ro)
		// The next turn reads the active pairs where this one did.
		for i, l := range ls {
			c.MOVL(l.x, top[i][0])
			c.MOVL(l.y, top[i][1])
			l.x, l.y = top[i][0], top[i][1]
		}
		c.ADDQ(operand.I8(int8(kstep)), ro)
		c.CMPQ(ro, operand.I32(int32(8*kstep)))
		c.JNE(operand.LabelRef("rounds"))
	}

	// Whiten and store: the passive pair is words 0, 1 of the output, the
	// active pair words 2, 3.
	out := ptr(dst)
	for i, l := range ls {
		b := operand.Mem{Base: out, Disp: 16 * i}
		if l.inMem {
			t := c.GP64()
			c.MOVQ(l.passive[0], t)
			c.XORQ(ks.subkey(outP), t)
			c.MOVQ(t, b)
		} else {
			for w := range 2 {
				p := l.passive[w].(reg.Register)
				c.XORL(ks.subkey(outP+w), p)
				c.MOVL(p, b.Offset(4*w))
			}
		}
		c.XORL(ks.subkey(outA), l.x)
		c.MOVL(l.x, b.Offset(8))
		c.XORL(ks.subkey(outA+1), l.y)
		c.MOVL(l.y, b.Offset(12))
	}

	if single {
		c.RET()
		return
	}
	// The last group leaves before the pointers move: a single block, the
	// common call, pays one decrement and one branch.
	c.DECQ(n)
	c.JZ(operand.LabelRef(label("done")))
	stride := operand.Imm(uint64(16 * lanes))
	c.ADDQ(stride, src)
	c.ADDQ(stride, dst)
	c.JMP(operand.LabelRef(label("loop")))

	c.Label(label("done"))
	c.RET()
}

// nextSkew returns the skew of a lane after a half-round of the three-lane
// kernels: the cycles from the later of t0 and t1 to f0 and u, then to the
// next active pair.
func nextSkew(skew int, dec bool) int {
	df, du := 2, 2
	switch {
	case skew > 0:
		df, du = 1, 2
	case skew < 0:
		df, du = 1, 1
	}
	dx, dy := df+2, du+1 // xorRor, rolXor
	if dec {
		dx, dy = df+1, du+2
	}
	return dx - dy
}
