//go:build (linux || darwin) && gc && !purego && (amd64 || arm64)

package kernel

import (
	"fmt"
	"runtime/debug"
)

// faults runs f, and returns the fault it caused, if any, as an error
// rather than a crash.
func faults(f func()) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	f()
	return nil
}
