//go:build gc && !purego

package twofish

import "github.com/klauspost/cpuid/v2"

//go:generate sh -c "cd _asm/ghash && go run . -out ../../ghash_amd64.s -pkg twofish"

// The x86-64 GHASH functions. Their bodies are in ghash_amd64.s, generated
// by _asm/ghash; each hashes n whole blocks of data into the running value
// y with the key powers of ghashKey. Callers check lengths in Go.

// ghashBlocksCLMUL needs PCLMULQDQ, SSE2 and SSSE3. Implemented in
// ghash_amd64.s.
//
//go:noescape
func ghashBlocksCLMUL(powers *[ghashPowers][16]byte, y *[16]byte, data *byte, n int)

// ghashBlocksAVX2 needs AVX, AVX2, PCLMULQDQ and VPCLMULQDQ (and the
// operating system's support for the ymm registers). Implemented in ghash_amd64.s.
//
//go:noescape
func ghashBlocksAVX2(powers *[ghashPowers][16]byte, y *[16]byte, data *byte, n int)

// ghashBlocksAVX512 needs AVX, AVX2, AVX512F, AVX512BW, PCLMULQDQ and
// VPCLMULQDQ (and the operating system's support for the zmm registers).
// Implemented in ghash_amd64.s.
//
//go:noescape
func ghashBlocksAVX512(powers *[ghashPowers][16]byte, y *[16]byte, data *byte, n int)

// ghashImpl names a GHASH implementation.
type ghashImpl uint8

const (
	ghashGeneric ghashImpl = iota
	ghashCLMUL
	ghashAVX2
	ghashAVX512
)

// What this CPU runs: exactly the features of each function's "Requires"
// line in ghash_amd64.s (cpuid calls PCLMULQDQ CLMUL). klauspost/cpuid
// reports AVX, AVX2 and the AVX-512 subsets only when the operating system
// saves the registers they use.
var (
	haveGHASHCLMUL  = cpuid.CPU.Supports(cpuid.CLMUL, cpuid.SSE2, cpuid.SSSE3)
	haveGHASHAVX2   = cpuid.CPU.Supports(cpuid.AVX, cpuid.AVX2, cpuid.CLMUL, cpuid.VPCLMULQDQ)
	haveGHASHAVX512 = cpuid.CPU.Supports(cpuid.AVX, cpuid.AVX2, cpuid.AVX512F, cpuid.AVX512BW, cpuid.CLMUL, cpuid.VPCLMULQDQ)
)

// ghashImplementations lists the GHASH implementations of this build,
// widest first.
func ghashImplementations() []ghashImplInfo {
	return []ghashImplInfo{
		{"avx512-vpclmulqdq", ghashAVX512, haveGHASHAVX512},
		{"avx2-vpclmulqdq", ghashAVX2, haveGHASHAVX2},
		{"pclmulqdq", ghashCLMUL, haveGHASHCLMUL},
		{"generic", ghashGeneric, true},
	}
}

// ghashAuto is the implementation new keys use: the widest this CPU runs.
var ghashAuto = func() ghashImpl {
	for _, g := range ghashImplementations() {
		if g.supported {
			return g.impl
		}
	}
	return ghashGeneric
}()

// ghashBlocks hashes the whole blocks of data into y.
func ghashBlocks(k *ghashKey, y *[16]byte, data []byte) {
	n := len(data) / 16
	if n == 0 {
		return
	}
	switch k.impl {
	case ghashAVX512:
		ghashBlocksAVX512(&k.powers, y, &data[0], n)
	case ghashAVX2:
		ghashBlocksAVX2(&k.powers, y, &data[0], n)
	case ghashCLMUL:
		ghashBlocksCLMUL(&k.powers, y, &data[0], n)
	default:
		ghashBlocksGeneric(k, y, data)
	}
}
