package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/twofish-go/twofish"
)

// runInfo implements "twofish info": a line per implementation compiled
// into this build, then the one NewCipher selects and why.
func runInfo(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("info", "", stderr)
	if !parseFlags(fs, args) {
		return exitUsage
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "implementation\tblocks\tconstant-time\tsupported")
	for _, im := range twofish.Implementations() {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", im.Name, im.Blocks, yesNo(im.ConstantTime), yesNo(im.Supported))
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintln(stderr, "twofish info:", err)
		return exitFailure
	}
	fmt.Fprintln(stdout, selected())
	return exitOK
}

// selected says which implementation NewCipher selects in this process, and
// why.
func selected() string {
	name, reason := twofish.AutoImplementation()
	return "NewCipher selects " + name + ": " + reason
}

// yesNo spells b for a table.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
