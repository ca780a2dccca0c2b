package kernel

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The arm64 assembly must keep Go's frame-pointer convention as the
// x86-64 assembly keeps BP (asm_amd64_test.go): R29 holds the caller's
// frame pointer and R30 the return address, so that unwinders (perf, eBPF
// profilers, the Go tracer) walk through a kernel at any instruction. The
// generators (_asm/internal/a64) never name either and give no function a
// frame; this test reads every *_arm64.s of the module to hold the line,
// on any architecture.

// arm64Refused matches the registers that no arm64 assembly line may name:
// the frame pointer and link register under each of their names, g, the
// platform register and the assembler's temporary.
var arm64Refused = regexp.MustCompile(`\b(R29|RFP|R30|LR|R28|g|R18|R18_PLATFORM|R27|RSP)\b`)

// arm64FPProblem returns what is wrong with one line of arm64 assembly for
// the frame-pointer convention, or "".
func arm64FPProblem(line string) string {
	if i := strings.Index(line, "//"); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSpace(line)
	if m := arm64Refused.FindString(line); m != "" {
		return "names " + m
	}
	if strings.HasPrefix(line, "TEXT") && !strings.Contains(line, "$0-") {
		return "gives the function a frame"
	}
	return ""
}

func TestARM64FPScanner(t *testing.T) {
	for line, bad := range map[string]bool{
		"\tMOVD R0, R29":                      true,
		"\tSTP (R29, R30), -16(RSP)":          true,
		"\tLDPW 8(R8), (R13, R29)":            true,
		"\tMOVD LR, R1":                       true,
		"\tEORW R29@>31, R1, R2":              true,
		"\tMOVD 16(g), R1":                    true,
		"TEXT ·f(SB), NOSPLIT, $16-32":        true,
		"TEXT ·f(SB), NOSPLIT, $0-32":         false,
		"\tMOVWU (R0)(R13<<2), R13":           false,
		"\tVPMULL V8.D1, V20.D1, V18.Q1":      false,
		"\tEORW R12@>31, R17, R12 // not R29": false,
		"ghashBlocksPMULL_run:":               false,
		"\tRET":                               false,
	} {
		if got := arm64FPProblem(line) != ""; got != bad {
			t.Errorf("arm64FPProblem(%q) = %q, want a problem: %v", line, arm64FPProblem(line), bad)
		}
	}
}

// TestARM64AssemblyKeepsFP scans every *_arm64.s of the module.
func TestARM64AssemblyKeepsFP(t *testing.T) {
	files := moduleFiles(t, "_arm64.s")
	if len(files) == 0 {
		t.Fatal("no *_arm64.s files found")
	}
	for _, name := range files {
		data, err := os.ReadFile(filepath.Join("../..", name))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if p := arm64FPProblem(line); p != "" {
				t.Errorf("%s:%d %s: %s", name, i+1, p, strings.TrimSpace(line))
			}
		}
	}
	t.Logf("scanned %s", strings.Join(files, ", "))
}
