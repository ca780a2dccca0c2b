//go:build linux || darwin

package kernel

import (
	"bytes"
	"testing"

	"github.com/twofish-go/twofish/internal/guardpage"
)

// TestGuardPages runs every implementation over buffers that touch an
// inaccessible page on either side, for every block count up to twice the
// widest kernel plus three (at least 70): a kernel that reads or writes
// one byte outside its buffers crashes the test.
func TestGuardPages(t *testing.T) {
	maxBlocks := max(2*widestBlocks()+3, 70)
	forEachKernel(t, func(t *testing.T, k *Kernel) {
		r := testRand(t)
		key := randBytes(r, 32)
		c, ref := newCipher(key, k), newCipher(key, Generic)
		a := guardpage.New(t, maxBlocks*BlockSize)
		b := guardpage.New(t, maxBlocks*BlockSize)
		for n := 0; n <= maxBlocks; n++ {
			size := n * BlockSize
			for _, place := range []struct {
				name     string
				src, dst []byte
			}{
				{"src at end, dst at start", a.AtEnd(size), b.AtStart(size)},
				{"src at start, dst at end", a.AtStart(size), b.AtEnd(size)},
				{"in place at end", a.AtEnd(size), a.AtEnd(size)},
				{"in place at start", b.AtStart(size), b.AtStart(size)},
			} {
				copy(place.src, randBytes(r, size))
				want := make([]byte, size)
				ref.EncryptBlocks(want, place.src)
				c.EncryptBlocks(place.dst, place.src)
				if !bytes.Equal(place.dst, want) {
					t.Fatalf("%d blocks, %s: encryption differs from generic", n, place.name)
				}
				ref.DecryptBlocks(want, place.dst)
				c.DecryptBlocks(place.dst, place.dst)
				if !bytes.Equal(place.dst, want) {
					t.Fatalf("%d blocks, %s: decryption differs from generic", n, place.name)
				}
			}
		}
	})
}
