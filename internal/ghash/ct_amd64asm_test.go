package ghash

import (
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/asmscan"
)

// TestAssemblyIsConstantTime holds ghash_amd64.s to asmscan's rule, as
// internal/kernel holds the AVX-512 kernels: every general-purpose
// register public (written from the arguments, constants and other such
// registers only), no flags from memory, vector or mask data, no gather,
// no instruction of variable latency, no CALL. The tails address the last
// powers and the AVX-512 tail's mask by the block count in a
// general-purpose register, (AX)(SI*1): public, which the relaxation
// IndexRegisters allows. The CLMUL functions have no VEX encoding and
// need not end with VZEROUPPER.
func TestAssemblyIsConstantTime(t *testing.T) {
	want := []string{"ghashBlocksCLMUL", "ghashBlocksAVX2", "ghashBlocksAVX512", "ghashPowersCLMUL"}
	asmscan.CheckFile(t, "ghash_amd64.s", want, func(fn string) asmscan.Rules {
		return asmscan.Rules{IndexRegisters: true, NoVZEROUPPER: strings.HasSuffix(fn, "CLMUL")}
	})
}
