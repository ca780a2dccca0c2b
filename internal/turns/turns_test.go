package turns

import (
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/twofish-go/twofish/internal/stopwatch"
)

// TestTakeAlternates checks that Take calls each operation once an
// iteration, f first in even iterations and g first in odd ones, and files
// each duration under its own operation: f takes a millisecond on the
// stopwatch, so each of its durations is at least that, however fast the
// machine. (It sleeps, then waits out the rest on the stopwatch's clock:
// on Windows time.Sleep keeps another, by which a millisecond took 0.90 ms
// of QueryPerformanceCounter's under Wine.)
func TestTakeAlternates(t *testing.T) {
	// 101 iterations (and the one testing.Benchmark starts with), not a
	// second's worth.
	bt := flag.Lookup("test.benchtime")
	old := bt.Value.String()
	if err := bt.Value.Set("101x"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bt.Value.Set(old) })
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
