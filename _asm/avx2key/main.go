// Command avx2key generates internal/kernel/key_avx2_amd64.s, the Twofish
// key schedule of the table kernels on AVX2, with avo. Run it through go
// generate in the package directory:
//
//	go run -C ../../_asm/avx2key . -out ../../internal/kernel/key_avx2_amd64.s -pkg kernel
//
// # Design
//
// Key-dependent S-box j on x is a chain of k+1 fixed permutations (q0 or
// q1) with a key byte XORed in after all but the last (section 4.3.2; k is
// the key's length in 64-bit words, 2 to 4). scheduleAVX2 evaluates the
// chains of 32 inputs at a time, one input per byte lane of a ymm
// register, four registers at a time so that an out-of-order core
// overlaps their dependency chains. AVX2 has no 256-entry byte permute, so
// q0 and q1 are computed from their 4-bit t-boxes (section 4.3.5) with
// VPSHUFB, which looks each lane up in a 16-entry table:
//
//   - A q is two layers of t-box look-ups, each on the nibble pair (a, b)
//     mixed into (a^b, T(a)^R(b)), where R rotates a nibble right by one
//     bit and T(a) = a ^ (a<<3 & 15). A lane carries the pair (x, β) with
//     x = a^b and β = R⁻¹(T(a)^R(b)) = U(a)^b, U = R⁻¹T, so that a layer
//     of t-boxes tA, tB is three look-ups and two XORs: u = (tB∘R)[β],
//     x' = tA[x]^u, β' = (U∘tA)[x]^u. The XOR of a key byte between two
//     q's is linear in the nibbles too, and folds into the second layer as
//     the XOR of K1 = kh^kl into x' and K2 = U(kh)^kl into β' (kh and kl
//     the key byte's nibbles, computed from its broadcast). Where the key
//     byte is the same in every lane (the S-boxes), K1 and K2 are XORed
//     into the entries of the layer's tables of β instead, once for four
//     registers. Every index is a nibble, so no lane's look-up is zeroed
//     by VPSHUFB's bit 7.
//   - The first permutation of a chain is on the inputs x themselves: its
//     (x, β) for each x are constants in memory.
//   - The last permutation's second layer is merged with the MDS column:
//     the product by m of S-box byte y = b<<4 | a is m·a ^ m·(b<<4), two
//     look-ups in the t-box tables composed with the products of a nibble
//     (m = 01, 5B, EF), six look-ups and three XORs for the four bytes of
//     an entry.
//   - VPUNPCKLBW/HBW and VPUNPCKLWD/HWD interleave the four product bytes
//     of 32 entries into little-endian words. They work within 128-bit
//     lanes, so the inputs are placed in the lanes in the order the
//     unpacks leave them in (input 32g + 8r + 4l + i%4 in byte i of lane l
//     of register g, r = i/4): the four words come out as entries 32g..
//     32g+31 in memory order, with no lane-crossing permute.
//   - The subkeys need h(nρ, Me) for even n and h(nρ, Mo) for odd n, n =
//     0..39: the same chains on the inputs n (the first two registers'
//     inputs), with a key byte that alternates between Me's and Mo's from
//     lane to lane, one 16-bit broadcast (VPBROADCASTW); the lane order
//     keeps the parity of the input. The MDS product of the four chains,
//     h, is stored as words; Go combines them into subkeys.
//
// VPSHUFB takes its table in a register: each layer loads its three
// tables once for the four registers of chains, whose state takes eight of
// the 16 ymm registers; the last layer's six are loaded for each look-up.
//
// On Zen 5 (medians of 3 runs, one process each, pinned to a core, of go
// test -run '^$' -bench Expand ./internal/kernel, whose rows alternate)
// the tables and the subkeys take 0.24, 0.31 and 0.45 us for 128, 192
// and 256-bit keys against 1.54, 1.71 and 2.11 us for the Go table pass:
// 6.5x, 5.5x and 4.7x. About 0.08 us of each is Go's, most of
// it the RS product of the key words (rsMultiply).
//
// The chains of each key length are written out, selected by one branch
// on k; the code of an S-box is a loop over its registers of inputs,
// which keeps the function at 30 KiB (it was 48 KiB written out, and no
// faster).
//
// # Constant time
//
// Every address is a constant, or a register plus a constant: a pointer
// from the argument frame, or one that walks the inputs' constants or the
// tables by fixed steps. The t-boxes are tables in registers, the key
// bytes enter by broadcast from fixed offsets and XOR. There is no memory
// operand with an index register and no branch but those on k and the
// loop counters; key_avx2_amd64_test.go checks the generated file for
// both, and tools/ctgrind runs it under valgrind's memcheck on secret keys.
// The generator refuses BP and SP (asmgen.RefuseBP).
package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/twofish-go/twofish/_asm/internal/asmgen"
	"github.com/twofish-go/twofish/_asm/internal/spec"
)

var c = build.NewContext()

func main() {
	asmgen.Main(c, "avx2key", "github.com/twofish-go/twofish/internal/kernel", func() {
		constants()
		schedule(true)
		schedule(false)
	})
}

type ymm = reg.VecVirtual

// The offsets of the key bytes in the argument in (keyBytesAVX512 in
// internal/kernel/key_avx512_amd64.go): byte j of L[m] at svOffset+4m+j,
// bytes j of Me[m] and Mo[m] at memoOffset+8m+2j.
const (
	svOffset   = 0
	memoOffset = 16
)

// group is how many registers of 32 inputs go through their chains
// together: the code of an S-box is a loop of 256/32/group iterations.
const group = 4

// first returns the tables of the first permutation of chain j for a key
// of kw 64-bit words.
func first(j, kw int) *qTables { return &qt[spec.QLevel[kw-1][j]] }

// The nibble maps of the mix between t-box layers.
func rotr(v byte) byte { return (v>>1 | v<<3) & 15 }
func rotl(v byte) byte { return (v<<1 | v>>3) & 15 }
func tmix(a byte) byte { return (a ^ a<<3) & 15 }
func umix(a byte) byte { return rotl(tmix(a)) }

// input returns the input x in byte lane p of register g: byte i of lane
// l holds 32g + 8(i/4) + 4l + i%4, the order in which words leaves the
// words of its four unpacks.
func input(g, p int) byte {
	l, i := p/16, p%16
	return byte(32*g + 8*(i/4) + 4*l + i%4)
}

// qTables are the look-up tables of one permutation, 32 bytes each (the
// 16 entries in both lanes).
type qTables struct {
	// init1 and init2 are x and β of the permutation's output on the
	// inputs, register g at 32g.
	init1, init2 operand.Mem
	// The first layer: tB∘R on β, tA and U∘tA on x.
	t1R, t0, ut0 operand.Mem
	// The second layer: tA on x, tB∘R and U∘tB∘R on β.
	t2, t3R, ut3R operand.Mem
	// lastLo[m] and lastHi[m] give m times the permutation's output: the
	// products of its low nibble t2[x] and of its high nibble
	// t3R[β]<<4.
	lastLo, lastHi map[byte]operand.Mem
}

var (
	qt         [2]qTables
	uTab, mask operand.Mem
)

// data emits a constant whose byte i is f(i), n bytes long.
func data(name string, n int, f func(i int) byte) operand.Mem { return asmgen.Bytes(c, name, n, f) }

// nibbles emits a 32-byte table of f on the nibbles, in both lanes.
func nibbles(name string, f func(v byte) byte) operand.Mem {
	return data(name, 32, func(i int) byte { return f(byte(i & 15)) })
}

func constants() {
	mask = nibbles("nibbleMask", func(byte) byte { return 15 })
	uTab = nibbles("umix", umix)
	for q := range qt {
		t := &spec.QT[q]
		name := func(s string) string { return "q" + string(rune('0'+q)) + s }
		out := func(i int) (a, b byte) {
			y := spec.Q(q, input(i/32, i%32))
			return y & 15, y >> 4
		}
		qt[q] = qTables{
			init1:  data(name("init1"), 256, func(i int) byte { a, b := out(i); return a ^ b }),
			init2:  data(name("init2"), 256, func(i int) byte { a, b := out(i); return umix(b) ^ a }),
			t1R:    nibbles(name("t1R"), func(v byte) byte { return t[1][rotr(v)] }),
			t0:     nibbles(name("t0"), func(v byte) byte { return t[0][v] }),
			ut0:    nibbles(name("ut0"), func(v byte) byte { return umix(t[0][v]) }),
			t2:     nibbles(name("t2"), func(v byte) byte { return t[2][v] }),
			t3R:    nibbles(name("t3R"), func(v byte) byte { return t[3][rotr(v)] }),
			ut3R:   nibbles(name("ut3R"), func(v byte) byte { return umix(t[3][rotr(v)]) }),
			lastLo: map[byte]operand.Mem{}, lastHi: map[byte]operand.Mem{},
		}
		for _, m := range []byte{0x01, 0x5B, 0xEF} {
			hex := string("0123456789ABCDEF"[m>>4]) + string("0123456789ABCDEF"[m&15])
			qt[q].lastLo[m] = nibbles(name("lo"+hex), func(v byte) byte { return spec.GFMul(m, t[2][v]) })
			qt[q].lastHi[m] = nibbles(name("hi"+hex), func(v byte) byte { return spec.GFMul(m, t[3][rotr(v)]<<4) })
		}
	}
}

// look returns the look-up of every lane of idx in the table at tab.
func look(tab operand.Mem, idx ymm) ymm {
	r := c.YMM()
	c.VMOVDQU(tab, r)
	c.VPSHUFB(idx, r, r)
	return r
}

// A chain is the state of one register of 32 chains: x and β of the
// nibble pair about to enter a layer.
type chain struct{ x, b ymm }

// keyNibbles returns K1 and K2 of the key byte in every lane of k.
func keyNibbles(k ymm) (k1, k2 ymm) {
	lo, hi := c.YMM(), c.YMM()
	m := c.YMM()
	c.VMOVDQU(mask, m)
	c.VPAND(m, k, lo)
	c.VPSRLW(operand.U8(4), k, hi)
	c.VPAND(m, hi, hi)
	k1 = c.YMM()
	c.VPXOR(lo, hi, k1)
	k2 = look(uTab, hi)
	c.VPXOR(lo, k2, k2)
	return k1, k2
}

// load returns the table at tab in a register.
func load(tab operand.Mem) ymm {
	r := c.YMM()
	c.VMOVDQU(tab, r)
	return r
}

// layerA runs the first t-box layer of permutation q on each chain.
func layerA(q int, v []chain) {
	t := &qt[q]
	t1R, t0, ut0 := load(t.t1R), load(t.t0), load(t.ut0)
	for i, s := range v {
		u, x, b := c.YMM(), c.YMM(), c.YMM()
		c.VPSHUFB(s.b, t1R, u)
		c.VPSHUFB(s.x, t0, x)
		c.VPXOR(u, x, x)
		c.VPSHUFB(s.x, ut0, b)
		c.VPXOR(u, b, b)
		v[i] = chain{x, b}
	}
}

// layerB runs the second t-box layer of permutation q on each chain and
// XORs in the key byte of K1 and K2. Where the key byte is the same in
// every lane (uniform), it XORs them into the entries of the tables of β
// once for all the chains instead.
func layerB(q int, k1, k2 ymm, uniform bool, v []chain) {
	t := &qt[q]
	t2, t3R, ut3R := load(t.t2), load(t.t3R), load(t.ut3R)
	if uniform {
		c.VPXOR(k1, t3R, t3R)
		c.VPXOR(k2, ut3R, ut3R)
	}
	for i, s := range v {
		u, x, b := c.YMM(), c.YMM(), c.YMM()
		c.VPSHUFB(s.x, t2, u)
		c.VPSHUFB(s.b, t3R, x)
		c.VPXOR(u, x, x)
		c.VPSHUFB(s.b, ut3R, b)
		c.VPXOR(u, b, b)
		if !uniform {
			c.VPXOR(k1, x, x)
			c.VPXOR(k2, b, b)
		}
		v[i] = chain{x, b}
	}
}

// chains runs the chains of byte j of the h function, for a key of kw
// 64-bit words, on registers of 32 inputs, up to the last permutation's
// second layer, which the caller merges with the MDS products. init[i]
// holds x and β of the first permutation's output on the inputs of
// register i (first's init1 and init2 at some offset). key(m) broadcasts
// the key byte of L[m] to a register, uniform, or its Me and Mo bytes to
// the even and the odd lanes.
func chains(j, kw int, init [][2]operand.Mem, key func(m int) ymm, uniform bool) []chain {
	v := make([]chain, len(init))
	k1, k2 := keyNibbles(key(kw - 1))
	for i, in := range init {
		x, b := c.YMM(), c.YMM()
		c.VPXOR(in[0], k1, x)
		c.VPXOR(in[1], k2, b)
		v[i] = chain{x, b}
	}
	for m := kw - 2; m >= 0; m-- {
		q := spec.QLevel[m][j]
		layerA(q, v)
		k1, k2 := keyNibbles(key(m))
		layerB(q, k1, k2, uniform, v)
	}
	layerA(spec.QLast[j], v)
	return v
}

// product returns m times the output of the last permutation q of s.
func product(q int, m byte, s chain) ymm {
	lo := look(qt[q].lastLo[m], s.x)
	hi := look(qt[q].lastHi[m], s.b)
	c.VPXOR(lo, hi, hi)
	return hi
}

// words returns the first n of the four registers of little-endian words
// of the bytes b[0..3] of 32 entries, entries 8r..8r+7 in register r, for
// the inputs in the order of input.
func words(b [4]ymm, n int) []ymm {
	var lo, hi [2]ymm // lo: bytes 0 and 1, hi: bytes 2 and 3; [h] from bytes 8h.. of each lane
	for h := range (n + 1) / 2 {
		lo[h], hi[h] = c.YMM(), c.YMM()
		if h == 0 {
			c.VPUNPCKLBW(b[1], b[0], lo[h])
			c.VPUNPCKLBW(b[3], b[2], hi[h])
		} else {
			c.VPUNPCKHBW(b[1], b[0], lo[h])
			c.VPUNPCKHBW(b[3], b[2], hi[h])
		}
	}
	w := make([]ymm, n)
	for r := range w {
		w[r] = c.YMM()
		if r%2 == 0 {
			c.VPUNPCKLWD(hi[r/2], lo[r/2], w[r])
		} else {
			c.VPUNPCKHWD(hi[r/2], lo[r/2], w[r])
		}
	}
	return w
}

// column returns the four bytes of MDS column j times the output of the
// last permutation of s.
func column(j int, s chain) [4]ymm {
	q := spec.QLast[j]
	p := map[byte]ymm{}
	var b [4]ymm
	for i := range b {
		m := spec.MDS[i][j]
		if p[m] == nil {
			p[m] = product(q, m, s)
		}
		b[i] = p[m]
	}
	return b
}

func schedule(withTables bool) {
	var tables reg.Register
	if withTables {
		c.Implement("scheduleAVX2")
		c.Attributes(attr.NOSPLIT) // no frame
		c.Comment("scheduleAVX2 computes a key's S-box tables and h(nρ) for its subkeys; generated by _asm/avx2key.")
		tables = c.GP64()
		c.Load(c.Param("tables"), tables)
	} else {
		c.Implement("subkeysAVX2")
		c.Attributes(attr.NOSPLIT) // no frame
		c.Comment("subkeysAVX2 computes h(nρ) for a key's subkeys; generated by _asm/avx2key.")
	}
	h := c.Load(c.Param("h"), c.GP64())
	in := c.Load(c.Param("in"), c.GP64())
	kw := c.Load(c.Param("k"), c.GP64())

	// One body per key length.
	c.CMPQ(kw, operand.U8(3))
	c.JB(operand.LabelRef("k2"))
	c.JE(operand.LabelRef("k3"))
	for _, k := range []int{4, 3, 2} {
		if k != 4 {
			c.Label([]string{2: "k2", 3: "k3"}[k])
		}
		if withTables {
			sboxTables(k, tables, in)
		}
		// h of the subkeys: byte i is the XOR over j of spec.MDS[i][j]
		// times chain j, on inputs 0..31 and 32..39.
		for g := range 2 {
			var acc [4]ymm
			for j := range 4 {
				memo := func(m int) ymm {
					b := c.YMM()
					c.VPBROADCASTW(operand.Mem{Base: in, Disp: memoOffset + 8*m + 2*j}, b)
					return b
				}
				f := first(j, k)
				s := chains(j, k, [][2]operand.Mem{{f.init1.Offset(32 * g), f.init2.Offset(32 * g)}}, memo, false)[0]
				for i, p := range column(j, s) {
					if j == 0 {
						acc[i] = c.YMM()
						c.VMOVDQA(p, acc[i])
					} else {
						c.VPXOR(p, acc[i], acc[i])
					}
				}
			}
			for r, w := range words(acc, []int{4, 1}[g]) {
				c.VMOVDQU(w, operand.Mem{Base: h, Disp: 128*g + 32*r})
			}
		}
		c.VZEROUPPER()
		c.RET()
	}
}

// sboxTables emits the table layout of the S-boxes of a key of k 64-bit
// words, from the key bytes at in into the tables at tables: s[j][x] =
// MDS column j times S-box j on x.
func sboxTables(k int, tables, in reg.Register) {
	for j := range 4 {
		sv := func(m int) ymm {
			b := c.YMM()
			c.VPBROADCASTB(operand.Mem{Base: in, Disp: svOffset + 4*m + j}, b)
			return b
		}
		// One iteration per group: p1 and p2 walk the inputs'
		// constants, out the tables' entries.
		p1, p2, out, n := c.GP64(), c.GP64(), c.GP64(), c.GP64()
		c.LEAQ(first(j, k).init1, p1)
		c.LEAQ(first(j, k).init2, p2)
		c.LEAQ(operand.Mem{Base: tables, Disp: 1024 * j}, out)
		c.MOVQ(operand.U32(8/group), n)
		loop := fmt.Sprintf("k%dsbox%d", k, j)
		c.Label(loop)
		init := make([][2]operand.Mem, group)
		for i := range init {
			init[i] = [2]operand.Mem{{Base: p1, Disp: 32 * i}, {Base: p2, Disp: 32 * i}}
		}
		for i, s := range chains(j, k, init, sv, true) {
			for r, w := range words(column(j, s), 4) {
				c.VMOVDQU(w, operand.Mem{Base: out, Disp: 128*i + 32*r})
			}
		}
		c.ADDQ(operand.U32(32*group), p1)
		c.ADDQ(operand.U32(32*group), p2)
		c.ADDQ(operand.U32(128*group), out)
		c.DECQ(n)
		c.JNZ(operand.LabelRef(loop))
	}
}
