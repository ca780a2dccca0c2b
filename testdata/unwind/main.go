// Command unwind keeps the CPU in the kernels of one implementation, for
// the frame-pointer unwinding test (asm_amd64_test.go), which runs it under
// perf record --call-graph fp:
//
//	unwind -impl amd64-3way -for 2s
//
// It encrypts and decrypts an 8 KiB buffer in ECB mode from main.main, so
// that every sample in a kernel should unwind to main.main, until it has
// used the -for duration of CPU time: perf's cpu-clock samples only the
// time it runs, so that a loaded machine, which runs it less of the wall
// clock's time, still gives it the same number of samples.
package main

import (
	"flag"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/twofish-go/twofish"
)

func main() {
	impl := flag.String("impl", "amd64-1way", "implementation to run")
	d := flag.Duration("for", 2*time.Second, "how much CPU time to run for")
	flag.Parse()
	c, err := twofish.NewCipherImpl(make([]byte, 32), *impl)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	enc, dec := twofish.NewECBEncrypter(c), twofish.NewECBDecrypter(c)
	buf := make([]byte, 8192)
	n := 0
	for ; cpuTime() < *d; n++ {
		for range 16 {
			enc.CryptBlocks(buf, buf)
			dec.CryptBlocks(buf, buf)
		}
	}
	fmt.Println(*impl, n)
}

// cpuTime returns the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
