//go:build gc && !purego && (linux || darwin)

package kernel

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/twofish-go/twofish/internal/guardpage"
)

// TestSingleAVX512Guarded runs the single-block kernels with the schedule
// they read (the subkeys and the byte-sliced S-boxes, 1184 bytes), the
// source and the destination each flush against a page that faults, after
// and before it: they must read and write nothing outside them.
func TestSingleAVX512Guarded(t *testing.T) {
	requireAVX512GFNI(t)
	r := testRand(t)
	const n = 160 + 1024
	for _, size := range keySizes {
		key := randBytes(r, size)
		ref := newCipher(key, Generic)
		for _, atEnd := range []bool{true, false} {
			sched := guardpage.Flush(t, n, atEnd)
			copy(sched, unsafe.Slice((*byte)(unsafe.Pointer(gfniSchedule(key))), n))
			ks := (*Schedule)(unsafe.Pointer(&sched[0]))
			src, dst := guardpage.Flush(t, BlockSize, atEnd), guardpage.Flush(t, BlockSize, !atEnd)
			plain := randBytes(r, BlockSize)
			copy(src, plain)
			want := make([]byte, BlockSize)
			ref.EncryptBlocks(want, plain)
			if encryptBlock1AVX512GFNI(ks, &dst[0], &src[0]); !bytes.Equal(dst, want) {
				t.Fatalf("key %x: guarded encryption differs from generic", key)
			}
			if decryptBlock1AVX512GFNI(ks, &src[0], &dst[0]); !bytes.Equal(src, plain) {
				t.Fatalf("key %x: guarded decryption differs from generic", key)
			}
			if decryptBlock1AVX512GFNI(ks, &dst[0], &dst[0]); !bytes.Equal(dst, plain) {
				t.Fatalf("key %x: guarded decryption in place differs from generic", key)
			}
		}
	}
}
