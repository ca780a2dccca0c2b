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
// before the MDS multiply, as the 256 bytes at offset 256j, and the
// subkeys at 4096.
//
// The g function is byte-sliced: one register holds byte j of one word of
// the 16 blocks, so that S-box j applies to all of them at once. An S-box
// is 256 bytes, four 64-byte quarters of four registers each, and TBL and
// TBX look 16 bytes up in 64: the byte x meets quarter 0 with TBL (0 for an
// index of 64 or more), then quarters 1 to 3 with TBX at x-64, x-128 and
// x-192 (TBX leaves the byte alone where the index is out of range). The
// quarters are loaded from the schedule at fixed addresses. The MDS
// products by 5B and EF are two nibble look-ups each, TBL in one register
// (5B·y = lo[y&15] ^ hi[y>>4], constant tables), and output byte i of g the
// XOR of the four products of row i. Both g functions of a round read
// S-box j for byte j, so each quarter is loaded once for the two; the
// rotation of the second input by 8 is a renaming of its slices.
//
// The pseudo-Hadamard transform, the subkeys and the one-bit rotations need
// 32-bit words: the g outputs are zipped into words (ZIP1, ZIP2 on bytes
// and then on halfwords), and the two new words unzipped back into byte
// slices (UZP1, UZP2) for the next round's g functions. The four words of
// the state stay in words, in a 384-byte scratch area that the Go side
// passes (the functions have no frame): 64 bytes a word, then the byte
// slices of the two words the next g functions read. Blocks are loaded
// and stored with LD4 and ST4 on 32-bit lanes, which transpose four blocks
// into words.
//
// Every memory operand is a pointer plus a constant (or a post-increment
// by a constant): the schedule, the data, the scratch area and the
// constants. The functions never name R29 or R30 and have no frame
// (package a64 checks), so frame-pointer unwinding works through them.
package main

import (
	"fmt"

	"github.com/twofish-go/twofish/_asm/internal/a64"
)

func main() {
	a64.Main("arm64neon", func(f *a64.File) {
		constants(f)
		for _, dec := range []bool{false, true} {
			kernel(f, dec)
		}
	})
}

// Offsets into the schedule (key.go, key_avx512.go).
const (
	sboxOffset    = 0    // S-box j at 256j
	subkeysOffset = 4096 // k [40]uint32
)

// Offsets into the scratch area.
const (
	wordsOffset  = 0   // word w of blocks 4q..4q+3 at 64w+16q
	slicesOffset = 256 // byte j of active word x at 256+16(4x+j); 384 bytes in all (neonScratch)
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
	st    = "R7" // the scratch area
	konst = "R8" // the constant tables
)

// Vector registers of the g functions.
const (
	accX  = 0  // V0..V3: g(X), byte-sliced
	accY  = 4  // V4..V7: g(rol(Y, 8))
	inX   = 8  // byte j of X
	inY   = 9  // byte j of rol(Y, 8)
	idxX  = 10 // the index into the current quarter
	idxY  = 11
	sX    = 12 // the S-box outputs
	sY    = 13
	quarA = 14 // V14..V17 and V18..V21: quarters, alternately
	quarB = 18
	mul5B = 22 // V22, V23: 5B times the low and high nibble
	mulEF = 24 // V24, V25: EF times the low and high nibble
	mask  = 26 // 0x0F in every byte
	c64   = 27 // 64 in every byte
	tmp   = 28 // V28..V31
)

// The MDS matrix (section 4.2).
var mds = [4][4]byte{
	{0x01, 0xEF, 0x5B, 0x5B},
	{0x5B, 0xEF, 0xEF, 0x01},
	{0xEF, 0x5B, 0x01, 0xEF},
	{0xEF, 0x01, 0xEF, 0x5B},
}

// gfMul multiplies in GF(2^8) modulo the MDS polynomial x^8 + x^6 + x^5 +
// x^3 + 1 (0x169).
func gfMul(a, b byte) byte {
	var p uint
	x, y := uint(a), uint(b)
	for range 8 {
		if y&1 != 0 {
			p ^= x
		}
		y >>= 1
		x <<= 1
		if x&0x100 != 0 {
			x ^= 0x169
		}
	}
	return byte(p)
}

// constants emits the nibble tables of the MDS products: 5B·n, 5B·16n,
// EF·n, EF·16n for n = 0..15, 16 bytes each.
func constants(f *a64.File) {
	var words []uint64
	for _, c := range []byte{0x5B, 0xEF} {
		for _, shift := range []uint{0, 4} {
			var t [16]byte
			for x := range 16 {
				t[x] = gfMul(c, byte(x<<shift))
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

// mem names the scratch slot at offset off.
func mem(off int) string { return fmt.Sprintf("%d(%s)", off, st) }

// wordSlot is the scratch slot of word w of blocks 4q..4q+3.
func wordSlot(w, q int) string { return mem(wordsOffset + 64*w + 16*q) }

// sliceSlot is the scratch slot of byte j of active word x (0 or 1).
func sliceSlot(x, j int) string { return mem(slicesOffset + 16*(4*x+j)) }

type gen struct{ *a64.File }

// sbox sets the registers sX and sY to S-box j of the bytes in inX and inY.
// The table pointer walks S-box j's four quarters.
func (g gen) sbox() {
	for q := range 4 {
		qr := quarA
		if q%2 == 1 {
			qr = quarB
		}
		g.I("VLD1.P", "64("+tab+")", list(qr, 4, "B16"))
		switch q {
		case 0:
			g.I("VTBL", b16(inX), list(qr, 4, "B16"), b16(sX))
			g.I("VTBL", b16(inY), list(qr, 4, "B16"), b16(sY))
		default:
			fromX, fromY := idxX, idxY
			if q == 1 {
				fromX, fromY = inX, inY
			}
			g.I("VSUB", b16(c64), b16(fromX), b16(idxX))
			g.I("VSUB", b16(c64), b16(fromY), b16(idxY))
			g.I("VTBX", b16(idxX), list(qr, 4, "B16"), b16(sX))
			g.I("VTBX", b16(idxY), list(qr, 4, "B16"), b16(sY))
		}
	}
}

// mdsColumn adds column j of the MDS matrix times the S-box output in s to
// the four output bytes at acc (or sets them, for the first column).
func (g gen) mdsColumn(s, acc, j int) {
	lo, hi, p5B, t, pEF := tmp, tmp+1, tmp+2, tmp+3, idxX
	g.I("VAND", b16(mask), b16(s), b16(lo))
	g.I("VUSHR", "$4", b16(s), b16(hi))
	g.I("VTBL", b16(lo), list(mul5B, 1, "B16"), b16(p5B))
	g.I("VTBL", b16(hi), list(mul5B+1, 1, "B16"), b16(t))
	g.I("VEOR", b16(t), b16(p5B), b16(p5B))
	g.I("VTBL", b16(lo), list(mulEF, 1, "B16"), b16(pEF))
	g.I("VTBL", b16(hi), list(mulEF+1, 1, "B16"), b16(t))
	g.I("VEOR", b16(t), b16(pEF), b16(pEF))
	for i := range 4 {
		src := map[byte]int{0x01: s, 0x5B: p5B, 0xEF: pEF}[mds[i][j]]
		if j == 0 {
			g.I("VORR", b16(src), b16(src), b16(acc+i))
		} else {
			g.I("VEOR", b16(src), b16(acc+i), b16(acc+i))
		}
	}
}

// gFunctions computes g(X) into accX and g(rol(Y, 8)) into accY, byte-sliced,
// from the slices of the active words in the scratch area.
func (g gen) gFunctions() {
	g.I("ADD", fmt.Sprintf("$%d", sboxOffset), ks, tab)
	for j := range 4 {
		g.I("FMOVQ", sliceSlot(0, j), fmt.Sprintf("F%d", inX))
		// Byte j of rol(Y, 8) is byte j-1 of Y.
		g.I("FMOVQ", sliceSlot(1, (j+3)%4), fmt.Sprintf("F%d", inY))
		g.sbox()
		g.mdsColumn(sX, accX, j)
		g.mdsColumn(sY, accY, j)
	}
}

// toWords zips the byte slices at acc..acc+3 (byte j of 16 words) into four
// registers of words, lanes 4q..4q+3 in out+q.
func (g gen) toWords(acc, out int) {
	t := tmp
	g.I("VZIP1", b16(acc+1), b16(acc), b16(t))     // bytes 0, 1 of words 0..7
	g.I("VZIP2", b16(acc+1), b16(acc), b16(t+1))   // of words 8..15
	g.I("VZIP1", b16(acc+3), b16(acc+2), b16(t+2)) // bytes 2, 3 of words 0..7
	g.I("VZIP2", b16(acc+3), b16(acc+2), b16(t+3))
	g.I("VZIP1", v(t+2, "H8"), v(t, "H8"), v(out, "H8"))
	g.I("VZIP2", v(t+2, "H8"), v(t, "H8"), v(out+1, "H8"))
	g.I("VZIP1", v(t+3, "H8"), v(t+1, "H8"), v(out+2, "H8"))
	g.I("VZIP2", v(t+3, "H8"), v(t+1, "H8"), v(out+3, "H8"))
}

// toSlices unzips the four registers of words w (lanes 4q..4q+3 in w[q])
// into byte slices in out..out+3 and stores them as the slices of active
// word x.
func (g gen) toSlices(w [4]int, out, x int) {
	t := tmp
	g.I("VUZP1", b16(w[1]), b16(w[0]), b16(t))   // bytes 0, 2 of words 0..7
	g.I("VUZP2", b16(w[1]), b16(w[0]), b16(t+1)) // bytes 1, 3
	g.I("VUZP1", b16(w[3]), b16(w[2]), b16(t+2)) // of words 8..15
	g.I("VUZP2", b16(w[3]), b16(w[2]), b16(t+3))
	g.I("VUZP1", b16(t+2), b16(t), b16(out))   // byte 0
	g.I("VUZP2", b16(t+2), b16(t), b16(out+2)) // byte 2
	g.I("VUZP1", b16(t+3), b16(t+1), b16(out+1))
	g.I("VUZP2", b16(t+3), b16(t+1), b16(out+3))
	for j := range 4 {
		g.I("FMOVQ", fmt.Sprintf("F%d", out+j), sliceSlot(x, j))
	}
}

// seq returns the registers r..r+3.
func seq(r int) [4]int { return [4]int{r, r + 1, r + 2, r + 3} }

// Word registers of the round's second half.
const (
	wX  = 8  // V8..V11: g(X) as words
	wY  = 12 // V12..V15: g(rol(Y, 8)) as words
	wP  = 16 // V16..V19: the first passive word
	wQ  = 4  // V4..V7: the second (accY's, zipped by then)
	k0  = 20 // V20, V21: the round's subkeys, broadcast
	rot = 28 // V28..V31: rotation temporaries
)

// half emits one Feistel round: the g functions of the active pair, whose
// slices are in the scratch area, with the subkeys k[sk], k[sk+1], into the
// passive words p and q; then the slices of the new p and q, the next
// round's active pair, unless last.
func (g gen) half(p, q, sk int, dec, last bool) {
	g.gFunctions()
	g.toWords(accX, wX)
	g.toWords(accY, wY)
	g.I("ADD", fmt.Sprintf("$%d", 4*sk), kp, addr)
	g.I("VLD2R", "("+addr+")", list(k0, 2, "S4"))
	for i := range 4 {
		g.I("FMOVQ", wordSlot(p, i), fmt.Sprintf("F%d", wP+i))
		g.I("FMOVQ", wordSlot(q, i), fmt.Sprintf("F%d", wQ+i))
	}
	for i := range 4 {
		x, y, r := wX+i, wY+i, rot+i
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
			g.I("VEOR", b16(y), b16(qi), b16(qi))
			g.I("VUSHR", "$1", s4(qi), s4(r))
			g.I("VSLI", "$31", s4(qi), s4(r))
			g.I("VORR", b16(r), b16(r), b16(qi))
		} else {
			// p = ror(p ^ F0, 1); q = rol(q, 1) ^ F1.
			g.I("VEOR", b16(x), b16(pi), b16(pi))
			g.I("VUSHR", "$1", s4(pi), s4(r))
			g.I("VSLI", "$31", s4(pi), s4(r))
			g.I("VORR", b16(r), b16(r), b16(pi))
			g.I("VSHL", "$1", s4(qi), s4(r))
			g.I("VSRI", "$31", s4(qi), s4(r))
			g.I("VEOR", b16(y), b16(r), b16(qi))
		}
	}
	for i := range 4 {
		g.I("FMOVQ", fmt.Sprintf("F%d", wP+i), wordSlot(p, i))
		g.I("FMOVQ", fmt.Sprintf("F%d", wQ+i), wordSlot(q, i))
	}
	if !last {
		g.toSlices(seq(wP), accX, 0)
		g.toSlices(seq(wQ), accX, 1)
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
	f.Label(name + "_loop")
	f.Comment("Load 16 blocks as words (register 4q+w: word w of blocks 4q..4q+3) and whiten them.")
	for q := range 4 {
		f.I("VLD4.P", "64("+src+")", list(4*q, 4, "S4"))
	}
	f.I("ADD", fmt.Sprintf("$%d", 4*inKey), kp, addr)
	f.I("VLD4R", "("+addr+")", list(16, 4, "S4"))
	for q := range 4 {
		for w := range 4 {
			f.I("VEOR", b16(16+w), b16(4*q+w), b16(4*q+w))
			f.I("FMOVQ", fmt.Sprintf("F%d", 4*q+w), wordSlot(in[w], q))
		}
	}
	// The slices of the first active pair, (a, b) for encryption and
	// (c, d) for decryption: words 0 and 1 of the input.
	for x := range 2 {
		g.toSlices([4]int{x, 4 + x, 8 + x, 12 + x}, 16, x)
	}

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
	f.I("VLD4R", "("+addr+")", list(16, 4, "S4"))
	for q := range 4 {
		for w := range 4 {
			f.I("FMOVQ", wordSlot(out[w], q), fmt.Sprintf("F%d", 4*q+w))
			f.I("VEOR", b16(16+w), b16(4*q+w), b16(4*q+w))
		}
		f.I("VST4.P", list(4*q, 4, "S4"), "64("+dst+")")
	}
	f.I("SUBS", "$1", n)
	f.I("BNE", name+"_loop")
	f.Label(name + "_done")
	f.I("RET")
}
