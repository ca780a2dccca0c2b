package main

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twofish-go/twofish"
	"github.com/twofish-go/twofish/internal/cpuclock"
)

// rowNames are the rows of every table, in order.
var rowNames = []string{"BLOCK enc", "BLOCK dec", "ECB enc", "ECB dec", "CBC enc", "CBC dec", "CFB enc", "CFB dec",
	"OFB enc", "OFB dec", "CTR enc", "CTR dec", "XTS enc", "XTS dec", "XTS512 enc", "XTS512 dec",
	"GCM enc", "GCM dec", "GCM auth", "OCB enc", "OCB dec", "OCB auth", "EAX enc", "EAX dec", "KEY setup"}

var (
	headerRE = regexp.MustCompile(`^(.*\S) +\|  nanosecs/byte   mebibytes/sec   cycles/byte  auto Mhz$`)
	rowRE    = regexp.MustCompile(`^ *(\S+ \S+) \| +([0-9.]+|-) ns/B +([0-9.]+|-) MiB/s +([0-9.]+|-) c/B +([0-9.]+|-)$`)
	footerRE = regexp.MustCompile(`^ +=$`)
	// keyRE is the line after the KEY row: its cost per byte of key times
	// the key's length.
	keyRE = regexp.MustCompile(`^ +([0-9.]+) ns a ([0-9]+)-bit key$`)
)

// modelClock makes bench's measurements, until the test ends, take their
// time from a model: 100 ns a call and 1 ns a byte, so every row has a cost
// to show, however fast, slow or loaded the machine. A timing runs its
// operation once, however many calls it stands for, and a row takes one fit
// of one timing a point, as the model's timings never vary: the rows'
// operations run on every buffer length, and the tests take a fifteenth of
// the work (the command's tests under qemu, which runs them 5-20x slower,
// spent most of their time measuring). The clock is measured once and
// reported for every row.
func modelClock(t *testing.T) {
	mhz := cpuclock.MHz()
	fits, reps := slopeFits, slopeReps
	slopeFits, slopeReps = 1, 1
	benchClock = func(op func([]byte), buf []byte, loops int) time.Duration {
		op(buf)
		return time.Duration(loops) * time.Duration(100+len(buf))
	}
	benchMHz = func() float64 { return mhz }
	t.Cleanup(func() {
		benchClock, benchMHz = timeLoops, cpuclock.MHz
		slopeFits, slopeReps = fits, reps
	})
}

// benchTables runs the bench command with args and a very short measuring
// time, checks the header and the layout of every table, and returns the
// tables' labels.
func benchTables(t *testing.T, args ...string) []string {
	t.Helper()
	return benchTablesRows(t, rowNames, args...)
}

// benchTablesRows is benchTables for tables of the rows names.
func benchTablesRows(t *testing.T, names []string, args ...string) []string {
	t.Helper()
	modelClock(t)
	args = append(slices.Clone(quick), args...)
	status, stdout, stderr := runTool(t, args...)
	if status != exitOK {
		t.Fatalf("twofish %q: exit status %d, stderr:\n%s", args, status, stderr)
	}
	blocks := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n\n")
	header := strings.Split(blocks[0], "\n")
	if len(header) < 4 || !strings.HasPrefix(header[0], "cpu: ") || !strings.HasPrefix(header[1], "go: go") ||
		header[2]+"\n"+header[3]+"\n" != shapes() {
		t.Errorf("header:\n%s", blocks[0])
	}

	var labels []string
	for i, table := range blocks[1:] {
		if progress := fmt.Sprintf("[%d/%d]", i+1, len(blocks)-1); !strings.Contains(stderr, progress) {
			t.Errorf("no %s in the progress on stderr:\n%s", progress, stderr)
		}
		lines := strings.Split(table, "\n")
		for j := 1; j < len(lines); j++ {
			m := keyRE.FindStringSubmatch(lines[j])
			if m == nil {
				continue
			}
			// On the model clock, 1 ns a byte of key.
			if bits, _ := strconv.Atoi(m[2]); !strings.HasPrefix(lines[j-1], strings.Repeat(" ", len(lines[j-1])-len(strings.TrimLeft(lines[j-1], " ")))+"KEY setup") ||
				m[1] != fmt.Sprintf("%.2f", float64(bits/8)) {
				t.Errorf("%q after %q", lines[j], lines[j-1])
			}
			lines = append(lines[:j], lines[j+1:]...)
		}
		if len(lines) != len(names)+2 {
			t.Errorf("table has %d lines, want %d:\n%s", len(lines), len(names)+2, table)
			continue
		}
		m := headerRE.FindStringSubmatch(lines[0])
		if m == nil {
			t.Errorf("table header %q", lines[0])
			continue
		}
		labels = append(labels, m[1])
		bar := strings.Index(lines[0], "|")
		// On the model clock every row has a cost; a row of "-" is
		// one the tool could not measure.
		for j, line := range lines[1 : len(lines)-1] {
			m := rowRE.FindStringSubmatch(line)
			switch {
			case m == nil:
				t.Errorf("row %q", line)
			case m[1] != names[j]:
				t.Errorf("row %d is %q, want %q", j, m[1], names[j])
			case strings.Index(line, "|") != bar:
				t.Errorf("row %q not aligned with its header %q", line, lines[0])
			case m[2] == "-":
				t.Errorf("row %q: unmeasured on the model clock", line)
			case m[2] != "1.00" || m[3] != "953.7":
				t.Errorf("row %q: want 1.00 ns/B (953.7 MiB/s), the model clock's", line)
			case (m[4] == "-") == cpuclock.Available():
				t.Errorf("row %q: cycles/byte %q, want a number exactly when the clock can be measured", line, m[4])
			}
		}
		if last := lines[len(lines)-1]; !footerRE.MatchString(last) || len(last) != bar+1 {
			t.Errorf("table footer %q", last)
		}
	}
	return labels
}

// TestBenchCompare checks that -impl all measures NewCipher's and
// NewCipherConstantTime's ciphers and every supported implementation, and
// -compare adds x/crypto and AES, for each key size.
func TestBenchCompare(t *testing.T) {
	// 192-bit keys in exhaustive runs only: TestBenchOneImplementation
	// runs them for every implementation.
	keySizes := "128,256"
	switch {
	case exhaustive():
		keySizes = "128,192,256"
	case testing.Short():
		keySizes = "128"
	}
	impls := []string{"auto", "ct"}
	for _, im := range twofish.Implementations() {
		if im.Supported {
			impls = append(impls, im.Name)
		}
	}
	var want []string
	for _, impl := range impls {
		for _, bits := range strings.Split(keySizes, ",") {
			want = append(want, "Twofish (impl="+impl+", key="+bits+")")
		}
	}
	for _, bits := range strings.Split(keySizes, ",") {
		want = append(want, "Twofish (impl=xcrypto, key="+bits+")")
	}
	for _, bits := range strings.Split(keySizes, ",") {
		want = append(want, "AES (impl=crypto/aes, key="+bits+")")
	}
	got := benchTables(t, "-impl", "all", "-keysize", keySizes, "-compare")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tables:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestBenchOneImplementation checks -impl with a name, with auto and with
// ct.
func TestBenchOneImplementation(t *testing.T) {
	for _, impl := range []string{"generic", "auto", "ct"} {
		got := benchTables(t, "-impl", impl, "-keysize", "192")
		if want := fmt.Sprintf("Twofish (impl=%s, key=192)", impl); len(got) != 1 || got[0] != want {
			t.Errorf("-impl %s: tables %q, want %q", impl, got, want)
		}
	}
}

// TestBenchRowsDoTheirModes checks that each row of the tables of this
// package's implementation and of x/crypto runs the mode and direction it
// is named for, on one call over a buffer from fresh state, against the
// library: so no row measures another mode, direction or sector size.
// BLOCK chains the blocks, each block's input the output before it (the
// first's, the buffer's last block), so that it measures a block's latency.
func TestBenchRowsDoTheirModes(t *testing.T) {
	const size = 1024 + 16 // two sectors of XTS512 and a short third
	cfg := &benchConfig{impls: []string{"generic"}, keySizes: []int{128, 256}, compare: true,
		modes: []string{"BLOCK", "ECB", "CBC", "CFB", "OFB", "CTR", "XTS", "XTS512"}}
	targets, err := cfg.targets()
	if err != nil {
		t.Fatal(err)
	}
	in := randomBytes(rng(t), size)
	iv := make([]byte, twofish.BlockSize)
	for _, tg := range targets {
		if tg.cipher != "Twofish" {
			continue
		}
		c, err := twofish.NewCipher(benchKey(tg.bits))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range tg.rows {
			decrypt := r.dir == "dec"
			var want []byte
			switch r.mode {
			case "BLOCK":
				want = bytes.Clone(in)
				prev := in[size-twofish.BlockSize:]
				for i := 0; i < size; i += twofish.BlockSize {
					if decrypt {
						c.Decrypt(want[i:], prev)
					} else {
						c.Encrypt(want[i:], prev)
					}
					prev = want[i : i+twofish.BlockSize]
				}
			case "XTS":
				want = reference(t, decrypt, "xts", benchKey(2*tg.bits), nil, in, false, size, 0)
			case "XTS512":
				want = reference(t, decrypt, "xts", benchKey(2*tg.bits), nil, in, false, 512, 0)
			default:
				want = reference(t, decrypt, strings.ToLower(r.mode), benchKey(tg.bits), iv, in, false, 0, 0)
			}
			got := bytes.Clone(in)
			r.op(got)
			if !bytes.Equal(got, want) {
				t.Errorf("%s: row %s %s differs from the library's %s %s", tg.label, r.mode, r.dir, r.mode, r.dir)
			}
		}
	}
}

// TestBenchKeyRow checks that the key setup row makes a cipher from each
// key-sized piece of the buffer in turn, what is left over none, so that
// its cost per byte times the key's length is a key's.
func TestBenchKeyRow(t *testing.T) {
	var keys [][]byte
	r := keyRow(func(key []byte) (*twofish.Cipher, error) {
		keys = append(keys, key)
		return twofish.NewCipher(key)
	}, 192)
	buf := randomBytes(rng(t), 4*24+23)
	r.op(buf)
	if len(keys) != 4 {
		t.Fatalf("%d keys from %d bytes, want 4", len(keys), len(buf))
	}
	for i, key := range keys {
		if !bytes.Equal(key, buf[24*i:24*i+24]) {
			t.Errorf("key %d is %x, want bytes %d to %d of the buffer", i, key, 24*i, 24*i+24)
		}
	}
	keys = nil
	r.op(buf[:4*24])
	if len(keys) != 4 {
		t.Errorf("%d keys from %d bytes, want 4", len(keys), 4*24)
	}
}

// TestMeasureMedians checks that a row's cost is the median of its
// slopeFits fits, so that one fit on a loaded machine moves no row, and
// that a sweep's call is timed with the calls that take a fifth of its
// time, as many times: on a model clock of 1 ns a byte (and 100 ns a call)
// whose first fit is ten times as slow, the row costs 1 ns a byte.
func TestMeasureMedians(t *testing.T) {
	buf := make([]byte, minSize)
	nop := func([]byte) {}
	timings, slow := 0, 0
	benchClock = func(_ func([]byte), buf []byte, loops int) time.Duration {
		d := time.Duration(loops) * time.Duration(100+len(buf))
		if timings++; timings > slow-slopePoints*slopeReps && timings <= slow {
			d *= 10
		}
		return d
	}
	t.Cleanup(func() { benchClock = timeLoops })
	newSlope(nop, buf, 5*time.Millisecond, benchClock) // how many timings calibrating takes
	slow, timings = timings+slopePoints*slopeReps, 0
	if m := measureRow(nop, buf, 5*time.Millisecond); math.Abs(m.ns-1) > 1e-9 {
		t.Errorf("measureRow = %v ns/B, want 1", m.ns)
	}

	slow = 0
	m := measureCall(nop, buf, 5*time.Millisecond)
	if want := float64(100+minSize) / minSize; math.Abs(m.ns-want) > 1e-9 {
		t.Errorf("measureCall = %v ns/B, want %v", m.ns, want)
	}
	// Calibrated to take 1 ms a timing, at 8292 ns a call.
	if want := float64(time.Millisecond) / (100 + minSize); math.Abs(float64(m.loops)-want) > want/100 {
		t.Errorf("measureCall: %d calls a timing, want %.0f", m.loops, want)
	}
}
