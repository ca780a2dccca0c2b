//go:build gc && !purego

package kernel

import (
	"crypto/subtle"
	"testing"
)

// BenchmarkChain times CBC encryption of 1 KiB with each kernel's chain
// kernel (this CPU's 1-way body, avx512-gfni's and avx2-ct's single-block
// kernels, where it runs them) and a block at a time through the
// single-block entry that Encrypt calls, 256-bit key:
//
//	go test -run '^$' -bench Chain ./internal/kernel
func BenchmarkChain(b *testing.B) {
	key := make([]byte, 32)
	for _, k := range []*Kernel{amd64x1, AVX512GFNI, AVX2CT} {
		if !k.Supported {
			continue
		}
		c := newCipher(key, k)
		k, ks, t := c.WarmSingle()
		var enc func(dst, src *byte)
		switch k {
		case AMD64x1:
			enc = func(dst, src *byte) { EncryptBlock1x(t, ks, dst, src) }
		case AMD64x1BMI:
			enc = func(dst, src *byte) { EncryptBlock1xBMI(t, ks, dst, src) }
		case AVX512GFNI:
			enc = func(dst, src *byte) { EncryptBlockAVX512GFNI(ks, dst, src) }
		default:
			enc = func(dst, src *byte) { run1AVX2CT(ks, dst, src, false) }
		}
		buf := make([]byte, 1024)
		var s [BlockSize]byte
		b.Run("kernel="+k.Name+"/call=chain", func(b *testing.B) {
			b.SetBytes(int64(len(buf)))
			for b.Loop() {
				c.Chain(ChainCBC, buf, buf, &s)
			}
		})
		b.Run("kernel="+k.Name+"/call=single", func(b *testing.B) {
			b.SetBytes(int64(len(buf)))
			for b.Loop() {
				for i := 0; i < len(buf); i += BlockSize {
					d := buf[i : i+BlockSize]
					subtle.XORBytes(d, d, s[:])
					enc(&d[0], &d[0])
					copy(s[:], d)
				}
			}
		})
	}
}
