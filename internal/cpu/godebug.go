package cpu

import "strings"

// godebugOptions are the cpu.* options of the GODEBUG environment variable
// that the facts honour, with the facts that each turns off: every name
// that Go's internal/cpu (which Go's runtime and crypto packages follow) or
// golang.org/x/sys/cpu (which x/crypto follows) gives a feature that a
// kernel of this module uses. So one GODEBUG setting keeps all of them off
// a feature that the hardware, a hypervisor or an emulator gets wrong;
// TWOFISH_IMPL pins only the block kernels, never GHASH, OCB's offsets or
// the key schedule. An option can only narrow the choices: "on" restores
// what the CPU reports, never more.
//
// "avx" turns off every VEX- or EVEX-encoded kernel, as each needs AVX,
// and "avx512f" (or x/sys/cpu's "avx512", AVX-512 Foundation with the
// operating system's support) every AVX-512 one. Options that name no feature of the
// kernels (cpu.avx512cd, cpu.avx512dq, cpu.rdtscp, …) change nothing here;
// the Bochs test (testdata/bochs) keeps the runtime off AVX-512 with
// cpu.avx512cd and cpu.avx512dq while the kernels' AVX-512 runs.
var godebugOptions = []struct {
	name string
	off  func(*Facts)
}{
	{"avx", func(f *Facts) { f.OSYMM = false }},
	{"avx2", func(f *Facts) { f.AVX2 = false }},
	{"avx512f", func(f *Facts) { f.AVX512F, f.OSZMM = false, false }},
	{"avx512", func(f *Facts) { f.AVX512F, f.OSZMM = false, false }}, // x/sys/cpu
	{"avx512bw", func(f *Facts) { f.AVX512BW = false }},
	{"avx512vl", func(f *Facts) { f.AVX512VL = false }},
	{"avx512vbmi", func(f *Facts) { f.AVX512VBMI = false }}, // x/sys/cpu
	{"avx512gfni", func(f *Facts) { f.GFNI = false }},       // x/sys/cpu
	{"vpclmulqdq", func(f *Facts) { f.VPCLMULQDQ = false }},
	{"avx512vpclmulqdq", func(f *Facts) { f.VPCLMULQDQ = false }}, // x/sys/cpu
	{"pclmulqdq", func(f *Facts) { f.CLMUL = false }},
	{"ssse3", func(f *Facts) { f.SSSE3 = false }},
	{"bmi1", func(f *Facts) { f.BMI1 = false }},
	{"bmi2", func(f *Facts) { f.BMI2 = false }},
	{"asimd", func(f *Facts) { f.ASIMD = false }}, // x/sys/cpu
	{"pmull", func(f *Facts) { f.PMULL = false }},
}

// withGODEBUG returns f less the features that the cpu.* options of
// godebug, a value of GODEBUG, turn off, and with f.GODEBUG set to the
// options of godebugOptions that it gives. It reads them as Go's
// internal/cpu does: comma-separated cpu.NAME=on or cpu.NAME=off, the last
// setting of a name winning, cpu.all=on or off setting every name, and
// anything else ignored (Go's runtime warns of what it does not know).
func withGODEBUG(f Facts, godebug string) Facts {
	off := make(map[string]bool)
	var given []string
	for _, field := range strings.Split(godebug, ",") {
		key, value, ok := strings.Cut(field, "=")
		name, isCPU := strings.CutPrefix(key, "cpu.")
		if !ok || !isCPU || value != "on" && value != "off" {
			continue
		}
		known := name == "all"
		for _, o := range godebugOptions {
			if name == "all" || name == o.name {
				off[o.name] = value == "off"
				known = true
			}
		}
		if known {
			given = append(given, field)
		}
	}
	for _, o := range godebugOptions {
		if off[o.name] {
			o.off(&f)
		}
	}
	f.GODEBUG = strings.Join(given, ",")
	return f
}
