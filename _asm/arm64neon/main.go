// Command arm64neon generates internal/kernel/neon_arm64.s, the
// constant-time NEON Twofish kernels (arm64-neon). Run it through go
// generate in the package directory:
//
//	go run -C ../../_asm/arm64neon . -out ../../internal/kernel/neon_arm64.s
//
// # Design
//
// The kernels encrypt or decrypt 16 blocks at a time without a table
// look-up in memory: no memory address depends on the key or the data, and
// the only branch is the loop counter. They read the byte-sliced schedule
// of avx512-vbmi (key_avx512.go, expandSliced): key-dependent S-box j,
// before the MDS multiply, as the 256 bytes at offset 160+256j from the
// schedule the kernels are passed, and the subkeys at 0.
//
// The g function is byte-sliced: one register holds byte j of one word of
// the 16 blocks, so that S-box j applies to all of them at once. An S-box
// is 256 bytes, four 64-byte quarters of four registers each, and TBL
// looks 16 bytes up in 64, giving 0 for an index of 64 or more: the byte x
// meets quarter q at x-64q, and the S-box output is the XOR of the four
// look-ups, of which at most one is not 0. (TBX, which would leave a byte
// alone instead, costs more than TBL and an XOR in llvm-mca 19's Neoverse
// N1 model: 5 V-pipe cycles against 3 and 1.) The quarters are loaded from
// the schedule at fixed addresses, for each g function. The MDS products by 5B and EF are two nibble
// look-ups each, TBL in one register (5B·y = lo[y&15] ^ hi[y>>4], constant
// tables), and output byte i of g the XOR of the four products of row i;
// the registers are so chosen that column 0 writes its products in place
// and no byte is moved. The rotation of the second input by 8 is a
// renaming of its slices.
//
// The pseudo-Hadamard transform, the subkeys and the one-bit rotations need
// 32-bit words: the g outputs are zipped into words (ZIP1, ZIP2 on bytes
// and then on halfwords), and the two new words unzipped back into byte
// slices (UZP1, UZP2) for the next round's g functions, all in registers.
// The two passive words of a round wait in a 256-byte scratch area that
// the Go side passes (the functions have no frame), 64 bytes a word, stored
// and loaded in pairs of registers (STP and LDP, which cost the vector
// pipes less than single stores). Blocks are loaded and stored with LD4
// and ST4 on 32-bit lanes, which transpose four blocks into words.
//
// The single-block kernels (single.go) keep the same rules for one block
// held in registers, without a scratch area, a count or a branch.
//
// Every memory operand is a pointer plus a constant (or a post-increment
// by a constant): the schedule, the data, the scratch area and the
// constants. The functions never name R29 or R30 and have no frame
// (package a64 checks), so frame-pointer unwinding works through them.
package main

import (
	"fmt"

	"github.com/twofish-go/twofish/_asm/internal/a64"
	"github.com/twofish-go/twofish/_asm/internal/spec"
)

func main() {
	a64.Main("arm64neon", func(f *a64.File) {
		constants(f)
		singleConstants(f)
		for _, dec := range []bool{false, true} {
			kernel(f, dec)
		}
		for _, dec := range []bool{false, true} {
			singleKernel(f, dec)
		}
	})
}

// Offsets from the schedule (key.go, key_avx512.go), which the kernels'
// argument points to.
const (
	sboxOffset    = 160 // S-box j at 160+256j (key.go's slicedOffset)
	subkeysOffset = 0   // k [40]uint32
)

// General-purpose registers.
const (
	ks    = "R0"
	dst   = "R1"
	src   = "R2"
	n     = "R3"
	kp    = "R4" // the subkeys
	addr  = "R5" // the address of a pair of subkeys
	tab   = "R6" // walks the S-boxes' quarters
	st    = "R7" // the scratch area: word w of blocks 4q..4q+3 at 64w+16q
	konst = "R8" // the constant tables
)

// Vector registers while the g functions run.
const (
	inX   = 0  // V0..V3: the slices of X (byte j of 16 words in V0+j)
	acc   = 4  // V4..V7: the output slices of the g function being computed
	inY   = 8  // V8..V11: the slices of Y
	quart = 12 // V12..V15: the S-box quarter being looked up
	mul5B = 16 // V16, V17: 5B times the low and high nibble
	mulEF = 18 // V18, V19: EF times the low and high nibble
	mask  = 20 // 0x0F in every byte
	c64   = 21 // 64 in every byte
	tmp   = 22 // V22..V26 and V31: temporaries
	wordX = 27 // V27..V30: g(X) as words, while g(rol(Y, 8)) is computed
)

// temps are the temporaries of the transpositions.
var temps = [4]int{23, 24, 25, 31}

// constants emits the nibble tables of the MDS products: 5B·n, 5B·16n,
// EF·n, EF·16n for n = 0..15, 16 bytes each.
func constants(f *a64.File) {
	var words []uint64
	for _, c := range []byte{0x5B, 0xEF} {
		for _, shift := range []uint{0, 4} {
			var t [16]byte
			for x := range 16 {
				t[x] = spec.GFMul(c, byte(x<<shift))
			}
			for h := range 2 {
				var w uint64
				for i := range 8 {
					w |= uint64(t[8*h+i]) << (8 * i)
				}
				words = append(words, w)
			}
		}
	}
	f.Data("neonMDS", words...)
}

// v names vector register i with arrangement arr.
func v(i int, arr string) string { return fmt.Sprintf("V%d.%s", i, arr) }

func b16(i int) string { return v(i, "B16") }
func s4(i int) string  { return v(i, "S4") }
func fq(i int) string  { return fmt.Sprintf("F%d", i) }

// list names the consecutive registers i..i+k-1 as a register list.
func list(i, k int, arr string) string {
	s := "["
	for r := i; r < i+k; r++ {
		if r > i {
			s += ", "
		}
		s += v(r, arr)
	}
	return s + "]"
}

// wordSlot is the scratch slot of word w of blocks 4q..4q+3.
func wordSlot(w, q int) string { return fmt.Sprintf("%d(%s)", 64*w+16*q, st) }

type gen struct{ *a64.File }

// sbox sets register s to S-box j of the bytes in register x: the XOR of
// TBL in each quarter at x-64q.
func (g gen) sbox(x, s, j int) {
	idx, t := tmp+1, tmp+2
	g.I("ADD", fmt.Sprintf("$%d", sboxOffset+256*j), ks, tab)
	for q := range 4 {
		g.I("VLD1.P", "64("+tab+")", list(quart, 4, "B16"))
		switch q {
		case 0:
			g.I("VTBL", b16(x), list(quart, 4, "B16"), b16(s))
			g.I("VSUB", b16(c64), b16(x), b16(idx))
		default:
			g.I("VTBL", b16(idx), list(quart, 4, "B16"), b16(t))
			if q < 3 {
				g.I("VSUB", b16(c64), b16(idx), b16(idx))
			}
			g.I("VEOR", b16(t), b16(s), b16(s))
		}
	}
}

// product sets register p to c·y, where lo and hi hold the nibbles of y
// and c is the constant whose nibble tables start at register c.
func (g gen) product(lo, hi, c, p int) {
	t := tmp + 4
	g.I("VTBL", b16(lo), list(c, 1, "B16"), b16(p))
	g.I("VTBL", b16(hi), list(c+1, 1, "B16"), b16(t))
	g.I("VEOR", b16(t), b16(p), b16(p))
}

// gFunction computes g of the word whose slices are in[0..3] (byte j in
// in[j]) into the output slices acc..acc+3.
func (g gen) gFunction(in [4]int) {
	lo, hi := tmp+1, tmp+2
	for j := range 4 {
		if j == 0 {
			// Column 0 is 01, 5B, EF, EF: s goes to row 0, 5B·s to row 1,
			// EF·s to row 2; row 3 is made at column 1 from row 2.
			g.sbox(in[j], acc, j)
			g.I("VAND", b16(mask), b16(acc), b16(lo))
			g.I("VUSHR", "$4", b16(acc), b16(hi))
			g.product(lo, hi, mul5B, acc+1)
			g.product(lo, hi, mulEF, acc+2)
			continue
		}
		s, p5B, pEF := tmp, tmp+3, 31
		g.sbox(in[j], s, j)
		g.I("VAND", b16(mask), b16(s), b16(lo))
		g.I("VUSHR", "$4", b16(s), b16(hi))
		g.product(lo, hi, mul5B, p5B)
		g.product(lo, hi, mulEF, pEF)
		by := map[byte]int{0x01: s, 0x5B: p5B, 0xEF: pEF}
		if j == 1 {
			g.I("VEOR", b16(by[spec.MDS[3][1]]), b16(acc+2), b16(acc+3))
			for i := range 3 {
				g.I("VEOR", b16(by[spec.MDS[i][1]]), b16(acc+i), b16(acc+i))
			}
			continue
		}
		for i := range 4 {
			g.I("VEOR", b16(by[spec.MDS[i][j]]), b16(acc+i), b16(acc+i))
		}
	}
}

// toWords zips the byte slices at acc..acc+3 (byte j of 16 words) into four
// registers of words, lanes 4q..4q+3 in out+q.
func (g gen) toWords(out int) {
	t := temps
	g.I("VZIP1", b16(acc+1), b16(acc), b16(t[0]))   // bytes 0, 1 of words 0..7
	g.I("VZIP2", b16(acc+1), b16(acc), b16(t[1]))   // of words 8..15
	g.I("VZIP1", b16(acc+3), b16(acc+2), b16(t[2])) // bytes 2, 3 of words 0..7
	g.I("VZIP2", b16(acc+3), b16(acc+2), b16(t[3]))
	g.I("VZIP1", v(t[2], "H8"), v(t[0], "H8"), v(out, "H8"))
	g.I("VZIP2", v(t[2], "H8"), v(t[0], "H8"), v(out+1, "H8"))
	g.I("VZIP1", v(t[3], "H8"), v(t[1], "H8"), v(out+2, "H8"))
	g.I("VZIP2", v(t[3], "H8"), v(t[1], "H8"), v(out+3, "H8"))
}

// unzipBytes and unzipHalves are the two steps of turning the four
// registers of a word w (lanes 4q..4q+3 in w[q]) into byte slices: the
// first gathers bytes 0, 2 and 1, 3 of words 0..7 and 8..15 into t, the
// second byte j of all 16 words into out+j.
func (g gen) unzipBytes(w, t [4]int) {
	g.I("VUZP1", b16(w[1]), b16(w[0]), b16(t[0])) // bytes 0, 2 of words 0..7
	g.I("VUZP2", b16(w[1]), b16(w[0]), b16(t[1])) // bytes 1, 3
	g.I("VUZP1", b16(w[3]), b16(w[2]), b16(t[2])) // of words 8..15
	g.I("VUZP2", b16(w[3]), b16(w[2]), b16(t[3]))
}

func (g gen) unzipHalves(t [4]int, out int) {
	g.I("VUZP1", b16(t[2]), b16(t[0]), b16(out))   // byte 0
	g.I("VUZP2", b16(t[2]), b16(t[0]), b16(out+2)) // byte 2
	g.I("VUZP1", b16(t[3]), b16(t[1]), b16(out+1))
	g.I("VUZP2", b16(t[3]), b16(t[1]), b16(out+3))
}

// seq returns the registers r..r+3.
func seq(r int) [4]int { return [4]int{r, r + 1, r + 2, r + 3} }

// rolled returns the registers of the slices of rol(y, 8): its byte j is
// byte j-1 of y.
func rolled(y int) [4]int { return [4]int{y + 3, y, y + 1, y + 2} }

// Vector registers of the round's second half.
const (
	wordY = 0  // V0..V3: g(rol(Y, 8)) as words
	wP    = 12 // V12..V15: the first passive word
	wQ    = 8  // V8..V11: the second
	k0    = 22 // V22, V23: the round's subkeys, broadcast
	rot   = 24 // V24..V26, V31: rotation temporaries
)

// half emits one Feistel round: the g functions of the active pair, whose
// slices are in inX and inY, with the subkeys k[sk], k[sk+1], into the
// passive words p and q; then the slices of the new p and q, the next
// round's active pair, unless last.
func (g gen) half(p, q, sk int, dec, last bool) {
	g.gFunction(seq(inX))
	g.toWords(wordX)
	g.gFunction(rolled(inY))
	g.toWords(wordY)
	g.I("ADD", fmt.Sprintf("$%d", 4*sk), kp, addr)
	g.I("VLD2R", "("+addr+")", list(k0, 2, "S4"))
	for i := 0; i < 4; i += 2 {
		g.I("FLDPQ", wordSlot(p, i), fmt.Sprintf("(%s, %s)", fq(wP+i), fq(wP+i+1)))
		g.I("FLDPQ", wordSlot(q, i), fmt.Sprintf("(%s, %s)", fq(wQ+i), fq(wQ+i+1)))
	}
	rots := [4]int{rot, rot + 1, rot + 2, 31}
	for i := range 4 {
		x, y, r := wordX+i, wordY+i, rots[i]
		// F0 = X + Y + k0 into x, F1 = X + 2Y + k1 into y.
		g.I("VADD", s4(y), s4(x), s4(x))
		g.I("VADD", s4(x), s4(y), s4(y))
		g.I("VADD", s4(k0), s4(x), s4(x))
		g.I("VADD", s4(k0+1), s4(y), s4(y))
		pi, qi := wP+i, wQ+i
		if dec {
			// p = rol(p, 1) ^ F0; q = ror(q ^ F1, 1).
			g.I("VSHL", "$1", s4(pi), s4(r))
			g.I("VSRI", "$31", s4(pi), s4(r))
			g.I("VEOR", b16(x), b16(r), b16(pi))
			g.I("VEOR", b16(y), b16(qi), b16(r))
			g.I("VUSHR", "$1", s4(r), s4(qi))
			g.I("VSLI", "$31", s4(r), s4(qi))
		} else {
			// p = ror(p ^ F0, 1); q = rol(q, 1) ^ F1.
			g.I("VEOR", b16(x), b16(pi), b16(r))
			g.I("VUSHR", "$1", s4(r), s4(pi))
			g.I("VSLI", "$31", s4(r), s4(pi))
			g.I("VSHL", "$1", s4(qi), s4(r))
			g.I("VSRI", "$31", s4(qi), s4(r))
			g.I("VEOR", b16(y), b16(r), b16(qi))
		}
	}
	for i := 0; i < 4; i += 2 {
		g.I("FSTPQ", fmt.Sprintf("(%s, %s)", fq(wP+i), fq(wP+i+1)), wordSlot(p, i))
		g.I("FSTPQ", fmt.Sprintf("(%s, %s)", fq(wQ+i), fq(wQ+i+1)), wordSlot(q, i))
	}
	if !last {
		g.unzipBytes(seq(wP), temps)
		g.unzipHalves(temps, inX)
		g.unzipBytes(seq(wQ), temps)
		g.unzipHalves(temps, inY)
	}
}

// kernel emits the function of 16 blocks per iteration in direction dec.
func kernel(f *a64.File, dec bool) {
	g := gen{f}
	op := "encrypt"
	if dec {
		op = "decrypt"
	}
	name := op + "Blocks16NEON"
	f.Text(name, fmt.Sprintf("func %s(ks *Schedule, dst, src *byte, n int, st *neonScratch)", name), 40)
	f.Comment("%s %ss 16·n blocks, byte-sliced; generated by _asm/arm64neon.", name, op)
	f.I("MOVD", "ks+0(FP)", ks)
	f.I("MOVD", "dst+8(FP)", dst)
	f.I("MOVD", "src+16(FP)", src)
	f.I("MOVD", "n+24(FP)", n)
	f.I("MOVD", "st+32(FP)", st)
	f.I("CBZ", n, name+"_done")
	f.I("ADD", fmt.Sprintf("$%d", subkeysOffset), ks, kp)
	f.I("MOVD", "$neonMDS<>(SB)", konst)
	f.I("VLD1", "("+konst+")", list(mul5B, 4, "B16"))
	f.I("VMOVI", "$15", b16(mask))
	f.I("VMOVI", "$64", b16(c64))

	// The words of the state: a, b, c, d = 0..3; the input is (a, b, c, d)
	// for encryption, (c, d, a, b) for decryption.
	in := [4]int{0, 1, 2, 3}
	out := [4]int{2, 3, 0, 1}
	inKey, outKey := 0, 4
	if dec {
		in, out = out, in
		inKey, outKey = 4, 0
	}
	const whiten = 22 // V22..V25: the whitening subkeys, broadcast
	f.Label(name + "_loop")
	f.Comment("Load 16 blocks as words (register 4q+w: word w of blocks 4q..4q+3) and whiten them.")
	for q := range 4 {
		f.I("VLD4.P", "64("+src+")", list(4*q, 4, "S4"))
	}
	f.I("ADD", fmt.Sprintf("$%d", 4*inKey), kp, addr)
	f.I("VLD4R", "("+addr+")", list(whiten, 4, "S4"))
	for r := range 16 {
		f.I("VEOR", b16(whiten+r%4), b16(r), b16(r))
	}
	for w := range 4 {
		for q := 0; q < 4; q += 2 {
			f.I("FSTPQ", fmt.Sprintf("(%s, %s)", fq(4*q+w), fq(4*q+4+w)), wordSlot(in[w], q))
		}
	}
	// The slices of the first active pair, (a, b) for encryption and
	// (c, d) for decryption: words 0 and 1 of the input, into inX and inY,
	// which the first step may overwrite only once both have read them.
	g.unzipBytes([4]int{0, 4, 8, 12}, seq(wordX))
	g.unzipBytes([4]int{1, 5, 9, 13}, temps)
	g.unzipHalves(seq(wordX), inX)
	g.unzipHalves(temps, inY)

	f.Comment("Sixteen rounds.")
	const a, b, c, d = 0, 1, 2, 3
	if dec {
		for r := 36; r >= 8; r -= 4 {
			g.half(a, b, r+2, true, false)
			g.half(c, d, r, true, r == 8)
		}
	} else {
		for r := 8; r < 40; r += 4 {
			g.half(c, d, r, false, false)
			g.half(a, b, r+2, false, r == 36)
		}
	}

	f.Comment("Whiten and store the 16 blocks.")
	f.I("ADD", fmt.Sprintf("$%d", 4*outKey), kp, addr)
	f.I("VLD4R", "("+addr+")", list(whiten, 4, "S4"))
	for w := range 4 {
		for q := 0; q < 4; q += 2 {
			f.I("FLDPQ", wordSlot(out[w], q), fmt.Sprintf("(%s, %s)", fq(4*q+w), fq(4*q+4+w)))
		}
	}
	for q := range 4 {
		for w := range 4 {
			f.I("VEOR", b16(whiten+w), b16(4*q+w), b16(4*q+w))
		}
		f.I("VST4.P", list(4*q, 4, "S4"), "64("+dst+")")
	}
	f.I("SUBS", "$1", n)
	f.I("BNE", name+"_loop")
	f.Label(name + "_done")
	f.I("RET")
}
