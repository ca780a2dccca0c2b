// Command avx512single generates internal/kernel/single_avx512_amd64.s, the
// avx512-vbmi kernels of single blocks, with avo. Run it through go generate
// in the package directory:
//
//	go run -C ../../_asm/avx512single . -out ../../internal/kernel/single_avx512_amd64.s -pkg kernel
//
// # Design
//
// A single block is a chain: each round waits for the one before, so these
// kernels are built for the shortest dependency chain per round, not for
// throughput. They read the schedule of the other avx512-vbmi kernels
// (expandSliced: S-box j as 256 bytes at 256j, the subkeys at 4096).
//
// The block lives in the four 32-bit words of one xmm register, in the
// word layout of the 4-block kernels (_asm/avx512/small.go), whose
// half-round this one follows with three changes for latency:
//
//   - The four S-boxes stay in 16 zmm registers for the whole call
//     (loaded once, before the first round), and each look-up is a
//     VPERMI2B on a copy of the index, which leaves the tables in place:
//     the 4-block kernels reload a quarter of each S-box from memory for
//     every look-up. A VPMOVB2M of the index, beside the permutes, picks
//     the upper 128 entries with a masked blend.
//   - The MDS products by nibbles use xmm VPERMB (2 cycles on Zen 5)
//     rather than zmm VPERMB (5 cycles).
//   - The MDS matrix is evaluated twice, once for t0 and once for t1, each
//     straight into the passive pair's words, so that no VPSHUFD stands
//     between the MDS matrix and the PHT.
//
// All sixteen rounds are unrolled, their subkeys memory operands at fixed
// offsets.
//
// Latencies measured on Zen 5 (chains of one instruction, in cycles):
// VPADDD, VPXORD, VPTERNLOGD, VPROLVD, VPSHUFB, VPBLENDMB and xmm VPERMB 2;
// VPERMI2B 3 (xmm), 4 (ymm), 5 (zmm); zmm VPERMB 5; VPMOVB2M 6;
// VGF2P8AFFINEQB 3. A round's chain is about 29 cycles: VPERMI2B 5, the
// blend 2, the select of each byte's S-box 4, the MDS matrix 10 (VPSHUFB,
// VPXORD, VPSRLW, VPERMB, VPTERNLOGD), the PHT 4, the XOR into the passive
// pair 2 and the rotation into the next index 2. GFNI would take 3 cycles
// off the MDS matrix, but is not used: Bochs 2.7, which tests the
// avx512-vbmi kernels, computes VGF2P8AFFINEQB wrongly.
//
// # Constant time
//
// No memory operand has an index register and there is no branch: the
// S-boxes are whole registers, the constants whole lines at fixed
// addresses. single_avx512_amd64_test.go checks the generated file.
package main

import (
	"encoding/binary"
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/twofish-go/twofish/_asm/internal/asmgen"
)

var c = build.NewContext()

func main() {
	asmgen.Main(c, "avx512single", "github.com/twofish-go/twofish/internal/kernel", func() {
		constants()
		kernel1(false)
		kernel1(true)
	})
}

// Offsets into the schedule (key.go, key_avx512.go).
const (
	sboxOffset    = 0
	subkeysOffset = 4096
)

// The MDS matrix (tables.go), over GF(2^8) modulo x^8+x^6+x^5+x^3+1.
var mds = [4][4]byte{
	{0x01, 0xEF, 0x5B, 0x5B},
	{0x5B, 0xEF, 0xEF, 0x01},
	{0xEF, 0x5B, 0x01, 0xEF},
	{0xEF, 0x01, 0xEF, 0x5B},
}

func gfMul(a, b byte) byte {
	var p byte
	for ; b != 0; b >>= 1 {
		if b&1 != 0 {
			p ^= a
		}
		hi := a&0x80 != 0
		a <<= 1
		if hi {
			a ^= 0x69 // x^8 = x^6+x^5+x^3+1
		}
	}
	return p
}

type zmm = reg.VecVirtual

// table emits a 64-byte constant whose byte i is f(i).
func table(name string, f func(i int) byte) operand.Mem {
	var b [64]byte
	for i := range b {
		b[i] = f(i)
	}
	m := c.StaticGlobal(name)
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	for i := 0; i < len(b); i += 8 {
		c.AppendDatum(operand.U64(binary.LittleEndian.Uint64(b[i:])))
	}
	return m
}

// Constants in memory.
var (
	// mulLo[m] and mulHi[m] are the xmm VPERMB tables of the products by m
	// of the low and the high nibble: entry i is m·i and m·(i<<4).
	mulLo, mulHi = map[byte]operand.Mem{}, map[byte]operand.Mem{}
	// posMask[m] has 0xFF at the byte positions p with bit p&3 of m set.
	posMask = map[int]operand.Mem{}
	// rotCount[16*w+n] are VPROLVD/VPRORVD counts: n at word w, 0
	// elsewhere.
	rotCount = map[int]operand.Mem{}
	// nextIdx[2*p+dec] are the VPROLVD counts that take a round's passive
	// pair, updated but for its last rotation right, to the next round's
	// g function input, whose active pair is at words p, p+1.
	nextIdx = map[int]operand.Mem{}
	// mdsShuffles are the VPSHUFB controls of mdsShuffle.
	mdsShuffles = map[string]operand.Mem{}
)

func constants() {
	for _, m := range []byte{0x5B, 0xEF} {
		mulLo[m] = table(fmt.Sprintf("single%02XLo", m), func(i int) byte { return gfMul(m, byte(i&15)) })
		mulHi[m] = table(fmt.Sprintf("single%02XHi", m), func(i int) byte { return gfMul(m, byte(i&15)<<4) })
	}
	for _, m := range []int{0b1010, 0b1100} {
		posMask[m] = table(fmt.Sprintf("singlePos%04b", m), func(i int) byte {
			if m>>(i&3)&1 != 0 {
				return 0xFF
			}
			return 0
		})
	}
	for _, p := range []int{0, 2} {
		for dec := range 2 {
			// Encryption rotates word p right by 1 (left by 31), then
			// word p+1 left by 8 for the g function; decryption rotates
			// word p+1 right by 1 and then left by 8.
			var n [4]int
			n[p], n[p+1] = 31, 8
			if dec == 1 {
				n[p], n[p+1] = 0, 7
			}
			nextIdx[2*p+dec] = table(fmt.Sprintf("singleNext%d%s", p, []string{"Enc", "Dec"}[dec]), func(i int) byte {
				if i&3 == 0 {
					return byte(n[i&15/4])
				}
				return 0
			})
		}
	}
	for _, wn := range [][2]int{{0, 1}, {1, 1}, {2, 1}, {3, 1}, {1, 8}} {
		w, n := wn[0], wn[1]
		rotCount[16*w+n] = table(fmt.Sprintf("singleRot%dWord%d", n, w), func(i int) byte {
			if i&15 == 4*w {
				return byte(n)
			}
			return 0
		})
	}
	for _, p := range []int{0, 2} {
		for _, from := range mdsSources(p) {
			for _, m := range []byte{0x01, 0x5B, 0xEF} {
				for occ := range 2 {
					mdsShuffle(from, m, occ)
				}
			}
		}
	}
}

// mdsSources returns, for the active pair at words p, p+1, the words whose
// g function output each MDS evaluation puts at each word: t0 (of word p)
// and t1 (of word p+1) at the passive pair's words q, q+1; the active
// pair's words take the same, and are masked off later.
func mdsSources(p int) [2][4]int {
	var t0, t1 [4]int
	for w := range 4 {
		t0[w], t1[w] = p, p+1
	}
	return [2][4]int{t0, t1}
}

// kern1 is the state of one single-block kernel's generation.
type kern1 struct {
	ks  reg.GPVirtual
	dec bool
	// tab[j][h] is the h-th 64 bytes of S-box j: a register for h = 0
	// and 2, the first table operand of VPERMI2B; a memory operand for 1
	// and 3, which leaves registers to the two MDS evaluations.
	tab [4][4]operand.Op
	// pas[p] masks the passive pair's words when the active pair is at
	// words p, p+1; hi[p] its second word.
	pas, hi [4]reg.OpmaskVirtual
}

func kernel1(dec bool) {
	name := "encryptBlockAVX512Single"
	if dec {
		name = "decryptBlockAVX512Single"
	}
	c.Implement(name)
	c.Attributes(attr.NOSPLIT)
	c.Commentf("%s processes one block; generated by _asm/avx512single.", name)
	k := &kern1{dec: dec}
	k.ks = c.GP64()
	c.Load(c.Param("ks"), k.ks)
	src, dst := c.Load(c.Param("src"), c.GP64()), c.Load(c.Param("dst"), c.GP64())

	inW, outW := 0, 4
	if dec {
		inW, outW = 4, 0
	}
	s := c.XMM()
	c.VMOVDQU(operand.Mem{Base: src}, s)
	c.VPXORD(operand.Mem{Base: k.ks, Disp: subkeysOffset + 4*inW}, s, s)
	// The first g function's input: x at word 0, rol(y, 8) at word 1.
	idx := c.XMM()
	c.VPROLVD(rotCount[16*1+8], s, idx)

	for j := range 4 {
		for h := range 4 {
			m := operand.Mem{Base: k.ks, Disp: sboxOffset + 256*j + 64*h}
			k.tab[j][h] = m
			if h%2 == 0 {
				r := c.ZMM()
				c.VMOVDQU64(m, r)
				k.tab[j][h] = r
			}
		}
	}
	t := c.GP64()
	for _, p := range []int{0, 2} {
		q := 2 - p
		k.pas[p], k.hi[p] = c.K(), c.K()
		c.MOVQ(operand.U32(0x1111*(3<<q)), t)
		c.KMOVW(t.As32(), k.pas[p])
		c.MOVQ(operand.U32(0x1111*(2<<q)), t)
		c.KMOVW(t.As32(), k.hi[p])
	}

	for r := range 16 {
		p := 2 * (r % 2)
		kw := 8 + 2*r
		if dec {
			kw = 38 - 2*r
		}
		s, idx = k.round(s, idx, p, kw)
	}

	// Output: the last passive pair first, then the active pair.
	c.VPSHUFD(operand.U8(0x4E), s, s)
	c.VPXORD(operand.Mem{Base: k.ks, Disp: subkeysOffset + 4*outW}, s, s)
	c.VMOVDQU(s, operand.Mem{Base: dst})
	c.VZEROUPPER()
	c.RET()
}

// round returns the state s after one Feistel round with the active pair
// at words p, p+1 and the subkeys k[kw], k[kw+1], and the next round's g
// function input. idx is this one's: x at word p, rol(y, 8) at word p+1.
func (k *kern1) round(s, idx reg.VecVirtual, p, kw int) (reg.VecVirtual, reg.VecVirtual) {
	q := 2 - p

	// S-box j at byte positions ≡ j mod 4: each S-box looks up every
	// byte, in its lower and upper half, and bit 7 of the index picks.
	upper := c.K()
	c.VPMOVB2M(idx, upper)
	var looked [4]zmm
	for j := range 4 {
		var half [2]zmm
		for h := range 2 {
			half[h] = c.ZMM()
			c.VMOVDQA64(idx.AsZ(), half[h])
			c.VPERMI2B(k.tab[j][2*h+1], k.tab[j][2*h], half[h])
		}
		// The blend writes over the lower half's copy: avo takes a
		// masked instruction's destination for an input too.
		c.VPBLENDMB(half[1].AsX(), half[0].AsX(), upper, half[0].AsX())
		looked[j] = half[0]
	}
	y := posSelect(looked)

	// t0 and t1 at the passive pair's words; the subkeys take in the
	// second t1 while t0+t1 is summed.
	from := mdsSources(p)
	t0s, t1s := mdsTo(y, from[0]), mdsTo(y, from[1])
	kv := c.XMM()
	c.VPBROADCASTQ(operand.Mem{Base: k.ks, Disp: subkeysOffset + 4*kw}, kv)
	c.VPADDD(t1s, kv, k.hi[p], kv)
	f := c.XMM()
	c.VPADDD(t1s, t0s, f)
	c.VPADDD(kv, f, f)

	// The passive pair: encryption p0 = ror(p0 ^ f0, 1), p1 = rol(p1, 1) ^
	// f1; decryption p0 = rol(p0, 1) ^ f0, p1 = ror(p1 ^ f1, 1).
	rolWord, rorWord := q+1, q
	if k.dec {
		rolWord, rorWord = q, q+1
	}
	u := c.XMM()
	c.VPROLVD(rotCount[16*rolWord+1], s, u)
	c.VPXORD(f, u, k.pas[p], u)
	out, next := c.XMM(), c.XMM()
	c.VPRORVD(rotCount[16*rorWord+1], u, out)
	dec := 0
	if k.dec {
		dec = 1
	}
	c.VPROLVD(nextIdx[2*q+dec], u, next)
	return out, next
}

// posSelect returns the vector whose byte at each position p takes src[p&3]
// (in the low 128 bits).
func posSelect(src [4]zmm) reg.VecVirtual {
	sel := func(m operand.Mem, a, b reg.Register) reg.VecVirtual {
		t := c.XMM()
		c.VMOVDQU64(m, t)
		c.VPTERNLOGD(operand.U8(0xAC), a, b, t) // t ? a : b
		return t
	}
	lo := sel(posMask[0b1010], src[1].AsX(), src[0].AsX())
	hi := sel(posMask[0b1010], src[3].AsX(), src[2].AsX())
	return sel(posMask[0b1100], hi, lo)
}

// mdsTo returns, at each word w, the MDS matrix times the S-box outputs y of
// word from[w]: the bytes each multiplier takes are shuffled into their
// output places first (VPSHUFB), and multiplied there (see mdsTo in
// _asm/avx512/small.go), with 16-entry xmm VPERMB tables.
func mdsTo(y reg.VecVirtual, from [4]int) reg.VecVirtual {
	u := map[byte]reg.VecVirtual{}
	for _, m := range []byte{0x01, 0x5B, 0xEF} {
		var parts []reg.VecVirtual
		for occ := range 2 {
			ctrl, ok := mdsShuffle(from, m, occ)
			if !ok {
				continue
			}
			t := c.XMM()
			c.VPSHUFB(ctrl, y, t)
			parts = append(parts, t)
		}
		u[m] = parts[0]
		if len(parts) == 2 {
			c.VPXORD(parts[1], parts[0], parts[0])
		}
	}
	var lo, hi [2]reg.VecVirtual
	for i, m := range []byte{0x5B, 0xEF} {
		h := c.XMM()
		c.VPSRLW(operand.U8(4), u[m], h)
		lo[i], hi[i] = c.XMM(), c.XMM()
		c.VPERMB(mulLo[m], u[m], lo[i])
		c.VPERMB(mulHi[m], h, hi[i])
	}
	c.VPTERNLOGD(operand.U8(0x96), lo[1], lo[0], u[1])
	c.VPTERNLOGD(operand.U8(0x96), hi[1], hi[0], u[1])
	return u[1]
}

// mdsShuffle returns the VPSHUFB control that puts, at byte i of each word
// w, byte j of word from[w], for the occ-th j (from 0) with MDS[i][j] = m,
// and zero where row i has no occ-th; false if no row has.
func mdsShuffle(from [4]int, m byte, occ int) (operand.Mem, bool) {
	var ctrl [16]byte
	any := false
	for b := range ctrl {
		ctrl[b] = 0x80
		w, i := b/4, b%4
		n := 0
		for j := range 4 {
			if mds[i][j] != m {
				continue
			}
			if n == occ {
				ctrl[b] = byte(4*from[w] + j)
				any = true
			}
			n++
		}
	}
	if !any {
		return operand.Mem{}, false
	}
	key := fmt.Sprintf("singleMDS%02X_%d_from%d%d%d%d", m, occ, from[0], from[1], from[2], from[3])
	if t, ok := mdsShuffles[key]; ok {
		return t, true
	}
	t := table(key, func(i int) byte { return ctrl[i%16] })
	mdsShuffles[key] = t
	return t, true
}
