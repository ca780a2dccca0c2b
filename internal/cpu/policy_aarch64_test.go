package cpu

import (
	"slices"
	"strings"
	"testing"
)

// arm64BlockImpls are the block implementations of the arm64 build, which
// arm64Policy chooses from on every architecture.
var arm64BlockImpls = []string{"arm64-neon", "arm64-2way", "arm64-1way", "generic", "generic-ct"}

// Synthetic arm64 CPUs, with the facts that klauspost/cpuid reports for
// them from AT_HWCAP (Linux) or sysctl (macOS).
var (
	neoverseN1 = Facts{Vendor: "Arm Limited", ASIMD: true, PMULL: true}
	raspberry  = Facts{Vendor: "Arm Limited", ASIMD: true} // Cortex-A72 without the Crypto Extensions
)

func TestARM64Policy(t *testing.T) {
	name, reason, s := arm64Policy()
	for _, c := range []struct{ part, name, why string }{
		{Block, name, reason}, {Single, s.single, s.singleWhy}, {Short, s.short, s.shortWhy},
	} {
		if !slices.Contains(arm64BlockImpls, c.name) {
			t.Errorf("%s: %q is no implementation of the arm64 build", c.part, c.name)
		}
		if c.why == "" || strings.ContainsAny(c.why, "\n\r") {
			t.Errorf("%s: reason %q is not one line", c.part, c.why)
		}
		if c.name != "generic" && c.part != Short && !strings.Contains(c.why, "estimate") {
			t.Errorf("%s: %s chosen, and the reason %q does not say it is an estimate", c.part, c.name, c.why)
		}
	}
	if s.below != 0 {
		t.Errorf("short runs below %d blocks, with a ladder that takes every run", s.below)
	}
	if slices.Equal(blockImpls, arm64BlockImpls) {
		for _, f := range []Facts{neoverseN1, raspberry, {}} {
			c := Decide(f)
			if c.Block.Name != name || c.Single.Name != s.single || c.Short.Name != s.short || c.Short.Below != s.below {
				t.Errorf("%+v: Decide chose %s, %s and %s below %d; arm64Policy says %s, %s and %s below %d",
					f, c.Block.Name, c.Single.Name, c.Short.Name, c.Short.Below, name, s.single, s.short, s.below)
			}
		}
	}
}

// TestARM64Supports checks the rules of the arm64 implementations: the
// table kernels need only baseline arm64, the NEON kernel ASIMD, GHASH's
// PMULL kernel ASIMD and PMULL, and no x86 fact turns those on.
func TestARM64Supports(t *testing.T) {
	x86 := with(intelAVX2, func(f *Facts) { avx512(f); f.SSSE3, f.CLMUL, f.VPCLMULQDQ = true, true, true })
	for _, tc := range []struct {
		name        string
		f           Facts
		neon, pmull bool
	}{
		{"Neoverse N1", neoverseN1, true, true},
		{"Cortex-A72 without the Crypto Extensions", raspberry, true, false},
		{"PMULL without ASIMD", Facts{PMULL: true}, false, false},
		{"nothing known", Facts{}, false, false},
		{"x86 with every carry-less multiplication", x86, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := supports(tc.f, GHASH, "pmull"); got != tc.pmull {
				t.Errorf("supports(GHASH, pmull) = %v, want %v", got, tc.pmull)
			}
			for _, part := range []string{Block, BlockCT, Short, Single} {
				if got := supports(tc.f, part, "arm64-neon"); got != tc.neon {
					t.Errorf("supports(%s, arm64-neon) = %v, want %v", part, got, tc.neon)
				}
			}
			for _, part := range []string{Block, Short, Single} {
				for _, name := range []string{"arm64-2way", "arm64-1way"} {
					if !supports(tc.f, part, name) {
						t.Errorf("supports(%s, %s) = false; it needs only baseline arm64", part, name)
					}
				}
			}
			if slices.Equal(blockImpls, arm64BlockImpls) {
				ghash := map[bool]string{true: "pmull", false: "generic"}[tc.pmull]
				ct := map[bool]string{true: "arm64-neon", false: "generic-ct"}[tc.neon]
				if c := Decide(tc.f); c.GHASH.Name != ghash || c.BlockCT.Name != ct {
					t.Errorf("Decide chose GHASH %s and constant-time %s, want %s and %s", c.GHASH.Name, c.BlockCT.Name, ghash, ct)
				}
			}
		})
	}
}

func TestARM64Features(t *testing.T) {
	if got := neoverseN1.Features(); !slices.Equal(got, []string{"ASIMD", "PMULL"}) {
		t.Errorf("Features() = %v", got)
	}
}
