package main

import (
	"io"
	"os"
	"testing"
)

// TestStartProgress checks when enc and dec show progress on a terminal:
// for an input of progressMin bytes or more, drawn at once, or of unknown
// size, but not for a smaller one, an empty one included; and that the
// line is kept to the terminal's width, 80 columns where the terminal
// gives none.
func TestStartProgress(t *testing.T) {
	for _, tc := range []struct {
		cols, wantCols int
	}{{50, 50}, {0, 80}} {
		master, slave := newPTY(t, tc.cols)
		go io.Copy(io.Discard, master) // the lines drawn
		tty, err := os.OpenFile(slave, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, total := range []int64{0, 1, progressMin - 1} {
			if p := startProgress(tty, total); p != nil {
				p.finish()
				t.Errorf("progress for %d bytes", total)
			}
		}
		for _, total := range []int64{progressMin, 1 << 40, -1} {
			p := startProgress(tty, total)
			if p == nil {
				t.Errorf("no progress for %d bytes", total)
				continue
			}
			p.finish()
			if p.cols != tc.wantCols {
				t.Errorf("a terminal of %d columns: lines for %d", tc.cols, p.cols)
			}
			if drawn := p.width > 0; drawn != (total >= 0) {
				t.Errorf("%d bytes: drawn at once: %v", total, drawn)
			}
		}
		tty.Close()
	}
}
