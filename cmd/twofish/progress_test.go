package main

import (
	"strings"
	"testing"
	"time"
)

// TestProgressLineEdges checks the progress line where the numbers are at
// their edges: no time elapsed and nothing done (no speed, so no time
// left), more done than the total (100%, not more), more than a minute
// left, the narrowest terminal that still has room for a bar, and an
// unknown total on a narrow terminal.
func TestProgressLineEdges(t *testing.T) {
	p := &progress{total: 1 << 30, cols: 100}
	for _, tc := range []struct {
		cols    int
		done    int64
		elapsed time.Duration
		want    string
	}{
		{100, 5 << 20, 0, "[------------------------------]   0%  5.0 MiB / 1.0 GiB  0 B/s  --:-- left"},
		{100, 0, time.Second, "[------------------------------]   0%  0 B / 1.0 GiB  0 B/s  --:-- left"},
		{100, 2 << 30, time.Second, "[##############################] 100%  1.0 GiB / 1.0 GiB  2.0 GiB/s  0:00 left"},
		{100, 256 << 20, 30 * time.Second, "[#######-----------------------]  25%  256.0 MiB / 1.0 GiB  8.5 MiB/s  1:30 left"},
		{58, 256 << 20, 2 * time.Second, "[#----]  25%  256.0 MiB / 1.0 GiB  128.0 MiB/s  0:06 left"},
	} {
		p.cols = tc.cols
		if got := p.line(tc.done, tc.elapsed); got != tc.want {
			t.Errorf("%d columns, %d bytes in %v: line = %q, want %q", tc.cols, tc.done, tc.elapsed, got, tc.want)
		}
	}
	p.total, p.cols = -1, 15
	if got, want := p.line(100<<20, time.Second), "100.0 MiB  100"; got != want {
		t.Errorf("unknown total, 15 columns: line = %q, want %q", got, want)
	}
}

// TestProgressRedraw checks that a line shorter than the one before it is
// padded with spaces over the rest of that one, and that finish blanks the
// widest line drawn, and writes nothing where no line was drawn.
func TestProgressRedraw(t *testing.T) {
	start := time.Unix(1000, 0)
	var b strings.Builder
	p := &progress{w: &b, total: 1 << 30, start: start, now: func() time.Time { return start.Add(time.Second) }, stop: make(chan struct{}), cols: 80, width: 90}
	p.draw()
	if out := b.String(); len(out) != 1+90 || !strings.HasPrefix(out, "\r[") || !strings.HasSuffix(strings.TrimRight(out, " "), "left") {
		t.Errorf("a shorter line drawn over a 90-byte one: %q", out)
	}
	if p.width != 90 {
		t.Errorf("width %d after a shorter line, want the 90 to blank", p.width)
	}
	b.Reset()
	p.finish()
	if want := "\r" + strings.Repeat(" ", 90) + "\r"; b.String() != want {
		t.Errorf("finish wrote %q, want %q", b.String(), want)
	}

	b.Reset()
	p = &progress{w: &b, total: -1, start: start, now: time.Now, stop: make(chan struct{}), cols: 80}
	p.finish()
	if b.Len() != 0 {
		t.Errorf("finish of a line never drawn wrote %q", b.String())
	}
}

// TestFormatBytes checks each unit from its first value.
func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 B", 1023: "1023 B", 1 << 10: "1.0 KiB", 1<<20 - 1: "1024.0 KiB",
		1 << 20: "1.0 MiB", 1<<30 - 1: "1024.0 MiB", 1 << 30: "1.0 GiB", 5 << 40: "5120.0 GiB",
	} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestFit checks that fit cuts to at most n bytes, none for n below 1.
func TestFit(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{5, "abc"}, {3, "abc"}, {2, "ab"}, {0, ""}, {-1, ""}} {
		if got := fit("abc", tc.n); got != tc.want {
			t.Errorf("fit(%q, %d) = %q, want %q", "abc", tc.n, got, tc.want)
		}
	}
}
