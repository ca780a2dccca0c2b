package kernel

import (
	"fmt"
	"testing"
)

// runLengths are the run lengths, in blocks, that BenchmarkRuns measures:
// every one up to 20, where the crossovers between ladders lie, and then
// the widths of the wide kernels and some past them.
var runLengths = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 24, 28, 32, 48, 64, 65, 70, 74, 80, 96, 128, 133, 144, 160}

// BenchmarkRuns encrypts runs of n blocks with the policy's plan for this
// CPU (impl=auto) and every supported kernel's ladder: the data behind the
// crossovers of internal/cpu's shape policy,
//
//	go test -run '^$' -bench 'Runs' -count 5 ./internal/kernel
func BenchmarkRuns(b *testing.B) {
	key := make([]byte, 32)
	for _, n := range runLengths {
		auto := newPlanCipher(Auto(), key)
		ciphers := map[string]*Cipher{"auto": auto}
		names := []string{"auto"}
		for _, k := range All() {
			if k.Supported && k != GenericCT {
				ciphers[k.Name] = newCipher(key, k)
				names = append(names, k.Name)
			}
		}
		for _, name := range names {
			c := ciphers[name]
			buf := make([]byte, n*BlockSize)
			b.Run(fmt.Sprintf("n=%d/impl=%s", n, name), func(b *testing.B) {
				b.SetBytes(int64(len(buf)))
				for b.Loop() {
					c.EncryptBlocks(buf, buf)
				}
			})
		}
	}
}
