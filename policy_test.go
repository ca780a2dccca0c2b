package twofish

import (
	"os"
	"strings"
	"testing"
)

// Synthetic CPUs for the policy, with the facts that klauspost/cpuid and
// Linux report for them.
var (
	intelAVX2 = CPUFacts{Vendor: "GenuineIntel", Family: 6, AVX2: true, OSYMM: true}
	amdAVX2   = CPUFacts{Vendor: "AuthenticAMD", AVX2: true, OSYMM: true}
)

func with(f CPUFacts, edit func(*CPUFacts)) CPUFacts {
	edit(&f)
	return f
}

func avx512(f *CPUFacts) { f.AVX512F, f.AVX512BW, f.AVX512VL, f.OSZMM = true, true, true, true }

func TestPolicy(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    CPUFacts
		want string
	}{
		{"Haswell", with(intelAVX2, func(f *CPUFacts) { f.Model = 0x3C; f.GDS = "Not affected" }), "avx2-gather"},
		{"Haswell-E", with(intelAVX2, func(f *CPUFacts) { f.Model = 0x3F }), "avx2-gather"},
		{"Broadwell", with(intelAVX2, func(f *CPUFacts) { f.Model = 0x3D; f.GDS = "Not affected" }), "avx2-vpgather"},
		{"Broadwell, no GDS file", with(intelAVX2, func(f *CPUFacts) { f.Model = 0x3D }), "avx2-vpgather"},
		{"Skylake, GDS vulnerable", with(intelAVX2, func(f *CPUFacts) { f.Model = 0x5E; f.GDS = "Vulnerable" }), "avx2-vpgather"},
		{"Skylake, GDS vulnerable, no microcode", with(intelAVX2, func(f *CPUFacts) { f.Model = 0x5E; f.GDS = "Vulnerable: No microcode" }), "avx2-vpgather"},
		{"Skylake, GDS mitigated", with(intelAVX2, func(f *CPUFacts) { f.Model = 0x5E; f.GDS = "Mitigation: Microcode" }), "avx2-gather"},
		{"Skylake, GDS mitigated and locked", with(intelAVX2, func(f *CPUFacts) { f.Model = 0x4E; f.GDS = "Mitigation: Microcode (locked)" }), "avx2-gather"},
		{"Skylake-SP in a VM", with(intelAVX2, func(f *CPUFacts) { f.Model = 0x55; f.GDS = "Unknown: Dependent on hypervisor status"; avx512(f) }), "avx2-gather"},
		{"Skylake, not Linux", with(intelAVX2, func(f *CPUFacts) { f.Model = 0x5E }), "avx2-gather"},
		{"Tiger Lake, GDS mitigated", with(intelAVX2, func(f *CPUFacts) { f.Model = 0x8C; f.GDS = "Mitigation: Microcode"; avx512(f); f.AVX512VBMI = true }), "avx512-vbmi"},
		{"Tiger Lake, AVX-512 disabled by the OS", with(intelAVX2, func(f *CPUFacts) { f.Model = 0x8C; f.GDS = "Mitigation: Microcode" }), "avx2-gather"},
		{"Ice Lake server", with(intelAVX2, func(f *CPUFacts) { f.Model = 0x6A; f.GDS = "Vulnerable"; avx512(f); f.AVX512VBMI = true }), "avx512-vbmi"},
		{"Sapphire Rapids", with(intelAVX2, func(f *CPUFacts) { f.Model = 0x8F; f.GDS = "Not affected"; avx512(f); f.AVX512VBMI = true }), "avx512-vbmi"},
		{"Cascade Lake (AVX-512 without VBMI)", with(intelAVX2, func(f *CPUFacts) { f.Model = 0x55; f.GDS = "Mitigation: Microcode"; avx512(f) }), "avx2-gather"},
		{"VBMI flags but no OS zmm support", with(intelAVX2, func(f *CPUFacts) { f.Model = 0x8F; avx512(f); f.AVX512VBMI = true; f.OSZMM = false }), "avx2-vpgather"},
		{"Alder Lake", with(intelAVX2, func(f *CPUFacts) { f.Model = 0x97; f.GDS = "Not affected" }), "avx2-vpgather"},
		{"Alder Lake, not Linux", with(intelAVX2, func(f *CPUFacts) { f.Model = 0x9A }), "avx2-vpgather"},
		{"Intel, another family", with(intelAVX2, func(f *CPUFacts) { f.Family, f.Model = 0x13, 0x01; f.GDS = "Not affected" }), "avx2-gather"},
		{"AMD Zen 1", with(amdAVX2, func(f *CPUFacts) { f.Family, f.Model = 0x17, 0x01; f.GDS = "Not affected" }), "avx2-gather"},
		{"AMD Zen 2", with(amdAVX2, func(f *CPUFacts) { f.Family, f.Model = 0x17, 0x31; f.GDS = "Not affected" }), "avx2-gather"},
		{"AMD Zen 3", with(amdAVX2, func(f *CPUFacts) { f.Family, f.Model = 0x19, 0x21; f.GDS = "Not affected" }), "avx2-gather"},
		{"AMD Zen 3 (EPYC Milan)", with(amdAVX2, func(f *CPUFacts) { f.Family, f.Model = 0x19, 0x01 }), "avx2-gather"},
		{"AMD Zen 4", with(amdAVX2, func(f *CPUFacts) {
			f.Family, f.Model = 0x19, 0x61
			f.GDS = "Not affected"
			avx512(f)
			f.AVX512VBMI, f.GFNI = true, true
		}), "avx512-vbmi"},
		{"AMD Zen 4 without OS zmm support", with(amdAVX2, func(f *CPUFacts) {
			f.Family, f.Model = 0x19, 0x61
			avx512(f)
			f.AVX512VBMI, f.OSZMM = true, false
		}), "avx2-gather"},
		{"AMD Zen 5", with(amdAVX2, func(f *CPUFacts) {
			f.Family, f.Model = 0x1A, 0x02
			f.GDS = "Not affected"
			avx512(f)
			f.AVX512VBMI, f.GFNI = true, true
		}), "avx512-vbmi"},
		{"AMD Excavator", with(amdAVX2, func(f *CPUFacts) { f.Family, f.Model = 0x15, 0x60 }), "avx2-gather"},
		{"unknown vendor with AVX2", CPUFacts{Vendor: "CentaurHauls", Family: 7, Model: 0x3B, AVX2: true, OSYMM: true}, "avx2-gather"},
		{"no vendor with AVX2", CPUFacts{AVX2: true, OSYMM: true}, "avx2-gather"},
		{"AVX2 without OS support for ymm", with(intelAVX2, func(f *CPUFacts) { f.Model = 0x5E; f.OSYMM = false; f.GDS = "Vulnerable" }), "amd64-3way"},
		{"AMD AVX2 without OS support for ymm", with(amdAVX2, func(f *CPUFacts) { f.Family = 0x1A; f.OSYMM = false }), "amd64-3way"},
		{"no AVX2 (Nehalem)", CPUFacts{Vendor: "GenuineIntel", Family: 6, Model: 0x1A}, "amd64-3way"},
		{"no AVX2, AVX only (Sandy Bridge)", CPUFacts{Vendor: "GenuineIntel", Family: 6, Model: 0x2A, OSYMM: true}, "amd64-3way"},
		{"nothing known", CPUFacts{}, "amd64-3way"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name, reason := policyFor(tc.f)
			if name != tc.want {
				t.Errorf("policyFor(%+v) = %s (%s), want %s", tc.f, name, reason, tc.want)
			}
			if reason == "" || strings.ContainsAny(reason, "\n\r") {
				t.Errorf("reason %q is not one line", reason)
			}
			if tc.f.Vendor != "" && tc.f.AVX2 && tc.f.OSYMM && !strings.Contains(reason, tc.f.FamilyModel()) {
				t.Errorf("reason %q does not name the CPU (%s)", reason, tc.f.FamilyModel())
			}
			if k := find("amd64-3way"); k != nil && find(name) == nil {
				t.Errorf("policy names %q, which this build does not have", name)
			}
		})
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
						f := CPUFacts{Vendor: vendor, Family: family, Model: model, GDS: gds, AVX2: bits&1 != 0, OSYMM: bits&2 != 0}
						name, reason := policyFor(f)
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

// TestHostPolicy checks that this process's choice is the policy's answer
// for this machine's facts, unless TWOFISH_IMPL overrides it.
func TestHostPolicy(t *testing.T) {
	f := hostFacts()
	t.Logf("host: %s %q %s, AVX2 %v, OSYMM %v, AVX-512 F/BW/VL/VBMI %v/%v/%v/%v, GFNI %v, GDS %q",
		f.Vendor, f.Brand, f.FamilyModel(), f.AVX2, f.OSYMM, f.AVX512F, f.AVX512BW, f.AVX512VL, f.AVX512VBMI, f.GFNI, f.GDS)
	want, wantReason := policy()
	if k := find("amd64-3way"); k != nil {
		if p, r := policyFor(f); p != want || r != wantReason {
			t.Errorf("policy() = %s (%s), policyFor(host facts) = %s (%s)", want, wantReason, p, r)
		}
		if k := find(want); k == nil || !k.Supported {
			t.Errorf("the policy picks %s, which this CPU cannot run", want)
		}
	}
	if _, set := os.LookupEnv("TWOFISH_IMPL"); set {
		return
	}
	if got, reason := AutoImplementation(); got != want || reason != wantReason {
		t.Errorf("AutoImplementation() = %s (%s), want the policy's %s (%s)", got, reason, want, wantReason)
	}
}

func TestCPUReport(t *testing.T) {
	r := CPUReport()
	if r.Facts != hostFacts() {
		t.Errorf("CPUReport().Facts = %+v, want %+v", r.Facts, hostFacts())
	}
	if len(r.Implementations) != len(Implementations()) {
		t.Errorf("CPUReport lists %d implementations, Implementations %d", len(r.Implementations), len(Implementations()))
	}
	if name, reason := AutoImplementation(); r.Chosen != name || r.Reason != reason {
		t.Errorf("CPUReport chose %s (%s), AutoImplementation %s (%s)", r.Chosen, r.Reason, name, reason)
	}
	has := map[string]bool{}
	for _, feat := range r.Features {
		has[feat] = true
	}
	if has["AVX2"] != r.Facts.AVX2 || has["OSYMM"] != r.Facts.OSYMM || has["AVX512VBMI"] != r.Facts.AVX512VBMI {
		t.Errorf("features %v do not match the facts %+v", r.Features, r.Facts)
	}
	if got := (CPUFacts{Family: 0x1A, Model: 0x2}).FamilyModel(); got != "family 0x1a model 0x2" {
		t.Errorf("FamilyModel() = %q", got)
	}
}
