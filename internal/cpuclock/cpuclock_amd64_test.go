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
