package kernel

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// arm64CTProblems returns what in the arm64 assembly lines could make
// their time depend on data: a memory operand with an index register, an
// instruction that sets the flags or branches on a register other than the
// block count R3, or a general-purpose register loaded from memory (other
// than an argument) or from a vector register, which could then become an
// address or a branch condition.
func arm64CTProblems(lines []string) []string {
	indexed := regexp.MustCompile(`\(R\d+\)\(R\d+`)
	regs := regexp.MustCompile(`\bR\d+\b`)
	gpr := regexp.MustCompile(`^R\d+$`)
	vec := regexp.MustCompile(`\b[VF]\d+`)
	var problems []string
	for i, line := range lines {
		if j := strings.Index(line, "//"); j >= 0 {
			line = line[:j]
		}
		fields := strings.Fields(strings.ReplaceAll(line, ",", " "))
		if len(fields) == 0 || strings.HasSuffix(fields[0], ":") {
			continue
		}
		op, args := fields[0], fields[1:]
		report := func(what string) {
			problems = append(problems, strings.TrimSpace(line)+": "+what+" (line "+strconv.Itoa(i+1)+")")
		}
		if indexed.MatchString(line) {
			report("a memory operand with an index register")
		}
		switch op {
		case "CMP", "CMPW", "SUBS", "SUBSW", "ADDS", "ADDSW", "ANDS", "ANDSW", "TST", "TSTW",
			"CBZ", "CBNZ", "CBZW", "CBNZW", "TBZ", "TBNZ", "CSEL", "CSELW":
			for _, r := range regs.FindAllString(line, -1) {
				if r != "R3" {
					report("a flag or branch that reads " + r)
				}
			}
		}
		if len(args) >= 2 && gpr.MatchString(args[len(args)-1]) {
			src := strings.Join(args[:len(args)-1], " ")
			switch {
			case strings.Contains(src, "(") && !strings.Contains(src, "(FP)") && !strings.Contains(src, "(SB)"):
				report("a general-purpose register loaded from memory")
			case vec.MatchString(src):
				report("a general-purpose register loaded from a vector register")
			}
		}
	}
	return problems
}

func TestARM64CTScanner(t *testing.T) {
	for line, bad := range map[string]bool{
		"\tMOVWU (R0)(R13<<2), R13":           true,
		"\tVLD1 (R6)(R9), [V14.B16]":          true,
		"\tCMP $8, R9":                        true,
		"\tCBZ R9, done":                      true,
		"\tMOVD 8(R7), R9":                    true,
		"\tVMOV V1.D[0], R9":                  true,
		"\tFMOVD F1, R9":                      true,
		"\tCBZ R3, done":                      false,
		"\tSUBS $1, R3":                       false,
		"\tMOVD ks+0(FP), R0":                 false,
		"\tMOVD $neonMDS<>(SB), R8":           false,
		"\tVLD1.P 64(R6), [V14.B16, V15.B16]": false,
		"\tFMOVQ 256(R7), F8":                 false,
		"\tVTBL V8.B16, [V14.B16], V12.B16":   false,
		"\tADD $4096, R0, R4":                 false,
	} {
		if got := len(arm64CTProblems([]string{line})) > 0; got != bad {
			t.Errorf("arm64CTProblems(%q) = %v, want a problem: %v", line, arm64CTProblems([]string{line}), bad)
		}
	}
}

// TestNEONAssemblyIsConstantTime reads neon_arm64.s, on any architecture,
// and checks that it has both kernels and nothing arm64CTProblems reports.
func TestNEONAssemblyIsConstantTime(t *testing.T) {
	data, err := os.ReadFile("neon_arm64.s")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for _, fn := range []string{"encryptBlocks16NEON", "decryptBlocks16NEON"} {
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "TEXT ·"+fn+"(SB)") }) {
			t.Errorf("neon_arm64.s has no function %s", fn)
		}
	}
	for _, p := range arm64CTProblems(lines) {
		t.Error(p)
	}
}
