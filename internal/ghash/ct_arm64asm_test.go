package ghash

import (
	"os"
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/asmscan"
)

// TestPMULLAssemblyIsConstantTime reads ghash_arm64.s and checks, on any
// architecture, what makes it constant-time (asmscan.ARM64Problems): no
// memory operand has an index register, no general-purpose register is
// loaded from memory but the arguments or from a vector register (so every
// address is a pointer argument plus a constant), every instruction that
// sets the flags or branches on a register reads only the block count,
// R3, and no division or square root.
func TestPMULLAssemblyIsConstantTime(t *testing.T) {
	data, err := os.ReadFile("ghash_arm64.s")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	if !strings.Contains(string(data), "TEXT ·ghashBlocksPMULL(SB)") {
		t.Error("ghash_arm64.s has no function ghashBlocksPMULL: is it the file this test expects?")
	}
	for _, p := range asmscan.ARM64Problems(lines) {
		t.Error("ghash_arm64.s:", p)
	}
}
