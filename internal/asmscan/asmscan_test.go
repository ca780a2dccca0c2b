package asmscan

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/testenv"
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
		{"raw quadwords", "LEAQ 4128(AX), DI", []string{"QUAD $0x66"}, Rules{}},
		{"the flags from a vector (SSE4.1)", "CMPQ DI, R8", []string{"PTEST X1, X1"}, Rules{}},
		{"the flags from a mask test", "CMPQ DI, R8", []string{"KTESTW K1, K2"}, Rules{}},
		{"the flags from an ordered comparison", "CMPQ DI, R8", []string{"COMISD X1, X2"}, Rules{}},
		{"a gather without a base register", "VMOVDQU64 64(AX), Z0", []string{"VPGATHERDD Y3, (Y1*4), Y2"}, Rules{}},
		{"a floating-point gather without a base register", "VMOVDQU64 64(AX), Z0", []string{"VGATHERDPS Y3, 8(Y1*4), Y2"}, Rules{}},
		{"a scatter without a base register", "VMOVDQU64 64(AX), Z0", []string{"VPSCATTERDD Z2, K1, 0(Z1*4)"}, Rules{}},
		{"a floating-point maximum", "VMOVDQU64 64(AX), Z0", []string{"VMAXPS Y1, Y2, Y3"}, Rules{}},
		{"a floating-point minimum", "VMOVDQU64 64(AX), Z0", []string{"MINSD X1, X2"}, Rules{}},
		{"an AVX-512 reciprocal", "VMOVDQU64 64(AX), Z0", []string{"VRCP14PS Z1, Z2"}, Rules{}},
		{"a half-precision sum", "VMOVDQU64 64(AX), Z0", []string{"VADDPH Z1, Z2, Z3"}, Rules{}},
		{"a negated fused multiply-add", "VMOVDQU64 64(AX), Z0", []string{"VFNMADD231PD Z1, Z2, Z3"}, Rules{}},
		{"x87 with a digit in its name", "VMOVDQU64 64(AX), Z0", []string{"F2XM1"}, Rules{}},
		{"a repeated string store", "LEAQ 4128(AX), DI", []string{"REP", "STOSQ"}, Rules{}},
		{"a string scan", "CMPQ DI, R8", []string{"SCASB"}, Rules{}},
		{"VPCMPISTRI", "CMPQ DI, R8", []string{"VPCMPISTRI $0x0c, X1, X2"}, Rules{}},
		{"a base from a vector into R15", "LEAQ 4128(AX), DI", []string{"VMOVQ X0, R15"}, Rules{}},
		{"a base from a vector by MOVQ", "LEAQ 4128(AX), DI", []string{"MOVQ X1, DI"}, Rules{}},
		{"a base loaded from a global", "LEAQ 4128(AX), DI", []string{"MOVQ ·global(SB), DI"}, Rules{}},
		{"a multiplication, outside the writers the rule lists", "ADDQ $16, DI", []string{"IMULQ CX, DI"}, Rules{}},
		{"a jump through memory", "VPMOVB2M Z1, K1", []string{"JMP (AX)"}, Rules{}},
		{"a tail call", "VPMOVB2M Z1, K1", []string{"JMP ·other(SB)"}, Rules{}},
		{"an index register the scan cannot read", "VPERMB mul5BLo<>+0(SB), Z1, Z2", []string{"VPERMB (AX)(CX), Z1, Z2"}, Rules{}},
		{"an index register without a base", "VPERMB mul5BLo<>+0(SB), Z1, Z2", []string{"VPERMB 8(CX*4), Z1, Z2"}, Rules{IndexRegisters: true}},
		{"a vector index without a base", "VPERMB mul5BLo<>+0(SB), Z1, Z2", []string{"VPERMB 8(Y1*4), Z1, Z2"}, Rules{}},
		{"a compare-and-exchange with the argument frame", "CMPQ DI, R8", []string{"CMPXCHGQ BX, n+24(FP)"}, Rules{}},
		{"no RET after VZEROUPPER", "RET", []string{"NOP"}, Rules{NoVZEROUPPER: true}},
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

// TestProblemsAccepts plants, in the place of the line each replaces in
// good, lines that keep every general-purpose register public, and checks
// that Problems accepts them: a comparison or test that reads the argument
// frame writes nothing.
func TestProblemsAccepts(t *testing.T) {
	for _, c := range []struct {
		replace string
		with    []string
	}{
		{"CMPQ DI, R8", []string{"CMPQ n+24(FP), BX"}},
		{"CMPQ DI, R8", []string{"CMPQ BX, n+24(FP)"}},
		{"CMPQ DI, R8", []string{"TESTQ BX, n+24(FP)"}},
		{"CMPQ DI, R8", []string{"ADDQ n+24(FP), BX"}},
		{"ADDQ $16, DI", []string{"CMOVQNE CX, DI"}},
	} {
		i := slices.Index(good, c.replace)
		if i < 0 {
			t.Fatalf("good has no line %q", c.replace)
		}
		r := Rules{CMOV: strings.HasPrefix(c.with[0], "CMOV")}
		if p := Problems(slices.Concat(good[:i], c.with, good[i+1:]), r); p != nil {
			t.Errorf("the rule rejects %q: %v", c.with, p)
		}
	}
}

// TestProblemsShortFunction checks that a function of one line, or none,
// is read without a panic and reported for its missing VZEROUPPER; RET.
func TestProblemsShortFunction(t *testing.T) {
	for _, lines := range [][]string{nil, {"RET"}, {"VZEROUPPER"}} {
		if p := Problems(lines, Rules{}); len(p) != 1 {
			t.Errorf("Problems(%q) = %q, want the missing VZEROUPPER; RET", lines, p)
		}
		if p := Problems(lines, Rules{NoVZEROUPPER: true}); p != nil {
			t.Errorf("Problems(%q) without VZEROUPPER = %q, want none", lines, p)
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
	// A label may share its line with an instruction, which the assembler
	// assembles: the instruction stays, without the label, for Problems
	// to read.
	h := Functions("TEXT ·h(SB), NOSPLIT, $0-8\nloop: VPTEST Y1, Y1\nnext:\tVDIVPS Y1, Y2, Y3\nx: CALL runtime·memmove(SB)\n\tVZEROUPPER\n\tRET\n")["h"]
	if want := []string{"VPTEST Y1, Y1", "VDIVPS Y1, Y2, Y3", "CALL runtime·memmove(SB)", "VZEROUPPER", "RET"}; !slices.Equal(h, want) {
		t.Errorf("Functions = %q, want %q", h, want)
	}
	if p := Problems(h, Rules{}); len(p) != 3 {
		t.Errorf("Problems = %q, want the three instructions after labels", p)
	}
}

// TestARM64ProblemsNamesLine checks that each problem of ARM64Problems names
// the 1-based number of its line in the lines given, comments and labels
// counted.
func TestARM64ProblemsNamesLine(t *testing.T) {
	p := ARM64Problems([]string{"// f", "loop:", "\tUDIV R1, R2, R4", "\tRET"})
	if len(p) != 1 || !strings.HasSuffix(p[0], "(line 3)") {
		t.Errorf("ARM64Problems = %q, want one problem on line 3", p)
	}
}

// TestCompiledRules checks the rules that CheckCompiled applies to the
// compiler's listings, instruction by instruction for each architecture,
// and that it reads a listing's line into file, instruction and operands.
func TestCompiledRules(t *testing.T) {
	for _, c := range []struct {
		rule      string
		match     func(string) bool
		bad, good []string
	}{
		{"x86 latency", x86Latency,
			[]string{"DIVQ", "IDIVL", "DIVB", "SQRTSD", "VSQRTPD", "MULSD", "VFMADD231PD", "FMOVD", "FADDD", "F2XM1"},
			[]string{"MULQ", "IMULQ", "ADDQ", "MOVL", "SHRQ", "PCLMULQDQ", "PSHUFB"}},
		{"arm64 latency", arm64Latency.MatchString,
			[]string{"UDIV", "UDIVW", "SDIV", "SDIVW", "FDIVD", "FSQRTS"},
			[]string{"MUL", "UMULH", "MADD", "ADD", "FMOVD", "VPMULL"}},
		{"arm latency", armLatency.MatchString,
			[]string{"DIV", "DIVU", "ADDF", "SUBD", "MULD", "MULAD", "MULSF", "NMULD", "NMULAF", "NMULSD", "DIVF", "SQRTD", "ABSF", "NEGD", "CMPF", "MOVFD", "MOVWF", "MOVDW", "MOVFW"},
			[]string{"MOVW", "ADD", "MUL", "MULLU", "CMP", "MOVB"}},
		{"arm multiply", armMultiply.MatchString,
			[]string{"MUL", "MULLU", "MULL", "MULA", "MULAWB"},
			[]string{"ADD", "MOVW", "EOR"}},
		{"runtime arithmetic", runtimeArithmetic.MatchString,
			[]string{"runtime.uint64div(SB)", "runtime.int64div(SB)", "runtime.uint64mod(SB)", "runtime.int64mod(SB)",
				"runtime.udiv(SB)", "runtime._div(SB)", "runtime._divu(SB)", "runtime._mod(SB)", "runtime._modu(SB)",
				"runtime.fadd64(SB)", "runtime.fsqrt64(SB)", "runtime.f64to32(SB)", "runtime.f32toint64(SB)",
				"runtime.fintto64(SB)", "runtime.fuint64to32(SB)"},
			[]string{"runtime.memmove(SB)", "runtime.panicIndex(SB)", "runtime.gcWriteBarrier2(SB)", "github.com/x/y.f(SB)"}},
	} {
		for _, op := range c.bad {
			if !c.match(op) {
				t.Errorf("%s: %s is not reported", c.rule, op)
			}
		}
		for _, op := range c.good {
			if c.match(op) {
				t.Errorf("%s: %s is reported", c.rule, op)
			}
		}
	}
	for line, want := range map[string][3]string{
		"\t0x0012 00018 (/src/key.go:363)\tMOVL\t$4, R8":               {"/src/key.go", "MOVL", "$4, R8"},
		"\t0x0012 00018 (/src/key.go:363)\tVFMADD231PD\tX1, X2, X3":    {"/src/key.go", "VFMADD231PD", "X1, X2, X3"},
		"\t0x00a0 00160 (/src/q.go:7)\tRET":                            {"/src/q.go", "RET", ""},
		"\t0x0044 00068 (/src/ocb.go:12)\tCALL\truntime.uint64div(SB)": {"/src/ocb.go", "CALL", "runtime.uint64div(SB)"},
	} {
		m := compiledLine.FindStringSubmatch(line)
		if m == nil || [3]string{m[1], m[2], m[3]} != want {
			t.Errorf("compiledLine reads %q as %q, want %q", line, m, want)
		}
	}
	var builds []string
	for _, tg := range compileTargets {
		builds = append(builds, tg.goarch+"/"+tg.tags)
		if (tg.goarch == "arm") != (tg.multiply != nil) {
			t.Errorf("%s: multiplication rule %v; only 32-bit arm has one", tg.goarch, tg.multiply)
		}
	}
	if want := []string{"amd64/", "amd64/purego", "386/", "arm64/", "arm64/purego", "arm/"}; !slices.Equal(builds, want) {
		t.Errorf("compileTargets = %q, want %q", builds, want)
	}
}

// TestCheckCompiledReports runs CheckCompiled, in a child process of this
// test binary, on testdata/compiled: it must fail for the division of
// div.go, for this architecture's builds only (all of them in exhaustive
// runs, where 32-bit arm's must report the runtime's division and the
// multiplication of mul.go too), and for empty.go, which has no machine
// code to read.
func TestCheckCompiledReports(t *testing.T) {
	all := os.Getenv("TWOFISH_TEST_EXHAUSTIVE") == "1"
	if os.Getenv("ASMSCAN_TEST_CHECK_COMPILED_CHILD") == "1" {
		CheckCompiled(t, "./testdata/compiled", []string{"div.go", "empty.go", "mul.go"}, all, false)
		return
	}
	testenv.MustHaveExec(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestCheckCompiledReports$", "-test.v")
	cmd.Env = append(os.Environ(), "ASMSCAN_TEST_CHECK_COMPILED_CHILD=1")
	out, err := testenv.CombinedOutput(t, cmd)
	if testenv.NotExecutable(err) {
		t.Skipf("cannot re-execute the test binary here (%v)", err)
	}
	if strings.Contains(string(out), "--- SKIP") {
		t.Skipf("CheckCompiled skips here:\n%s", out)
	}
	if err == nil {
		t.Fatalf("CheckCompiled accepts a division and a file with no code:\n%s", out)
	}
	var builds []string
	for _, tg := range compileTargets {
		if all || tg.goarch == runtime.GOARCH {
			build := tg.goarch
			if tg.tags != "" {
				build += " -tags " + tg.tags
			}
			builds = append(builds, build)
		}
	}
	var want []string
	for _, b := range builds {
		want = append(want, b+": no machine code from empty.go")
		if b == "arm" {
			want = append(want, "/div.go:7)\tCALL\truntime.uint64div(SB)", "/mul.go:5)\tMUL\t")
		}
	}
	for _, w := range want {
		if !strings.Contains(string(out), w) {
			t.Errorf("CheckCompiled does not report %q:\n%s", w, out)
		}
	}
	for line := range strings.Lines(string(out)) {
		// "compiled.go:132: amd64: 0x000b 00011 (…/div.go:7)\tDIVQ\tBX"
		_, line, _ = strings.Cut(strings.TrimSpace(line), ": ")
		build, rest, ok := strings.Cut(line, ": ")
		if !ok || !strings.Contains(rest, ".go:") || strings.HasPrefix(rest, "no machine code") {
			continue
		}
		if !slices.Contains(builds, build) {
			t.Errorf("CheckCompiled reads the build %q, not one of %q: %s", build, builds, line)
		}
	}
	for _, b := range builds {
		if !strings.Contains(string(out), b+": ") || !strings.Contains(string(out), "div.go:7)") {
			t.Errorf("CheckCompiled does not report the division of div.go in the build %s:\n%s", b, out)
		}
	}
}

// errorRecorder is a testing.TB that records its errors instead of failing.
type errorRecorder struct {
	testing.TB
	errors []string
}

func (r *errorRecorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// TestCheckFile checks that CheckFile reports a function of want that the
// file lacks, and holds each function to the rules that rules gives for
// its name, not to others: testdata/rules.s's f indexes memory, which
// only IndexRegisters allows, and its g tests a vector, which no rule
// allows.
func TestCheckFile(t *testing.T) {
	for _, c := range []struct {
		rules Rules // f's; g gets every relaxation
		want  []string
	}{
		{Rules{}, []string{"rules.s has no function h", "rules.s: f: indexed memory operand", "rules.s: g: data into the flags"}},
		{Rules{IndexRegisters: true}, []string{"rules.s has no function h", "rules.s: g: data into the flags"}},
	} {
		r := &errorRecorder{TB: t}
		CheckFile(r, "testdata/rules.s", []string{"f", "g", "h"}, func(fn string) Rules {
			if fn == "f" {
				return c.rules
			}
			return Rules{true, true, true}
		})
		var got []string
		for _, e := range r.errors {
			e, _, _ = strings.Cut(strings.TrimPrefix(e, "testdata/"), " (")
			got = append(got, e)
		}
		slices.Sort(got)
		if len(got) != len(c.want) {
			t.Errorf("f under %+v: CheckFile reports %q, want %q", c.rules, r.errors, c.want)
			continue
		}
		for i := range got {
			if !strings.HasPrefix(got[i], c.want[i]) {
				t.Errorf("f under %+v: CheckFile reports %q, want %q", c.rules, r.errors, c.want)
				break
			}
		}
	}
}
