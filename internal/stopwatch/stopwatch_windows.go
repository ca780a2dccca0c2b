package stopwatch

import (
	"syscall"
	"time"
	"unsafe"
)

// A Time is a reading of the stopwatch's clock: a count of the performance
// counter.
type Time struct{ count int64 }

var (
	kernel32 = syscall.NewLazyDLL("kernel32.dll")
	qpc      = kernel32.NewProc("QueryPerformanceCounter")
	// frequency is the performance counter's counts per second, fixed at
	// boot.
	frequency = func() int64 {
		var f int64
		if ok, _, err := kernel32.NewProc("QueryPerformanceFrequency").Call(uintptr(unsafe.Pointer(&f))); ok == 0 || f <= 0 {
			panic("stopwatch: QueryPerformanceFrequency: " + err.Error())
		}
		return f
	}()
)

// Now reads the clock.
func Now() Time {
	var c int64
	// It cannot fail on Windows XP and later.
	qpc.Call(uintptr(unsafe.Pointer(&c)))
	return Time{c}
}

func (t Time) since() time.Duration {
	n := Now().count - t.count
	// n/frequency seconds, without overflowing n*1e9.
	return time.Duration(n/frequency)*time.Second + time.Duration(n%frequency*int64(time.Second)/frequency)
}
