//go:build gc && !purego && (linux || darwin)

package kernel

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/twofish-go/twofish/internal/guardpage"
)

// TestSingleAVX512Guarded runs avx512-gfni's single-block kernels with the
// schedule they read, the subkeys and the byte-sliced S-boxes (1184
// bytes), flush against a faulting page (checkSingleGuarded).
func TestSingleAVX512Guarded(t *testing.T) {
	requireAVX512GFNI(t)
	checkSingleGuarded(t, singleAVX512, 160+1024)
}

// TestSingleAVX2CTGuarded runs avx2-ct's single-block kernels with the
// schedule they read, the subkeys, the nibble tables and the S vector
// (1480 bytes), flush against a faulting page (checkSingleGuarded).
func TestSingleAVX2CTGuarded(t *testing.T) {
	requireAVX2CT(t)
	checkSingleGuarded(t, singleAVX2CT, int(unsafe.Sizeof(nibblesOnly{})))
}

// checkSingleGuarded runs the kernel k with the first n bytes of its
// schedule, the source and the destination each flush against a page that
// faults, after and before it: k must read and write nothing outside them.
func checkSingleGuarded(t *testing.T, k singleKernel, n int) {
	t.Helper()
	r := testRand(t)
	for _, size := range keySizes {
		key := randBytes(r, size)
		ref := newCipher(key, Generic)
		for _, atEnd := range []bool{true, false} {
			sched := guardpage.Flush(t, n, atEnd)
			copy(sched, unsafe.Slice((*byte)(unsafe.Pointer(k.schedule(key))), n))
			ks := (*Schedule)(unsafe.Pointer(&sched[0]))
			src, dst := guardpage.Flush(t, BlockSize, atEnd), guardpage.Flush(t, BlockSize, !atEnd)
			plain := randBytes(r, BlockSize)
			copy(src, plain)
			want := make([]byte, BlockSize)
			ref.EncryptBlocks(want, plain)
			if k.enc(ks, &dst[0], &src[0]); !bytes.Equal(dst, want) {
				t.Fatalf("key %x: guarded encryption differs from generic", key)
			}
			if k.dec(ks, &src[0], &dst[0]); !bytes.Equal(src, plain) {
				t.Fatalf("key %x: guarded decryption differs from generic", key)
			}
			if k.dec(ks, &dst[0], &dst[0]); !bytes.Equal(dst, plain) {
				t.Fatalf("key %x: guarded decryption in place differs from generic", key)
			}
		}
	}
}
