package a64

import (
	"strings"
	"testing"
)

// TestCheck runs Check on lines that keep the arm64 generators' rules and
// on lines that each break one.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		line string
		want string // in Check's error; "" for none
	}{
		{"TEXT ·kernel(SB), NOSPLIT, $0-32", ""},
		{"\tVEOR     V0.B16, V1.B16, V2.B16", ""},
		{"\tMOVD     R17, R25", ""},
		{"\tADD      R1, R2 // R29 in a comment is no use of it", ""},
		{"\tMOVWU    (R0)(R3<<2), R4", ""},
		{"TEXT ·kernel(SB), NOSPLIT, $16-32", "gives a function a frame"},
		{"TEXT ·kernel(SB), NOSPLIT|NOFRAME, $8-8", "gives a function a frame"},
	} {
		check(t, tc.line, tc.want)
	}
	for _, r := range []string{"R18", "R26", "R27", "R28", "R29", "R30", "RSP", "g", "LR"} {
		check(t, "\tMOVD     "+r+", R0", "names "+r)
		check(t, "\tMOVD     $1, "+r, "names "+r)
		check(t, "\tMOVD     8("+r+"), R0", "names "+r)
	}
}

func check(t *testing.T, line, want string) {
	t.Helper()
	src := "// Code generated. DO NOT EDIT.\n\n#include \"textflag.h\"\n" + line + "\n\tRET\n"
	err := Check([]byte(src))
	switch {
	case want == "" && err != nil:
		t.Errorf("Check refused %q: %v", line, err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("Check(%q) = %v, want an error that says %q", line, err, want)
	case want != "" && !strings.Contains(err.Error(), "line 4"):
		t.Errorf("Check(%q) = %v, want it to name line 4", line, err)
	}
}
