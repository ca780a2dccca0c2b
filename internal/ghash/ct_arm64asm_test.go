package ghash

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestPMULLAssemblyIsConstantTime reads ghash_arm64.s and checks, on any
// architecture, what makes it constant-time: no memory operand has an
// index register (every address is a pointer argument plus a constant),
// and every instruction that sets the flags or branches on a register
// reads only the block count, R3.
func TestPMULLAssemblyIsConstantTime(t *testing.T) {
	data, err := os.ReadFile("ghash_arm64.s")
	if err != nil {
		t.Fatal(err)
	}
	indexed := regexp.MustCompile(`\(R\d+\)\(R\d+`)
	regs := regexp.MustCompile(`\bR\d+\b`)
	checked := 0
	for i, line := range strings.Split(string(data), "\n") {
		if j := strings.Index(line, "//"); j >= 0 {
			line = line[:j]
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if indexed.MatchString(line) {
			t.Errorf("ghash_arm64.s:%d indexes memory with a register: %s", i+1, strings.TrimSpace(line))
		}
		switch op := fields[0]; op {
		case "CMP", "CMPW", "SUBS", "SUBSW", "ADDS", "ADDSW", "ANDS", "ANDSW", "TST", "TSTW",
			"CBZ", "CBNZ", "CBZW", "CBNZW", "TBZ", "TBNZ", "CSEL", "CSELW":
			checked++
			for _, r := range regs.FindAllString(line, -1) {
				if r != "R3" {
					t.Errorf("ghash_arm64.s:%d %s reads %s, not the count: %s", i+1, op, r, strings.TrimSpace(line))
				}
			}
		}
	}
	if checked == 0 {
		t.Error("ghash_arm64.s has no count checks: is it the file this test expects?")
	}
}
