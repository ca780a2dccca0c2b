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
// pages on both sides with every implementation (checkGuardPagesModes).
func TestGuardPagesModes(t *testing.T) {
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		checkGuardPagesModes(t, func(key []byte) (*Cipher, *XTS) {
			x, _ := NewXTSImpl(append(key, key...), impl.Name)
			return mustCipher(t, key, impl.Name), x
		})
	})
}

// TestGuardPagesModesDefault runs checkGuardPagesModes with the Ciphers
// that NewCipher and NewXTS make, which the tests of every implementation
// do not: their long runs go to one kernel and the rest to another, and
// their table kernels wait for tables built on use. A new Cipher for every
// length meets each length both before and after it builds them.
func TestGuardPagesModesDefault(t *testing.T) {
	checkGuardPagesModes(t, func(key []byte) (*Cipher, *XTS) {
		c, err := NewCipher(key)
		if err != nil {
			t.Fatal(err)
		}
		x, err := NewXTS(append(key, key...))
		if err != nil {
			t.Fatal(err)
		}
		return c, x
	})
}

// checkGuardPagesModes runs every mode over buffers flush against guard
// pages on both sides, for every whole-block length up to maxBlocks blocks
// and the lengths 7 bytes past each (every length, in exhaustive runs) for
// the streams and XTS, with the Cipher and XTS that newCiphers makes of a
// key for each length.
func checkGuardPagesModes(t *testing.T, newCiphers func(key []byte) (*Cipher, *XTS)) {
	maxBlocks := max(2*widestBlocks()+3, 70)
	r := testRand(t)
	key := randBytes(r, 32)
	iv := randBytes(r, BlockSize)
	a := guardpage.New(t, maxBlocks*BlockSize+BlockSize)
	b := guardpage.New(t, maxBlocks*BlockSize+BlockSize)
	for n := 0; n <= maxBlocks*BlockSize+BlockSize-1; n++ {
		if !exhaustive() && n%BlockSize != 0 && n%BlockSize != 7 {
			continue
		}
		c, x := newCiphers(key)
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
		if n%BlockSize == 0 {
			// Sectors of a block, and of 512 bytes where they fit.
			size := BlockSize
			if n%halfBytes == 0 {
				size = halfBytes
			}
			x.EncryptSectors(dst, src, size, uint64(n))
			x.DecryptSectors(dst2, src2, size, uint64(n))
			x.EncryptSectors(src, src, size, uint64(n))
		}
	}
}
