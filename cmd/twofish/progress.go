package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/term"
)

// progressMin is the input size from which enc and dec show progress: a
// known size from the start, an unknown one (a pipe) once that much has
// gone through.
const progressMin = 64 << 20

// progressEvery is how often the progress line is redrawn.
const progressEvery = 200 * time.Millisecond

// A progress draws a one-line progress bar on a terminal, redrawn in place
// with carriage returns: written with the standard library, so that the
// module's users do not inherit a dependency for it.
type progress struct {
	w     io.Writer
	total int64 // bytes, -1 if unknown
	n     atomic.Int64
	start time.Time
	now   func() time.Time
	width int // of the last line drawn, to blank it
	cols  int // the terminal's width: lines are kept shorter
	stop  chan struct{}
	wg    sync.WaitGroup
}

// isTerminal reports whether w is a terminal: a file whose terminal
// settings can be read, so not /dev/null or another character device.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// startProgress starts drawing progress on w for an input of total bytes
// (-1 if unknown), if w is a terminal and the input is or may be large;
// otherwise it returns nil, whose methods do nothing. A known total draws
// its line at once, so that it shows however fast the work ends; an
// unknown one from the first tick after progressMin bytes.
func startProgress(w io.Writer, total int64) *progress {
	if !isTerminal(w) || (total >= 0 && total < progressMin) {
		return nil
	}
	p := &progress{w: w, total: total, start: time.Now(), now: time.Now, stop: make(chan struct{}), cols: 80}
	if cols, _, err := term.GetSize(int(w.(*os.File).Fd())); err == nil && cols > 0 {
		p.cols = cols
	}
	if p.total >= 0 {
		p.draw()
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				if p.total >= 0 || p.n.Load() >= progressMin {
					p.draw()
				}
			}
		}
	}()
	return p
}

// add counts n more bytes done.
func (p *progress) add(n int) {
	if p != nil {
		p.n.Add(int64(n))
	}
}

// finish stops drawing and blanks the line.
func (p *progress) finish() {
	if p == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	if p.width > 0 {
		fmt.Fprint(p.w, "\r"+strings.Repeat(" ", p.width)+"\r")
	}
}

// draw redraws the line.
func (p *progress) draw() {
	line := p.line(p.n.Load(), p.now().Sub(p.start))
	pad := max(0, p.width-len(line))
	fmt.Fprint(p.w, "\r"+line+strings.Repeat(" ", pad))
	p.width = max(p.width, len(line))
}

// line is the progress line after done bytes in elapsed time: a bar, the
// percentage, the amounts, the speed and the time left when the total is
// known, otherwise the amount and the speed; shorter than the terminal is
// wide (a narrower bar, then fewer fields), so that it never wraps.
func (p *progress) line(done int64, elapsed time.Duration) string {
	rate := 0.0
	if elapsed > 0 {
		rate = float64(done) / elapsed.Seconds()
	}
	speed := formatBytes(int64(rate)) + "/s"
	if p.total < 0 {
		return fit(fmt.Sprintf("%s  %s", formatBytes(done), speed), p.cols-1)
	}
	done = min(done, p.total)
	frac := 1.0
	if p.total > 0 {
		frac = float64(done) / float64(p.total)
	}
	eta := "--:--"
	if rate > 0 {
		left := time.Duration(float64(p.total-done) / rate * float64(time.Second)).Round(time.Second)
		eta = fmt.Sprintf("%d:%02d", int(left.Minutes()), int(left.Seconds())%60)
	}
	rest := fmt.Sprintf(" %3d%%  %s / %s  %s  %s left", int(frac*100), formatBytes(done), formatBytes(p.total), speed, eta)
	barWidth := min(30, p.cols-1-len(rest)-2)
	if barWidth < 5 {
		return fit(fmt.Sprintf("%3d%%  %s  %s left", int(frac*100), speed, eta), p.cols-1)
	}
	filled := int(frac * float64(barWidth))
	return "[" + strings.Repeat("#", filled) + strings.Repeat("-", barWidth-filled) + "]" + rest
}

// fit cuts s to at most n bytes.
func fit(s string, n int) string {
	if len(s) > max(n, 0) {
		return s[:max(n, 0)]
	}
	return s
}

// formatBytes spells n bytes in binary units with one decimal.
func formatBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
