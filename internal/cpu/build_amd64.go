//go:build gc && !purego

package cpu

// The implementations of this build, in order of preference: the x86-64
// assembly of internal/kernel and internal/ghash, and the portable code.
var (
	blockImpls    = []string{"avx512-gfni", "avx512-vbmi", "avx2-ct", "avx2-gather", "avx2-vpgather", "amd64-3way", "amd64-1way", "generic", "generic-ct"}
	blockCTImpls  = []string{"avx512-gfni", "avx512-vbmi", "avx2-ct", "generic-ct"}
	scalarImpls   = []string{"bmi", "baseline"}
	ghashImpls    = []string{"avx512-vpclmulqdq", "avx2-vpclmulqdq", "pclmulqdq", "generic"}
	ocbMaskImpls  = []string{"avx512", "avx2", "sse2", "generic"}
	keySchedImpls = []string{"avx512-vbmi", "avx2", "generic"}
)

// scalarWhy is the reason of the scalar body's choice.
const scalarWhy = "the first body this CPU runs: with BMI1 and BMI2, BEXTR and SHRX read bytes 2 and 3 of a word, four instructions fewer a round (1.02x single blocks on Zen 5)"
