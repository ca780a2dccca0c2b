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
// live, as a server's, where it runs every ten thousand or so. Each heap
// is warmed up before its first row (see warmHeap). The "alloc" row only
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
			warmHeap(size)
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

// warmHeap allocates and drops objects of size bytes until the collector
// has finished two cycles, so that the first row of a heap finds it as the
// rows after it do: NewCipher, the first, took 2.4-2.8x (empty heap) and
// 7-10x (64 MiB live) its later runs' time, allocating into pages that no
// one had touched.
func warmHeap(size int) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	for gcs := m.NumGC + 2; m.NumGC < gcs; runtime.ReadMemStats(&m) {
		for range 1000 {
			allocSink = make([]byte, size)
		}
	}
}

// allocSink keeps BenchmarkKeySetup's allocations on the heap.
var allocSink []byte
