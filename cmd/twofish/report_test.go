package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/twofish-go/twofish"
	"github.com/twofish-go/twofish/internal/cpuclock"
)

// quick are bench flags that make a run short: buffers of up to 8 KiB, the
// least -size.
var quick = []string{"bench", "-duration", "1ms"}

// TestBenchModes checks that -modes keeps the rows of the modes it names,
// in the usual order.
func TestBenchModes(t *testing.T) {
	got := benchTablesRows(t, []string{"CTR enc", "CTR dec", "XTS enc", "XTS dec"}, "-impl", "generic", "-keysize", "128", "-modes", "xts, CTR")
	if len(got) != 1 {
		t.Errorf("tables %q", got)
	}
}

// benchOutput runs bench with quick flags and args, and returns stdout.
func benchOutput(t *testing.T, args ...string) string {
	t.Helper()
	modelClock(t)
	args = append(slices.Clone(quick), args...)
	status, stdout, stderr := runTool(t, args...)
	if status != exitOK {
		t.Fatalf("twofish %q: exit status %d, stderr:\n%s", args, status, stderr)
	}
	return stdout
}

// modelNs is what a result costs per byte on the model clock (modelClock):
// 1 ns a byte by slope; with the 100 ns a call, per call, on a message of
// size bytes.
func modelNs(r result) float64 {
	if r.Method == "call" {
		return float64(100+r.Size) / float64(r.Size)
	}
	return 1
}

// near reports whether got is want up to rounding.
func near(got, want float64) bool { return math.Abs(got-want) <= 1e-9*math.Abs(want) }

// TestBenchJSON checks -format json: one object with the header and a
// result per row of each target, and with -sweep one per size too (but for
// key setup, which does not depend on a message's size), each with the
// model clock's cost and what follows from it.
func TestBenchJSON(t *testing.T) {
	out := benchOutput(t, "-format", "json", "-impl", "generic", "-keysize", "128,256", "-modes", "xts,key", "-compare", "-sweep")
	var got struct {
		CPU, Go, GOOS, GOARCH, Auto string
		AutoReason                  string    `json:"auto_reason"`
		AutoPaths                   pathsJSON `json:"auto_paths"`
		Skipped                     []string
		Results                     []result
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("-format json: %v", err)
	}
	if got.CPU == "" || got.Go == "" || got.Auto == "" || got.AutoReason == "" || got.AutoPaths.Bulk.Impl != got.Auto || got.Skipped == nil {
		t.Errorf("header: %+v", got)
	}
	// 3 targets (generic, xcrypto, AES) x 2 key sizes x 3 rows in the
	// tables, and but for key setup in the sweep at each size.
	slope, call := 0, 0
	for _, r := range got.Results {
		switch {
		case r.Calls <= 0:
			t.Errorf("result %+v", r)
		case r.Method == "slope" && r.Size == minSize:
			slope++
		case r.Method == "call" && slices.Contains(sweepSizes, r.Size) && r.Mode != "KEY":
			call++
		default:
			t.Errorf("result %+v", r)
		}
		ns := modelNs(r)
		if !near(r.NsPerByte, ns) || !near(r.MiBPerSec, 1e9/(ns*(1<<20))) {
			t.Errorf("result %+v: want %v ns/B and %v MiB/s, the model clock's", r, ns, 1e9/(ns*(1<<20)))
		}
		switch {
		case (r.MHz == nil) == cpuclock.Available() || (r.MHz == nil) != (r.CPerByte == nil):
			t.Errorf("result %+v: MHz and cycles per byte, want both exactly when the clock can be measured", r)
		case r.MHz != nil && !near(*r.CPerByte, ns**r.MHz/1000):
			t.Errorf("result %+v: %v cycles per byte at %v MHz, want %v", r, *r.CPerByte, *r.MHz, ns**r.MHz/1000)
		}
	}
	if slope != 3*2*3 || call != 3*2*2*len(sweepSizes) {
		t.Errorf("%d table results and %d sweep results, want %d and %d", slope, call, 18, 12*len(sweepSizes))
	}
}

// TestFailedMeasurement checks how a slope that is not positive, which only
// noise makes, is reported: as the measurement it was, with no speed or
// cycles per byte from it, "-" in the text table and no gobench line; the
// clock as measured.
func TestFailedMeasurement(t *testing.T) {
	tg := target{label: "Twofish (impl=generic, key=128)", cipher: "Twofish", impl: "generic", bits: 128}
	r := newResult(tg, row{mode: "CTR", dir: "enc"}, minSize, "slope", measurement{ns: -0.01, mhz: 3000, loops: 7})
	if r.NsPerByte != -0.01 || r.MiBPerSec != 0 || r.CPerByte != nil || r.MHz == nil || *r.MHz != 3000 {
		t.Errorf("result %+v", r)
	}
	var gobench strings.Builder
	(&gobenchReporter{w: &gobench}).result(r)
	if gobench.Len() != 0 {
		t.Errorf("-format gobench: %q, want nothing", gobench.String())
	}
	var text strings.Builder
	p := &textReporter{w: &text, width: len(tg.label)}
	p.result(r)
	if m := rowRE.FindStringSubmatch(text.String()[:len(text.String())-1]); m == nil || m[2] != "-" || m[3] != "-" || m[4] != "-" || m[5] != "3000" {
		t.Errorf("text row %q", text.String())
	}
}

// TestBenchCSV checks -format csv: a header record and a record per row.
func TestBenchCSV(t *testing.T) {
	out := benchOutput(t, "-format", "csv", "-impl", "all", "-keysize", "192", "-modes", "cbc")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	supported := 2 // auto and ct
	for _, im := range twofish.Implementations() {
		if im.Supported {
			supported++
		}
	}
	if len(recs) != 1+2*supported || !slices.Equal(recs[0], csvColumns) {
		t.Fatalf("records:\n%s", out)
	}
	for _, rec := range recs[1:] {
		if rec[0] != "Twofish" || rec[2] != "192" || rec[3] != "CBC" || rec[5] != strconv.Itoa(minSize) || rec[6] != "slope" {
			t.Errorf("record %q", rec)
		}
		// The model clock's 1 ns a byte, with 4 significant digits.
		if rec[7] != "1" || rec[8] != "953.7" {
			t.Errorf("record %q: want 1 ns/B and 953.7 MiB/s", rec)
		}
		if calls, err := strconv.Atoi(rec[11]); err != nil || calls <= 0 {
			t.Errorf("record %q: calls", rec)
		}
		cycles, err1 := strconv.ParseFloat(rec[9], 64)
		mhz, err2 := strconv.ParseFloat(rec[10], 64)
		switch {
		case (rec[9] == "") != (rec[10] == "") || (rec[10] == "") == cpuclock.Available():
			t.Errorf("record %q: cycles per byte and MHz, want both exactly when the clock can be measured", rec)
		case rec[10] != "" && (err1 != nil || err2 != nil || math.Abs(cycles-mhz/1000) > 1e-3*cycles):
			t.Errorf("record %q: cycles per byte, want MHz/1000 at 1 ns/B", rec)
		}
	}
}

// gobenchLine is a benchmark result line as benchstat reads it.
var gobenchLine = regexp.MustCompile(`^Benchmark(Twofish|AES)(Sweep)?/mode=(ECB|CBC|CFB|OFB|CTR|XTS|XTS512)/dir=(enc|dec)/impl=([^/\s]+)/key=(128|192|256)/size=(\d+)\t\d+\t[0-9.]+ ns/(op|B)\t[0-9.]+ MB/s(\t[0-9.]+ cycles/B)?$`)

// TestBenchGobench checks -format gobench: configuration lines, then a
// benchmark line per result in the Go benchmark format.
func TestBenchGobench(t *testing.T) {
	out := benchOutput(t, "-format", "gobench", "-impl", "auto", "-keysize", "256", "-modes", "ctr", "-compare")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	config := regexp.MustCompile(`^[a-z][a-z-]*: \S`)
	n := 0
	for _, line := range lines {
		switch {
		case strings.HasPrefix(line, "Benchmark"):
			if !gobenchLine.MatchString(line) {
				t.Errorf("benchmark line %q", line)
			}
			n++
		case n > 0 || !config.MatchString(line):
			t.Errorf("line %q", line)
		}
	}
	for _, want := range []string{"goos: ", "goarch: ", "pkg: ", "cpu: ", "\nBenchmarkAES/mode=CTR/dir=dec/impl=crypto-aes/key=256/size=8192\t",
		"\nBenchmarkTwofish/mode=CTR/dir=enc/impl=xcrypto/key=256/size=8192\t"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if n != 3*2 {
		t.Errorf("%d benchmark lines, want 6:\n%s", n, out)
	}
	// The model clock's 1 ns a byte.
	if c := strings.Count(out, "\t1 ns/B\t1000 MB/s"); c != n {
		t.Errorf("%d of %d lines at 1 ns/B and 1000 MB/s:\n%s", c, n, out)
	}
}

// TestBenchSweepText checks the sweep tables: a row per size, a column
// per target.
func TestBenchSweepText(t *testing.T) {
	out := benchOutput(t, "-impl", "generic", "-keysize", "128", "-modes", "ofb", "-compare", "-sweep")
	blocks := strings.Split(strings.TrimSuffix(out, "\n"), "\n\n")
	sweep := blocks[len(blocks)-2:]
	for i, dir := range []string{"enc", "dec"} {
		lines := strings.Split(sweep[i], "\n")
		if len(lines) != len(sweepSizes)+2 || strings.Join(strings.Fields(lines[0]), " ") != "OFB "+dir+", key=128: MiB/s | generic xcrypto crypto/aes" {
			t.Fatalf("sweep table:\n%s", sweep[i])
		}
		for j, size := range sweepSizes {
			// The model clock's 100 ns a call and 1 ns a byte.
			mibs := formatNumber(1e9 / (float64(100+size) / float64(size) * (1 << 20)))
			f := strings.Fields(lines[j+1])
			if len(f) != 6 || f[0]+" "+f[1] != formatSize(size) || f[2] != "|" || f[3] != mibs || f[4] != mibs || f[5] != mibs {
				t.Errorf("sweep row %q, want %s MiB/s", lines[j+1], mibs)
			}
		}
	}
}

// TestBenchSVG checks that -svg writes well-formed SVG with a bar per row
// and target, and with -sweep a line per target.
func TestBenchSVG(t *testing.T) {
	name := filepath.Join(t.TempDir(), "chart.svg")
	benchOutput(t, "-impl", "generic", "-keysize", "128,256", "-modes", "ctr", "-compare", "-sweep", "-svg", name)
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			counts[se.Name.Local]++
			if se.Name.Local == "svg" && se.Name.Space != "http://www.w3.org/2000/svg" {
				t.Errorf("svg element in namespace %q", se.Name.Space)
			}
		}
	}
	// Bars: 2 key sizes x 2 rows x 3 targets; lines: 2 key sizes x 2 rows
	// (a chart each) x 3 targets, a point per size.
	if counts["svg"] != 1 || counts["polyline"] != 12 || counts["circle"] != 12*len(sweepSizes) || counts["title"] != 12+12*len(sweepSizes) {
		t.Errorf("elements: %v", counts)
	}
	for _, want := range []string{"Twofish generic", "AES crypto/aes", "CTR dec, 256-bit key", "MiB/s"} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("no %q in the chart", want)
		}
	}
	// Each bar's height and tooltip and each point's tooltip show the
	// model clock's speed: 953.7 MiB/s by slope, and per call less at
	// each size.
	mibs := 1e9 / (1 << 20)
	top, _ := niceScale(mibs)
	height := fmt.Sprintf("%.1f", float64(svgPanel-svgMarginTop-svgMarginBot)*mibs/top)
	bars := regexp.MustCompile(`<rect [^>]* height="([^"]+)" [^>]*><title>[^<]*: ([^<]*)</title>`).FindAllSubmatch(b, -1)
	for _, m := range bars {
		if string(m[1]) != height || string(m[2]) != "953.7 MiB/s" {
			t.Errorf("bar of height %s: %q, want %s and 953.7 MiB/s", m[1], m[2], height)
		}
	}
	points := regexp.MustCompile(`<circle [^>]*><title>[^<]*, ([0-9]+ (?:B|KiB|MiB)): ([^<]*)</title>`).FindAllSubmatch(b, -1)
	for _, m := range points {
		i := slices.IndexFunc(sweepSizes, func(n int) bool { return formatSize(n) == string(m[1]) })
		if i < 0 || string(m[2]) != formatNumber(1e9/(float64(100+sweepSizes[i])/float64(sweepSizes[i])*(1<<20)))+" MiB/s" {
			t.Errorf("point %q", m[0])
		}
	}
	if len(bars) != 12 || len(points) != 12*len(sweepSizes) {
		t.Errorf("%d bars and %d points with tooltips, want 12 and %d", len(bars), len(points), 12*len(sweepSizes))
	}
}

// TestSVGColors checks that the targets of a chart never share a colour:
// there are colours enough for -impl all -compare (auto, ct, every
// implementation of the build, x/crypto, crypto/aes).
func TestSVGColors(t *testing.T) {
	if n := 2 + len(twofish.Implementations()) + 2; n > len(svgColors) {
		t.Errorf("%d colours for up to %d targets", len(svgColors), n)
	}
	for i, c := range svgColors {
		if slices.Contains(svgColors[:i], c) {
			t.Errorf("colour %s twice", c)
		}
	}
}

// TestParseKeySizes checks that -keysize keeps each size once, in order, as
// -impl and -modes do: a size given twice made two tables of one target,
// whose sweep the chart could not draw.
func TestParseKeySizes(t *testing.T) {
	got, err := parseKeySizes("256, 128,256,128")
	if err != nil || !slices.Equal(got, []int{256, 128}) {
		t.Errorf("parseKeySizes: %v, %v; want [256 128]", got, err)
	}
}

func TestNiceScale(t *testing.T) {
	for _, tc := range []struct{ peak, top, step float64 }{
		{541, 600, 100}, {11569, 12000, 2000}, {0.9, 0.9, 0.1}, {100, 100, 10}, {0, 1, 0.25}, {47, 50, 10}, {1.5, 1.6, 0.2},
	} {
		top, step := niceScale(tc.peak)
		if math.Abs(top-tc.top) > 1e-9 || step != tc.step {
			t.Errorf("niceScale(%v) = %v, %v; want %v, %v", tc.peak, top, step, tc.top, tc.step)
		}
		if parts := top / step; parts < 3.99 || parts > 10.01 || top < tc.peak {
			t.Errorf("niceScale(%v) = %v, %v: %v parts", tc.peak, top, step, parts)
		}
	}
}

func TestFormatFloat(t *testing.T) {
	for v, want := range map[float64]string{1.7612345: "1.761", 541.63: "541.6", 11569.2: "11570", 0.0821: "0.0821", 0: "0"} {
		if got := formatFloat(v); got != want {
			t.Errorf("formatFloat(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestInfoJSON checks info -json against the library.
func TestInfoJSON(t *testing.T) {
	status, stdout, stderr := runTool(t, "info", "-json")
	if status != exitOK || stderr != "" {
		t.Fatalf("twofish info -json: exit status %d, stderr:\n%s", status, stderr)
	}
	var got infoJSON
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	name, reason := twofish.AutoImplementation()
	if got.Selected != name || got.Reason != reason || got.CPU == "" || got.GOARCH == "" {
		t.Errorf("got %+v", got)
	}
	impls := twofish.Implementations()
	if len(got.Implementations) != len(impls) {
		t.Fatalf("%d implementations, want %d", len(got.Implementations), len(impls))
	}
	for i, im := range impls {
		if g := got.Implementations[i]; g != (implJSON{im.Name, im.Blocks, im.ConstantTime, im.Supported}) {
			t.Errorf("implementation %d: %+v, want %+v", i, g, im)
		}
	}
}

// TestNewResultUnmeasured checks that a clock of 0 (none measured) gives
// no MHz and no cycles per byte, and that a slope of exactly 0, a failed
// measurement, gives no speed (not an infinite one, which JSON cannot
// carry) and no cycles per byte.
func TestNewResultUnmeasured(t *testing.T) {
	tg := target{label: "Twofish (impl=generic, key=128)", cipher: "Twofish", impl: "generic", bits: 128}
	r := newResult(tg, row{mode: "CTR", dir: "enc"}, minSize, "slope", measurement{ns: 2, loops: 7})
	if r.MHz != nil || r.CPerByte != nil || r.MiBPerSec != 1e9/(2<<20) {
		t.Errorf("no clock: result %+v", r)
	}
	r = newResult(tg, row{mode: "CTR", dir: "enc"}, minSize, "slope", measurement{ns: 0, mhz: 3000, loops: 7})
	if r.MiBPerSec != 0 || r.CPerByte != nil || r.MHz == nil || *r.MHz != 3000 {
		t.Errorf("a slope of 0: result %+v", r)
	}
	var gobench strings.Builder
	(&gobenchReporter{w: &gobench}).result(r)
	if gobench.Len() != 0 {
		t.Errorf("a slope of 0: -format gobench wrote %q, want nothing", gobench.String())
	}
	var text strings.Builder
	r.Mode, r.Dir = "KEY", "setup"
	(&textReporter{w: &text, width: len(tg.label)}).result(r)
	if strings.Count(text.String(), "\n") != 1 || strings.Contains(text.String(), "-bit key") {
		t.Errorf("a key setup slope of 0: text %q, want its row alone", text.String())
	}
}

// TestSweepTextEdges checks the sweep table's columns, at least 9 wide for
// short names, and "-" for a failed measurement and for a size a target
// has no result for.
func TestSweepTextEdges(t *testing.T) {
	p := &textReporter{w: new(strings.Builder)}
	for i := range sweepSizes {
		v := 100.0
		if i == 1 {
			v = 0
		}
		p.result(result{Impl: "ct", Mode: "CTR", Dir: "enc", Key: 128, Method: "call", MiBPerSec: v})
		if i < 2 {
			p.result(result{Impl: "generic", Mode: "CTR", Dir: "enc", Key: 128, Method: "call", MiBPerSec: 50})
		}
	}
	p.finish()
	lines := strings.Split(p.w.(*strings.Builder).String(), "\n")
	for i, want := range []string{
		"",
		"CTR enc, key=128: MiB/s |        ct   generic",
		"                   16 B |     100.0     50.00",
		"                   64 B |         -     50.00",
		"                  256 B |     100.0         -",
	} {
		if i >= len(lines) || lines[i] != want {
			t.Fatalf("sweep table:\n%s\nwant line %d %q", strings.Join(lines, "\n"), i, want)
		}
	}
}

// TestFormatSize checks the sweep's sizes, in the largest unit that
// divides them.
func TestFormatSize(t *testing.T) {
	for n, want := range map[int]string{16: "16 B", 1023: "1023 B", 1 << 10: "1 KiB", 1536: "1536 B",
		64 << 10: "64 KiB", 1 << 20: "1 MiB", 3 << 19: "1536 KiB", 4 << 20: "4 MiB"} {
		if got := formatSize(n); got != want {
			t.Errorf("formatSize(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestJSONReporterNoResults checks that -format json's results are a list,
// [] and not null, where there are none.
func TestJSONReporterNoResults(t *testing.T) {
	var b strings.Builder
	p := &jsonReporter{w: &b}
	p.header(benchHeader{})
	if err := p.finish(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"results": []`) {
		t.Errorf("no results:\n%s", b.String())
	}
}

// TestCSVReporterStreams checks that -format csv writes each record as its
// result comes, so that a long run shows its progress, and that finish
// reports a write that failed.
func TestCSVReporterStreams(t *testing.T) {
	var b strings.Builder
	p := newReporter("csv", &b)
	p.header(benchHeader{})
	p.result(result{Cipher: "Twofish", Impl: "generic", Key: 128, Mode: "CTR", Dir: "enc", Size: 8192, Method: "slope", NsPerByte: 2, Calls: 7})
	if want := strings.Join(csvColumns, ",") + "\nTwofish,generic,128,CTR,enc,8192,slope,2,0,,,7\n"; b.String() != want {
		t.Errorf("after one result: %q, want %q", b.String(), want)
	}
	p = newReporter("csv", &failingWriter{n: 10})
	p.header(benchHeader{})
	p.result(result{Cipher: "Twofish"})
	if err := p.finish(); err == nil {
		t.Error("finish: no error from a failed write")
	}
}

// TestBarChart checks one key size's bar chart: a bar per target of that
// key size alone, each in its own colour and with that key size's value,
// "not measured" for a failed measurement, the buffer size of the table
// results in the title, the axis labelled up to its top, and no chart at
// all for a key size without table results.
func TestBarChart(t *testing.T) {
	targets := []target{
		{label: "Twofish (impl=generic, key=128)", cipher: "Twofish", impl: "generic", bits: 128},
		{label: "Twofish (impl=generic, key=256)", cipher: "Twofish", impl: "generic", bits: 256},
		{label: "AES (impl=crypto/aes, key=128)", cipher: "AES", impl: "crypto/aes", bits: 128},
	}
	results := []result{
		{Cipher: "Twofish", Impl: "generic", Key: 128, Mode: "CTR", Dir: "enc", Size: 16, Method: "call", MiBPerSec: 5},
		{Cipher: "Twofish", Impl: "generic", Key: 128, Mode: "CTR", Dir: "enc", Size: 8192, Method: "slope", MiBPerSec: 100},
		{Cipher: "Twofish", Impl: "generic", Key: 256, Mode: "CTR", Dir: "enc", Size: 8192, Method: "slope", MiBPerSec: 80},
		{Cipher: "AES", Impl: "crypto/aes", Key: 128, Mode: "CTR", Dir: "enc", Size: 8192, Method: "slope", MiBPerSec: 0},
	}
	var b bytes.Buffer
	barChart(&b, 0, 128, targets, results)
	svg := b.String()
	bars := regexp.MustCompile(`<rect [^>]* fill="([^"]+)"><title>([^<]*)</title>`).FindAllStringSubmatch(svg, -1)
	if len(bars) != 2 || bars[0][1] == bars[1][1] ||
		bars[0][2] != "Twofish (impl=generic, key=128), CTR enc: 100.0 MiB/s" || bars[1][2] != "AES (impl=crypto/aes, key=128), CTR enc: not measured" {
		t.Errorf("bars %q", bars)
	}
	for _, want := range []string{"128-bit key, 8192-byte buffers", ">100</text>", ">0</text>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("no %q in the chart:\n%s", want, svg)
		}
	}
	b.Reset()
	barChart(&b, 0, 192, targets, results)
	if b.Len() != 0 {
		t.Errorf("a chart for a key size without results:\n%s", b.String())
	}
}
