package cpu

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Synthetic CPUs for the policy, with the facts that klauspost/cpuid and
// Linux report for them.
var (
	intelAVX2 = Facts{Vendor: "GenuineIntel", Family: 6, AVX2: true, OSYMM: true}
	amdAVX2   = Facts{Vendor: "AuthenticAMD", AVX2: true, OSYMM: true}
)

func with(f Facts, edit func(*Facts)) Facts {
	edit(&f)
	return f
}

func avx512(f *Facts) { f.AVX512F, f.AVX512BW, f.AVX512VL, f.OSZMM = true, true, true, true }

func TestPolicy(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    Facts
		want string
	}{
		{"Haswell", with(intelAVX2, func(f *Facts) { f.Model = 0x3C; f.GDS = "Not affected" }), "avx2-gather"},
		{"Haswell-E", with(intelAVX2, func(f *Facts) { f.Model = 0x3F }), "avx2-gather"},
		{"Haswell ULT", with(intelAVX2, func(f *Facts) { f.Model = 0x45; f.GDS = "Not affected" }), "avx2-gather"},
		{"Haswell with eDRAM (Crystal Well)", with(intelAVX2, func(f *Facts) { f.Model = 0x46; f.GDS = "Not affected" }), "avx2-gather"},
		{"Broadwell", with(intelAVX2, func(f *Facts) { f.Model = 0x3D; f.GDS = "Not affected" }), "avx2-vpgather"},
		{"Broadwell, no GDS file", with(intelAVX2, func(f *Facts) { f.Model = 0x3D }), "avx2-vpgather"},
		{"Skylake, GDS vulnerable", with(intelAVX2, func(f *Facts) { f.Model = 0x5E; f.GDS = "Vulnerable" }), "avx2-vpgather"},
		{"Skylake, GDS vulnerable, no microcode", with(intelAVX2, func(f *Facts) { f.Model = 0x5E; f.GDS = "Vulnerable: No microcode" }), "avx2-vpgather"},
		{"Skylake, GDS mitigated", with(intelAVX2, func(f *Facts) { f.Model = 0x5E; f.GDS = "Mitigation: Microcode" }), "avx2-gather"},
		{"Skylake, GDS mitigated and locked", with(intelAVX2, func(f *Facts) { f.Model = 0x4E; f.GDS = "Mitigation: Microcode (locked)" }), "avx2-gather"},
		{"Skylake-SP in a VM", with(intelAVX2, func(f *Facts) { f.Model = 0x55; f.GDS = "Unknown: Dependent on hypervisor status"; avx512(f) }), "avx2-gather"},
		{"Skylake, not Linux", with(intelAVX2, func(f *Facts) { f.Model = 0x5E }), "avx2-gather"},
		{"Tiger Lake, GDS mitigated", with(intelAVX2, func(f *Facts) { f.Model = 0x8C; f.GDS = "Mitigation: Microcode"; avx512(f); f.AVX512VBMI = true }), "avx512-vbmi"},
		{"Tiger Lake, AVX-512 disabled by the OS", with(intelAVX2, func(f *Facts) { f.Model = 0x8C; f.GDS = "Mitigation: Microcode" }), "avx2-gather"},
		{"Ice Lake server", with(intelAVX2, func(f *Facts) { f.Model = 0x6A; f.GDS = "Vulnerable"; avx512(f); f.AVX512VBMI = true }), "avx512-vbmi"},
		{"Sapphire Rapids", with(intelAVX2, func(f *Facts) { f.Model = 0x8F; f.GDS = "Not affected"; avx512(f); f.AVX512VBMI = true }), "avx512-vbmi"},
		{"Cascade Lake (AVX-512 without VBMI)", with(intelAVX2, func(f *Facts) { f.Model = 0x55; f.GDS = "Mitigation: Microcode"; avx512(f) }), "avx2-gather"},
		{"VBMI flags but no OS zmm support", with(intelAVX2, func(f *Facts) { f.Model = 0x8F; avx512(f); f.AVX512VBMI = true; f.OSZMM = false }), "avx2-vpgather"},
		{"Alder Lake", with(intelAVX2, func(f *Facts) { f.Model = 0x97; f.GDS = "Not affected" }), "avx2-vpgather"},
		{"Alder Lake, not Linux", with(intelAVX2, func(f *Facts) { f.Model = 0x9A }), "avx2-vpgather"},
		{"Intel, another family", with(intelAVX2, func(f *Facts) { f.Family, f.Model = 0x13, 0x01; f.GDS = "Not affected" }), "avx2-gather"},
		{"AMD Zen 1", with(amdAVX2, func(f *Facts) { f.Family, f.Model = 0x17, 0x01; f.GDS = "Not affected" }), "avx2-gather"},
		{"AMD Zen 2", with(amdAVX2, func(f *Facts) { f.Family, f.Model = 0x17, 0x31; f.GDS = "Not affected" }), "avx2-gather"},
		{"AMD Zen 3", with(amdAVX2, func(f *Facts) { f.Family, f.Model = 0x19, 0x21; f.GDS = "Not affected" }), "avx2-gather"},
		{"AMD Zen 3 (EPYC Milan)", with(amdAVX2, func(f *Facts) { f.Family, f.Model = 0x19, 0x01 }), "avx2-gather"},
		{"AMD Zen 4", with(amdAVX2, func(f *Facts) {
			f.Family, f.Model = 0x19, 0x61
			f.GDS = "Not affected"
			avx512(f)
			f.AVX512VBMI, f.GFNI, f.VPCLMULQDQ = true, true, true
		}), "avx512-gfni"},
		{"AMD Zen 4 without OS zmm support", with(amdAVX2, func(f *Facts) {
			f.Family, f.Model = 0x19, 0x61
			avx512(f)
			f.AVX512VBMI, f.OSZMM = true, false
		}), "avx2-gather"},
		{"AMD Zen 5", with(amdAVX2, func(f *Facts) {
			f.Family, f.Model = 0x1A, 0x02
			f.GDS = "Not affected"
			avx512(f)
			f.AVX512VBMI, f.GFNI, f.VPCLMULQDQ = true, true, true
		}), "avx512-gfni"},
		{"AMD Zen 5 without GFNI", with(amdAVX2, func(f *Facts) {
			f.Family, f.Model = 0x1A, 0x02
			f.GDS = "Not affected"
			avx512(f)
			f.AVX512VBMI = true
		}), "avx512-vbmi"},
		{"AMD Zen 5 without VPCLMULQDQ", with(amdAVX2, func(f *Facts) {
			f.Family, f.Model = 0x1A, 0x02
			f.GDS = "Not affected"
			avx512(f)
			f.AVX512VBMI, f.GFNI = true, true
		}), "avx512-vbmi"},
		{"GFNI without VBMI", with(intelAVX2, func(f *Facts) { f.Model = 0x55; f.GDS = "Not affected"; avx512(f); f.GFNI = true }), "avx2-vpgather"},
		{"Ice Lake server with GFNI", with(intelAVX2, func(f *Facts) {
			f.Model = 0x6A
			f.GDS = "Vulnerable"
			avx512(f)
			f.AVX512VBMI, f.GFNI, f.VPCLMULQDQ = true, true, true
		}), "avx512-gfni"},
		{"AMD Excavator", with(amdAVX2, func(f *Facts) { f.Family, f.Model = 0x15, 0x60 }), "avx2-gather"},
		{"unknown vendor with AVX2", Facts{Vendor: "CentaurHauls", Family: 7, Model: 0x3B, AVX2: true, OSYMM: true}, "avx2-gather"},
		{"no vendor with AVX2", Facts{AVX2: true, OSYMM: true}, "avx2-gather"},
		{"AVX2 without OS support for ymm", with(intelAVX2, func(f *Facts) { f.Model = 0x5E; f.OSYMM = false; f.GDS = "Vulnerable" }), "amd64-3way"},
		{"AMD AVX2 without OS support for ymm", with(amdAVX2, func(f *Facts) { f.Family = 0x1A; f.OSYMM = false }), "amd64-3way"},
		{"no AVX2 (Nehalem)", Facts{Vendor: "GenuineIntel", Family: 6, Model: 0x1A}, "amd64-3way"},
		{"no AVX2, AVX only (Sandy Bridge)", Facts{Vendor: "GenuineIntel", Family: 6, Model: 0x2A, OSYMM: true}, "amd64-3way"},
		{"nothing known", Facts{}, "amd64-3way"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name, reason := blockPolicy(tc.f)
			if name != tc.want {
				t.Errorf("blockPolicy(%+v) = %s (%s), want %s", tc.f, name, reason, tc.want)
			}
			if reason == "" || strings.ContainsAny(reason, "\n\r") {
				t.Errorf("reason %q is not one line", reason)
			}
			if tc.f.Vendor != "" && tc.f.AVX2 && tc.f.OSYMM && !strings.Contains(reason, tc.f.FamilyModel()) {
				t.Errorf("reason %q does not name the CPU (%s)", reason, tc.f.FamilyModel())
			}
			if !slices.Contains(allBlockImpls, name) {
				t.Errorf("policy names %q, which is no block implementation", name)
			}
		})
	}
}

// TestAMDGeneration checks the Zen generation that the reasons name, from
// the family and model alone: a Zen 4 whose AVX-512 a hypervisor hides is
// still Zen 4, and a family 0x1A model that is no Zen 5 is not called one.
func TestAMDGeneration(t *testing.T) {
	for _, tc := range []struct {
		family, model int
		avx512        bool
		want          string
	}{
		{0x17, 0x01, false, "Zen 1"}, // Naples, Summit Ridge
		{0x17, 0x08, false, "Zen 1"}, // Pinnacle Ridge (Zen+)
		{0x17, 0x31, false, "Zen 2"}, // Rome
		{0x17, 0x71, false, "Zen 2"}, // Matisse
		{0x17, 0x50, false, "Zen 1"}, // as Linux's amd.c has it
		{0x17, 0x90, false, "Zen 2"}, // Van Gogh: 0x90 and 0x91 in Linux's amd.c
		{0x17, 0x91, false, "Zen 2"},
		{0x17, 0x92, false, ""},
		{0x17, 0xA0, false, "Zen 2"}, // Mendocino
		{0x17, 0x80, false, ""},
		{0x19, 0x01, false, "Zen 3"}, // Milan
		{0x19, 0x21, false, "Zen 3"}, // Vermeer
		{0x19, 0x50, false, "Zen 3"}, // Cezanne
		{0x19, 0x11, true, "Zen 4"},  // Genoa
		{0x19, 0x11, false, "Zen 4"}, // Genoa, AVX-512 hidden
		{0x19, 0x61, false, "Zen 4"}, // Raphael, AVX-512 hidden
		{0x19, 0xA0, true, "Zen 4"},  // Bergamo
		{0x19, 0xB0, false, ""},
		{0x1A, 0x02, true, "Zen 5"}, // Turin
		{0x1A, 0x11, true, "Zen 5"}, // Turin dense
		{0x1A, 0x44, true, "Zen 5"}, // Granite Ridge
		{0x1A, 0x24, true, "Zen 5"}, // Strix Point
		{0x1A, 0x70, true, "Zen 5"}, // Strix Halo
		{0x1A, 0x50, true, ""},      // Zen 6
		{0x1A, 0x90, true, ""},      // Zen 6
		{0x18, 0x01, false, ""},     // Hygon's family, were it AMD's
		{0x15, 0x60, false, ""},     // Excavator
		// The edges of each range of Linux's amd.c.
		{0x17, 0x2F, false, "Zen 1"},
		{0x17, 0x30, false, "Zen 2"},
		{0x17, 0x4F, false, "Zen 2"},
		{0x17, 0x5F, false, "Zen 1"},
		{0x17, 0x7F, false, "Zen 2"},
		{0x17, 0xAF, false, "Zen 2"},
		{0x19, 0x0F, false, "Zen 3"},
		{0x19, 0x10, false, "Zen 4"},
		{0x19, 0x1F, false, "Zen 4"},
		{0x19, 0x20, false, "Zen 3"},
		{0x19, 0x5F, false, "Zen 3"},
		{0x19, 0x60, false, "Zen 4"},
		{0x19, 0xAF, false, "Zen 4"},
		{0x1A, 0x2F, true, "Zen 5"},
		{0x1A, 0x30, true, ""},
		{0x1A, 0x3F, true, ""},
		{0x1A, 0x40, true, "Zen 5"},
		{0x1A, 0x4F, true, "Zen 5"},
		{0x1A, 0x60, true, "Zen 5"},
		{0x1A, 0x7F, true, "Zen 5"},
	} {
		f := with(amdAVX2, func(f *Facts) { f.Family, f.Model = tc.family, tc.model })
		if tc.avx512 {
			avx512(&f)
		}
		if got := amdGeneration(f); got != tc.want {
			t.Errorf("family 0x%x model 0x%x, AVX-512 %v: %q, want %q", tc.family, tc.model, tc.avx512, got, tc.want)
		}
		if _, reason := amdPolicy(f); tc.want != "" && !strings.Contains(reason, "("+tc.want+")") {
			t.Errorf("family 0x%x model 0x%x: reason %q does not name %s", tc.family, tc.model, reason, tc.want)
		}
	}
}

// TestPolicyMonotone checks properties that hold for every CPU: without
// AVX2 and OS support for the ymm registers the policy never picks an AVX2
// kernel, and it picks avx2-vpgather only where VPGATHERDD is known fast.
func TestPolicyMonotone(t *testing.T) {
	for _, vendor := range []string{"GenuineIntel", "AuthenticAMD", "HygonGenuine", ""} {
		for _, family := range []int{5, 6, 0x15, 0x17, 0x19, 0x1A} {
			for model := range 256 {
				for _, gds := range []string{"", "Not affected", "Vulnerable", "Mitigation: Microcode", "Unknown: Dependent on hypervisor status"} {
					for _, bits := range []int{0, 1, 2, 3} {
						f := Facts{Vendor: vendor, Family: family, Model: model, GDS: gds, AVX2: bits&1 != 0, OSYMM: bits&2 != 0}
						name, reason := blockPolicy(f)
						switch {
						case !(f.AVX2 && f.OSYMM) && name != "amd64-3way":
							t.Fatalf("%+v: %s (%s) without AVX2 and ymm support", f, name, reason)
						case name == "avx2-vpgather" && (vendor != "GenuineIntel" || family != 6 || haswell[model]):
							t.Fatalf("%+v: %s (%s) where VPGATHERDD is not known fast", f, name, reason)
						case name == "avx2-vpgather" && gdsAffected[model] && !gdsUnmitigated(gds):
							t.Fatalf("%+v: %s (%s) with GDS mitigated or unknown", f, name, reason)
						}
					}
				}
			}
		}
	}
}

// TestGDSReadWhereConsulted checks that a CPU's GDS status changes no
// choice (kernel or run length) but where consultsGDS says so: HostFacts
// reads the status only there, and there it changes the choice of a CPU
// with AVX2.
func TestGDSReadWhereConsulted(t *testing.T) {
	for _, vendor := range []string{"GenuineIntel", "AuthenticAMD", "HygonGenuine", ""} {
		for _, family := range []int{5, 6, 0x15, 0x17, 0x19, 0x1A} {
			for model := range 256 {
				for _, bits := range []int{0, 3, 7, 15} {
					f := Facts{Vendor: vendor, Family: family, Model: model, AVX2: bits&1 != 0, OSYMM: bits&2 != 0,
						CLMUL: bits&4 != 0, BMI1: bits&8 != 0, BMI2: bits&8 != 0}
					unread := Decide(f).All()
					changed := false
					for _, gds := range []string{"Not affected", "Vulnerable", "Mitigation: Microcode", "Unknown: Dependent on hypervisor status"} {
						f.GDS = gds
						for i, c := range Decide(f).All() {
							if c.Name != unread[i].Name || c.Below != unread[i].Below {
								changed = true
								if !consultsGDS(f) {
									t.Fatalf("%+v: %s is %s (%d), %s (%d) with no GDS status, and HostFacts would not read it",
										f, c.Part, c.Name, c.Below, unread[i].Name, unread[i].Below)
								}
							}
						}
					}
					// Nor does HostFacts read it where no choice of a build
					// with both gather kernels depends on it.
					if consultsGDS(f) && f.AVX2 && f.OSYMM && !changed && slices.Contains(blockImpls, "avx2-vpgather") {
						t.Fatalf("%+v: consultsGDS, but no GDS status changes a choice", f)
					}
				}
			}
		}
	}
}

// TestGDSAffectedModels checks the Intel family 6 models with AVX2 that
// Gather Data Sampling affects, as Linux's cpu_vuln_blacklist lists them
// (Skylake to Rocket Lake): with the mitigation, the manual gather; and
// models that it does not affect, from Broadwell and from Alder Lake on:
// VPGATHERDD with no GDS status at all.
func TestGDSAffectedModels(t *testing.T) {
	affected := []int{0x4E, 0x5E, 0x55, 0x8E, 0x9E, 0xA5, 0xA6, 0x7D, 0x7E, 0x6A, 0x6C, 0x8C, 0x8D, 0xA7}
	unaffected := []int{0x3D, 0x47, 0x4F, 0x56, 0x66, 0x97, 0x9A, 0xB7, 0xBA, 0xBF, 0xAA, 0xAC, 0x8F, 0xCF, 0xAD}
	for _, model := range affected {
		f := with(intelAVX2, func(f *Facts) { f.Model = model; f.GDS = "Mitigation: Microcode" })
		if name, reason := blockPolicy(f); name != "avx2-gather" || !consultsGDS(f) {
			t.Errorf("model 0x%X, GDS mitigated: %s (%s), consultsGDS %v; want avx2-gather, true", model, name, reason, consultsGDS(f))
		}
	}
	for _, model := range unaffected {
		f := with(intelAVX2, func(f *Facts) { f.Model = model })
		if name, reason := blockPolicy(f); name != "avx2-vpgather" || consultsGDS(f) {
			t.Errorf("model 0x%X, no GDS status: %s (%s), consultsGDS %v; want avx2-vpgather, false", model, name, reason, consultsGDS(f))
		}
	}
}

func TestGDSUnmitigated(t *testing.T) {
	for status, want := range map[string]bool{
		"Not affected":                            true,
		"Vulnerable":                              true,
		"Vulnerable: No microcode":                true,
		"Mitigation: Microcode":                   false,
		"Mitigation: Microcode (locked)":          false,
		"Mitigation: AVX disabled, no microcode":  false,
		"Unknown: Dependent on hypervisor status": false,
		"": false,
	} {
		if got := gdsUnmitigated(status); got != want {
			t.Errorf("gdsUnmitigated(%q) = %v, want %v", status, got, want)
		}
	}
}

// allBlockImpls are the block implementations of the amd64 build, which
// blockPolicy chooses from on every architecture.
var allBlockImpls = []string{"avx512-gfni", "avx512-vbmi", "avx2-ct", "avx2-gather", "avx2-vpgather", "amd64-3way", "amd64-1way", "generic", "generic-ct"}

// TestHostChoices checks that this process's choices are Decide's for this
// machine's facts, that the block kernel is the policy's unless
// TWOFISH_IMPL overrides it, and that every choice is one this CPU runs.
func TestHostChoices(t *testing.T) {
	f := HostFacts()
	t.Logf("host: %s %q %s, features %v, GDS %q", f.Vendor, f.Brand, f.FamilyModel(), f.Features(), f.GDS)
	want, host := Decide(f), Host()
	for i, c := range host.All() {
		t.Logf("%s: %s (%s)", c.Part, c.Name, c.Reason)
		if !c.Supported(c.Name) {
			t.Errorf("%s: chose %q, which this CPU does not run (options %+v)", c.Part, c.Name, c.Options)
		}
		if _, set := os.LookupEnv("TWOFISH_IMPL"); set && (c.Part == Block || c.Part == Short || c.Part == Single) {
			continue
		}
		if c.Part != Block && !reflect.DeepEqual(c, want.All()[i]) {
			t.Errorf("Host().%s = %+v, Decide(HostFacts()) = %+v", c.Part, c, want.All()[i])
		}
	}
	if _, set := os.LookupEnv("TWOFISH_IMPL"); set {
		return
	}
	if !reflect.DeepEqual(host.Block, want.Block) {
		t.Errorf("Host().Block = %+v, want the policy's %+v", host.Block, want.Block)
	}
}

// TestHostGDS checks that HostFacts holds this machine's GDS status where
// the policy consults it (an Intel family 6 model that GDS affects), and
// none elsewhere, where reading it would only cost time.
func TestHostGDS(t *testing.T) {
	f := HostFacts()
	want := ""
	if consultsGDS(f) {
		want = ReadGDS()
	}
	if f.GDS != want {
		t.Errorf("HostFacts().GDS = %q on %s %s, want %q (consulted: %v)", f.GDS, f.Vendor, f.FamilyModel(), want, consultsGDS(f))
	}
}

// TestHostBlockPolicy checks that Decide takes the x86-64 build's block
// kernel from blockPolicy, on this machine's facts.
func TestHostBlockPolicy(t *testing.T) {
	if !slices.Equal(blockImpls, allBlockImpls) {
		t.Skipf("this build's block implementations are %v, not the x86-64 build's that blockPolicy chooses from", blockImpls)
	}
	f := HostFacts()
	want := Decide(f).Block
	if p, r := blockPolicy(f); p != want.Name || r != want.Reason {
		t.Errorf("Decide chose %s (%s), blockPolicy(host facts) = %s (%s)", want.Name, want.Reason, p, r)
	}
}

// TestDecide checks the choices other than the block kernel on synthetic
// CPUs: each is the first option the CPU runs.
func TestDecide(t *testing.T) {
	zen5 := with(amdAVX2, func(f *Facts) {
		f.Family, f.Model = 0x1A, 0x02
		avx512(f)
		f.AVX512VBMI, f.GFNI, f.BMI1, f.BMI2, f.SSSE3, f.CLMUL, f.VPCLMULQDQ = true, true, true, true, true, true, true
	})
	nehalem := Facts{Vendor: "GenuineIntel", Family: 6, Model: 0x1A, SSSE3: true, CLMUL: true}
	for _, tc := range []struct {
		name                   string
		f                      Facts
		ct, scalar, ghash, ocb string
	}{
		{"Zen 5", zen5, "avx512-gfni", "bmi", "avx512-vpclmulqdq", "avx512"},
		{"Zen 5 without GFNI", with(zen5, func(f *Facts) { f.GFNI = false }), "avx512-vbmi", "bmi", "avx512-vpclmulqdq", "avx512"},
		{"Zen 5 without VPCLMULQDQ", with(zen5, func(f *Facts) { f.VPCLMULQDQ = false }), "avx512-vbmi", "bmi", "pclmulqdq", "avx512"},
		{"Zen 5 without OS zmm support", with(zen5, func(f *Facts) { f.OSZMM = false }), "avx2-ct", "bmi", "avx2-vpclmulqdq", "avx2"},
		{"Skylake-SP (AVX-512 without VBMI)", with(intelAVX2, func(f *Facts) {
			f.Model = 0x55
			avx512(f)
			f.BMI1, f.BMI2, f.SSSE3, f.CLMUL = true, true, true, true
		}), "avx2-ct", "bmi", "pclmulqdq", "avx2"},
		{"Ice Lake server (AVX-512 with VBMI)", with(intelAVX2, func(f *Facts) {
			f.Model = 0x6A
			avx512(f)
			f.AVX512VBMI, f.GFNI, f.BMI1, f.BMI2, f.SSSE3, f.CLMUL, f.VPCLMULQDQ = true, true, true, true, true, true, true
		}), "avx512-gfni", "bmi", "avx512-vpclmulqdq", "avx512"},
		{"Haswell", with(intelAVX2, func(f *Facts) { f.Model = 0x3C; f.BMI1, f.BMI2, f.SSSE3, f.CLMUL = true, true, true, true }), "avx2-ct", "bmi", "pclmulqdq", "avx2"},
		{"Nehalem", nehalem, "generic-ct", "baseline", "pclmulqdq", "sse2"},
		{"nothing known", Facts{}, "generic-ct", "baseline", "generic", "sse2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Decide(tc.f)
			if slices.Equal(blockImpls, allBlockImpls) {
				if c.BlockCT.Name != tc.ct || c.Scalar.Name != tc.scalar || c.GHASH.Name != tc.ghash || c.OCBMask.Name != tc.ocb {
					t.Errorf("constant-time %s, scalar %s, GHASH %s, OCB %s; want %s, %s, %s, %s", c.BlockCT.Name, c.Scalar.Name, c.GHASH.Name, c.OCBMask.Name, tc.ct, tc.scalar, tc.ghash, tc.ocb)
				}
				want := "generic"
				switch {
				case strings.HasPrefix(tc.ct, "avx512-"):
					want = "avx512-vbmi"
				case strings.HasPrefix(tc.ct, "avx2-"):
					want = "avx2"
				}
				if c.KeySched.Name != want {
					t.Errorf("key schedule %s, want %s (it needs what the %s kernels need)", c.KeySched.Name, want, want)
				}
			} else if c.BlockCT.Name != "generic-ct" {
				t.Errorf("constant-time %s in a build with only portable code", c.BlockCT.Name)
			}
			for _, ch := range c.All() {
				if ch.Name == "" || !ch.Supported(ch.Name) || ch.Reason == "" {
					t.Errorf("%s: %+v is no supported choice", ch.Part, ch)
				}
			}
		})
	}
}

// TestShapes checks the kernels of single blocks and short runs that go
// with each block kernel of the x86-64 build.
func TestShapes(t *testing.T) {
	for _, tc := range []struct {
		block, single, short string
		below                int
	}{
		{"avx512-gfni", "amd64-1way", "amd64-3way", 4},
		{"avx512-vbmi", "amd64-1way", "amd64-3way", 7},
		{"avx2-gather", "amd64-1way", "amd64-3way", 13},
		{"avx2-vpgather", "amd64-1way", "amd64-3way", 16},
		{"amd64-3way", "amd64-1way", "amd64-3way", 0},
	} {
		s := shapePolicy(tc.block)
		if s.single != tc.single || s.short != tc.short || s.below != tc.below {
			t.Errorf("%s: single blocks %s, short runs %s below %d blocks; want %s, %s below %d",
				tc.block, s.single, s.short, s.below, tc.single, tc.short, tc.below)
		}
		for _, why := range []string{s.singleWhy, s.shortWhy} {
			if why == "" || strings.ContainsAny(why, "\n\r") {
				t.Errorf("%s: reason %q is not one line", tc.block, why)
			}
		}
	}
	for _, f := range []Facts{amdAVX2, {}, with(amdAVX2, func(f *Facts) { f.Family = 0x1A; avx512(f); f.AVX512VBMI = true }),
		with(amdAVX2, func(f *Facts) { f.Family = 0x1A; avx512(f); f.AVX512VBMI, f.GFNI, f.VPCLMULQDQ = true, true, true })} {
		c := Decide(f)
		want := shape{single: "generic", short: "generic"}
		if c.Block.Has("amd64-3way") {
			want = shapePolicy(c.Block.Name)
		}
		if c.Single.Name != want.single || c.Short.Name != want.short || c.Short.Below != want.below {
			t.Errorf("%+v: Decide chose %s, %s below %d for %s; want %s, %s below %d", f, c.Single.Name, c.Short.Name, c.Short.Below, c.Block.Name, want.single, want.short, want.below)
		}
	}
}

func TestOverride(t *testing.T) {
	f := with(amdAVX2, func(f *Facts) { f.Family = 0x1A })
	auto := Decide(f)
	if got := override(auto, "", false); !reflect.DeepEqual(got, auto) {
		t.Errorf("unset TWOFISH_IMPL changed the choice to %+v", got.Block)
	}
	// TWOFISH_IMPL= in a shell clears the variable's value; it must not
	// count as a name that is ignored.
	if got := override(auto, "", true); !reflect.DeepEqual(got, auto) {
		t.Errorf("empty TWOFISH_IMPL changed the choice to %+v", got.Block)
	}
	// Names are exact: no case folding, no trimming, so what runs is what
	// Implementations lists.
	for _, env := range []string{"AVX2-CT", " generic", "generic ", "generic,avx2-ct", "auto"} {
		if got := override(auto, env, true).Block; got.Name != auto.Block.Name || !strings.Contains(got.Reason, "TWOFISH_IMPL ignored: twofish: unknown implementation") {
			t.Errorf("TWOFISH_IMPL=%q: %s (%s)", env, got.Name, got.Reason)
		}
	}
	pinned := override(auto, "generic", true)
	for _, got := range []Choice{pinned.Block, pinned.Short, pinned.Single} {
		if got.Name != "generic" || got.Below != 0 || !strings.HasPrefix(got.Reason, "TWOFISH_IMPL=generic overrides") {
			t.Errorf("TWOFISH_IMPL=generic: %s %s from %d blocks (%s)", got.Part, got.Name, got.Below, got.Reason)
		}
	}
	t.Run("unsupported", func(t *testing.T) {
		i := slices.IndexFunc(auto.Block.Options, func(o Option) bool { return !o.Supported })
		if i < 0 {
			t.Skipf("every block implementation of this build (%v) runs on the synthetic CPU", blockImpls)
		}
		name := auto.Block.Options[i].Name
		if got := override(auto, name, true).Block; got.Name != auto.Block.Name || !strings.Contains(got.Reason, "is not supported on this CPU") {
			t.Errorf("TWOFISH_IMPL=%s on a CPU without it: %s (%s)", name, got.Name, got.Reason)
		}
	})
	if got := override(auto, "nonesuch", true).Block; got.Name != auto.Block.Name || !strings.Contains(got.Reason, `TWOFISH_IMPL ignored: twofish: unknown implementation "nonesuch"`) {
		t.Errorf("TWOFISH_IMPL=nonesuch: %s (%s)", got.Name, got.Reason)
	}
}

func TestFacts(t *testing.T) {
	if got := (Facts{Family: 0x1A, Model: 0x2}).FamilyModel(); got != "family 0x1a model 0x2" {
		t.Errorf("FamilyModel() = %q", got)
	}
	f := Facts{AVX2: true, OSYMM: true, AVX512VBMI: true}
	if got := f.Features(); !slices.Equal(got, []string{"AVX2", "OSYMM", "AVX512VBMI"}) {
		t.Errorf("Features() = %v", got)
	}
}
