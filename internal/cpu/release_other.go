//go:build !darwin

package cpu

// osRelease returns "": only Darwin's release changes the facts (osFacts).
func osRelease() string { return "" }
