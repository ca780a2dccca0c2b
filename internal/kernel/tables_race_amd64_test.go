//go:build gc && !purego

package kernel

import (
	"runtime"
	"sync/atomic"
	"testing"
)

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

// TestTablesPublishedFilled has a goroutine copy a Cipher's tables the
// moment their pointer appears, while WarmSingle builds them, and checks
// the copy against the key's tables: a Cipher that published its tables
// before filling them fails it without -race too, where
// TestTablesOnUseConcurrent's uses meet the window only now and then. The
// Go loop of fromSliced, the slower builder, holds the window open longer.
func TestTablesPublishedFilled(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs two goroutines running at once")
	}
	r := testRand(t)
	for _, bulk := range []*Kernel{AVX512GFNI, AVX512VBMI} {
		t.Run(bulk.Name, func(t *testing.T) {
			if !bulk.Supported {
				skipUnsupported(t, bulk.Name)
			}
			defer func(avx512 bool) { keyAVX512 = avx512 }(keyAVX512)
			for _, goLoop := range []bool{false, true} {
				keyAVX512 = !goLoop
				for range 500 {
					key := randBytes(r, 32)
					c := newPlanCipher(Plan{Single: Generic, Short: Generic, Bulk: bulk, From: 10}, key)
					want := *newCipher(key, Generic).t.Load()
					var seen *Tables
					var built atomic.Bool
					started := make(chan struct{})
					done := make(chan struct{})
					go func() {
						defer close(done)
						close(started)
						for {
							last := built.Load()
							if p := c.t.Load(); p != nil {
								cp := *p
								seen = &cp
								return
							}
							if last {
								return
							}
						}
					}()
					<-started
					c.WarmSingle()
					built.Store(true)
					<-done
					if seen == nil {
						t.Fatal("WarmSingle published no tables")
					}
					if *seen != want {
						t.Fatalf("the tables as they were published differ from the key's (the Go loop building them: %v)", goLoop)
					}
				}
			}
		})
	}
}
