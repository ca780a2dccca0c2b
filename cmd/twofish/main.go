// Command twofish measures, describes, checks and uses the Twofish
// implementations of github.com/twofish-go/twofish on this machine.
//
// Usage:
//
//	twofish bench [-impl NAME|auto|ct|all] [-keysize 128,256] [-modes block,ecb,...,key] [-size 8192]
//	              [-duration 300ms] [-compare] [-sweep] [-format text|json|csv|gobench] [-svg FILE]
//	twofish info [-json]
//	twofish selftest [-full] [-impl NAME|auto|ct|all] [-seed N]
//	twofish seal [-in FILE|-] [-out FILE|-] [-key-file FILE | -passphrase-file FILE | -passphrase-env VAR] [flags]
//	twofish open [-in FILE|-] [-out FILE|-] [-key-file FILE | -passphrase-file FILE | -passphrase-env VAR] [flags]
//	twofish enc -mode MODE (-key HEX | -key-file FILE | -key-env VAR) [-iv HEX | -iv-file FILE] [-in FILE|-] [-out FILE|-] [flags]
//	twofish dec -mode MODE (-key HEX | -key-file FILE | -key-env VAR) [-iv HEX | -iv-file FILE] [-in FILE|-] [-out FILE|-] [flags]
//
// "bench" prints a table per implementation and key size in the style of
// libgcrypt's tests/bench-slope, a row per direction of each mode (single
// blocks, ECB, CBC, CFB, OFB, CTR, XTS of one sector and of 512-byte
// sectors, GCM, OCB, EAX) and one for key
// setup: nanoseconds per byte (the slope of time against buffer length, so
// per-call overhead drops out), MiB/s, and cycles per byte at the clock
// measured around each row. -compare adds
// golang.org/x/crypto/twofish and crypto/aes; -sweep adds the throughput
// of one call on messages of 16 bytes to 1 MiB; -format writes JSON, CSV or
// the Go benchmark format that benchstat reads; -svg draws charts.
//
// "info" lists the implementations compiled in and the one NewCipher
// selects, and why.
//
// "selftest" runs the official Twofish known-answer and Monte Carlo tests,
// embedded in the binary, through each implementation's widest kernel (the
// Monte Carlo tests shortened to the first 10 records of each key size
// unless -full), and compares each implementation's modes with generic's
// on random data. It prints a line per implementation and exits with
// status 1 if any fails.
//
// "seal" encrypts and authenticates a file of any size with a passphrase
// (Argon2id) or a key file, in chunks sealed with Twofish-GCM or -OCB
// (FORMAT.md), in constant memory and on all cores; "open" checks and
// decrypts it, detecting any change, truncation or reordering.
//
// "enc" and "dec" encrypt and decrypt a file or stream in a raw mode (ecb,
// cbc, cfb, ofb, ctr, xts, and the authenticated gcm and ocb, which hold
// one message in memory), in constant memory otherwise and, for the
// parallel modes, on all cores, writing an output file only when all went
// well. "twofish enc -h" tells the details.
//
// Run "twofish help COMMAND" or "twofish COMMAND -h" for a command's flags
// ("help" on standard output with status 0). Failures exit with status
// 1, usage errors with status 2, and seal, open, enc and dec interrupted by
// a signal with 128 plus its number (130 for Ctrl-C).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
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
	{"bench", "measure the speed of each implementation in every mode (bench-slope style)", runBench},
	{"info", "list the implementations and the one NewCipher selects", runInfo},
	{"selftest", "check every implementation against the official test vectors and generic", runSelftest},
	{"seal", "encrypt and authenticate a file with a passphrase or key (Argon2id, Twofish-GCM/OCB)", runSeal},
	{"open", "check and decrypt a file made by seal", runOpen},
	{"enc", "encrypt a file or stream in a raw mode (ecb, cbc, cfb, ofb, ctr, xts, gcm, ocb)", runEnc},
	{"dec", "decrypt a file or stream in a raw mode", runDec},
}

func main() {
	// The last resort: a bug shows as one line, not a stack trace.
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintln(os.Stderr, "twofish: internal error:", p)
			os.Exit(exitFailure)
		}
	}()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the tool with the command-line arguments args (without the
// program name) and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("twofish", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { usage(stderr) }
	version := fs.Bool("version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if *version {
		fmt.Fprintln(stdout, versionLine(debug.ReadBuildInfo()))
		return exitOK
	}
	if fs.NArg() == 0 {
		usage(stderr)
		return exitUsage
	}
	if fs.Arg(0) == "help" {
		return help(fs.Args()[1:], stdout, stderr)
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

// versionLine is what -version prints: the module's version (a tag, a
// pseudo-version, or "(devel)" for a build from a checkout, with the first
// 12 digits of the commit where the build recorded it) and the Go toolchain
// and platform. It takes debug.ReadBuildInfo's results.
func versionLine(bi *debug.BuildInfo, ok bool) string {
	v := "(unknown)"
	if ok {
		v = bi.Main.Version
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " " + s.Value[:12]
			}
		}
	}
	return fmt.Sprintf("twofish %s, %s %s/%s", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// usage prints the tool's usage message to w.
func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: twofish [-version] COMMAND [flags]")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun \"twofish help COMMAND\" or \"twofish COMMAND -h\" for a command's flags.")
}

// help runs "twofish help [COMMAND]": the usage message, or COMMAND's, on
// stdout, and status 0, where -h is a usage error on stderr.
func help(args []string, stdout, stderr io.Writer) int {
	switch len(args) {
	case 0:
		usage(stdout)
		return exitOK
	case 1:
		for _, c := range commands {
			if c.name == args[0] {
				if status := c.run([]string{"-h"}, stdout, stdout); status != exitUsage {
					return status
				}
				return exitOK
			}
		}
		fmt.Fprintf(stderr, "twofish help: unknown command %q\n", args[0])
	default:
		fmt.Fprintln(stderr, "twofish help: one command at most")
	}
	usage(stderr)
	return exitUsage
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
