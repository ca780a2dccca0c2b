//go:build gc && !purego

package kernel

// The scalar arm64 kernels. Their bodies are in scalar_arm64.s, generated
// by _asm/arm64scalar (see the go:generate line in dispatch_arm64.go); they
// need only baseline arm64 and never write R29 or R30, so frame-pointer
// unwinding works from inside them. Each processes whole blocks: n blocks
// for the 1-way kernels, n pairs of blocks for the 2-way ones. Callers
// check the lengths of dst and src in Go.

// encryptBlocks1x encrypts n blocks from src to dst, one at a time.
// Implemented in scalar_arm64.s.
//
//go:noescape
func encryptBlocks1x(t *Tables, ks *Schedule, dst, src *byte, n int)

// decryptBlocks1x decrypts n blocks from src to dst, one at a time.
// Implemented in scalar_arm64.s.
//
//go:noescape
func decryptBlocks1x(t *Tables, ks *Schedule, dst, src *byte, n int)

// encryptBlocks2x encrypts 2n blocks from src to dst, two blocks
// interleaved in one instruction stream. Implemented in scalar_arm64.s.
//
//go:noescape
func encryptBlocks2x(t *Tables, ks *Schedule, dst, src *byte, n int)

// decryptBlocks2x decrypts 2n blocks from src to dst, two blocks
// interleaved in one instruction stream. Implemented in scalar_arm64.s.
//
//go:noescape
func decryptBlocks2x(t *Tables, ks *Schedule, dst, src *byte, n int)

// The chain kernels run n > 0 blocks of a serial mode with the chain value
// s in registers, which they leave updated (ChainMode; _asm/arm64scalar's
// chain.go): cbcEncrypt1x s = E(s ^ P[i]), C[i] = s; cfbEncrypt1x
// s = E(s) ^ P[i], C[i] = s; ofbStream1x s = E(s), K[i] = s, reading no
// src; cbcMAC1x s = E(s ^ M[i]), writing no dst. Implemented in
// scalar_arm64.s.

//go:noescape
func cbcEncrypt1x(t *Tables, ks *Schedule, dst, src *byte, n int, s *[BlockSize]byte)

//go:noescape
func cfbEncrypt1x(t *Tables, ks *Schedule, dst, src *byte, n int, s *[BlockSize]byte)

//go:noescape
func ofbStream1x(t *Tables, ks *Schedule, dst, src *byte, n int, s *[BlockSize]byte)

//go:noescape
func cbcMAC1x(t *Tables, ks *Schedule, dst, src *byte, n int, s *[BlockSize]byte)
