//go:build gc && !purego && (linux || darwin)

package kernel

import (
	"bytes"
	"fmt"
	"testing"
	"unsafe"

	"github.com/twofish-go/twofish/internal/guardpage"
)

// TestARM64KeyMaterialGuarded runs the arm64 kernels with what they read
// besides the data flush against a page that faults, after and before it:
// the table kernels (arm64-1way, arm64-2way) with their tables (4096
// bytes) and subkeys (160 bytes) apart, as a Cipher whose tables are built
// on use holds them, and arm64-neon with its schedule (the subkeys and the
// byte-sliced S-boxes, 1184 bytes) and its scratch area (256 bytes). They
// must read and write nothing outside them. (TestGuardPages guards the
// data.)
func TestARM64KeyMaterialGuarded(t *testing.T) {
	r := testRand(t)
	for _, size := range keySizes {
		key := randBytes(r, size)
		ref := newCipher(key, Generic)
		src := randBytes(r, 2*neonBlocks*BlockSize)
		want := make([]byte, len(src))
		ref.EncryptBlocks(want, src)
		sliced := newCipher(key, ARM64NEON).ks
		for _, atEnd := range []bool{true, false} {
			place := func(n int) unsafe.Pointer { return unsafe.Pointer(&guardpage.Flush(t, n, atEnd)[0]) }
			tb := (*Tables)(place(4096))
			*tb = *ref.t.Load()
			ks := (*Schedule)(place(160))
			ks.k = ref.ks.k
			sks := (*Schedule)(place(slicedOffset + 1024))
			copy(unsafe.Slice((*byte)(unsafe.Pointer(sks)), slicedOffset+1024), unsafe.Slice((*byte)(unsafe.Pointer(sliced)), slicedOffset+1024))
			st := (*neonScratch)(place(int(unsafe.Sizeof(neonScratch{}))))
			for _, k := range []struct {
				name     string
				kernel   *Kernel
				enc, dec func(dst, src []byte)
				blocks   int
			}{
				{"Blocks1x", ARM64x1,
					func(d, s []byte) { encryptBlocks1x(tb, ks, &d[0], &s[0], 3) },
					func(d, s []byte) { decryptBlocks1x(tb, ks, &d[0], &s[0], 3) }, 3},
				{"Blocks2x", arm64x2,
					func(d, s []byte) { encryptBlocks2x(tb, ks, &d[0], &s[0], 2) },
					func(d, s []byte) { decryptBlocks2x(tb, ks, &d[0], &s[0], 2) }, 4},
				{"Blocks16NEON", ARM64NEON,
					func(d, s []byte) { encryptBlocks16NEON(sks, &d[0], &s[0], 2, st) },
					func(d, s []byte) { decryptBlocks16NEON(sks, &d[0], &s[0], 2, st) }, 32},
			} {
				if !k.kernel.Supported {
					skipUnsupported(t, k.kernel.Name)
				}
				n := k.blocks * BlockSize
				what := fmt.Sprintf("%s, %d-bit key, key material at the end of its page %v", k.name, 8*size, atEnd)
				got := make([]byte, n)
				if k.enc(got, src[:n]); !bytes.Equal(got, want[:n]) {
					t.Fatalf("%s: guarded encryption differs from generic", what)
				}
				if k.dec(got, want[:n]); !bytes.Equal(got, src[:n]) {
					t.Fatalf("%s: guarded decryption differs from generic", what)
				}
			}
		}
	}
}
