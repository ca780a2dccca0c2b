//go:build gc && !purego

package cpuclock

import (
	"testing"
	"time"

	"github.com/twofish-go/twofish/internal/stopwatch"
)

// TestAddChain checks that the chain runs and counts 128 ADDs an iteration.
func TestAddChain(t *testing.T) {
	for _, n := range []uint64{1, 2, 1000} {
		if got := addChain(n); got != 128*n {
			t.Errorf("addChain(%d) = %d, want %d", n, got, 128*n)
		}
	}
}

// TestRate checks the arithmetic from a chain's length and time to MHz.
func TestRate(t *testing.T) {
	for _, tc := range []struct {
		adds uint64
		d    time.Duration
		want float64
	}{
		{3_500_000, time.Millisecond, 3500},
		{1 << 20, 0, 0},
		{1 << 20, -time.Nanosecond, 0},
	} {
		if got := rate(tc.adds, tc.d); got != tc.want {
			t.Errorf("rate(%d, %v) = %v, want %v", tc.adds, tc.d, got, tc.want)
		}
	}
}

// TestSample checks that a sample counts the ADDs of one whole chain.
func TestSample(t *testing.T) {
	if adds, d := sample(); adds != 128*sampleIterations || d < 0 {
		t.Errorf("sample() = %d ADDs in %v, want %d in a time not negative", adds, d, 128*sampleIterations)
	}
}

// TestFastest checks that the rate is that of the quickest sample, with
// its own count of ADDs, whatever its place among the samples: an
// interrupt or preemption can only lengthen a sample. The samples' rates
// differ, and the quickest's is neither the highest nor the lowest.
func TestFastest(t *testing.T) {
	type s struct {
		adds uint64
		d    time.Duration
	}
	quick := s{4_000_000, time.Millisecond}       // 4000 MHz
	slow := s{6_000_000, 2 * time.Millisecond}    // 3000 MHz
	slower := s{20_000_000, 4 * time.Millisecond} // 5000 MHz
	for _, tc := range []struct {
		samples []s
		want    float64
	}{
		{[]s{quick, slow, slower}, 4000},
		{[]s{slower, slow, quick}, 4000},
		{[]s{slow, quick, slower}, 4000},
		{[]s{slow, {1 << 20, 0}, quick}, 0},
	} {
		i := 0
		got := fastest(len(tc.samples), func() (uint64, time.Duration) {
			i++
			return tc.samples[i-1].adds, tc.samples[i-1].d
		})
		if i != len(tc.samples) || got != tc.want {
			t.Errorf("fastest of %v took %d samples and gave %v MHz, want %d and %v", tc.samples, i, got, len(tc.samples), tc.want)
		}
	}
}

// TestMHzFastestSample checks that MHz reports the rate of its fastest
// sample rather than of a slower one or none: its samples lie one after
// another within the call, so the fastest took at most the call's time
// over the number of samples, and its rate is at least that of a sample
// that long (less 1% for the clock's rounding). The bound holds however
// fast the machine runs.
func TestMHzFastestSample(t *testing.T) {
	start := stopwatch.Now()
	mhz := MHz()
	whole := stopwatch.Since(start)
	if least := rate(128*sampleIterations, whole/samples); !(mhz >= 0.99*least) {
		t.Errorf("MHz() = %v, under the %v of %d samples in the %v the call took", mhz, least, samples, whole)
	}
}
