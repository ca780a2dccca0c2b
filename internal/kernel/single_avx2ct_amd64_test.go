//go:build gc && !purego

package kernel

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/twofish-go/twofish/internal/kat"
)

// The avx2-ct kernels of single blocks (kernel1 in _asm/avx2ct) against
// the official vectors and the generic kernel. The root package's Encrypt
// and Decrypt reach them for avx2-ct's ladder, and so does a run of one
// block (TestSingleBlocks, TestGuardPages); these call them directly.
// TestAVX2CTAssemblyIsConstantTime scans them with the other avx2-ct
// kernels.

// requireAVX2CT skips t where this CPU cannot run avx2-ct, or fails it
// where TWOFISH_TEST_REQUIRE names avx2-ct.
func requireAVX2CT(t *testing.T) {
	t.Helper()
	if !AVX2CT.Supported {
		skipUnsupported(t, AVX2CT.Name)
	}
}

// ctSchedule1 returns the schedule of key that the avx2-ct kernels read.
func ctSchedule1(key []byte) *Schedule { return newCipher(key, AVX2CT).ks }

// TestSingleAVX2CTKnownAnswers runs ECB_TBL.TXT and the prefix of the ECB
// and CBC Monte Carlo files (mctPrefix) through the single-block kernels.
func TestSingleAVX2CTKnownAnswers(t *testing.T) {
	requireAVX2CT(t)
	for i, r := range loadKAT(t, kat.ECBTable) {
		ks := ctSchedule1(r.Key)
		block := bytes.Clone(r.PT)
		if run1AVX2CT(ks, &block[0], &block[0], false); !bytes.Equal(block, r.CT) {
			t.Errorf("record %d (key %d bits): encrypt = %x, want %x", i, 8*r.KeySize, block, r.CT)
		}
		if run1AVX2CT(ks, &block[0], &block[0], true); !bytes.Equal(block, r.PT) {
			t.Errorf("record %d (key %d bits): decrypt = %x, want %x", i, 8*r.KeySize, block, r.PT)
		}
	}
	for _, file := range []string{kat.ECBEncrypt, kat.ECBDecrypt, kat.CBCEncrypt, kat.CBCDecrypt} {
		for _, r := range kat.Prefix(loadKAT(t, file), mctPrefix()) {
			ks := ctSchedule1(r.Key)
			got, want, err := kat.MonteCarlo(file, r, func(block []byte, decrypt bool) {
				run1AVX2CT(ks, &block[0], &block[0], decrypt)
			})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s record I=%d (key %d bits): got %x, want %x", file, r.Index, 8*r.KeySize, got, want)
			}
		}
	}
}

// TestSingleAVX2CTDifferential compares the single-block kernels with the
// generic kernel on random keys of every size and random blocks, in place
// and not, at every offset of the buffers from 0 to 7.
func TestSingleAVX2CTDifferential(t *testing.T) {
	requireAVX2CT(t)
	r := testRand(t)
	for _, size := range keySizes {
		for range 50 {
			key := randBytes(r, size)
			ks, ref := ctSchedule1(key), newCipher(key, Generic)
			for off := range 8 {
				src := randBytes(r, BlockSize+off)[off:]
				want := make([]byte, BlockSize)
				ref.EncryptBlocks(want, src)
				dst := make([]byte, BlockSize+7)[7-off:]
				if run1AVX2CT(ks, &dst[0], &src[0], false); !bytes.Equal(dst[:BlockSize], want) {
					t.Fatalf("key %x: encrypt(%x) = %x, want %x", key, src, dst[:BlockSize], want)
				}
				if run1AVX2CT(ks, &dst[0], &dst[0], true); !bytes.Equal(dst[:BlockSize], src) {
					t.Fatalf("key %x: decrypt in place(%x) = %x, want %x", key, want, dst[:BlockSize], src)
				}
			}
		}
	}
}

// BenchmarkSingleAVX2CT times one block chained through the single-block
// kernel and through the 8-block kernel that single blocks took before it,
// padded, the output of each the input of the next: on CPUs that choose
// avx2-ct (AVX2 without AVX-512 VBMI, as Zen 1), the ratio that decides
// between them,
//
//	go test -run '^$' -bench SingleAVX2CT -count 5 ./internal/kernel
func BenchmarkSingleAVX2CT(b *testing.B) {
	if !AVX2CT.Supported {
		b.Skip("no AVX2")
	}
	for _, bits := range []int{128, 256} {
		ks := ctSchedule1(make([]byte, bits/8))
		var blk [8 * BlockSize]byte
		for _, k := range []struct {
			name string
			f    func()
		}{
			{"single", func() { run1AVX2CT(ks, &blk[0], &blk[0], false) }},
			{"8-block", func() { runAVX2CT(ks, &blk[0], &blk[0], 1, 8, false) }},
		} {
			b.Run(fmt.Sprintf("key=%d/kernel=%s", bits, k.name), func(b *testing.B) {
				b.SetBytes(BlockSize)
				for b.Loop() {
					k.f()
				}
			})
		}
	}
}
