package kernel

import (
	"slices"
	"testing"
)

// asmConstantTime says, for every assembly file of the module, which test
// holds it to internal/asmscan's rule, or why none does. A new file must
// be added here, so that no constant-time code escapes the scans (until
// the rule gained a package of its own, ghash_amd64.s and ocb_amd64.s
// had no scan on amd64).
var asmConstantTime = map[string]string{
	"internal/kernel/avx512_amd64.s":        "scanned: TestAVX512AssemblyIsConstantTime",
	"internal/kernel/single_avx512_amd64.s": "scanned: TestSingleAVX512AssemblyIsConstantTime",
	"internal/kernel/key_avx512_amd64.s":    "scanned: TestKeyAVX512AssemblyIsConstantTime",
	"internal/kernel/avx2ct_amd64.s":        "scanned: TestAVX2CTAssemblyIsConstantTime",
	"internal/kernel/key_avx2_amd64.s":      "scanned: TestKeyAVX2AssemblyIsConstantTime",
	"internal/kernel/ocb_amd64.s":           "scanned: TestOCBMaskAssemblyIsConstantTime",
	"internal/kernel/neon_arm64.s":          "scanned: TestNEONAssemblyIsConstantTime",
	"internal/ghash/ghash_amd64.s":          "scanned: internal/ghash's TestAssemblyIsConstantTime",
	"internal/ghash/ghash_arm64.s":          "scanned: internal/ghash's TestPMULLAssemblyIsConstantTime",
	"internal/kernel/scalar_amd64.s":        "not constant-time: the table kernels amd64-3way, amd64-1way",
	"internal/kernel/avx2_amd64.s":          "not constant-time: the table kernels avx2-gather, avx2-vpgather",
	"internal/kernel/scalar_arm64.s":        "not constant-time: the table kernels of arm64",
	"internal/cpuclock/cpuclock_amd64.s":    "not cryptographic: the cycle counter of the benchmarks",
	"tools/ctgrind/request_amd64.s":         "not cryptographic: valgrind's client request",
}

// TestAssemblyFilesAreClassified checks that asmConstantTime names every
// .s file of the module, and no other.
func TestAssemblyFilesAreClassified(t *testing.T) {
	files := moduleFiles(t, ".s")
	for _, f := range files {
		if asmConstantTime[f] == "" {
			t.Errorf("%s: not in asmConstantTime: scan it with internal/asmscan if it is constant-time, or say why not", f)
		}
	}
	for f := range asmConstantTime {
		if !slices.Contains(files, f) {
			t.Errorf("asmConstantTime names %s, which does not exist", f)
		}
	}
}
