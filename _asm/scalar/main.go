// Command scalar generates internal/kernel/scalar_amd64.s, the 1-way and 3-way x86-64
// Twofish kernels, with avo. Run it through go generate in the package
// directory:
//
//	go run -C ../../_asm/scalar . -out ../../internal/kernel/scalar_amd64.s -pkg kernel
//
// The 1-way kernels (this file) are built for a block's latency, the 3-way
// ones (threeway.go) for throughput: three blocks' rounds in one
// instruction stream, so that an out-of-order core overlaps their table
// look-ups. The kernels take two pointers, to the
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
		for _, dec := range []bool{false, true} {
			kernel(dec)
		}
		for _, dec := range []bool{false, true} {
			threeWay(dec)
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

// step is one short run of instructions of one block. The blocks' steps
// are emitted round-robin: step k of every block, then step k+1.
type step func()

func interleave(blocks [][]step) {
	for k := range blocks[0] {
		for _, b := range blocks {
			b[k]()
		}
	}
}

// lane is the state of the 1-way kernels' block between half-rounds.
// Twofish's round function reads two words (the active pair) and updates
// the other two (the passive pair); the next half-round swaps the roles.
//
// The code is built for latency, since one block's rounds leave an
// out-of-order core little to overlap (its scheduler fills with the rounds
// that wait for the current one, so even independent blocks hardly
// overlap): the four words stay in AX, BX, CX and DX, whose second bytes
// (AH, BH, CH, DH) a MOVBLZX reads without a shift, the g function reads
// the active pair without destroying it, and the sums after it take the
// subkeys first (see halfRound). That makes a half-round 12 cycles from one
// active pair to the next on Zen 5, against about 14 for the portable code.
// What is left above a latency model's 11 is the two words' eight look-ups
// contending for the load ports and the shift-capable ALUs (BEXTR, SHRX, the
// rotations; about three a cycle), not the XORs after them: summing the
// look-ups as a tree, with or without the earlier word's look-ups first,
// measured 0.99-1.02x (BenchmarkChain, amd64-1way), and in a loop of the
// half-rounds alone it and RORX for the rotations together gained 3%.
type lane struct {
	x, y    gpr    // the active pair
	passive [2]gpr // the passive pair
	// hi are the byte-index registers for the second bytes of x and y:
	// SI and DI, which an instruction that reads AH..DH may name.
	hi [2]gpr
	// bmi, in the BMI1/BMI2 body of the 1-way kernels, holds the operands
	// that read bytes 2 and 3 of a word in one instruction each: the BEXTR
	// control that selects byte 2, and the SHRX count 24.
	bmi *[2]gpr
}

// halfRound emits one Feistel round of lane l. The g function of the
// active words x and rol(y, 8) gives t0 and t1; with the subkeys
// K0 = k[k0], K1 = k[k0+1] the passive words p0 and p1 become
//
//	encryption: p0 = ror(p0 ^ (t0+t1+K0), 1), p1 = rol(p1, 1) ^ (t0+2*t1+K1)
//	decryption: p0 = rol(p0, 1) ^ (t0+t1+K0), p1 = ror(p1 ^ (t0+2*t1+K1), 1)
//
// and are the next active pair.
func halfRound(ks keys, l *lane, k0 int, dec bool) {
	old := l.passive
	l.passive = [2]gpr{l.x, l.y}
	t0, t1 := c.GP32(), c.GP32()
	// Shortest path. The word that the last half-round rotated right is
	// ready one instruction after the other, and so is its sum from the g
	// function: t0 in encryption, t1 in decryption. The sums start from
	// the subkeys, loaded ahead of time, and take in the earlier of t0 and
	// t1 first, so that the later needs one instruction instead of two.
	f0, u := c.GP32(), c.GP32()
	c.MOVL(ks.subkey(k0), f0)
	c.MOVL(ks.subkey(k0+1), u)
	// Byte j of x goes through table j; byte j of y through table j+1,
	// which is g(rol(y, 8)). Bytes 2 and 3 are read together: see look23.
	ws, ts := [2]gpr{l.x, l.y}, [2]gpr{t0, t1}
	for j := range 2 {
		for k := range 2 {
			l.look(ks, ws[k], ts[k], l.hi[k], j, (j+k)%4)
		}
	}
	for k := range 2 {
		l.look23(ks, ws[k], ts[k], (2+k)%4, (3+k)%4)
	}
	add1 := func() { c.ADDL(t1, f0); c.LEAL(operand.Mem{Base: u.As64(), Index: t1.As64(), Scale: 2}, u) }
	add0 := func() { c.ADDL(t0, f0); c.ADDL(t0, u) }
	if dec {
		add0, add1 = add1, add0
	}
	add1()
	add0()

	// The updates, in place: xorRor(p, f) = ror(p ^ f, 1), rolXor(p, f) =
	// rol(p, 1) ^ f.
	xorRor := func(p, f gpr) { c.XORL(f, p); c.RORL(operand.Imm(1), p) }
	rolXor := func(p, f gpr) { c.ROLL(operand.Imm(1), p); c.XORL(f, p) }
	l.x, l.y = old[0], old[1]
	if !dec {
		rolXor(l.y, u)
		xorRor(l.x, f0)
	} else {
		xorRor(l.y, u)
		rolXor(l.x, f0)
	}
}

// look emits the table look-up of byte j (0 or 1) of w through table tab
// into the accumulator t: the first (j = 0) loads t, the second XORs into
// it. It reads the byte without changing w: j = 1 from AH..DH through hi.
func (l *lane) look(ks keys, w, t, hi gpr, j, tab int) {
	i := hi
	if j == 0 {
		i = c.GP32()
		c.MOVBLZX(w.As8L(), i)
	} else {
		c.MOVBLZX(w.As8H(), i)
	}
	m := ks.table(tab, i.As64())
	if j == 0 {
		c.MOVL(m, t)
	} else {
		c.XORL(m, t)
	}
}

// look23 emits the look-ups of bytes 2 and 3 of w, through tables tab2
// and tab3, into t, from one copy of w shifted right by 16: byte 3 is ready
// one instruction after byte 2, as soon as the accumulator needs it.
func (l *lane) look23(ks keys, w, t gpr, tab2, tab3 int) {
	i, j := c.GP32(), c.GP32()
	if l.bmi != nil {
		// Two instructions fewer, and byte 3 one cycle earlier. Fewer
		// instructions per round let the out-of-order core start more of
		// the next block while this one's rounds wait on each other.
		c.BEXTRL(l.bmi[0], w, j)
		c.XORL(ks.table(tab2, j.As64()), t)
		c.SHRXL(l.bmi[1], w, i)
		c.XORL(ks.table(tab3, i.As64()), t)
		return
	}
	c.MOVL(w, i)
	c.SHRL(operand.Imm(16), i)
	c.MOVBLZX(i.As8(), j)
	c.XORL(ks.table(tab2, j.As64()), t)
	c.SHRL(operand.Imm(8), i)
	c.XORL(ks.table(tab3, i.As64()), t)
}

// kernel emits encryptBlocks1x or decryptBlocks1x: n blocks from src to
// dst, one at a time, and its other bodies: encryptBlocks1xBMI for CPUs
// with BMI1 and BMI2, which internal/cpu chooses, and the single-block
// entries encryptBlock1x and encryptBlock1xBMI.
func kernel(dec bool) {
	emit := func(bmi, single bool) {
		name, dir, unit := "encryptBlocks1x", "encrypts", "n blocks"
		if dec {
			name, dir = "decryptBlocks1x", "decrypts"
		}
		if single {
			name, unit = strings.Replace(name, "Blocks", "Block", 1), "one block"
		}
		if bmi {
			name += "BMI"
		}
		c.Implement(name)
		c.Attributes(attr.NOSPLIT)
		c.Commentf("%s %s %s; generated by _asm/scalar.", name, dir, unit)
		body(dec, bmi, single)
	}
	emit(false, false)
	emit(true, false)
	emit(false, true)
	emit(true, true)
}

// entry1 loads the key material of the 1-way kernels and the chain kernels
// and returns their lane, which in the BMI body holds the BEXTR control and
// SHRX count: registers that src, dst and n leave free, as they stay in
// their argument slots.
func entry1(bmi bool) (keys, *lane) {
	ks := keys{t: c.GP64()}
	c.Load(c.Param("t"), ks.t)
	ks.k = operand.Mem{Base: c.Load(c.Param("ks"), c.GP64())}
	l := &lane{hi: [2]gpr{reg.ESI, reg.EDI}}
	if bmi {
		ops := [2]gpr{c.GP32(), c.GP32()}
		c.MOVL(operand.U32(0x0810), ops[0]) // 8 bits from bit 16
		c.MOVL(operand.U32(24), ops[1])
		l.bmi = &ops
	}
	return ks, l
}

// body emits one body of a 1-way kernel, from loading its arguments to
// RET; bmi selects the body that reads bytes with BEXTR and SHRX, and
// single the entry of one block, which has no count and no loop: the entry
// of Encrypt and Decrypt.
func body(dec, bmi, single bool) {
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

	ks, l := entry1(bmi)
	src, dst, n := operand.NewParamAddr("src", 24), operand.NewParamAddr("dst", 16), operand.NewParamAddr("n", 32)
	if !single {
		c.CMPQ(n, operand.Imm(0))
		c.JE(operand.LabelRef(label("done")))
		c.Label(label("loop"))
	}

	// Load and whiten: words 0, 1 are the first active pair, 2, 3 the
	// passive pair.
	in := c.GP64()
	c.MOVQ(src, in)
	l.x, l.y = reg.EAX, reg.EBX
	l.passive = [2]gpr{reg.ECX, reg.EDX}
	for w, r := range [4]gpr{l.x, l.y, l.passive[0], l.passive[1]} {
		c.MOVL(operand.Mem{Base: in, Disp: 4 * w}, r)
		c.XORL(ks.subkey([4]int{inA, inA + 1, inP, inP + 1}[w]), r)
	}

	for h := range 16 {
		k0 := 8 + 2*h
		if dec {
			k0 = 38 - 2*h
		}
		halfRound(ks, l, k0, dec)
	}

	// Whiten and store: the passive pair is words 0, 1 of the output, the
	// active pair words 2, 3.
	out := c.GP64()
	c.MOVQ(dst, out)
	for w, r := range [4]gpr{l.passive[0], l.passive[1], l.x, l.y} {
		c.XORL(ks.subkey([4]int{outP, outP + 1, outA, outA + 1}[w]), r)
		c.MOVL(r, operand.Mem{Base: out, Disp: 4 * w})
	}

	if single {
		c.RET()
		return
	}
	// The last block leaves before the pointers move: a single block, the
	// common call, pays one decrement and one branch.
	c.DECQ(n)
	c.JZ(operand.LabelRef(label("done")))
	c.ADDQ(operand.Imm(16), src)
	c.ADDQ(operand.Imm(16), dst)
	c.JMP(operand.LabelRef(label("loop")))

	c.Label(label("done"))
	c.RET()
}
