package kernel

import (
	"fmt"
	"testing"
)

// runLengths are the run lengths, in blocks, that BenchmarkRuns measures:
// every one up to 20, where the crossovers between ladders lie, and then
// the widths of the wide kernels and some past them.
var runLengths = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 24, 28, 32, 48, 64, 65, 70, 74, 80, 96, 128}

// BenchmarkRuns encrypts runs of n blocks with every supported kernel's
// ladder: the data behind the crossovers of internal/cpu's shape policy,
//
//	go test -run '^$' -bench 'Runs' -count 5 ./internal/kernel
func BenchmarkRuns(b *testing.B) {
	key := make([]byte, 32)
	for _, n := range runLengths {
		for _, k := range All() {
			if !k.Supported || k == GenericCT {
				continue
			}
			c := newCipher(key, k)
			buf := make([]byte, n*BlockSize)
			b.Run(fmt.Sprintf("n=%d/impl=%s", n, k.Name), func(b *testing.B) {
				b.SetBytes(int64(len(buf)))
				for b.Loop() {
					c.EncryptBlocks(buf, buf)
				}
			})
		}
	}
}
