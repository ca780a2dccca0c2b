package main

import (
	"bytes"
	"crypto/cipher"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/twofish-go/twofish"
	"github.com/twofish-go/twofish/internal/kat"
)

// exhaustive reports whether TWOFISH_TEST_EXHAUSTIVE=1 asks for the
// exhaustive runs, which CI sets.
func exhaustive() bool { return os.Getenv("TWOFISH_TEST_EXHAUSTIVE") == "1" }

// TestSelftest checks that selftest passes on this machine with a line per
// implementation, supported or not. Every implementation takes about 20 s
// of CPU, so it runs with TWOFISH_TEST_EXHAUSTIVE=1 (TestSelftestOne runs
// one implementation always, and CI runs the command itself too).
func TestSelftest(t *testing.T) {
	if !exhaustive() {
		t.Skip("every implementation's selftest takes about 20 s: it runs with TWOFISH_TEST_EXHAUSTIVE=1")
	}
	status, stdout, stderr := runTool(t, "selftest")
	if status != exitOK || stderr != "" {
		t.Fatalf("twofish selftest: exit status %d, stdout:\n%s\nstderr:\n%s", status, stdout, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	// NewCipher's and NewCipherConstantTime's ciphers, then every
	// implementation.
	impls := append([]twofish.Implementation{{Name: "auto", Supported: true}, {Name: "ct", Supported: true}}, twofish.Implementations()...)
	if len(lines) != len(impls) {
		t.Fatalf("%d lines for %d ciphers:\n%s", len(lines), len(impls), stdout)
	}
	for _, im := range impls {
		want := []string{im.Name, "ok", "147 known answers", "120 Monte Carlo records (first 10 per key size"}
		if !im.Supported {
			want = []string{im.Name, "skipped", "not supported on this CPU"}
		}
		found := false
		for _, line := range lines {
			if f := strings.Fields(line); len(f) > 0 && f[0] == im.Name {
				found = true
				for _, w := range want {
					if !strings.Contains(line, w) {
						t.Errorf("line %q does not say %q", line, w)
					}
				}
			}
		}
		if !found {
			t.Errorf("no line for %s:\n%s", im.Name, stdout)
		}
	}
}

// TestSelftestOne checks -impl and -seed, and that generic is compared
// with x/crypto.
func TestSelftestOne(t *testing.T) {
	status, stdout, _ := runTool(t, "selftest", "-impl", "generic", "-seed", "42")
	if status != exitOK || strings.Count(stdout, "\n") != 1 || !strings.Contains(stdout, "against golang.org/x/crypto/twofish") {
		t.Fatalf("twofish selftest -impl generic: exit status %d:\n%s", status, stdout)
	}
	for _, impl := range []string{"auto", "ct"} {
		status, stdout, _ = runTool(t, "selftest", "-impl", impl)
		if status != exitOK || !strings.HasPrefix(stdout, impl+" ") || !strings.Contains(stdout, "against generic") || !strings.Contains(stdout, "(GCM, OCB, EAX; ") {
			t.Fatalf("twofish selftest -impl %s: exit status %d:\n%s", impl, status, stdout)
		}
	}
}

// TestSelftestFails checks that selftest reports a wrong answer: a
// known-answer record or Monte Carlo record altered, and a lane beside the
// one under test that differs from generic.
func TestSelftestFails(t *testing.T) {
	auto, _ := twofish.AutoImplementation()
	for _, file := range append([]string{kat.ECBTable}, kat.MonteCarloFiles...) {
		v, err := loadVectors(false)
		if err != nil {
			t.Fatal(err)
		}
		recs := v.table
		if file != kat.ECBTable {
			recs = v.mct[file]
		}
		recs[len(recs)-1].CT = bytes.Clone(recs[len(recs)-1].CT)
		recs[len(recs)-1].PT = bytes.Clone(recs[len(recs)-1].PT)
		recs[len(recs)-1].CT[3] ^= 1
		recs[len(recs)-1].PT[3] ^= 1
		_, err = selftestImpl(auto, 3, 3, v, rand.New(rand.NewPCG(1, 2)))
		if err == nil || !strings.Contains(err.Error(), file) {
			t.Errorf("%s altered: error %v", file, err)
		}
	}

	h, err := newLanes("generic", make([]byte, 16), 2, 0, make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	h.wantEnc[20] ^= 1
	if err := h.crypt(make([]byte, 16), false); err == nil || !strings.Contains(err.Error(), "beside lane 0") {
		t.Errorf("a lane that differs from generic's result: error %v", err)
	}
}

// TestSelftestDifferentialFails checks that the differential test reports
// each mode that the implementation under test gets wrong (its in-place
// side with the last byte flipped) and each AEAD whose Open accepts a
// changed tag.
func TestSelftestDifferentialFails(t *testing.T) {
	auto, _ := twofish.AutoImplementation()
	for i, op := range diffOps {
		t.Run(op.name, func(t *testing.T) {
			defer func(saved []diffOp) { diffOps = saved }(diffOps)
			diffOps = slices.Clone(diffOps)
			diffOps[i].run = func(k *keyed, dst, src, iv []byte, sector uint64) {
				op.run(k, dst, src, iv, sector)
				if len(src) > 0 && &dst[0] == &src[0] {
					dst[len(dst)-1] ^= 1
				}
			}
			_, err := differential(auto, 2, rand.New(rand.NewPCG(1, 2)))
			if err == nil || !strings.Contains(err.Error(), op.name+" of") {
				t.Errorf("%s wrong in the implementation under test: error %v", op.name, err)
			}
		})
	}
	for i, op := range aeadOps {
		t.Run(op.name, func(t *testing.T) {
			defer func(saved []aeadOp) { aeadOps = saved }(aeadOps)
			aeadOps = slices.Clone(aeadOps)
			aeadOps[i].of = func(k *keyed) cipher.AEAD {
				if k.std {
					return op.of(k)
				}
				return openAnything{op.of(k)}
			}
			_, err := differential(auto, 2, rand.New(rand.NewPCG(1, 2)))
			if err == nil || !strings.Contains(err.Error(), "with a changed tag") {
				t.Errorf("%s whose Open accepts a changed tag: error %v", op.name, err)
			}
		})
	}
}

// openAnything is an AEAD whose Open returns the ciphertext, less the tag,
// where the AEAD's own Open fails.
type openAnything struct{ cipher.AEAD }

func (a openAnything) Open(dst, nonce, ciphertext, ad []byte) ([]byte, error) {
	if out, err := a.AEAD.Open(dst, nonce, ciphertext, ad); err == nil {
		return out, nil
	}
	return append(dst, ciphertext[:len(ciphertext)-a.Overhead()]...), nil
}

// TestSelftestFull runs -full, all Monte Carlo records, on the automatic
// implementation.
func TestSelftestFull(t *testing.T) {
	if !exhaustive() {
		t.Skip("all Monte Carlo records take most of a minute: they run with TWOFISH_TEST_EXHAUSTIVE=1")
	}
	status, stdout, _ := runTool(t, "selftest", "-full", "-impl", "auto")
	if status != exitOK || !strings.Contains(stdout, "4800 Monte Carlo records (all)") {
		t.Fatalf("twofish selftest -full: exit status %d:\n%s", status, stdout)
	}
}
