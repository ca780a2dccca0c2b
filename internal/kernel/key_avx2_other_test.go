//go:build !amd64 || !gc || purego

package kernel

// expandAVX2Bench reports false: this build has no AVX2 key schedule.
func expandAVX2Bench(ks *Schedule, key []byte) bool { return false }

// expandCTAVX2Bench reports false: this build has no AVX2 key schedule.
func expandCTAVX2Bench(ks *Schedule, key []byte) bool { return false }
