package cpu

import (
	"strings"
	"testing"
)

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
		"": false, "21": false, "21.3": false, "21.3.0.1": false, "21..0": false,
		"+21.3.0": false, "21.-3.0": false, " 21.3.0": false, "21.3.0\n": false, "999999999999.0.0": false,
	} {
		if got := releaseAtLeast(release, 21, 3, 0); got != want {
			t.Errorf("releaseAtLeast(%q, 21, 3, 0) = %v, want %v", release, got, want)
		}
	}
}
