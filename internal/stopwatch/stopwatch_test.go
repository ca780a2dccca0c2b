package stopwatch

import (
	"testing"
	"time"
)

// TestResolution checks that the stopwatch can time what it is for: two
// readings in a row, taken again and again, differ by under 20 µs at
// least once (a clock that advances only at the timer interrupt, as
// time.Now does on Windows, steps by 0.5 ms or more).
func TestResolution(t *testing.T) {
	smallest := time.Duration(-1)
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); {
		t0 := Now()
		for {
			if d := Since(t0); d > 0 {
				if smallest < 0 || d < smallest {
					smallest = d
				}
				break
			}
		}
		if smallest > 0 && smallest < 20*time.Microsecond {
			t.Logf("a step of %v", smallest)
			return
		}
	}
	t.Fatalf("the smallest step of the stopwatch in a second was %v, want under 20µs", smallest)
}

// TestSince checks that the stopwatch agrees with time.Now: an interval
// of 50 ms on the stopwatch lies between the time.Now intervals read just
// inside and just outside it, give or take two of time.Now's steps, which
// are up to 16 ms on Windows.
func TestSince(t *testing.T) {
	outerStart := time.Now()
	s := Now()
	innerStart := time.Now()
	for Since(s) < 50*time.Millisecond {
	}
	inner := time.Since(innerStart)
	got := Since(s)
	outer := time.Since(outerStart)
	const slack = 32 * time.Millisecond
	if got < inner-slack || got > outer+slack {
		t.Errorf("Since = %v, want between %v and %v, give or take %v", got, inner, outer, slack)
	}
}
