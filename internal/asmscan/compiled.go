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
}

// arm64Latency matches the arm64 instructions whose latency depends on
// their operands: division and square root.
var arm64Latency = regexp.MustCompile(`^(UDIV|SDIV)W?$|^F(DIV|SQRT)[SD]$|^VF(DIV|SQRT)`)

// x86Latency reports whether the x86 instruction op has a latency that
// depends on its operands: the rule of Problems, and x87.
func x86Latency(op string) bool { return variableLatency.MatchString(op) || x87.MatchString(op) }

// compileTargets are the builds of this module's assembly and its
// portable fallback on the architectures whose instructions the package
// knows.
var compileTargets = []compileTarget{
	{"amd64", "", x86Latency},
	{"amd64", "purego", x86Latency},
	{"386", "", x86Latency},
	{"arm64", "", arm64Latency.MatchString},
	{"arm64", "purego", arm64Latency.MatchString},
}

// compiledLine matches a line of instruction of the compiler's -S listing:
// "\t0x0012 00018 (/src/key.go:363)\tMOVL\t$4, R8".
var compiledLine = regexp.MustCompile(`^\t0x[0-9a-f]+ \d+ \((.+):\d+\)\t(\S+)`)

// pseudo are the pseudo-instructions of a listing: data for the runtime,
// no machine code.
var pseudo = map[string]bool{"TEXT": true, "FUNCDATA": true, "PCDATA": true}

// CheckCompiled holds the machine code that the Go compiler makes of the
// source files files (base names) of package pkg to one rule: no
// instruction whose latency depends on its operands (division, square
// root, floating point). Memcheck (tools/ctgrind) sees secret-dependent
// branches and addresses in compiled Go but not these, and the scans of
// the assembly files do not read compiled Go.
//
// It builds pkg for linux with the compiler's listing (-gcflags=pkg=-S,
// which the build cache keeps) for each of compileTargets, or with all
// false only for those of this architecture, and reads every function,
// code inlined from files into other functions of pkg too. It fails if a
// file has no code in a build, where the scan would read nothing. (The
// builds for other architectures compile their standard library first:
// 30-40 s with a clean build cache on 2 cores.)
func CheckCompiled(t *testing.T, pkg string, files []string, all bool) {
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
			file, op := m[1], m[2]
			base := filepath.Base(file)
			if filepath.Base(filepath.Dir(file)) != path.Base(pkg) || !slices.Contains(files, base) {
				continue
			}
			if pseudo[op] {
				continue
			}
			seen[base]++
			if tg.variable(op) {
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
