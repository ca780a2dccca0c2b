package cpu

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/klauspost/cpuid/v2"
	xcpu "golang.org/x/sys/cpu"
)

// Facts are what the choices know of a processor: the answers of CPUID, as
// github.com/klauspost/cpuid/v2 reports them (with arm64's where it reads
// none, archFacts), less the features that the
// operating system does not keep safe (osFacts) or that GODEBUG's cpu.*
// options turn off (withGODEBUG), and the operating system's word on
// Gather Data Sampling. A plain struct, so that every choice can be tested
// on any machine with the facts of any CPU.
type Facts struct {
	// Vendor is the CPUID vendor string without the spaces that pad
	// some: "GenuineIntel", "AuthenticAMD", "Shanghai", …; on arm64 the
	// implementer that klauspost/cpuid names, or "".
	Vendor string
	// Family and Model are the display family and model, base and extended
	// fields combined (Intel Skylake is family 6 model 0x5E, AMD Zen 5
	// family 0x1A).
	Family, Model int
	// AVX2 is the CPU's AVX2 flag and OSYMM whether the operating system
	// saves the ymm registers (XCR0 bits 1 and 2). klauspost/cpuid reports
	// AVX and AVX2 only when the OS saves ymm; the rules check both, for
	// facts that come from elsewhere.
	AVX2, OSYMM bool
	// BMI1 and BMI2 select the 1-way kernels' body that reads bytes with
	// BEXTR and SHRX.
	BMI1, BMI2 bool
	// SSSE3, CLMUL (PCLMULQDQ) and VPCLMULQDQ are what GHASH's kernels use.
	SSSE3, CLMUL, VPCLMULQDQ bool
	// The AVX-512 subsets and GFNI, for the block kernels and the AMD rules
	// (Zen 4 was the first AMD core with AVX-512).
	AVX512F, AVX512BW, AVX512VL, AVX512VBMI, GFNI bool
	// OSZMM is whether the operating system saves the zmm and mask
	// registers (XCR0 bits 5 to 7; on macOS, which enables them on first
	// use, the commpage's word) and keeps them intact across signals
	// (osFacts). klauspost/cpuid reports the AVX-512 flags only when XCR0
	// or the commpage says so; the rules check both, as for OSYMM.
	OSZMM bool
	// ASIMD (Advanced SIMD, NEON) and PMULL (the 64-bit polynomial
	// multiplications PMULL and PMULL2 of the ARMv8 Crypto Extensions) are
	// what the arm64 kernels use; Linux reports them in AT_HWCAP and macOS
	// through sysctl, which klauspost/cpuid reads, and archFacts fills
	// them in where it reads nothing.
	ASIMD, PMULL bool
	// GDS is the first line of the Linux file
	// /sys/devices/system/cpu/vulnerabilities/gather_data_sampling ("Not
	// affected", "Vulnerable", "Mitigation: Microcode", "Unknown: …"), or
	// "" where there is no such file (other operating systems, older
	// kernels). HostFacts reads it only for the models whose choice it
	// decides (consultsGDS), "" for the others: the read took 50-200 µs on
	// this project's Zen 5 machine, most of what importing the package
	// cost.
	GDS string
	// Brand is the processor's brand string, for reports only.
	Brand string
	// GODEBUG is the cpu.* options of the GODEBUG environment variable
	// that name a feature of the kernels, as given ("cpu.avx512f=off"),
	// or "": the features they turn off are off in these facts, which are
	// what the choices may use, not only what the CPU has (withGODEBUG).
	GODEBUG string
}

// gdsFile is where Linux reports Gather Data Sampling ("Downfall").
const gdsFile = "/sys/devices/system/cpu/vulnerabilities/gather_data_sampling"

// ReadGDS returns the first line of gdsFile, or "" if it cannot be read.
func ReadGDS() string {
	if runtime.GOOS != "linux" {
		return ""
	}
	b, err := os.ReadFile(gdsFile)
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimSpace(line)
}

// cpuidFacts returns the facts that klauspost/cpuid's answers c give,
// without GDS. The vendor is trimmed: Zhaoxin's is "  Shanghai  ".
func cpuidFacts(c *cpuid.CPUInfo) Facts {
	return Facts{
		Vendor:     strings.TrimSpace(c.VendorString),
		Family:     c.Family,
		Model:      c.Model,
		AVX2:       c.Supports(cpuid.AVX2),
		OSYMM:      c.Supports(cpuid.AVX), // klauspost/cpuid sets AVX only if XCR0 enables ymm
		BMI1:       c.Supports(cpuid.BMI1),
		BMI2:       c.Supports(cpuid.BMI2),
		SSSE3:      c.Supports(cpuid.SSSE3),
		CLMUL:      c.Supports(cpuid.CLMUL),
		VPCLMULQDQ: c.Supports(cpuid.VPCLMULQDQ),
		AVX512F:    c.Supports(cpuid.AVX512F),
		AVX512BW:   c.Supports(cpuid.AVX512BW),
		AVX512VL:   c.Supports(cpuid.AVX512VL),
		AVX512VBMI: c.Supports(cpuid.AVX512VBMI),
		GFNI:       c.Supports(cpuid.GFNI),
		OSZMM:      c.Supports(cpuid.AVX512F), // set only if XCR0 enables the AVX-512 state
		ASIMD:      c.Supports(cpuid.ASIMD),
		PMULL:      c.Supports(cpuid.PMULL),
		Brand:      strings.TrimSpace(c.BrandName),
	}
}

// HostFacts returns the facts of the CPU this process runs on, computed
// once.
var HostFacts = sync.OnceValue(func() Facts {
	f := archFacts(cpuidFacts(&cpuid.CPU), runtime.GOARCH, xcpu.ARM64.HasPMULL)
	f = osFacts(f, runtime.GOOS, osRelease())
	if consultsGDS(f) {
		f.GDS = ReadGDS()
	}
	return withGODEBUG(f, os.Getenv("GODEBUG"))
})

// archFacts returns f with what every CPU of the architecture goarch has,
// and PMULL where golang.org/x/sys/cpu finds it (pmull). klauspost/cpuid
// reads no arm64 features on Windows, OpenBSD, NetBSD or iOS, where the
// arm64 kernels would then go unused: ASIMD is on every arm64 CPU Go runs
// on (Go's port requires ARMv8-A with Advanced SIMD, as Windows' ABI does),
// and x/sys/cpu reads PMULL on those systems (IsProcessorFeaturePresent,
// ID_AA64ISAR0).
func archFacts(f Facts, goarch string, pmull bool) Facts {
	if goarch == "arm64" {
		f.ASIMD = true
		f.PMULL = f.PMULL || pmull
	}
	return f
}

// osFacts returns f with the AVX-512 facts off where the operating system
// goos, at kernel release (Darwin's kern.osrelease, "21.3.0"; ignored
// elsewhere), does not keep the AVX-512 state intact. Darwin from 19.6.0 to
// 21.2.0 (macOS 10.15.6 to 12.1) corrupts the mask registers K0-K7 on
// return from a signal handler, and Go's runtime signals its threads to
// preempt them, so an AVX-512 kernel there could compute a wrong result
// without any fault; klauspost/cpuid trusts the commpage on every Darwin
// version. Like golang.org/x/sys/cpu (darwinSupportsAVX512), only 21.3.0
// and later, where the fix is confirmed, count; VEX-encoded GFNI and
// VPCLMULQDQ, which use no mask registers, stay.
func osFacts(f Facts, goos, release string) Facts {
	if goos == "darwin" && !releaseAtLeast(release, 21, 3, 0) {
		f.AVX512F, f.AVX512BW, f.AVX512VL, f.AVX512VBMI, f.OSZMM = false, false, false, false, false
	}
	return f
}

// releaseAtLeast reports whether a kernel release "major.minor.patch"
// (decimal digits only) is at least the one given; any other form is not.
func releaseAtLeast(release string, major, minor, patch int) bool {
	parts := strings.Split(release, ".")
	if len(parts) != 3 {
		return false
	}
	var v [3]int
	for i, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" || len(p) > 9 {
			return false
		}
		v[i], _ = strconv.Atoi(p)
	}
	if v[0] != major {
		return v[0] > major
	}
	if v[1] != minor {
		return v[1] > minor
	}
	return v[2] >= patch
}

// Features lists the facts that are true, by name ("BMI1", "AVX2", "OSYMM",
// "AVX512F", …, "ASIMD", "PMULL"), in a fixed order.
func (f Facts) Features() []string {
	var names []string
	for _, feat := range []struct {
		name string
		on   bool
	}{
		{"BMI1", f.BMI1}, {"BMI2", f.BMI2}, {"SSSE3", f.SSSE3}, {"CLMUL", f.CLMUL},
		{"AVX2", f.AVX2}, {"OSYMM", f.OSYMM}, {"VPCLMULQDQ", f.VPCLMULQDQ},
		{"AVX512F", f.AVX512F}, {"AVX512BW", f.AVX512BW}, {"AVX512VL", f.AVX512VL},
		{"AVX512VBMI", f.AVX512VBMI}, {"OSZMM", f.OSZMM}, {"GFNI", f.GFNI},
		{"ASIMD", f.ASIMD}, {"PMULL", f.PMULL},
	} {
		if feat.on {
			names = append(names, feat.name)
		}
	}
	return names
}

// FamilyModel formats the family and model in hexadecimal, as libgcrypt's
// hwf-x86.c and its debug output name them: "family 0x6 model 0x5e".
func (f Facts) FamilyModel() string {
	return "family 0x" + strconv.FormatInt(int64(f.Family), 16) + " model 0x" + strconv.FormatInt(int64(f.Model), 16)
}
