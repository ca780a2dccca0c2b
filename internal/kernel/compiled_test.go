package kernel

import (
	"testing"

	"github.com/twofish-go/twofish/internal/asmscan"
)

// TestCompiledConstantTime reads the machine code that the compiler makes
// of the key schedules, of the Go block functions of the constant-time
// kernels (generic-ct, the bitsliced one) and of OCB's offsets for an
// instruction whose latency depends on its operands, a division say, or on
// 32-bit arm a multiplication, which neither memcheck nor the scans of the
// assembly files would see: for this architecture, and in exhaustive runs
// for the others too.
func TestCompiledConstantTime(t *testing.T) {
	asmscan.CheckCompiled(t, "github.com/twofish-go/twofish/internal/kernel", []string{
		"key.go", "key_ct.go", "key_bitsliced.go", "key_avx512.go", "q_bitsliced.go",
		"block_generic_ct.go", "block_bitsliced.go", "ocb.go",
	}, exhaustive(), false)
}
