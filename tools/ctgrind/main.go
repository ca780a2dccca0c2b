// Command ctgrind checks with valgrind's memcheck that the constant-time
// Twofish paths make no branch and no memory access that depends on a
// secret (the "ctgrind" method of Adam Langley, 2010).
//
// Built with -tags valgrind (Go 1.25 or later: the runtime then describes
// its heap and stacks to valgrind), on linux/amd64, and run under
// valgrind --tool=memcheck --xml=yes, it marks the key and every message
// undefined with memcheck's client requests before it hands them to
// NewCipherConstantTime, NewXTSConstantTime and every mode and AEAD on top
// of them, and marks each result defined before it compares it with the
// answer of a reference cipher whose inputs were never marked. Memcheck
// then reports every conditional jump and every address that depends on a
// secret. As a negative control, the same process runs a table kernel on
// a secret block and, where the key schedule of the table kernels is
// Go's, expands a secret key for it, which memcheck must report; where it
// is a vector schedule with no secret-indexed access (avx2 on valgrind's
// CPU), the expansion of a secret key is checked instead. It also expands
// a secret key of each size with the byte-sliced kernels' Go schedule,
// which arm64-neon's constant-time Cipher runs on arm64.
//
// "ctgrind classify FILE CONTROL..." then reads valgrind's XML output and
// applies the rule of classify.go, with the control functions that the run
// named (its "controls run" line): a report counts iff a frame of its stack is a
// function of this module's packages; the Go runtime's own reports (no
// such frame) are listed apart and do not count. It fails if a report
// counts outside the negative control, if a part of the control went
// unreported, or if the run did not finish. tools/ctgrind.sh runs both
// steps for the native build and for -tags purego.
package main

import (
	"fmt"
	"os"
)

func main() {
	switch {
	case len(os.Args) == 1:
		os.Exit(run())
	case len(os.Args) >= 3 && os.Args[1] == "classify":
		os.Exit(classifyFile(os.Args[2], os.Args[3:]))
	}
	fmt.Fprintln(os.Stderr, "usage: ctgrind (under valgrind, built with -tags valgrind) | ctgrind classify valgrind.xml control...")
	os.Exit(2)
}
