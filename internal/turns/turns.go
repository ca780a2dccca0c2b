// Package turns times two operations that take turns in one benchmark, so
// that it can report one's speed as a multiple of the other's measured in
// the same moments of a shared, noisy machine.
package turns

import (
	"slices"
	"testing"
	"time"

	"github.com/twofish-go/twofish/internal/stopwatch"
)

// Times are the durations of the calls of the two operations of Take, in
// the order of the calls.
type Times struct{ F, G []time.Duration }

// Take calls f and g once each per iteration of b's loop, f first in one
// iteration and g first in the next, and times each call between two
// readings of the monotonic clock alone, on the stopwatch (whose clock on
// Windows is finer than time.Now's). Both rules keep the order from
// favouring either: time.Now reads the wall clock too, so a call timed
// from time.Now to time.Since was charged one more clock reading than one
// timed from time.Since to time.Since (about 20 ns on this project's
// kvm-clock machines: 8% of a 512-byte CTR call, 19% of a 16-byte ECB
// call), and a call may run faster or slower after the other than after
// itself.
func Take(b *testing.B, f, g func()) Times {
	var t Times
	start := stopwatch.Now()
	for i := 0; b.Loop(); i++ {
		first, second := f, g
		if i%2 == 1 {
			first, second = g, f
		}
		t0 := stopwatch.Since(start)
		first()
		t1 := stopwatch.Since(start)
		second()
		t2 := stopwatch.Since(start)
		df, dg := t1-t0, t2-t1
		if i%2 == 1 {
			df, dg = dg, df
		}
		t.F, t.G = append(t.F, df), append(t.G, dg)
	}
	return t
}

// Sum is the total of ds.
func Sum(ds []time.Duration) time.Duration {
	var s time.Duration
	for _, d := range ds {
		s += d
	}
	return s
}

// Median is the median of ds, which it sorts: the middle value, and of an
// even number the upper of the two middle ones (a time measured, where the
// mean of two would be one never measured).
func Median(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// Ratio is stat(num) / stat(den) as a float, for b.ReportMetric.
func Ratio(stat func([]time.Duration) time.Duration, num, den []time.Duration) float64 {
	return float64(stat(num)) / float64(stat(den))
}
