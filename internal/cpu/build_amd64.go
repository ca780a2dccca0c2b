//go:build gc && !purego

package cpu

// The implementations of this build, in order of preference: the x86-64
// assembly of internal/kernel and internal/ghash, and the portable code.
var (
	blockImpls   = []string{"avx512-vbmi", "avx2-ct", "avx2-gather", "avx2-vpgather", "amd64-3way", "amd64-1way", "generic", "generic-ct"}
	blockCTImpls = []string{"avx512-vbmi", "avx2-ct", "generic-ct"}
	scalarImpls  = []string{"bmi", "baseline"}
	ghashImpls   = []string{"avx512-vpclmulqdq", "avx2-vpclmulqdq", "pclmulqdq", "generic"}
	ocbMaskImpls = []string{"avx512", "avx2", "sse2", "generic"}
)
