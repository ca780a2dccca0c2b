// Command avx2ct generates internal/kernel/avx2ct_amd64.s, the constant-time AVX2 Twofish
// kernels (avx2-ct), with avo. Run it through go generate in the package
// directory:
//
//	go run -C ../../_asm/avx2ct . -out ../../internal/kernel/avx2ct_amd64.s -pkg kernel
//
// # Design
//
// The kernels encrypt or decrypt 64, 32 or 8 blocks at a time, or one
// block (single.go, which has the chain kernels too), without a single
// table look-up: no memory address depends on the key or the data,
// and the only branches are the loop counters. The key-dependent S-boxes
// are evaluated with VPSHUFB, which looks 32 bytes up in a 16-entry table
// held in a register, so the S-boxes are computed on nibbles, the way the
// specification defines q0 and q1 (section 4.3.5): each q is two layers of
// 4-bit t-box look-ups, with a linear mix of the two nibbles before each
// layer. The key setup (key_ct.go, ctSchedule) folds each t-box layer
// together with what follows it up to the next look-up (the mix, the XOR of
// a key byte, the next q's first mix) into 16-entry tables; and since in
// every layer the second nibble's table is the first's followed by a fixed
// linear map, the kernels carry the second nibble before that map (β) and a
// layer is three VPSHUFB and two XORs:
//
//	u = P[β], a' = A0[a] ^ u, β' = Q[a] ^ u
//
// A g function with a k-word key (k = 2, 3, 4) is a byte's split into
// nibbles and first mix (one look-up), 2k+1 such layers, and the last layer
// multiplied by the MDS matrix: the products of y = t2[a] | t3[b]<<4 by 01,
// 5B and EF are each two look-ups, 22 for the four bytes, and each output
// byte of g the XOR of four products.
//
// The data are byte-sliced for the g function: one ymm register holds byte
// j of 32 words, one word from each block, so that one VPSHUFB applies
// S-box j to all of them. The tables of byte j serve both g functions of a
// round, g(X) and g(ROL(Y, 8)), loaded once for the two; the rotation of
// Y is free, a renaming of Y's slices. The pseudo-Hadamard transform, the
// subkeys and the one-bit rotations need 32-bit words, so each round
// transposes the g outputs into words (two levels of unpacks) and the two
// new words back into byte slices (an in-lane byte transpose with VPSHUFB
// and two levels of unpacks).
//
// # Scheduling
//
// On Zen 5 most vector operations, VPSHUFB and VPXOR included, have two
// cycles of latency, and a layer is a VPSHUFB and a VPXOR deep: a pair of
// chains (one byte, both g functions) cannot keep the core busy, so the
// generator interleaves the chains of two bytes. A round of 32 blocks ends
// in a strict sequence (MDS products, transposes, sums, transposes) that
// the next round's chains wait for; kernel64 therefore runs two groups of
// 32 blocks half a round apart and interleaves one group's chains with the
// other's end of round. Measured on Zen 5 at 8 KiB: 5.3 c/B with 128-bit
// keys for one group and four look-ups per layer, 4.9 with three, 4.5 with
// two groups.
//
// # Layout
//
// The state of 32 blocks lives in a frame: the four words of every block
// as 32-bit lanes (words, 16 vectors), the byte slices of the two words
// that the next g functions read (slices, 8 vectors), and the nibbles that
// the S-box chains leave for the MDS products (nibbles, 16 vectors; kernel64
// accumulates the products there instead, and the g outputs as words).
// Word w of block 8q+2k+l is dword k of lane l of words[w][q]. The kernels
// read the schedule (key.go, key_ct.go) at fixed offsets: the subkeys k at
// 0, the nibble tables of ctSchedule from 160. Every memory operand is
// a base register plus a constant: the frame, the schedule, the data
// pointers and a pointer that walks the subkeys.
//
// # Checks
//
// The generator refuses, after register allocation: any memory operand with
// an index register; any conditional branch that is not a JNZ right after
// the DECQ of a loop counter (a register written only by MOVQ of a constant
// or of the argument n, and by DECQ); any instruction that needs more than
// AVX2, or a vector register above 15; and any use of BP, or of SP other
// than as the base of a frame slot. avx2ct_amd64_test.go checks the
// generated file for the same properties.
package main

import (
	"fmt"
	"slices"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/twofish-go/twofish/_asm/internal/asmgen"
	"github.com/twofish-go/twofish/_asm/internal/serial"
	"github.com/twofish-go/twofish/_asm/internal/spec"
)

var c = build.NewContext()

func main() {
	asmgen.Main(c, "avx2ct", "github.com/twofish-go/twofish/internal/kernel", func() {
		constants()
		constants1()
		for _, kw := range []int{2, 3, 4} {
			for _, dec := range []bool{false, true} {
				kernel64(kw, dec)
				kernel32(kw, dec)
				kernel8(kw, dec)
				kernel1(kw, dec)
			}
			for _, m := range serial.Modes {
				chainKernel(kw, m)
			}
		}
	}, check)
}

// Offsets from the schedule (key.go, key_ct.go; TestCTLayout pins them),
// which the kernels' argument points to.
const (
	subkeysOffset = 0              // k [40]uint32
	ctOffset      = 160            // the nibble tables, a ctSchedule
	mixOffset     = ctOffset + 0   // mix [16]byte
	firstOffset   = ctOffset + 16  // first [2][4][16]byte
	secondOffset  = ctOffset + 144 // second [4][4][3][16]byte
	mdsOffset     = ctOffset + 912 // mds [4][3][2][16]byte
)

// The MDS matrix (section 4.2) as indexes into ctSchedule.mds: 0, 1, 2 for
// the products by 01, 5B, EF. Row i, column j.
var mdsProduct = [4][4]int{
	{0, 2, 1, 1},
	{1, 2, 2, 0},
	{2, 1, 0, 2},
	{2, 0, 2, 1},
}

// The constant vectors: the nibble mask, and the VPSHUFB control that
// transposes each lane's 4x4 bytes (byte i of dword k to byte k of dword i).
var consts operand.Mem

const (
	maskOffset      = 0
	transposeOffset = 32 // byte i of dword k to byte k of dword i
	rolOffset       = 64 // the same for ROL(word, 8): byte i-1 of dword k
	permOffset      = 96 // VPERMD indexes: dwords 0, 4, 2, 6, 1, 5, 3, 7
)

func constants() {
	consts = c.StaticGlobal("avx2ctConsts")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for i := range 32 {
		c.AddDatum(maskOffset+i, operand.U8(0x0F))
	}
	// The assembler wants the data in order of offset.
	for _, off := range []int{transposeOffset, rolOffset} {
		for l := range 2 {
			for i := range 4 {
				for k := range 4 {
					b := 4*k + i
					if off == rolOffset {
						b = 4*k + (i+3)%4
					}
					c.AddDatum(off+16*l+4*i+k, operand.U8(b))
				}
			}
		}
	}
	for i, d := range []uint32{0, 4, 2, 6, 1, 5, 3, 7} {
		c.AddDatum(permOffset+4*i, operand.U32(d))
	}
}

// tab returns the 16-byte table at offset off of the schedule.
func tab(ks reg.Register, off int) operand.Mem { return operand.Mem{Base: ks, Disp: off} }

func mixTable(ks reg.Register) operand.Mem { return tab(ks, mixOffset) }
func firstTable(ks reg.Register, q, i int) operand.Mem {
	return tab(ks, firstOffset+16*(4*q+i))
}
func secondTable(ks reg.Register, s, j, i int) operand.Mem {
	return tab(ks, secondOffset+16*(12*s+3*j+i))
}
func mdsTable(ks reg.Register, j, p, h int) operand.Mem {
	return tab(ks, mdsOffset+16*(6*j+2*p+h))
}

// frame is the kernel's state in its stack frame.
type frame struct {
	base operand.Mem
}

const (
	wordsOffset   = 0   // words[w][q]: 16 vectors
	slicesOffset  = 512 // slices[p][j]: byte j of active word p, 8 vectors
	nibblesOffset = 768 // nibbles[g][j][h]: the chains' last (a, b), 16 vectors
	frameSize     = 1280
)

func (f frame) word(w, q int) operand.Mem  { return f.base.Offset(wordsOffset + 32*(4*w+q)) }
func (f frame) slice(p, j int) operand.Mem { return f.base.Offset(slicesOffset + 32*(4*p+j)) }
func (f frame) nibble(g, j, h int) operand.Mem {
	return f.base.Offset(nibblesOffset + 32*(8*g+2*j+h))
}

// transpose4 transposes the 4x4 matrices of dwords that v[0..3] form in
// each lane: dword k of lane l of the result i is dword i of lane l of
// v[k]. It is its own inverse.
func transpose4(v [4]reg.VecVirtual) [4]reg.VecVirtual {
	u := [4]reg.VecVirtual{c.YMM(), c.YMM(), c.YMM(), c.YMM()}
	c.VPUNPCKLDQ(v[1], v[0], u[0]) // v0.d0 v1.d0 v0.d1 v1.d1
	c.VPUNPCKHDQ(v[1], v[0], u[1]) // v0.d2 v1.d2 v0.d3 v1.d3
	c.VPUNPCKLDQ(v[3], v[2], u[2])
	c.VPUNPCKHDQ(v[3], v[2], u[3])
	w := [4]reg.VecVirtual{c.YMM(), c.YMM(), c.YMM(), c.YMM()}
	c.VPUNPCKLQDQ(u[2], u[0], w[0]) // v0.d0 v1.d0 v2.d0 v3.d0
	c.VPUNPCKHQDQ(u[2], u[0], w[1])
	c.VPUNPCKLQDQ(u[3], u[1], w[2])
	c.VPUNPCKHQDQ(u[3], u[1], w[3])
	return w
}

// toSlices turns four vectors of words into their four byte slices: byte
// 4q+k of lane l of slice j is byte j of dword k of lane l of v[q].
func toSlices(v [4]reg.VecVirtual) [4]reg.VecVirtual {
	var t [4]reg.VecVirtual
	for q := range 4 {
		t[q] = c.YMM()
		c.VPSHUFB(consts.Offset(transposeOffset), v[q], t[q])
	}
	return transpose4(t)
}

// toWords is the inverse of toSlices.
func toWords(z [4]reg.VecVirtual) [4]reg.VecVirtual {
	l := [4]reg.VecVirtual{c.YMM(), c.YMM(), c.YMM(), c.YMM()}
	c.VPUNPCKLBW(z[1], z[0], l[0]) // bytes 0, 1 of words 0..7
	c.VPUNPCKHBW(z[1], z[0], l[1]) // bytes 0, 1 of words 8..15
	c.VPUNPCKLBW(z[3], z[2], l[2])
	c.VPUNPCKHBW(z[3], z[2], l[3])
	w := [4]reg.VecVirtual{c.YMM(), c.YMM(), c.YMM(), c.YMM()}
	c.VPUNPCKLWD(l[2], l[0], w[0]) // words 0..3
	c.VPUNPCKHWD(l[2], l[0], w[1]) // words 4..7
	c.VPUNPCKLWD(l[3], l[1], w[2])
	c.VPUNPCKHWD(l[3], l[1], w[3])
	return w
}

// chain is the state of one S-box chain: the two nibbles of each byte,
// the second as β (see ctSchedule in key_ct.go).
type chain struct{ a, b reg.VecVirtual }

// layer applies one layer, whose tables A0, P and Q are at t[0..2], to the
// chains, which share the tables' loads: u = P[β], a' = A0[a] ^ u, β' =
// Q[a] ^ u.
func layer(chs []*chain, t [3]operand.Mem) {
	us := make([]reg.VecVirtual, len(chs))
	tt := c.YMM()
	c.VBROADCASTI128(t[1], tt)
	for i, ch := range chs {
		us[i] = c.YMM()
		c.VPSHUFB(ch.b, tt, us[i])
	}
	for k, p := range [2]int{0, 2} {
		tt := c.YMM()
		c.VBROADCASTI128(t[p], tt)
		for i, ch := range chs {
			d := c.YMM()
			c.VPSHUFB(ch.a, tt, d)
			c.VPXOR(us[i], d, d)
			if k == 0 {
				ch.b = d // a' for now; swapped below
			} else {
				ch.a, ch.b = ch.b, d
			}
		}
	}
}

// firstMix emits the first nibble mix of every chain: a' = a ^ b,
// β' = mix[a] ^ b.
func firstMix(ks reg.Register, chs []*chain) {
	tt := c.YMM()
	c.VBROADCASTI128(mixTable(ks), tt)
	for _, ch := range chs {
		a, b := c.YMM(), c.YMM()
		c.VPXOR(ch.a, ch.b, a)
		c.VPSHUFB(ch.a, tt, b)
		c.VPXOR(ch.b, b, b)
		ch.a, ch.b = a, b
	}
}

// layerSteps appends to steps the nibble layers of byte j's chains for a
// key of kw words: each q permutation's two layers, with the key folded
// into the second, up to the last permutation's first layer.
func layerSteps(steps []func(), ks reg.Register, chs []*chain, kw, j int) []func() {
	for s := 0; ; s++ {
		q := spec.QLast[j]
		if s < kw {
			q = spec.QLevel[kw-1-s][j]
		}
		// P after the first mix (ror4) or after a second layer (mix4).
		p := 3
		if s == 0 {
			p = 2
		}
		steps = append(steps, func() {
			layer(chs, [3]operand.Mem{firstTable(ks, q, 0), firstTable(ks, q, p), firstTable(ks, q, 1)})
		})
		if s == kw {
			return steps
		}
		steps = append(steps, func() {
			layer(chs, [3]operand.Mem{secondTable(ks, s, j, 0), secondTable(ks, s, j, 1), secondTable(ks, s, j, 2)})
		})
	}
}

// sboxes returns the steps that run the S-box chains of byte j for both g
// functions of a round, from the slices in in[0..1], and leave their last
// nibbles in the frame. The two chains share each table load.
func sboxes(ks reg.Register, f frame, kw, j int, in [2]operand.Mem, mask reg.VecVirtual) []func() {
	chs := make([]*chain, 2)
	var steps []func()
	steps = append(steps, func() {
		for g := range chs {
			x := c.YMM()
			c.VMOVDQU(in[g], x)
			lo, hi := c.YMM(), c.YMM()
			c.VPAND(x, mask, lo)
			c.VPSRLW(operand.Imm(4), x, hi)
			c.VPAND(hi, mask, hi)
			chs[g] = &chain{a: hi, b: lo}
		}
		firstMix(ks, chs)
	})
	steps = layerSteps(steps, ks, chs, kw, j)
	steps = append(steps, func() {
		for g, ch := range chs {
			c.VMOVDQU(ch.a, f.nibble(g, j, 0))
			c.VMOVDQU(ch.b, f.nibble(g, j, 1))
		}
	})
	return steps
}

// interleave emits the steps of several streams round-robin, so that an
// out-of-order core finds independent work next to each chain's latency.
func interleave(streams [][]func()) {
	for k := 0; ; k++ {
		done := true
		for _, st := range streams {
			if k < len(st) {
				st[k]()
				done = false
			}
		}
		if done {
			return
		}
	}
}

// mdsProducts computes the byte slices of both g functions' outputs from
// the nibbles in the frame: out[g][i] is byte i of g's 32 outputs.
func mdsProducts(ks reg.Register, f frame) [2][4]reg.VecVirtual {
	var acc [2][4]reg.VecVirtual
	var pending [2][4]reg.VecVirtual // a first term not yet XORed into a fresh register
	var have [2][4]bool
	for j := range 4 {
		for p := range 3 {
			var rows []int
			for i := range 4 {
				if mdsProduct[i][j] == p {
					rows = append(rows, i)
				}
			}
			if len(rows) == 0 {
				continue
			}
			lo, hi := c.YMM(), c.YMM()
			c.VBROADCASTI128(mdsTable(ks, j, p, 0), lo)
			c.VBROADCASTI128(mdsTable(ks, j, p, 1), hi)
			for g := range 2 {
				v, t := c.YMM(), c.YMM()
				c.VPSHUFB(f.nibble(g, j, 0), lo, v)
				c.VPSHUFB(f.nibble(g, j, 1), hi, t)
				c.VPXOR(t, v, v)
				for _, i := range rows {
					switch {
					case !have[g][i] && pending[g][i] == nil:
						pending[g][i] = v
					case !have[g][i]:
						acc[g][i] = c.YMM()
						c.VPXOR(v, pending[g][i], acc[g][i])
						have[g][i] = true
					default:
						c.VPXOR(v, acc[g][i], acc[g][i])
					}
				}
			}
		}
	}
	return acc
}

// round emits one Feistel round on the 32 blocks: the active words (w0, w1)
// are in the frame's slices, the passive words (w2, w3) in its words; k0
// and k1 are the round's subkeys. The passive words become the next
// active pair: the round stores them as words and as slices.
func round(ks reg.Register, f frame, kw int, dec bool, w2, w3 int, k0, k1 operand.Mem) {
	mask := c.YMM()
	c.VMOVDQU(consts.Offset(maskOffset), mask)
	// The chains of bytes 0 and 1, then of bytes 2 and 3, interleaved:
	// a layer of one pair of chains is four cycles of latency, as long as
	// its VPSHUFBs take on two shuffle pipes, so a second pair fills the
	// gaps. (All four pairs at once need more than 16 registers.)
	for j0 := 0; j0 < 4; j0 += 2 {
		var streams [][]func()
		for j := j0; j < j0+2; j++ {
			// g(X) reads byte j of X, g(ROL(Y, 8)) byte j-1 of Y.
			streams = append(streams, sboxes(ks, f, kw, j, [2]operand.Mem{f.slice(0, j), f.slice(1, (j+3)%4)}, mask))
		}
		interleave(streams)
	}
	z := mdsProducts(ks, f)
	t0 := toWords(z[0])
	t1 := toWords(z[1])

	// The pseudo-Hadamard transform with the subkeys, and the updates:
	// encryption: w2 = ror(w2 ^ f0, 1), w3 = rol(w3, 1) ^ f1;
	// decryption: w2 = rol(w2, 1) ^ f0, w3 = ror(w3 ^ f1, 1).
	kk0, kk1 := c.YMM(), c.YMM()
	c.VPBROADCASTD(k0, kk0)
	c.VPBROADCASTD(k1, kk1)
	var n2, n3 [4]reg.VecVirtual
	for q := range 4 {
		s, f1 := c.YMM(), c.YMM()
		c.VPADDD(t1[q], t0[q], s)
		c.VPADDD(t1[q], s, f1)
		c.VPADDD(kk1, f1, f1)
		c.VPADDD(kk0, s, s) // f0
		x, y := c.YMM(), c.YMM()
		c.VMOVDQU(f.word(w2, q), x)
		c.VMOVDQU(f.word(w3, q), y)
		if !dec {
			c.VPXOR(s, x, x)
			n2[q] = ror1(x)
			n3[q] = rol1(y)
			c.VPXOR(f1, n3[q], n3[q])
		} else {
			n2[q] = rol1(x)
			c.VPXOR(s, n2[q], n2[q])
			c.VPXOR(f1, y, y)
			n3[q] = ror1(y)
		}
		c.VMOVDQU(n2[q], f.word(w2, q))
		c.VMOVDQU(n3[q], f.word(w3, q))
	}
	for p, n := range [2][4]reg.VecVirtual{n2, n3} {
		s := toSlices(n)
		for j := range 4 {
			c.VMOVDQU(s[j], f.slice(p, j))
		}
	}
}

func rol1(x reg.VecVirtual) reg.VecVirtual {
	l, r := c.YMM(), c.YMM()
	c.VPADDD(x, x, l)
	c.VPSRLD(operand.Imm(31), x, r)
	c.VPOR(r, l, l)
	return l
}

func ror1(x reg.VecVirtual) reg.VecVirtual {
	l, r := c.YMM(), c.YMM()
	c.VPSRLD(operand.Imm(1), x, r)
	c.VPSLLD(operand.Imm(31), x, l)
	c.VPOR(r, l, l)
	return l
}

// kernel32 emits encryptBlocks32AVX2CT<bits> or
// decryptBlocks32AVX2CT<bits> for keys of kw 64-bit words: n groups of 32
// blocks from src to dst, one group at a time. The Go side uses it for
// 17 to 40 blocks left at the end of a call (cryptAVX2CT).
func kernel32(kw int, dec bool) {
	name := fmt.Sprintf("encryptBlocks32AVX2CT%d", 64*kw)
	dir := "encrypts"
	// Whitening: k[0:4] before encryption and after decryption.
	in, out := subkeysOffset, subkeysOffset+16
	if dec {
		name = fmt.Sprintf("decryptBlocks32AVX2CT%d", 64*kw)
		dir = "decrypts"
		in, out = out, in
	}
	c.Implement(name)
	c.Commentf("%s %s n groups of 32 blocks with a %d-bit key in constant time; generated by _asm/avx2ct.", name, dir, 64*kw)

	// The frame, aligned to 32 bytes so that no vector access splits a
	// cache line.
	local := c.AllocLocal(frameSize + 32)
	fp := c.GP64()
	c.LEAQ(local.Offset(31), fp)
	c.ANDQ(operand.I32(-32), fp)
	f := frame{operand.Mem{Base: fp}}
	ks := c.GP64()
	c.Load(c.Param("ks"), ks)
	src, dst, n := c.GP64(), c.GP64(), c.GP64()
	c.Load(c.Param("src"), src)
	c.Load(c.Param("dst"), dst)
	c.Load(c.Param("n"), n)
	c.TESTQ(n, n)
	c.JZ(operand.LabelRef("done"))

	c.Label("blocks")
	// Load and whiten 32 blocks, and transpose them into words: group q
	// is blocks 8q to 8q+7, two to a vector.
	kin := c.YMM()
	c.VBROADCASTI128(operand.Mem{Base: ks, Disp: in}, kin)
	for q := range 4 {
		var v [4]reg.VecVirtual
		for k := range v {
			v[k] = c.YMM()
			c.VPXOR(operand.Mem{Base: src, Disp: 32 * (4*q + k)}, kin, v[k])
		}
		w := transpose4(v)
		for i := range 4 {
			c.VMOVDQU(w[i], f.word(i, q))
		}
	}
	for p := range 2 {
		var v [4]reg.VecVirtual
		for q := range 4 {
			v[q] = c.YMM()
			c.VMOVDQU(f.word(p, q), v[q])
		}
		s := toSlices(v)
		for j := range 4 {
			c.VMOVDQU(s[j], f.slice(p, j))
		}
	}

	// Sixteen rounds, two per turn: the first updates words 2 and 3, the
	// second words 0 and 1. kp walks the subkeys: k[8], k[12], … in
	// encryption, k[38], k[34], … in decryption.
	kp, cnt := c.GP64(), c.GP64()
	step := 16
	first := subkeysOffset + 4*8
	second := 8
	if dec {
		step, first, second = -16, subkeysOffset+4*38, -8
	}
	c.LEAQ(operand.Mem{Base: ks, Disp: first}, kp)
	c.MOVQ(operand.I32(8), cnt)
	c.Label("rounds")
	round(ks, f, kw, dec, 2, 3, operand.Mem{Base: kp}, operand.Mem{Base: kp, Disp: 4})
	round(ks, f, kw, dec, 0, 1, operand.Mem{Base: kp, Disp: second}, operand.Mem{Base: kp, Disp: second + 4})
	c.ADDQ(operand.I8(int8(step)), kp)
	c.DECQ(cnt)
	c.JNZ(operand.LabelRef("rounds"))

	// The output is words 2, 3, 0, 1, whitened.
	kout := c.YMM()
	c.VBROADCASTI128(operand.Mem{Base: ks, Disp: out}, kout)
	for q := range 4 {
		var v [4]reg.VecVirtual
		for i, w := range [4]int{2, 3, 0, 1} {
			v[i] = c.YMM()
			c.VMOVDQU(f.word(w, q), v[i])
		}
		b := transpose4(v)
		for k := range 4 {
			c.VPXOR(kout, b[k], b[k])
			c.VMOVDQU(b[k], operand.Mem{Base: dst, Disp: 32 * (4*q + k)})
		}
	}

	c.ADDQ(operand.I32(512), src)
	c.ADDQ(operand.I32(512), dst)
	c.DECQ(n)
	c.JNZ(operand.LabelRef("blocks"))

	c.Label("done")
	c.VZEROUPPER()
	c.RET()
}

// psH returns the steps of the first part of a round of one group, for the
// phase-shifted kernels: the S-box chains of bytes 0 and 1, interleaved,
// then of bytes 2 and 3, each byte's chains followed by its MDS products,
// added into the byte slices of the g outputs in the frame (acc(g, i) =
// nibble(g, i, 0)).
func psH(ks reg.Register, f frame, kw int) []func() {
	var all []func()
	for j0 := 0; j0 < 4; j0 += 2 {
		a, b := psHByte(ks, f, kw, j0), psHByte(ks, f, kw, j0+1)
		for k := range a {
			all = append(all, a[k], b[k])
		}
	}
	return all
}

func psHByte(ks reg.Register, f frame, kw, j int) []func() {
	chs := make([]*chain, 2)
	in := [2]operand.Mem{f.slice(0, j), f.slice(1, (j+3)%4)}
	steps := []func(){func() {
		for g := range chs {
			x := c.YMM()
			c.VMOVDQU(in[g], x)
			lo, hi := c.YMM(), c.YMM()
			c.VPAND(consts.Offset(maskOffset), x, lo)
			c.VPSRLW(operand.Imm(4), x, hi)
			c.VPAND(consts.Offset(maskOffset), hi, hi)
			chs[g] = &chain{a: hi, b: lo}
		}
		firstMix(ks, chs)
	}}
	steps = layerSteps(steps, ks, chs, kw, j)
	steps = append(steps, func() {
		for p := range 3 {
			var rows []int
			for i := range 4 {
				if mdsProduct[i][j] == p {
					rows = append(rows, i)
				}
			}
			if len(rows) == 0 {
				continue
			}
			lo, hi := c.YMM(), c.YMM()
			c.VBROADCASTI128(mdsTable(ks, j, p, 0), lo)
			c.VBROADCASTI128(mdsTable(ks, j, p, 1), hi)
			for g, ch := range chs {
				v, t := c.YMM(), c.YMM()
				c.VPSHUFB(ch.a, lo, v)
				c.VPSHUFB(ch.b, hi, t)
				c.VPXOR(t, v, v)
				for _, i := range rows {
					acc := f.nibble(g, i, 0)
					if j == 0 {
						c.VMOVDQU(v, acc)
						continue
					}
					u := c.YMM()
					c.VPXOR(acc, v, u)
					c.VMOVDQU(u, acc)
				}
			}
		}
	})
	return steps
}

// psT returns the steps of the second part of a round of one group: the g
// outputs into words (scratch t_g[q] = nibble(g, q, 1)), the
// pseudo-Hadamard transform with the subkeys k0, k1, the updates of the
// passive words (at pas: word 2 at pas, word 3 at pas+128), and their byte
// slices for the next round. No register lives from one step to the next.
func psT(f frame, pas reg.Register, dec bool, k0, k1 operand.Mem) []func() {
	var steps []func()
	for g := range 2 {
		for half := range 2 {
			steps = append(steps, func() {
				z0, z2 := c.YMM(), c.YMM()
				c.VMOVDQU(f.nibble(g, 0, 0), z0)
				c.VMOVDQU(f.nibble(g, 2, 0), z2)
				l0, l2 := c.YMM(), c.YMM()
				if half == 0 {
					c.VPUNPCKLBW(f.nibble(g, 1, 0), z0, l0)
					c.VPUNPCKLBW(f.nibble(g, 3, 0), z2, l2)
				} else {
					c.VPUNPCKHBW(f.nibble(g, 1, 0), z0, l0)
					c.VPUNPCKHBW(f.nibble(g, 3, 0), z2, l2)
				}
				w0, w1 := c.YMM(), c.YMM()
				c.VPUNPCKLWD(l2, l0, w0)
				c.VPUNPCKHWD(l2, l0, w1)
				c.VMOVDQU(w0, f.nibble(g, 2*half, 1))
				c.VMOVDQU(w1, f.nibble(g, 2*half+1, 1))
			})
		}
	}
	word := func(p, q int) operand.Mem { return operand.Mem{Base: pas, Disp: 128*p + 32*q} }
	for q := range 4 {
		steps = append(steps, func() {
			kk0, kk1 := c.YMM(), c.YMM()
			c.VPBROADCASTD(k0, kk0)
			c.VPBROADCASTD(k1, kk1)
			s, f1, t1 := c.YMM(), c.YMM(), c.YMM()
			c.VMOVDQU(f.nibble(1, q, 1), t1)
			c.VPADDD(f.nibble(0, q, 1), t1, s)
			c.VPADDD(t1, s, f1)
			c.VPADDD(kk1, f1, f1)
			c.VPADDD(kk0, s, s) // f0
			x, y := c.YMM(), c.YMM()
			c.VMOVDQU(word(0, q), x)
			c.VMOVDQU(word(1, q), y)
			var n2, n3 reg.VecVirtual
			if !dec {
				c.VPXOR(s, x, x)
				n2 = ror1(x)
				n3 = rol1(y)
				c.VPXOR(f1, n3, n3)
			} else {
				n2 = rol1(x)
				c.VPXOR(s, n2, n2)
				c.VPXOR(f1, y, y)
				n3 = ror1(y)
			}
			c.VMOVDQU(n2, word(0, q))
			c.VMOVDQU(n3, word(1, q))
		})
	}
	for p := range 2 {
		steps = append(steps, func() {
			var v [4]reg.VecVirtual
			for q := range 4 {
				v[q] = c.YMM()
				c.VMOVDQU(word(p, q), v[q])
			}
			sl := toSlices(v)
			for j := range 4 {
				c.VMOVDQU(sl[j], f.slice(p, j))
			}
		})
	}
	return steps
}

// psMerge emits the steps of h with those of t spread among them, t's
// ahead, since t's group waits for them.
func psMerge(h, t []func()) {
	ratio := (len(h) + len(t) - 1) / max(len(t), 1)
	for len(h) > 0 || len(t) > 0 {
		if len(t) > 0 {
			t[0]()
			t = t[1:]
		}
		for k := 0; k < ratio && len(h) > 0; k++ {
			h[0]()
			h = h[1:]
		}
	}
}

// kernel64 emits encryptBlocks64AVX2CT<bits> or
// decryptBlocks64AVX2CT<bits> for keys of kw 64-bit words: n groups of 64
// blocks from src to dst, as two groups of 32, A and B, whose rounds are
// offset by half a round: while the S-box chains of one group run, the
// other group's transposes and sums fill their gaps. A round of one group
// is a strict chain (the next g functions need all of this round's
// outputs), so one group alone leaves the core idle at the end of every
// round.
func kernel64(kw int, dec bool) {
	name := fmt.Sprintf("encryptBlocks64AVX2CT%d", 64*kw)
	dir := "encrypts"
	in, out := subkeysOffset, subkeysOffset+16
	if dec {
		name = fmt.Sprintf("decryptBlocks64AVX2CT%d", 64*kw)
		dir = "decrypts"
		in, out = out, in
	}
	c.Implement(name)
	c.Commentf("%s %s n groups of 64 blocks with a %d-bit key in constant time; generated by _asm/avx2ct.", name, dir, 64*kw)
	local := c.AllocLocal(2*frameSize + 32)
	fp := c.GP64()
	c.LEAQ(local.Offset(31), fp)
	c.ANDQ(operand.I32(-32), fp)
	fs := [2]frame{{operand.Mem{Base: fp}}, {operand.Mem{Base: fp, Disp: frameSize}}}
	ks := c.GP64()
	c.Load(c.Param("ks"), ks)
	src, dst, n := c.GP64(), c.GP64(), c.GP64()
	c.Load(c.Param("src"), src)
	c.Load(c.Param("dst"), dst)
	c.Load(c.Param("n"), n)
	c.TESTQ(n, n)
	c.JZ(operand.LabelRef("done"))

	c.Label("blocks")
	for gi, f := range fs {
		kin := c.YMM()
		c.VBROADCASTI128(operand.Mem{Base: ks, Disp: in}, kin)
		for q := range 4 {
			var v [4]reg.VecVirtual
			for k := range v {
				v[k] = c.YMM()
				c.VPXOR(operand.Mem{Base: src, Disp: 512*gi + 32*(4*q+k)}, kin, v[k])
			}
			w := transpose4(v)
			for i := range 4 {
				c.VMOVDQU(w[i], f.word(i, q))
			}
		}
		for p := range 2 {
			var v [4]reg.VecVirtual
			for q := range 4 {
				v[q] = c.YMM()
				c.VMOVDQU(f.word(p, q), v[q])
			}
			s := toSlices(v)
			for j := range 4 {
				c.VMOVDQU(s[j], f.slice(p, j))
			}
		}
	}

	// The passive and active words of each group: words 2, 3 and 0, 1
	// first, swapped after every round.
	var pas, act [2]reg.GPVirtual
	for g, f := range fs {
		pas[g], act[g] = c.GP64(), c.GP64()
		c.LEAQ(f.word(2, 0), pas[g])
		c.LEAQ(f.word(0, 0), act[g])
	}
	kp, cnt := c.GP64(), c.GP64()
	step, first := 8, subkeysOffset+4*8
	if dec {
		step, first = -8, subkeysOffset+4*38
	}
	c.LEAQ(operand.Mem{Base: ks, Disp: first}, kp)
	c.MOVQ(operand.I32(16), cnt)
	psMerge(psH(ks, fs[0], kw), nil)
	c.Label("rounds")
	k0, k1 := operand.Mem{Base: kp}, operand.Mem{Base: kp, Disp: 4}
	// Group B's chains of round r with group A's sums of round r, then
	// A's chains of round r+1 (in the last turn, of no round: their
	// result is never used) with B's sums of round r.
	psMerge(psH(ks, fs[1], kw), psT(fs[0], pas[0], dec, k0, k1))
	c.XCHGQ(pas[0], act[0])
	psMerge(psH(ks, fs[0], kw), psT(fs[1], pas[1], dec, k0, k1))
	c.XCHGQ(pas[1], act[1])
	c.ADDQ(operand.I8(int8(step)), kp)
	c.DECQ(cnt)
	c.JNZ(operand.LabelRef("rounds"))

	for gi, f := range fs {
		kout := c.YMM()
		c.VBROADCASTI128(operand.Mem{Base: ks, Disp: out}, kout)
		for q := range 4 {
			var v [4]reg.VecVirtual
			for i, w := range [4]int{2, 3, 0, 1} {
				v[i] = c.YMM()
				c.VMOVDQU(f.word(w, q), v[i])
			}
			b := transpose4(v)
			for k := range 4 {
				c.VPXOR(kout, b[k], b[k])
				c.VMOVDQU(b[k], operand.Mem{Base: dst, Disp: 512*gi + 32*(4*q+k)})
			}
		}
	}
	c.ADDQ(operand.I32(1024), src)
	c.ADDQ(operand.I32(1024), dst)
	c.DECQ(n)
	c.JNZ(operand.LabelRef("blocks"))
	c.Label("done")
	c.VZEROUPPER()
	c.RET()
}

// pairTable returns a register with the 16-byte table at a in its low lane
// and the one at b in its high lane.
func pairTable(a, b operand.Mem) reg.VecVirtual {
	t := c.YMM()
	c.VBROADCASTI128(a, t)
	c.VINSERTI128(operand.Imm(1), b, t, t)
	return t
}

// kernel8 emits encryptBlocks8AVX2CT<bits> or decryptBlocks8AVX2CT<bits>
// for keys of kw 64-bit words: n groups of 8 blocks from src to dst, for
// 2 to 16 blocks left at the end of a call. With 8 blocks the bytes of a round's
// g inputs fill two vectors, each 128-bit lane holding one byte position j
// of both g functions' inputs (16 bytes), and each lane looks its own
// S-box up: bytes 0 and 1 in one vector, 2 and 3 in the other. The four
// words stay in registers; a call takes about as long for one block as for
// eight, a quarter of a call of kernel32.
func kernel8(kw int, dec bool) {
	name := fmt.Sprintf("encryptBlocks8AVX2CT%d", 64*kw)
	dir := "encrypts"
	in, out := subkeysOffset, subkeysOffset+16
	if dec {
		name = fmt.Sprintf("decryptBlocks8AVX2CT%d", 64*kw)
		dir = "decrypts"
		in, out = out, in
	}
	c.Implement(name)
	c.Attributes(attr.NOSPLIT) // no frame
	c.Commentf("%s %s n groups of 8 blocks with a %d-bit key in constant time; generated by _asm/avx2ct.", name, dir, 64*kw)
	ks := c.GP64()
	c.Load(c.Param("ks"), ks)
	src, dst, n := c.GP64(), c.GP64(), c.GP64()
	c.Load(c.Param("src"), src)
	c.Load(c.Param("dst"), dst)
	c.Load(c.Param("n"), n)
	c.TESTQ(n, n)
	c.JZ(operand.LabelRef("done"))

	c.Label("blocks")
	// Word w of block 2k+l is dword k of lane l of w[w].
	kin := c.YMM()
	c.VBROADCASTI128(operand.Mem{Base: ks, Disp: in}, kin)
	var v [4]reg.VecVirtual
	for k := range v {
		v[k] = c.YMM()
		c.VPXOR(operand.Mem{Base: src, Disp: 32 * k}, kin, v[k])
	}
	w := transpose4(v)

	kp, cnt := c.GP64(), c.GP64()
	step, first, second := 16, subkeysOffset+4*8, 8
	if dec {
		step, first, second = -16, subkeysOffset+4*38, -8
	}
	c.LEAQ(operand.Mem{Base: ks, Disp: first}, kp)
	c.MOVQ(operand.I32(8), cnt)
	c.Label("rounds")
	top := w
	w[2], w[3] = round8(ks, kw, dec, w[0], w[1], w[2], w[3], operand.Mem{Base: kp}, operand.Mem{Base: kp, Disp: 4})
	w[0], w[1] = round8(ks, kw, dec, w[2], w[3], w[0], w[1], operand.Mem{Base: kp, Disp: second}, operand.Mem{Base: kp, Disp: second + 4})
	for i := range w {
		c.VMOVDQA(w[i], top[i])
	}
	w = top
	c.ADDQ(operand.I8(int8(step)), kp)
	c.DECQ(cnt)
	c.JNZ(operand.LabelRef("rounds"))

	kout := c.YMM()
	c.VBROADCASTI128(operand.Mem{Base: ks, Disp: out}, kout)
	b := transpose4([4]reg.VecVirtual{w[2], w[3], w[0], w[1]})
	for k := range 4 {
		c.VPXOR(kout, b[k], b[k])
		c.VMOVDQU(b[k], operand.Mem{Base: dst, Disp: 32 * k})
	}
	c.ADDQ(operand.I32(128), src)
	c.ADDQ(operand.I32(128), dst)
	c.DECQ(n)
	c.JNZ(operand.LabelRef("blocks"))
	c.Label("done")
	c.VZEROUPPER()
	c.RET()
}

// round8 emits one round of kernel8 with the active words x, y and the
// passive words p, q, and returns the updated passive words.
func round8(ks reg.Register, kw int, dec bool, x, y, p, q reg.VecVirtual, k0, k1 operand.Mem) (reg.VecVirtual, reg.VecVirtual) {
	// The slices: lane 0 of s[0] holds byte 0 of x's eight words (0 to
	// 3, then 4 to 7) and byte 0 of ROL(y, 8)'s (that is, byte 3 of y's),
	// lane 1 byte 1 of both; s[1] bytes 2 and 3 the same way.
	perm := c.YMM()
	c.VMOVDQU(consts.Offset(permOffset), perm)
	xg, yg := c.YMM(), c.YMM()
	c.VPSHUFB(consts.Offset(transposeOffset), x, xg)
	c.VPSHUFB(consts.Offset(rolOffset), y, yg)
	c.VPERMD(xg, perm, xg)
	c.VPERMD(yg, perm, yg)
	var s [2]reg.VecVirtual
	s[0], s[1] = c.YMM(), c.YMM()
	c.VPUNPCKLQDQ(yg, xg, s[0])
	c.VPUNPCKHQDQ(yg, xg, s[1])

	chs := make([]*chain, 2)
	for h := range chs {
		lo, hi := c.YMM(), c.YMM()
		c.VPAND(consts.Offset(maskOffset), s[h], lo)
		c.VPSRLW(operand.Imm(4), s[h], hi)
		c.VPAND(consts.Offset(maskOffset), hi, hi)
		chs[h] = &chain{a: hi, b: lo}
	}
	firstMix(ks, chs)
	// lanes applies one layer to both chains with the tables t(j, i) of
	// the lanes' bytes j.
	lanes := func(t func(j, i int) operand.Mem) {
		us := make([]reg.VecVirtual, 2)
		for h, ch := range chs {
			tt := pairTable(t(2*h, 1), t(2*h+1, 1))
			us[h] = c.YMM()
			c.VPSHUFB(ch.b, tt, us[h])
		}
		na := make([]reg.VecVirtual, 2)
		for h, ch := range chs {
			tt := pairTable(t(2*h, 0), t(2*h+1, 0))
			na[h] = c.YMM()
			c.VPSHUFB(ch.a, tt, na[h])
			c.VPXOR(us[h], na[h], na[h])
		}
		for h, ch := range chs {
			tt := pairTable(t(2*h, 2), t(2*h+1, 2))
			nb := c.YMM()
			c.VPSHUFB(ch.a, tt, nb)
			c.VPXOR(us[h], nb, nb)
			ch.a, ch.b = na[h], nb
		}
	}
	for st := 0; ; st++ {
		p := 3
		if st == 0 {
			p = 2
		}
		lanes(func(j, i int) operand.Mem {
			qt := spec.QLast[j]
			if st < kw {
				qt = spec.QLevel[kw-1-st][j]
			}
			return firstTable(ks, qt, [3]int{0, p, 1}[i])
		})
		if st == kw {
			break
		}
		lanes(func(j, i int) operand.Mem { return secondTable(ks, st, j, i) })
	}

	// The MDS products: row i of lane j of chain h is byte j = 2h+l's
	// product by M[i][j]; the two chains' sum holds bytes 0 and 2 in lane
	// 0, 1 and 3 in lane 1, whose sum is byte i of both g outputs.
	var z [4]reg.VecVirtual
	for i := range 4 {
		var r [2]reg.VecVirtual
		for h, ch := range chs {
			j0, j1 := 2*h, 2*h+1
			lo := pairTable(mdsTable(ks, j0, mdsProduct[i][j0], 0), mdsTable(ks, j1, mdsProduct[i][j1], 0))
			hi := pairTable(mdsTable(ks, j0, mdsProduct[i][j0], 1), mdsTable(ks, j1, mdsProduct[i][j1], 1))
			r[h] = c.YMM()
			t := c.YMM()
			c.VPSHUFB(ch.a, lo, r[h])
			c.VPSHUFB(ch.b, hi, t)
			c.VPXOR(t, r[h], r[h])
		}
		c.VPXOR(r[1], r[0], r[0])
		hi := c.XMM()
		c.VEXTRACTI128(operand.Imm(1), r[0], hi)
		z[i] = c.XMM()
		c.VPXOR(hi, r[0].AsX(), z[i])
	}
	// Into words: bytes 0 to 3 of z are g(x) of words 0 to 3, 4 to 7 of
	// words 4 to 7, 8 to 15 g(ROL(y, 8)) of the same.
	l := [4]reg.VecVirtual{c.XMM(), c.XMM(), c.XMM(), c.XMM()}
	c.VPUNPCKLBW(z[1], z[0], l[0])
	c.VPUNPCKHBW(z[1], z[0], l[1])
	c.VPUNPCKLBW(z[3], z[2], l[2])
	c.VPUNPCKHBW(z[3], z[2], l[3])
	wd := [4]reg.VecVirtual{c.XMM(), c.XMM(), c.XMM(), c.XMM()}
	c.VPUNPCKLWD(l[2], l[0], wd[0])
	c.VPUNPCKHWD(l[2], l[0], wd[1])
	c.VPUNPCKLWD(l[3], l[1], wd[2])
	c.VPUNPCKHWD(l[3], l[1], wd[3])
	t0, t1 := c.YMM(), c.YMM()
	c.VINSERTI128(operand.Imm(1), wd[1], wd[0].AsY(), t0)
	c.VINSERTI128(operand.Imm(1), wd[3], wd[2].AsY(), t1)

	kk0, kk1 := c.YMM(), c.YMM()
	c.VPBROADCASTD(k0, kk0)
	c.VPBROADCASTD(k1, kk1)
	sum, f1 := c.YMM(), c.YMM()
	c.VPADDD(t1, t0, sum)
	c.VPADDD(t1, sum, f1)
	c.VPADDD(kk1, f1, f1)
	c.VPADDD(kk0, sum, sum) // f0
	var n2, n3 reg.VecVirtual
	if !dec {
		xx := c.YMM()
		c.VPXOR(sum, p, xx)
		n2 = ror1(xx)
		n3 = rol1(q)
		c.VPXOR(f1, n3, n3)
	} else {
		n2 = rol1(p)
		c.VPXOR(sum, n2, n2)
		yy := c.YMM()
		c.VPXOR(f1, q, yy)
		n3 = ror1(yy)
	}
	return n2, n3
}

// check enforces the constant-time rules and the frame-pointer convention
// on the allocated code of every kernel.
func check(f *ir.File) error {
	for _, fn := range f.Functions() {
		// The loop counters: the registers DECQ counts down.
		counters := map[reg.Physical]bool{}
		insts := fn.Instructions()
		for _, inst := range insts {
			if inst.Opcode == "DECQ" {
				counters[phys(fn, inst, inst.Operands[0].(reg.Register))] = true
			}
		}
		for i, inst := range insts {
			for _, isa := range inst.ISA {
				if !slices.Contains([]string{"AVX", "AVX2"}, isa) {
					panic(fmt.Sprintf("%s: %s needs %s", fn.Name, inst.Opcode, isa))
				}
			}
			for _, op := range inst.Operands {
				if m, ok := op.(operand.Mem); ok {
					if m.Index != nil {
						panic(fmt.Sprintf("%s: %s has an indexed memory operand", fn.Name, inst.Opcode))
					}
					if m.Base != nil && phys(fn, inst, m.Base).Info()&reg.BasePointer != 0 {
						panic(fmt.Sprintf("%s: %s addresses through BP", fn.Name, inst.Opcode))
					}
					continue
				}
				for _, r := range operand.Registers(op) {
					if p := phys(fn, inst, r); p.Kind() == reg.KindVector && p.PhysicalIndex() >= 16 {
						panic(fmt.Sprintf("%s: %s uses %s, which only AVX-512 can encode", fn.Name, inst.Opcode, p.Asm()))
					}
				}
			}
			if inst.IsBranch && inst.IsConditional {
				prev := insts[i-1]
				if inst.Opcode == "JZ" && prev.Opcode == "TESTQ" && isCounterTest(fn, prev, counters) {
					// The check of a count before its loop.
					continue
				}
				if inst.Opcode != "JNZ" || prev.Opcode != "DECQ" {
					panic(fmt.Sprintf("%s: %s after %s is not a loop counter branch", fn.Name, inst.Opcode, prev.Opcode))
				}
			}
		}
		// A loop counter is written only by DECQ and by MOVQ of a constant
		// or of an argument.
		for _, inst := range insts {
			for _, op := range inst.Outputs {
				r, ok := op.(reg.Register)
				if !ok || !counters[phys(fn, inst, r)] {
					continue
				}
				switch {
				case inst.Opcode == "DECQ":
				case inst.Opcode == "MOVQ" && isConstOrArg(inst.Operands[0]):
				default:
					panic(fmt.Sprintf("%s: %s writes the loop counter %s", fn.Name, inst.Opcode, phys(fn, inst, r).Asm()))
				}
			}
		}
	}
	return nil
}

// isCounterTest reports whether inst tests a loop counter against itself
// (TESTQ r, r).
func isCounterTest(fn *ir.Function, inst *ir.Instruction, counters map[reg.Physical]bool) bool {
	a, okA := inst.Operands[0].(reg.Register)
	b, okB := inst.Operands[1].(reg.Register)
	return okA && okB && phys(fn, inst, a) == phys(fn, inst, b) && counters[phys(fn, inst, a)]
}

func isConstOrArg(op operand.Op) bool {
	switch o := op.(type) {
	case operand.Constant:
		return true
	case operand.Mem:
		return o.Base == reg.FramePointer
	}
	return false
}

func phys(fn *ir.Function, inst *ir.Instruction, r reg.Register) reg.Physical {
	p := reg.ToPhysical(r)
	if p == nil {
		panic(fmt.Sprintf("%s: %s has an unallocated register", fn.Name, inst.Opcode))
	}
	return p
}
