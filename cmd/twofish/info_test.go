package main

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/twofish-go/twofish"
)

// TestInfo checks that info has a header, a line per implementation and a
// last line naming the one NewCipher selects.
func TestInfo(t *testing.T) {
	status, stdout, stderr := runTool(t, "info")
	if status != exitOK || stderr != "" {
		t.Fatalf("twofish info: exit status %d, stderr:\n%s", status, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	impls := twofish.Implementations()
	if len(lines) != len(impls)+2 {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(impls)+2, stdout)
	}
	if got := strings.Fields(lines[0]); strings.Join(got, " ") != "implementation blocks constant-time supported" {
		t.Errorf("header %q", lines[0])
	}
	for i, im := range impls {
		want := []string{im.Name, strconv.Itoa(im.Blocks), yesNo(im.ConstantTime), yesNo(im.Supported)}
		if got := strings.Fields(lines[i+1]); !slices.Equal(got, want) {
			t.Errorf("line %d: got %q, want fields %q", i+1, lines[i+1], want)
		}
	}
	name, reason := twofish.AutoImplementation()
	if want := "NewCipher selects " + name + ": " + reason; lines[len(lines)-1] != want {
		t.Errorf("last line %q, want %q", lines[len(lines)-1], want)
	}
}
