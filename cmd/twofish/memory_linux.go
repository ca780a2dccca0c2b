package main

import (
	"math"

	"golang.org/x/sys/unix"
)

// canMap reports whether this process can have n more bytes of memory now:
// it maps them, as the Go runtime maps its heap, without touching them,
// and unmaps them. A limit on the process's address space or data (ulimit
// -v, ulimit -d) or the system's commit limit refuses such a mapping as it
// refuses the runtime's, which then stops the process ("fatal error: out of
// memory"), where no recover can catch it: a header that asks Argon2id for
// 1 GiB did so under ulimit -v 2000000. A limit that the kernel enforces
// later by killing the process (a cgroup's memory.max) is not seen here.
func canMap(n uint64) bool {
	if n > math.MaxInt {
		return false
	}
	b, err := unix.Mmap(-1, 0, int(n), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return false
	}
	unix.Munmap(b)
	return true
}
