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
			for _, k := range []struct {
				name   string
				kernel *Kernel
				enc    func(dst, src []byte)
				blocks int
			}{
				{"encryptBlock1x", AMD64x1, func(d, s []byte) { encryptBlock1x(tb, ks, &d[0], &s[0]) }, 1},
				{"encryptBlock1xBMI", AMD64x1BMI, func(d, s []byte) { encryptBlock1xBMI(tb, ks, &d[0], &s[0]) }, 1},
				{"encryptBlocks1x", AMD64x1, func(d, s []byte) { encryptBlocks1x(tb, ks, &d[0], &s[0], 3) }, 3},
				{"encryptBlocks1xBMI", AMD64x1BMI, func(d, s []byte) { encryptBlocks1xBMI(tb, ks, &d[0], &s[0], 3) }, 3},
				{"encryptBlocks3x", amd64x3, func(d, s []byte) { encryptBlocks3x(tb, ks, &d[0], &s[0], 2) }, 6},
				{"encryptBlocks16AVX2Gather", avx2Gather, func(d, s []byte) { encryptBlocks16AVX2Gather(tb, ks, &d[0], &s[0], 2) }, 32},
				{"encryptBlocks16AVX2VPGather", avx2VPGather, func(d, s []byte) { encryptBlocks16AVX2VPGather(tb, ks, &d[0], &s[0], 2) }, 32},
			} {
				t.Run(k.name, func(t *testing.T) {
					if k.kernel == AMD64x1BMI && !k.kernel.Supported {
						t.Skip(noBMI)
					}
					if !k.kernel.Supported {
						skipUnsupported(t, k.kernel.Name)
					}
					n := k.blocks * BlockSize
					got := make([]byte, n)
					if k.enc(got, src[:n]); !bytes.Equal(got, want[:n]) {
						t.Fatalf("key %x: guarded encryption differs from generic", key)
					}
				})
			}
			for _, k := range []struct {
				name   string
				kernel *Kernel
				dec    func(dst, src []byte)
				blocks int
			}{
				{"decryptBlock1x", AMD64x1, func(d, s []byte) { decryptBlock1x(tb, ks, &d[0], &s[0]) }, 1},
				{"decryptBlock1xBMI", AMD64x1BMI, func(d, s []byte) { decryptBlock1xBMI(tb, ks, &d[0], &s[0]) }, 1},
				{"decryptBlocks1x", AMD64x1, func(d, s []byte) { decryptBlocks1x(tb, ks, &d[0], &s[0], 3) }, 3},
				{"decryptBlocks1xBMI", AMD64x1BMI, func(d, s []byte) { decryptBlocks1xBMI(tb, ks, &d[0], &s[0], 3) }, 3},
				{"decryptBlocks3x", amd64x3, func(d, s []byte) { decryptBlocks3x(tb, ks, &d[0], &s[0], 2) }, 6},
				{"decryptBlocks16AVX2Gather", avx2Gather, func(d, s []byte) { decryptBlocks16AVX2Gather(tb, ks, &d[0], &s[0], 2) }, 32},
				{"decryptBlocks16AVX2VPGather", avx2VPGather, func(d, s []byte) { decryptBlocks16AVX2VPGather(tb, ks, &d[0], &s[0], 2) }, 32},
			} {
				t.Run(k.name, func(t *testing.T) {
					if k.kernel == AMD64x1BMI && !k.kernel.Supported {
						t.Skip(noBMI)
					}
					if !k.kernel.Supported {
						skipUnsupported(t, k.kernel.Name)
					}
					n := k.blocks * BlockSize
					got := make([]byte, n)
					if k.dec(got, want[:n]); !bytes.Equal(got, src[:n]) {
						t.Fatalf("key %x: guarded decryption differs from generic", key)
					}
				})
			}
		}
	}
}
