package turns

import (
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/twofish-go/twofish/internal/stopwatch"
)

// set101Iterations makes testing.Benchmark run 101 iterations (and the one
// it starts with), not a second's worth, until t ends.
func set101Iterations(t *testing.T) {
	t.Helper()
	bt := flag.Lookup("test.benchtime")
	old := bt.Value.String()
	if err := bt.Value.Set("101x"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bt.Value.Set(old) })
}

// TestTakeAlternates checks that Take calls each operation once an
// iteration, f first in even iterations and g first in odd ones, and files
// each duration under its own operation: f takes a millisecond on the
// stopwatch, so each of its durations is at least that, however fast the
// machine. (It sleeps, then waits out the rest on the stopwatch's clock:
// on Windows time.Sleep keeps another, by which a millisecond took 0.90 ms
// of QueryPerformanceCounter's under Wine.)
func TestTakeAlternates(t *testing.T) {
	set101Iterations(t)
	var calls strings.Builder
	var times Times
	n := 0
	testing.Benchmark(func(b *testing.B) {
		calls.Reset()
		f := func() {
			calls.WriteByte('f')
			start := stopwatch.Now()
			time.Sleep(time.Millisecond)
			for stopwatch.Since(start) < time.Millisecond {
			}
		}
		times = Take(b, f, func() { calls.WriteByte('g') })
		n = b.N
	})
	if len(times.F) != n || len(times.G) != n {
		t.Fatalf("%d iterations gave %d and %d durations", n, len(times.F), len(times.G))
	}
	want := strings.Repeat("fggf", n/2) + strings.Repeat("fg", n%2)
	if calls.String() != want {
		t.Errorf("calls %.40q..., want %.40q...", calls.String(), want)
	}
	for i := range n {
		if times.F[i] < time.Millisecond || times.G[i] < 0 {
			t.Fatalf("iteration %d: f took %v (it sleeps 1ms), g %v", i, times.F[i], times.G[i])
		}
	}
}

// TestStatistics checks Sum, Median (the upper middle value of an even
// number) and Ratio.
func TestStatistics(t *testing.T) {
	odd := []time.Duration{5, 1, 4, 2, 3}
	even := []time.Duration{40, 10, 30, 20}
	if got := Sum(odd); got != 15 {
		t.Errorf("Sum = %v, want 15", got)
	}
	if got := Median(odd); got != 3 {
		t.Errorf("Median of 1..5 = %v, want 3", got)
	}
	if got := Median(even); got != 30 {
		t.Errorf("Median of 10, 20, 30, 40 = %v, want 30", got)
	}
	if got := Ratio(Sum, even, odd); got != 100.0/15 {
		t.Errorf("Ratio of sums = %v, want %v", got, 100.0/15)
	}
}

// TestTakeTimesEachCallAlone checks that each duration Take files is that
// of its own call alone: at least what the call measures of itself, and at
// most the time from the end of the call before it to the start of the
// call after it, on the same clock. Each call waits 200µs on the
// stopwatch, so a duration that took in the other operation's call too
// breaks the second bound by that much, however fast the machine; the
// bounds allow the clocks' rounding.
func TestTakeTimesEachCallAlone(t *testing.T) {
	set101Iterations(t)
	type call struct {
		f    bool
		a, b time.Duration // start and end on the stopwatch since base
	}
	var calls []call
	base := stopwatch.Now()
	op := func(f bool) func() {
		return func() {
			a := stopwatch.Since(base)
			for stopwatch.Since(base)-a < 200*time.Microsecond {
			}
			calls = append(calls, call{f, a, stopwatch.Since(base)})
		}
	}
	var times Times
	testing.Benchmark(func(b *testing.B) {
		calls = calls[:0]
		times = Take(b, op(true), op(false))
	})
	if len(calls) != len(times.F)+len(times.G) {
		t.Fatalf("%d calls gave %d and %d durations", len(calls), len(times.F), len(times.G))
	}
	const slack = time.Microsecond
	var nf, ng int
	for i, c := range calls {
		name, d := "f", time.Duration(0)
		if c.f {
			d, nf = times.F[nf], nf+1
		} else {
			name, d, ng = "g", times.G[ng], ng+1
		}
		if own := c.b - c.a; d < own-slack {
			t.Fatalf("call %d (%s): timed %v, but took %v", i, name, d, own)
		}
		if i > 0 && i < len(calls)-1 {
			if most := calls[i+1].a - calls[i-1].b; d > most+slack {
				t.Fatalf("call %d (%s): timed %v, more than the %v between the calls around it", i, name, d, most)
			}
		}
	}
}
