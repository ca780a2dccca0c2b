package asmgen

import (
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/twofish-go/twofish/_asm/internal/checktest"
)

// TestRefuseBP compiles functions as the generators do and runs RefuseBP
// on them: it passes one that leaves BP, SP and K0 alone and names the
// register in each of the others.
func TestRefuseBP(t *testing.T) {
	for _, tc := range []struct {
		name string
		body func(b *build.Context)
		want string // in RefuseBP's panic; "" for none
	}{
		{"virtual registers", func(b *build.Context) {
			x, y := b.GP64(), b.YMM()
			b.MOVQ(operand.NewParamAddr("p", 0), x)
			b.VMOVDQU(operand.Mem{Base: x}, y)
			b.VMOVDQU(y, operand.Mem{Base: x, Disp: 32})
		}, ""},
		{"a read of BP", func(b *build.Context) { b.MOVQ(reg.RBP, reg.RAX) }, "uses BP"},
		{"a write of BP", func(b *build.Context) { b.MOVQ(reg.RAX, reg.RBP) }, "uses BP"},
		{"BP's low half", func(b *build.Context) { b.MOVL(reg.EBP, reg.EAX) }, "uses BP"},
		{"a memory operand through BP", func(b *build.Context) {
			b.VMOVDQU(operand.Mem{Base: reg.RBP}, reg.Y0)
		}, "uses BP"},
		{"SP", func(b *build.Context) { b.SUBQ(operand.Imm(64), reg.RSP) }, "uses SP"},
		{"K0", func(b *build.Context) { b.KMOVW(reg.K0, reg.EAX) }, "uses K0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checktest.Expect(t, RefuseBP, "func(p *byte)", tc.body, tc.want)
		})
	}
}
