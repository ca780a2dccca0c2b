//go:build gc && !purego

package kernel

import (
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/asmscan"
)

// TestOCBMaskAssemblyIsConstantTime holds ocb_amd64.s (the offsets of
// OCB's bulk, on the constant-time path of every OCB) to asmscan's rule:
// every general-purpose register public (written from the arguments,
// constants and other such registers only), no flags from memory, vector
// or mask data, no gather, no instruction of variable latency, no CALL.
// Its functions index the batch by a block offset in a general-purpose
// register, (CX)(R9*1), and take min(n, 64) with CMOVQLT: public values,
// which the rule's relaxations IndexRegisters and CMOV allow. ocbMaskSSE2
// has no VEX encoding and need not end with VZEROUPPER.
func TestOCBMaskAssemblyIsConstantTime(t *testing.T) {
	want := []string{"ocbMaskSSE2", "ocbMaskAVX2", "ocbMaskAVX512"}
	asmscan.CheckFile(t, "ocb_amd64.s", want, func(fn string) asmscan.Rules {
		return asmscan.Rules{IndexRegisters: true, CMOV: true, NoVZEROUPPER: strings.HasSuffix(fn, "SSE2")}
	})
}
