// Command unwind keeps the CPU in the kernels of one implementation, for
// the frame-pointer unwinding test (asm_amd64_test.go), which runs it under
// perf record --call-graph fp:
//
//	unwind -impl amd64-3way -for 2s
//
// It encrypts and decrypts an 8 KiB buffer in ECB mode from main.main, so
// that every sample in a kernel should unwind to main.main.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/twofish-go/twofish"
)

func main() {
	impl := flag.String("impl", "amd64-1way", "implementation to run")
	d := flag.Duration("for", 2*time.Second, "how long to run")
	flag.Parse()
	c, err := twofish.NewCipherImpl(make([]byte, 32), *impl)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	enc, dec := twofish.NewECBEncrypter(c), twofish.NewECBDecrypter(c)
	buf := make([]byte, 8192)
	n := 0
	for end := time.Now().Add(*d); time.Now().Before(end); n++ {
		for range 16 {
			enc.CryptBlocks(buf, buf)
			dec.CryptBlocks(buf, buf)
		}
	}
	fmt.Println(*impl, n)
}
