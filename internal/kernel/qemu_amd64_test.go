//go:build gc && !purego

package kernel

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twofish-go/twofish/internal/cpu"
)

// The emulated dispatch test runs this package's test binary under
// qemu-x86_64 (Debian's qemu-user) as CPUs other than the host's, and checks
// in each that the CPU policy chooses what it should from the emulated
// CPUID and that the chosen kernel passes the known-answer, Monte Carlo,
// differential and guard-page tests there:
//
//	TWOFISH_REQUIRE_QEMU=1 go test -run '^TestEmulatedDispatch$' -v ./internal/kernel
//
// It runs, without -short, in exhaustive runs (TWOFISH_TEST_EXHAUSTIVE=1)
// or when TWOFISH_REQUIRE_QEMU=1 asks for it. Without qemu-x86_64 the test is
// skipped, unless TWOFISH_REQUIRE_QEMU=1 makes that a failure. The Gather Data Sampling status is given to the
// child (TWOFISH_TEST_GDS) rather than read from the host, whose file
// qemu-user would show the emulated program: the child applies the policy
// to the emulated CPUID facts with that status.

// emulatedCPUs are the qemu CPU models of the test (qemu 7.2's TCG, Debian
// 12's, emulates AVX2 and BMI but not AVX-512, GFNI or VPCLMULQDQ, which it
// leaves out with a warning), with the injected GDS status and the
// implementations the policy must choose: the block kernel, the key
// schedule (whose known answers the kernels' tests check, through the
// schedule of each new key), the 1-way body, GHASH and OCB's offsets, in
// that order.
var emulatedCPUs = []struct{ cpu, gds, want string }{
	{"Nehalem", "Not affected", "amd64-3way,generic,baseline,generic,sse2"},
	{"Westmere", "Not affected", "amd64-3way,generic,baseline,pclmulqdq,sse2"},
	{"SandyBridge", "Not affected", "amd64-3way,generic,baseline,pclmulqdq,sse2"},
	{"Haswell", "Not affected", "avx2-gather,avx2,bmi,pclmulqdq,avx2"},
	{"Haswell,-bmi1,-bmi2", "Not affected", "avx2-gather,avx2,baseline,pclmulqdq,avx2"},
	{"Skylake-Client", "Vulnerable", "avx2-vpgather,avx2,bmi,pclmulqdq,avx2"},
	{"Skylake-Client", "Mitigation: Microcode", "avx2-gather,avx2,bmi,pclmulqdq,avx2"},
	// qemu's Icelake-Server has model 0x86 (Snow Ridge's), not Ice Lake-SP's
	// 0x6A: a model after Haswell that Gather Data Sampling does not affect.
	{"Icelake-Server", "Not affected", "avx2-vpgather,avx2,bmi,pclmulqdq,avx2"},
	{"EPYC-Rome", "Not affected", "avx2-gather,avx2,bmi,pclmulqdq,avx2"},
	{"EPYC-Milan", "Not affected", "avx2-gather,avx2,bmi,pclmulqdq,avx2"},
	// qemu's Dhyana (Hygon) has no PCLMULQDQ.
	{"Dhyana", "Not affected", "avx2-gather,avx2,bmi,generic,avx2"},
}

// emulatedTests are the tests each emulated CPU runs, with -short: the
// choice, and every supported kernel against the vectors and generic; and
// the chain kernels of the 1-way body the CPU gets (on Nehalem the one
// without BMI, which Chain must pick there: the BMI body would fault).
var emulatedTests = []string{"TestEmulatedDispatch", "TestKnownAnswers", "TestMonteCarlo", "TestDifferential", "TestGuardPages", "TestChain", "TestChainGuarded"}

func TestEmulatedDispatch(t *testing.T) {
	if want, ok := os.LookupEnv("TWOFISH_QEMU_WANT"); ok {
		emulatedChild(t, strings.Split(want, ","))
		return
	}
	if testing.Short() || !exhaustive() && os.Getenv("TWOFISH_REQUIRE_QEMU") != "1" {
		t.Skip("the emulated dispatch test builds a test binary and runs it under qemu: it runs with TWOFISH_TEST_EXHAUSTIVE=1 or TWOFISH_REQUIRE_QEMU=1")
	}
	unavailable := func(t *testing.T, format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		if os.Getenv("TWOFISH_REQUIRE_QEMU") == "1" {
			t.Fatalf("%s (TWOFISH_REQUIRE_QEMU=1)", msg)
		}
		t.Skipf("%s; install qemu-user (Debian), or set TWOFISH_REQUIRE_QEMU=1 to make this a failure", msg)
	}
	qemu, err := exec.LookPath("qemu-x86_64")
	if err != nil {
		unavailable(t, "no qemu-x86_64: %v", err)
	}

	bin := filepath.Join(t.TempDir(), "twofish.test")
	// go test puts its own GOROOT/bin first on PATH.
	build := exec.Command("go", "test", "-c", "-o", bin, ".")
	build.Env = append(os.Environ(), "GOARCH=amd64", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}

	for _, tc := range emulatedCPUs {
		t.Run(tc.cpu+"/"+strings.ReplaceAll(tc.gds, " ", "_"), func(t *testing.T) {
			start := time.Now()
			cmd := exec.Command(qemu, "-cpu", tc.cpu, bin,
				"-test.run", "^("+strings.Join(emulatedTests, "|")+")$",
				"-test.short", "-test.v", "-test.count=1")
			// The chosen kernel runs the vectors; the others were tested
			// natively, and emulation is slow.
			require, _, _ := strings.Cut(tc.want, ",")
			env := []string{}
			for _, kv := range os.Environ() {
				// The child's choice must be the policy's, and under
				// emulation it runs the -short prefixes, never the
				// exhaustive runs.
				name, _, _ := strings.Cut(kv, "=")
				switch name {
				case "TWOFISH_IMPL", "TWOFISH_TEST_REQUIRE", "TWOFISH_TEST_IMPLS", "TWOFISH_TEST_EXHAUSTIVE":
				default:
					env = append(env, kv)
				}
			}
			cmd.Env = append(env, "TWOFISH_QEMU_WANT="+tc.want, "TWOFISH_TEST_GDS="+tc.gds,
				"TWOFISH_TEST_REQUIRE="+require, "TWOFISH_TEST_IMPLS="+require)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			switch {
			case errors.As(err, &exit):
				t.Fatalf("qemu-x86_64 -cpu %s: %v\n%s", tc.cpu, err, relevant(out))
			case err != nil:
				unavailable(t, "qemu-x86_64 -cpu %s: %v", tc.cpu, err)
			}
			for _, test := range emulatedTests {
				if !strings.Contains(string(out), "--- PASS: "+test+" ") {
					t.Errorf("qemu-x86_64 -cpu %s: %s did not pass\n%s", tc.cpu, test, relevant(out))
				}
			}
			for _, line := range strings.Split(string(out), "\n") {
				if strings.Contains(line, "emulated:") {
					t.Log(strings.TrimSpace(line))
				}
			}
			t.Logf("qemu-x86_64 -cpu %s: %v", tc.cpu, time.Since(start).Round(time.Millisecond))
		})
	}
}

// emulatedChild is TestEmulatedDispatch inside qemu: the policy must choose
// want (the block kernel, the key schedule, the 1-way body, GHASH and OCB's
// offsets) for the emulated CPUID facts with the given GDS status, and this
// process must use the policy's choice for its own facts.
func emulatedChild(t *testing.T, want []string) {
	f := cpu.HostFacts()
	f.GDS = os.Getenv("TWOFISH_TEST_GDS")
	t.Logf("emulated: %s %q %s, features %v, GDS %q", f.Vendor, f.Brand, f.FamilyModel(), f.Features(), f.GDS)
	c := cpu.Decide(f)
	for i, got := range []cpu.Choice{c.Block, c.KeySched, c.Scalar, c.GHASH, c.OCBMask} {
		t.Logf("emulated: the policy chooses %s for %s: %s", got.Name, got.Part, got.Reason)
		if i >= len(want) || got.Name != want[i] {
			t.Errorf("the policy chose %s for %s (%s), want %v", got.Name, got.Part, got.Reason, want)
		}
	}
	if own := cpu.Decide(cpu.HostFacts()).Block.Name; Auto().Bulk.Name != own {
		t.Errorf("new Ciphers use %s, the policy's choice for this process is %s", Auto().Bulk.Name, own)
	}
	for _, k := range All() {
		t.Logf("emulated: %s supported: %v", k.Name, k.Supported)
	}
}

// relevant returns the lines of a child's output without qemu's warnings
// about features TCG lacks.
func relevant(out []byte) string {
	var keep []string
	for _, line := range strings.Split(string(out), "\n") {
		if !strings.Contains(line, "TCG doesn't support requested feature") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}
