// Command avx2 generates internal/kernel/avx2_amd64.s, the 16-way AVX2 Twofish kernels,
// with avo. Run it through go generate in the package directory:
//
//	go run -C ../../_asm/avx2 . -out ../../internal/kernel/avx2_amd64.s -pkg kernel
//
// Both kernels load 16 blocks as eight ymm of two blocks and transpose the
// dwords of each 128-bit lane 4x4 (as libgcrypt's AVX2 code does), so that
// a ymm holds one word of eight blocks: blocks 0, 2, 4, 6 of its half in
// the low lane, 1, 3, 5, 7 in the high one. The linear part of a round (the
// pseudo-Hadamard transform, the subkeys, the rotations) then runs on many
// blocks per instruction. They differ in the g function's table look-ups:
//
//   - avx2-vpgather (encryptBlocks16AVX2VPGather): VPGATHERDD, four per g
//     function for eight blocks. The words stay in registers, and the two
//     halves of 8 blocks (two ymm per word) are two independent chains.
//     Fast only where the gather is: Intel after Haswell without the Gather
//     Data Sampling microcode; on this project's Zen 5 it is 1.02-1.07x the
//     3-way kernel and the manual gather 1.4-1.5x (CTR and ECB).
//
//   - avx2-gather (encryptBlocks16AVX2Gather): a manual gather. libgcrypt's
//     (its 2023 manual-gather patch) stores the words to the stack and inserts every table
//     entry into a vector with VMOVD/VPINSRD, 16 inserts per g function and
//     four blocks; measured on Zen 5, it is no faster than libgcrypt's own
//     3-way code, and on Zen 3 slower (libgcrypt's own figures). Here each block's g
//     function is computed in general-purpose registers, as the scalar
//     kernels do it: one dword load brings the word in, MOVBLZX of the low
//     and high bytes (AL, AH) and one shift give the four indices, and one
//     MOVL and three XORLs with memory operands look the tables up; only
//     the result goes into a vector (one VMOVD or VPINSRD per g function
//     and block). One look-up in three reads its index bytes with byte
//     loads instead, which moves work from the ALUs to the load ports (the
//     mix measured fastest on Zen 5, 1/4 and 1/2 slightly slower). The 16
//     blocks are four independent chains of four blocks, one xmm per word,
//     with the words in the Go frame: a chain's half-round ends in a
//     dependency on all its look-ups, and with four chains, emitted one
//     after the other, the out-of-order core runs three chains' look-ups
//     while one chain finishes (two chains of eight blocks, the ymm layout
//     of the vpgather kernel, measured 1.37x the 3-way kernel of the time on
//     Zen 5, four chains 1.65x; that 3-way kernel ran at 0.93x the current).
//
// The kernels take two pointers, to the types of key.go: the Tables, the
// four MDS·S-box tables s[0..3] at offsets 0, 1024, 2048 and 3072, and the
// Schedule, whose first 160 bytes are the 40 subkeys k, which they copy
// into their frame: the manual gather has no register to spare for their
// address. They keep Go's frame-pointer convention: the
// generator refuses BP and SP (the words of the manual gather live in the
// frame that the assembler sets up, addressed from the pseudo-SP; the stack
// is never realigned, so every vector move to or from it is unaligned), and
// it refuses X16-X31, which VEX cannot encode. Both end with VZEROUPPER.
package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/twofish-go/twofish/_asm/internal/asmgen"
)

var c = build.NewContext()

func main() {
	asmgen.Main(c, "avx2", "github.com/twofish-go/twofish/internal/kernel", func() {
		for _, v := range []variant{vpgather, gather} {
			for _, dec := range []bool{false, true} {
				kernel(v, dec)
			}
		}
	}, refuseEVEX)
}

// refuseEVEX panics if any instruction names a vector register above X15,
// which VEX instructions cannot encode (asmgen.RefuseBP has refused BP and
// SP already).
func refuseEVEX(f *ir.File) error {
	for _, fn := range f.Functions() {
		for _, inst := range fn.Instructions() {
			for _, op := range inst.Operands {
				for _, r := range operand.Registers(op) {
					if p := reg.ToPhysical(r); p.Kind() == reg.KindVector && p.PhysicalIndex() >= 16 {
						panic(fmt.Sprintf("%s: %s uses %s, which needs EVEX", fn.Name, inst.Opcode, p.Asm()))
					}
				}
			}
		}
	}
	return nil
}

// variant is how a kernel does its table look-ups.
type variant int

const (
	vpgather variant = iota // VPGATHERDD
	gather                  // scalar loads, one insert per g function and block
)

// table returns the memory operand s[j][i] of the tables at t for the
// index register i (a general-purpose register, or a vector of indices for
// VPGATHERDD).
func table(t reg.Register, j int, i reg.Register) operand.Mem {
	return operand.Mem{Base: t, Index: i, Scale: 4, Disp: 1024 * j}
}

// subkey returns the memory operand k[n] of the kernel's copy of the
// subkeys, plus the byte offset in ro if ro is not nil.
func (k *kern) subkey(n int, ro reg.Register) operand.Mem {
	m := k.k.Offset(4 * n)
	if ro != nil {
		m.Index, m.Scale = ro, 1
	}
	return m
}

// kern is the state of the kernel being emitted.
type kern struct {
	v   variant
	t   reg.GPVirtual // the tables' address
	k   operand.Mem   // the frame's copy of the subkeys
	dec bool
	// byteMask (vpgather) is 0x000000ff in every dword.
	byteMask reg.VecVirtual
	// words (gather) is the frame area of the 16 blocks' words: 32 bytes
	// per word of a half, see word.
	words operand.Mem
	// lookups (gather) counts the look-ups emitted, to choose how each
	// reads its index bytes.
	lookups int
}

// kernel emits the 16-way kernel of variant v: n groups of 16 blocks from
// src to dst.
func kernel(v variant, dec bool) {
	suffix := map[variant]string{vpgather: "AVX2VPGather", gather: "AVX2Gather"}[v]
	name := "encryptBlocks16" + suffix
	// Whitening subkeys of the input and of the output.
	in, out := 0, 4
	dir := "encrypts"
	if dec {
		name = "decryptBlocks16" + suffix
		in, out = 4, 0
		dir = "decrypts"
	}
	c.Implement(name)
	c.Attributes(attr.NOSPLIT)
	c.Commentf("%s %s n groups of 16 blocks; generated by _asm/avx2.", name, dir)

	k := &kern{v: v, t: c.GP64(), dec: dec}
	c.Load(c.Param("t"), k.t)

	// The manual gather needs every general-purpose register it can get
	// in the rounds, so the pointers and the count wait in the frame, with
	// the words and the subkeys.
	var src, dst, n operand.Op
	if v == gather {
		locals := c.AllocLocal(24 + 256 + 160)
		src, dst, n = locals, locals.Offset(8), locals.Offset(16)
		k.words, k.k = locals.Offset(24), locals.Offset(24+256)
		t := c.GP64()
		c.Load(c.Param("n"), t)
		c.TESTQ(t, t)
		c.JZ(operand.LabelRef("done"))
		c.MOVQ(t, n)
		c.Load(c.Param("src"), t)
		c.MOVQ(t, src)
		c.Load(c.Param("dst"), t)
		c.MOVQ(t, dst)
	} else {
		k.k = c.AllocLocal(160)
		src, dst, n = c.Load(c.Param("src"), c.GP64()), c.Load(c.Param("dst"), c.GP64()), c.Load(c.Param("n"), c.GP64())
		c.TESTQ(n, n)
		c.JZ(operand.LabelRef("done"))
		k.byteMask = c.YMM()
		c.VPCMPEQD(k.byteMask, k.byteMask, k.byteMask)
		c.VPSRLD(operand.Imm(24), k.byteMask, k.byteMask)
	}
	ptr := func(p operand.Op) reg.Register {
		if r, ok := p.(reg.Register); ok {
			return r
		}
		r := c.GP64()
		c.MOVQ(p, r)
		return r
	}

	kp, kv := c.Load(c.Param("ks"), c.GP64()), c.YMM()
	for i := 0; i < 160; i += 32 {
		c.VMOVDQU(operand.Mem{Base: kp, Disp: i}, kv)
		c.VMOVDQU(kv, k.k.Offset(i))
	}

	c.Label("loop")
	// Load, transpose and whiten: x[h][i] is word i of the eight blocks of
	// half h (blocks 8h to 8h+7).
	var x [2][4]reg.VecVirtual
	p := ptr(src)
	for h := range 2 {
		var r [4]reg.VecVirtual
		for i := range r {
			r[i] = c.YMM()
			c.VMOVDQU(operand.Mem{Base: p, Disp: 128*h + 32*i}, r[i])
		}
		x[h] = transpose(r)
		for i := range 4 {
			w := c.YMM()
			c.VPBROADCASTD(k.subkey(in+i, nil), w)
			c.VPXOR(w, x[h][i], x[h][i])
			if v == gather {
				c.VMOVDQU(x[h][i], k.word(h, i))
			}
		}
	}

	// Eight turns of a loop over two half-rounds; ro is the byte offset of
	// this turn's subkeys from those of the first. Words 0 and 1 are
	// active in the first half-round of a turn, words 2 and 3 in the
	// second.
	ro := c.GP64()
	c.XORQ(ro, ro)
	k0, step := 8, 16
	if dec {
		k0, step = 38, -16
	}
	c.Label("rounds")
	for s := range 2 {
		kk := k0 + s*step/8
		if v == vpgather {
			for h := range 2 {
				w := x[h]
				if s == 1 {
					w = [4]reg.VecVirtual{w[2], w[3], w[0], w[1]}
				}
				k.halfRoundVPGather(w, kk, ro)
			}
			continue
		}
		k0v, k1v := c.XMM(), c.XMM()
		c.VPBROADCASTD(k.subkey(kk, ro), k0v)
		c.VPBROADCASTD(k.subkey(kk+1, ro), k1v)
		// Chain q is blocks 8(q/2) + 2i + q%2, i = 0..3: a 128-bit lane of
		// the ymm layout.
		for q := range 4 {
			var w [4]operand.Mem
			for i := range w {
				w[i] = k.word(q/2, (i+2*s)%4).Offset(16 * (q % 2))
			}
			k.halfRoundGather(w, k0v, k1v)
		}
	}
	c.ADDQ(operand.I8(int8(step)), ro)
	c.CMPQ(ro, operand.I32(int32(8*step)))
	c.JNE(operand.LabelRef("rounds"))

	// Whiten, transpose back and store: the output is words 2, 3, 0, 1.
	p = ptr(dst)
	for h := range 2 {
		if v == gather {
			for i := range 4 {
				c.VMOVDQU(k.word(h, i), x[h][i])
			}
		}
		w := [4]reg.VecVirtual{x[h][2], x[h][3], x[h][0], x[h][1]}
		for i := range 4 {
			t := c.YMM()
			c.VPBROADCASTD(k.subkey(out+i, nil), t)
			c.VPXOR(t, w[i], w[i])
		}
		r := transpose(w)
		for i := range r {
			c.VMOVDQU(r[i], operand.Mem{Base: p, Disp: 128*h + 32*i})
		}
	}

	for _, q := range []operand.Op{src, dst} {
		p := ptr(q)
		c.ADDQ(operand.U32(256), p)
		if _, ok := q.(reg.Register); !ok {
			c.MOVQ(p, q)
		}
	}
	c.DECQ(n)
	c.JNZ(operand.LabelRef("loop"))

	c.Label("done")
	c.VZEROUPPER()
	c.RET()
}

// transpose returns the 4x4 transpose of the dwords of each 128-bit lane of
// r: dword j of lane l of r[i] becomes dword i of lane l of the result's
// register j. It is its own inverse.
func transpose(r [4]reg.VecVirtual) [4]reg.VecVirtual {
	t0, t1, t2, t3 := c.YMM(), c.YMM(), c.YMM(), c.YMM()
	c.VPUNPCKLDQ(r[1], r[0], t0) // r0.0 r1.0 r0.1 r1.1
	c.VPUNPCKHDQ(r[1], r[0], t1) // r0.2 r1.2 r0.3 r1.3
	c.VPUNPCKLDQ(r[3], r[2], t2) // r2.0 r3.0 r2.1 r3.1
	c.VPUNPCKHDQ(r[3], r[2], t3) // r2.2 r3.2 r2.3 r3.3
	var w [4]reg.VecVirtual
	for i := range w {
		w[i] = c.YMM()
	}
	c.VPUNPCKLQDQ(t2, t0, w[0]) // r0.0 r1.0 r2.0 r3.0
	c.VPUNPCKHQDQ(t2, t0, w[1])
	c.VPUNPCKLQDQ(t3, t1, w[2])
	c.VPUNPCKHQDQ(t3, t1, w[3])
	return w
}

// The round. The g function of the active words w0 and rol(w1, 8) gives t0
// and t1; with the subkeys K0 = k[k0], K1 = k[k0+1] the passive words w2
// and w3 become
//
//	encryption: w2 = ror(w2 ^ (t0+t1+K0), 1), w3 = rol(w3, 1) ^ (t0+2*t1+K1)
//	decryption: w2 = rol(w2, 1) ^ (t0+t1+K0), w3 = ror(w3 ^ (t0+2*t1+K1), 1)
//
// and are the next half-round's active words.

// halfRoundVPGather emits a half-round for eight blocks whose words are in
// the ymm registers w.
func (k *kern) halfRoundVPGather(w [4]reg.VecVirtual, k0 int, ro reg.GPVirtual) {
	t0 := k.gVPGather(w[0], 0)
	t1 := k.gVPGather(w[1], 1)
	c.VPADDD(t1, t0, t0) // t0+t1
	c.VPADDD(t0, t1, t1) // t0+2*t1
	k0v, k1v := c.YMM(), c.YMM()
	c.VPBROADCASTD(k.subkey(k0, ro), k0v)
	c.VPBROADCASTD(k.subkey(k0+1, ro), k1v)
	c.VPADDD(k0v, t0, t0)
	c.VPADDD(k1v, t1, t1)
	if !k.dec {
		c.VPXOR(t0, w[2], w[2])
		ror1(w[2])
		rol1(w[3])
		c.VPXOR(t1, w[3], w[3])
	} else {
		rol1(w[2])
		c.VPXOR(t0, w[2], w[2])
		c.VPXOR(t1, w[3], w[3])
		ror1(w[3])
	}
}

// gVPGather returns g(rol(x, 8*rot)) for the eight words of x: byte j of x
// goes through table j+rot.
func (k *kern) gVPGather(x reg.VecVirtual, rot int) reg.VecVirtual {
	var t reg.VecVirtual
	for j := range 4 {
		idx := c.YMM()
		switch j {
		case 0:
			c.VPAND(x, k.byteMask, idx)
		case 3:
			c.VPSRLD(operand.Imm(24), x, idx)
		default:
			c.VPSRLD(operand.Imm(uint64(8*j)), x, idx)
			c.VPAND(k.byteMask, idx, idx)
		}
		// VPGATHERDD clears its mask as it goes and merges into its
		// destination: both are set afresh, which also breaks the
		// dependency on their old values.
		mask, d := c.YMM(), c.YMM()
		c.VPCMPEQD(mask, mask, mask)
		c.VPXOR(d, d, d)
		c.VPGATHERDD(mask, table(k.t, (j+rot)%4, idx), d)
		if j == 0 {
			t = d
		} else {
			c.VPXOR(d, t, t)
		}
	}
	return t
}

// word returns the frame slot of word i of half h in the manual gather: 32
// bytes, the dwords of the ymm layout (chain 2h in the low 16 bytes, chain
// 2h+1 in the high).
func (k *kern) word(h, i int) operand.Mem { return k.words.Offset(32 * (4*h + i)) }

// halfRoundGather emits a half-round for the four blocks of one chain,
// whose words are in the frame at w[0..3], 16 bytes each, a dword per
// block. The updated passive words go back to the frame, where the next
// half-round's look-ups read them.
func (k *kern) halfRoundGather(w [4]operand.Mem, k0v, k1v reg.VecVirtual) {
	t := [2]reg.VecVirtual{c.XMM(), c.XMM()}
	for b := range 4 {
		for wi := range 2 {
			r := k.lookup(w[wi].Offset(4*b), wi)
			if b == 0 {
				c.VMOVD(r, t[wi])
			} else {
				c.VPINSRD(operand.Imm(uint64(b)), r, t[wi], t[wi])
			}
		}
	}
	t0, t1 := t[0], t[1]
	c.VPADDD(t1, t0, t0) // t0+t1
	c.VPADDD(t0, t1, t1) // t0+2*t1
	c.VPADDD(k0v, t0, t0)
	c.VPADDD(k1v, t1, t1)
	p := c.XMM()
	if !k.dec {
		c.VPXOR(w[2], t0, t0)
		ror1(t0)
		c.VMOVDQU(t0, w[2])
		c.VMOVDQU(w[3], p)
		rol1(p)
		c.VPXOR(t1, p, p)
		c.VMOVDQU(p, w[3])
	} else {
		c.VMOVDQU(w[2], p)
		rol1(p)
		c.VPXOR(t0, p, p)
		c.VMOVDQU(p, w[2])
		c.VPXOR(w[3], t1, t1)
		ror1(t1)
		c.VMOVDQU(t1, w[3])
	}
}

// lookup returns a register holding g(rol(w, 8*rot)) for the word w in the
// memory at m: byte j of w goes through table j+rot.
//
// Two look-ups in three load w into one of AX, BX, CX and DX (in turn, so
// that consecutive look-ups overlap) and take the indices from AL and AH,
// then from AL and AH again after a shift by 16: five ALU instructions and
// one load. The third reads the four index bytes with byte loads, which
// costs four loads and no ALU instruction. The high-byte indices go to SI
// and DI, which need no REX prefix (an instruction that names AH cannot
// have one).
func (k *kern) lookup(m operand.Mem, rot int) reg.GPVirtual {
	n := k.lookups
	k.lookups++
	t := c.GP32()
	look := func(j int, i reg.Register) {
		tab := table(k.t, (j+rot)%4, i)
		if j == 0 {
			c.MOVL(tab, t)
		} else {
			c.XORL(tab, t)
		}
	}
	if n%3 == 2 {
		for j := range 4 {
			i := c.GP32()
			c.MOVBLZX(m.Offset(j), i)
			look(j, i.As64())
		}
		return t
	}
	w := []reg.GPPhysical{reg.EAX, reg.EBX, reg.ECX, reg.EDX}[n%4]
	c.MOVL(m, w)
	i0, i2 := c.GP32(), c.GP32()
	c.MOVBLZX(w.As8L(), i0)
	look(0, i0.As64())
	c.MOVBLZX(w.As8H(), reg.ESI)
	look(1, reg.RSI)
	c.SHRL(operand.Imm(16), w)
	c.MOVBLZX(w.As8L(), i2)
	look(2, i2.As64())
	c.MOVBLZX(w.As8H(), reg.EDI)
	look(3, reg.RDI)
	return t
}

// ror1 rotates each dword of x right by one bit, in place.
func ror1(x reg.VecVirtual) {
	t := newLike(x)
	c.VPSRLD(operand.Imm(1), x, t)
	c.VPSLLD(operand.Imm(31), x, x)
	c.VPOR(t, x, x)
}

// rol1 rotates each dword of x left by one bit, in place.
func rol1(x reg.VecVirtual) {
	t := newLike(x)
	c.VPSRLD(operand.Imm(31), x, t)
	c.VPADDD(x, x, x)
	c.VPOR(t, x, x)
}

// newLike returns a new virtual register of the width of x.
func newLike(x reg.VecVirtual) reg.VecVirtual {
	if x.Size() == 16 {
		return c.XMM()
	}
	return c.YMM()
}
