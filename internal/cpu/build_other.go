//go:build (!amd64 && !arm64) || !gc || purego

package cpu

// The implementations of this build: the portable code only.
var (
	blockImpls    = []string{"generic", "generic-ct"}
	blockCTImpls  = []string{"generic-ct"}
	scalarImpls   = []string{"generic"}
	ghashImpls    = []string{"generic"}
	ocbMaskImpls  = []string{"generic"}
	keySchedImpls = []string{"generic"}
)

// scalarWhy is the reason of the scalar body's choice.
const scalarWhy = "only the portable code's body in this build"
