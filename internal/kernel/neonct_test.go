package kernel

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/asmscan"
)

// TestARM64CTScanner checks asmscan.ARM64Problems line by line: each kind of
// instruction it must report (every name of a flag setter, branch or
// select on a register, division, pair load, indirect branch, raw word),
// and lines of the NEON kernels that it must accept.
func TestARM64CTScanner(t *testing.T) {
	for line, bad := range map[string]bool{
		"\tMOVWU (R0)(R13<<2), R13":               true,
		"\tVLD1 (R6)(R9), [V14.B16]":              true,
		"\tCMP $8, R9":                            true,
		"\tCBZ R9, done":                          true,
		"\tMOVD 8(R7), R9":                        true,
		"\tVMOV V1.D[0], R9":                      true,
		"\tFMOVD F1, R9":                          true,
		"\tLDP (R0), (R1, R2)":                    true,
		"\tLDP.P 16(R0), (R1, R2)":                true,
		"\tUDIV R1, R2, R4":                       true,
		"\tFCMPD F1, F2":                          true,
		"\tCCMP NE, R9, $0, $0":                   true,
		"\tVMOV V1.D[0], g":                       true,
		"\tVMOV V1.D[0], LR":                      true,
		"\tVMOV V1.D[0], R18_PLATFORM":            true,
		"\tCBZ g, done":                           true,
		"\tMOVD ·global(SB), R9":                  true,
		"\tMRS FPSR, R9":                          true,
		"\tCASPD (R4, R5), (R0), (R6, R7)":        true,
		"\tBL ·encryptBlocks1x(SB)":               true,
		"\tCALL ·encryptBlocks1x(SB)":             true,
		"\tB ·decryptBlocks1x(SB)":                true,
		"\tB (R9)":                                true,
		"\tRET R9":                                true,
		"\tVMOV V1.D[0], R9; NOP":                 true,
		"\tNOP /* x */":                           true,
		"\t#define LEAK(r) VMOV V1.D[0], r":       true,
		"\tWORD $0x4e083c29":                      true,
		"\tDWORD $0x4e083c294e083c29":             true,
		"\t#include \"textflag.h\"; MRS FPSR, R9": true,
		"\tFMOVD (R0)(R1<<3), F2":                 true,
		"\tLDPSW (R0), (R1, R2)":                  true,
		"\tLDP ·global(SB), (R1, R2)":             true,
		"\tCMN $1, R9":                            true,
		"\tTSTW $1, R9":                           true,
		"loop: CBZ R9, done":                      true,
		"done:\tUDIV R1, R2, R4":                  true,
		"loop:":                                   false,
		"loop: SUBS $1, R3":                       false,
		"\tCMP RSP, R3":                           true,
		"\tTBZ $0, R9, done":                      true,
		"\tCSEL EQ, R1, R2, R4":                   true,
		"\tCSET EQ, R9":                           true,
		"\tFCCMPD NE, F1, F2, $0":                 true,
		"\tUDIVW R1, R2, R4":                      true,
		"\tJMP R9":                                true,
		"// MOVD 8(R7), R9; CBZ R9, done":         false,
		"\tB loop":                                false,
		"\tBNE loop":                              false,
		"\tRET":                                   false,
		"\tMOVD $·global(SB), R9":                 false,
		"\tFLDPQ (R0), (F1, F2)":                  false,
		"\tCBZ R3, done":                          false,
		"\tSUBS $1, R3":                           false,
		"\tMOVD ks+0(FP), R0":                     false,
		"\tMOVD $neonMDS<>(SB), R8":               false,
		"\tVLD1.P 64(R6), [V14.B16, V15.B16]":     false,
		"\tFMOVQ 256(R7), F8":                     false,
		"\tVTBL V8.B16, [V14.B16], V12.B16":       false,
		"\tADD $4096, R0, R4":                     false,
	} {
		if got := len(asmscan.ARM64Problems([]string{line})) > 0; got != bad {
			t.Errorf("asmscan.ARM64Problems(%q) = %v, want a problem: %v", line, asmscan.ARM64Problems([]string{line}), bad)
		}
	}
}

// TestNEONAssemblyIsConstantTime reads neon_arm64.s, on any architecture,
// and checks that it has every kernel and nothing asmscan.ARM64Problems
// reports.
func TestNEONAssemblyIsConstantTime(t *testing.T) {
	data, err := os.ReadFile("neon_arm64.s")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for _, fn := range []string{"encryptBlocks16NEON", "decryptBlocks16NEON", "encryptBlock1NEON", "decryptBlock1NEON"} {
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "TEXT ·"+fn+"(SB)") }) {
			t.Errorf("neon_arm64.s has no function %s", fn)
		}
	}
	for _, p := range asmscan.ARM64Problems(lines) {
		t.Error(p)
	}
}
