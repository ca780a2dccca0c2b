//go:build gc && !purego

package cpuclock

import (
	"testing"
	"time"
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
