//go:build gc && !purego

package kernel

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twofish-go/twofish/internal/kat"
)

// The assembly kernels must keep Go's frame-pointer convention: BP holds the
// caller's frame pointer, or the kernel's own when the assembler gives it a
// frame, and nothing else. A kernel that writes BP breaks every unwinder
// that follows frame pointers (perf, eBPF profilers, the Go tracer) for as
// long as it runs, the bug that Linux commit 3fa8fb3c0c6d fixed in its
// 3-way Twofish. Two tests hold the line: one reads the assembly, the other
// profiles the kernels with perf and checks that the stacks unwind.

// bpNames are the spellings of BP and its narrower parts.
var bpNames = map[string]bool{"BP": true, "BPB": true, "BPL": true, "EBP": true, "RBP": true}

// bpWrite reports whether the Go assembly line, or the body of the macro it
// defines, writes BP: BP (in any width) as the destination, the last operand
// in Go syntax, of an instruction that writes its destination; an exchange
// that names BP; PUSH or POP of BP (pushing it is harmless, but no kernel has
// a reason to); or LEAVE, which loads BP.
func bpWrite(line string) bool {
	if i := strings.Index(line, "//"); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line), "\\"))
	// A macro's body is instructions too.
	if rest, ok := strings.CutPrefix(line, "#define"); ok {
		rest = strings.TrimLeft(rest, " \t")
		name := strings.IndexFunc(rest, func(r rune) bool { return r == '(' || r == ' ' || r == '\t' })
		if name < 0 {
			return false
		}
		rest = rest[name:]
		if strings.HasPrefix(rest, "(") {
			_, rest, _ = strings.Cut(rest, ")")
		}
		line = rest
	}
	if strings.Contains(line, ";") {
		for _, part := range strings.Split(line, ";") {
			if bpWrite(part) {
				return true
			}
		}
		return false
	}
	line = strings.TrimSpace(line)
	// A label may precede the instruction.
	if i := strings.Index(line, ":"); i >= 0 && !strings.ContainsAny(line[:i], " \t(,$") {
		line = strings.TrimSpace(line[i+1:])
	}
	if line == "" || strings.HasPrefix(line, "#") {
		return false
	}
	fields := strings.Fields(line)
	op := strings.ToUpper(fields[0])
	var args []string
	if rest := strings.TrimSpace(line[len(fields[0]):]); rest != "" {
		for _, a := range strings.Split(rest, ",") {
			args = append(args, strings.ToUpper(strings.TrimSpace(a)))
		}
	}
	switch op {
	case "TEXT", "DATA", "GLOBL", "PCDATA", "FUNCDATA":
		return false
	case "LEAVE", "LEAVEQ", "LEAVEL", "LEAVEW":
		return true
	}
	anyBP := false
	for _, a := range args {
		anyBP = anyBP || bpNames[a]
	}
	switch {
	case !anyBP:
		return false
	case strings.HasPrefix(op, "PUSH"), strings.HasPrefix(op, "POP"),
		strings.HasPrefix(op, "XCHG"), strings.HasPrefix(op, "XADD"),
		strings.HasPrefix(op, "CMPXCHG"):
		return true
	case strings.HasPrefix(op, "CMP"), strings.HasPrefix(op, "TEST"),
		op == "BTQ" || op == "BTL" || op == "BTW",
		strings.HasPrefix(op, "J"), strings.HasPrefix(op, "CALL"):
		// These read their operands only.
		return false
	}
	return bpNames[args[len(args)-1]]
}

func TestBPWriteScanner(t *testing.T) {
	for line, want := range map[string]bool{
		"\tMOVQ AX, BP":                         true,
		"\tMOVQ    8(SP), BP // restore":        true,
		"\tLEAQ 16(SP), BP":                     true,
		"\tADDQ $8, BP":                         true,
		"\tXORL BP, BP":                         true,
		"\tMOVB AL, BPB":                        true,
		"\tXCHGQ BP, AX":                        true,
		"\tXCHGQ AX, BP":                        true,
		"\tPUSHQ BP":                            true,
		"\tPOPQ BP":                             true,
		"\tLEAVEQ":                              true,
		"loop:\tSHLQ $1, BP":                    true,
		"\tSHLQ $1, AX, BP":                     true,
		"#define SETBP MOVQ AX, BP \\":          true,
		"#define R(a, b) MOVQ a, b; MOVQ b, BP": true,
		"\tMOVQ AX, BX; POPQ BP":                true,
		"#define R(a, b) MOVQ a, b":             false,
		"\tMOVQ BP, AX":                         false,
		"\tMOVL (BP), AX":                       false,
		"\tMOVL 8(BP)(SI*4), AX":                false,
		"\tMOVQ AX, 8(BP)":                      false,
		"\tCMPQ AX, BP":                         false,
		"\tTESTQ BP, BP":                        false,
		"\tMOVQ ks+0(FP), AX":                   false,
		"\t// MOVQ AX, BP":                      false,
		"TEXT ·f(SB), NOSPLIT, $0-32":           false,
		"\tRET":                                 false,
	} {
		if got := bpWrite(line); got != want {
			t.Errorf("bpWrite(%q) = %v, want %v", line, got, want)
		}
	}
}

// TestAssemblyKeepsBP scans every *_amd64.s of the module for instructions
// that write BP.
func TestAssemblyKeepsBP(t *testing.T) {
	files := moduleFiles(t, "_amd64.s")
	if len(files) == 0 {
		t.Fatal("no *_amd64.s files found")
	}
	for _, name := range files {
		data, err := os.ReadFile(filepath.Join("../..", name))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if bpWrite(line) {
				t.Errorf("%s:%d writes BP: %s", name, i+1, strings.TrimSpace(line))
			}
		}
	}
	t.Logf("scanned %s", strings.Join(files, ", "))
}

// perfCommand returns a perf that runs: the one on PATH, or one of the
// versioned binaries that Debian's linux-perf and Ubuntu's linux-tools
// install when the wrapper finds none for the running kernel.
func perfCommand() (string, error) {
	candidates := []string{"perf"}
	for _, pattern := range []string{"/usr/bin/perf_*", "/usr/lib/linux-tools/*/perf", "/usr/lib/linux-tools-*/perf"} {
		m, _ := filepath.Glob(pattern)
		candidates = append(candidates, m...)
	}
	var errs []string
	for _, c := range candidates {
		path, err := exec.LookPath(c)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		out, err := exec.Command(path, "--version").CombinedOutput()
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s --version: %v: %s", path, err, bytes.TrimSpace(out)))
			continue
		}
		return path, nil
	}
	return "", fmt.Errorf("no working perf (%s)", strings.Join(errs, "; "))
}

// kernelSymbol matches the assembly kernels' symbols as perf names them.
var kernelSymbol = regexp.MustCompile(`kernel\.(en|de)cryptBlocks(\d+x(BMI)?|16AVX2(VP)?Gather|64AVX512(GFNI)?|(32|64)AVX2CT(128|192|256))\b`)

// unwindKernels are the implementations the unwinding test profiles, and
// the encryption kernel in which each spends its time.
var unwindKernels = []struct{ impl, symbol string }{
	{"amd64-1way", "kernel.encryptBlocks1x" + map[bool]string{true: "BMI"}[scalarBMI]},
	{"amd64-3way", "kernel.encryptBlocks3x"},
	{"avx2-gather", "kernel.encryptBlocks16AVX2Gather"},
	{"avx2-vpgather", "kernel.encryptBlocks16AVX2VPGather"},
	{"avx512-vbmi", "kernel.encryptBlocks64AVX512"},
	{"avx512-gfni", "kernel.encryptBlocks64AVX512GFNI"},
	{"avx2-ct", "kernel.encryptBlocks64AVX2CT256"},
}

// TestFramePointerUnwinding runs testdata/unwind, which spends its time in
// one implementation's kernels called from main.main, under perf record
// --call-graph fp, and checks that the samples taken inside a kernel unwind
// to main.main. A frameless kernel leaves BP pointing at its caller's frame,
// so that caller's caller comes next and the direct caller is missing from
// the stack; that is expected and not checked.
//
// It profiles for several seconds, so it runs, without -short, in
// exhaustive runs (TWOFISH_TEST_EXHAUSTIVE=1) or when TWOFISH_REQUIRE_PERF=1
// asks for it.
// Without perf, or with a perf that may not profile (perf_event_paranoid),
// the test is skipped unless TWOFISH_REQUIRE_PERF=1, which makes it fail.
func TestFramePointerUnwinding(t *testing.T) {
	if testing.Short() || !exhaustive() && os.Getenv("TWOFISH_REQUIRE_PERF") != "1" {
		t.Skip("the unwinding test profiles for several seconds: it runs with TWOFISH_TEST_EXHAUSTIVE=1 or TWOFISH_REQUIRE_PERF=1")
	}
	unavailable := func(format string, args ...any) {
		t.Helper()
		msg := fmt.Sprintf(format, args...)
		if os.Getenv("TWOFISH_REQUIRE_PERF") == "1" {
			t.Fatalf("%s (TWOFISH_REQUIRE_PERF=1)", msg)
		}
		t.Skipf("%s; install linux-perf, or set TWOFISH_REQUIRE_PERF=1 to make this a failure", msg)
	}
	perf, err := perfCommand()
	if err != nil {
		unavailable("%v", err)
	}

	dir := t.TempDir()
	prog := filepath.Join(dir, "unwind")
	if out, err := exec.Command("go", "build", "-o", prog, "../../testdata/unwind").CombinedOutput(); err != nil {
		t.Fatalf("go build testdata/unwind: %v\n%s", err, out)
	}

	const spin = 2 * time.Second // of CPU time: samples, however loaded the machine
	for _, uk := range unwindKernels {
		impl := uk.impl
		if k := Find(impl); k == nil || !k.Supported {
			if slices.Contains(strings.Split(os.Getenv("TWOFISH_TEST_REQUIRE"), ","), impl) {
				t.Errorf("%s: required by TWOFISH_TEST_REQUIRE but not supported on this CPU", impl)
			}
			t.Logf("%s: not supported on this CPU, not profiled", impl)
			continue
		}
		data := filepath.Join(dir, impl+".data")
		record := exec.Command(perf, "record", "-e", "cpu-clock", "--call-graph", "fp",
			"--no-buildid-cache", "-o", data, "--", prog, "-impl", impl, "-for", spin.String())
		if out, err := record.CombinedOutput(); err != nil {
			paranoid, _ := os.ReadFile("/proc/sys/kernel/perf_event_paranoid")
			unavailable("%s record failed (perf_event_paranoid = %s): %v\n%s",
				perf, bytes.TrimSpace(paranoid), err, out)
		}
		script, err := exec.Command(perf, "script", "-i", data, "-F", "ip,sym").Output()
		if err != nil {
			t.Fatalf("%s script: %v", perf, err)
		}

		// perf script prints one sample per paragraph, one frame per line,
		// leaf first.
		total, reached := map[string]int{}, map[string]int{}
		var frames []string
		flush := func() {
			if len(frames) > 0 {
				if m := kernelSymbol.FindString(frames[0]); m != "" {
					total[m]++
					for _, f := range frames[1:] {
						if strings.HasSuffix(f, " main.main") {
							reached[m]++
							break
						}
					}
				}
			}
			frames = frames[:0]
		}
		sc := bufio.NewScanner(bytes.NewReader(script))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if line := strings.TrimSpace(sc.Text()); line == "" {
				flush()
			} else {
				frames = append(frames, line)
			}
		}
		flush()

		sum, ok := 0, 0
		for sym, n := range total {
			sum += n
			ok += reached[sym]
			t.Logf("%s: %d of %d samples in %s unwind to main.main", impl, reached[sym], n, sym)
		}
		want := uk.symbol
		switch {
		case total[want] < 100:
			t.Errorf("%s: only %d samples in %s: the profile did not catch the kernel", impl, total[want], want)
		case 100*ok < 95*sum:
			t.Errorf("%s: %d of %d samples in a kernel unwind to main.main, want at least 95%%", impl, ok, sum)
		}
	}
}

// TestScalarBodies runs the known-answer, Monte Carlo and differential tests
// on each body of the 1-way kernels, through its ladder and its entries of
// one block: the rest of the suite runs only the body internal/cpu chose.
func TestScalarBodies(t *testing.T) {
	for _, k := range []*Kernel{AMD64x1, AMD64x1BMI} {
		bmi := k == AMD64x1BMI
		t.Run(fmt.Sprintf("bmi=%v", bmi), func(t *testing.T) {
			if !k.Supported {
				t.Skip(noBMI)
			}
			t.Run("KnownAnswers", func(t *testing.T) { testKnownAnswers(t, k) })
			for _, file := range kat.MonteCarloFiles {
				t.Run("MonteCarlo/"+file, func(t *testing.T) { testMonteCarlo(t, file, k) })
			}
			t.Run("Differential", func(t *testing.T) { testDifferential(t, k) })
			// The entries of one block with no count, which Encrypt and
			// Decrypt call.
			enc, dec := EncryptBlock1x, DecryptBlock1x
			if bmi {
				enc, dec = EncryptBlock1xBMI, DecryptBlock1xBMI
			}
			single := singleKernel{
				schedule: func(key []byte) *Schedule { return newCipher(key, k).ks },
				enc:      func(ks *Schedule, dst, src *byte) { enc(ks.tables(), ks, dst, src) },
				dec:      func(ks *Schedule, dst, src *byte) { dec(ks.tables(), ks, dst, src) },
			}
			t.Run("SingleKnownAnswers", func(t *testing.T) { checkSingleKnownAnswers(t, single) })
			t.Run("SingleDifferential", func(t *testing.T) { checkSingleDifferential(t, single) })
			t.Run("Chain", func(t *testing.T) { checkChain(t, k) })
		})
	}
}

// noBMI is the message of a test of the 1-way kernels' BMI body that this
// CPU cannot run: a skip even where TWOFISH_TEST_REQUIRE names amd64-1way,
// whose other body runs everywhere.
const noBMI = "this CPU lacks BMI1 or BMI2: the 1-way kernels' BMI body cannot run"
