package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// A result is one measurement of one row of a target, as -format json and
// csv write it.
type result struct {
	Cipher string `json:"cipher"`   // "Twofish" or "AES"
	Impl   string `json:"impl"`     // "generic", "xcrypto", "crypto/aes", ...
	Key    int    `json:"key_bits"` // key size; XTS keys are twice as long
	Mode   string `json:"mode"`     // "ECB", ..., "XTS"
	Dir    string `json:"dir"`      // "enc" or "dec"
	Size   int    `json:"size"`     // bytes: the longest buffer, or the message size
	// Method is "slope" for the tables (the slope of time against buffer
	// length up to Size, without the cost per call) and "call" for -sweep
	// (the time of one call on Size bytes, divided by Size).
	Method string `json:"method"`
	// NsPerByte is what was measured. A slope that is not positive, which
	// only noise makes (a fit's shorter lengths timed slower than its
	// longer ones), is a failed measurement: MiBPerSec is 0 and CPerByte
	// null then, the text table shows "-" and -format gobench leaves the
	// result out.
	NsPerByte float64  `json:"ns_per_byte"`
	MiBPerSec float64  `json:"mib_per_s"`
	CPerByte  *float64 `json:"cycles_per_byte"` // null if the clock cannot be measured or the measurement failed
	MHz       *float64 `json:"mhz"`             // null if the clock cannot be measured
	Calls     int      `json:"calls"`           // calls per timing
}

// newResult returns the result of measuring r of t with m.
func newResult(t target, r row, size int, method string, m measurement) result {
	res := result{
		Cipher: t.cipher, Impl: t.impl, Key: t.bits, Mode: r.mode, Dir: r.dir, Size: size, Method: method,
		NsPerByte: m.ns, Calls: m.loops,
	}
	if m.mhz > 0 {
		mhz := m.mhz
		res.MHz = &mhz
	}
	if m.ns > 0 {
		res.MiBPerSec = 1e9 / (m.ns * (1 << 20))
		if m.mhz > 0 {
			c := m.ns * m.mhz / 1000
			res.CPerByte = &c
		}
	}
	return res
}

// benchHeader is what bench says about the machine before its results.
type benchHeader struct {
	CPU     string    `json:"cpu"`
	Go      string    `json:"go"`
	GOOS    string    `json:"goos"`
	GOARCH  string    `json:"goarch"`
	Auto    string    `json:"auto"`        // the implementation of NewCipher's long runs
	Reason  string    `json:"auto_reason"` // and why
	Paths   pathsJSON `json:"auto_paths"`  // NewCipher's implementation of each shape
	Skipped []string  `json:"skipped"`     // implementations this CPU cannot run
	width   int       // of the widest table label, so text tables line up
}

// A reporter writes bench's output in one format. header comes first; a
// table's results come between beginTable and endTable, the sweep's after
// the last table; finish ends the output.
type reporter interface {
	header(h benchHeader)
	beginTable(t target)
	result(r result)
	endTable()
	finish() error
}

// newReporter returns a reporter of format writing to w, or nil if there is
// no such format.
func newReporter(format string, w io.Writer) reporter {
	switch format {
	case "text":
		return &textReporter{w: w}
	case "json":
		return &jsonReporter{w: w}
	case "csv":
		return &csvReporter{w: csv.NewWriter(w)}
	case "gobench":
		return &gobenchReporter{w: w}
	}
	return nil
}

// textReporter writes bench-slope tables as the results come, and the
// sweep as a table of MiB/s per row and key size at the end.
type textReporter struct {
	w     io.Writer
	width int // of the label column
	sweep []result
}

func (p *textReporter) header(h benchHeader) {
	p.width = h.width
	fmt.Fprintln(p.w, "cpu:", h.CPU)
	fmt.Fprintln(p.w, "go:", h.Go, h.GOOS+"/"+h.GOARCH)
	fmt.Fprint(p.w, shapes())
	for _, name := range h.Skipped {
		fmt.Fprintf(p.w, "skipped: %s (not supported on this CPU)\n", name)
	}
}

func (p *textReporter) beginTable(t target) {
	fmt.Fprintln(p.w)
	printHeader(p.w, p.width, t.label)
}

func (p *textReporter) result(r result) {
	if r.Method != "slope" {
		p.sweep = append(p.sweep, r)
		return
	}
	mhz := 0.0
	if r.MHz != nil {
		mhz = *r.MHz
	}
	printRow(p.w, p.width, r.Mode+" "+r.Dir, r.NsPerByte, mhz)
	if r.Mode == "KEY" && r.NsPerByte > 0 {
		// Per byte of key, as the other rows: the cost of a key too.
		fmt.Fprintf(p.w, "%*s   %s ns a %d-bit key\n", p.width, "", formatNumber(r.NsPerByte*float64(r.Key/8)), r.Key)
	}
}

func (p *textReporter) endTable() { printFooter(p.w, p.width) }

// finish prints the sweep: for each row and key size, MiB/s by message
// size (lines) and target (columns).
func (p *textReporter) finish() error {
	for _, g := range groupSweep(p.sweep) {
		label := fmt.Sprintf("%s %s, key=%d: MiB/s", g.mode, g.dir, g.bits)
		width := max(len(label), len("1024 KiB"))
		fmt.Fprintln(p.w)
		fmt.Fprintf(p.w, "%*s |", width, label)
		for _, s := range g.series {
			fmt.Fprintf(p.w, " %*s", max(len(s.name), 9), s.name)
		}
		fmt.Fprintln(p.w)
		for i, size := range sweepSizes {
			fmt.Fprintf(p.w, "%*s |", width, formatSize(size))
			for _, s := range g.series {
				v := "-"
				if i < len(s.mibs) && s.mibs[i] > 0 {
					v = formatNumber(s.mibs[i])
				}
				fmt.Fprintf(p.w, " %*s", max(len(s.name), 9), v)
			}
			fmt.Fprintln(p.w)
		}
		fmt.Fprintln(p.w, strings.Repeat(" ", width)+" =")
	}
	return nil
}

// formatSize spells a sweep size: "16 B", "4 KiB", "1 MiB".
func formatSize(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.Itoa(n>>10) + " KiB"
	}
	return strconv.Itoa(n) + " B"
}

// A sweepGroup is the sweep of one row (mode and direction) at one key
// size: a series per target.
type sweepGroup struct {
	mode, dir string
	bits      int
	series    []sweepSeries
}

// A sweepSeries is one target's MiB/s at each of sweepSizes.
type sweepSeries struct {
	name string // the implementation, "crypto/aes" for AES
	mibs []float64
}

// groupSweep arranges sweep results into groups, in the order in which
// their rows and key sizes first appear, each with its series in the order
// of the targets.
func groupSweep(results []result) []sweepGroup {
	var groups []sweepGroup
	find := func(r result) *sweepGroup {
		for i := range groups {
			if g := &groups[i]; g.mode == r.Mode && g.dir == r.Dir && g.bits == r.Key {
				return g
			}
		}
		groups = append(groups, sweepGroup{mode: r.Mode, dir: r.Dir, bits: r.Key})
		return &groups[len(groups)-1]
	}
	for _, r := range results {
		if r.Method != "call" {
			continue
		}
		g := find(r)
		name := r.Impl
		var s *sweepSeries
		for i := range g.series {
			if g.series[i].name == name {
				s = &g.series[i]
			}
		}
		if s == nil {
			g.series = append(g.series, sweepSeries{name: name})
			s = &g.series[len(g.series)-1]
		}
		s.mibs = append(s.mibs, r.MiBPerSec)
	}
	return groups
}

// jsonReporter writes one JSON object at the end: the header's fields and
// "results", a list of every result.
type jsonReporter struct {
	w   io.Writer
	out struct {
		benchHeader
		Results []result `json:"results"`
	}
}

func (p *jsonReporter) header(h benchHeader) {
	p.out.benchHeader = h
	if p.out.Skipped == nil {
		p.out.Skipped = []string{}
	}
	p.out.Results = []result{}
}
func (p *jsonReporter) beginTable(target) {}
func (p *jsonReporter) result(r result)   { p.out.Results = append(p.out.Results, r) }
func (p *jsonReporter) endTable()         {}

func (p *jsonReporter) finish() error {
	enc := json.NewEncoder(p.w)
	enc.SetIndent("", "  ")
	return enc.Encode(&p.out)
}

// csvColumns are the columns of -format csv, one record per result.
var csvColumns = []string{"cipher", "impl", "key_bits", "mode", "dir", "size", "method",
	"ns_per_byte", "mib_per_s", "cycles_per_byte", "mhz", "calls"}

// csvReporter writes a header record, then a record per result as it
// comes. A clock that was not measured is an empty field.
type csvReporter struct{ w *csv.Writer }

func (p *csvReporter) header(benchHeader) { p.w.Write(csvColumns) }
func (p *csvReporter) beginTable(target)  {}
func (p *csvReporter) endTable()          {}

func (p *csvReporter) result(r result) {
	opt := func(v *float64) string {
		if v == nil {
			return ""
		}
		return formatFloat(*v)
	}
	p.w.Write([]string{r.Cipher, r.Impl, strconv.Itoa(r.Key), r.Mode, r.Dir, strconv.Itoa(r.Size), r.Method,
		formatFloat(r.NsPerByte), formatFloat(r.MiBPerSec), opt(r.CPerByte), opt(r.MHz), strconv.Itoa(r.Calls)})
	p.w.Flush()
}

func (p *csvReporter) finish() error {
	p.w.Flush()
	return p.w.Error()
}

// formatFloat writes v with 4 significant digits, enough for a
// measurement, in plain decimal notation.
func formatFloat(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 4, 64), 64)
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// gobenchReporter writes the Go benchmark format
// (golang.org/design/14313-benchmark-format) that benchstat reads: "key:
// value" configuration lines, then a line per result as it comes, named
// Benchmark<Cipher>/mode=/dir=/impl=/key=/size= for the tables and
// Benchmark<Cipher>Sweep/... for -sweep, with MB/s, cycles/B and the time:
// ns/op, of one call on size bytes, for -sweep, and ns/B, the slope, for
// the tables, whose fits leave the cost per call out (so slope times size
// is no call's time, and is not written as ns/op). A failed measurement has
// no line. A "/" in an
// implementation name becomes "-", as "/" separates the name's parts.
type gobenchReporter struct{ w io.Writer }

func (p *gobenchReporter) header(h benchHeader) {
	fmt.Fprintln(p.w, "goos:", h.GOOS)
	fmt.Fprintln(p.w, "goarch:", h.GOARCH)
	fmt.Fprintln(p.w, "pkg: github.com/twofish-go/twofish/cmd/twofish")
	fmt.Fprintln(p.w, "cpu:", h.CPU)
	fmt.Fprintln(p.w, "go:", h.Go)
	fmt.Fprintln(p.w, "auto-impl:", h.Auto)
	if len(h.Skipped) > 0 {
		fmt.Fprintln(p.w, "skipped-impls:", strings.Join(h.Skipped, ","))
	}
}
func (p *gobenchReporter) beginTable(target) {}
func (p *gobenchReporter) endTable()         {}
func (p *gobenchReporter) finish() error     { return nil }

func (p *gobenchReporter) result(r result) {
	if r.NsPerByte <= 0 {
		return // a failed measurement, which benchstat would average in
	}
	time := formatFloat(r.NsPerByte) + " ns/B"
	if r.Method == "call" {
		time = formatFloat(r.NsPerByte*float64(r.Size)) + " ns/op"
	}
	fmt.Fprintf(p.w, "%s\t%d\t%s\t%s MB/s", gobenchName(r), r.Calls, time, formatFloat(1e3/r.NsPerByte))
	if r.CPerByte != nil {
		fmt.Fprintf(p.w, "\t%s cycles/B", formatFloat(*r.CPerByte))
	}
	fmt.Fprintln(p.w)
}

// gobenchName is the benchmark name of r.
func gobenchName(r result) string {
	kind := ""
	if r.Method == "call" {
		kind = "Sweep"
	}
	return fmt.Sprintf("Benchmark%s%s/mode=%s/dir=%s/impl=%s/key=%d/size=%d",
		r.Cipher, kind, r.Mode, r.Dir, strings.ReplaceAll(r.Impl, "/", "-"), r.Key, r.Size)
}
