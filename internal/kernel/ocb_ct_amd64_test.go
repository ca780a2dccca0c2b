//go:build gc && !purego

package kernel

import (
	"os"
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
	const name = "ocb_amd64.s"
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	funcs := asmscan.Functions(string(data))
	for _, want := range []string{"ocbMaskSSE2", "ocbMaskAVX2", "ocbMaskAVX512"} {
		if funcs[want] == nil {
			t.Errorf("%s has no function %s", name, want)
		}
	}
	for fn, lines := range funcs {
		rules := asmscan.Rules{IndexRegisters: true, CMOV: true, NoVZEROUPPER: strings.HasSuffix(fn, "SSE2")}
		for _, p := range asmscan.Problems(lines, rules) {
			t.Errorf("%s: %s: %s", name, fn, p)
		}
	}
}
