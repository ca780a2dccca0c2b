//go:build gc && !purego

package twofish

// The scalar x86-64 kernels. Their bodies are in scalar_amd64.s, generated
// by _asm/scalar (see the go:generate line in dispatch_amd64.go); they need
// only baseline x86-64 and never write BP, so frame-pointer unwinding works
// from inside them. Each processes whole blocks: n blocks for the 1-way
// kernels, n groups of three blocks for the 3-way ones. Callers check the
// lengths of dst and src in Go.

// useBMI is whether the 1-way kernels run their second body, for CPUs with
// BMI1 and BMI2, which reads bytes 2 and 3 of a word with one instruction
// each (BEXTR, SHRX) instead of four for both: fewer instructions per round
// let the next block start sooner, about 3% faster single blocks on Zen 5.
// The assembly reads it; TestScalarBodies runs both bodies.
var useBMI = func() bool { f := cpuidFacts(); return f.BMI1 && f.BMI2 }()

// encryptBlocks1x encrypts n blocks from src to dst, one at a time.
// Implemented in scalar_amd64.s.
//
//go:noescape
func encryptBlocks1x(ks *schedule, dst, src *byte, n int)

// decryptBlocks1x decrypts n blocks from src to dst, one at a time.
// Implemented in scalar_amd64.s.
//
//go:noescape
func decryptBlocks1x(ks *schedule, dst, src *byte, n int)

// encryptBlocks3x encrypts 3n blocks from src to dst, three blocks
// interleaved in one instruction stream. Implemented in scalar_amd64.s.
//
//go:noescape
func encryptBlocks3x(ks *schedule, dst, src *byte, n int)

// decryptBlocks3x decrypts 3n blocks from src to dst, three blocks
// interleaved in one instruction stream. Implemented in scalar_amd64.s.
//
//go:noescape
func decryptBlocks3x(ks *schedule, dst, src *byte, n int)
