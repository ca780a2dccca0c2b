package main

import (
	"math"
	"slices"
	"testing"
	"time"
)

func TestBufferLengths(t *testing.T) {
	for _, tc := range []struct {
		size int
		want []int
	}{
		{128, []int{16, 32, 48, 64, 80, 96, 112, 128}},
		{144, []int{16, 32, 48, 64, 80, 96, 112, 144}},
		{8192, []int{1024, 2048, 3072, 4096, 5120, 6144, 7168, 8192}},
	} {
		if got := bufferLengths(tc.size); !slices.Equal(got, tc.want) {
			t.Errorf("bufferLengths(%d) = %v, want %v", tc.size, got, tc.want)
		}
	}
}

func TestFitSlope(t *testing.T) {
	xs := []float64{16, 32, 48, 64}
	ys := make([]float64, len(xs))
	for i, x := range xs {
		ys[i] = 2.5*x + 40
	}
	if got := fitSlope(xs, ys); got != 2.5 {
		t.Errorf("fitSlope of y = 2.5x + 40: %v, want 2.5", got)
	}
}

func TestMedian(t *testing.T) {
	if got := median([]float64{5, 1, 4, 2, 3}); got != 3 {
		t.Errorf("median of 1..5 = %v, want 3", got)
	}
	if got := median([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Errorf("median of 1..4 = %v, want 2.5", got)
	}
}

// TestSlope checks that a fit recovers the cost per byte of an operation
// without its cost per call, on a model clock: 2.5 ns a byte and 40 ns a
// call, whatever the machine's speed or load.
func TestSlope(t *testing.T) {
	calls := 0
	op := func([]byte) { calls++ }
	model := func(op func([]byte), buf []byte, loops int) time.Duration {
		for range loops {
			op(buf)
		}
		return time.Duration(loops) * (40 + time.Duration(len(buf))*5/2)
	}
	s := newSlope(op, make([]byte, 1024), 5*time.Millisecond, model)
	if s.loops < 1 {
		t.Fatalf("calibrated to %d loops, want at least 1", s.loops)
	}
	if ns := s.fit(); math.Abs(ns-2.5) > 1e-9 {
		t.Errorf("fit = %v ns/B, want 2.5", ns)
	}
	if calls == 0 {
		t.Error("the operation never ran")
	}
}

// TestSlopeLoops checks how many calls a timing makes, on a model clock of
// a nanosecond a call: at every -size, the budget shared out among the
// timings (about 4.5 buffers' worth each fit, slopeFits*slopeReps times), and
// never more than maxLoops, however long the budget; on a 32-bit int the
// count of timings overflowed from -size 30 MiB (one call a timing, then a
// division by zero) and the calls from 2^31.
func TestSlopeLoops(t *testing.T) {
	model := func(_ func([]byte), _ []byte, loops int) time.Duration { return time.Duration(loops) }
	nop := func([]byte) {}
	for _, size := range []int{minSize, 32 << 20, 64000000, maxSize} {
		total := 0
		for _, n := range bufferLengths(size) {
			total += n
		}
		budget := 300 * time.Millisecond
		want := float64(budget) * float64(size) / (float64(slopeFits*slopeReps) * float64(total))
		if got := newSlope(nop, make([]byte, size), budget, model).loops; math.Abs(float64(got)-want) > want/100 {
			t.Errorf("-size %d: %d calls a timing, want %.0f", size, got, want)
		}
	}
	for _, target := range []time.Duration{10 * time.Second, time.Hour} {
		if got := calibrate(nop, nil, target, model); got != maxLoops {
			t.Errorf("calibrate for %v at 1 ns a call: %d calls, want maxLoops", target, got)
		}
	}
}

// TestTimeLoops checks that timeLoops calls the operation loops times on
// the buffer it is given.
func TestTimeLoops(t *testing.T) {
	calls, bytes := 0, 0
	if d := timeLoops(func(b []byte) { calls++; bytes += len(b) }, make([]byte, 48), 7); d < 0 {
		t.Errorf("timeLoops took %v", d)
	}
	if calls != 7 || bytes != 7*48 {
		t.Errorf("timeLoops ran %d calls over %d bytes, want 7 over %d", calls, bytes, 7*48)
	}
}

// TestSlopeMedianOfReps checks that each point of a fit is the median of
// its slopeReps timings, so that one slow timing in each point's three
// (an interrupt, a migration) moves no point: on a model clock of 2.5 ns a
// byte whose first timing of each point is ten times that, the fit is
// still 2.5 ns a byte.
func TestSlopeMedianOfReps(t *testing.T) {
	fitting, timings := false, 0
	model := func(_ func([]byte), buf []byte, loops int) time.Duration {
		d := time.Duration(loops) * time.Duration(len(buf)) * 5 / 2
		if fitting {
			if timings%slopeReps == 0 {
				d *= 10
			}
			timings++
		}
		return d
	}
	s := newSlope(func([]byte) {}, make([]byte, 1024), 5*time.Millisecond, model)
	fitting = true
	if ns := s.fit(); math.Abs(ns-2.5) > 1e-9 {
		t.Errorf("fit = %v ns/B, want 2.5", ns)
	}
	if timings != slopePoints*slopeReps {
		t.Errorf("a fit took %d timings, want %d", timings, slopePoints*slopeReps)
	}
}
