//go:build gc && !purego

package kernel

import "testing"

// TestTablesOnUseRace runs checkTablesOnUseConcurrent where the race
// detector sees both sides of the tables' publication: on the plans the
// policy makes, assembly builds the tables (tablesFromSlicedAVX512) and
// reads them (the table kernels), which -race does not instrument, so a
// Cipher that published its tables before filling them would pass there.
// Here the Go loop of fromSliced builds them and generic, in Go, reads
// them, for single blocks and short runs beside the byte-sliced kernels
// of AVX-512. Run it under -race.
func TestTablesOnUseRace(t *testing.T) {
	for _, bulk := range []*Kernel{AVX512GFNI, AVX512VBMI} {
		t.Run(bulk.Name, func(t *testing.T) {
			if !bulk.Supported {
				skipUnsupported(t, bulk.Name)
			}
			defer func(avx512 bool) { keyAVX512 = avx512 }(keyAVX512)
			keyAVX512 = false
			checkTablesOnUseConcurrent(t, Plan{Single: Generic, Short: Generic, Bulk: bulk, From: 10})
		})
	}
}
