package twofish

//lint:file-ignore SA1019 golang.org/x/crypto/twofish is the deprecated package this module replaces: key setup is compared with it.

import (
	"fmt"
	"runtime"
	"testing"

	xtwofish "golang.org/x/crypto/twofish"
)

// BenchmarkKeySetup times a new key with each constructor and with
// x/crypto's, one after another in one process (go test -count repeats
// each row back to back), in two heaps: this benchmark's own, almost
// empty, where the collector runs every few hundred keys and hands the
// pages back (so a key pays for page faults too), and one with 64 MiB
// live, as a server's, where it runs every ten thousand or so. Each row
// is warmed up before it is timed (warm). The "alloc" row only
// allocates a byte slice of NewCipher's size: the floor that Go's
// allocator sets, whose first writes to fresh memory cost more than the
// schedule does.
//
//	go test -run '^$' -bench KeySetup -count 5 -benchmem .
func BenchmarkKeySetup(b *testing.B) {
	for _, live := range []int{0, 64} {
		ballast := make([]byte, live<<20)
		for _, bits := range []int{128, 192, 256} {
			key := make([]byte, bits/8)
			size := heapBytes(b, NewCipher, key)
			for _, c := range []struct {
				name string
				new  func([]byte) error
			}{
				{"NewCipher", func(k []byte) error { _, err := NewCipher(k); return err }},
				{"NewCipherConstantTime", func(k []byte) error { _, err := NewCipherConstantTime(k); return err }},
				{"xcrypto", func(k []byte) error { _, err := xtwofish.NewCipher(k); return err }},
				{"alloc", func(k []byte) error { allocSink = make([]byte, size); return nil }},
			} {
				b.Run(fmt.Sprintf("live=%dMiB/key=%d/%s", live, bits, c.name), func(b *testing.B) {
					warm(func() { key[0]++; c.new(key) })
					b.ReportAllocs()
					for b.Loop() {
						key[0]++
						if err := c.new(key); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
		runtime.KeepAlive(ballast)
	}
}

// warm runs f until the collector has finished two cycles, so that a row
// is timed in the steady state of its own garbage, not in what the rows or
// the ballast before it left: NewCipher, the first row, took 2.4-2.8x
// (empty heap) and 7-10x (64 MiB live) its later runs' time, allocating
// into pages that no one had touched, and after a warm-up of another
// function's garbage still 1.3-1.4x (Zen 5).
func warm(f func()) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	for gcs := m.NumGC + 2; m.NumGC < gcs; runtime.ReadMemStats(&m) {
		for range 1000 {
			f()
		}
	}
}

// allocSink keeps BenchmarkKeySetup's allocations on the heap.
var allocSink []byte
