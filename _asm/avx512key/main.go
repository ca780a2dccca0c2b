// Command avx512key generates internal/kernel/key_avx512_amd64.s, the Twofish
// key schedule on AVX-512 VBMI, with avo. Run it through go generate in the
// package directory:
//
//	go run -C ../../_asm/avx512key . -out ../../internal/kernel/key_avx512_amd64.s -pkg kernel
//
// # Design
//
// Key-dependent S-box j on x is a chain of k+1 fixed permutations (q0 or
// q1) with a key byte XORed in after all but the last (section 4.3.2; k is
// the key's length in 64-bit words, 2 to 4). scheduleAVX512 evaluates the
// chains of 64 inputs at a time, one input per byte lane, and the four
// groups of 64 inputs of an S-box together, so that an out-of-order core
// overlaps their dependency chains:
//
//   - q0 and q1 are 256 bytes each, four zmm registers Q0..Q3, loaded once.
//     A look-up of a register of indexes v is VPERMI2B in Q0:Q1 and in
//     Q2:Q3 (each takes the low seven bits of the index), VPMOVB2M of v's
//     bit 7 and a masked VMOVDQU8 that keeps the Q2:Q3 answer where it is
//     set, as the avx512-vbmi kernels look their S-boxes up.
//   - The first permutation of a chain is on the inputs x themselves, so
//     its outputs for x = 64g..64g+63 are Qg: the chain starts with the
//     XOR of the first key byte, broadcast to every lane (VPBROADCASTB).
//   - The S-boxes are stored as they are: the byte-sliced kernels'
//     layout. The table kernels' layout multiplies each byte by its MDS
//     column first: the products by 5B and EF are two VPERMB nibble
//     look-ups and a XOR (as in the avx512-vbmi kernels), and two rounds
//     of VPERMI2B interleave the four product bytes of each entry into a
//     32-bit word, pairs of bytes first and then pairs of 16-bit halves.
//   - The subkeys need h(nρ, Me) for even n and h(nρ, Mo) for odd n, n =
//     0..39: the same chains on the inputs n (Q0's lanes), with a key byte
//     that alternates between Me's and Mo's from lane to lane, one 16-bit
//     broadcast (VPBROADCASTW). The MDS product of the four chains, h, is
//     stored as words; Go combines them into subkeys.
//
// On Zen 5 (medians of 3 runs, pinned to a core, of go test -run '^$'
// -bench Expand ./internal/kernel, whose rows alternate) both layouts and
// the subkeys take 0.20, 0.23 and 0.28 us for 128, 192 and 256-bit keys,
// 8.5x to 9.4x the Go table pass, and the byte-sliced layout alone 15x to
// 16x the bitsliced Go schedule that it replaces for
// NewCipherConstantTime.
//
// The chains of each key length are written out, selected by one branch on
// k; the S-boxes go to the byte-sliced layout (or the frame, where the
// caller wants the tables only), from where the shared code of the table
// layout reloads them. tablesFromSlicedAVX512 is that code alone: the
// tables of S-boxes computed before, which a Cipher from NewCipher builds
// when it first needs them.
//
// GFNI would make each MDS product one instruction, but is not used, as in
// the avx512-vbmi kernels: Bochs 2.7, which tests the code without the
// hardware, computes VGF2P8AFFINEQB wrongly.
//
// # Constant time
//
// Every address is a register from the argument frame or the frame plus a
// constant: the permutations are whole registers, the key bytes enter by
// broadcast from fixed offsets and XOR. There is no memory operand with an
// index register and no branch but those on k and on the nil pointers;
// key_avx512_amd64_test.go checks the generated file for both. The
// generator refuses BP and SP (asmgen.RefuseBP).
package main

import (
	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/twofish-go/twofish/_asm/internal/asmgen"
	"github.com/twofish-go/twofish/_asm/internal/spec"
)

var c = build.NewContext()

func main() {
	asmgen.Main(c, "avx512key", "github.com/twofish-go/twofish/internal/kernel", func() {
		constants()
		schedule()
		fromSliced()
	})
}

type zmm = reg.VecVirtual

// The offsets of the key bytes in the argument in (keyBytesAVX512 in
// internal/kernel/key_avx512_amd64.go): byte j of L[m] at svOffset+4m+j,
// bytes j of Me[m] and Mo[m] at memoOffset+8m+2j.
const (
	svOffset   = 0
	memoOffset = 16
)

// The frame: the S-boxes when the caller wants the tables only, then the
// four chains of the subkeys.
const (
	frameSboxes  = 0
	frameSubkeys = 1024
	frameSize    = 1024 + 256
)

// Constants in memory.
var (
	// qTab[q] is q0 or q1, 256 bytes.
	qTab [2]operand.Mem
	// mulLo[m] and mulHi[m] are the VPERMB tables of the products by m of
	// the low and the high nibble: entry i is m·(i&15) and m·((i&15)<<4).
	mulLo, mulHi = map[byte]operand.Mem{}, map[byte]operand.Mem{}
	// pairs[h] is the VPERMI2B index that interleaves the bytes of two
	// registers, the first's in the even lanes: their bytes 32h..32h+31.
	pairs [2]operand.Mem
	// halves[h] is the VPERMI2B index that interleaves the 16-bit halves
	// of two registers, the first's low: their halves 16h..16h+15.
	halves [2]operand.Mem
)

// data emits a constant whose byte i is f(i), n bytes long.
func data(name string, n int, f func(i int) byte) operand.Mem { return asmgen.Bytes(c, name, n, f) }

func constants() {
	qTab[0] = data("q0", 256, func(i int) byte { return spec.Q(0, byte(i)) })
	qTab[1] = data("q1", 256, func(i int) byte { return spec.Q(1, byte(i)) })
	mulLo[0x5B] = data("mul5BLo", 64, func(i int) byte { return spec.GFMul(0x5B, byte(i&15)) })
	mulHi[0x5B] = data("mul5BHi", 64, func(i int) byte { return spec.GFMul(0x5B, byte(i&15)<<4) })
	mulLo[0xEF] = data("mulEFLo", 64, func(i int) byte { return spec.GFMul(0xEF, byte(i&15)) })
	mulHi[0xEF] = data("mulEFHi", 64, func(i int) byte { return spec.GFMul(0xEF, byte(i&15)<<4) })
	// Lane 2t+s takes byte 32h+t of the first register (s = 0) or of the
	// second (index bit 6).
	pairs[0] = data("pairs0", 64, func(i int) byte { return byte(i/2 + 64*(i&1)) })
	pairs[1] = data("pairs1", 64, func(i int) byte { return byte(32 + i/2 + 64*(i&1)) })
	// Lanes 4t+2s and 4t+2s+1 take half 16h+t of the first register (s =
	// 0) or of the second.
	halves[0] = data("halves0", 64, func(i int) byte { return byte(64*(i%4/2) + 2*(i/4) + i%2) })
	halves[1] = data("halves1", 64, func(i int) byte { return byte(64*(i%4/2) + 2*(16+i/4) + i%2) })
}

// q holds q0 and q1 in registers: q[t][g] is bytes 64g..64g+63 of q_t.
var q [2][4]zmm

// lookup returns q_t applied to every lane of v, which it overwrites.
func lookup(t int, v zmm) zmm {
	m := c.K()
	c.VPMOVB2M(v, m)
	y := c.ZMM()
	c.VMOVDQA64(v, y)
	c.VPERMI2B(q[t][1], q[t][0], y) // y = Q0:Q1[v & 0x7F]
	c.VPERMI2B(q[t][3], q[t][2], v) // v = Q2:Q3[v & 0x7F]
	c.VMOVDQU8(v, m, y)             // y = v where bit 7 of v was set
	return y
}

// chains returns byte j of the h function before the MDS multiply, for
// key words of kw 64-bit words: ng registers of 64 inputs each, the
// inputs of register g being 64g..64g+63, with key byte m from key(m) as
// a register.
func chains(j, kw, ng int, key func(m int) zmm) []zmm {
	v := make([]zmm, ng)
	first := q[spec.QLevel[kw-1][j]]
	for m := kw - 1; m >= 0; m-- {
		b := key(m)
		next := spec.QLast[j]
		if m > 0 {
			next = spec.QLevel[m-1][j]
		}
		for g := range v {
			x := c.ZMM()
			if m == kw-1 {
				c.VPXORD(b, first[g], x)
			} else {
				c.VPXORD(b, v[g], x)
			}
			v[g] = lookup(next, x)
		}
	}
	return v
}

// products returns y times 01, 5B and EF, by mds entry.
func products(y zmm) map[byte]zmm {
	p := map[byte]zmm{0x01: y}
	hi := c.ZMM()
	c.VPSRLW(operand.U8(4), y, hi)
	for _, m := range []byte{0x5B, 0xEF} {
		lo, h := c.ZMM(), c.ZMM()
		c.VPERMB(mulLo[m], y, lo)
		c.VPERMB(mulHi[m], hi, h)
		c.VPXORD(lo, h, h)
		p[m] = h
	}
	return p
}

// interleave returns VPERMI2B of a and b by the index in memory idx.
func interleave(a, b zmm, idx operand.Mem) zmm {
	r := c.ZMM()
	c.VMOVDQU64(idx, r)
	c.VPERMI2B(b, a, r)
	return r
}

// words returns the little-endian words of the bytes b[0..3] of 64
// entries: four registers of 16 words, entries 16o..16o+15 in register o.
func words(b [4]zmm) [4]zmm {
	var lo, hi [2]zmm // lo: bytes 0 and 1, hi: bytes 2 and 3
	for h := range 2 {
		lo[h] = interleave(b[0], b[1], pairs[h])
		hi[h] = interleave(b[2], b[3], pairs[h])
	}
	var w [4]zmm
	for o := range w {
		w[o] = interleave(lo[o/2], hi[o/2], halves[o%2])
	}
	return w
}

// mdsTables stores the table kernels' layout of the byte-sliced S-boxes at
// sliced into tables: s[j][x] = MDS column j times S-box j on x.
func mdsTables(tables, sliced reg.Register) {
	for j := range 4 {
		for g := range 4 {
			y := c.ZMM()
			c.VMOVDQU64(operand.Mem{Base: sliced, Disp: 256*j + 64*g}, y)
			p := products(y)
			var b [4]zmm
			for i := range b {
				b[i] = p[spec.MDS[i][j]]
			}
			for o, w := range words(b) {
				c.VMOVDQU64(w, operand.Mem{Base: tables, Disp: 1024*j + 256*g + 64*o})
			}
		}
	}
}

// fromSliced generates tablesFromSlicedAVX512, the tables of byte-sliced
// S-boxes that scheduleAVX512 or any other schedule computed: how a Cipher
// builds the tables it left out when they are first needed.
func fromSliced() {
	c.Implement("tablesFromSlicedAVX512")
	c.Attributes(attr.NOSPLIT) // no frame
	c.Comment("tablesFromSlicedAVX512 computes the table kernels' S-box tables from the byte-sliced S-boxes; generated by _asm/avx512key.")
	tables := c.Load(c.Param("tables"), c.GP64())
	sliced := c.Load(c.Param("sliced"), c.GP64())
	mdsTables(tables, sliced)
	c.VZEROUPPER()
	c.RET()
}

func schedule() {
	c.Implement("scheduleAVX512")
	// Not NOSPLIT: the frame is more than a NOSPLIT function may take from
	// the stack, so the assembler adds the stack check.
	c.Comment("scheduleAVX512 computes a key's S-boxes and h(nρ) for its subkeys; generated by _asm/avx512key.")
	tables := c.Load(c.Param("tables"), c.GP64())
	sliced := c.Load(c.Param("sliced"), c.GP64())
	h := c.Load(c.Param("h"), c.GP64())
	in := c.Load(c.Param("in"), c.GP64())
	kw := c.Load(c.Param("k"), c.GP64())
	frame := c.AllocLocal(frameSize)

	c.TESTQ(sliced, sliced)
	c.JNZ(operand.LabelRef("haveSliced"))
	c.LEAQ(frame.Offset(frameSboxes), sliced)
	c.Label("haveSliced")

	for t := range q {
		for g := range q[t] {
			q[t][g] = c.ZMM()
			c.VMOVDQU64(qTab[t].Offset(64*g), q[t][g])
		}
	}

	// One body per key length.
	c.CMPQ(kw, operand.U8(3))
	c.JB(operand.LabelRef("k2"))
	c.JE(operand.LabelRef("k3"))
	for _, k := range []int{4, 3, 2} {
		if k != 4 {
			c.Label([]string{2: "k2", 3: "k3"}[k])
		}
		for j := range 4 {
			sv := func(m int) zmm {
				b := c.ZMM()
				c.VPBROADCASTB(operand.Mem{Base: in, Disp: svOffset + 4*m + j}, b)
				return b
			}
			for g, y := range chains(j, k, 4, sv) {
				c.VMOVDQU64(y, operand.Mem{Base: sliced, Disp: 256*j + 64*g})
			}
		}
		for j := range 4 {
			memo := func(m int) zmm {
				b := c.ZMM()
				c.VPBROADCASTW(operand.Mem{Base: in, Disp: memoOffset + 8*m + 2*j}, b)
				return b
			}
			c.VMOVDQU64(chains(j, k, 1, memo)[0], frame.Offset(frameSubkeys+64*j))
		}
		if k != 2 {
			c.JMP(operand.LabelRef("mds"))
		}
	}

	// The tables, if wanted: s[j][x] = MDS column j times S-box j on x.
	c.Label("mds")
	c.TESTQ(tables, tables)
	c.JZ(operand.LabelRef("subkeys"))
	mdsTables(tables, sliced)

	// h of the subkeys: byte i is the XOR over j of spec.MDS[i][j] times chain j.
	c.Label("subkeys")
	var p [4]map[byte]zmm
	for j := range p {
		y := c.ZMM()
		c.VMOVDQU64(frame.Offset(frameSubkeys+64*j), y)
		p[j] = products(y)
	}
	var b [4]zmm
	for i := range b {
		b[i] = c.ZMM()
		c.VMOVDQA64(p[0][spec.MDS[i][0]], b[i])
		c.VPTERNLOGD(operand.U8(0x96), p[1][spec.MDS[i][1]], p[2][spec.MDS[i][2]], b[i])
		c.VPXORD(p[3][spec.MDS[i][3]], b[i], b[i])
	}
	w := words(b)
	for o := range 3 {
		c.VMOVDQU64(w[o], operand.Mem{Base: h, Disp: 64 * o})
	}
	c.VZEROUPPER()
	c.RET()
}
