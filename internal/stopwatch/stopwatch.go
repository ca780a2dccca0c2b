// Package stopwatch times short intervals with the finest monotonic clock
// the system offers: the bench command's timings and internal/cpuclock's
// samples, each a fraction of a millisecond to a few milliseconds long, and
// the single calls that internal/turns times.
//
// That is time.Now's monotonic reading everywhere but on Windows, where Go
// reads it from the interrupt time that the kernel advances only at each
// timer interrupt, 0.5 to 15.6 ms apart: there a 0.3 ms sample read 0 and a
// 2 ms timing 0 or a whole tick. On Windows the stopwatch reads
// QueryPerformanceCounter instead, whose ticks are 100 ns on Windows 10 and
// later.
package stopwatch

import "time"

// Since returns the time elapsed since t.
func Since(t Time) time.Duration { return t.since() }
