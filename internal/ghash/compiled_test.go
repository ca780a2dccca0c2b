package ghash

import (
	"os"
	"testing"

	"github.com/twofish-go/twofish/internal/asmscan"
)

// TestCompiledConstantTime reads the machine code that the compiler makes of
// the portable GHASH for an instruction whose latency depends on its
// operands, which neither memcheck nor the scans of the assembly files
// would see: for this architecture, and in exhaustive runs for the others
// too. Its multiplications are allowed on 32-bit arm, where some cores end
// them early (the package's documentation says so).
func TestCompiledConstantTime(t *testing.T) {
	asmscan.CheckCompiled(t, "github.com/twofish-go/twofish/internal/ghash", []string{"ghash.go"}, os.Getenv("TWOFISH_TEST_EXHAUSTIVE") == "1", true)
}
