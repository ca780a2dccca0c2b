#include "textflag.h"

// The functions of TestCheckFile: f addresses memory with an index
// register, which only Rules.IndexRegisters allows; g tests a vector,
// which no rule allows.

// func f(p *byte, n int)
TEXT ·f(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	VMOVDQU (AX)(CX*1), Y0
	VZEROUPPER
	RET

// func g()
TEXT ·g(SB), NOSPLIT, $0-0
	VPTEST Y0, Y0
	VZEROUPPER
	RET
