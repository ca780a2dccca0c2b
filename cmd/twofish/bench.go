package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/twofish-go/twofish"
	"github.com/twofish-go/twofish/internal/cpuclock"
)

// maxSize bounds -size, so that a typo cannot ask for gigabytes.
const maxSize = 64 << 20

// benchConfig is what the bench command line asks for.
type benchConfig struct {
	impls    []string      // Twofish implementations to measure, all supported
	skipped  []string      // with -impl all, those this CPU cannot run
	keySizes []int         // in bits
	size     int           // the longest buffer, in bytes
	duration time.Duration // time to spend on each row
	compare  bool          // add x/crypto/twofish and crypto/aes tables
}

// runBench implements "twofish bench": the header, then a table per
// target on stdout as each is measured, with progress on stderr.
func runBench(args []string, stdout, stderr io.Writer) int {
	cfg, ok := parseBench(args, stderr)
	if !ok {
		return exitUsage
	}
	targets, err := cfg.targets()
	if err != nil {
		fmt.Fprintln(stderr, "twofish bench:", err)
		return exitFailure
	}

	fmt.Fprintln(stdout, "cpu:", cpuName())
	fmt.Fprintln(stdout, "go:", runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH)
	fmt.Fprintln(stdout, selected())
	for _, name := range cfg.skipped {
		fmt.Fprintf(stdout, "skipped: %s (not supported on this CPU)\n", name)
	}

	width := 0
	for _, t := range targets {
		width = max(width, len(t.label))
	}
	buf := make([]byte, cfg.size)
	for i, t := range targets {
		fmt.Fprintf(stderr, "twofish bench: [%d/%d] %s\n", i+1, len(targets), t.label)
		fmt.Fprintln(stdout)
		printHeader(stdout, width, t.label)
		for _, r := range t.rows {
			ns, mhz := measureRow(r.op, buf, cfg.duration)
			printRow(stdout, width, r.name, ns, mhz)
		}
		printFooter(stdout, width)
	}
	return exitOK
}

// measureRow returns what op costs in nanoseconds per byte on buffers of up
// to len(buf) bytes, the median of slopeFits fits in about d, and the clock
// in MHz, the median of measurements before and after each fit, which is
// how bench-slope's "auto Mhz" brackets its measurements; 0 if this build
// cannot measure the clock.
func measureRow(op func(buf []byte), buf []byte, d time.Duration) (ns, mhz float64) {
	// Stay on one thread, and so most likely on one core, so that the
	// clock is measured where the work runs.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	s := newSlope(op, buf, d)
	fits := make([]float64, slopeFits)
	clocks := []float64{cpuclock.MHz()}
	for i := range fits {
		fits[i] = s.fit()
		clocks = append(clocks, cpuclock.MHz())
	}
	return median(fits), median(clocks)
}

// parseBench parses the bench command line. When it reports false, it has
// printed why, and the usage message, to stderr.
func parseBench(args []string, stderr io.Writer) (*benchConfig, bool) {
	fs := newFlagSet("bench", " [flags]", stderr)
	impl := fs.String("impl", "all", "measure the Twofish implementation `name` (one that \"twofish info\" lists), auto (the one NewCipher selects) or all")
	keySizes := fs.String("keysize", "128,256", "comma-separated key `sizes` in bits: 128, 192 or 256")
	cfg := &benchConfig{}
	fs.IntVar(&cfg.size, "size", 8192, "longest buffer in `bytes`, a multiple of 16 from 128; each fit also times 7 shorter ones")
	fs.DurationVar(&cfg.duration, "duration", 300*time.Millisecond, "time to spend measuring each row")
	fs.BoolVar(&cfg.compare, "compare", false, "add tables for golang.org/x/crypto/twofish and crypto/aes through crypto/cipher")
	if !parseFlags(fs, args) {
		return nil, false
	}
	var err error
	cfg.impls, cfg.skipped, err = selectImpls(*impl)
	if err == nil {
		cfg.keySizes, err = parseKeySizes(*keySizes)
	}
	if err == nil && (cfg.size < 128 || cfg.size > maxSize || cfg.size%16 != 0) {
		err = fmt.Errorf("-size %d: want a multiple of 16 from 128 to %d", cfg.size, maxSize)
	}
	if err == nil && cfg.duration <= 0 {
		err = fmt.Errorf("-duration %v: want more than 0", cfg.duration)
	}
	if err != nil {
		fmt.Fprintln(stderr, "twofish bench:", err)
		fs.Usage()
		return nil, false
	}
	return cfg, true
}

// selectImpls turns the -impl flag into the implementations to measure
// and, for "all", those skipped because this CPU cannot run them.
func selectImpls(spec string) (impls, skipped []string, err error) {
	all := twofish.Implementations()
	switch spec {
	case "all":
		for _, im := range all {
			if im.Supported {
				impls = append(impls, im.Name)
			} else {
				skipped = append(skipped, im.Name)
			}
		}
		return impls, skipped, nil
	case "auto":
		name, _ := twofish.AutoImplementation()
		return []string{name}, nil, nil
	}
	names := make([]string, len(all))
	for i, im := range all {
		if im.Name == spec {
			if !im.Supported {
				return nil, nil, fmt.Errorf("-impl %s: not supported on this CPU", spec)
			}
			return []string{spec}, nil, nil
		}
		names[i] = im.Name
	}
	return nil, nil, fmt.Errorf("-impl %q: unknown implementation; this build has %s", spec, strings.Join(names, ", "))
}

// parseKeySizes parses the -keysize flag, a comma-separated list of key
// sizes in bits.
func parseKeySizes(spec string) ([]int, error) {
	var sizes []int
	for _, field := range strings.Split(spec, ",") {
		bits, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil || (bits != 128 && bits != 192 && bits != 256) {
			return nil, errors.New("-keysize " + strconv.Quote(spec) + ": want key sizes 128, 192 or 256 separated by commas")
		}
		sizes = append(sizes, bits)
	}
	return sizes, nil
}
