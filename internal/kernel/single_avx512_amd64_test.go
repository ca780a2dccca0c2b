//go:build gc && !purego

package kernel

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/asmscan"
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

// singleAVX512 is avx512-gfni's kernel of single blocks.
var singleAVX512 = singleKernel{gfniSchedule, encryptBlock1AVX512GFNI, decryptBlock1AVX512GFNI}

// TestSingleAVX512KnownAnswers runs the official vectors through the
// single-block kernels (checkSingleKnownAnswers).
func TestSingleAVX512KnownAnswers(t *testing.T) {
	requireAVX512GFNI(t)
	checkSingleKnownAnswers(t, singleAVX512)
}

// TestSingleAVX512Differential compares the single-block kernels with the
// generic kernel (checkSingleDifferential).
func TestSingleAVX512Differential(t *testing.T) {
	requireAVX512GFNI(t)
	checkSingleDifferential(t, singleAVX512)
}

// TestSingleAVX512AssemblyIsConstantTime holds single_avx512_amd64.s to
// the rules of TestAVX512AssemblyIsConstantTime: no indexed memory operand,
// no general-purpose register or flag written from data, no CALL,
// VZEROUPPER before RET, and no feature that internal/cpu's rule for
// avx512-gfni does not check (which asks for AVX2 too); and no branch but
// the chain and 4-block kernels', on their counts.
func TestSingleAVX512AssemblyIsConstantTime(t *testing.T) {
	raw, err := os.ReadFile("single_avx512_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	data := string(raw)
	funcs := asmscan.Functions(data)
	single := []string{"encryptBlock1AVX512GFNI", "decryptBlock1AVX512GFNI"}
	counted := []string{"cbcEncryptAVX512GFNI", "cfbEncryptAVX512GFNI", "ofbStreamAVX512GFNI", "cbcMACAVX512GFNI",
		"encryptBlocks4AVX512GFNI", "decryptBlocks4AVX512GFNI"}
	for _, want := range append(single, counted...) {
		if funcs[want] == nil {
			t.Errorf("single_avx512_amd64.s has no function %s", want)
		}
	}
	for name, lines := range funcs {
		checkPublicAddressesAndBranches(t, name, lines)
		// The chain and 4-block kernels branch on the count, which
		// checkPublicAddressesAndBranches holds public; a single block
		// has no branch.
		if slices.Contains(counted, name) {
			continue
		}
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
// single-block kernel, the call of one block of the 4-block kernel beside
// it (the same rounds on zmm registers), and the 1-way table kernel that
// NewCipher uses.
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
