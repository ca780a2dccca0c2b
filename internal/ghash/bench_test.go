package ghash

import (
	"fmt"
	"testing"
)

// BenchmarkGHASH measures each GHASH implementation alone. 240 and 1488
// bytes end in blocks left over from the runs of 16 (15 and 13 of them).
func BenchmarkGHASH(b *testing.B) {
	for _, g := range ghashImplementations() {
		if !g.supported {
			continue
		}
		for _, size := range []int{16, 48, 240, 256, 1488, 8192} {
			b.Run(fmt.Sprintf("impl=%s/size=%d", g.name, size), func(b *testing.B) {
				var h, y [16]byte
				h[0] = 0x42
				var k Key
				k.initWith(&h, g.impl)
				data := make([]byte, size)
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for b.Loop() {
					Blocks(&k, &y, data)
				}
			})
		}
	}
}

// BenchmarkInit measures a new hash key: the powers that the assembly
// reads and the portable code's key, which GCM pays for with every new
// block cipher key.
func BenchmarkInit(b *testing.B) {
	var h [16]byte
	var k Key
	for b.Loop() {
		h[0]++
		k.Init(&h)
	}
}
