package main

// # The single-block kernels
//
// A single block is a chain of rounds, so kernel1 is built for latency,
// not throughput: the block's eight g inputs (the active pair's bytes) stay
// in the low half of one xmm register, where the byte-sliced kernels put
// one byte of 32 blocks in a register. VPSHUFB applies one table to every
// byte of a register, and the eight bytes need different S-boxes; but each
// S-box layer differs from byte to byte only in two ways, so two chains of
// look-ups serve all eight:
//
//   - the permutation, q0 or q1: one chain looks every byte up in q0's
//     tables, the other in q1's, and a VPBLENDVB with a constant mask keeps
//     each byte's own after the two layers of a q;
//   - the key byte that follows the q: the second layer's tables are
//     key-independent tables with a nibble of the key XORed into every
//     entry (secondKey in key_ct.go), so the kernel looks up the
//     key-independent ones and XORs each byte's key nibbles in after the
//     blend, from vectors it builds from the S vector on entry.
//
// The byte k of the second word goes through S-box k+1, which is
// g(ROL(Y, 8)): the masks, the key vectors and the MDS step's shuffles
// follow the bytes where they are, so no rotation is needed. The MDS step
// looks the products by 01, 5B and EF up from the last layer's nibbles, and
// eight VPSHUFBs gather each output byte's four terms. The active pair's
// words sit in dwords 0 and 2, and the gather writes t0 to dwords 0 and 1
// and t1 to dwords 2 and 3: the pseudo-Hadamard transform runs on both
// words at once in three additions, and each word that rotates after the
// XOR is the low dword of a qword holding it twice, where an immediate
// shift of the qword by one rotates it (round1). The updated pair is the
// next round's g input as it stands.
//
// The chain kernels (chainKernel) run the serial modes (kernel.ChainMode)
// over a whole call's blocks with the same rounds, in a loop over the
// blocks that keeps the chain value in a register and builds the key
// vectors and loads the resident tables once a call instead of once a
// block.
//
// Every memory operand is a base register plus a constant, and the only
// branches are the loop counters', as in the other avx2-ct kernels.
//
// A round is about 143 instructions with a 128-bit key and 210 with a
// 256-bit one, with 48 and 72 VPSHUFBs; its dependency chain is 31 and 43
// of them, one cycle each on Zen 1 and most two on Zen 5. Measured on Zen 5
// (go test -run '^$' -bench SingleAVX2CT ./internal/kernel, pinned to a
// core, two runs' medians of 5 and 7), a block takes 371-375 ns with a
// 128-bit key and 522-530 ns with a 256-bit one, against 395-414 and
// 518-547 ns for a call of the 8-block kernel: 1.06-1.10x as fast with a
// 128-bit key, level with a 256-bit one; through Encrypt, which no longer
// pads a block to eight and copies it, 371 and 523 ns (BenchmarkEncrypt,
// 16 bytes). Not measured on Zen 1, where the
// difference should be larger: there every ymm instruction of the 8-block
// kernel takes two micro-ops and this kernel's xmm ones one, and the
// chain's latency halves (the padded path took 907 ns, about 2,900
// cycles). Estimates for Zen 1: the chain alone is 500 cycles a block with
// a 128-bit key, 690 with a 256-bit one; llvm-mca 19 (-mcpu=znver1, the
// loop of two rounds) gives 133 and 193 cycles a loop, 1,060 and 1,540 a
// block, but its model charges an instruction with a memory operand the
// load's 8 cycles from its register operand too, which puts the loads of
// the key vectors and of the gather's controls on the chain, where Zen 1
// loads them as soon as their addresses are known. With each such operand
// loaded by a VMOVDQU of its own, llvm-mca gives 89 and 129 cycles a loop:
// about 710 and 1,030 cycles a block, 225 and 325 ns at the 3.2 GHz of the
// padded path's measurement, against x/crypto's 311 ns there (1.4x and
// 0.96x; estimates). The earlier round, with variable shifts for the doubling of t1 and
// the rotations (three cycles each on Zen 1), had a chain of 35 and 47
// cycles and 159 and 219 cycles a loop in llvm-mca; on Zen 5, where those
// shifts take one cycle, the two run at the same speed (1.00-1.01x).

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/twofish-go/twofish/_asm/internal/serial"
	"github.com/twofish-go/twofish/_asm/internal/spec"
)

// Offsets in the schedule of the S vector (ctSchedule.sv).
const svOffset = ctOffset + 1296

// lane1 is the S-box that the byte in lane l of the g inputs goes
// through: lanes 0-3 (dword 0) hold X, lanes 8-11 (dword 2) the second
// word Y, whose byte k is byte k+1 of ROL(Y, 8); the other lanes hold
// nothing anyone reads.
func lane1(l int) (j int, ok bool) {
	switch {
	case l < 4:
		return l, true
	case l >= 8 && l < 12:
		return (l - 8 + 1) % 4, true
	}
	return 0, false
}

// The constants of the single-block kernels.
var consts1 operand.Mem

const (
	secondFixedOffset = 0   // [2][3][16]byte: t2, t3∘ror4, mix4∘ror4∘t2 of q0, q1
	mixRorOffset      = 96  // x -> mix4(ror4(x))
	jmapOffset        = 112 // lane -> byte of an S-vector word
	qmaskOffset       = 128 // [5][16]byte: lanes of q1 at level m, and at the last q
	gatherOffset      = 208 // [3][2][16]byte: the terms of the products by 01, 5B, EF
	highPairOffset    = 304 // dwords 0, 0, ^0, ^0
	consts1Size       = 320
)

func ror4(v byte) byte { return (v>>1 | v<<3) & 15 }
func mix4(v byte) byte { return (v ^ v<<3) & 15 }

func constants1() {
	consts1 = c.StaticGlobal("avx2ct1Consts")
	c.DataAttributes(attr.RODATA | attr.NOPTR)
	var b [consts1Size]byte
	for q := range 2 {
		for x := range 16 {
			t2 := spec.QT[q][2][x]
			b[secondFixedOffset+48*q+x] = t2
			b[secondFixedOffset+48*q+16+x] = spec.QT[q][3][ror4(byte(x))]
			b[secondFixedOffset+48*q+32+x] = mix4(ror4(t2))
		}
	}
	for x := range 16 {
		b[mixRorOffset+x] = mix4(ror4(byte(x)))
	}
	for l := range 16 {
		j, ok := lane1(l)
		b[jmapOffset+l] = 0x80
		if ok {
			b[jmapOffset+l] = byte(j)
		}
		for m := range 5 {
			q := spec.QLast[j]
			if m < 4 {
				q = spec.QLevel[m][j]
			}
			if ok && q == 1 {
				b[qmaskOffset+16*m+l] = 0x80
			}
		}
	}
	// Output lane o = 8d+4w+i is byte i of g output d, twice (w = 0, 1:
	// t0 in dwords 0 and 1, t1 in dwords 2 and 3, as round1 wants them);
	// its term of S-box j is the product by MDS[i][j] of the byte in lane
	// src(d, j). Each output byte takes one product by 01 and at most two
	// by 5B and by EF: the gather takes them with two VPSHUFBs of each
	// product's vector (one of the 01 products'), the first term of each
	// kind, then the second.
	src := func(d, j int) int {
		if d == 0 {
			return j
		}
		return 8 + (j+3)%4
	}
	for o := range 16 {
		for p := range 3 {
			for k := range 2 {
				b[gatherOffset+32*p+16*k+o] = 0x80
			}
		}
		d, i := o/8, o%4
		var n [3]int
		for j := range 4 {
			p := mdsProduct[i][j]
			b[gatherOffset+32*p+16*n[p]+o] = byte(src(d, j))
			n[p]++
		}
	}
	for i := 8; i < 16; i++ {
		b[highPairOffset+i] = 0xFF
	}
	for i, v := range b {
		c.AddDatum(i, operand.U8(v))
	}
}

// c1 returns the 16-byte constant at offset off of consts1.
func c1(off int) operand.Mem { return consts1.Offset(off) }

// chain1 is one chain of look-ups: the two nibbles (a, β) of the eight
// bytes (see ctSchedule in key_ct.go).
type chain1 struct{ a, b reg.VecVirtual }

// resident holds the tables that stay in registers for the whole call.
var resident = map[operand.Mem]reg.VecVirtual{}

// load1 returns the 16-byte table at m in a register: its resident one,
// or a fresh load.
func load1(m operand.Mem) reg.VecVirtual {
	if t, ok := resident[m]; ok {
		return t
	}
	t := c.XMM()
	c.VMOVDQU(m, t)
	return t
}

// keep loads the tables ms into registers that hold them for the rest of
// the function.
func keep(ms ...operand.Mem) {
	clear(resident)
	for _, m := range ms {
		t := c.XMM()
		c.VMOVDQU(m, t)
		resident[m] = t
	}
}

// layer1 applies a layer whose tables A0, P and Q are at t[0..2]: u =
// P[β], a' = A0[a] ^ u, β' = Q[a] ^ u.
func layer1(ch chain1, t [3]operand.Mem) chain1 {
	u, a, b := c.XMM(), c.XMM(), c.XMM()
	c.VPSHUFB(ch.b, load1(t[1]), u)
	c.VPSHUFB(ch.a, load1(t[0]), a)
	c.VPSHUFB(ch.a, load1(t[2]), b)
	c.VPXOR(u, a, a)
	c.VPXOR(u, b, b)
	return chain1{a, b}
}

// blend1 returns the chain that takes each byte from ch[1] where mask
// has its top bit set, else from ch[0].
func blend1(ch [2]chain1, mask operand.Mem) chain1 {
	m := load1(mask)
	a, b := c.XMM(), c.XMM()
	c.VPBLENDVB(m, ch[1].a, ch[0].a, a)
	c.VPBLENDVB(m, ch[1].b, ch[0].b, b)
	return chain1{a, b}
}

// g1 returns t0 in dwords 0 and 1 and t1 in dwords 2 and 3 for the g
// inputs in dwords 0 and 2 of x: the S-boxes of a kw-word key, whose key nibbles the frame
// holds at keys (cA and cQ of each stage), and the MDS matrix.
func g1(ks reg.Register, kw int, keys operand.Mem, x, mask reg.VecVirtual) reg.VecVirtual {
	lo, hi := c.XMM(), c.XMM()
	c.VPAND(x, mask, lo)
	c.VPSRLW(operand.Imm(4), x, hi)
	c.VPAND(hi, mask, hi)
	// The first mix: a = hi ^ lo, β = mix[hi] ^ lo.
	ch := chain1{c.XMM(), c.XMM()}
	c.VPXOR(hi, lo, ch.a)
	c.VPSHUFB(hi, load1(mixTable(ks)), ch.b)
	c.VPXOR(lo, ch.b, ch.b)
	for s := range kw {
		p := 3 // P after a second layer (mix4) or after the first mix (ror4)
		if s == 0 {
			p = 2
		}
		// The chains' layers alternate, so that the core finds one's
		// look-ups next to the other's XORs.
		var qs [2]chain1
		for q := range qs {
			qs[q] = layer1(ch, [3]operand.Mem{firstTable(ks, q, 0), firstTable(ks, q, p), firstTable(ks, q, 1)})
		}
		for q := range qs {
			f := secondFixedOffset + 48*q
			qs[q] = layer1(qs[q], [3]operand.Mem{c1(f), c1(f + 16), c1(f + 32)})
		}
		ch = blend1(qs, c1(qmaskOffset+16*(kw-1-s)))
		c.VPXOR(keys.Offset(32*s), ch.a, ch.a)
		c.VPXOR(keys.Offset(32*s+16), ch.b, ch.b)
	}
	// The last q's first layer, and the products by 01, 5B and EF of its
	// second, from the MDS tables of an S-box whose last q it is (S-box 1
	// ends in q0, S-box 0 in q1).
	var prod [3]reg.VecVirtual
	var qs [2]chain1
	for q := range qs {
		qs[q] = layer1(ch, [3]operand.Mem{firstTable(ks, q, 0), firstTable(ks, q, 3), firstTable(ks, q, 1)})
	}
	m := load1(c1(qmaskOffset + 16*4))
	for p := range prod {
		var v [2]reg.VecVirtual
		for q := range qs {
			j := 1 - q
			v[q] = c.XMM()
			t := c.XMM()
			c.VPSHUFB(qs[q].a, load1(mdsTable(ks, j, p, 0)), v[q])
			c.VPSHUFB(qs[q].b, load1(mdsTable(ks, j, p, 1)), t)
			c.VPXOR(t, v[q], v[q])
		}
		prod[p] = c.XMM()
		c.VPBLENDVB(m, v[1], v[0], prod[p])
	}
	// Gather each output byte's four terms.
	var terms []reg.VecVirtual
	for p, v := range prod {
		for k := range 2 {
			if p == 0 && k == 1 {
				continue
			}
			t := c.XMM()
			c.VPSHUFB(c1(gatherOffset+32*p+16*k), v, t)
			terms = append(terms, t)
		}
	}
	for len(terms) > 1 {
		var next []reg.VecVirtual
		for i := 0; i+1 < len(terms); i += 2 {
			t := c.XMM()
			c.VPXOR(terms[i+1], terms[i], t)
			next = append(next, t)
		}
		if len(terms)%2 == 1 {
			next = append(next, terms[len(terms)-1])
		}
		terms = next
	}
	return terms[0]
}

// round1 emits one round: the g function of the active pair act, and the
// update of the passive pair pas with the subkeys at k; it returns the
// updated pair, the next round's active one. A pair's words are in dwords
// 0 and 2, whatever dwords 1 and 3 hold.
//
// The rotations by one bit take a word twice in a qword, where a shift of
// the qword by 1 or 31 leaves the word rotated right or left in its low
// dword: immediate shifts, one micro-op of one cycle on Zen 1, where the
// variable ones (VPSLLVD, VPSRLVD) take three cycles and a pipe for two.
func round1(ks reg.Register, kw int, dec bool, keys operand.Mem, act, pas, mask reg.VecVirtual, k operand.Mem) reg.VecVirtual {
	// Encryption: c = ror(c ^ F0, 1), d = rol(d, 1) ^ F1; decryption:
	// c = rol(c, 1) ^ F0, d = ror(d ^ F1, 1). pre is the passive pair with
	// the word that rotates after the XOR in both dwords of its qword and
	// the other rotated left; it waits for nothing.
	pre, rl := c.XMM(), c.XMM()
	c.VPSHUFD(operand.Imm(0xA0), pas, pre) // c c d d
	c.VPSRLQ(operand.Imm(31), pre, rl)     // rol(c, 1) . rol(d, 1) .
	rotated, post := uint64(0b0100), uint64(0b0001)
	if dec {
		rotated, post = 0b0001, 0b0100
	}
	c.VPBLENDD(operand.Imm(rotated), rl, pre, pre)

	tt := g1(ks, kw, keys, act, mask) // t0 t0 t1 t1
	// F0 = t0 + t1 + K0 and F1 = t0 + 2·t1 + K1, each twice:
	// (t0 + K) + (swapped t0, t1 + the t1s alone), three additions deep.
	kv, sw, hi, f := c.XMM(), c.XMM(), c.XMM(), c.XMM()
	c.VMOVQ(k, kv)
	c.VPUNPCKLDQ(kv, kv, kv) // K0 K0 K1 K1
	c.VPSHUFD(operand.Imm(0x4E), tt, sw)
	c.VPAND(c1(highPairOffset), tt, hi)
	c.VPADDD(kv, tt, f)
	c.VPADDD(hi, sw, sw)
	c.VPADDD(sw, f, f)
	c.VPXOR(pre, f, f)
	out := c.XMM()
	c.VPSRLQ(operand.Imm(1), f, out)
	c.VPBLENDD(operand.Imm(post), out, f, out)
	return out
}

// kernel1 emits encryptBlock1AVX2CT<bits> or decryptBlock1AVX2CT<bits>:
// one block from src to dst.
func kernel1(kw int, dec bool) {
	name, dir := fmt.Sprintf("encryptBlock1AVX2CT%d", 64*kw), "encrypts"
	if dec {
		name, dir = fmt.Sprintf("decryptBlock1AVX2CT%d", 64*kw), "decrypts"
	}
	c.Implement(name)
	c.Attributes(attr.NOSPLIT)
	c.Commentf("%s %s one block with a %d-bit key in constant time; generated by _asm/avx2ct.", name, dir, 64*kw)
	k := setup1(kw, dec)
	src := c.Load(c.Param("src"), c.GP64())
	b := c.XMM()
	c.VMOVDQU(operand.Mem{Base: src}, b)
	res := k.block(b)
	dst := c.Load(c.Param("dst"), c.GP64())
	c.VMOVDQU(res, operand.Mem{Base: dst})
	c.VZEROUPPER()
	c.RET()
	clear(resident)
}

// chainKernel emits the chain kernel of mode m (package serial) for a
// kw-word key: the rounds of a block in serial.VectorLoop, the key vectors
// built and the resident tables loaded once a call.
func chainKernel(kw int, m serial.Mode) {
	name := m.Name(fmt.Sprintf("AVX2CT%d", 64*kw))
	c.Implement(name)
	c.Attributes(attr.NOSPLIT)
	c.Commentf("%s runs n blocks of a chained mode with a %d-bit key in constant time; generated by _asm/avx2ct.", name, 64*kw)
	k := setup1(kw, false)
	dst, src := c.Load(c.Param("dst"), c.GP64()), c.Load(c.Param("src"), c.GP64())
	n, sp := c.Load(c.Param("n"), c.GP64()), c.Load(c.Param("s"), c.GP64())
	serial.VectorLoop(c, m, false, "blocks", dst, src, n, sp, k.block)
	c.VZEROUPPER()
	c.RET()
	clear(resident)
}

// kern1 is what a single-block or chain kernel's blocks read: the
// schedule's address, the key size in words and the direction, the key
// nibbles' vectors in the frame, and the nibble mask.
type kern1 struct {
	ks   reg.Register
	kw   int
	dec  bool
	keys operand.Mem
	mask reg.VecVirtual
}

// setup1 emits what every block of a call reads: the key nibbles of each
// stage s, in the lanes of the bytes they follow (cA = lo ^ hi and
// cQ = mix4(ror4(lo)) ^ hi of the key byte of the S vector's word kw-1-s;
// secondKey in key_ct.go), into the frame, and the resident tables into
// registers.
func setup1(kw int, dec bool) *kern1 {
	k := &kern1{kw: kw, dec: dec, keys: c.AllocLocal(32 * kw)}
	k.ks = c.Load(c.Param("ks"), c.GP64())
	k.mask = c.XMM()
	c.VMOVDQU(consts.Offset(maskOffset), k.mask)
	for s := range kw {
		kb, lo, hi := c.XMM(), c.XMM(), c.XMM()
		c.VPBROADCASTD(operand.Mem{Base: k.ks, Disp: svOffset + 4*(kw-1-s)}, kb)
		c.VPSHUFB(c1(jmapOffset), kb, kb)
		c.VPAND(kb, k.mask, lo)
		c.VPSRLW(operand.Imm(4), kb, hi)
		c.VPAND(hi, k.mask, hi)
		ca, cq := c.XMM(), c.XMM()
		c.VPXOR(hi, lo, ca)
		c.VPSHUFB(lo, load1(c1(mixRorOffset)), cq)
		c.VPXOR(hi, cq, cq)
		c.VMOVDQU(ca, k.keys.Offset(32*s))
		c.VMOVDQU(cq, k.keys.Offset(32*s+16))
	}
	keep(residentTables(k.ks)...)
	return k
}

// block returns the encryption (decryption, k.dec) of the block b, with
// the whitening; the rounds are a loop of two rounds a turn.
func (k *kern1) block(b reg.VecVirtual) reg.VecVirtual {
	in, out := subkeysOffset, subkeysOffset+16
	if k.dec {
		in, out = out, in
	}
	// Words 0, 1 are the first active pair, 2, 3 the passive one; each
	// pair goes to dwords 0 and 2.
	ab, cd := c.XMM(), c.XMM()
	c.VPXOR(operand.Mem{Base: k.ks, Disp: in}, b, ab)
	c.VPSHUFD(operand.Imm(0xFA), ab, cd)
	c.VPSHUFD(operand.Imm(0x50), ab, ab)

	kp, cnt := c.GP64(), c.GP64()
	first, second, step := subkeysOffset+4*8, 8, 16
	if k.dec {
		first, second, step = subkeysOffset+4*38, -8, -16
	}
	c.LEAQ(operand.Mem{Base: k.ks, Disp: first}, kp)
	c.MOVQ(operand.I32(8), cnt)
	c.Label("rounds")
	cd2 := round1(k.ks, k.kw, k.dec, k.keys, ab, cd, k.mask, operand.Mem{Base: kp})
	ab2 := round1(k.ks, k.kw, k.dec, k.keys, cd2, ab, k.mask, operand.Mem{Base: kp, Disp: second})
	c.VMOVDQA(cd2, cd)
	c.VMOVDQA(ab2, ab)
	c.ADDQ(operand.I8(int8(step)), kp)
	c.DECQ(cnt)
	c.JNZ(operand.LabelRef("rounds"))

	// The output is the passive pair, then the active one.
	res := c.XMM()
	c.VSHUFPS(operand.Imm(0x88), ab, cd, res)
	c.VPXOR(operand.Mem{Base: k.ks, Disp: out}, res, res)
	return res
}

// residentTables are the tables that the rounds keep in registers: A0
// and Q of the first layers, which every stage reads. (Keeping P as well
// needs more than 16 registers.)
func residentTables(ks reg.Register) []operand.Mem {
	return []operand.Mem{firstTable(ks, 0, 0), firstTable(ks, 0, 1), firstTable(ks, 1, 0), firstTable(ks, 1, 1)}
}
