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

// TestSingleNEONShort passes EncryptBlockNEON and DecryptBlockNEON a
// destination or a source a byte short of a block, in front of spare
// capacity: each panics before the kernel reads or writes a byte, and
// leaves the destination and the capacity behind it as they were.
func TestSingleNEONShort(t *testing.T) {
	if !ARM64NEON.Supported {
		t.Skip("this CPU has no ASIMD")
	}
	c := newCipher(randBytes(testRand(t), 32), ARM64NEON)
	for _, f := range []struct {
		name string
		run  func(ks *Schedule, dst, src []byte)
	}{{"EncryptBlockNEON", EncryptBlockNEON}, {"DecryptBlockNEON", DecryptBlockNEON}} {
		for _, shortDst := range []bool{true, false} {
			buf := bytes.Repeat([]byte{0xa5}, BlockSize)
			dst, src := buf[:BlockSize-1], make([]byte, BlockSize)
			if !shortDst {
				dst, src = buf, src[:BlockSize-1]
			}
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%s, short destination %v: no panic", f.name, shortDst)
					}
				}()
				f.run(c.ks, dst, src)
			}()
			if !bytes.Equal(buf, bytes.Repeat([]byte{0xa5}, BlockSize)) {
				t.Errorf("%s, short destination %v: destination written: %x", f.name, shortDst, buf)
			}
		}
	}
}
