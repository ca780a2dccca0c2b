//go:build !windows

package stopwatch

import "time"

// A Time is a reading of the stopwatch's clock.
type Time struct{ t time.Time }

// Now reads the clock.
func Now() Time { return Time{time.Now()} }

func (t Time) since() time.Duration { return time.Since(t.t) }
