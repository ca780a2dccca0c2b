package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
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
)

// quick are bench flags that make a run short.
var quick = []string{"bench", "-size", "256", "-duration", "1ms"}

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

// TestBenchJSON checks -format json: one object with the header and a
// result per row of each target, and with -sweep one per size too.
func TestBenchJSON(t *testing.T) {
	out := benchOutput(t, "-format", "json", "-impl", "generic", "-keysize", "128,256", "-modes", "xts", "-compare", "-sweep")
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
	// 3 targets (generic, xcrypto, AES) x 2 key sizes x 2 rows, in the
	// tables and in the sweep at each size.
	slope, call := 0, 0
	for _, r := range got.Results {
		switch {
		case r.NsPerByte <= 0 || r.MiBPerSec <= 0 || r.Calls <= 0:
			t.Errorf("result %+v", r)
		case r.Method == "slope" && r.Size == 256:
			slope++
		case r.Method == "call" && slices.Contains(sweepSizes, r.Size):
			call++
		default:
			t.Errorf("result %+v", r)
		}
		if (r.MHz == nil) != (r.CPerByte == nil) {
			t.Errorf("result %+v: cycles per byte and MHz disagree", r)
		}
	}
	if slope != 3*2*2 || call != 3*2*2*len(sweepSizes) {
		t.Errorf("%d table results and %d sweep results, want %d and %d", slope, call, 12, 12*len(sweepSizes))
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
		if rec[0] != "Twofish" || rec[2] != "192" || rec[3] != "CBC" || rec[5] != "256" || rec[6] != "slope" {
			t.Errorf("record %q", rec)
		}
		for _, i := range []int{7, 8, 11} {
			if v, err := strconv.ParseFloat(rec[i], 64); err != nil || v <= 0 {
				t.Errorf("record %q: column %s", rec, csvColumns[i])
			}
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
	for _, want := range []string{"goos: ", "goarch: ", "pkg: ", "cpu: ", "\nBenchmarkAES/mode=CTR/dir=dec/impl=crypto-aes/key=256/size=256\t",
		"\nBenchmarkTwofish/mode=CTR/dir=enc/impl=xcrypto/key=256/size=256\t"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if n != 3*2 {
		t.Errorf("%d benchmark lines, want 6:\n%s", n, out)
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
			f := strings.Fields(lines[j+1])
			if len(f) != 6 || f[0]+" "+f[1] != formatSize(size) || f[2] != "|" {
				t.Errorf("sweep row %q", lines[j+1])
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
