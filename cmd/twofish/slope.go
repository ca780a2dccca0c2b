package main

import (
	"slices"
	"time"

	"github.com/twofish-go/twofish/internal/stopwatch"
)

// The shape of a measurement, after libgcrypt's tests/bench-slope.c: time
// the operation on slopePoints buffer lengths, fit a least-squares line of
// time against length, whose slope is the cost per byte without the cost
// per call, and report the median of slopeFits such fits. bench-slope takes
// many more points and repetitions; these few fit a row into 0.3 s.
const slopePoints = 8 // buffer lengths per fit, from size/slopePoints to size

// slopeFits and slopeReps are variables only for the tests' model clock,
// whose timings never vary: it takes one of each.
var (
	slopeFits = 5 // fits per row; it reports their median
	slopeReps = 3 // timings per point; the point is their median
)

// bufferLengths returns the slopePoints buffer lengths that a fit with
// buffers of up to size bytes times, evenly spaced and rounded down to
// whole 16-byte blocks. size must be a multiple of 16, at least 128.
func bufferLengths(size int) []int {
	lengths := make([]int, slopePoints)
	for i := range lengths {
		lengths[i] = size * (i + 1) / slopePoints &^ 15
	}
	return lengths
}

// A timer returns how long loops calls of op on buf take: timeLoops, or a
// model of it in tests.
type timer func(op func(buf []byte), buf []byte, loops int) time.Duration

// A slope measures what an operation costs per byte, one fit at a time.
type slope struct {
	op      func(buf []byte) // processes its argument in place
	time    timer            // timeLoops, or a model of it in tests
	buf     []byte           // op's buffer; each fit times prefixes of it
	lengths []int            // bufferLengths(len(buf))
	xs      []float64        // lengths, for the fit
	loops   int              // calls of op per timing
}

// newSlope prepares to measure op on buf with tm, with about budget for
// slopeFits fits, and spends a little of it calibrating.
func newSlope(op func(buf []byte), buf []byte, budget time.Duration, tm timer) *slope {
	s := &slope{op: op, time: tm, buf: buf, lengths: bufferLengths(len(buf))}
	total := 0
	for _, n := range s.lengths {
		s.xs = append(s.xs, float64(n))
		total += n
	}
	// Every timing runs op the same number of times, whatever the length,
	// as bench-slope does: as many as take budget, shared out among all the
	// timings, each counted in proportion to its length. (In floating point:
	// slopeFits*slopeReps*total passes a 32-bit int from -size 30 MiB.)
	timings := float64(slopeFits*slopeReps) * float64(total) / float64(len(buf))
	s.loops = calibrate(op, buf, time.Duration(float64(budget)/timings), tm)
	return s
}

// fit times op on each length slopeReps times and returns the slope, in
// nanoseconds per byte, of the least-squares line through the medians.
func (s *slope) fit() float64 {
	ys := make([]float64, len(s.lengths))
	reps := make([]float64, slopeReps)
	for i, n := range s.lengths {
		for r := range reps {
			reps[r] = float64(s.time(s.op, s.buf[:n], s.loops)) / float64(s.loops)
		}
		ys[i] = median(reps)
	}
	return fitSlope(s.xs, ys)
}

// maxLoops bounds the calls of an operation per timing: a 32-bit int holds
// it, and at a nanosecond a call they take a second.
const maxLoops = 1 << 30

// calibrate returns how many calls of op on buf take about target, from 1
// to maxLoops, found by timing twice as many calls each time until they
// take an eighth of target.
func calibrate(op func(buf []byte), buf []byte, target time.Duration, tm timer) int {
	for loops := 1; ; loops *= 2 {
		d := tm(op, buf, loops)
		if d >= target/8 || loops >= maxLoops {
			return int(min(max(float64(loops)*float64(target)/float64(max(d, 1)), 1), maxLoops))
		}
	}
}

// timeLoops returns how long loops calls of op on buf take, on the
// stopwatch: a timing takes a few milliseconds, under the step of time.Now
// on Windows.
func timeLoops(op func(buf []byte), buf []byte, loops int) time.Duration {
	start := stopwatch.Now()
	for range loops {
		op(buf)
	}
	return stopwatch.Since(start)
}

// fitSlope returns the slope of the least-squares line through the points
// (xs[i], ys[i]).
func fitSlope(xs, ys []float64) float64 {
	var sx, sy, sxx, sxy float64
	for i, x := range xs {
		sx += x
		sy += ys[i]
		sxx += x * x
		sxy += x * ys[i]
	}
	n := float64(len(xs))
	return (n*sxy - sx*sy) / (n*sxx - sx*sx)
}

// median returns the median of vs, which it leaves in sorted order.
func median(vs []float64) float64 {
	slices.Sort(vs)
	m := len(vs) / 2
	if len(vs)%2 == 1 {
		return vs[m]
	}
	return (vs[m-1] + vs[m]) / 2
}
