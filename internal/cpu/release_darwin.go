package cpu

import "syscall"

// osRelease returns the kernel's release (kern.osrelease, "21.3.0"), or ""
// if it cannot be read.
func osRelease() string {
	s, err := syscall.Sysctl("kern.osrelease")
	if err != nil {
		return ""
	}
	return s
}
