//go:build gc && !purego

package kernel

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/kat"
)

// The avx512-gfni kernels of single blocks (single_avx512_amd64.s) against
// the official vectors and the generic kernel. The root package's Encrypt
// and Decrypt reach them for avx512-gfni's ladder (TestSingleBlocks and
// TestPlanSingleBlocks run them there too); these call them directly. They
// use GFNI, which Bochs computes wrongly, so they run natively only, and
// are skipped where the CPU lacks what avx512-gfni needs.

// requireAVX512GFNI skips t where this CPU cannot run avx512-gfni, or fails
// it where TWOFISH_TEST_REQUIRE names avx512-gfni.
func requireAVX512GFNI(t *testing.T) {
	t.Helper()
	if !AVX512GFNI.Supported {
		skipUnsupported(t, AVX512GFNI.Name)
	}
}

// gfniSchedule returns the schedule of key that the avx512-gfni kernels
// read.
func gfniSchedule(key []byte) *Schedule { return newCipher(key, AVX512GFNI).ks }

// TestSingleAVX512KnownAnswers runs ECB_TBL.TXT and the prefix of the ECB
// and CBC Monte Carlo files (mctPrefix) through the single-block kernels.
func TestSingleAVX512KnownAnswers(t *testing.T) {
	requireAVX512GFNI(t)
	for i, r := range loadKAT(t, kat.ECBTable) {
		ks := gfniSchedule(r.Key)
		block := bytes.Clone(r.PT)
		if encryptBlock1AVX512GFNI(ks, &block[0], &block[0]); !bytes.Equal(block, r.CT) {
			t.Errorf("record %d (key %d bits): encrypt = %x, want %x", i, 8*r.KeySize, block, r.CT)
		}
		if decryptBlock1AVX512GFNI(ks, &block[0], &block[0]); !bytes.Equal(block, r.PT) {
			t.Errorf("record %d (key %d bits): decrypt = %x, want %x", i, 8*r.KeySize, block, r.PT)
		}
	}
	for _, file := range []string{kat.ECBEncrypt, kat.ECBDecrypt, kat.CBCEncrypt, kat.CBCDecrypt} {
		for _, r := range kat.Prefix(loadKAT(t, file), mctPrefix()) {
			ks := gfniSchedule(r.Key)
			got, want, err := kat.MonteCarlo(file, r, func(block []byte, decrypt bool) {
				if decrypt {
					decryptBlock1AVX512GFNI(ks, &block[0], &block[0])
				} else {
					encryptBlock1AVX512GFNI(ks, &block[0], &block[0])
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
	requireAVX512GFNI(t)
	r := testRand(t)
	for _, size := range keySizes {
		for range 50 {
			key := randBytes(r, size)
			ks, ref := gfniSchedule(key), newCipher(key, Generic)
			for off := range 8 {
				src := randBytes(r, BlockSize+off)[off:]
				want := make([]byte, BlockSize)
				ref.EncryptBlocks(want, src)
				dst := make([]byte, BlockSize+7)[7-off:]
				if encryptBlock1AVX512GFNI(ks, &dst[0], &src[0]); !bytes.Equal(dst[:BlockSize], want) {
					t.Fatalf("key %x: encrypt(%x) = %x, want %x", key, src, dst[:BlockSize], want)
				}
				if decryptBlock1AVX512GFNI(ks, &dst[0], &dst[0]); !bytes.Equal(dst[:BlockSize], src) {
					t.Fatalf("key %x: decrypt in place(%x) = %x, want %x", key, want, dst[:BlockSize], src)
				}
				in := bytes.Clone(want)
				out := make([]byte, BlockSize)
				if decryptBlock1AVX512GFNI(ks, &out[0], &in[0]); !bytes.Equal(out, src) || !bytes.Equal(in, want) {
					t.Fatalf("key %x: decrypt(%x) = %x, want %x", key, want, out, src)
				}
			}
		}
	}
}

// TestSingleAVX512AssemblyIsConstantTime holds single_avx512_amd64.s to
// the rules of TestAVX512AssemblyIsConstantTime: no indexed memory operand,
// no general-purpose register or flag written from data, no CALL,
// VZEROUPPER before RET, and no feature that internal/cpu's rule for
// avx512-gfni does not check (which asks for AVX2 too).
func TestSingleAVX512AssemblyIsConstantTime(t *testing.T) {
	raw, err := os.ReadFile("single_avx512_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	data := string(raw)
	funcs := asmFunctions(data)
	for _, want := range []string{"encryptBlock1AVX512GFNI", "decryptBlock1AVX512GFNI"} {
		if funcs[want] == nil {
			t.Errorf("single_avx512_amd64.s has no function %s", want)
		}
	}
	for name, lines := range funcs {
		checkPublicAddressesAndBranches(t, name, lines)
		for _, line := range lines {
			if strings.HasPrefix(line, "J") {
				t.Errorf("%s: a branch: %s", name, line)
			}
		}
	}
	checkRequires(t, "single_avx512_amd64.s", data, len(funcs), "AVX", "AVX2", "AVX512F", "AVX512BW", "AVX512VL", "AVX512VBMI")
}

// BenchmarkSingleAVX512 times one block chained through each entry point of
// single blocks on this CPU, the output of each the input of the next: the
// single-block kernel, the 4-block kernel's call of one block that it
// replaced, and the 1-way table kernel that NewCipher uses.
func BenchmarkSingleAVX512(b *testing.B) {
	if !AVX512GFNI.Supported {
		b.Skip("no AVX-512 VBMI and GFNI")
	}
	key := make([]byte, 32)
	ks, table := gfniSchedule(key), newCipher(key, AMD64x1)
	var blk [BlockSize]byte
	for _, k := range []struct {
		name string
		f    func()
	}{
		{"single", func() { encryptBlock1AVX512GFNI(ks, &blk[0], &blk[0]) }},
		{"4-block", func() { encryptBlocks4AVX512GFNI(ks, &blk[0], &blk[0], 1) }},
		{"amd64-1way", func() { EncryptBlock1x(table.t.Load(), table.ks, &blk[0], &blk[0]) }},
	} {
		b.Run("kernel="+k.name, func(b *testing.B) {
			b.SetBytes(BlockSize)
			for b.Loop() {
				k.f()
			}
		})
	}
}
