//go:build gc && !purego

package kernel

import "github.com/twofish-go/twofish/internal/cpu"

// The scalar x86-64 kernels. Their bodies are in scalar_amd64.s, generated
// by _asm/scalar (see the go:generate lines in dispatch_amd64.go); they need
// only baseline x86-64 and never write BP, so frame-pointer unwinding works
// from inside them. Each processes whole blocks: one for the 1-way kernels'
// single-block entries, n for their other ones, n groups of three blocks
// for the 3-way ones. Callers check the lengths of dst and src in Go.

// scalarBMI is whether the 1-way kernels run their second body, for CPUs
// with BMI1 and BMI2, which reads bytes 2 and 3 of a word with one
// instruction each (BEXTR, SHRX) instead of four for both: internal/cpu's
// choice. TestScalarBodies runs both bodies.
var scalarBMI = cpu.Host().Scalar.Name == "bmi"

// encryptBlocks1x encrypts n blocks from src to dst, one at a time.
// Implemented in scalar_amd64.s.
//
//go:noescape
func encryptBlocks1x(t *Tables, ks *Schedule, dst, src *byte, n int)

// decryptBlocks1x decrypts n blocks from src to dst, one at a time.
// Implemented in scalar_amd64.s.
//
//go:noescape
func decryptBlocks1x(t *Tables, ks *Schedule, dst, src *byte, n int)

// encryptBlocks1xBMI is encryptBlocks1x for CPUs with BMI1 and BMI2.
// Implemented in scalar_amd64.s.
//
//go:noescape
func encryptBlocks1xBMI(t *Tables, ks *Schedule, dst, src *byte, n int)

// decryptBlocks1xBMI is decryptBlocks1x for CPUs with BMI1 and BMI2.
// Implemented in scalar_amd64.s.
//
//go:noescape
func decryptBlocks1xBMI(t *Tables, ks *Schedule, dst, src *byte, n int)

// encryptBlock1x encrypts one block, the entry of Encrypt: the body of
// encryptBlocks1x with no count and no loop. Implemented in scalar_amd64.s.
//
//go:noescape
func encryptBlock1x(t *Tables, ks *Schedule, dst, src *byte)

// decryptBlock1x decrypts one block. Implemented in scalar_amd64.s.
//
//go:noescape
func decryptBlock1x(t *Tables, ks *Schedule, dst, src *byte)

// encryptBlock1xBMI is encryptBlock1x for CPUs with BMI1 and BMI2.
// Implemented in scalar_amd64.s.
//
//go:noescape
func encryptBlock1xBMI(t *Tables, ks *Schedule, dst, src *byte)

// decryptBlock1xBMI is decryptBlock1x for CPUs with BMI1 and BMI2.
// Implemented in scalar_amd64.s.
//
//go:noescape
func decryptBlock1xBMI(t *Tables, ks *Schedule, dst, src *byte)

// encryptBlocks3x encrypts 3n blocks from src to dst, three blocks
// interleaved in one instruction stream. Implemented in scalar_amd64.s.
//
//go:noescape
func encryptBlocks3x(t *Tables, ks *Schedule, dst, src *byte, n int)

// decryptBlocks3x decrypts 3n blocks from src to dst, three blocks
// interleaved in one instruction stream. Implemented in scalar_amd64.s.
//
//go:noescape
func decryptBlocks3x(t *Tables, ks *Schedule, dst, src *byte, n int)

// The chain kernels run n > 0 blocks of a serial mode with the chain value
// s in registers, which they leave updated (ChainMode; _asm/scalar's
// chain.go): cbcEncrypt1x s = E(s ^ P[i]), C[i] = s; cfbEncrypt1x
// s = E(s) ^ P[i], C[i] = s; ofbStream1x s = E(s), K[i] = s, reading no
// src; cbcMAC1x s = E(s ^ M[i]), writing no dst. Each has a BMI body.
// Implemented in scalar_amd64.s.

//go:noescape
func cbcEncrypt1x(t *Tables, ks *Schedule, dst, src *byte, n int, s *[BlockSize]byte)

//go:noescape
func cbcEncrypt1xBMI(t *Tables, ks *Schedule, dst, src *byte, n int, s *[BlockSize]byte)

//go:noescape
func cfbEncrypt1x(t *Tables, ks *Schedule, dst, src *byte, n int, s *[BlockSize]byte)

//go:noescape
func cfbEncrypt1xBMI(t *Tables, ks *Schedule, dst, src *byte, n int, s *[BlockSize]byte)

//go:noescape
func ofbStream1x(t *Tables, ks *Schedule, dst, src *byte, n int, s *[BlockSize]byte)

//go:noescape
func ofbStream1xBMI(t *Tables, ks *Schedule, dst, src *byte, n int, s *[BlockSize]byte)

//go:noescape
func cbcMAC1x(t *Tables, ks *Schedule, dst, src *byte, n int, s *[BlockSize]byte)

//go:noescape
func cbcMAC1xBMI(t *Tables, ks *Schedule, dst, src *byte, n int, s *[BlockSize]byte)
