package cpu

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/cpuid/v2"
	"github.com/twofish-go/twofish/internal/testenv"
)

// TestArchFacts checks that an arm64 CPU of which klauspost/cpuid reads
// nothing (Windows, OpenBSD, NetBSD, iOS) still counts as having ASIMD, and
// PMULL where golang.org/x/sys/cpu finds it, so that an arm64 build takes
// arm64-neon and the PMULL GHASH there; and that other architectures' facts
// stay as they are.
func TestArchFacts(t *testing.T) {
	for _, pmull := range []bool{false, true} {
		f := archFacts(Facts{}, "arm64", pmull)
		if !f.ASIMD || f.PMULL != pmull {
			t.Errorf("arm64, nothing read, x/sys/cpu PMULL %v: ASIMD %v, PMULL %v", pmull, f.ASIMD, f.PMULL)
		}
		if !slices.Contains(blockCTImpls, "arm64-neon") {
			continue // not an arm64 build: Decide has no arm64 kernels to choose
		}
		c := Decide(f)
		wantGHASH := map[bool]string{false: "generic", true: "pmull"}[pmull]
		if c.BlockCT.Name != "arm64-neon" || c.GHASH.Name != wantGHASH {
			t.Errorf("arm64, nothing read, x/sys/cpu PMULL %v: constant-time %s, GHASH %s; want arm64-neon, %s", pmull, c.BlockCT.Name, c.GHASH.Name, wantGHASH)
		}
	}
	if f := archFacts(Facts{ASIMD: false, PMULL: true}, "arm64", false); !f.PMULL {
		t.Error("arm64: klauspost/cpuid's PMULL lost where x/sys/cpu finds none")
	}
	for _, goarch := range []string{"amd64", "386", "arm", "riscv64", "ppc64le"} {
		if f := archFacts(Facts{AVX2: true}, goarch, true); f != (Facts{AVX2: true}) {
			t.Errorf("%s: facts changed to %v", goarch, f.Features())
		}
	}
}

// TestOSFactsDarwin checks that no choice takes an AVX-512 kernel on a Mac
// whose kernel corrupts the mask registers on return from a signal (Darwin
// 19.6.0 to 21.2.0), or whose release cannot be read, and that every later
// release and other operating system keep the facts of the CPU: an Ice Lake
// MacBook, as klauspost/cpuid reports it from the commpage.
func TestOSFactsDarwin(t *testing.T) {
	iceLake := with(intelAVX2, func(f *Facts) {
		f.Model = 0x7E
		avx512(f)
		f.AVX512VBMI, f.GFNI, f.VPCLMULQDQ, f.CLMUL, f.SSSE3, f.BMI1, f.BMI2 = true, true, true, true, true, true, true
	})
	for _, tc := range []struct {
		goos, release string
		keep          bool
	}{
		{"darwin", "19.6.0", false},
		{"darwin", "20.6.0", false},
		{"darwin", "21.2.0", false},
		{"darwin", "21.3.0", true},
		{"darwin", "21.10.0", true},
		{"darwin", "22.1.0", true},
		{"darwin", "24.6.0", true},
		{"darwin", "", false},
		{"darwin", "21.3", false},
		{"darwin", "21.3.0-beta", false},
		{"linux", "", true},
		{"windows", "", true},
	} {
		f := osFacts(iceLake, tc.goos, tc.release)
		if got := f == iceLake; got != tc.keep {
			t.Errorf("%s %q: facts kept %v, want %v (%v)", tc.goos, tc.release, got, tc.keep, f.Features())
		}
		if tc.keep {
			continue
		}
		if !f.GFNI || !f.VPCLMULQDQ || !f.AVX2 || !f.OSYMM {
			t.Errorf("%s %q: facts %v lost more than AVX-512", tc.goos, tc.release, f.Features())
		}
		if f.AVX512F || f.AVX512BW || f.AVX512VL || f.AVX512VBMI || f.OSZMM {
			t.Errorf("%s %q: facts %v keep some of AVX-512", tc.goos, tc.release, f.Features())
		}
		for _, c := range Decide(f).All() {
			if strings.HasPrefix(c.Name, "avx512") || c.Supported("avx512-vbmi") || c.Supported("avx512-gfni") || c.Supported("avx512-vpclmulqdq") || c.Supported("avx512") {
				t.Errorf("%s %q: %s chose %s with options %+v", tc.goos, tc.release, c.Part, c.Name, c.Options)
			}
		}
	}
}

func TestReleaseAtLeast(t *testing.T) {
	for release, want := range map[string]bool{
		"21.3.0": true, "21.3.1": true, "21.4.0": true, "22.0.0": true, "100.0.0": true, "21.10.0": true,
		"21.2.9": false, "20.99.99": false, "9.8.0": false,
		"": false, "21": false, "21.3": false, "21.3.0.1": false, "21..0": false, "22..0": false, "22.3.": false, ".3.0": false,
		"+21.3.0": false, "21.-3.0": false, " 21.3.0": false, "21.3.0\n": false, "999999999999.0.0": false,
	} {
		if got := releaseAtLeast(release, 21, 3, 0); got != want {
			t.Errorf("releaseAtLeast(%q, 21, 3, 0) = %v, want %v", release, got, want)
		}
	}
}

// TestGODEBUG checks that the cpu.* options of GODEBUG turn off the facts
// they name, read as Go's internal/cpu reads them, and nothing else.
func TestGODEBUG(t *testing.T) {
	zen5 := with(amdAVX2, func(f *Facts) {
		f.Family, f.Model = 0x1A, 0x02
		avx512(f)
		f.AVX512VBMI, f.GFNI, f.BMI1, f.BMI2, f.SSSE3, f.CLMUL, f.VPCLMULQDQ = true, true, true, true, true, true, true
	})
	noAVX512 := func(f *Facts) { f.AVX512F, f.OSZMM = false, false }
	unchanged := func(*Facts) {}
	for _, tc := range []struct {
		godebug, given string
		edit           func(*Facts)
	}{
		{"", "", unchanged},
		{"cpu.avx512f=off", "cpu.avx512f=off", noAVX512},
		{"cpu.avx512=off", "cpu.avx512=off", noAVX512},
		{"cpu.avx2=off", "cpu.avx2=off", func(f *Facts) { f.AVX2 = false }},
		{"cpu.avx=off", "cpu.avx=off", func(f *Facts) { f.OSYMM = false }},
		{"cpu.avx512bw=off,cpu.avx512vl=off", "cpu.avx512bw=off,cpu.avx512vl=off", func(f *Facts) { f.AVX512BW, f.AVX512VL = false, false }},
		{"cpu.avx512vbmi=off", "cpu.avx512vbmi=off", func(f *Facts) { f.AVX512VBMI = false }},
		{"cpu.avx512gfni=off", "cpu.avx512gfni=off", func(f *Facts) { f.GFNI = false }},
		{"cpu.vpclmulqdq=off", "cpu.vpclmulqdq=off", func(f *Facts) { f.VPCLMULQDQ = false }},
		{"cpu.avx512vpclmulqdq=off", "cpu.avx512vpclmulqdq=off", func(f *Facts) { f.VPCLMULQDQ = false }},
		{"cpu.pclmulqdq=off,cpu.ssse3=off", "cpu.pclmulqdq=off,cpu.ssse3=off", func(f *Facts) { f.CLMUL, f.SSSE3 = false, false }},
		{"cpu.bmi1=off,cpu.bmi2=off", "cpu.bmi1=off,cpu.bmi2=off", func(f *Facts) { f.BMI1, f.BMI2 = false, false }},
		{"cpu.all=off", "cpu.all=off", func(f *Facts) {
			*f = Facts{Vendor: f.Vendor, Family: f.Family, Model: f.Model}
		}},
		{"cpu.all=off,cpu.avx=on,cpu.avx2=on", "cpu.all=off,cpu.avx=on,cpu.avx2=on", func(f *Facts) {
			*f = Facts{Vendor: f.Vendor, Family: f.Family, Model: f.Model, AVX2: true, OSYMM: true}
		}},
		{"cpu.avx512f=off,cpu.avx512f=on", "cpu.avx512f=off,cpu.avx512f=on", unchanged},
		{"cpu.avx512f=on", "cpu.avx512f=on", unchanged},
		{"gctrace=1,cpu.avx512f=off,madvdontneed=1", "cpu.avx512f=off", noAVX512},
		// Options that name no feature of the kernels: the Bochs test
		// turns the runtime's AVX-512 off with the first two.
		{"cpu.avx512cd=off,cpu.avx512dq=off,cpu.rdtscp=off,asyncpreemptoff=1", "", unchanged},
		// What Go's internal/cpu ignores too.
		{"cpu.avx512f", "", unchanged},
		{"cpu.avx512f=no", "", unchanged},
		{"cpu.avx512f=OFF", "", unchanged},
		{"cpu.AVX512F=off", "", unchanged},
		{"CPU.avx512f=off", "", unchanged},
		{" cpu.avx512f=off", "", unchanged},
		{"cpu.avx512f=off ", "", unchanged},
	} {
		got, want := withGODEBUG(zen5, tc.godebug), with(zen5, tc.edit)
		if got.GODEBUG != tc.given {
			t.Errorf("GODEBUG=%q: options %q, want %q", tc.godebug, got.GODEBUG, tc.given)
		}
		if got.GODEBUG = ""; got != want {
			t.Errorf("GODEBUG=%q: features %v, want %v", tc.godebug, got.Features(), want.Features())
		}
	}

	// Through the choices: no AVX-512 kernel of any part with
	// cpu.avx512f=off or x/sys/cpu's cpu.avx512=off, no vector kernel with cpu.avx=off or cpu.avx2=off
	// (whose AVX-512 facts stay: the CPU still has it), and every choice
	// one that the CPU runs.
	for godebug, prefixes := range map[string][]string{
		"cpu.avx512f=off": {"avx512"},
		"cpu.avx512=off":  {"avx512"},
		"cpu.avx=off":     {"avx512", "avx2"},
		"cpu.avx2=off":    {"avx512", "avx2"},
	} {
		for _, c := range Decide(withGODEBUG(zen5, godebug)).All() {
			if !c.Supported(c.Name) {
				t.Errorf("GODEBUG=%s: %s chose %s, which it counts as unsupported", godebug, c.Part, c.Name)
			}
			for _, o := range c.Options {
				for _, p := range prefixes {
					if o.Supported && strings.HasPrefix(o.Name, p) {
						t.Errorf("GODEBUG=%s: %s counts %s as supported", godebug, c.Part, o.Name)
					}
				}
			}
		}
	}

	// arm64: the NEON kernel and GHASH's PMULL kernel.
	f := withGODEBUG(neoverseN1, "cpu.pmull=off")
	if supports(f, GHASH, "pmull") || !supports(f, Block, "arm64-neon") {
		t.Errorf("GODEBUG=cpu.pmull=off: pmull %v, arm64-neon %v; want false, true", supports(f, GHASH, "pmull"), supports(f, Block, "arm64-neon"))
	}
	if f := withGODEBUG(neoverseN1, "cpu.asimd=off"); supports(f, Block, "arm64-neon") || supports(f, GHASH, "pmull") {
		t.Errorf("GODEBUG=cpu.asimd=off: arm64-neon or pmull still supported")
	}
}

// TestHostGODEBUG runs this test binary again with GODEBUG=cpu.all=off,
// as the facts of this process are read once: every choice of the child
// must then be baseline or portable code.
func TestHostGODEBUG(t *testing.T) {
	baseline := []string{"amd64-3way", "amd64-1way", "arm64-2way", "arm64-1way", "generic", "generic-ct", "baseline", "sse2"}
	if os.Getenv("TWOFISH_TEST_GODEBUG_CHILD") == "1" {
		if f := HostFacts(); f.GODEBUG != "cpu.all=off" || len(f.Features()) != 0 {
			t.Errorf("GODEBUG=%q: facts %v with options %q", os.Getenv("GODEBUG"), f.Features(), f.GODEBUG)
		}
		for _, c := range Host().All() {
			if !slices.Contains(baseline, c.Name) {
				t.Errorf("GODEBUG=cpu.all=off: %s chose %s (%s)", c.Part, c.Name, c.Reason)
			}
		}
		return
	}
	testenv.MustHaveExec(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostGODEBUG$", "-test.v")
	cmd.Env = append(os.Environ(), "TWOFISH_TEST_GODEBUG_CHILD=1", "GODEBUG=cpu.all=off")
	out, err := testenv.CombinedOutput(t, cmd)
	if testenv.NotExecutable(err) {
		t.Skipf("cannot re-execute the test binary here (%v); TestGODEBUG covers the rules", err)
	}
	if err != nil || !strings.Contains(string(out), "--- PASS: TestHostGODEBUG") {
		t.Errorf("child with GODEBUG=cpu.all=off: %v\n%s", err, out)
	}
}

// TestCPUIDFacts checks how klauspost/cpuid's answers become facts: each
// feature its own, the operating system's ymm and zmm support from the
// flags that klauspost/cpuid sets only with it (AVX and AVX512F), and the
// vendor without the spaces that pad Zhaoxin's.
func TestCPUIDFacts(t *testing.T) {
	zhaoxin := cpuid.CPUInfo{VendorString: "  Shanghai  ", Family: 7, Model: 0x3B, BrandName: " ZHAOXIN KaiXian KX-U6780A@2.7GHz "}
	zhaoxin.Enable(cpuid.AVX, cpuid.AVX2, cpuid.SSSE3, cpuid.CLMUL)
	f := cpuidFacts(&zhaoxin)
	want := Facts{Vendor: "Shanghai", Family: 7, Model: 0x3B, AVX2: true, OSYMM: true, SSSE3: true, CLMUL: true, Brand: "ZHAOXIN KaiXian KX-U6780A@2.7GHz"}
	if f != want {
		t.Errorf("Zhaoxin: %+v, want %+v", f, want)
	}
	if name, reason := blockPolicy(f); name != "avx2-gather" || !strings.HasPrefix(reason, "Shanghai family 0x7 model 0x3b ") {
		t.Errorf("Zhaoxin: %s (%s)", name, reason)
	}

	// AVX2 without AVX, which klauspost/cpuid never reports (it sets AVX
	// only where XCR0 enables the ymm registers, and AVX2 only with AVX):
	// no AVX2 kernel runs all the same.
	noYMM := cpuid.CPUInfo{VendorString: "GenuineIntel", Family: 6, Model: 0x5E}
	noYMM.Enable(cpuid.AVX2, cpuid.BMI1, cpuid.BMI2)
	if f := cpuidFacts(&noYMM); f.OSYMM || !f.AVX2 || supports(f, Block, "avx2-ct") {
		t.Errorf("AVX2 without AVX: %v, avx2-ct supported %v", f.Features(), supports(f, Block, "avx2-ct"))
	}

	// AVX-512 Foundation without BW (Knights Landing): the OS's zmm support
	// comes with AVX512F alone.
	knl := cpuid.CPUInfo{VendorString: "GenuineIntel", Family: 6, Model: 0x57}
	knl.Enable(cpuid.AVX, cpuid.AVX2, cpuid.AVX512F)
	if f := cpuidFacts(&knl); !f.OSZMM || !f.AVX512F || f.AVX512BW {
		t.Errorf("AVX512F without BW: %v, want AVX512F and OSZMM", f.Features())
	}

	every := cpuid.CPUInfo{}
	every.Enable(cpuid.AVX, cpuid.AVX2, cpuid.BMI1, cpuid.BMI2, cpuid.SSSE3, cpuid.CLMUL, cpuid.VPCLMULQDQ,
		cpuid.AVX512F, cpuid.AVX512BW, cpuid.AVX512VL, cpuid.AVX512VBMI, cpuid.GFNI, cpuid.ASIMD, cpuid.PMULL)
	want = Facts{AVX2: true, OSYMM: true, BMI1: true, BMI2: true, SSSE3: true, CLMUL: true, VPCLMULQDQ: true,
		AVX512F: true, AVX512BW: true, AVX512VL: true, AVX512VBMI: true, GFNI: true, OSZMM: true, ASIMD: true, PMULL: true}
	if got := cpuidFacts(&every); got != want {
		t.Errorf("every feature: %v, want %v", got.Features(), want.Features())
	}
}
