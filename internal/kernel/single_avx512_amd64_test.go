//go:build gc && !purego

package kernel

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/kat"
)

// The avx512-vbmi kernels of single blocks (single_avx512_amd64.s) against
// the official vectors and the generic kernel. The root package's Encrypt
// and Decrypt reach them for the avx512-vbmi ladder (TestSingleBlocks and
// TestPlanSingleBlocks run them there too); these call them directly.

// requireAVX512 skips t where this CPU cannot run avx512-vbmi, or fails it
// where TWOFISH_TEST_REQUIRE names avx512-vbmi.
func requireAVX512(t *testing.T) {
	t.Helper()
	if !AVX512VBMI.Supported {
		skipUnsupported(t, AVX512VBMI.Name)
	}
}

// slicedSchedule returns the schedule of key that the avx512-vbmi kernels
// read.
func slicedSchedule(key []byte) *Schedule {
	ks := new(Schedule)
	AVX512VBMI.expandKey(ks, key)
	return ks
}

// TestSingleAVX512KnownAnswers runs ECB_TBL.TXT and the prefix of the ECB
// Monte Carlo files (mctPrefix) through the single-block kernels.
func TestSingleAVX512KnownAnswers(t *testing.T) {
	requireAVX512(t)
	for i, r := range loadKAT(t, kat.ECBTable) {
		ks := slicedSchedule(r.Key)
		block := bytes.Clone(r.PT)
		if encryptBlockAVX512Single(ks, &block[0], &block[0]); !bytes.Equal(block, r.CT) {
			t.Errorf("record %d (key %d bits): encrypt = %x, want %x", i, 8*r.KeySize, block, r.CT)
		}
		if decryptBlockAVX512Single(ks, &block[0], &block[0]); !bytes.Equal(block, r.PT) {
			t.Errorf("record %d (key %d bits): decrypt = %x, want %x", i, 8*r.KeySize, block, r.PT)
		}
	}
	for _, file := range []string{kat.ECBEncrypt, kat.ECBDecrypt, kat.CBCEncrypt, kat.CBCDecrypt} {
		for _, r := range kat.Prefix(loadKAT(t, file), mctPrefix()) {
			ks := slicedSchedule(r.Key)
			got, want, err := kat.MonteCarlo(file, r, func(block []byte, decrypt bool) {
				if decrypt {
					decryptBlockAVX512Single(ks, &block[0], &block[0])
				} else {
					encryptBlockAVX512Single(ks, &block[0], &block[0])
				}
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

// TestSingleAVX512Differential compares the single-block kernels with the
// generic kernel on random keys of every size and random blocks, in place
// and not, at every offset of the buffers from 0 to 7.
func TestSingleAVX512Differential(t *testing.T) {
	requireAVX512(t)
	r := testRand(t)
	for _, size := range keySizes {
		for range 50 {
			key := randBytes(r, size)
			ks, ref := slicedSchedule(key), newCipher(key, Generic)
			for off := range 8 {
				src := randBytes(r, BlockSize+off)[off:]
				want := make([]byte, BlockSize)
				ref.EncryptBlocks(want, src)
				dst := make([]byte, BlockSize+7)[7-off:]
				if encryptBlockAVX512Single(ks, &dst[0], &src[0]); !bytes.Equal(dst[:BlockSize], want) {
					t.Fatalf("key %x: encrypt(%x) = %x, want %x", key, src, dst[:BlockSize], want)
				}
				in := bytes.Clone(want)
				if decryptBlockAVX512Single(ks, &in[0], &in[0]); !bytes.Equal(in, src) {
					t.Fatalf("key %x: decrypt in place(%x) = %x, want %x", key, want, in, src)
				}
			}
		}
	}
}

// TestSingleAVX512AssemblyIsConstantTime holds single_avx512_amd64.s to
// the rules of TestAVX512AssemblyIsConstantTime: no indexed memory operand,
// no general-purpose register or flag written from data, no CALL, GFNI
// nowhere, VZEROUPPER before RET, and no feature that internal/cpu's rule
// for avx512-vbmi does not check.
func TestSingleAVX512AssemblyIsConstantTime(t *testing.T) {
	data, err := os.ReadFile("single_avx512_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	funcs := asmFunctions(string(data))
	for _, want := range []string{"encryptBlockAVX512Single", "decryptBlockAVX512Single"} {
		if funcs[want] == nil {
			t.Errorf("single_avx512_amd64.s has no function %s", want)
		}
	}
	for name, lines := range funcs {
		checkPublicAddressesAndBranches(t, name, lines)
		for _, line := range lines {
			if strings.HasPrefix(line, "VGF2P8") || strings.HasPrefix(line, "J") {
				t.Errorf("%s: %s", name, line)
			}
		}
	}
	// internal/cpu's rule for avx512-vbmi asks for AVX2 too.
	checked := map[string]bool{"AVX": true, "AVX2": true, "AVX512F": true, "AVX512BW": true, "AVX512VL": true, "AVX512VBMI": true}
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "// Requires: "); ok {
			n++
			for _, f := range strings.Split(rest, ", ") {
				if !checked[f] {
					t.Errorf("single_avx512_amd64.s requires %s, which internal/cpu does not check for avx512-vbmi", f)
				}
			}
		}
	}
	if n != len(funcs) {
		t.Errorf("%d Requires comments for %d functions", n, len(funcs))
	}
}

// BenchmarkSingleAVX512 times one block chained through each entry point
// of single blocks on this CPU: the single-block kernel, the 4-block
// kernel's call of one block that it replaces, and the 1-way table kernel
// that NewCipher uses.
func BenchmarkSingleAVX512(b *testing.B) {
	if !AVX512VBMI.Supported {
		b.Skip("no AVX-512 VBMI")
	}
	key := make([]byte, 32)
	ks, tables := slicedSchedule(key), newCipher(key, AMD64x1).Schedule()
	var blk [BlockSize]byte
	for _, k := range []struct {
		name string
		f    func()
	}{
		{"single", func() { encryptBlockAVX512Single(ks, &blk[0], &blk[0]) }},
		{"4-block", func() { encryptBlocks4AVX512(ks, &blk[0], &blk[0], 1) }},
		{"amd64-1way", func() { EncryptBlock1x(tables, &blk[0], &blk[0]) }},
	} {
		b.Run("kernel="+k.name, func(b *testing.B) {
			b.SetBytes(BlockSize)
			for b.Loop() {
				k.f()
			}
		})
	}
}
