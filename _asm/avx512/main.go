// Command avx512 generates internal/kernel/avx512_amd64.s, the constant-time AVX-512 VBMI
// Twofish kernels, with avo. Run it through go generate in the package
// directory:
//
//	go run -C ../../_asm/avx512 . -out ../../internal/kernel/avx512_amd64.s -pkg kernel
//
// # Design
//
// A kernel call takes n groups of 64 blocks. A group's state lives in word
// layout: four zmm registers per Twofish word, sixteen 32-bit lanes each, in
// which the pseudo-Hadamard transform, the subkey additions and the one-bit
// rotations are single instructions (VPADDD, VPRORD, VPROLD). The g
// function works in byte-sliced layout instead: its input word's four
// registers are transposed into four byte planes, plane j holding byte j of
// the word of all 64 blocks, so that each plane goes through one S-box and
// one column of the MDS matrix:
//
//   - Key-dependent S-box j is 256 bytes, four zmm T0..T3. VPERMT2B looks a
//     plane up in T0:T1 and VPERMI2B in T2:T3 (each uses the low seven bits
//     of the index), VPMOVB2M turns bit 7 of the plane into a mask, and a
//     masked VMOVDQU8 keeps the T2:T3 answer where it is set.
//   - MDS column j needs the S-box output y times 01, 5B and EF in GF(2^8).
//     y·c = c·(y & 0x0F) ^ c·(y & 0xF0): VPERMB looks the low six bits of y
//     up in a 64-byte table whose entries depend only on the low four, and
//     the high nibble likewise after a 16-bit VPSRLW by 4, whose stray bits
//     land in bits 4 to 7, which the table ignores. Each output byte of the
//     g function is then the XOR of seven terms: three VPTERNLOGD.
//   - The four output planes are transposed back to word layout.
//
// The transposes stay within 128-bit lanes, where shuffles are cheapest: a
// VPSHUFB transposes the 4x4 bytes of each lane and a 4x4 transpose of
// 32-bit words across the four registers (VPUNPCK*) finishes the job. The
// order of the blocks within a plane is whatever the transposes make it,
// the same in every plane, so planes never need sorting; rol(x, 8), the g
// function's second input, renames the planes.
//
// Three of each S-box's four registers stay in zmm registers for the whole
// call, and T0 is loaded afresh for each look-up (VPERMT2B overwrites it).
// The state lives on the stack, in a 64-byte aligned area, between
// half-rounds. The nibble tables and the byte transpose are constants in
// memory, used as memory operands.
//
// Two groups go through each round together, one group's half-round after
// the other's: an out-of-order core then overlaps one group's dependency
// chain, from its input planes through the S-boxes, the MDS products and
// the transposes to the next half-round's planes, with the other group's
// work. On Zen 5 that is 1.2x one group at a time; three or four groups,
// or the two groups' instructions interleaved one by one (which needs
// fewer registers per group, so more memory operands), were no faster.
//
// # GFNI
//
// Every kernel is emitted twice: as above (avx512-vbmi), and after those,
// so that their output does not change, a GFNI variant with the suffix
// GFNI (avx512-gfni), for CPUs with GFNI besides. The two differ only in
// the g function:
//
//   - Each product y·c is one VGF2P8AFFINEQB with the bit matrix of the
//     map y -> c·y (gfMatrix), broadcast from the frame once a call, where
//     the others take a VPSRLW and two VPERMB: an output plane is then the
//     XOR of four terms, one VPTERNLOGD and one VPXORD. Factoring the
//     sums (z0 = y0 ^ EF·y1 ^ 5B·(y2^y3), ...) takes as many instructions:
//     eight products and eight XORs either way, and the products of each
//     plane as soon as its S-box gives it.
//   - The transposes are byte unpacks alone (toPlanesUnpack,
//     toWordsUnpack): on Zen 5, VPSHUFB, the byte permutes, VPMOVB2M and
//     VGF2P8AFFINEQB share two vector pipes, and VPUNPCK* runs on all four.
//
// Per round of two groups, avx512-vbmi's loop has 704 vector operations,
// 288 of them on the two shared pipes (128 VPERMB, 64 VPERMT2B/VPERMI2B,
// 64 VPSHUFB, 32 VPMOVB2M); the GFNI loop 576, 160 of them there (64
// VGF2P8AFFINEQB, 64 VPERMT2B/VPERMI2B, 32 VPMOVB2M). Zen 5, ECB,
// 256-bit key: 0.91-0.94 c/B against 1.20-1.23 c/B.
//
// The avx512-vbmi kernels use no GFNI: the emulator that tests them
// (Bochs 2.7) computes VGF2P8AFFINEQB wrongly, so the GFNI variants are
// tested on real hardware only.
//
// # Constant time
//
// Nothing is loaded from an address that depends on data or key: the
// S-boxes are whole registers or whole 64-byte lines at fixed offsets of
// the schedule, the constants are whole lines, and the state slots are
// fixed offsets of the stack. The kernels have no memory operand with an
// index register and no branch but the loop counters;
// avx512_amd64_test.go checks the generated file for both.
//
// The generator refuses BP and SP (asmgen.RefuseBP): the kernels keep the
// frame-pointer convention.
package main

import (
	"fmt"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/twofish-go/twofish/_asm/internal/asmgen"
	"github.com/twofish-go/twofish/_asm/internal/spec"
)

var c = build.NewContext()

func main() {
	asmgen.Main(c, "avx512", "github.com/twofish-go/twofish/internal/kernel", func() {
		constants()
		smallConstants()
		// Every kernel, then the GFNI variant of every kernel, so that
		// the others come out as they did before GFNI. The constants of a
		// mode come before its first kernel.
		for _, variant := range []bool{false, true} {
			gfni = variant
			if gfni {
				gfniConstants()
			}
			for _, dec := range []bool{false, true} {
				kernel(dec, nil)
			}
			if !gfni {
				// avx512-gfni's are _asm/avx512single's.
				for _, dec := range []bool{false, true} {
					kernel4(dec)
				}
			}
			for _, dec := range []bool{false, true} {
				kernel(dec, &ocbKernel{})
			}
			if !gfni {
				ctrConstants()
			}
			kernel(false, &ctrKernel{})
			kernel(true, &cbcKernel{})
			kernel(false, &cfbKernel{})
			if !gfni {
				xtsConstants()
			}
			for _, dec := range []bool{false, true} {
				kernel(dec, &xtsKernel{})
			}
			for _, dec := range []bool{false, true} {
				kernel(dec, &xtsKernel{halves: true})
			}
		}
		// The 16-block kernels, after all the others, so that those come
		// out as before.
		for _, variant := range []bool{false, true} {
			gfni = variant
			for _, dec := range []bool{false, true} {
				kernelWords(dec, 1, nil)
				kernelWords(dec, 2, nil)
			}
		}
		// The mode kernels of the word layout, after those.
		for _, variant := range []bool{false, true} {
			gfni = variant
			for _, m := range []struct {
				dec  bool
				mode wordMode
			}{{false, &wordCTR{}}, {true, &wordCBC{}}, {false, &wordCFB{}}, {false, &wordXTS{}}, {true, &wordXTS{}}, {false, &wordOCB{}}, {true, &wordOCB{dec: true}}} {
				kernelWords(m.dec, 1, m.mode)
				kernelWords(m.dec, 2, m.mode)
			}
		}
		// OCB's hash, last.
		for _, variant := range []bool{false, true} {
			gfni = variant
			kernel(false, &ocbKernel{hash: true})
			kernelWords(false, 1, &wordOCB{hash: true})
			kernelWords(false, 2, &wordOCB{hash: true})
		}
	})
}

// gfni is whether the kernels being generated are the GFNI variants, named
// with the suffix GFNI: the same kernels but for the MDS products, one
// VGF2P8AFFINEQB each (see gfMatrix) where the others take a VPSRLW and
// two VPERMB.
var gfni bool

// funcName returns the name of the kernel base in the variant being
// generated.
func funcName(base string) string {
	if gfni {
		return base + "GFNI"
	}
	return base
}

// gfMatrices is the constant of the GFNI kernels: the bit matrices of the
// products by 5B and EF (gfMatrix) at bytes 0 and 8, padded to 64 bytes so
// that the 64-block kernels copy it to their frame in one line.
var gfMatrices operand.Mem

// gfOffset is where the matrix of the product by m is in gfMatrices.
var gfOffset = map[byte]int{0x5B: 0, 0xEF: 8}

func gfniConstants() {
	gfMatrices = asmgen.Words(c, "gfMatrices", gfMatrix(0x5B), gfMatrix(0xEF), 0, 0, 0, 0, 0, 0)
}

// gfMatrix returns the VGF2P8AFFINEQB matrix of the map y -> m·y in the
// MDS field (GF(2) linear): bit i of the product is the parity of y ANDed
// with byte 7-i of the matrix, so byte 7-i has bit j set where bit i of
// m·x^j is.
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

// Offsets from the schedule (key.go), which the kernels' argument points
// to: the subkeys, and the four S-boxes as bytes, S-box j at
// slicedOffset+256j, where expandSliced (key_avx512.go) puts them.
const (
	subkeysOffset = 0
	sboxOffset    = 160
)

const (
	// blocks is how many blocks a group holds: one byte plane per zmm.
	blocks = 64
	// groups is how many groups go through the rounds together.
	groups = 2
	// groupState is the stack a group's state takes: four words of four
	// registers.
	groupState = 16 * 64
)

// Constants in memory.
var (
	// mulLo[m] and mulHi[m] are the VPERMB tables of the products by m of
	// the low and the high nibble: entry i is m·(i&15) and m·((i&15)<<4).
	mulLo, mulHi = map[byte]operand.Mem{}, map[byte]operand.Mem{}
	// byteTranspose is the VPSHUFB index that transposes the 4x4 bytes of
	// each 128-bit lane (see toPlanes).
	byteTranspose operand.Mem
)

// table emits a 64-byte constant whose byte i is f(i).
func table(name string, f func(i int) byte) operand.Mem { return asmgen.Bytes(c, name, 64, f) }

func constants() {
	for _, m := range []byte{0x5B, 0xEF} {
		mulLo[m] = table(fmt.Sprintf("mul%02XLo", m), func(i int) byte { return spec.GFMul(m, byte(i&15)) })
		mulHi[m] = table(fmt.Sprintf("mul%02XHi", m), func(i int) byte { return spec.GFMul(m, byte(i&15)<<4) })
	}
	// Byte 4b+w of a lane takes byte 4w+b.
	byteTranspose = table("byteTranspose", func(i int) byte { return byte(i&^15 | (i&3)<<2 | (i&15)>>2) })
	zeros = table("zeros", func(int) byte { return 0 })
	iota64 = table("iota64", func(i int) byte { return byte(i) })
}

// zeros is 64 zero bytes, iota64 the bytes 0 to 63.
var zeros, iota64 operand.Mem

// zero sets x to zero: a load of zeros, as avo takes VPXORD x, x, x for a
// read of x, which would make x live from the kernel's entry.
func zero(x zmm) { c.VMOVDQU64(zeros, x) }

// zmm is a virtual vector register.
type zmm = reg.VecVirtual

// kern is the state of one kernel's generation.
type kern struct {
	ks  reg.GPVirtual
	dec bool
	// tab[j][h] is the h-th 64 bytes of S-box j: memory for h = 0, a
	// register for the others.
	tab [4][4]operand.Op
	// st is the 64-byte aligned base of the state (see slot).
	st reg.GPVirtual
	// mode is nil but in the fused kernels of the modes (ocb.go, ctr.go,
	// cbc.go, xts.go).
	mode mode
	// copies are the frame's copies of the working set.
	copies frameCopy
	// gfReg[m] is the matrix of the product by m in the GFNI kernels,
	// broadcast in a register.
	gfReg map[byte]zmm
	// masked is 1 + the group of the body being emitted whose loads and
	// stores are masked, or 0: the last group of a tail kernel, whose
	// blocks may be fewer than 64. Its masks are in the frame at masks
	// (maskFrame): each register's present blocks' 32-bit words (16 bits
	// each, setMask's), and in a kernel that counts bytes each register's
	// present bytes (64 bits each, at 32) and the last block's 64-bit words
	// (at 160) in the register lastReg that holds it (lastBlock's).
	masked  int
	masks   operand.Mem
	lastReg reg.GPVirtual
	// kept is the last block's key stream in xorTail; tails counts the
	// masked groups that xorTail emitted, for their labels.
	kept  zmm
	tails int
	// bytesOnly is set by a mode that reads only the byte masks (CTR).
	bytesOnly bool
	// count is what the masked group has, blocks or (countBytes) bytes.
	count      reg.GPVirtual
	countBytes bool
}

// stretch returns group g, the masked one, as a stretch; rounded for the
// loads of the block before each block in a kernel that counts bytes
// (CFB decryption's; stretch.rounded).
func (k *kern) stretch(g int, rounded bool) stretch {
	return stretch{count: k.count, blocks: !k.countBytes, rounded: rounded, start: groupState * g}
}

// maskFrame is the size of the masks of a tail kernel's last group in its
// frame.
const maskFrame = 32 + 8*16 + 32

// mask returns the mask of the 32-bit words of register r's present blocks
// in the masked group.
func (k *kern) mask(r int) reg.OpmaskVirtual {
	m := c.K()
	c.KMOVW(k.masks.Offset(2*r), m)
	return m
}

// byteMask returns the mask of register r's present bytes in the masked
// group.
func (k *kern) byteMask(r int) reg.OpmaskVirtual {
	m := c.K()
	c.KMOVQ(k.masks.Offset(32+8*r), m)
	return m
}

// lastWords returns the mask of the last block's 64-bit words in its
// register.
func (k *kern) lastWords() reg.OpmaskVirtual {
	m := c.K()
	c.KMOVW(k.masks.Offset(160), m)
	return m
}

// slot is register q of word w of group g. Words 0 and 1 are the first
// active pair, 2 and 3 the first passive pair.
func (k *kern) slot(g, w, q int) operand.Mem {
	return operand.Mem{Base: k.st, Disp: groupState*g + 256*w + 64*q}
}

// subkey is k[n], in the frame's copy.
func (k *kern) subkey(n int) operand.Mem {
	return operand.Mem{Base: k.st, Disp: groups*groupState + 4*n}
}

// frameCopies is the size of the working set that the 64-block kernels copy
// into their frame beside the state: the subkeys, the first 64 bytes of
// each S-box (T0, which each look-up reloads), and the MDS nibble tables
// and byte transpose. The state is stored and reloaded every half-round;
// a load from an address 4096 bytes from a store's is delayed as if it
// depended on it, so loads of the schedule and of the constants could
// stall on the state's stores by chance, wherever the heap, the binary and
// the stack put them: ECB at 8 KiB ran from 2.2 to 2.4 us with the stack's
// position alone. With the working set and the state in one stretch of
// less than 4 KiB, no two of their addresses are 4096 apart.
// The GFNI kernels copy one line of matrices where the others copy four
// nibble tables and the byte transpose, which they do not use.
func frameCopies() int {
	if gfni {
		return 3*64 + 4*64 + 64
	}
	return 3*64 + 4*64 + 5*64
}

// frameCopy is where the working set's copies are in the frame.
type frameCopy struct {
	sbox          [4]operand.Mem
	mulLo, mulHi  map[byte]operand.Mem
	byteTranspose operand.Mem
	// gf is the GFNI kernels' copy of gfMatrices.
	gf operand.Mem
}

// copyWorkingSet copies the working set into the frame after the state,
// the subkeys first (see subkey).
func (k *kern) copyWorkingSet() {
	at := groups*groupState + 3*64
	next := func() operand.Mem {
		m := operand.Mem{Base: k.st, Disp: at}
		at += 64
		return m
	}
	cp := func(from, to operand.Mem) {
		z := c.ZMM()
		c.VMOVDQU64(from, z)
		c.VMOVDQA64(z, to)
	}
	// The 160 bytes of subkeys: two zmm and a ymm.
	for i := range 2 {
		cp(operand.Mem{Base: k.ks, Disp: subkeysOffset + 64*i}, k.subkey(16*i))
	}
	y := c.YMM()
	c.VMOVDQU64(operand.Mem{Base: k.ks, Disp: subkeysOffset + 128}, y)
	c.VMOVDQU64(y, k.subkey(32))
	for j := range 4 {
		k.copies.sbox[j] = next()
		cp(operand.Mem{Base: k.ks, Disp: sboxOffset + 256*j}, k.copies.sbox[j])
	}
	if gfni {
		k.copies.gf = next()
		cp(gfMatrices, k.copies.gf)
		return
	}
	k.copies.mulLo, k.copies.mulHi = map[byte]operand.Mem{}, map[byte]operand.Mem{}
	for _, m := range []byte{0x5B, 0xEF} {
		k.copies.mulLo[m], k.copies.mulHi[m] = next(), next()
		cp(mulLo[m], k.copies.mulLo[m])
		cp(mulHi[m], k.copies.mulHi[m])
	}
	k.copies.byteTranspose = next()
	cp(byteTranspose, k.copies.byteTranspose)
}

// load returns op in a register, loading it if it is in memory.
func load(op operand.Op) zmm {
	if r, ok := op.(zmm); ok {
		return r
	}
	r := c.ZMM()
	c.VMOVDQU64(op, r)
	return r
}

// transpose4 transposes the 4x4 matrices of 32-bit words in each 128-bit
// lane of r: its own inverse.
func transpose4(r [4]zmm) [4]zmm {
	var t, o [4]zmm
	for i := range 4 {
		t[i], o[i] = c.ZMM(), c.ZMM()
	}
	c.VPUNPCKLDQ(r[1], r[0], t[0]) // a0 a1 b0 b1
	c.VPUNPCKHDQ(r[1], r[0], t[1]) // c0 c1 d0 d1
	c.VPUNPCKLDQ(r[3], r[2], t[2]) // a2 a3 b2 b3
	c.VPUNPCKHDQ(r[3], r[2], t[3]) // c2 c3 d2 d3
	c.VPUNPCKLQDQ(t[2], t[0], o[0])
	c.VPUNPCKHQDQ(t[2], t[0], o[1])
	c.VPUNPCKLQDQ(t[3], t[1], o[2])
	c.VPUNPCKHQDQ(t[3], t[1], o[3])
	return o
}

// toPlanes transposes the four registers of a word (registers or memory)
// into its four byte planes: VPSHUFB moves byte b of the four words of each
// lane into word b of the lane, and transpose4 then gathers word b of every
// register's lane into plane b: lane l of plane b holds byte b of the words
// in lane l of all four registers.
func toPlanes(x [4]operand.Op) [4]zmm {
	var t [4]zmm
	for r := range 4 {
		t[r] = c.ZMM()
		c.VPSHUFB(byteTranspose, load(x[r]), t[r])
	}
	return transpose4(t)
}

// The GFNI kernels transpose with byte unpacks alone (VPUNPCKLBW,
// VPUNPCKHBW): their VGF2P8AFFINEQB runs on the two vector pipes that
// VPSHUFB, the byte permutes and VPMOVB2M take (Zen 5), and the unpacks on
// any of the four. Per lane, an unpack of two registers at byte
// granularity moves bit 3 of each byte's index into the register's and
// shifts the others up, bringing in the register bit at the bottom; four
// such stages take byte b of every word to register b, and two more
// restore the words.

// unpackStage interleaves the bytes of the register pairs p, each into a
// low and a high half: outputs 2i and 2i+1 from pair i.
func unpackStage(r [4]zmm, p [2][2]int) [4]zmm {
	var o [4]zmm
	for i, pr := range p {
		lo, hi := c.ZMM(), c.ZMM()
		c.VPUNPCKLBW(r[pr[1]], r[pr[0]], lo)
		c.VPUNPCKHBW(r[pr[1]], r[pr[0]], hi)
		o[2*i], o[2*i+1] = lo, hi
	}
	return o
}

// toPlanesUnpack is toPlanes by four byte unpack stages; its planes are
// in another order of the blocks than toPlanes', which toWordsUnpack
// undoes.
func toPlanesUnpack(x [4]operand.Op) [4]zmm {
	var r [4]zmm
	for i := range 4 {
		r[i] = load(x[i])
	}
	r = unpackStage(r, [2][2]int{{0, 1}, {2, 3}})
	for range 3 {
		r = unpackStage(r, [2][2]int{{0, 2}, {1, 3}})
	}
	return r
}

// toWordsUnpack is the inverse of toPlanesUnpack, in two stages.
func toWordsUnpack(z [4]zmm) [4]zmm {
	for range 2 {
		z = unpackStage(z, [2][2]int{{0, 2}, {1, 3}})
	}
	return [4]zmm{z[0], z[2], z[1], z[3]}
}

// toWords is the inverse of toPlanes.
func toWords(z [4]zmm) [4]zmm {
	t := transpose4(z)
	for r := range 4 {
		c.VPSHUFB(byteTranspose, t[r], t[r])
	}
	return t
}

// sbox looks the plane p up in S-box j; p is overwritten.
func (k *kern) sbox(p zmm, j int) zmm {
	m := c.K()
	c.VPMOVB2M(p, m)
	y := load(k.tab[j][0])
	c.VPERMT2B(k.tab[j][1], p, y)           // y = T0:T1[p & 0x7F]
	c.VPERMI2B(k.tab[j][3], k.tab[j][2], p) // p = T2:T3[p & 0x7F]
	c.VMOVDQU8(p, m, y)                     // y = p where bit 7 of p was set
	return y
}

// term is one input of an XOR: a register and how many accumulators
// still hold it. Only a term that no other accumulator holds may be
// overwritten, as VPTERNLOGD overwrites its first operand.
type term struct {
	r    zmm
	refs int
}

// xorAcc accumulates the XOR of terms in as few VPTERNLOGDs as their order
// of arrival allows: three pending terms become one.
type xorAcc struct{ terms []*term }

func (a *xorAcc) add(t *term) {
	a.terms = append(a.terms, t)
	if len(a.terms) < 3 {
		return
	}
	d := -1
	for i, t := range a.terms {
		if t.refs == 1 {
			d = i
			break
		}
	}
	if d < 0 {
		// Every term is shared: XOR two into a new register.
		r := c.ZMM()
		c.VPXORD(a.terms[1].r, a.terms[0].r, r)
		a.terms[0].refs--
		a.terms[1].refs--
		a.terms = []*term{{r, 1}, a.terms[2]}
		return
	}
	dst := a.terms[d]
	var o []*term
	for i, t := range a.terms {
		if i != d {
			o = append(o, t)
			t.refs--
		}
	}
	c.VPTERNLOGD(operand.U8(0x96), o[1].r, o[0].r, dst.r)
	a.terms = []*term{dst}
}

// sum returns the accumulated XOR in a register.
func (a *xorAcc) sum() zmm {
	switch t := a.terms; len(t) {
	case 1:
		return t[0].r
	case 2:
		r := c.ZMM()
		c.VPXORD(t[1].r, t[0].r, r)
		return r
	}
	panic("xorAcc: no terms")
}

// count is how many rows of MDS column j hold m.
func count(j int, m byte) int {
	n := 0
	for i := range 4 {
		if spec.MDS[i][j] == m {
			n++
		}
	}
	return n
}

// g returns the g function of the word x (memory or registers), rotated
// left by 8 bits first if rot, in word layout.
func (k *kern) g(x [4]operand.Op, rot bool) [4]zmm {
	var planes [4]zmm
	if gfni {
		planes = toPlanesUnpack(x)
	} else {
		planes = toPlanes(x)
	}
	var acc [4]xorAcc
	for j := range 4 {
		// Byte j of rol(x, 8) is byte j-1 of x.
		src := j
		if rot {
			src = (j + 3) % 4
		}
		y := k.sbox(planes[src], j)
		if gfni {
			for _, m := range []byte{0x5B, 0xEF} {
				p := &term{c.ZMM(), count(j, m)}
				c.VGF2P8AFFINEQB(operand.U8(0), k.gfReg[m], y, p.r)
				for i := range 4 {
					if spec.MDS[i][j] == m {
						acc[i].add(p)
					}
				}
			}
			for i := range 4 {
				if spec.MDS[i][j] == 1 {
					acc[i].add(&term{y, 1})
				}
			}
			continue
		}
		hi := c.ZMM()
		c.VPSRLW(operand.U8(4), y, hi)
		for _, m := range []byte{0x5B, 0xEF} {
			lo, h := &term{c.ZMM(), count(j, m)}, &term{c.ZMM(), count(j, m)}
			c.VPERMB(mulLo[m], y, lo.r)
			c.VPERMB(mulHi[m], hi, h.r)
			for i := range 4 {
				if spec.MDS[i][j] == m {
					acc[i].add(lo)
					acc[i].add(h)
				}
			}
		}
		// Each column holds one 01; y is free to be overwritten now.
		for i := range 4 {
			if spec.MDS[i][j] == 1 {
				acc[i].add(&term{y, 1})
			}
		}
	}
	var z [4]zmm
	for i := range z {
		z[i] = acc[i].sum()
	}
	if gfni {
		return toWordsUnpack(z)
	}
	return toWords(z)
}

// A mode is what a fused kernel does besides the block cipher as it loads
// and stores the blocks of each group: OCB's offsets and checksum (ocb.go),
// CTR's counters and key stream (ctr.go), CBC's and CFB's chaining (cbc.go,
// cfb.go), XTS's tweaks, from one tweak or one a half-group (xts.go).
// The kernel calls its methods in the order they are listed.
type mode interface {
	// name is the name of the mode's kernel that runs the block cipher in
	// direction dec (without the GFNI variant's suffix), as
	// encryptOCB64AVX512; CFB's decryption runs the encryption.
	name(dec bool) string
	// frame is how many bytes the mode keeps in the frame, after the
	// working set.
	frame() int
	// unit is what the kernel's count n counts: blocks (1), or bytes (16,
	// the last block maybe partial), the last group's missing blocks and
	// bytes masked (kern.blocks); or whole groups (0).
	unit() int
	// begin loads the mode's arguments; its frame starts at 64-byte
	// aligned slot.
	begin(k *kern, slot operand.Mem)
	// group starts a group g's load or store, whose whitening is white;
	// the group's blocks then come from the mode's load (blockLoader) or
	// words (wordMaker).
	group(g int, white zmm)
	// stores comes before the stores of the ng groups of a body.
	stores(src reg.Register, ng int)
	// store whitens x, register r of group g's output, and stores it to
	// dst.
	store(src, dst reg.Register, g, r int, x, white zmm)
	// endGroup ends a group's load or store.
	endGroup()
	// next moves on by n groups, as the kernel moves src and dst.
	next(n int)
	// end is the last thing before VZEROUPPER.
	end()
}

// A blockLoader is a mode whose kernel loads the blocks from the source:
// load returns register r of group g (blocks 4r to 4r+3) whitened, reading
// the source from src, and the kernel transposes the registers into word
// layout.
type blockLoader interface {
	load(src reg.Register, g, r int, white zmm) zmm
}

// A wordMaker is a mode that reads no source as it loads a group but makes
// its blocks, in word layout: words returns the four words of register q
// of group g (see kern.load for which blocks' they are), whitened.
type wordMaker interface {
	words(g, q int, white zmm) [4]zmm
}

// loadDst loads the kernel's dst argument, or returns nil for a mode that
// stores nothing (OCB's hash), whose kernels have none.
func loadDst(m any) reg.Register {
	if o, ok := m.(*ocbKernel); ok && o.hash {
		return nil
	}
	if o, ok := m.(*wordOCB); ok && o.hash {
		return nil
	}
	return c.Load(c.Param("dst"), c.GP64())
}

// direction is the start of the name of a kernel that runs the block
// cipher's decryption if dec, else its encryption.
func direction(dec bool) string {
	if dec {
		return "decrypt"
	}
	return "encrypt"
}

// kernel emits encryptBlocks64AVX512 or decryptBlocks64AVX512, n blocks
// from src to dst, 64 at a time; with a mode, its fused kernel of the
// direction instead, which counts what mode.unit says.
func kernel(dec bool, mode mode) {
	name := direction(dec) + "Blocks64AVX512"
	if mode != nil {
		name = mode.name(dec)
	}
	name = funcName(name)
	unit := 1 // what n counts: see mode.unit
	if mode != nil {
		unit = mode.unit()
	}
	c.Implement(name)
	// Not NOSPLIT: the state is more than a NOSPLIT function may take from
	// the stack, so the assembler adds the stack check.
	switch unit {
	case 16:
		c.Commentf("%s processes n bytes, %d blocks at a time; generated by _asm/avx512.", name, blocks)
	case 1:
		c.Commentf("%s processes n blocks, %d at a time; generated by _asm/avx512.", name, blocks)
	default:
		c.Commentf("%s processes n groups of %d blocks; generated by _asm/avx512.", name, blocks)
	}
	k := &kern{dec: dec, mode: mode}
	k.ks = c.GP64()
	c.Load(c.Param("ks"), k.ks)
	src := c.Load(c.Param("src"), c.GP64())
	dst := loadDst(mode)
	n := c.Load(c.Param("n"), c.GP64())

	// The frame: the state, the working set (see frameCopies), the
	// mode's, and a tail kernel's masks.
	size := groups*groupState + frameCopies() + 64
	if mode != nil {
		size += mode.frame()
	}
	if unit > 0 {
		size += maskFrame
	}
	local := c.AllocLocal(size)
	k.st = c.GP64()
	c.LEAQ(local.Offset(63), k.st)
	c.ANDQ(operand.I32(-64), k.st)
	k.copyWorkingSet()
	defer func(lo, hi map[byte]operand.Mem, bt operand.Mem) {
		mulLo, mulHi, byteTranspose = lo, hi, bt
	}(mulLo, mulHi, byteTranspose)
	mulLo, mulHi, byteTranspose = k.copies.mulLo, k.copies.mulHi, k.copies.byteTranspose
	k.masks = operand.Mem{Base: k.st, Disp: groups*groupState + frameCopies()}
	if mode != nil {
		mode.begin(k, k.masks)
		k.masks = k.masks.Offset(mode.frame())
	}
	c.TESTQ(n, n)
	c.JZ(operand.LabelRef("done"))

	for j := range 4 {
		for h := range 4 {
			m := operand.Mem{Base: k.ks, Disp: sboxOffset + 256*j + 64*h}
			if h == 0 {
				k.tab[j][h] = k.copies.sbox[j]
				continue
			}
			r := c.ZMM()
			c.VMOVDQU64(m, r)
			k.tab[j][h] = r
		}
	}

	if gfni {
		k.gfReg = map[byte]zmm{}
		for _, m := range []byte{0x5B, 0xEF} {
			r := c.ZMM()
			c.VPBROADCASTQ(k.copies.gf.Offset(gfOffset[m]), r)
			k.gfReg[m] = r
		}
	}

	k.blocks(src, dst, n, unit)
	c.Label("done")
	if mode != nil {
		mode.end()
	}
	c.VZEROUPPER()
	c.RET()
}

// blocks emits a kernel's loop over the n (n > 0) groups, blocks, or bytes
// (unit 0, 1, 16; see mode.unit) from src to dst: two whole groups at a
// time, then a last whole group alone, or a last group with fewer blocks,
// with the whole group before it if there is one left, a stretch
// (stretch.go) whose loads and stores take what there is of it
// (setMask's masks, a 16-bit mask a register, and byteMasks' where the
// kernel counts bytes), so that a run that ends in a partial group needs
// no buffer to pad it: missing blocks are neither read nor written, their
// lanes encrypt zeros or counters.
// The last group goes with the whole group before it when the whole groups
// are odd in number: a group alone takes two thirds of a pair's time, one
// group's work filling the other's waits (Zen 5: a group alone 350-400 ns,
// two in one call 537 ns; runs of 70, 74, 80 and 96 blocks 1.18-1.25x when
// paired so, go test -run '^$' -bench 'Runs/n=(70|74|80|96)/impl=avx512-gfni$'
// ./internal/kernel).
func (k *kern) blocks(src, dst, n reg.Register, unit int) {
	per := blocks * unit // what n counts of a group
	if unit == 0 {
		per = 1
	}
	c.CMPQ(n, operand.U32(groups*per))
	c.JB(operand.LabelRef("last"))
	c.Label("pairs")
	k.body(src, dst, groups, "pairs")
	c.ADDQ(operand.U32(groups*blocks*16), src)
	if dst != nil {
		c.ADDQ(operand.U32(groups*blocks*16), dst)
	}
	if k.mode != nil {
		k.mode.next(groups)
	}
	c.SUBQ(operand.U32(groups*per), n)
	c.CMPQ(n, operand.U32(groups*per))
	c.JAE(operand.LabelRef("pairs"))

	// What is left, less than two groups: one whole group alone, or a
	// last group with fewer, after a whole group or alone.
	c.Label("last")
	c.TESTQ(n, n)
	c.JZ(operand.LabelRef("done"))
	if unit == 0 {
		k.body(src, dst, 1, "single")
		return
	}
	c.CMPQ(n, operand.U32(per))
	c.JNE(operand.LabelRef("masked"))
	k.body(src, dst, 1, "single")
	c.JMP(operand.LabelRef("done"))

	// The last group's blocks or bytes: n, or n less a whole group.
	c.Label("masked")
	m := c.GP64()
	c.MOVQ(n, m)
	c.CMPQ(m, operand.U32(per))
	c.JBE(operand.LabelRef("masks"))
	c.SUBQ(operand.U32(per), m)
	c.Label("masks")
	k.count, k.countBytes = m, unit > 1
	nb := m // the last group's blocks
	if unit > 1 {
		nb = c.GP64()
		c.LEAQ(operand.Mem{Base: m, Disp: 15}, nb)
		c.SHRQ(operand.U8(4), nb)
		lastReg, lastWords := lastBlock(nb)
		k.lastReg = lastReg
		c.MOVQ(lastWords, k.masks.Offset(160))
		bytes := byteMasks(m)
		for r := range 16 {
			c.KMOVQ(bytes(r), k.masks.Offset(32+8*r))
		}
	}
	if !k.bytesOnly {
		for s := range blocks / wordsSet {
			bits := c.GP64()
			setMask(nb, s, bits)
			c.MOVQ(bits, k.masks.Offset(8*s))
		}
	}
	c.CMPQ(n, operand.U32(per))
	c.JB(operand.LabelRef("singletail"))
	k.masked = 2
	k.body(src, dst, groups, "pairtail")
	c.JMP(operand.LabelRef("done"))
	c.Label("singletail")
	k.masked = 1
	k.body(src, dst, 1, "singletail")
	k.masked = 0
}

// loadBlocks returns register r of group g from src, the blocks there are
// in the masked group, zeros for the others.
func (k *kern) loadBlocks(src reg.Register, g, r int) zmm {
	if k.masked == g+1 {
		return k.stretch(g, false).load(src, r, 0, func() reg.OpmaskVirtual { return k.mask(r) }, false)
	}
	x := c.ZMM()
	c.VMOVDQU64(operand.Mem{Base: src, Disp: groupState*g + 64*r}, x)
	return x
}

// loadFirst returns the first register of a body from src: the blocks
// there are, if it is the masked group.
func (k *kern) loadFirst(src reg.Register) zmm {
	return k.loadBlocks(src, 0, 0)
}

// storeBlocks stores x, register r of group g, to dst: the blocks there
// are in the masked group.
func (k *kern) storeBlocks(dst reg.Register, g, r int, x zmm) {
	if k.masked == g+1 {
		k.stretch(g, false).store(x, dst, r, func() reg.OpmaskVirtual { return k.mask(r) }, false)
		return
	}
	c.VMOVDQU64(x, operand.Mem{Base: dst, Disp: groupState*g + 64*r})
}

// xorTail XORs x, register r of group g's whitened key stream in the
// masked group (CTR's and CFB decryption's), into the source and stores it,
// byte by byte, as the last block may be partial; that block's key stream
// goes to *rest after the last register, one VPCOMPRESSQ from the register
// that holds it.
func (k *kern) xorTail(src, dst reg.Register, g, r int, x, white zmm, rest reg.Register) {
	if r == 0 {
		k.kept = c.ZMM()
		c.VPXORD(k.kept, k.kept, k.kept)
		k.tails++
	}
	st := k.stretch(g, false)
	mask := func() reg.OpmaskVirtual { return k.byteMask(r) }
	in := st.load(src, r, 0, mask, true)
	st.holds(r, func() {
		c.VPXORD(white, x, x)
		other := fmt.Sprintf("tail%d_other%d", k.tails, r)
		c.CMPQ(k.lastReg, operand.U8(r))
		c.JNE(operand.LabelRef(other))
		c.VPCOMPRESSQ(x, k.lastWords(), k.kept)
		c.Label(other)
		c.VPXORD(in, x, x)
	})
	st.store(x, dst, r, mask, true)
	if r == 15 {
		c.VMOVDQU64(k.kept.AsX(), operand.Mem{Base: rest})
	}
}

// body emits the encryption or decryption of ng groups of 64 blocks from
// src to dst; its labels end in sfx.
func (k *kern) body(src, dst reg.Register, ng int, sfx string) {
	// Input whitening: k[0..3] in encryption, k[4..7] in decryption; output
	// whitening the other four.
	inW, outW := 0, 4
	if k.dec {
		inW, outW = 4, 0
	}
	for g := range ng {
		k.load(src, g, inW)
	}

	// kp runs over the subkeys, four per turn of the loop: forward from k[8]
	// in encryption, backward from k[36] in decryption.
	kp, end := c.GP64(), c.GP64()
	step := 16
	if k.dec {
		c.LEAQ(k.subkey(36), kp)
		c.LEAQ(k.subkey(4), end)
		step = -16
	} else {
		c.LEAQ(k.subkey(8), kp)
		c.LEAQ(k.subkey(40), end)
	}
	c.Label("rounds_" + sfx)
	// Two half-rounds: words 0, 1 active and 2, 3 updated, then the reverse.
	// Encryption takes the subkeys kp[0], kp[1] then kp[2], kp[3];
	// decryption the reverse pairs.
	k0, k1 := 0, 2
	if k.dec {
		k0, k1 = 2, 0
	}
	nx := make([][2][4]zmm, ng)
	for g := range ng {
		nx[g] = k.halfRound(g, kp, k0, [2]int{0, 1}, [2]int{2, 3}, nil)
	}
	for g := range ng {
		// One group alone reads its active words from the registers that
		// the half-round before computed; with two, the other group's
		// half-round in between leaves no registers to keep them in.
		var prev *[2][4]zmm
		if ng == 1 {
			prev = &nx[g]
		}
		k.halfRound(g, kp, k1, [2]int{2, 3}, [2]int{0, 1}, prev)
	}
	c.ADDQ(operand.I8(int8(step)), kp)
	c.CMPQ(kp, end)
	c.JNE(operand.LabelRef("rounds_" + sfx))

	if k.mode != nil {
		k.mode.stores(src, ng)
	}
	for g := range ng {
		k.store(src, dst, g, outW)
	}
}

// load reads the 64 blocks of group g from src (or has the mode make them,
// wordMaker), whitens them with k[w..w+3] and stores them in word layout in
// the state. The four input registers 4q..4q+3 hold blocks 16q..16q+15,
// block 16q+4r+l in 128-bit lane l of register 4q+r; transpose4 makes lane
// l of register q of each word hold that word of blocks 16q+l, 16q+4+l,
// 16q+8+l and 16q+12+l: 32-bit word 4l+d that of block 16q+4d+l.
func (k *kern) load(src reg.Register, g, w int) {
	white := c.ZMM()
	c.VBROADCASTI32X4(k.subkey(w), white)
	if k.mode != nil {
		k.mode.group(g, white)
	}
	for q := range 4 {
		if m, ok := k.mode.(wordMaker); ok {
			t := m.words(g, q, white)
			for w := range 4 {
				c.VMOVDQA64(t[w], k.slot(g, w, q))
			}
			continue
		}
		var r [4]zmm
		for i := range 4 {
			if m, ok := k.mode.(blockLoader); ok {
				r[i] = m.load(src, g, 4*q+i, white)
				continue
			}
			if k.masked == g+1 {
				r[i] = k.loadBlocks(src, g, 4*q+i)
				c.VPXORD(white, r[i], r[i])
				continue
			}
			r[i] = c.ZMM()
			c.VPXORD(operand.Mem{Base: src, Disp: groupState*g + 64*(4*q+i)}, white, r[i])
		}
		t := transpose4(r)
		for w := range 4 {
			c.VMOVDQA64(t[w], k.slot(g, w, q))
		}
	}
	if k.mode != nil {
		k.mode.endGroup()
	}
}

// store writes group g's state to dst, words 2, 3, 0, 1 in that order,
// whitened with k[w..w+3]: the inverse of load. The fused kernels' modes
// may read src too.
func (k *kern) store(src, dst reg.Register, g, w int) {
	white := c.ZMM()
	c.VBROADCASTI32X4(k.subkey(w), white)
	if k.mode != nil {
		k.mode.group(g, white)
	}
	for q := range 4 {
		var r [4]zmm
		for i, word := range []int{2, 3, 0, 1} {
			r[i] = c.ZMM()
			c.VMOVDQA64(k.slot(g, word, q), r[i])
		}
		t := transpose4(r)
		for i := range 4 {
			if k.mode != nil {
				k.mode.store(src, dst, g, 4*q+i, t[i], white)
				continue
			}
			c.VPXORD(t[i], white, t[i])
			if k.masked == g+1 {
				k.storeBlocks(dst, g, 4*q+i, t[i])
				continue
			}
			c.VMOVDQU64(t[i], operand.Mem{Base: dst, Disp: groupState*g + 64*(4*q+i)})
		}
	}
	if k.mode != nil {
		k.mode.endGroup()
	}
}

// halfRound emits one Feistel round of group g: the g function of the
// active words act (state words, or the registers in prev when they were
// just computed) and the update of the passive words pas, with the subkeys
// K0 = kp[kw] and K1 = kp[kw+1]:
//
//	encryption: p0 = ror(p0 ^ (t0+t1+K0), 1), p1 = rol(p1, 1) ^ (t0+2*t1+K1)
//	decryption: p0 = rol(p0, 1) ^ (t0+t1+K0), p1 = ror(p1 ^ (t0+2*t1+K1), 1)
//
// It stores the updated passive words and returns their registers.
func (k *kern) halfRound(g int, kp reg.Register, kw int, act, pas [2]int, prev *[2][4]zmm) [2][4]zmm {
	var x [2][4]operand.Op
	for a := range 2 {
		for q := range 4 {
			if prev != nil {
				x[a][q] = prev[a][q]
			} else {
				x[a][q] = k.slot(g, act[a], q)
			}
		}
	}
	t0 := k.g(x[0], false)
	t1 := k.g(x[1], true)
	k0 := operand.Mem{Base: kp, Disp: 4 * kw}
	k1 := k0.Offset(4)
	var out [2][4]zmm
	for q := range 4 {
		s, f0, f1 := c.ZMM(), c.ZMM(), c.ZMM()
		c.VPADDD(t1[q], t0[q], s)
		c.VPADDD_BCST(k0, s, f0)
		c.VPADDD(t1[q], s, f1)
		c.VPADDD_BCST(k1, f1, f1)
		p0, p1 := c.ZMM(), c.ZMM()
		if !k.dec {
			c.VPXORD(k.slot(g, pas[0], q), f0, p0)
			c.VPRORD(operand.U8(1), p0, p0)
			c.VPROLD(operand.U8(1), k.slot(g, pas[1], q), p1)
			c.VPXORD(f1, p1, p1)
		} else {
			c.VPROLD(operand.U8(1), k.slot(g, pas[0], q), p0)
			c.VPXORD(f0, p0, p0)
			c.VPXORD(k.slot(g, pas[1], q), f1, p1)
			c.VPRORD(operand.U8(1), p1, p1)
		}
		c.VMOVDQA64(p0, k.slot(g, pas[0], q))
		c.VMOVDQA64(p1, k.slot(g, pas[1], q))
		out[0][q], out[1][q] = p0, p1
	}
	return out
}
