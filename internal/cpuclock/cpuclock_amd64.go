//go:build gc && !purego

package cpuclock

import (
	"math"
	"time"

	"github.com/twofish-go/twofish/internal/stopwatch"
)

const (
	// sampleIterations is the addChain argument of one sample: 2^13 loop
	// iterations of 128 ADDs, about a million cycles, 0.3 ms at 3.5 GHz,
	// against which reading the clock twice costs nothing measurable.
	sampleIterations = 1 << 13
	// samples is how many samples MHz takes; it reports the fastest,
	// because an interrupt or preemption can only lengthen a sample.
	samples = 5
)

// Available reports whether MHz can measure the clock in this build.
func Available() bool { return true }

// MHz measures the current clock rate of the core the calling goroutine
// runs on, in MHz. It takes a few milliseconds. It returns 0 where
// Available reports false.
func MHz() float64 { return fastest(samples, sample) }

// sample times one chain of sampleIterations iterations and returns how
// many ADDs it ran and how long it took.
func sample() (adds uint64, d time.Duration) {
	start := stopwatch.Now()
	adds = addChain(sampleIterations)
	return adds, stopwatch.Since(start)
}

// fastest takes n samples and returns the rate of the one that took the
// least time.
func fastest(n int, sample func() (uint64, time.Duration)) float64 {
	best, bestAdds := time.Duration(math.MaxInt64), uint64(0)
	for range n {
		if adds, d := sample(); d < best {
			best, bestAdds = d, adds
		}
	}
	return rate(bestAdds, best)
}

// rate returns the clock rate in MHz of a chain of adds one-cycle ADDs
// that took d, 0 if d is not positive (a clock too coarse to time it).
func rate(adds uint64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(adds) / (float64(d) / float64(time.Microsecond))
}
