package asmscan

import (
	"slices"
	"testing"
)

// good is a function that meets the rule: a loop over public counts and
// pointers, vector work on memory at public addresses.
var good = []string{
	"MOVQ ks+0(FP), AX", "MOVQ n+24(FP), BX", "TESTQ BX, BX", "JZ done",
	"LEAQ 63(SP), SI", "ANDQ $-64, SI", "LEAQ 4128(AX), DI",
	"VMOVDQU64 64(AX), Z0", "VPERMB mul5BLo<>+0(SB), Z1, Z2", "VPADDD.BCST (DI), Z1, Z2",
	"VPMOVB2M Z1, K1", "VMOVDQU8 Z1, K1, Z2", "ADDQ $16, DI", "CMPQ DI, R8", "JNE rounds",
	"DECQ BX", "JNZ loop", "XCHGQ DI, R8", "VZEROUPPER", "RET",
}

// TestProblems plants each kind of violation in good, in the place of
// the line it replaces, and checks that Problems reports it.
func TestProblems(t *testing.T) {
	if p := Problems(good, Rules{}); p != nil {
		t.Fatalf("the rule rejects good code: %v", p)
	}
	for _, c := range []struct {
		what        string
		replace     string
		with        []string
		allowedWith Rules // relaxations that make the plant acceptable
	}{
		{"an index register", "VPERMB mul5BLo<>+0(SB), Z1, Z2", []string{"VPERMB (AX)(CX*1), Z1, Z2"}, Rules{IndexRegisters: true}},
		{"a table indexed by a register", "VPERMB mul5BLo<>+0(SB), Z1, Z2", []string{"VPSHUFB tbl<>(SB)(CX*4), Y1, Y2"}, Rules{IndexRegisters: true}},
		{"a gather", "VMOVDQU64 64(AX), Z0", []string{"VPGATHERDD (AX)(Z1*4), K1, Z2"}, Rules{}},
		{"a gather (AVX2)", "VMOVDQU64 64(AX), Z0", []string{"VPGATHERDD Y3, (AX)(Y1*4), Y2"}, Rules{}},
		{"a scatter", "VMOVDQU64 64(AX), Z0", []string{"VPSCATTERDD Z2, K1, (AX)(Z1*4)"}, Rules{}},
		{"a base loaded from memory", "LEAQ 4128(AX), DI", []string{"MOVQ (AX), DI"}, Rules{}},
		{"a base loaded from the stack", "LEAQ 4128(AX), DI", []string{"MOVQ 8(SP), DI"}, Rules{}},
		{"a base from a vector register", "LEAQ 4128(AX), DI", []string{"VMOVQ X1, DI"}, Rules{}},
		{"a base from a mask register", "LEAQ 4128(AX), DI", []string{"KMOVQ K1, DI"}, Rules{}},
		{"a base from a vector lane", "LEAQ 4128(AX), DI", []string{"VPEXTRQ $0, X1, DI"}, Rules{}},
		{"a base from a vector mask", "LEAQ 4128(AX), DI", []string{"VPMOVMSKB Y1, DI"}, Rules{}},
		{"a base by MULQ of memory", "LEAQ 4128(AX), DI", []string{"MULQ (SI)"}, Rules{}},
		{"a base by LODSQ", "LEAQ 4128(AX), DI", []string{"LODSQ"}, Rules{}},
		{"XLAT", "LEAQ 4128(AX), DI", []string{"XLAT"}, Rules{}},
		{"PCMPESTRI", "CMPQ DI, R8", []string{"PCMPESTRI $0x0c, X1, X2"}, Rules{}},
		{"an exchange with memory", "XCHGQ DI, R8", []string{"XCHGQ DI, (AX)"}, Rules{}},
		{"an exchange with memory", "XCHGQ DI, R8", []string{"XCHGQ (AX), DI"}, Rules{}},
		{"the flags from a mask", "CMPQ DI, R8", []string{"KORTESTQ K1, K1"}, Rules{}},
		{"the flags from a vector", "CMPQ DI, R8", []string{"VPTEST Y1, Y1"}, Rules{}},
		{"the flags from a vector", "CMPQ DI, R8", []string{"VUCOMISS X1, X2"}, Rules{}},
		{"the flags from memory", "CMPQ DI, R8", []string{"CMPQ (AX), R8"}, Rules{}},
		{"the flags from memory", "CMPQ DI, R8", []string{"CMPB 3(AX), $0x00"}, Rules{}},
		{"the flags from memory", "CMPQ DI, R8", []string{"TESTB $0x01, (AX)"}, Rules{}},
		{"the flags from memory", "CMPQ DI, R8", []string{"BTQ $3, (AX)"}, Rules{}},
		{"a counter in memory", "DECQ BX", []string{"DECQ 8(AX)"}, Rules{}},
		{"arithmetic on memory", "ADDQ $16, DI", []string{"ADDQ DI, (SI)"}, Rules{}},
		{"a conditional move", "ADDQ $16, DI", []string{"CMOVQNE CX, DI"}, Rules{CMOV: true}},
		{"a conditional move from memory", "ADDQ $16, DI", []string{"CMOVQNE (AX), DI"}, Rules{}},
		{"a flag into a register", "ADDQ $16, DI", []string{"SETNE DL"}, Rules{}},
		{"a division", "ADDQ $16, DI", []string{"DIVQ CX"}, Rules{}},
		{"a division by memory", "ADDQ $16, DI", []string{"DIVQ 8(AX)"}, Rules{}},
		{"a signed division by memory", "ADDQ $16, DI", []string{"IDIVL (AX)"}, Rules{}},
		{"a vector division", "VMOVDQU64 64(AX), Z0", []string{"VDIVPS Y1, Y2, Y3"}, Rules{}},
		{"a vector square root", "VMOVDQU64 64(AX), Z0", []string{"VSQRTPD Y1, Y2"}, Rules{}},
		{"a scalar square root", "VMOVDQU64 64(AX), Z0", []string{"SQRTSD X1, X2"}, Rules{}},
		{"a floating-point product", "VMOVDQU64 64(AX), Z0", []string{"VMULPS Y1, Y2, Y3"}, Rules{}},
		{"a floating-point sum", "VMOVDQU64 64(AX), Z0", []string{"ADDSD X1, X2"}, Rules{}},
		{"a fused multiply-add", "VMOVDQU64 64(AX), Z0", []string{"VFMADD231PD Z1, Z2, Z3"}, Rules{}},
		{"a call", "VPMOVB2M Z1, K1", []string{"CALL runtime·memmove(SB)"}, Rules{}},
		{"an indirect jump", "VPMOVB2M Z1, K1", []string{"JMP AX"}, Rules{}},
		{"no VZEROUPPER", "VZEROUPPER", []string{"NOP"}, Rules{NoVZEROUPPER: true}},
		{"a spill to the argument frame", "LEAQ 4128(AX), DI", []string{"VMOVQ X0, n+24(FP)", "MOVQ n+24(FP), DI"}, Rules{}},
		{"a spill to the argument frame", "ADDQ $16, DI", []string{"MOVQ DI, ks+0(FP)"}, Rules{}},
		{"a base from a vector into g", "LEAQ 4128(AX), DI", []string{"VMOVQ X0, g"}, Rules{}},
		{"the flags restored from memory", "CMPQ DI, R8", []string{"POPFQ"}, Rules{}},
		{"a compare-exchange of memory", "CMPQ DI, R8", []string{"CMPXCHG16B (CX)"}, Rules{}},
		{"a 32-bit exchange with memory", "XCHGQ DI, R8", []string{"XCHGL AX, (CX)"}, Rules{}},
		{"the flags from a segment check", "CMPQ DI, R8", []string{"VERW (CX)"}, Rules{}},
		{"x87", "VMOVDQU64 64(AX), Z0", []string{"FMOVD (CX), F0"}, Rules{}},
		{"a suffixed vector division", "VMOVDQU64 64(AX), Z0", []string{"VDIVPS.Z Z1, Z2, K1, Z3"}, Rules{}},
		{"a rounded square root", "VMOVDQU64 64(AX), Z0", []string{"VSQRTPD.RN_SAE Z1, Z2"}, Rules{}},
		{"two instructions on a line", "LEAQ 4128(AX), DI", []string{"VMOVQ X0, AX; NOP"}, Rules{}},
		{"a block comment", "LEAQ 4128(AX), DI", []string{"VMOVQ X0, /* x */ DI"}, Rules{}},
		{"a macro", "LEAQ 4128(AX), DI", []string{"#define LEAK(r) VMOVQ X0, r"}, Rules{}},
		{"raw bytes", "LEAQ 4128(AX), DI", []string{"BYTE $0x66"}, Rules{}},
	} {
		i := slices.Index(good, c.replace)
		if i < 0 {
			t.Fatalf("good has no line %q", c.replace)
		}
		lines := slices.Concat(good[:i], c.with, good[i+1:])
		if Problems(lines, Rules{}) == nil {
			t.Errorf("the rule accepts %s: %q", c.what, c.with)
		}
		if all := (Rules{true, true, true}); c.allowedWith == (Rules{}) && Problems(lines, all) == nil {
			t.Errorf("the relaxed rule accepts %s: %q", c.what, c.with)
		}
		if c.allowedWith != (Rules{}) {
			if p := Problems(lines, c.allowedWith); p != nil {
				t.Errorf("%+v rejects %s: %v", c.allowedWith, c.what, p)
			}
		}
	}
}

// TestFunctions checks that Functions reads a function's instructions as
// the assembler does: with any white space between fields, and through a
// DATA or GLOBL line, after which the assembler goes on with the same
// function.
func TestFunctions(t *testing.T) {
	src := "#include \"textflag.h\"\n\n// func f(n int)\nTEXT\t·f(SB), NOSPLIT, $0-8\n\tMOVQ\tn+0(FP), AX // the count\nloop:\n\tDECQ AX\n\tJNZ  loop\n\tRET\n\nDATA c<>+0(SB)/8, $1\nGLOBL c<>(SB), RODATA, $8\n" +
		"TEXT ·g(SB), NOSPLIT, $0-8\n\tJMP after\nDATA d<>+0(SB)/8, $1\nGLOBL d<>(SB), RODATA, $8\nafter:\n\tVMOVQ X0, AX\n\tRET\n"
	got := Functions(src)
	want := map[string][]string{
		"f": {"MOVQ n+0(FP), AX", "DECQ AX", "JNZ loop", "RET"},
		"g": {"JMP after", "VMOVQ X0, AX", "RET"},
	}
	if len(got) != len(want) || !slices.Equal(got["f"], want["f"]) || !slices.Equal(got["g"], want["g"]) {
		t.Errorf("Functions = %q, want %q", got, want)
	}
}
