//go:build gc && !purego

package kernel

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/asmscan"
)

// TestFramesInsideLocals reads the assembly of the kernels that keep state
// on the stack and checks that every kernel keeps it inside the locals its
// TEXT line declares. The avx2-ct 64- and 32-block kernels align their
// frame to 32 bytes, so that no vector access splits a cache line
// (_asm/avx2ct, kernel32), and the avx512 64-block kernels to 64: the base
// must be rounded up from SP (LEAQ 31(SP); ANDQ $-32), never down, and
// every access through it, or through a register it derives with LEAQ
// (avx2-ct kernel64's pointers to the passive and active words), must end
// below SP+locals whatever SP's alignment. The single-block and chain
// kernels address their key vectors from SP directly, which must stay in
// [0, locals).
//
// A base rounded down, or a frame larger than the locals, writes below SP
// or over the saved BP and the return address: the first is lost whenever
// asynchronous preemption pushes a frame there, the second crashes only for
// some alignments of SP, so neither shows reliably in a comparison with
// generic. This reads the files instead, on any CPU.
func TestFramesInsideLocals(t *testing.T) {
	for _, f := range []struct {
		name    string
		align   int
		aligned int // kernels that align a frame
	}{
		// The 64- and 32-block kernels: 2 widths, 3 key sizes, 2 directions.
		{"avx2ct_amd64.s", 32, 12},
		// The 64-block kernels of blocks and of the fused modes, avx512-vbmi's and avx512-gfni's.
		{"avx512_amd64.s", 64, 24},
	} {
		data, err := os.ReadFile(f.name)
		if err != nil {
			t.Fatal(err)
		}
		locals := map[string]int{}
		for _, m := range asmTextFrame.FindAllStringSubmatch(string(data), -1) {
			locals[m[1]], _ = strconv.Atoi(m[2])
		}
		aligned := 0
		for name, lines := range asmscan.Functions(string(data)) {
			size, ok := locals[name]
			if !ok {
				t.Errorf("%s: %s: no TEXT line with a frame size", f.name, name)
				continue
			}
			problems, hasFrame := frameProblems(lines, size, f.align)
			for _, p := range problems {
				t.Errorf("%s: %s ($%d of locals): %s", f.name, name, size, p)
			}
			if hasFrame {
				aligned++
			}
		}
		if aligned != f.aligned {
			t.Errorf("%s: %d kernels align a frame, want %d", f.name, aligned, f.aligned)
		}
	}
}

var (
	asmTextFrame = regexp.MustCompile(`(?m)^TEXT ·(\w+)\(SB\),(?: NOSPLIT,)? \$(\d+)-\d+`)
	asmFrameBase = regexp.MustCompile(`^LEAQ (-?\d*)\(SP\), (\w+)$`)
	asmAlignBase = regexp.MustCompile(`^ANDQ \$-(\d+), (\w+)$`)
	asmDerive    = regexp.MustCompile(`^LEAQ (-?\d*)\((\w+)\), (\w+)$`)
	asmMemory    = regexp.MustCompile(`(-?\d*)\((\w+)\)`)
)

// frameProblems returns what in the lines of one function with size bytes
// of locals reaches outside them, and whether it aligns a frame to align
// bytes; accessWidth says how many bytes each access covers.
func frameProblems(lines []string, size, align int) (problems []string, hasFrame bool) {
	report := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	disp := func(s string) int { d, _ := strconv.Atoi(s); return d }
	// derived holds the offsets from the aligned base that a register may
	// hold; round is how far above SP the base may lie.
	derived := map[string][]int{}
	round := 0
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if m := asmFrameBase.FindStringSubmatch(line); m != nil && i+1 < len(lines) {
			a := asmAlignBase.FindStringSubmatch(lines[i+1])
			if a == nil || a[2] != m[2] {
				report("%s is not followed by the ANDQ that aligns it", line)
				continue
			}
			if got := disp(a[1]); got != align {
				report("the frame is aligned to %d bytes, not to %d", got, align)
			}
			if d := disp(m[1]); d != disp(a[1])-1 {
				report("the frame's base is %d(SP) rounded down to %d bytes, not SP rounded up", d, disp(a[1]))
			}
			round = disp(m[1])
			derived[m[2]] = []int{0}
			hasFrame = true
			i++ // the ANDQ
			continue
		}
		if m := asmDerive.FindStringSubmatch(line); m != nil && derived[m[2]] != nil {
			var offs []int
			for _, o := range derived[m[2]] {
				offs = append(offs, o+disp(m[1]))
			}
			derived[m[3]] = offs
			continue
		}
		op, rest, _ := strings.Cut(line, " ")
		args := strings.Split(rest, ", ")
		if op == "XCHGQ" && len(args) == 2 {
			both := append(append([]int(nil), derived[args[0]]...), derived[args[1]]...)
			if derived[args[0]] != nil || derived[args[1]] != nil {
				derived[args[0]], derived[args[1]] = both, both
			}
			continue
		}
		width := accessWidth(op, line)
		for _, m := range asmMemory.FindAllStringSubmatch(rest, -1) {
			d := disp(m[1])
			if m[2] == "SP" {
				if d < 0 || d+width > size {
					report("%s reaches outside the locals", line)
				}
				continue
			}
			for _, o := range derived[m[2]] {
				if o+d < 0 || round+o+d+width > size {
					report("%s reaches %d bytes from the frame's base, outside the locals", line, o+d)
				}
			}
		}
		// A register written by anything else no longer points into the
		// frame.
		if last := args[len(args)-1]; derived[last] != nil && !strings.Contains(last, "(") {
			switch op {
			case "TESTQ", "CMPQ":
			default:
				delete(derived, last)
			}
		}
	}
	return problems, hasFrame
}

// accessWidth returns how many bytes the memory operand of the
// instruction op in line covers: the instruction's own width where it has
// one, else its vector register's (zmm 64, ymm 32, xmm 16), else 8.
func accessWidth(op, line string) int {
	switch op {
	case "KMOVW":
		return 2
	case "KMOVD", "MOVL", "VPBROADCASTD":
		return 4
	case "KMOVQ", "MOVQ", "VPBROADCASTQ":
		return 8
	case "VBROADCASTI32X4", "VBROADCASTI64X2":
		return 16
	}
	switch {
	case asmZMM.MatchString(line):
		return 64
	case asmYMM.MatchString(line):
		return 32
	case asmXMM.MatchString(line):
		return 16
	}
	return 8
}

var (
	asmXMM = regexp.MustCompile(`\bX([12][0-9]|3[01]|[0-9])\b`)
	asmYMM = regexp.MustCompile(`\bY([12][0-9]|3[01]|[0-9])\b`)
	asmZMM = regexp.MustCompile(`\bZ([12][0-9]|3[01]|[0-9])\b`)
)

// TestFrameProblems checks that frameProblems catches what it should: a
// base rounded down or to 16 bytes, and accesses past the locals, direct
// or through a derived pointer that an XCHGQ swaps, each as wide as its
// instruction or register makes it.
func TestFrameProblems(t *testing.T) {
	good := []string{
		"LEAQ 31(SP), AX", "ANDQ $-32, AX", "MOVQ ks+0(FP), CX",
		"VMOVDQU Y0, 1248(AX)", "LEAQ 256(AX), DX", "LEAQ (AX), R8",
		"XCHGQ DX, R8", "VMOVDQU 224(R8), Y1", "VMOVDQU X2, 16(SP)",
		"KMOVW 1278(AX), K1", "RET",
	}
	if p, ok := frameProblems(good, 1312, 32); len(p) != 0 || !ok {
		t.Errorf("frameProblems rejects good code: %v (frame %v)", p, ok)
	}
	for _, bad := range [][2]string{
		{"LEAQ 31(SP), AX", "LEAQ (SP), AX"},
		{"ANDQ $-32, AX", "ANDQ $-16, AX"},
		{"VMOVDQU Y0, 1248(AX)", "VMOVDQU Y0, 1280(AX)"},
		{"VMOVDQU 224(R8), Y1", "VMOVDQU 1024(R8), Y1"},
		{"VMOVDQU X2, 16(SP)", "VMOVDQU X2, 1304(SP)"},
		{"KMOVW 1278(AX), K1", "KMOVW 1280(AX), K1"},
		{"VMOVDQU Y0, 1248(AX)", "VMOVDQU Z0, 1248(AX)"},
	} {
		lines := replaceLine(good, bad[0], bad[1])
		if p, _ := frameProblems(lines, 1312, 32); len(p) == 0 {
			t.Errorf("frameProblems accepts %q", bad[1])
		}
	}
}

// replaceLine returns a copy of lines with each line equal to old replaced
// by new: the checkers' tests plant one fault at a time in good code.
func replaceLine(lines []string, old, new string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if l == old {
			l = new
		}
		out[i] = l
	}
	return out
}
