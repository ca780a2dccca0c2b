package main

import (
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/twofish-go/twofish/_asm/internal/checktest"
)

// TestCheck gives check a kernel that keeps its rules and then kernels
// that each break one, compiled as the generator compiles its own: check
// passes the first and names what is wrong with each of the others.
func TestCheck(t *testing.T) {
	// checked is a kernel's loop over body, counted in CX, with the count
	// check before it testing test.
	checked := func(test reg.Register, body func(b *build.Context)) func(b *build.Context) {
		return func(b *build.Context) {
			b.MOVQ(operand.NewParamAddr("n", 8), reg.RCX)
			b.TESTQ(test, test)
			b.JZ(operand.LabelRef("done"))
			b.Label("loop")
			body(b)
			b.DECQ(reg.RCX)
			b.JNZ(operand.LabelRef("loop"))
			b.Label("done")
		}
	}
	loop := func(body func(b *build.Context)) func(b *build.Context) { return checked(reg.RCX, body) }
	xor := func(b *build.Context) { b.VPXOR(reg.Y1, reg.Y2, reg.Y2) }
	for _, tc := range []struct {
		name   string
		kernel func(b *build.Context)
		want   string // in check's panic; "" for none
	}{
		{"a counted loop", loop(xor), ""},
		{"an AVX-512 instruction", loop(func(b *build.Context) { b.VPADDD(reg.Z1, reg.Z2, reg.Z2) }), "needs AVX512F"},
		{"an indexed memory operand", loop(func(b *build.Context) {
			b.VMOVDQU(operand.Mem{Base: reg.RAX, Index: reg.RBX, Scale: 1}, reg.Y1)
		}), "has an indexed memory operand"},
		{"a memory operand through BP", loop(func(b *build.Context) {
			b.VMOVDQU(operand.Mem{Base: reg.RBP}, reg.Y1)
		}), "addresses through BP"},
		{"a vector register above 15", loop(func(b *build.Context) { b.VPXOR(reg.Y16, reg.Y2, reg.Y2) }), "which only AVX-512 can encode"},
		{"a branch on a comparison", loop(func(b *build.Context) {
			b.CMPQ(reg.RAX, reg.RBX)
			b.JNE(operand.LabelRef("done"))
		}), "JNE after CMPQ is not a loop counter branch"},
		{"a count check of another register", checked(reg.RAX, xor), "JZ after TESTQ is not a loop counter branch"},
		{"a counter that an addition writes", loop(func(b *build.Context) { b.ADDQ(reg.RAX, reg.RCX) }), "ADDQ writes the loop counter CX"},
		{"a counter loaded from memory", loop(func(b *build.Context) {
			b.MOVQ(operand.Mem{Base: reg.RAX}, reg.RCX)
		}), "MOVQ writes the loop counter CX"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checktest.Expect(t, check, "func(p *byte, n int)", tc.kernel, tc.want)
		})
	}
}
