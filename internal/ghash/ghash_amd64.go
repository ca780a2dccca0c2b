//go:build gc && !purego

package ghash

//go:generate go run -C ../../_asm/ghash . -out ../../internal/ghash/ghash_amd64.s -pkg ghash

// The x86-64 GHASH functions. Their bodies are in ghash_amd64.s, generated
// by _asm/ghash; each hashes n whole blocks of data into the running value
// y with the key powers of Key. Callers check lengths in Go.

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

// ghashPowersCLMUL sets powers[i] to H^(16-i)·x⁻¹, i = 14 down to 0, from
// powers[15] = H·x⁻¹. It needs PCLMULQDQ and SSE2. Implemented in
// ghash_amd64.s.
//
//go:noescape
func ghashPowersCLMUL(powers *[ghashPowers][16]byte)

// powersAsm fills k's powers from the last one with ghashPowersCLMUL and
// reports true, unless k hashes with the portable code: every assembly
// implementation runs PCLMULQDQ.
func powersAsm(k *Key) bool {
	if k.impl == ghashGeneric {
		return false
	}
	ghashPowersCLMUL(&k.powers)
	return true
}

// ghashImpl names a GHASH implementation.
type ghashImpl uint8

const (
	ghashGeneric ghashImpl = iota
	ghashCLMUL
	ghashAVX2
	ghashAVX512
)

// implOf returns the implementation internal/cpu calls name.
func implOf(name string) ghashImpl {
	switch name {
	case "avx512-vpclmulqdq":
		return ghashAVX512
	case "avx2-vpclmulqdq":
		return ghashAVX2
	case "pclmulqdq":
		return ghashCLMUL
	}
	return ghashGeneric
}

// Blocks hashes the whole blocks of data into y.
func Blocks(k *Key, y *[16]byte, data []byte) {
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
