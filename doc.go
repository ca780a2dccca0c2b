// Package twofish implements the Twofish block cipher (Bruce Schneier, John
// Kelsey, Doug Whiting, David Wagner, Chris Hall and Niels Ferguson,
// "Twofish: A 128-Bit Block Cipher", 1998) and the modes it is used in.
//
// It is a drop-in replacement for the deprecated golang.org/x/crypto/twofish:
// NewCipher, BlockSize, KeySizeError and the cipher.Block methods behave as
// they do there, with crypto/aes's checks added to Encrypt and Decrypt (they
// panic on short buffers and on buffers that overlap other than exactly).
//
// # Implementations
//
// The package holds several implementations of the same block function
// (kernels) and picks, once per process, the fastest this CPU runs for each
// shape of work: long runs of blocks (the parallel modes: ECB, CBC and CFB
// decryption, CTR, XTS, GCM, OCB), short runs, where a wide kernel's call
// costs more than the blocks, and single blocks (Encrypt and Decrypt, and
// so the serial modes: CBC and CFB encryption, OFB, CMAC), where latency is
// all. Cipher.Paths says which kernel serves each; Implementations lists
// them and AutoImplementation says which takes NewCipher's long runs and
// why. NewCipherImpl pins one implementation for every shape, its narrower
// kernels taking what is left of a run, for tests and benchmarks.
//
// The kernel "generic" is portable Go and runs everywhere. On x86-64 the
// assembly kernels are "amd64-1way" and "amd64-3way" (baseline x86-64; the
// 1-way kernel has a faster body for CPUs with BMI1 and BMI2),
// "avx2-gather" and "avx2-vpgather" (16 blocks with AVX2), "avx2-ct" (64
// blocks with AVX2, constant-time), "avx512-vbmi" (64 blocks with
// AVX-512 VBMI, constant-time) and "avx512-gfni" (avx512-vbmi with GFNI for
// the MDS products, on CPUs that also have VPCLMULQDQ, constant-time); on
// arm64 they are "arm64-1way" and
// "arm64-2way" (table kernels, baseline arm64) and "arm64-neon" (16 blocks
// with NEON, constant-time), and GCM's GHASH uses PMULL where the CPU has
// it; "generic-ct" is constant-time portable Go.
// Building with the purego tag (go build -tags purego) leaves out all
// assembly.
//
// The environment variable TWOFISH_IMPL, read once per process, pins
// NewCipher's kernels as NewCipherImpl would (never those of
// NewCipherConstantTime): TWOFISH_IMPL=generic forces the portable code. A name that is unknown or not supported on this
// CPU is ignored, and AutoImplementation's reason (also shown by
// `twofish info`) says so; an empty value counts as unset.
//
// The cpu.* options of GODEBUG, Go's switch for CPU features, apply as
// they do to Go's runtime and crypto packages: GODEBUG=cpu.avx512f=off
// keeps every kernel of the package, constant-time ones, GHASH and the key
// schedule included, off AVX-512; cpu.avx2=off off AVX2 and AVX-512;
// cpu.all=off on baseline code. The names are those of Go's internal/cpu
// and golang.org/x/sys/cpu that a kernel uses: avx, avx2, avx512f (or
// avx512), avx512bw, avx512vl, avx512vbmi, avx512gfni, vpclmulqdq (or
// avx512vpclmulqdq), pclmulqdq, ssse3, bmi1, bmi2, asimd and pmull. Go's
// runtime warns at start-up of a name that only x/sys/cpu knows
// (avx512, avx512vbmi, avx512gfni, avx512vpclmulqdq, asimd), and obeys
// the rest.
//
// # Timing
//
// Kernels whose Implementation.ConstantTime is false, the generic one among
// them, index key-dependent tables with secret data, as every widely used
// Twofish does: their timing can leak key and data through the cache to an
// attacker who shares the machine. crypto/aes documents the same caveat for
// its portable code. The constant-time kernels compute the S-boxes instead
// (look-ups in registers: VPSHUFB on nibbles, VPERMI2B or TBL/TBX on bytes;
// generic-ct evaluates q0 and q1 as Boolean circuits on bit planes, 16
// blocks at a time, and single blocks by shifting nibble tables packed into
// integers), make no
// secret-dependent memory access or branch, build their key material the
// same way, and hand leftover blocks only to constant-time kernels.
// NewCipher uses table kernels for single blocks and short runs on every
// CPU, where the constant-time ones are up to 3x (AVX-512) to 8x (AVX2)
// slower (a single block on Zen 5), and for long runs where no AVX-512 VBMI
// is usable. To require constant time, use NewCipherConstantTime (and
// NewXTSConstantTime), which take the fastest constant-time kernel this CPU
// runs for every shape whatever TWOFISH_IMPL says; Cipher.ConstantTime
// reports which kind a Cipher is.
//
// # Test vectors
//
// The tests run the known-answer (ECB_TBL) and Monte Carlo (ECB_E_M,
// ECB_D_M, CBC_E_M, CBC_D_M) files of the Twofish AES submission through
// every implementation, and compare every implementation with generic and
// with golang.org/x/crypto/twofish.
package twofish
