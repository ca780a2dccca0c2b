package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twofish-go/twofish"
	"github.com/twofish-go/twofish/internal/cpuclock"
)

// minSize and maxSize bound -size. A fit times lengths from an eighth of
// -size up, and the widest kernels take 64 blocks (1 KiB) a call, so below
// 8 KiB the shorter lengths cost as much as the longer ones and the slope
// comes out near zero: avx512-vbmi's CBC decryption read 0.129 ns/B at
// -size 128, 0.260 at 1024 and 0.359 at 8192 (Zen 5). maxSize keeps a typo
// from asking for gigabytes.
const (
	minSize = 8 << 10
	maxSize = 64 << 20
)

// sweepSizes are the message sizes of -sweep: 16 bytes to 1 MiB in powers
// of 4.
var sweepSizes = []int{16, 64, 256, 1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20}

// sweepShare is the share of -duration that -sweep spends on each size of
// each row, so that a sweep of a row costs about as much as its table row.
const sweepShare = 8

// benchConfig is what the bench command line asks for.
type benchConfig struct {
	impls    []string      // Twofish implementations to measure, all supported
	skipped  []string      // with -impl all, those this CPU cannot run
	keySizes []int         // in bits
	modes    []string      // modes of the rows, from benchModes
	size     int           // the longest buffer, in bytes
	duration time.Duration // time to spend on each row
	compare  bool          // add x/crypto/twofish and crypto/aes tables
	sweep    bool          // add the throughput of each row for sweepSizes
	format   string        // text, json, csv or gobench
	svg      string        // file to write charts to, "" for none
}

// runBench implements "twofish bench": the header, then a table per target
// on stdout as each is measured, then with -sweep the sweep, with progress
// on stderr, and with -svg the charts.
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
	out := &errWriter{w: stdout}
	rep := newReporter(cfg.format, out)
	name, reason := twofish.AutoImplementation()
	def, _ := paths()
	h := benchHeader{
		CPU: cpuName(), Go: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		Auto: name, Reason: reason, Paths: toPathsJSON(def), Skipped: cfg.skipped,
	}
	for _, t := range targets {
		h.width = max(h.width, len(t.label))
	}
	rep.header(h)

	var results []result
	buf := make([]byte, cfg.size)
	for i, t := range targets {
		fmt.Fprintf(stderr, "twofish bench: [%d/%d] %s\n", i+1, len(targets), t.label)
		rep.beginTable(t)
		for _, r := range t.rows {
			m := measureRow(r.op, buf, cfg.duration)
			res := newResult(t, r, cfg.size, "slope", m)
			results = append(results, res)
			rep.result(res)
		}
		rep.endTable()
	}
	if cfg.sweep {
		buf := make([]byte, sweepSizes[len(sweepSizes)-1])
		for i, t := range targets {
			fmt.Fprintf(stderr, "twofish bench: sweep [%d/%d] %s\n", i+1, len(targets), t.label)
			for _, r := range t.rows {
				if r.mode == "KEY" {
					continue // a key's cost does not depend on a message's size
				}
				for _, size := range sweepSizes {
					m := measureCall(r.op, buf[:size], cfg.duration/sweepShare)
					res := newResult(t, r, size, "call", m)
					results = append(results, res)
					rep.result(res)
				}
			}
		}
	}
	if err := rep.finish(); err != nil {
		fmt.Fprintln(stderr, "twofish bench:", err)
		return exitFailure
	}
	if out.err != nil {
		fmt.Fprintln(stderr, "twofish bench: writing the results:", out.err)
		return exitFailure
	}
	if cfg.svg != "" {
		if err := writeSVG(cfg.svg, h, targets, results, stderr); err != nil {
			fmt.Fprintln(stderr, "twofish bench:", err)
			return exitFailure
		}
	}
	return exitOK
}

// A measurement is what measureRow or measureCall found.
type measurement struct {
	ns    float64 // nanoseconds per byte
	mhz   float64 // clock, 0 if this build cannot measure it
	loops int     // calls of the operation per timing
}

// benchClock times every measurement of bench, and benchMHz measures the
// clock beside them: timeLoops and cpuclock.MHz, or in the tests a model of
// each, so that what they check of a table does not depend on the
// machine's speed or load.
var (
	benchClock timer = timeLoops
	benchMHz         = cpuclock.MHz
)

// measureRow returns what op costs in nanoseconds per byte on buffers of up
// to len(buf) bytes, the median of slopeFits fits in about d, and the clock
// in MHz, the median of measurements before and after each fit, which is
// how bench-slope's "auto Mhz" brackets its measurements; 0 if this build
// cannot measure the clock.
func measureRow(op func(buf []byte), buf []byte, d time.Duration) measurement {
	// Stay on one thread, and so most likely on one core, so that the
	// clock is measured where the work runs.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	s := newSlope(op, buf, d, benchClock)
	fits := make([]float64, slopeFits)
	clocks := []float64{benchMHz()}
	for i := range fits {
		fits[i] = s.fit()
		clocks = append(clocks, benchMHz())
	}
	return measurement{median(fits), median(clocks), s.loops}
}

// measureCall returns what one call of op on all of buf costs per byte,
// the median of slopeFits timings in about d, and the clock as measureRow
// does. Unlike the slope, the cost includes the cost per call, which is the
// point of a sweep over message sizes.
func measureCall(op func(buf []byte), buf []byte, d time.Duration) measurement {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	loops := calibrate(op, buf, d/time.Duration(slopeFits), benchClock)
	times := make([]float64, slopeFits)
	clocks := []float64{benchMHz()}
	for i := range times {
		times[i] = float64(benchClock(op, buf, loops)) / float64(loops) / float64(len(buf))
		clocks = append(clocks, benchMHz())
	}
	return measurement{median(times), median(clocks), loops}
}

// parseBench parses the bench command line. When it reports false, it has
// printed why, and the usage message, to stderr.
func parseBench(args []string, stderr io.Writer) (*benchConfig, bool) {
	fs := newFlagSet("bench", " [flags]", stderr)
	impl := fs.String("impl", "all", "measure the Twofish implementations `names`, comma-separated: those \"twofish info\" lists, auto (NewCipher's kernels for each shape), ct (NewCipherConstantTime's), or all (auto, ct and every one this CPU runs)")
	keySizes := fs.String("keysize", "128,256", "comma-separated key `sizes` in bits: 128, 192 or 256")
	modes := fs.String("modes", "block,ecb,cbc,cfb,ofb,ctr,xts,xts512,gcm,ocb,eax,key", "comma-separated `modes` to measure, each encrypting and decrypting (and authenticating only, gcm and ocb); block is Encrypt and Decrypt one block at a time, each output the next input; xts takes the buffer as one sector, xts512 as consecutive sectors of 512 bytes (EncryptSectors; x/crypto/xts one sector at a time); key is key setup, a new Cipher from each key-sized piece of the buffer in turn, per byte of key")
	cfg := &benchConfig{}
	fs.IntVar(&cfg.size, "size", minSize, "longest buffer in `bytes`, a multiple of 16 from 8192 to 64 MiB; each fit also times 7 shorter ones, down to an eighth of it (-sweep measures shorter messages)")
	fs.DurationVar(&cfg.duration, "duration", 300*time.Millisecond, "time to spend measuring each row")
	fs.BoolVar(&cfg.compare, "compare", false, "add tables for golang.org/x/crypto/twofish and crypto/aes: their blocks through crypto/cipher's CBC, CFB, OFB, CTR and GCM and x/crypto/xts, and for ECB, OCB and EAX, which neither library has, through a loop of single blocks and this package's OCB and EAX")
	fs.BoolVar(&cfg.sweep, "sweep", false, "also measure each row but key setup on messages of 16 B to 1 MiB (powers of 4), per call rather than by slope, so the cost per call shows")
	fs.StringVar(&cfg.format, "format", "text", "output `format`: text (bench-slope tables), json, csv or gobench (the Go benchmark format, for benchstat)")
	fs.StringVar(&cfg.svg, "svg", "", "also write charts to `file`: MiB/s of each mode and target, and with -sweep MiB/s against message size")
	if !parseFlags(fs, args) {
		return nil, false
	}
	var err error
	cfg.impls, cfg.skipped, err = selectImpls(*impl)
	if err == nil {
		cfg.keySizes, err = parseKeySizes(*keySizes)
	}
	if err == nil {
		cfg.modes, err = parseModes(*modes)
	}
	if err == nil && (cfg.size < minSize || cfg.size > maxSize || cfg.size%16 != 0) {
		err = fmt.Errorf("-size %d: want a multiple of 16 from %d to %d", cfg.size, minSize, maxSize)
	}
	if err == nil && cfg.duration <= 0 {
		err = fmt.Errorf("-duration %v: want more than 0", cfg.duration)
	}
	if err == nil && newReporter(cfg.format, io.Discard) == nil {
		err = fmt.Errorf("-format %q: want text, json, csv or gobench", cfg.format)
	}
	if err == nil && cfg.svg != "" {
		err = checkCreatable(cfg.svg)
	}
	if err != nil {
		fmt.Fprintln(stderr, "twofish bench:", err)
		fs.Usage()
		return nil, false
	}
	return cfg, true
}

// checkCreatable reports an error if the charts cannot go to the file
// name: it is "-", standard output, which takes the results, or something
// other than a regular file (a directory; a device or pipe, such as
// /dev/stdout, where the chart would follow the results), or its directory
// does not exist or takes no new file (the chart is written under a
// temporary name there and renamed). It leaves name as it is, so that a bad
// -svg fails before minutes of measuring rather than after.
func checkCreatable(name string) error {
	if name == "-" {
		return errors.New("-svg -: standard output takes the results; name a file for the charts")
	}
	if fi, err := os.Stat(name); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("-svg %s: not a regular file", name)
	}
	dir := filepath.Dir(name)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("-svg %s: no directory %s", name, dir)
	}
	f, err := os.CreateTemp(dir, ".twofish-bench-*.tmp")
	if err != nil {
		return fmt.Errorf("-svg %s: cannot create a file in %s", name, dir)
	}
	f.Close()
	return os.Remove(f.Name())
}

// selectImpls turns the -impl flag into the implementations to measure
// and, for "all", those skipped because this CPU cannot run them.
func selectImpls(spec string) (impls, skipped []string, err error) {
	all := twofish.Implementations()
	switch spec {
	case "all":
		impls = []string{"auto", "ct"}
		for _, im := range all {
			if im.Supported {
				impls = append(impls, im.Name)
			} else {
				skipped = append(skipped, im.Name)
			}
		}
		return impls, skipped, nil
	}
	names := make([]string, len(all))
	for i, im := range all {
		names[i] = im.Name
	}
	for _, name := range strings.Split(spec, ",") {
		name = strings.TrimSpace(name)
		i := slices.Index(names, name)
		switch {
		case name == "auto" || name == "ct":
		case i < 0:
			return nil, nil, fmt.Errorf("-impl %q: unknown implementation; this build has %s", name, strings.Join(names, ", "))
		case !all[i].Supported:
			return nil, nil, fmt.Errorf("-impl %s: not supported on this CPU", name)
		}
		if !slices.Contains(impls, name) {
			impls = append(impls, name)
		}
	}
	return impls, nil, nil
}

// parseKeySizes parses the -keysize flag, a comma-separated list of key
// sizes in bits, each kept once, as -impl and -modes keep theirs.
func parseKeySizes(spec string) ([]int, error) {
	var sizes []int
	for _, field := range strings.Split(spec, ",") {
		bits, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil || (bits != 128 && bits != 192 && bits != 256) {
			return nil, errors.New("-keysize " + strconv.Quote(spec) + ": want key sizes 128, 192 or 256 separated by commas")
		}
		if !slices.Contains(sizes, bits) {
			sizes = append(sizes, bits)
		}
	}
	return sizes, nil
}

// An errWriter writes to w and keeps the first error. The text and gobench
// reporters write with fmt.Fprint, which drops errors, so without it bench
// exited with status 0 when its results went nowhere (a full disk, a
// closed pipe), where json and csv fail.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(b []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(b)
	e.err = err
	return n, err
}
