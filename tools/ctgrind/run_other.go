//go:build !(linux && amd64 && gc && valgrind)

package main

import (
	"fmt"
	"os"
)

// run fails: the client requests need a linux/amd64 build with the
// valgrind tag, under which the runtime describes its memory to valgrind.
func run() int {
	fmt.Fprintln(os.Stderr, "ctgrind: FAIL: the checks need a linux/amd64 build with -tags valgrind, run under valgrind (tools/ctgrind.sh)")
	return 2
}
