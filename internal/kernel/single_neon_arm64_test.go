//go:build gc && !purego

package kernel

import (
	"bytes"
	"fmt"
	"testing"
)

// TestSingleNEON checks the arm64-neon single-block kernels against
// generic: every key size, many keys and blocks, separate and in place.
func TestSingleNEON(t *testing.T) {
	if !ARM64NEON.Supported {
		t.Skip("this CPU has no ASIMD")
	}
	r := testRand(t)
	for _, size := range keySizes {
		t.Run(fmt.Sprintf("key=%d", 8*size), func(t *testing.T) {
			for range 50 {
				key := randBytes(r, size)
				c, ref := newCipher(key, ARM64NEON), newCipher(key, Generic)
				src := randBytes(r, BlockSize)
				want := make([]byte, BlockSize)
				ref.EncryptBlocks(want, src)
				got := make([]byte, BlockSize)
				EncryptBlockNEON(c.ks, got, src)
				if !bytes.Equal(got, want) {
					t.Fatalf("key %x: encrypt %x = %x, want %x", key, src, got, want)
				}
				DecryptBlockNEON(c.ks, got, got)
				if !bytes.Equal(got, src) {
					t.Fatalf("key %x: decrypt %x = %x, want %x", key, want, got, src)
				}
			}
		})
	}
}
