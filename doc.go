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
// (kernels) and picks the fastest one this CPU runs, once per process:
// Implementations lists them and AutoImplementation says which NewCipher
// uses and why. A Cipher keeps a ladder of kernels, widest first; bulk
// operations (the parallel modes: ECB, CBC decryption, CTR) give the widest
// kernel as many blocks as fit and narrower ones the rest, while single
// blocks and serial modes (CBC encryption) use the narrowest. NewCipherImpl
// pins one implementation, for tests and benchmarks.
//
// The kernel "generic" is portable Go and runs everywhere. On x86-64 the
// assembly kernels are "amd64-1way" and "amd64-3way" (baseline x86-64; the
// 1-way kernel has a faster body for CPUs with BMI1 and BMI2),
// "avx2-gather" and "avx2-vpgather" (16 blocks with AVX2), "avx2-ct" (64
// blocks with AVX2, constant-time) and "avx512-vbmi" (64 blocks with
// AVX-512 VBMI, constant-time); "generic-ct" is constant-time portable Go.
// Building with the purego tag (go build -tags purego) leaves out all
// assembly.
//
// The environment variable TWOFISH_IMPL, read once per process, overrides
// the automatic choice of NewCipher (never NewCipherImpl): TWOFISH_IMPL=generic
// forces the portable code. A name that is unknown or not supported on this
// CPU is ignored, and AutoImplementation's reason (also shown by
// `twofish info`) says so.
//
// # Timing
//
// Kernels whose Implementation.ConstantTime is false, the generic one among
// them, index key-dependent tables with secret data, as every widely used
// Twofish does: their timing can leak key and data through the cache to an
// attacker who shares the machine. crypto/aes documents the same caveat for
// its portable code. The constant-time kernels compute the S-boxes instead
// (nibble look-ups in registers, VPSHUFB or VPERMI2B), make no
// secret-dependent memory access or branch, build their key material the
// same way, and hand leftover blocks only to constant-time kernels. Where
// the CPU policy picks one (AVX-512 VBMI), NewCipher is constant-time; to
// require it everywhere, use NewCipherConstantTime (and NewXTSConstantTime),
// which take the fastest constant-time kernel this CPU runs whatever
// TWOFISH_IMPL says; Cipher.ConstantTime reports which kind a Cipher is.
//
// # Test vectors
//
// The tests run the known-answer (ECB_TBL) and Monte Carlo (ECB_E_M,
// ECB_D_M, CBC_E_M, CBC_D_M) files of the Twofish AES submission through
// every implementation, and compare every implementation with generic and
// with golang.org/x/crypto/twofish.
package twofish
