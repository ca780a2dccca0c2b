//go:build gc && !purego

package kernel

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/asmscan"
)

// TestAVX2CTAssemblyIsConstantTime reads avx2ct_amd64.s and checks, for every
// function in it, the two properties that make the
// avx2-ct kernels constant-time by construction, which the generator
// (_asm/avx2ct) also asserts while emitting:
//
//   - no memory operand has an index register: every address is a base
//     register plus a constant, and no base register is ever loaded from
//     memory other than the argument frame, so no address depends on the
//     key or the data;
//   - every conditional branch tests a loop counter: a register that only
//     MOVQ of a constant or of the argument n, and DECQ, write; no CALL.
//
// It also checks that the kernels stay within AVX2 (no register above Y15,
// no EVEX-only instruction) and end with VZEROUPPER, and holds them to the
// AVX-512 kernels' rules as well (checkPublicAddressesAndBranches: no
// general-purpose register written from anything but the arguments,
// constants and other such registers, no data into the flags).
func TestAVX2CTAssemblyIsConstantTime(t *testing.T) {
	data, err := os.ReadFile("avx2ct_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	funcs := asmscan.Functions(string(data))
	for _, width := range []string{"64", "32", "8"} {
		for _, bits := range []string{"128", "192", "256"} {
			for _, dir := range []string{"encrypt", "decrypt"} {
				if want := dir + "Blocks" + width + "AVX2CT" + bits; funcs[want] == nil {
					t.Errorf("avx2ct_amd64.s has no function %s", want)
				}
			}
		}
	}
	for name, lines := range funcs {
		for _, p := range constantTimeAsmProblems(lines) {
			t.Errorf("%s: %s", name, p)
		}
		checkPublicAddressesAndBranches(t, name, lines)
	}
}

var (
	asmIndexed  = regexp.MustCompile(`\)\(`)
	asmLabel    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*:$`)
	asmHighVec  = regexp.MustCompile(`\b[XYZ](1[6-9]|2[0-9]|3[01])\b`)
	asmMaskReg  = regexp.MustCompile(`\bK[1-7]\b`)
	asmArgument = regexp.MustCompile(`^[a-z]+\+\d+\(FP\)$`)
)

// constantTimeAsmProblems returns what breaks the rules above in the lines
// of one function.
func constantTimeAsmProblems(lines []string) []string {
	var problems []string
	report := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	type inst struct {
		op   string
		args []string
	}
	var insts []inst
	for _, line := range lines {
		if asmLabel.MatchString(line) {
			continue
		}
		op, rest, _ := strings.Cut(line, " ")
		var args []string
		if rest = strings.TrimSpace(rest); rest != "" {
			for _, a := range strings.Split(rest, ",") {
				args = append(args, strings.TrimSpace(a))
			}
		}
		insts = append(insts, inst{op, args})
		switch {
		case asmIndexed.MatchString(line):
			report("indexed memory operand: %s", line)
		case asmHighVec.MatchString(line) || asmMaskReg.MatchString(line):
			report("AVX-512 register: %s", line)
		case strings.HasPrefix(op, "CALL") || op == "JMP":
			report("%s", line)
		}
	}
	if len(insts) < 2 || insts[len(insts)-1].op != "RET" || insts[len(insts)-2].op != "VZEROUPPER" {
		report("does not end with VZEROUPPER; RET")
	}

	// The loop counters, and every branch on them.
	counters := map[string]bool{}
	for i, in := range insts {
		if !strings.HasPrefix(in.op, "J") {
			continue
		}
		prev := insts[i-1]
		switch {
		case in.op == "JNZ" && prev.op == "DECQ" && len(prev.args) == 1:
			counters[prev.args[0]] = true
		case in.op == "JZ" && prev.op == "TESTQ" && len(prev.args) == 2 && prev.args[0] == prev.args[1]:
			counters[prev.args[0]] = true
		default:
			report("%s %v after %s %v is not a branch on a loop counter", in.op, in.args, prev.op, prev.args)
		}
	}
	if len(counters) == 0 {
		report("no loop")
	}
	for _, in := range insts {
		if len(in.args) == 0 || !counters[in.args[len(in.args)-1]] {
			continue
		}
		switch {
		case in.op == "DECQ", in.op == "TESTQ":
		case in.op == "MOVQ" && (strings.HasPrefix(in.args[0], "$") || asmArgument.MatchString(in.args[0])):
		default:
			report("%s %v writes the loop counter", in.op, in.args)
		}
	}
	return problems
}

// TestCheckConstantTimeAsm checks that the checker catches what it should.
func TestCheckConstantTimeAsm(t *testing.T) {
	good := []string{
		"MOVQ n+24(FP), SI", "TESTQ SI, SI", "JZ done", "blocks:",
		"MOVQ $+8, R8", "rounds:", "VPSHUFB (AX), Y1, Y2", "DECQ R8", "JNZ rounds",
		"DECQ SI", "JNZ blocks", "done:", "VZEROUPPER", "RET",
	}
	for _, bad := range [][2]string{
		{"VPSHUFB (AX), Y1, Y2", "VPSHUFB (AX)(BX*1), Y1, Y2"},
		{"VPSHUFB (AX), Y1, Y2", "VPSHUFB (AX), Y17, Y2"},
		{"MOVQ $+8, R8", "MOVQ (AX), R8"},
		{"DECQ R8", "CMPQ R8, AX"},
		{"VPSHUFB (AX), Y1, Y2", "CALL runtime·memmove(SB)"},
		{"VZEROUPPER", "NOP"},
	} {
		lines := replaceLine(good, bad[0], bad[1])
		if len(constantTimeAsmProblems(lines)) == 0 {
			t.Errorf("the checker accepts %q", bad[1])
		}
	}
	if p := constantTimeAsmProblems(good); p != nil {
		t.Errorf("the checker rejects good code: %v", p)
	}
}
