//go:build gc && !purego

package kernel

import (
	"bytes"
	"fmt"
	"testing"
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

// singleAVX2CT is avx2-ct's kernel of single blocks.
var singleAVX2CT = singleKernel{
	ctSchedule1,
	func(ks *Schedule, dst, src *byte) { run1AVX2CT(ks, dst, src, false) },
	func(ks *Schedule, dst, src *byte) { run1AVX2CT(ks, dst, src, true) },
}

// TestSingleAVX2CTKnownAnswers runs the official vectors through the
// single-block kernels (checkSingleKnownAnswers).
func TestSingleAVX2CTKnownAnswers(t *testing.T) {
	requireAVX2CT(t)
	checkSingleKnownAnswers(t, singleAVX2CT)
}

// TestSingleAVX2CTDifferential compares the single-block kernels with the
// generic kernel (checkSingleDifferential).
func TestSingleAVX2CTDifferential(t *testing.T) {
	requireAVX2CT(t)
	checkSingleDifferential(t, singleAVX2CT)
}

// TestSingleAVX2CTShort gives avx2-ct's single-block entry points, the
// only ones of this architecture that take slices, a dst or a src a byte
// short of a block in front of spare capacity: they panic before the
// kernel reads or writes a byte.
func TestSingleAVX2CTShort(t *testing.T) {
	requireAVX2CT(t)
	r := testRand(t)
	ks := ctSchedule1(randBytes(r, 32))
	for _, f := range []struct {
		name string
		f    func(ks *Schedule, dst, src []byte)
	}{{"EncryptBlockAVX2CT", EncryptBlockAVX2CT}, {"DecryptBlockAVX2CT", DecryptBlockAVX2CT}} {
		for _, shortDst := range []bool{true, false} {
			buf, src := make([]byte, BlockSize), randBytes(r, BlockSize)
			dst, in := buf, src
			if shortDst {
				dst = buf[:BlockSize-1]
			} else {
				in = src[:BlockSize-1]
			}
			what := fmt.Sprintf("%s, dst of %d bytes and src of %d", f.name, len(dst), len(in))
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%s: no panic", what)
					}
				}()
				f.f(ks, dst, in)
			}()
			if !bytes.Equal(buf, make([]byte, BlockSize)) {
				t.Errorf("%s: wrote before it panicked", what)
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
