//go:build gc && !purego && (linux || darwin)

package kernel

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/twofish-go/twofish/internal/guardpage"
)

// TestTableKernelsGuarded runs every x86-64 table kernel, the single-block
// entries of Encrypt and Decrypt included, with its tables (4096 bytes)
// and its subkeys (160 bytes) each flush against a page that faults,
// after and before it, as a Cipher may hold them apart: they must read
// nothing outside them. (TestGuardPages guards the data.)
func TestTableKernelsGuarded(t *testing.T) {
	r := testRand(t)
	for _, size := range keySizes {
		key := randBytes(r, size)
		ref := newCipher(key, Generic)
		for _, atEnd := range []bool{true, false} {
			tb := (*Tables)(unsafe.Pointer(&guardpage.Flush(t, 4096, atEnd)[0]))
			*tb = *ref.t.Load()
			ks := (*Schedule)(unsafe.Pointer(&guardpage.Flush(t, 160, atEnd)[0]))
			ks.k = ref.ks.k
			src := randBytes(r, 48*BlockSize)
			want := make([]byte, len(src))
			ref.EncryptBlocks(want, src)
			// Each kernel's encryption and decryption entries, named
			// for their suffix, and the blocks one call of them takes.
			for _, k := range []struct {
				name     string
				kernel   *Kernel
				enc, dec func(dst, src []byte)
				blocks   int
			}{
				{"Block1x", AMD64x1,
					func(d, s []byte) { encryptBlock1x(tb, ks, &d[0], &s[0]) },
					func(d, s []byte) { decryptBlock1x(tb, ks, &d[0], &s[0]) }, 1},
				{"Block1xBMI", AMD64x1BMI,
					func(d, s []byte) { encryptBlock1xBMI(tb, ks, &d[0], &s[0]) },
					func(d, s []byte) { decryptBlock1xBMI(tb, ks, &d[0], &s[0]) }, 1},
				{"Blocks1x", AMD64x1,
					func(d, s []byte) { encryptBlocks1x(tb, ks, &d[0], &s[0], 3) },
					func(d, s []byte) { decryptBlocks1x(tb, ks, &d[0], &s[0], 3) }, 3},
				{"Blocks1xBMI", AMD64x1BMI,
					func(d, s []byte) { encryptBlocks1xBMI(tb, ks, &d[0], &s[0], 3) },
					func(d, s []byte) { decryptBlocks1xBMI(tb, ks, &d[0], &s[0], 3) }, 3},
				{"Blocks3x", amd64x3,
					func(d, s []byte) { encryptBlocks3x(tb, ks, &d[0], &s[0], 2) },
					func(d, s []byte) { decryptBlocks3x(tb, ks, &d[0], &s[0], 2) }, 6},
				{"Blocks16AVX2Gather", avx2Gather,
					func(d, s []byte) { encryptBlocks16AVX2Gather(tb, ks, &d[0], &s[0], 2) },
					func(d, s []byte) { decryptBlocks16AVX2Gather(tb, ks, &d[0], &s[0], 2) }, 32},
				{"Blocks16AVX2VPGather", avx2VPGather,
					func(d, s []byte) { encryptBlocks16AVX2VPGather(tb, ks, &d[0], &s[0], 2) },
					func(d, s []byte) { decryptBlocks16AVX2VPGather(tb, ks, &d[0], &s[0], 2) }, 32},
			} {
				n := k.blocks * BlockSize
				for _, d := range []struct {
					dir          string
					f            func(dst, src []byte)
					in, expected []byte
				}{{"encrypt", k.enc, src[:n], want[:n]}, {"decrypt", k.dec, want[:n], src[:n]}} {
					t.Run(d.dir+k.name, func(t *testing.T) {
						if k.kernel == AMD64x1BMI && !k.kernel.Supported {
							t.Skip(noBMI)
						}
						if !k.kernel.Supported {
							skipUnsupported(t, k.kernel.Name)
						}
						got := make([]byte, n)
						if d.f(got, d.in); !bytes.Equal(got, d.expected) {
							t.Fatalf("key %x: guarded %sion differs from generic", key, d.dir)
						}
					})
				}
			}
		}
	}
}
