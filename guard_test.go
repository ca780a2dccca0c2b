//go:build linux || darwin

package twofish

import (
	"testing"

	"github.com/twofish-go/twofish/internal/guardpage"
)

func init() {
	newArena = func(t *testing.T, n int) []byte { return guardpage.New(t, n).AtEnd(n) }
}

// TestGuardPagesModes runs every mode over buffers flush against guard
// pages on both sides, for every whole-block length up to maxBlocks blocks
// and the lengths 7 bytes past each (every length, in exhaustive runs) for
// the streams and XTS.
func TestGuardPagesModes(t *testing.T) {
	maxBlocks := max(2*widestBlocks()+3, 70)
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		key := randBytes(r, 32)
		c := mustCipher(t, key, impl.Name)
		x, _ := NewXTSImpl(append(key, key...), impl.Name)
		iv := randBytes(r, BlockSize)
		a := guardpage.New(t, maxBlocks*BlockSize+BlockSize)
		b := guardpage.New(t, maxBlocks*BlockSize+BlockSize)
		for n := 0; n <= maxBlocks*BlockSize+BlockSize-1; n++ {
			if !exhaustive() && n%BlockSize != 0 && n%BlockSize != 7 {
				continue
			}
			src, dst := a.AtEnd(n), b.AtStart(n)
			src2, dst2 := a.AtStart(n), b.AtEnd(n)
			for _, mc := range modeCases {
				if mc.blockMode && n%BlockSize != 0 {
					continue
				}
				crypt(mc.ours(c, iv), dst, src)
				crypt(mc.ours(c, iv), dst2, src2)
				crypt(mc.ours(c, iv), src, src)
			}
			if n >= BlockSize {
				x.Encrypt(dst, src, uint64(n))
				x.Decrypt(dst2, src2, uint64(n))
				x.Encrypt(src, src, uint64(n))
			}
		}
	})
}
