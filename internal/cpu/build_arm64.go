//go:build gc && !purego

package cpu

// The implementations of this build, in order of preference: the arm64
// assembly of internal/kernel and internal/ghash, and the portable code.
var (
	blockImpls    = []string{"arm64-neon", "arm64-2way", "arm64-1way", "generic", "generic-ct"}
	blockCTImpls  = []string{"arm64-neon", "generic-ct"}
	scalarImpls   = []string{"generic"}
	ghashImpls    = []string{"pmull", "generic"}
	ocbMaskImpls  = []string{"generic"}
	keySchedImpls = []string{"generic"}
)

// scalarWhy is the reason of the scalar body's choice.
const scalarWhy = "only the portable code's body in this build"
