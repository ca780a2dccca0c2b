// Package asmscan checks generated x86-64 Go assembly for what makes it
// constant-time by construction. Only tests import it: the scans of
// internal/kernel's AVX-512, AVX2 and OCB files and of internal/ghash's
// GHASH file.
//
// The rule (Problems) keeps every general-purpose register public: each is
// written only from the argument frame (whose arguments are pointers,
// lengths and modes, never a key or data word), constants, other
// general-purpose registers and addresses (LEAQ), never from memory
// elsewhere, from a vector or mask register, or implicitly (MULQ, LODSQ,
// XLAT, PCMPESTRI...). The flags then are public too, as long as no
// instruction sets them from vector or mask data (VPTEST, KORTEST, COMISS)
// or from memory (CMPQ (AX), BX). So every address (a general-purpose base
// and index register plus a constant) and every conditional branch or
// move depends on public values only, whatever the vector registers hold;
// and no instruction of variable latency (DIV, floating point) runs.
//
// It does not follow values through memory: a store of a vector register
// and a load of it into a general-purpose register is a load from memory,
// reported. It trusts the argument frame, which the Go declarations of the
// scanned functions make public, and so reports any write to it. It reads
// the assembly as the generators write it, one instruction a line: a line
// that holds more (a semicolon, a block comment), a preprocessor line or
// raw bytes (BYTE, WORD, LONG, QUAD) is a problem in itself.
package asmscan

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Functions returns the instruction lines of each TEXT symbol of a Go
// assembly file, comments and labels removed, by name without the
// package's middle dot.
func Functions(src string) map[string][]string {
	funcs := map[string][]string{}
	var name string
	for _, line := range strings.Split(src, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		// Fields separated by any white space, as the assembler reads them.
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		// A label may share its line with an instruction, which the
		// assembler assembles: the instruction stays.
		if l, ok := strings.CutSuffix(fields[0], ":"); ok && labelName.MatchString(l) {
			if fields = fields[1:]; len(fields) == 0 {
				continue
			}
		}
		line = strings.Join(fields, " ")
		if fields[0] == "TEXT" {
			sym, _, _ := strings.Cut(strings.TrimPrefix(line, "TEXT "), "(")
			name = strings.TrimPrefix(sym, "·")
			continue
		}
		// DATA and GLOBL define constants wherever they stand; the
		// instructions after one still belong to the function before it.
		if fields[0] == "DATA" || fields[0] == "GLOBL" || name == "" {
			continue
		}
		funcs[name] = append(funcs[name], line)
	}
	return funcs
}

// Rules relax Problems' defaults, which the kernels' files meet, for code
// that needs more and stays constant-time by the same argument.
type Rules struct {
	// IndexRegisters allows memory operands with a general-purpose index
	// register, (AX)(R9*1): public, as every general-purpose register
	// is. A vector index (a gather's) stays a problem.
	IndexRegisters bool
	// CMOV allows conditional moves between general-purpose registers:
	// the flags and the sources are public.
	CMOV bool
	// NoVZEROUPPER: the functions use only legacy SSE encodings and need
	// not end with VZEROUPPER.
	NoVZEROUPPER bool
}

var (
	labelName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	// A scaled index register, after a base register or alone: (AX)(CX*4),
	// 8(CX*4).
	scaledIndex = regexp.MustCompile(`\(([A-Z0-9]+)\*[1248]\)`)
	gpReg       = regexp.MustCompile(`^(AX|BX|CX|DX|SI|DI|BP|SP|[ABCD][LH]|SIB|DIB|BPB|SPB|R([89]|1[0-5])[BWL]?|g)$`)
	frameArg    = regexp.MustCompile(`^[a-z][a-z0-9_]*\+\d+\(FP\)$`)
	immediate   = regexp.MustCompile(`^\$`)
	cmov        = regexp.MustCompile(`^CMOV[WLQ]`)
	// Comparisons and tests, which read their operands and write only the
	// flags.
	readsOnly = regexp.MustCompile(`^(CMP|TEST)[BWLQ]?$`)
	// Instructions that move vector or mask data into the flags, or that
	// address memory by vector.
	dataToFlagsOrAddress = regexp.MustCompile(`^(V?PTEST$|VTEST|KORTEST|KTEST|V?U?COMIS|VP?GATHER|VP?SCATTER)`)
	// Instructions whose latency depends on their operands: integer
	// division, and floating-point arithmetic, scalar or vector (division
	// and square root everywhere, the others on subnormal operands on
	// many CPUs). No constant-time code of this module uses floating
	// point.
	variableLatency = regexp.MustCompile(`^(I?DIV[BWLQ]?|V?(ADD|SUB|MUL|DIV|SQRT|MIN|MAX|RCP(14|28)?|RSQRT(14|28)?|ADDSUB|H(ADD|SUB)|DP|GETEXP|GETMANT|RNDSCALE|REDUCE|SCALEF|ROUND)[PS][SDH]|VFN?M(ADD|SUB)(ADD|SUB)?(132|213|231)[PS][SDH])$`)
	// Instructions that write a general-purpose register or the flags
	// without naming it last, from memory or vector data: the string
	// instructions, XLAT, the string comparisons of SSE4.2 (flags and CX
	// from vector data), and those that read the machine.
	implicitWriters = regexp.MustCompile(`^(REP.*|LODS[BWLQ]?|SCAS[BWLQ]?|CMPS[BWLQ]|XLAT|V?PCMP[EI]STR[IM]|CPUID|RDTSCP?|RDRAND[WLQ]|RDSEED[WLQ]|RDPID|POPF[WLQ]?|CMPXCHG(8|16)B|VER[RW])$`)
	// x87 floating point (FMOVD, FADDD, FUCOMI...): variable latency, and
	// flags from data.
	x87 = regexp.MustCompile(`^F[A-Z0-9]+$`)
	// What the scan cannot read as one instruction: raw bytes.
	rawBytes = regexp.MustCompile(`^(BYTE|WORD|LONG|QUAD)$`)
	// The general-purpose arithmetic and logic instructions, which set
	// the flags from their operands: with a memory operand, from memory,
	// which may hold the key or the data.
	gpFlags = regexp.MustCompile(`^(ADD|ADC|ADCX|ADOX|SUB|SBB|AND|ANDN|OR|XOR|CMP|TEST|BT[CRS]?|INC|DEC|NEG|NOT|SH[LR]|SA[LR]|RO[LR]|RC[LR]|MUL|IMUL|XADD|CMPXCHG|POPCNT|LZCNT|TZCNT|BS[FR])[BWLQ]?$`)
	// The instructions that may write a general-purpose register.
	gpWriters = map[string]bool{
		"MOVQ": true, "LEAQ": true, "ADDQ": true, "SUBQ": true, "ANDQ": true,
		"DECQ": true, "INCQ": true, "XORQ": true, "SHLQ": true, "SHRQ": true,
		"NEGQ":  true,
		"XCHGQ": true, // of two registers: one with memory is reported
	}
)

// memoryNotFrame reports whether the operand a addresses memory other than
// the argument frame.
func memoryNotFrame(a string) bool { return strings.Contains(a, "(") && !frameArg.MatchString(a) }

// Problems returns what breaks the rule of the package in the lines of
// one function (as Functions returns them), with the relaxations r.
func Problems(lines []string, r Rules) []string {
	var problems []string
	report := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	for _, line := range lines {
		if strings.ContainsAny(line, ";#") || strings.Contains(line, "/*") {
			report("not one instruction the scan can read: %s", line)
			continue
		}
		op, rest, _ := strings.Cut(line, " ")
		// The suffixes (.BCST, .Z, rounding) change no operand's role.
		op, _, _ = strings.Cut(op, ".")
		var args []string
		if rest = strings.TrimSpace(rest); rest != "" {
			for _, a := range strings.Split(rest, ",") {
				args = append(args, strings.TrimSpace(a))
			}
		}
		if index := scaledIndex.FindAllStringSubmatch(line, -1); index != nil || strings.Contains(line, ")(") {
			if !r.IndexRegisters || index == nil || slices.ContainsFunc(index, func(m []string) bool { return !gpReg.MatchString(m[1]) }) {
				report("indexed memory operand: %s", line)
				continue
			}
		}
		switch {
		case rawBytes.MatchString(op):
			report("raw bytes: %s", line)
		case len(args) > 0 && frameArg.MatchString(args[len(args)-1]) && !readsOnly.MatchString(op):
			report("writes the argument frame: %s", line)
		case x87.MatchString(op):
			report("x87 floating point: %s", line)
		case dataToFlagsOrAddress.MatchString(op):
			report("data into the flags or an address: %s", line)
		case variableLatency.MatchString(op):
			report("an instruction of variable latency: %s", line)
		case implicitWriters.MatchString(op):
			report("writes a general-purpose register or the flags from data: %s", line)
		case gpFlags.MatchString(op) && slices.ContainsFunc(args, memoryNotFrame):
			report("sets the flags from memory: %s", line)
		case strings.HasPrefix(op, "CALL"), op == "JMP" && len(args) == 1 && !labelName.MatchString(args[0]):
			report("%s", line)
		case strings.HasPrefix(op, "XCHG") && (len(args) != 2 || !gpReg.MatchString(args[0]) || !gpReg.MatchString(args[1])):
			report("%s exchanges a general-purpose register with memory", line)
		case len(args) > 0 && gpReg.MatchString(args[len(args)-1]) && !readsOnly.MatchString(op):
			if !gpWriters[op] && !(r.CMOV && cmov.MatchString(op)) {
				report("%s writes a general-purpose register", line)
				break
			}
			for _, a := range args[:len(args)-1] {
				public := gpReg.MatchString(a) || frameArg.MatchString(a) || immediate.MatchString(a) ||
					op == "LEAQ" && strings.Contains(a, "(")
				if !public {
					report("%s loads a general-purpose register from %s", line, a)
				}
			}
		}
	}
	if n := len(lines); !r.NoVZEROUPPER && (n < 2 || lines[n-1] != "RET" || lines[n-2] != "VZEROUPPER") {
		report("does not end with VZEROUPPER; RET")
	}
	return problems
}
