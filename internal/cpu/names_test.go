package cpu

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The GHASH implementations of the x86-64 and arm64 builds; allBlockImpls
// and arm64BlockImpls are their block kernels.
var (
	amd64GHASHImpls = []string{"avx512-vpclmulqdq", "avx2-vpclmulqdq", "pclmulqdq", "generic"}
	arm64GHASHImpls = []string{"pmull", "generic"}
)

// TestBuildLists checks that this build's lists are one of the builds the
// tests know, so that no test that compares against a build's list skips
// its checks because a name was added to one list and not the other.
func TestBuildLists(t *testing.T) {
	type build struct {
		name         string
		block, ghash []string
	}
	builds := []build{
		{"x86-64", allBlockImpls, amd64GHASHImpls},
		{"arm64", arm64BlockImpls, arm64GHASHImpls},
		{"portable", []string{"generic", "generic-ct"}, []string{"generic"}},
	}
	i := slices.IndexFunc(builds, func(b build) bool { return slices.Equal(b.block, blockImpls) })
	if i < 0 {
		t.Fatalf("this build's block implementations %v are none of the builds' the tests know", blockImpls)
	}
	if !slices.Equal(builds[i].ghash, ghashImpls) {
		t.Errorf("the %s build's GHASH implementations are %v, the tests know %v", builds[i].name, ghashImpls, builds[i].ghash)
	}
	for _, name := range blockCTImpls {
		if !slices.Contains(blockImpls, name) {
			t.Errorf("constant-time implementation %q is not a block implementation of this build", name)
		}
	}
}

// TestSupportsNothing checks what a CPU with no known features runs: only
// the baseline and portable code. A name that supports misspells would
// count as baseline code and run everywhere.
func TestSupportsNothing(t *testing.T) {
	baseline := []string{"amd64-3way", "amd64-1way", "arm64-2way", "arm64-1way", "generic", "generic-ct", "baseline", "sse2"}
	for _, c := range Decide(Facts{}).All() {
		for _, o := range c.Options {
			if want := slices.Contains(baseline, o.Name); o.Supported != want {
				t.Errorf("%s %s: supported %v on a CPU with no features, want %v", c.Part, o.Name, o.Supported, want)
			}
		}
	}
}

// TestNamesInDocsAndCI checks the implementation names that the README's
// table and .ci/run's TWOFISH_TEST_REQUIRE lists give against the builds'
// lists: the README lists every block kernel of every build, and CI
// requires every kernel of the x86-64 build on the machine that runs it
// and every kernel of the arm64 build under emulation, so that none can
// skip unnoticed.
func TestNamesInDocsAndCI(t *testing.T) {
	every := append(slices.Clone(allBlockImpls), arm64BlockImpls...)
	slices.Sort(every)
	every = slices.Compact(every)

	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\| [0-9]+ \\|").FindAllStringSubmatch(string(readme), -1) {
		documented = append(documented, m[1])
	}
	slices.Sort(documented)
	if !slices.Equal(documented, every) {
		t.Errorf("README's implementations table lists %v, the builds have %v", documented, every)
	}

	ci, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	required := map[string][]string{} // "native", "arm64", ... for TWOFISH_TEST_REQUIRE
	for _, line := range strings.Split(string(ci), "\n") {
		for _, m := range regexp.MustCompile(`TWOFISH_TEST_REQUIRE=(\S+)`).FindAllStringSubmatch(line, -1) {
			where := "native"
			if g := regexp.MustCompile(`GOARCH=\$?(\w+)`).FindStringSubmatch(line); g != nil {
				where = g[1]
			} else if strings.Contains(line, "go test -tags purego") {
				where = "purego"
			}
			for _, name := range strings.Split(strings.Trim(m[1], `"';`), ",") {
				if name != "" && !strings.HasPrefix(name, "$") {
					required[where] = append(required[where], name)
				}
			}
		}
	}
	for where, want := range map[string][]string{
		"native": allBlockImpls,
		"arm64":  arm64BlockImpls,
		"purego": {"generic", "generic-ct"},
	} {
		got := slices.Clone(required[where])
		slices.Sort(got)
		want = slices.Sorted(slices.Values(want))
		if !slices.Equal(slices.Compact(got), want) {
			t.Errorf(".ci/run requires %v in its %s run, want every kernel of that build: %v", got, where, want)
		}
	}
	for where, names := range required {
		for _, name := range names {
			if !slices.Contains(every, name) {
				t.Errorf(".ci/run requires %q in its %s run, which no build has", name, where)
			}
		}
	}
}
