// Command arm64scalar generates internal/kernel/scalar_arm64.s, the 1-way
// and 2-way arm64 Twofish table kernels and the 1-way kernel's chain
// kernels for the serial modes (chain.go). Run it through go generate in the
// package directory:
//
//	go run -C ../../_asm/arm64scalar . -out ../../internal/kernel/scalar_arm64.s
//
// Each kernel is written once, parameterised by the number of lanes (blocks
// in flight) and the direction, as _asm/scalar writes the x86-64 ones: Go
// loops interleave the lanes' instructions into one stream, so that an
// out-of-order core overlaps the independent blocks' table look-ups. The
// kernels take two pointers, to the types of key.go: the Tables, the four
// MDS·S-box tables s[0..3] at offsets 0, 1024, 2048 and 3072, and the
// Schedule, whose first 160 bytes are the 40 subkeys k. One byte of
// a word is a UBFX (or AND, LSR) and a look-up a word load with the index
// scaled by four, from one base register per table.
//
// The 1-way kernel gives each of a round's eight look-ups its own register,
// so that even an in-order core issues them back to back; the 2-way
// kernel, with two blocks' state to keep, computes each g function in four
// registers. No kernel (the chain kernels included) writes R29 or R30 or
// has a frame (package a64 checks), so frame-pointer unwinding works
// through them.
package main

import (
	"fmt"

	"github.com/twofish-go/twofish/_asm/internal/a64"
	"github.com/twofish-go/twofish/_asm/internal/serial"
)

func main() {
	a64.Main("arm64scalar", func(f *a64.File) {
		for _, lanes := range []int{1, 2} {
			for _, dec := range []bool{false, true} {
				kernel(f, lanes, dec)
			}
		}
		for _, m := range serial.Modes {
			chainKernel(f, m)
		}
	})
}

// Registers shared by the lanes (and the chain kernels, chain.go).
const (
	t   = "R0" // the tables, and the base of s[0]
	dst = "R1"
	src = "R2"
	n   = "R3"
	k   = "R8" // the subkeys
)

// tables are the base registers of s[0..3].
var tables = [4]string{t, "R5", "R6", "R7"}

// lane is one block's registers: its four words and its temporaries.
type lane struct {
	a, b, c, d string
	tmp        []string
}

// The lanes' registers: with one lane, eight temporaries; with two, four
// each. R4 is left to the chain kernels (chain.go).
var lanesOf = map[int][]lane{
	1: {{"R9", "R10", "R11", "R12", []string{"R13", "R14", "R15", "R16", "R17", "R19", "R20", "R21"}}},
	2: {
		{"R9", "R10", "R11", "R12", []string{"R13", "R14", "R15", "R16"}},
		{"R17", "R19", "R20", "R21", []string{"R22", "R23", "R24", "R25"}},
	},
}

// stream collects one lane's instructions, to be interleaved.
type stream [][]string

func (s *stream) i(op string, operands ...string) {
	*s = append(*s, append([]string{op}, operands...))
}

// byteOf emits dst = byte j of the word x.
func (s *stream) byteOf(x string, j int, dst string) {
	switch j {
	case 0:
		s.i("ANDW", "$255", x, dst)
	case 3:
		s.i("LSRW", "$24", x, dst)
	default:
		s.i("UBFXW", fmt.Sprintf("$%d", 8*j), x, "$8", dst)
	}
}

// g emits r[0] = g(x), or g(rol(x, 8)) if rot, with the registers r (three
// or four). Byte j of rol(x, 8) is byte j-1 of x.
func (s *stream) g(x string, rot bool, r []string) {
	src := func(j int) int {
		if rot {
			return (j + 3) % 4
		}
		return j
	}
	look := func(j int, reg string) {
		s.i("MOVWU", fmt.Sprintf("(%s)(%s<<2)", tables[j], reg), reg)
	}
	m := min(len(r), 4)
	for j := range m {
		s.byteOf(x, src(j), r[j])
	}
	for j := range m {
		look(j, r[j])
	}
	if m == 4 {
		s.i("EORW", r[1], r[0], r[0])
		s.i("EORW", r[3], r[2], r[2])
		s.i("EORW", r[2], r[0], r[0])
		return
	}
	// Three registers: the fourth look-up reuses the second's.
	s.i("EORW", r[1], r[0], r[0])
	s.byteOf(x, src(3), r[1])
	look(3, r[1])
	s.i("EORW", r[2], r[0], r[0])
	s.i("EORW", r[1], r[0], r[0])
}

// half emits one Feistel round: g of the active pair (x, y) with the
// subkeys k[sk], k[sk+1], into the passive pair (p, q). Encryption sets
// p = ror(p ^ F0, 1) and q = rol(q, 1) ^ F1; decryption undoes it.
func (s *stream) half(l lane, x, y, p, q string, sk int, dec bool) {
	t := l.tmp
	var t0, t1 string
	var k0, k1 string
	if len(t) >= 8 {
		s.g(x, false, t[0:4])
		s.g(y, true, t[4:8])
		t0, t1, k0, k1 = t[0], t[4], t[1], t[2]
	} else {
		s.g(x, false, t[0:4])
		s.g(y, true, t[1:4])
		t0, t1, k0, k1 = t[0], t[1], t[2], t[3]
	}
	// The subkeys go into g(x) first, so that only one addition follows
	// g(y): F0 = (g(x) + k0) + g(y), F1 = (g(x) + k1) + 2·g(y).
	s.i("LDPW", fmt.Sprintf("%d(%s)", 4*sk, k), fmt.Sprintf("(%s, %s)", k0, k1))
	s.i("ADDW", t0, k0, k0)
	s.i("ADDW", t0, k1, k1)
	s.i("ADDW", t1, k0, t0)       // F0
	s.i("ADDW", t1+"<<1", k1, t1) // F1
	if dec {
		s.i("EORW", p+"@>31", t0, p)
		s.i("EORW", t1, q, q)
		s.i("RORW", "$1", q, q)
	} else {
		s.i("EORW", t0, p, p)
		s.i("RORW", "$1", p, p)
		s.i("EORW", q+"@>31", t1, q)
	}
}

// whiten emits the XOR of subkeys k[sk..sk+3] into the words w, with the
// lane's first two temporaries.
func (s *stream) whiten(l lane, sk int, w [4]string) {
	for i := 0; i < 4; i += 2 {
		s.i("LDPW", fmt.Sprintf("%d(%s)", 4*(sk+i), k), fmt.Sprintf("(%s, %s)", l.tmp[0], l.tmp[1]))
		s.i("EORW", l.tmp[0], w[i], w[i])
		s.i("EORW", l.tmp[1], w[i+1], w[i+1])
	}
}

// rounds emits the sixteen rounds of lane l's block, between the
// whitenings.
func (s *stream) rounds(l lane, dec bool) {
	if dec {
		for r := 36; r >= 8; r -= 4 {
			s.half(l, l.c, l.d, l.a, l.b, r+2, true)
			s.half(l, l.a, l.b, l.c, l.d, r, true)
		}
		return
	}
	for r := 8; r < 40; r += 4 {
		s.half(l, l.a, l.b, l.c, l.d, r, false)
		s.half(l, l.c, l.d, l.a, l.b, r+2, false)
	}
}

// block emits lane j's whole block, from loading it to storing it.
func block(l lane, j int, dec bool) stream {
	var s stream
	off := 16 * j
	in := [4]string{l.a, l.b, l.c, l.d}
	out := [4]string{l.c, l.d, l.a, l.b}
	inKey, outKey := 0, 4
	if dec {
		in, out = out, in
		inKey, outKey = 4, 0
	}
	s.i("LDPW", fmt.Sprintf("%d(%s)", off, src), fmt.Sprintf("(%s, %s)", in[0], in[1]))
	s.i("LDPW", fmt.Sprintf("%d(%s)", off+8, src), fmt.Sprintf("(%s, %s)", in[2], in[3]))
	s.whiten(l, inKey, in)
	s.rounds(l, dec)
	s.whiten(l, outKey, out)
	s.i("STPW", fmt.Sprintf("(%s, %s)", out[0], out[1]), fmt.Sprintf("%d(%s)", off, dst))
	s.i("STPW", fmt.Sprintf("(%s, %s)", out[2], out[3]), fmt.Sprintf("%d(%s)", off+8, dst))
	return s
}

// kernel emits the function of lanes blocks per iteration in direction dec.
func kernel(f *a64.File, lanes int, dec bool) {
	op := "encrypt"
	if dec {
		op = "decrypt"
	}
	name := fmt.Sprintf("%sBlocks%dx", op, lanes)
	unit := "n blocks"
	if lanes > 1 {
		unit = fmt.Sprintf("%d·n blocks, %d interleaved", lanes, lanes)
	}
	f.Text(name, fmt.Sprintf("func %s(t *Tables, ks *Schedule, dst, src *byte, n int)", name), 40)
	f.Comment("%s %ss %s; generated by _asm/arm64scalar.", name, op, unit)
	f.I("MOVD", "t+0(FP)", t)
	f.I("MOVD", "ks+8(FP)", k)
	f.I("MOVD", "dst+16(FP)", dst)
	f.I("MOVD", "src+24(FP)", src)
	f.I("MOVD", "n+32(FP)", n)
	f.I("CBZ", n, name+"_done")
	for j := 1; j < 4; j++ {
		f.I("ADD", fmt.Sprintf("$%d", 1024*j), t, tables[j])
	}
	f.Label(name + "_loop")
	var streams []stream
	for j, l := range lanesOf[lanes] {
		streams = append(streams, block(l, j, dec))
	}
	for i := range streams[0] {
		for _, s := range streams {
			f.I(s[i][0], s[i][1:]...)
		}
	}
	f.I("ADD", fmt.Sprintf("$%d", 16*lanes), src)
	f.I("ADD", fmt.Sprintf("$%d", 16*lanes), dst)
	f.I("SUBS", "$1", n)
	f.I("BNE", name+"_loop")
	f.Label(name + "_done")
	f.I("RET")
}
