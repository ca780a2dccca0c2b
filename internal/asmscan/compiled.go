package asmscan

import (
	"bytes"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// A compileTarget is a build whose compiled code CheckCompiled reads.
type compileTarget struct {
	goarch, tags string
	// variable reports whether the instruction op, by Go's name for it,
	// has a latency that depends on its operands.
	variable func(op string) bool
	// multiply matches the multiplications whose latency depends on their
	// operands on some cores of the architecture, nil if none does.
	multiply *regexp.Regexp
}

// arm64Latency matches the arm64 instructions whose latency depends on
// their operands: division and square root.
var arm64Latency = regexp.MustCompile(`^(UDIV|SDIV)W?$|^F(DIV|SQRT)[SD]$|^VF(DIV|SQRT)`)

// x86Latency reports whether the x86 instruction op has a latency that
// depends on its operands: the rule of Problems, and x87.
func x86Latency(op string) bool { return variableLatency.MatchString(op) || x87.MatchString(op) }

// armLatency matches the 32-bit arm instructions whose latency depends on
// their operands: division, and the VFP's floating point.
var armLatency = regexp.MustCompile(`^DIVU?$|^(ADD|SUB|MUL|MULA|MULS|NMUL|NMULA|NMULS|DIV|SQRT|ABS|NEG|CMP)[FD]$|^MOV[FDW]?[FD]$|^MOV[FD]W`)

// armMultiply matches 32-bit arm's multiplications: ARM7TDMI and ARM9 end
// MUL early on small operands, Cortex-M3 the 64-bit products UMULL and SMULL
// (MULLU, MULL), which are how Go multiplies 64-bit integers there (BearSSL's
// notes on constant-time multiplication list the cores).
var armMultiply = regexp.MustCompile(`^MUL`)

// runtimeArithmetic matches the runtime's functions that a port without the
// instructions calls for division and floating point: 64-bit division on
// 386 and arm, all division on arm, and soft float. A division's time there
// depends on its operands as the instruction's does.
var runtimeArithmetic = regexp.MustCompile(`^runtime\.(u?int64(div|mod)|udiv|_u?(div|mod)u?|f(add|sub|mul|div|cmp|neg|sqrt)(32|64)|f(32|64)to[a-z0-9]+|f(u?int)to(32|64)|fuint64to[0-9]+)\(`)

// compileTargets are the builds of this module's assembly and its
// portable fallback on the architectures whose instructions the package
// knows.
var compileTargets = []compileTarget{
	{"amd64", "", x86Latency, nil},
	{"amd64", "purego", x86Latency, nil},
	{"386", "", x86Latency, nil},
	{"arm64", "", arm64Latency.MatchString, nil},
	{"arm64", "purego", arm64Latency.MatchString, nil},
	{"arm", "", armLatency.MatchString, armMultiply},
}

// compiledLine matches a line of instruction of the compiler's -S listing:
// "\t0x0012 00018 (/src/key.go:363)\tMOVL\t$4, R8".
var compiledLine = regexp.MustCompile(`^\t0x[0-9a-f]+ \d+ \((.+):\d+\)\t(\S+)(?:\t(.*))?`)

// pseudo are the pseudo-instructions of a listing: data for the runtime,
// no machine code.
var pseudo = map[string]bool{"TEXT": true, "FUNCDATA": true, "PCDATA": true}

// CheckCompiled holds the machine code that the Go compiler makes of the
// source files files (base names) of package pkg to one rule: no
// instruction whose latency depends on its operands (division, square
// root, floating point, or a call of the runtime's code for them), and
// unless multiplies, no multiplication whose latency does on some cores of
// the architecture (32-bit arm's). Memcheck (tools/ctgrind) sees
// secret-dependent branches and addresses in compiled Go but not these, and
// the scans of the assembly files do not read compiled Go. multiplies is
// for code that multiplies secrets by design (the portable GHASH's
// carry-less products), whose documentation must then say where that is
// constant-time.
//
// It builds pkg for linux with the compiler's listing (-gcflags=pkg=-S,
// which the build cache keeps) for each of compileTargets, or with all
// false only for those of this architecture, and reads every function,
// code inlined from files into other functions of pkg too. It fails if a
// file has no code in a build, where the scan would read nothing. (The
// builds for other architectures compile their standard library first:
// 30-40 s with a clean build cache on 2 cores.)
func CheckCompiled(t *testing.T, pkg string, files []string, all, multiplies bool) {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("the go command is not found (%v): the compiled code cannot be read", err)
	}
	targets := compileTargets
	if !all {
		targets = slices.DeleteFunc(slices.Clone(targets), func(tg compileTarget) bool { return tg.goarch != runtime.GOARCH })
	}
	if len(targets) == 0 {
		t.Skipf("no rule for the instructions of %s", runtime.GOARCH)
	}
	for _, tg := range targets {
		build := tg.goarch
		if tg.tags != "" {
			build += " -tags " + tg.tags
		}
		cmd := exec.Command(goCmd, "build", "-tags", tg.tags, "-gcflags="+pkg+"=-S", pkg)
		cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+tg.goarch, "CGO_ENABLED=0", "GOFLAGS=")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: go build: %v\n%s", build, err, stderr.Bytes())
		}
		seen := map[string]int{}
		for line := range strings.Lines(stderr.String()) {
			m := compiledLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			file, op, args := m[1], m[2], m[3]
			base := filepath.Base(file)
			if filepath.Base(filepath.Dir(file)) != path.Base(pkg) || !slices.Contains(files, base) {
				continue
			}
			if pseudo[op] {
				continue
			}
			seen[base]++
			if tg.variable(op) || op == "CALL" && runtimeArithmetic.MatchString(args) ||
				!multiplies && tg.multiply != nil && tg.multiply.MatchString(op) {
				t.Errorf("%s: %s", build, strings.TrimSpace(line))
			}
		}
		for _, f := range files {
			if seen[f] == 0 {
				t.Errorf("%s: no machine code from %s of %s in the compiler's listing: nothing of it was read", build, f, pkg)
			}
		}
	}
}
