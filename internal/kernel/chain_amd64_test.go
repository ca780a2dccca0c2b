//go:build gc && !purego

package kernel

import (
	"crypto/subtle"
	"testing"
)

// BenchmarkChain times CBC encryption of 8 KiB with the chain kernel of
// this CPU's 1-way body, and a block at a time through the body's
// single-block entry as Encrypt runs it:
//
//	go test -run '^$' -bench Chain ./internal/kernel
func BenchmarkChain(b *testing.B) {
	c := newCipher(make([]byte, 32), amd64x1)
	_, ks, t := c.WarmSingle()
	enc := EncryptBlock1x
	if amd64x1 == AMD64x1BMI {
		enc = EncryptBlock1xBMI
	}
	buf := make([]byte, 8192)
	var s [BlockSize]byte
	b.Run("kernel=chain", func(b *testing.B) {
		b.SetBytes(int64(len(buf)))
		for b.Loop() {
			c.Chain(ChainCBC, buf, buf, &s)
		}
	})
	b.Run("kernel=single", func(b *testing.B) {
		b.SetBytes(int64(len(buf)))
		for b.Loop() {
			for i := 0; i < len(buf); i += BlockSize {
				d := buf[i : i+BlockSize]
				subtle.XORBytes(d, d, s[:])
				enc(t, ks, &d[0], &d[0])
				copy(s[:], d)
			}
		}
	})
}
