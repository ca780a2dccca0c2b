//go:build gc && !purego

package kernel

import (
	"bytes"
	"testing"
)

// TestAVX2CTGroups checks avx2-ct's 8-, 32- and 64-block kernels on three
// groups in one call, each key length, both directions, against generic:
// the 64-block kernel takes many groups from cryptAVX2CT, the others one
// group a call, so only this reaches their loops' later groups.
func TestAVX2CTGroups(t *testing.T) {
	if !AVX2CT.Supported {
		skipUnsupported(t, AVX2CT.Name)
	}
	r := testRand(t)
	for _, size := range []int{16, 24, 32} {
		key := randBytes(r, size)
		c, ref := newCipher(key, AVX2CT), newCipher(key, Generic)
		for _, width := range []int{8, 32, 64} {
			src := randBytes(r, 3*width*BlockSize)
			want := make([]byte, len(src))
			for _, dec := range []bool{false, true} {
				got := make([]byte, len(src))
				runAVX2CT(c.ks, &got[0], &src[0], 3, width, dec)
				if dec {
					ref.DecryptBlocks(want, src)
				} else {
					ref.EncryptBlocks(want, src)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%d-bit key, %d-block kernel, decrypt %v: three groups differ from generic", 8*size, width, dec)
				}
			}
		}
	}
}
