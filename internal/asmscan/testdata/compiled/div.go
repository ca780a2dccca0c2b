// Package compiled is what TestCheckCompiledReports holds to CheckCompiled's
// rule: a division in div.go, no machine code in empty.go.
package compiled

// Div divides: an instruction (or on 32-bit arm a call of the runtime)
// whose time depends on its operands.
func Div(a, b uint64) uint64 { return a / b }
