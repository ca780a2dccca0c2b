//go:build !amd64 || !gc || purego

package kernel

// expandVector reports false: this build has no vector key schedule
// (key_avx512_amd64.go), and the Go schedules serve every kernel.
func expandVector(tables, sliced *Schedule, key []byte) bool { return false }
