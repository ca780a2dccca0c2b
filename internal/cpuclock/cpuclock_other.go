//go:build !amd64 || !gc || purego

package cpuclock

// Available reports whether MHz can measure the clock in this build; it
// cannot without the amd64 assembly.
func Available() bool { return false }

// MHz returns 0: the clock cannot be measured in this build.
func MHz() float64 { return 0 }
