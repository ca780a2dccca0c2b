//go:build !amd64 || !gc || purego

package cpu

// The implementations of this build: the portable code only.
var (
	blockImpls   = []string{"generic", "generic-ct"}
	blockCTImpls = []string{"generic-ct"}
	scalarImpls  = []string{"generic"}
	ghashImpls   = []string{"generic"}
	ocbMaskImpls = []string{"generic"}
)
