package ghash

import (
	"testing"

	"github.com/twofish-go/twofish/internal/asmscan"
)

// TestCompiledConstantTime reads the machine code that the compiler made of
// the portable GHASH for an instruction whose latency depends on its
// operands, which neither memcheck nor the scans of the assembly files
// would see.
func TestCompiledConstantTime(t *testing.T) {
	asmscan.CheckCompiled(t, "github.com/twofish-go/twofish/internal/ghash", []string{"ghash.go"})
}
