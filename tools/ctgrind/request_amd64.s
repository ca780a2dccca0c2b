// The valgrind client request, as the VALGRIND_DO_CLIENT_REQUEST macro of
// valgrind.h emits it on amd64 (and as the Go runtime's own
// runtime·valgrindClientRequest does under -tags valgrind). It is not a
// Twofish kernel, so no generator writes it; it is built only with the
// valgrind tag, which the program needs anyway, and also with purego,
// which keeps the library's kernels out, not this tool's request.

//go:build linux && gc && valgrind

#include "textflag.h"

// func clientRequest(args *[6]uintptr) uintptr
TEXT ·clientRequest(SB), NOSPLIT, $0-16
	MOVQ args+0(FP), AX // the request and its five arguments
	XORL DX, DX         // the result where valgrind is absent: 0
	// The preamble: rotations of DI by 128 bits in all, which leave it
	// as it was, then the request itself.
	ROLQ $3, DI; ROLQ $13, DI
	ROLQ $61, DI; ROLQ $51, DI
	XCHGQ BX, BX
	MOVQ DX, ret+8(FP)
	RET
