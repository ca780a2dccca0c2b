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
// on use holds them, and arm64-neon's 16-way kernels with its schedule (the
// subkeys and the byte-sliced S-boxes, 1184 bytes) and its scratch area
// (256 bytes), and its single-block kernels with the schedule alone. They
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
				{"Block1NEON", ARM64NEON,
					func(d, s []byte) { encryptBlock1NEON(sks, &d[0], &s[0]) },
					func(d, s []byte) { decryptBlock1NEON(sks, &d[0], &s[0]) }, 1},
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

// TestARM64ChainKeyMaterialGuarded runs arm64-1way's chain kernels, every
// mode, with what they read besides the data flush against a page that
// faults, after and before it: the tables (4096 bytes), the subkeys (160
// bytes) and the chain value (16 bytes), which they read at the start and
// write back at the end. They must read and write nothing outside them, and
// give what the mode a block at a time with generic gives. (TestChainGuarded
// guards the data.)
func TestARM64ChainKeyMaterialGuarded(t *testing.T) {
	r := testRand(t)
	const n = 3
	for _, size := range keySizes {
		key := randBytes(r, size)
		ref := newCipher(key, Generic)
		src := randBytes(r, n*BlockSize)
		iv := randBytes(r, BlockSize)
		for _, atEnd := range []bool{true, false} {
			place := func(n int) unsafe.Pointer { return unsafe.Pointer(&guardpage.Flush(t, n, atEnd)[0]) }
			tb := (*Tables)(place(4096))
			*tb = *ref.t.Load()
			ks := (*Schedule)(place(160))
			ks.k = ref.ks.k
			s := (*[BlockSize]byte)(place(BlockSize))
			for _, m := range chainModes {
				what := fmt.Sprintf("%v, %d-bit key, key material at the end of its page %v", m, 8*size, atEnd)
				var ws [BlockSize]byte
				copy(ws[:], iv)
				copy(s[:], iv)
				want := make([]byte, n*BlockSize)
				chainByBlocks(ref, m, want, src, &ws, n)
				got := make([]byte, n*BlockSize)
				d, p := &got[0], &src[0]
				switch m {
				case ChainOFB:
					p = nil
				case ChainMAC:
					d = nil
				}
				chain1x(tb, ks, m, d, p, n, s)
				if *s != ws {
					t.Fatalf("%s: guarded chain value %x, want %x", what, *s, ws)
				}
				if m != ChainMAC && !bytes.Equal(got, want) {
					t.Fatalf("%s: guarded output differs from the mode a block at a time", what)
				}
			}
		}
	}
}

// TestARM64BlockKernelsNoBlocks calls the arm64 kernels of runs of blocks
// (arm64-1way, arm64-2way and arm64-neon's 16-way ones) with no blocks and
// dst and src on an inaccessible page: they must touch neither, as the
// chain kernels must not (TestChainKernelsNoBlocks). cryptNEON and the
// table kernels' callers give them no such call, but a kernel that ran a
// group before testing its count would read and write past its buffers
// for n = 0, group after group.
func TestARM64BlockKernelsNoBlocks(t *testing.T) {
	r := testRand(t)
	end := guardpage.Flush(t, BlockSize, true)
	none := (*byte)(unsafe.Add(unsafe.Pointer(&end[0]), BlockSize)) // the guard page
	for _, size := range keySizes {
		key := randBytes(r, size)
		ref := newCipher(key, Generic)
		tb, ks := ref.t.Load(), ref.ks
		sks := newCipher(key, ARM64NEON).ks
		var st neonScratch
		for _, k := range []struct {
			name     string
			kernel   *Kernel
			enc, dec func()
		}{
			{"Blocks1x", ARM64x1,
				func() { encryptBlocks1x(tb, ks, none, none, 0) },
				func() { decryptBlocks1x(tb, ks, none, none, 0) }},
			{"Blocks2x", arm64x2,
				func() { encryptBlocks2x(tb, ks, none, none, 0) },
				func() { decryptBlocks2x(tb, ks, none, none, 0) }},
			{"Blocks16NEON", ARM64NEON,
				func() { encryptBlocks16NEON(sks, none, none, 0, &st) },
				func() { decryptBlocks16NEON(sks, none, none, 0, &st) }},
		} {
			if !k.kernel.Supported {
				skipUnsupported(t, k.kernel.Name)
			}
			for _, f := range []struct {
				dir string
				run func()
			}{{"encryption", k.enc}, {"decryption", k.dec}} {
				if err := faults(f.run); err != nil {
					t.Errorf("%s, %d-bit key, %s of no blocks: %v", k.name, 8*size, f.dir, err)
				}
			}
		}
	}
}
