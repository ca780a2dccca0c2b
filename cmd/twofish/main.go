// Command twofish measures and describes the Twofish implementations of
// github.com/twofish-go/twofish on this machine.
//
// Usage:
//
//	twofish bench [-impl NAME|auto|all] [-keysize 128,256] [-size 8192] [-duration 300ms] [-compare]
//	twofish info
//
// "bench" prints a table per implementation and key size in the style of
// libgcrypt's tests/bench-slope: nanoseconds per byte (the slope of time
// against buffer length, so per-call overhead drops out), MiB/s, and cycles
// per byte at the clock measured around each row. "info" lists the
// implementations compiled in and the one NewCipher selects.
//
// Run "twofish COMMAND -h" for a command's flags. Usage errors exit with
// status 2.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1 // the command could not do its work
	exitUsage   = 2 // bad command line
)

// command is one subcommand of the tool.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands lists the subcommands in the order the usage message shows them.
var commands = []command{
	{"bench", "measure ECB, CBC and CTR speed of each implementation (bench-slope style)", runBench},
	{"info", "list the implementations and the one NewCipher selects", runInfo},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the tool with the command-line arguments args (without the
// program name) and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("twofish", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { usage(stderr) }
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() == 0 {
		usage(stderr)
		return exitUsage
	}
	for _, c := range commands {
		if c.name == fs.Arg(0) {
			return c.run(fs.Args()[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "twofish: unknown command %q\n", fs.Arg(0))
	usage(stderr)
	return exitUsage
}

// usage prints the tool's usage message to w.
func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: twofish COMMAND [flags]")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-6s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun \"twofish COMMAND -h\" for a command's flags.")
}

// newFlagSet returns a flag set for the subcommand name that reports errors
// and its usage message, headed "usage: twofish name synopsis", to stderr.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("twofish "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: twofish %s%s\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args with fs and reports whether they are valid: a bad
// flag, -h and arguments after the flags are usage errors, for which fs has
// printed its usage message.
func parseFlags(fs *flag.FlagSet, args []string) bool {
	if err := fs.Parse(args); err != nil {
		return false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		fs.Usage()
		return false
	}
	return true
}
