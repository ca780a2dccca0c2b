//go:build gc && !purego

package kernel

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/asmscan"
)

// TestAVX512AssemblyIsConstantTime reads avx512_amd64.s and checks, for
// each of its functions, the properties that make the avx512-vbmi and
// avx512-gfni kernels constant-time by construction:
//
//   - no memory operand has an index register, and no instruction gathers
//     or scatters: every address is a general-purpose register plus a
//     constant;
//   - the general-purpose registers hold public values only: each is
//     written only from the argument frame, constants, other
//     general-purpose registers and addresses (LEAQ), never from memory
//     elsewhere, from a vector or mask register, or implicitly (MULQ,
//     LODSQ, XLAT, PCMPESTRI);
//   - no instruction sets the flags from vector or mask data (VPTEST,
//     KORTEST, KTEST, COMIS) or from memory (CMPQ (AX), BX; DECQ 8(AX)),
//     so every conditional branch tests public values, and there is no
//     CALL or indirect jump;
//   - no instruction has a latency that depends on its operands (DIV,
//     IDIV, and floating-point arithmetic: DIVPS, SQRTPD, MULPS...).
//
// internal/asmscan states and applies the rule.
//
// Together: no address and no branch depends on the key or the data. The
// kernels must also end with VZEROUPPER. Every kernel has its GFNI
// variant, and only those use GFNI; the 4-block kernels' is in
// single_avx512_amd64.s (TestSingleAVX512AssemblyIsConstantTime).
func TestAVX512AssemblyIsConstantTime(t *testing.T) {
	kernels := []string{"encryptBlocks64AVX512", "decryptBlocks64AVX512", "encryptOCB64AVX512", "decryptOCB64AVX512",
		"encryptCTR64AVX512", "decryptCBC64AVX512", "decryptCFB64AVX512", "encryptXTS64AVX512", "decryptXTS64AVX512",
		"encryptXTSHalves64AVX512", "decryptXTSHalves64AVX512", "encryptBlocks4AVX512", "decryptBlocks4AVX512",
		"encryptBlocks16AVX512", "decryptBlocks16AVX512", "encryptBlocks32AVX512", "decryptBlocks32AVX512", "hashOCB64AVX512"}
	for _, m := range []string{"encryptCTR", "decryptCBC", "decryptCFB", "encryptXTS", "decryptXTS", "encryptOCB", "decryptOCB", "hashOCB"} {
		kernels = append(kernels, m+"16AVX512", m+"32AVX512")
	}
	for _, k := range slices.Clone(kernels) {
		if !strings.HasPrefix(k, "encryptBlocks4") && !strings.HasPrefix(k, "decryptBlocks4") {
			kernels = append(kernels, k+"GFNI")
		}
	}
	checkAVX512Assembly(t, "avx512_amd64.s", kernels...)
}

// checkAVX512Assembly checks every function of the AVX-512 file name as
// TestAVX512AssemblyIsConstantTime says, that it has the functions want,
// and that each needs no feature that internal/cpu's rule for its
// implementation does not check: avx512-vbmi's, and GFNI and VPCLMULQDQ
// besides for the functions whose names end in GFNI (avx512-gfni's). The
// others may use no GFNI: they are tested under Bochs 2.7, which computes
// VGF2P8AFFINEQB wrongly (testdata/bochs).
func checkAVX512Assembly(t *testing.T, name string, want ...string) {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	funcs := asmscan.Functions(string(data))
	for _, fn := range want {
		if funcs[fn] == nil {
			t.Errorf("%s has no function %s", name, fn)
		}
	}
	for fn, lines := range funcs {
		checkPublicAddressesAndBranches(t, fn, lines)
		if strings.HasSuffix(fn, "GFNI") {
			continue
		}
		for _, line := range lines {
			if strings.HasPrefix(line, "VGF2P8") {
				t.Errorf("%s: GFNI: %s", fn, line)
			}
		}
	}

	checkRequires(t, name, string(data), len(funcs), "AVX", "AVX512F", "AVX512BW", "AVX512VL", "AVX512VBMI")
}

// checkRequires checks that each of the nfuncs functions of the assembly
// src (the file name) needs no feature but checked (and GFNI and
// VPCLMULQDQ for the functions named so, avx512-gfni's), which
// internal/cpu's rule checks; avo lists what
// each needs in a "// Requires:" comment just before its TEXT line.
func checkRequires(t *testing.T, name, src string, nfuncs int, checked ...string) {
	t.Helper()
	n := 0
	var requires string
	for _, line := range strings.Split(src, "\n") {
		if rest, ok := strings.CutPrefix(line, "// Requires: "); ok {
			requires = rest
			continue
		}
		rest, ok := strings.CutPrefix(line, "TEXT ·")
		if !ok {
			continue
		}
		fn, _, _ := strings.Cut(rest, "(")
		if requires == "" {
			t.Errorf("%s: %s has no Requires comment", name, fn)
			continue
		}
		n++
		for _, f := range strings.Split(requires, ", ") {
			if !slices.Contains(checked, f) && !((f == "GFNI" || f == "VPCLMULQDQ") && strings.HasSuffix(fn, "GFNI")) {
				t.Errorf("%s: %s requires %s, which internal/cpu does not check for it", name, fn, f)
			}
		}
		requires = ""
	}
	if n != nfuncs {
		t.Errorf("%s: %d Requires comments for %d functions", name, n, nfuncs)
	}
}

// checkPublicAddressesAndBranches reports any line of the function name
// that breaks the rules of TestAVX512AssemblyIsConstantTime (asmscan's
// rule, unrelaxed).
func checkPublicAddressesAndBranches(t *testing.T, name string, lines []string) {
	t.Helper()
	for _, p := range asmscan.Problems(lines, asmscan.Rules{}) {
		t.Errorf("%s: %s", name, p)
	}
}

// TestCheckPublicAddressesAndBranches checks that the checker catches what
// it should.
func TestCheckPublicAddressesAndBranches(t *testing.T) {
	good := []string{
		"MOVQ ks+0(FP), AX", "MOVQ n+24(FP), BX", "TESTQ BX, BX", "JZ done",
		"LEAQ 63(SP), SI", "ANDQ $-64, SI", "LEAQ 4128(AX), DI",
		"VMOVDQU64 64(AX), Z0", "VPERMB mul5BLo<>+0(SB), Z1, Z2", "VPADDD.BCST (DI), Z1, Z2",
		"VPMOVB2M Z1, K1", "VMOVDQU8 Z1, K1, Z2", "ADDQ $16, DI", "CMPQ DI, R8", "JNE rounds",
		"DECQ BX", "JNZ loop", "XCHGQ DI, R8", "VZEROUPPER", "RET",
	}
	for _, bad := range [][2]string{
		{"VPERMB mul5BLo<>+0(SB), Z1, Z2", "VPERMB (AX)(CX*1), Z1, Z2"},
		{"VMOVDQU64 64(AX), Z0", "VPGATHERDD (AX)(Z1*4), K1, Z2"},
		{"LEAQ 4128(AX), DI", "MOVQ (AX), DI"},
		{"LEAQ 4128(AX), DI", "VMOVQ X1, DI"},
		{"LEAQ 4128(AX), DI", "KMOVQ K1, DI"},
		{"LEAQ 4128(AX), DI", "VPEXTRQ $0, X1, DI"},
		{"XCHGQ DI, R8", "XCHGQ DI, (AX)"},
		{"XCHGQ DI, R8", "XCHGQ (AX), DI"},
		{"CMPQ DI, R8", "KORTESTQ K1, K1"},
		{"CMPQ DI, R8", "VPTEST Y1, Y1"},
		{"VPMOVB2M Z1, K1", "CALL runtime·memmove(SB)"},
		{"VZEROUPPER", "NOP"},
	} {
		lines := replaceLine(good, bad[0], bad[1])
		ft := &testing.T{}
		done := make(chan struct{})
		go func() { defer close(done); checkPublicAddressesAndBranches(ft, "test", lines) }()
		<-done
		if !ft.Failed() {
			t.Errorf("the checker accepts %q", bad[1])
		}
	}
	checkPublicAddressesAndBranches(t, "good", good)
}

// TestAVX512WordKernels compares the 16- and 32-block kernels, in word
// layout, with the 4-block kernels at every count of blocks up to five
// passes of 16 and one more, so over several passes and a last one of
// every length, with the blocks after the run left alone.
func TestAVX512WordKernels(t *testing.T) {
	for _, k := range []*Kernel{AVX512VBMI, AVX512GFNI} {
		t.Run(k.Name, func(t *testing.T) {
			if !k.Supported {
				t.Skipf("implementation %s is not supported on this CPU", k.Name)
			}
			gfni := k == AVX512GFNI
			r := testRand(t)
			ks := withLayouts(slicedLayout)
			ks.expandSliced(randBytes(r, 32))
			for _, width := range []int{16, 32} {
				for n := 1; n <= 81; n++ {
					src := randBytes(r, (n+1)*BlockSize)
					for _, dec := range []bool{false, true} {
						want := bytes.Clone(src)
						runAVX512(ks, &want[0], &src[0], n, 4, dec, gfni)
						got := bytes.Clone(src)
						runAVX512(ks, &got[0], &src[0], n, width, dec, gfni)
						if !bytes.Equal(got, want) {
							t.Fatalf("%d-block kernel, %d blocks, decrypt %v: differs from the 4-block kernel", width, n, dec)
						}
					}
				}
			}
		})
	}
}

// BenchmarkAVX512Tail times what the blocks after the last full group of
// 64 cost, which sets smallTail and narrowMost: one padded group of 64, r
// blocks through the 4-block kernels (ceil(r/4) groups), and 16 and 32
// through the kernels of their width.
func BenchmarkAVX512Tail(b *testing.B) {
	for _, k := range []*Kernel{AVX512VBMI, AVX512GFNI} {
		gfni := k == AVX512GFNI
		ks := withLayouts(slicedLayout)
		ks.expandSliced(make([]byte, 32))
		buf := make([]byte, 64*BlockSize)
		run := func(name string, n, width int) {
			b.Run("impl="+k.Name+"/"+name, func(b *testing.B) {
				if !k.Supported {
					b.Skipf("implementation %s is not supported on this CPU", k.Name)
				}
				for b.Loop() {
					runAVX512(ks, &buf[0], &buf[0], n, width, false, gfni)
				}
			})
		}
		run("kernel=64", 64, 64)
		for _, groups := range []int{1, 2, 3, 4} {
			run(fmt.Sprintf("kernel=4/blocks=%d", 4*groups), 4*groups, 4)
		}
		run("kernel=16/blocks=16", 16, 16)
		run("kernel=32/blocks=32", 32, 32)
	}
}
