// Command avx512single generates internal/kernel/single_avx512_amd64.s, the
// avx512-gfni kernels of single blocks and of up to four, with avo. Run it
// through go generate in the package directory:
//
//	go run -C ../../_asm/avx512single . -out ../../internal/kernel/single_avx512_amd64.s -pkg kernel
//
// # Design
//
// A single block is a chain: each round waits for the one before, so these
// kernels are built for the shortest dependency chain per round, not for
// throughput. They read the schedule of the other avx512-gfni kernels
// (expandSliced: the subkeys at 0, S-box j as 256 bytes at 160+256j).
//
// The block is two xmm registers, A (the pair that goes through the g
// function this round) and P (the pair it updates), each with its two
// words at words 1 and 3; words 0 and 2 hold whatever the arithmetic leaves
// there, and nothing reads them. After a round the updated P is the next
// round's A and the old A its P: the Feistel swap is a renaming.
//
//   - The g function's input is A as it is: x at word 1, y at word 3. The
//     second g function takes rol(y, 8), a renaming of y's bytes, so S-box
//     j looks up byte j of word 1 and byte j-1 (mod 4) of word 3, and the
//     MDS shuffles read its bytes from there.
//   - The four S-boxes stay in zmm registers for the whole call (half of
//     them as memory operands), and each look-up is a VPERMI2B of all
//     bytes on a copy of A (the copy is a renamed move), the lower halves
//     of the four S-boxes first; two levels of VPBLENDMB with constant
//     masks keep S-box j's answer where S-box j was wanted, of the lower
//     halves and then of the upper; a VPMOVB2M of A picks between the two
//     with a masked blend. It comes after the look-ups, whose pipes it
//     shares: before them, as the first S-box's blend was, it delays them
//     (162 ns a block against 160, BenchmarkSingleAVX512).
//   - The MDS matrix: VGF2P8AFFINEQB multiplies the S-box outputs by 5B
//     and by EF, VPSHUFB puts the term y[j], 5B·y[j] or EF·y[j] of each
//     output byte where it goes (5B and EF twice in some rows: five
//     shuffles), and two VPTERNLOGDs add the five (gfmds.Step, which says
//     why in that order): t1 at words 0 and 2, t0 at words 1 and 3, so
//     that each 64-bit lane holds Q = t1 + t0·2^32.
//   - The PHT and the subkeys: Q + (Q << 32) and Q + (Q << 33) (one
//     VPSLLVQ) have t0+t1 and t0+2·t1 in their upper words, word 1 and
//     word 3, where the subkeys (one VPSHUFD of their memory operand) are
//     added to Q beside the shift: two additions on the chain, and no
//     shuffle between the MDS matrix and the PHT.
//   - The update of P: its words rotated by one as the round wants before
//     the XOR (beside the chain), the XOR with F, the rotation after it.
//
// All sixteen rounds are unrolled, their subkeys memory operands at fixed
// offsets. There is no mask but constants and the look-ups' upper halves,
// and no merge-masked instruction.
//
// # Measurements
//
// Measured on Zen 5 with loops of the instructions in throwaway Go
// assembly, their time in ns converted to cycles at the clock that
// internal/cpuclock reports (3441 MHz). Latencies (chains of one
// instruction, in cycles): VPADDD, VPXORD, VPROLVD, VPSHUFB, VPSHUFD,
// VPBLENDMB and xmm VPERMB 2; VPERMI2B 3 (xmm), 4 (ymm), 5 (zmm); zmm
// VPERMB 5; VGF2P8AFFINEQB 3; VPMOVB2M into a VPBLENDMB 3. VPTERNLOGD
// takes 2 cycles from its destination operand but about 3 from the other
// two (two in a chain through those, 6.2): hence the order of the
// operands in mds. VPERMI2B, VPERMB, VPSHUFB, VGF2P8AFFINEQB and
// VPMOVB2M (and VPTESTMB, VPCMPB, VPBLENDVB, so none of them is a cheaper
// way to the upper halves) share two pipes, two a cycle all told;
// VPTERNLOGD and VPROLVD two others; VPADDD, VPSHUFD and VPBLENDMB any of
// four. Move elimination takes the copies of A for VPERMI2B.
//
// A round's critical path sums to about 29 cycles (VPERMI2B 5, three
// blends 6, the MDS matrix 10: the products 3, a shuffle 2 and the two
// VPTERNLOGDs 5; the PHT 4, the update 4), and alone, in a loop of its own
// instructions, it runs at 28 to 29. In the kernel a round takes about 32
// (a block 162 ns at 3.47 GHz, whitening and call included): the eight
// look-ups that wait for A take four cycles to issue on their two pipes,
// and the blends wait for the last of them. An earlier design, a round of
// the 4-block kernels' shape in one register (the passive pair's words
// updated by masked instructions, a VPSHUFD between the MDS matrix and the
// PHT, its selects by VPTERNLOGD), ran at 42 cycles a round against 31
// summed.
//
// Where the cycles go, measured by taking stages out (throwaway builds
// whose rounds compute the wrong thing; BenchmarkSingleAVX512, quiet Zen 5,
// 3 turns, a block 160 ns as it is): one look-up in place of the eight and
// their selects, 111 ns, so the S-box stage costs 10.7 cycles a round more
// than one VPERMI2B (5.0 the two levels of constant-mask blends, 5.6 the
// other seven look-ups with the VPMOVB2M and the bit-7 blend); one
// VPSHUFB in place of the MDS step, 126 ns (7.5 cycles a round); no PHT,
// 143 ns (3.9). Two variants measured against it, not kept: the look-ups
// zero-masked to their S-box's bytes, a bit-7 blend for each S-box and an
// OR of the four (VPTERNLOGD, VPORD), 13 cycles to the MDS step's input on
// paper against 14: equal (158-165 ns against 157-165); and the MDS matrix
// applied S-box by S-box, each S-box's products shuffled into place from
// its own look-ups so that no constant-mask blend is needed (8 products, 12
// shuffles, 5 VPTERNLOGDs): 167-174 ns against 157-165, the shuffle pipes'
// extra work costing more than the blends it saves.
//
// # Chain kernels
//
// The serial modes (CBC and CFB encryption, OFB's key stream, CMAC's
// blocks; kernel.ChainMode) run a whole call's blocks through one call of
// a chain kernel (chain1): the rounds of a block as above, in a loop over
// the blocks that keeps the chain value in a register and loads the
// S-boxes and masks once a call instead of once a block. Its branches
// test the count, before the first block too.
//
// # 4-block kernels
//
// The same rounds on zmm registers, one block in each 128-bit lane, take
// no longer than on xmm ones: the look-ups are zmm instructions already,
// and the rest works within lanes (kernel4). So four blocks cost what one
// does, where the 4-block kernels of _asm/avx512 (avx512-vbmi's now), which
// keep a block's two pairs in one lane and update the passive one under
// masks, took 1.2x as long in the GFNI build that these replaced: 165 ns
// for four blocks against 200, 290 for eight against 356
// (BenchmarkAVX512Tail, quiet Zen 5, medians of 5); avx512-vbmi's, which
// have no GFNI, take 228 and 415 ns against these kernels' 168 and 299
// (the same, 2026-12-06). They take short runs
// and the tails of long ones, up to four blocks (kernel.crypt64AVX512).
// Two registers of four blocks, their rounds interleaved, took 196 ns for
// eight blocks against 204 for the 16-block kernel and 292 for two groups
// of the 4-block kernel: their 32 instructions a round on the shuffle
// pipes delay each other's chains, 42 cycles a round against 32 (quiet Zen
// 5, medians of 5; not kept).
// The constants are 64 bytes for them; the single-block kernels read the
// first 16.
//
// # Constant time
//
// No memory operand has an index register and no branch but the chain
// and 4-block kernels' tests of the count: the S-boxes are whole
// registers or whole lines at fixed offsets, the constants whole lines at
// fixed addresses. single_avx512_amd64_test.go checks the generated file.
package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/twofish-go/twofish/_asm/internal/asmgen"
	"github.com/twofish-go/twofish/_asm/internal/gfmds"
	"github.com/twofish-go/twofish/_asm/internal/serial"
	"github.com/twofish-go/twofish/_asm/internal/spec"
)

var c = build.NewContext()

func main() {
	asmgen.Main(c, "avx512single", "github.com/twofish-go/twofish/internal/kernel", func() {
		constants()
		kernel1(false)
		kernel1(true)
		for _, m := range serial.Modes {
			chain1(m)
		}
		kernel4(false)
		kernel4(true)
	})
}

// Offsets into the schedule (key.go, key_avx512.go).
const (
	subkeysOffset = 0
	sboxOffset    = 160
)

// Constants in memory.
var (
	// gfMats holds the VGF2P8AFFINEQB matrices of the products by 5B and
	// EF, at gfOff.
	gfMats operand.Mem
	gfOff  = map[byte]int{0x5B: 0, 0xEF: 8}
	// shifts are the VPSLLVQ counts of the PHT: 32 and 33.
	shifts operand.Mem
	// rotPre[dec] and rotPost[dec] are the VPROLVD counts of P's words
	// before the XOR with F and after it.
	rotPre, rotPost [2]operand.Mem
	// mdsShuffles are the VPSHUFB controls of mdsShuffle.
	mdsShuffles = map[string]operand.Mem{}
)

// sbox returns the S-box that the g functions want at byte position b: S-box
// b%4 in word 1 (x) and in the words nobody reads, S-box b%4+1 (mod 4) in
// word 3 (y, whose bytes rol(y, 8) renames).
func sbox(b int) int {
	if b/4 == 3 {
		return (b + 1) % 4
	}
	return b % 4
}

// source returns the byte position of the g function input byte j whose
// output goes to word w: for t0 (words 1 and 3) byte j of x, for t1
// (words 0 and 2) byte j of rol(y, 8), byte j-1 (mod 4) of y.
func source(w, j int) int {
	if w%2 == 1 {
		return 4 + j
	}
	return 12 + (j+3)%4
}

// gfMatrix returns the VGF2P8AFFINEQB matrix of the map y -> m·y in the MDS
// field (GF(2) linear): bit i of the product is the parity of y ANDed with
// byte 7-i of the matrix, so byte 7-i has bit j set where bit i of m·x^j
// is.
func gfMatrix(m byte) uint64 {
	var a uint64
	for i := range 8 {
		var row byte
		for j := range 8 {
			row |= (spec.GFMul(m, 1<<j) >> i & 1) << j
		}
		a |= uint64(row) << (8 * (7 - i))
	}
	return a
}

// words returns the constant of the 32-bit words w, in each of the four
// lanes of a zmm register.
func words(name string, w [4]uint32) operand.Mem {
	lo, hi := uint64(w[0])|uint64(w[1])<<32, uint64(w[2])|uint64(w[3])<<32
	return asmgen.Words(c, name, lo, hi, lo, hi, lo, hi, lo, hi)
}

func constants() {
	gfMats = asmgen.Words(c, "singleGF", gfMatrix(0x5B), gfMatrix(0xEF))
	shifts = asmgen.Words(c, "singleShifts", 32, 33, 32, 33, 32, 33, 32, 33)
	// Encryption: x' = ror(x ^ f0, 1), y' = rol(y, 1) ^ f1. Decryption:
	// x' = rol(x, 1) ^ f0, y' = ror(y ^ f1, 1).
	rotPre[0] = words("singleRotPreEnc", [4]uint32{0, 0, 0, 1})
	rotPost[0] = words("singleRotPostEnc", [4]uint32{0, 31, 0, 0})
	rotPre[1] = words("singleRotPreDec", [4]uint32{0, 1, 0, 0})
	rotPost[1] = words("singleRotPostDec", [4]uint32{0, 0, 0, 31})
	for _, m := range []byte{0x01, 0x5B, 0xEF} {
		for occ := range 2 {
			mdsShuffle(m, occ)
		}
	}
}

// mdsShuffle returns the VPSHUFB control that puts, at byte i of each word
// w, the S-box output of input byte j of the g function that w takes
// (source), for the occ-th j (from 0) with MDS[i][j] = m, and zero where row
// i has no occ-th, in each lane of a zmm register; false if no row has.
func mdsShuffle(m byte, occ int) (operand.Mem, bool) {
	key := fmt.Sprintf("singleMDS%02X_%d", m, occ)
	if t, ok := mdsShuffles[key]; ok {
		return t, true
	}
	var ctrl [16]byte
	any := false
	for b := range ctrl {
		ctrl[b] = 0x80
		if j, ok := spec.MDSTerm(b%4, m, occ); ok {
			ctrl[b] = byte(source(b/4, j))
			any = true
		}
	}
	if !any {
		return operand.Mem{}, false
	}
	t := asmgen.Bytes(c, key, 64, func(i int) byte { return ctrl[i%16] })
	mdsShuffles[key] = t
	return t, true
}

type vec = reg.VecVirtual

// kern1 is the state of one single-block kernel's generation.
type kern1 struct {
	ks  reg.GPVirtual
	dec int
	// tab[j][h] is the h-th 64 bytes of S-box j: a register for h = 0
	// and 2, the first table operand of VPERMI2B; a memory operand for 1
	// and 3.
	tab [4][4]operand.Op
	// odd and bit1 mask the byte positions whose S-box (sbox) has bit 0
	// and bit 1 set.
	odd, bit1 reg.OpmaskVirtual
	// wide is set in the 4-block kernels, whose blocks fill zmm registers,
	// one a lane; the others' fill xmm registers.
	wide bool
}

// vec returns a new register of the width of k's blocks.
func (k *kern1) vec() vec {
	if k.wide {
		return c.ZMM()
	}
	return c.XMM()
}

// subkeys returns the subkeys w and w+1 at words 0-1 and 2-3 of every lane
// of a register of k's width, for the PHT.
func (k *kern1) subkeys(w int) vec {
	m := operand.Mem{Base: k.ks, Disp: subkeysOffset + 4*w}
	v := k.vec()
	if k.wide {
		c.VBROADCASTI32X4(m, v)
		c.VPSHUFD(operand.U8(0x50), v, v)
	} else {
		c.VPSHUFD(operand.U8(0x50), m, v)
	}
	return v
}

// whiten returns b XORed with the subkeys w to w+3 in every lane.
func (k *kern1) whiten(b vec, w int) vec {
	m := operand.Mem{Base: k.ks, Disp: subkeysOffset + 4*w}
	v := k.vec()
	if k.wide {
		c.VBROADCASTI32X4(m, v)
		c.VPXORD(b, v, v)
	} else {
		c.VPXORD(m, b, v)
	}
	return v
}

// begin starts the kernel "encrypt"+name, or "decrypt"+name if dec, whose
// comment says it does what, with the schedule's pointer loaded; wide for
// blocks in zmm registers.
func begin(dec, wide bool, name, what string) *kern1 {
	k := &kern1{wide: wide}
	name = "encrypt" + name
	if dec {
		name = "de" + name[2:]
		k.dec = 1
	}
	c.Implement(name)
	c.Attributes(attr.NOSPLIT)
	c.Commentf("%s %s; generated by _asm/avx512single.", name, what)
	k.ks = c.GP64()
	c.Load(c.Param("ks"), k.ks)
	return k
}

func kernel1(dec bool) {
	k := begin(dec, false, "Block1AVX512GFNI", "processes one block")
	src, dst := c.Load(c.Param("src"), c.GP64()), c.Load(c.Param("dst"), c.GP64())
	// The block first: its load starts before the S-boxes'.
	s := c.XMM()
	c.VMOVDQU(operand.Mem{Base: src}, s)
	k.setup()
	c.VMOVDQU(k.block(s), operand.Mem{Base: dst})
	c.VZEROUPPER()
	c.RET()
}

// chain1 emits the chain kernel of mode m (package serial): the rounds of a
// block in serial.VectorLoop, the S-boxes and masks loaded once a call.
func chain1(m serial.Mode) {
	name := m.Name("AVX512GFNI")
	k := &kern1{}
	c.Implement(name)
	c.Attributes(attr.NOSPLIT)
	c.Commentf("%s runs n blocks of a chained mode; generated by _asm/avx512single.", name)
	k.ks = c.GP64()
	c.Load(c.Param("ks"), k.ks)
	dst, src := c.Load(c.Param("dst"), c.GP64()), c.Load(c.Param("src"), c.GP64())
	n, sp := c.Load(c.Param("n"), c.GP64()), c.Load(c.Param("s"), c.GP64())
	k.setup()
	serial.VectorLoop(c, m, true, name+"_loop", dst, src, n, sp, k.block)
	c.VZEROUPPER()
	c.RET()
}

// kernel4 emits a 4-block kernel: n blocks, four at a time, one in each
// 128-bit lane of a zmm register, through the single-block kernels' rounds,
// which take no longer on zmm registers than on xmm ones. Where fewer than
// four are left, each access takes exactly the blocks there are (a ymm
// register for two, and one more lane for three): nothing reaches past
// the run, and a masked access, which would cost a slow assist where its
// masked-off bytes lie in a page not mapped in, is not needed.
func kernel4(dec bool) {
	k := begin(dec, true, "Blocks4AVX512GFNI", "processes n blocks, four at a time, one per 128-bit lane")
	dst, src, n := c.Load(c.Param("dst"), c.GP64()), c.Load(c.Param("src"), c.GP64()), c.Load(c.Param("n"), c.GP64())
	c.TESTQ(n, n)
	c.JZ(operand.LabelRef("done"))
	k.setup()
	c.Label("loop")
	b := c.ZMM()
	byCount(n, "load", [4]func(){
		func() { c.VMOVDQU64(operand.Mem{Base: src}, b.AsX()) },
		func() { c.VMOVDQU64(operand.Mem{Base: src}, b.AsY()) },
		func() {
			c.VMOVDQU64(operand.Mem{Base: src}, b.AsY())
			c.VINSERTI32X4(operand.U8(2), operand.Mem{Base: src, Disp: 32}, b, b)
		},
		func() { c.VMOVDQU64(operand.Mem{Base: src}, b) },
	})
	out := k.block(b)
	byCount(n, "store", [4]func(){
		func() { c.VMOVDQU64(out.AsX(), operand.Mem{Base: dst}) },
		func() { c.VMOVDQU64(out.AsY(), operand.Mem{Base: dst}) },
		func() {
			c.VMOVDQU64(out.AsY(), operand.Mem{Base: dst})
			c.VEXTRACTI32X4(operand.U8(2), out, operand.Mem{Base: dst, Disp: 32})
		},
		func() { c.VMOVDQU64(out, operand.Mem{Base: dst}) },
	})
	c.ADDQ(operand.U8(64), src)
	c.ADDQ(operand.U8(64), dst)
	c.SUBQ(operand.U8(4), n)
	c.JG(operand.LabelRef("loop"))
	c.Label("done")
	c.VZEROUPPER()
	c.RET()
}

// byCount emits access[min(n, 4)-1], n ≥ 1 the public count of blocks left:
// branches on n, named from label.
func byCount(n reg.Register, label string, access [4]func()) {
	ref := func(i int) operand.LabelRef { return operand.LabelRef(fmt.Sprintf("%s%d", label, i)) }
	c.CMPQ(n, operand.U8(4))
	c.JAE(ref(4))
	c.CMPQ(n, operand.U8(2))
	c.JB(ref(1))
	c.JE(ref(2))
	access[2]()
	c.JMP(ref(0))
	for _, i := range []int{1, 2, 4} {
		c.Label(string(ref(i)))
		access[i-1]()
		if i != 4 {
			c.JMP(ref(0))
		}
	}
	c.Label(string(ref(0)))
}

// setup loads what every block reads: half of the S-boxes into registers,
// and the masks of the byte positions.
func (k *kern1) setup() {
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
	var odd, bit1 uint64
	for b := range 64 {
		odd |= uint64(sbox(b%16)&1) << b
		bit1 |= uint64(sbox(b%16)>>1) << b
	}
	t := c.GP64()
	k.odd, k.bit1 = c.K(), c.K()
	c.MOVQ(operand.U64(odd), t)
	c.KMOVQ(t, k.odd)
	c.MOVQ(operand.U64(bit1), t)
	c.KMOVQ(t, k.bit1)
}

// block returns the encryption (decryption, k.dec) of the block b, with
// the input and output whitening.
func (k *kern1) block(b vec) vec {
	inW, outW := 0, 4
	if k.dec == 1 {
		inW, outW = 4, 0
	}
	s := k.whiten(b, inW)
	// The pairs at words 1 and 3: A = (w0, w1), P = (w2, w3).
	a, p := k.vec(), k.vec()
	c.VPSHUFD(operand.U8(0x50), s, a)
	c.VPSHUFD(operand.U8(0xFA), s, p)
	for r := range 16 {
		kw := 8 + 2*r
		if k.dec == 1 {
			kw = 38 - 2*r
		}
		a, p = k.round(a, p, kw), a
	}
	// The output: the last round's A, then its updated P.
	out := k.vec()
	c.VSHUFPS(operand.U8(0xDD), a, p, out)
	return k.whiten(out, outW)
}

// round returns P after one Feistel round with the pair A and the subkeys
// k[kw], k[kw+1].
func (k *kern1) round(a, p vec, kw int) vec {
	// The look-ups: S-box j of every byte, its lower and upper half, and
	// bit 7 of the byte picks.
	var sel [2]vec
	for h := range 2 {
		var looked [4]vec
		for j := range 4 {
			z := c.ZMM()
			c.VMOVDQA64(a.AsZ(), z)
			c.VPERMI2B(k.tab[j][2*h+1], k.tab[j][2*h], z)
			looked[j] = z
			if !k.wide {
				looked[j] = z.AsX().(vec)
			}
		}
		// Each byte keeps the S-box it wants. The blends write over
		// their first operand's copy: avo takes a masked instruction's
		// destination for an input too.
		lo, hi := looked[0], looked[2]
		c.VPBLENDMB(looked[1], lo, k.odd, lo)
		c.VPBLENDMB(looked[3], hi, k.odd, hi)
		c.VPBLENDMB(hi, lo, k.bit1, lo)
		sel[h] = lo
	}
	upper := c.K()
	c.VPMOVB2M(a, upper)
	c.VPBLENDMB(sel[1], sel[0], upper, sel[0])
	q := k.mds(sel[0])

	// The PHT with the subkeys: Q+K and Q<<(32, 33) side by side.
	kv, sh := k.subkeys(kw), k.vec()
	c.VPADDD(q, kv, kv)
	c.VPSLLVQ(shifts, q, sh)
	c.VPADDD(sh, kv, kv)

	// P's update.
	u := k.vec()
	c.VPROLVD(rotPre[k.dec], p, u)
	c.VPXORD(kv, u, u)
	c.VPROLVD(rotPost[k.dec], u, u)
	return u
}

// mds returns the MDS matrix times the S-box outputs y (gfmds.Step): t1 at
// words 0 and 2, t0 at words 1 and 3.
func (k *kern1) mds(y vec) vec {
	mat := func(m byte) operand.Mem { return gfMats.Offset(gfOff[m]) }
	return gfmds.Step(c, y, k.vec, mat, mdsShuffle)
}
