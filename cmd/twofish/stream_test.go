package main

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"
	"time"
)

// TestUnpad checks the padding check on every last byte and on a wrong
// byte at every place of the padding.
func TestUnpad(t *testing.T) {
	for n := range 256 {
		b := bytes.Repeat([]byte{0xaa}, 16)
		for i := max(0, 16-n); i < 16; i++ {
			b[i] = byte(n)
		}
		want := -1
		if n >= 1 && n <= 16 {
			want = 16 - n
		}
		if got := unpad(b); got != want {
			t.Errorf("unpad of a block ending in %d bytes of %d: %d, want %d", n, n, got, want)
		}
		if n >= 2 && n <= 16 {
			for i := 16 - n; i < 15; i++ {
				c := bytes.Clone(b)
				c[i] ^= 0x40
				if got := unpad(c); got != -1 {
					t.Errorf("unpad with padding %d and byte %d wrong: %d, want -1", n, i, got)
				}
			}
		}
	}
	if got := pad(make([]byte, 5, 32)); len(got) != 16 || got[15] != 11 || got[5] != 11 {
		t.Errorf("pad of 5 bytes: %x", got)
	}
	if got := pad(make([]byte, 16, 32)); len(got) != 32 || unpad(got[16:]) != 0 {
		t.Errorf("pad of 16 bytes: %x", got)
	}
}

func TestCounterAt(t *testing.T) {
	for _, tc := range []struct {
		iv   string
		off  int64
		want string
	}{
		{"00000000000000000000000000000000", 16, "00000000000000000000000000000001"},
		{"0000000000000000ffffffffffffffff", 16, "00000000000000010000000000000000"},
		{"ffffffffffffffffffffffffffffffff", 32, "00000000000000000000000000000001"},
		{"0123456789abcdef0000000000000000", 1 << 40, "0123456789abcdef0000001000000000"},
	} {
		iv, _ := hex.DecodeString(tc.iv)
		if got := hex.EncodeToString(counterAt(iv, tc.off)); got != tc.want {
			t.Errorf("counterAt(%s, %d) = %s, want %s", tc.iv, tc.off, got, tc.want)
		}
	}
}

// TestProgress checks the progress line, that it fits the terminal's
// width, and that a pipe gets none.
func TestProgress(t *testing.T) {
	p := &progress{total: 1 << 30, cols: 100}
	line := p.line(256<<20, 2*time.Second)
	if want := "[#######-----------------------]  25%  256.0 MiB / 1.0 GiB  128.0 MiB/s  0:06 left"; line != want {
		t.Errorf("line = %q, want %q", line, want)
	}
	for cols, want := range map[int]string{
		80: "[######---------------------]  25%  256.0 MiB / 1.0 GiB  128.0 MiB/s  0:06 left",
		50: " 25%  128.0 MiB/s  0:06 left",
		10: " 25%  128",
	} {
		p.cols = cols
		if line := p.line(256<<20, 2*time.Second); line != want || len(line) >= cols {
			t.Errorf("%d columns: line = %q, want %q", cols, line, want)
		}
	}
	p.total, p.cols = -1, 80
	if line, want := p.line(100<<20, time.Second), "100.0 MiB  100.0 MiB/s"; line != want {
		t.Errorf("line of an unknown total = %q, want %q", line, want)
	}
	var b strings.Builder
	if startProgress(&b, 1<<40) != nil {
		t.Error("progress on a strings.Builder")
	}
	var none *progress
	none.add(1)
	none.finish()

	// Drawing and blanking.
	p = &progress{w: &b, total: 1 << 30, start: time.Now(), now: time.Now, stop: make(chan struct{}), cols: 80}
	p.add(1 << 29)
	p.draw()
	p.finish()
	if out := b.String(); !strings.HasPrefix(out, "\r[###") || !strings.Contains(out, "]  50%") || !strings.HasSuffix(out, strings.Repeat(" ", p.width)+"\r") {
		t.Errorf("drawn: %q", out)
	}
}
