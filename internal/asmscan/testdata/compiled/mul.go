package compiled

// Mul multiplies: on 32-bit arm, a multiplication whose time depends on
// its operands on some cores.
func Mul(a, b uint32) uint32 { return a * b }
