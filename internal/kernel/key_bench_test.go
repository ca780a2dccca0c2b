package kernel

import (
	"fmt"
	"testing"
)

// BenchmarkExpand times each key schedule alone, without allocation:
// tables (the table kernels'), tables+sliced (the same pass storing the
// byte-sliced S-boxes too, as NewCipher does on AVX-512 VBMI), and the
// constant-time sliced (avx512-vbmi, arm64-neon) and ct (avx2-ct,
// generic-ct) ones:
//
//	go test -run '^$' -bench Expand -count 5 ./internal/kernel
func BenchmarkExpand(b *testing.B) {
	for _, bits := range []int{128, 192, 256} {
		key := make([]byte, bits/8)
		var ks, sliced Schedule
		for _, e := range []struct {
			name   string
			expand func()
		}{
			{"tables", func() { ks.expandTables(key, nil) }},
			{"tables+sliced", func() { ks.expandTables(key, &sliced) }},
			{"sliced", func() { ks.expandSliced(key) }},
			{"ct", func() { ks.expandCT(key) }},
		} {
			b.Run(fmt.Sprintf("key=%d/%s", bits, e.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					key[0]++
					e.expand()
				}
			})
		}
	}
}
