package cpu

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The x86-64 assembly of internal/kernel and internal/ghash, and for each
// function the part and implementation whose rule (supports) must hold
// before it runs: the first pattern that matches the function's name.
var asmRules = []struct {
	file  string
	rules []asmRule
}{
	{"../kernel/avx2_amd64.s", []asmRule{{"VPGather$", Block, "avx2-vpgather"}, {"Gather$", Block, "avx2-gather"}}},
	{"../kernel/avx2ct_amd64.s", []asmRule{{"AVX2CT", Block, "avx2-ct"}}},
	{"../kernel/avx512_amd64.s", []asmRule{{"GFNI$", Block, "avx512-gfni"}, {"AVX512$", Block, "avx512-vbmi"}}},
	{"../kernel/single_avx512_amd64.s", []asmRule{{"AVX512GFNI$", Block, "avx512-gfni"}}},
	{"../kernel/key_avx2_amd64.s", []asmRule{{"AVX2$", KeySched, "avx2"}}},
	{"../kernel/key_avx512_amd64.s", []asmRule{{"AVX512$", KeySched, "avx512-vbmi"}}},
	{"../kernel/ocb_amd64.s", []asmRule{{"SSE2$", OCBMask, "sse2"}, {"AVX2$", OCBMask, "avx2"}, {"AVX512$", OCBMask, "avx512"}}},
	{"../kernel/scalar_amd64.s", []asmRule{{"BMI$", Scalar, "bmi"}, {"3x$", Block, "amd64-3way"}, {"1x$", Block, "amd64-1way"}}},
	{"../ghash/ghash_amd64.s", []asmRule{
		{"^ghashPowersCLMUL$", GHASH, "pclmulqdq"}, // run by every kernel of GHASH
		{"^ghashPowersCLMUL$", GHASH, "avx2-vpclmulqdq"},
		{"^ghashPowersCLMUL$", GHASH, "avx512-vpclmulqdq"},
		{"^ghashBlocksCLMUL$", GHASH, "pclmulqdq"},
		{"^ghashBlocksAVX2$", GHASH, "avx2-vpclmulqdq"},
		{"^ghashBlocksAVX512$", GHASH, "avx512-vpclmulqdq"},
	}},
}

type asmRule struct{ pattern, part, impl string }

// requiredFact turns off, in facts that have every x86 feature, the fact
// that the feature of avo's "// Requires:" line needs: false for a feature
// of baseline x86-64, which needs none.
var requiredFact = map[string]func(*Facts){
	"AVX":        func(f *Facts) { f.OSYMM = false },
	"AVX2":       func(f *Facts) { f.AVX2 = false },
	"AVX512F":    func(f *Facts) { f.AVX512F = false },
	"AVX512BW":   func(f *Facts) { f.AVX512BW = false },
	"AVX512VL":   func(f *Facts) { f.AVX512VL = false },
	"AVX512VBMI": func(f *Facts) { f.AVX512VBMI = false },
	"GFNI":       func(f *Facts) { f.GFNI = false },
	"PCLMULQDQ":  func(f *Facts) { f.CLMUL = false },
	"VPCLMULQDQ": func(f *Facts) { f.VPCLMULQDQ = false },
	"SSSE3":      func(f *Facts) { f.SSSE3 = false },
	"BMI":        func(f *Facts) { f.BMI1 = false },
	"BMI2":       func(f *Facts) { f.BMI2 = false },
	"SSE":        nil,
	"SSE2":       nil,
	"CMOV":       nil,
}

// TestRulesCheckRequires checks every function of the x86-64 assembly
// against the rule of the implementation that runs it: with each feature
// that avo lists for it off, and with the operating system's support for
// the registers it uses off, the rule must refuse the implementation, so
// that no choice, pinned name or test runs an instruction this CPU or OS
// lacks. A function that no rule covers, or a feature with no fact, fails.
func TestRulesCheckRequires(t *testing.T) {
	every := Facts{AVX2: true, OSYMM: true, BMI1: true, BMI2: true, SSSE3: true, CLMUL: true, VPCLMULQDQ: true,
		AVX512F: true, AVX512BW: true, AVX512VL: true, AVX512VBMI: true, GFNI: true, OSZMM: true}
	text := regexp.MustCompile(`^TEXT ·(\w+)\(`)
	for _, file := range asmRules {
		src, err := os.ReadFile(file.file)
		if err != nil {
			t.Fatal(err)
		}
		functions := 0
		var requires []string
		for _, line := range strings.Split(string(src), "\n") {
			if rest, ok := strings.CutPrefix(line, "// Requires: "); ok {
				requires = strings.Split(rest, ", ")
				continue
			}
			m := text.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			fn, needs := m[1], requires
			requires = nil
			functions++
			// The rules of the first pattern that matches: a function that
			// several implementations run has one for each.
			var rules []asmRule
			for _, r := range file.rules {
				if regexp.MustCompile(r.pattern).MatchString(fn) && (len(rules) == 0 || rules[0].pattern == r.pattern) {
					rules = append(rules, r)
				}
			}
			if len(rules) == 0 {
				t.Errorf("%s: %s is run by no implementation that this test knows", file.file, fn)
				continue
			}
			for _, r := range rules {
				if !supports(every, r.part, r.impl) {
					t.Errorf("%s: %s %s is not supported with every feature", fn, r.part, r.impl)
					continue
				}
				for _, need := range needs {
					off, known := requiredFact[need]
					switch {
					case !known:
						t.Errorf("%s: requires %s, which no fact stands for", fn, need)
						continue
					case off == nil:
						continue
					}
					f := every
					off(&f)
					if supports(f, r.part, r.impl) {
						t.Errorf("%s requires %s, but the rule of %s %s holds without it", fn, need, r.part, r.impl)
					}
				}
				// The registers: every AVX feature needs the OS to save
				// the ymm state, every AVX-512 one the zmm and masks too.
				noYMM, noZMM := every, every
				noYMM.OSYMM, noZMM.OSZMM = false, false
				if slices.ContainsFunc(needs, prefixed("AVX")) && supports(noYMM, r.part, r.impl) {
					t.Errorf("%s uses the ymm registers, but the rule of %s %s holds where the OS does not save them", fn, r.part, r.impl)
				}
				if slices.ContainsFunc(needs, prefixed("AVX512")) && supports(noZMM, r.part, r.impl) {
					t.Errorf("%s uses the zmm registers, but the rule of %s %s holds where the OS does not save them", fn, r.part, r.impl)
				}
			}
		}
		if functions == 0 {
			t.Errorf("%s: no functions", file.file)
		}
	}
}

// prefixed returns a predicate for strings.HasPrefix(s, prefix).
func prefixed(prefix string) func(string) bool {
	return func(s string) bool { return strings.HasPrefix(s, prefix) }
}
