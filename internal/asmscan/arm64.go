package asmscan

import (
	"regexp"
	"strconv"
	"strings"
)

var (
	arm64Indexed = regexp.MustCompile(`\(R\d+\)\(R\d+`)
	// The general-purpose registers, by number and by the assembler's
	// other names for them.
	arm64Regs = regexp.MustCompile(`\b(R\d+|g|LR|R18_PLATFORM|RSP|ZR)\b`)
	arm64GPR  = regexp.MustCompile(`^(R\d+|g|LR|R18_PLATFORM|RSP|ZR)$`)
	arm64Vec  = regexp.MustCompile(`\b[VF]\d+`)
	// A load of a pair of general-purpose registers: LDP (R0), (R1, R2).
	arm64PairLoad = regexp.MustCompile(`^(LDP|LDPW|LDPSW|LDNP|LDNPW|LDAXP|LDAXPW|LDXP|LDXPW)(\.[PW])?$`)
	// Instructions that set the flags or branch or select on a register.
	arm64Flags = map[string]bool{
		"CMP": true, "CMPW": true, "CMN": true, "CMNW": true, "SUBS": true, "SUBSW": true,
		"ADDS": true, "ADDSW": true, "ADCS": true, "ADCSW": true, "SBCS": true, "SBCSW": true,
		"NEGS": true, "NEGSW": true, "ANDS": true, "ANDSW": true, "BICS": true, "BICSW": true,
		"TST": true, "TSTW": true, "CCMP": true, "CCMPW": true, "CCMN": true, "CCMNW": true,
		"CBZ": true, "CBNZ": true, "CBZW": true, "CBNZW": true, "TBZ": true, "TBNZ": true,
		"CSEL": true, "CSELW": true, "CSINC": true, "CSINCW": true, "CSINV": true, "CSINVW": true,
		"CSNEG": true, "CSNEGW": true, "CSET": true, "CSETW": true, "CSETM": true, "CSETMW": true,
	}
	// Instructions that set the flags from floating-point data, and those
	// whose latency depends on their operands (division, square root).
	arm64DataFlagsOrLatency = regexp.MustCompile(`^(FCMP|FCMPE|FCCMP|FCCMPE)[SD]?$|^(UDIV|SDIV)W?$|^F(DIV|SQRT)[SD]$`)
	// Instructions that write general-purpose registers from the machine
	// or from memory without naming it last: a system register (MRS; the
	// FPSR's bits can come from data), compare-and-swap of a pair.
	arm64ImplicitLoads = regexp.MustCompile(`^(MRS|CASP[DW]?|CASPAL?[DW]?|CASPL[DW]?)$`)
)

// ARM64Problems returns what in the lines of Go arm64 assembly could make
// their time depend on data: a memory operand with an index register; an
// instruction that sets the flags, branches or selects on a register other
// than the block count R3, or that sets the flags from floating-point
// data; a general-purpose register loaded from memory (other than the
// argument frame and the program's read-only constants, name<>) or from a
// vector register, which could then become an address or a branch
// condition; a division or square root; a call, a branch to a symbol or a
// register, or a return through one. It reads the assembly as the
// generators write it, one instruction a line: a line with more (a
// semicolon, a block comment), a preprocessor line or raw bytes (WORD) is a
// problem in itself. Each problem names its line (1-based).
func ARM64Problems(lines []string) []string {
	var problems []string
	for i, line := range lines {
		if j := strings.Index(line, "//"); j >= 0 {
			line = line[:j]
		}
		fields := strings.Fields(strings.ReplaceAll(line, ",", " "))
		// A label may share its line with an instruction, which the
		// assembler assembles: the instruction is read.
		if len(fields) > 0 && strings.HasSuffix(fields[0], ":") {
			fields = fields[1:]
		}
		if len(fields) == 0 {
			continue
		}
		op, args := fields[0], fields[1:]
		report := func(what string) {
			problems = append(problems, strings.TrimSpace(line)+": "+what+" (line "+strconv.Itoa(i+1)+")")
		}
		if strings.HasPrefix(op, "TEXT") || op == "DATA" || op == "GLOBL" || op == "#include" && len(args) == 1 {
			continue
		}
		if strings.ContainsAny(line, ";#") || strings.Contains(line, "/*") || op == "WORD" || op == "BYTE" || op == "DWORD" {
			report("not one instruction the scan can read")
			continue
		}
		switch {
		case op == "BL" || op == "CALL" || op == "BLR",
			(op == "B" || op == "JMP" || op == "BR") && len(args) == 1 && (strings.Contains(args[0], "(") || arm64GPR.MatchString(args[0])),
			op == "RET" && len(args) > 0:
			report("a call, or a branch to a symbol or a register")
		case arm64ImplicitLoads.MatchString(op):
			report("a general-purpose register loaded from the machine or from memory")
		}
		if arm64Indexed.MatchString(line) {
			report("a memory operand with an index register")
		}
		if arm64Flags[op] {
			for _, r := range arm64Regs.FindAllString(line, -1) {
				if r != "R3" {
					report("a flag or branch that reads " + r)
				}
			}
		}
		if arm64DataFlagsOrLatency.MatchString(op) {
			report("flags from floating-point data, or a variable latency")
		}
		if arm64PairLoad.MatchString(op) && len(args) >= 2 && !strings.Contains(args[0], "(FP)") && !strings.Contains(args[0], "<>(SB)") &&
			arm64Regs.MatchString(strings.Join(args[1:], " ")) {
			report("a general-purpose register loaded from memory")
		}
		if len(args) >= 2 && arm64GPR.MatchString(args[len(args)-1]) {
			src := strings.Join(args[:len(args)-1], " ")
			switch {
			case strings.Contains(src, "(") && !strings.HasPrefix(src, "$") && !strings.Contains(src, "(FP)") && !strings.Contains(src, "<>(SB)"):
				report("a general-purpose register loaded from memory")
			case arm64Vec.MatchString(src):
				report("a general-purpose register loaded from a vector register")
			}
		}
	}
	return problems
}
