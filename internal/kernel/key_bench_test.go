package kernel

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkExpand times each key schedule alone, without allocation:
// tables (the table kernels'), tables+sliced (the same pass storing the
// byte-sliced S-boxes too), the constant-time sliced (arm64-neon, and
// avx512-vbmi without the vector schedule) and ct (avx2-ct, generic-ct)
// ones, and where the CPU has it the vector schedule (key_avx512_amd64.go)
// of both layouts (NewCipher on AVX-512 VBMI) and of the byte-sliced one
// (NewCipherConstantTime there), and the AVX2 schedule of the tables
// (avx2, key_avx2_amd64.go: NewCipher on AVX2 without AVX-512 VBMI) and
// ct with the subkeys of the AVX2 one (ct-avx2: NewCipherConstantTime
// there), which run on AVX-512 CPUs too:
//
//	go test -run '^$' -bench Expand -count 5 ./internal/kernel
func BenchmarkExpand(b *testing.B) {
	for _, bits := range []int{128, 192, 256} {
		key := make([]byte, bits/8)
		ks, ct := withLayouts(tablesLayout, slicedLayout), withLayouts(nibblesLayout)
		for _, e := range []struct {
			name   string
			expand func()
		}{
			{"tables", func() { ks.expandTables(key, false) }},
			{"tables+sliced", func() { ks.expandTables(key, true) }},
			{"sliced", func() { ks.expandSliced(key) }},
			{"ct", func() { ct.expandCT(key) }},
			{"vector-tables+sliced", func() { expandVector(ks, true, true, key) }},
			{"vector-sliced", func() { expandVector(ks, false, true, key) }},
			{"avx2", func() { expandAVX2Bench(ks, key) }},
			{"ct-avx2", func() { expandCTAVX2Bench(ct, key) }},
		} {
			b.Run(fmt.Sprintf("key=%d/%s", bits, e.name), func(b *testing.B) {
				if strings.HasPrefix(e.name, "vector") && !expandVector(ks, true, true, key) {
					b.Skip("no vector key schedule on this CPU")
				}
				if e.name == "avx2" && !expandAVX2Bench(ks, key) || e.name == "ct-avx2" && !expandCTAVX2Bench(ct, key) {
					b.Skip("no AVX2 key schedule on this CPU")
				}
				b.ReportAllocs()
				for b.Loop() {
					key[0]++
					e.expand()
				}
			})
		}
	}
}
