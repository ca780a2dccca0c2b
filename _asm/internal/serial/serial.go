// Package serial is what the generators of the chain kernels share: the
// serial modes they run (internal/kernel's ChainMode), their names, and the
// loop of a kernel whose chain value is a vector register.
//
// A chain kernel takes (…, dst, src, n, s): n > 0 blocks, and the chain
// value s, which it leaves updated.
package serial

import (
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// Mode is a serial mode, as internal/kernel numbers them.
type Mode int

const (
	CBC Mode = iota // s = E(s ^ P[i]), C[i] = s: CBC encryption
	CFB             // s = E(s) ^ P[i], C[i] = s: full-block CFB encryption
	OFB             // s = E(s), K[i] = s: OFB's key stream, from no src
	MAC             // s = E(s ^ M[i]), to no dst: CBC-MAC, for CMAC
)

// Modes lists every mode.
var Modes = []Mode{CBC, CFB, OFB, MAC}

// Name returns the name of m's kernel in the family of suffix.
func (m Mode) Name(suffix string) string {
	return [...]string{"cbcEncrypt", "cfbEncrypt", "ofbStream", "cbcMAC"}[m] + suffix
}

// ReadsSrc and WritesDst say which buffers m's kernels touch.
func (m Mode) ReadsSrc() bool  { return m != OFB }
func (m Mode) WritesDst() bool { return m != MAC }

// VectorLoop emits the loop of m's kernel over the blocks at src and dst
// (registers holding the pointers, moved on a block at a time) with the
// count in n and the chain value at the address in s: the chain value in
// a vector register from block to block, block returning the encryption
// of a vector (whitened). evex selects the EVEX forms of the moves and
// XORs, which reach every vector register. label names the loop; its
// branches test the count, before the first block too, so that a call
// with none touches no buffer.
func VectorLoop(c *build.Context, m Mode, evex bool, label string, dst, src, n, s reg.Register, block func(reg.VecVirtual) reg.VecVirtual) {
	xor := func(a, b, d operand.Op) { c.VPXOR(a, b, d) }
	mov := func(a, d operand.Op) { c.VMOVDQA(a, d) }
	movu := func(a, d operand.Op) { c.VMOVDQU(a, d) }
	if evex {
		xor = func(a, b, d operand.Op) { c.VPXORD(a, b, d) }
		mov = func(a, d operand.Op) { c.VMOVDQA64(a, d) }
		movu = func(a, d operand.Op) { c.VMOVDQU64(a, d) }
	}
	x := c.XMM()
	movu(operand.Mem{Base: s}, x)
	none := label + "_none"
	c.TESTQ(n, n)
	c.JZ(operand.LabelRef(none))
	c.Label(label)
	in := x
	if m == CBC || m == MAC {
		in = c.XMM()
		xor(operand.Mem{Base: src}, x, in)
	}
	e := block(in)
	if m == CFB {
		xor(operand.Mem{Base: src}, e, e)
	}
	if m.WritesDst() {
		movu(e, operand.Mem{Base: dst})
	}
	mov(e, x)
	if m.ReadsSrc() {
		c.ADDQ(operand.Imm(16), src)
	}
	if m.WritesDst() {
		c.ADDQ(operand.Imm(16), dst)
	}
	c.DECQ(n)
	c.JNZ(operand.LabelRef(label))
	c.Label(none)
	movu(x, operand.Mem{Base: s})
}
