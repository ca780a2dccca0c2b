package kernel

import (
	"encoding/binary"
	"math/bits"
	"sync/atomic"
	"unsafe"
)

// Schedule is the expanded key that a Cipher's kernels read: the 40
// whitening and round subkeys, and, in the same allocation, whatever key
// material its plan's kernels need besides (allocate), each at a fixed
// offset from the subkeys, which is part of the assembly kernels' contract:
//
//   - the table kernels' MDS·S-box tables in the 4096 bytes before them
//     (tablesOnly), where New builds them with the subkeys;
//   - avx2-ct's nibble tables at ctOffset, or generic-ct's packed ones
//     (key_ct.go);
//   - or the byte-sliced kernels' S-boxes at slicedOffset.
//
// The last three take the same bytes: no plan needs two of them. The table
// kernels take the Tables and the Schedule as two pointers, so a Cipher
// that builds its tables on use keeps them in a Tables of their own, 4,096
// bytes, beside a Schedule of byte-sliced S-boxes. So a Cipher holds
// exactly what its kernels read, each once: 4,256 bytes for tables alone,
// 1,188 for byte-sliced S-boxes alone (with the count of warm; and 4,096
// for the tables that New builds on use), 1,480 for nibble tables, 568 for
// packed ones; with the Cipher, and rounded up to Go's size classes,
// 4,864, 1,280 (and 4,096), 1,536 and 640 (TestCipherMemory bounds them).
type Schedule struct {
	// k[0:4] whiten the input, k[4:8] the output, and k[8+2r], k[9+2r]
	// are the subkeys of round r.
	k [40]uint32
}

// Tables are the table kernels' key material besides the subkeys, which
// they read from a Schedule.
type Tables struct {
	// s[j][x] is column j of the MDS matrix times key-dependent S-box j
	// applied to x, so that g(X) = s[0][X0] ^ s[1][X1] ^ s[2][X2] ^ s[3][X3].
	s [4][256]uint32
}

// The offsets, from a Schedule, of the key material that follows the
// subkeys: the nibble or packed tables, or the byte-sliced S-boxes, right
// after them. (Aligning the S-boxes to 64 bytes measured no faster: go run
// ./cmd/twofish bench -impl auto -modes ecb, Zen 5.)
const (
	ctOffset     = 160
	slicedOffset = 160
)

// The schedules that allocate holds, one for each set of layouts a plan
// can need; the Schedule's offset in each is 4096 where the tables precede
// it and 0 elsewhere.
type (
	tablesOnly struct {
		_  Tables // the tables, right before the subkeys (Schedule.tables)
		ks Schedule
	}
	tablesSliced struct {
		tablesOnly
		_ [1024]byte // the byte-sliced S-boxes, at slicedOffset
	}
	tablesNibbles struct {
		tablesOnly
		ct ctSchedule
	}
	tablesPacked struct {
		tablesOnly
		_ packedSchedule
	}
	slicedOnly struct {
		ks Schedule
		_  [1024]byte // the byte-sliced S-boxes, at slicedOffset
		// warm counts the blocks that the bulk kernel's ladder served
		// in place of table kernels whose tables are not built yet
		// (Cipher.tablesFor), in bytes that the Cipher's size class
		// leaves free.
		warm atomic.Uint32
	}
	nibblesOnly struct {
		ks Schedule
		ct ctSchedule
	}
	packedOnly struct {
		ks Schedule
		_  packedSchedule
	}
)

// allocate returns a zero H and a zero Schedule with room for the layouts
// l (layoutSet), the tables and at most one other, in one allocation.
func allocate[H any](l layoutSet) (*H, *Schedule) {
	switch l {
	case 1 << tablesLayout:
		return allocateWith[H, tablesOnly]()
	case 1<<tablesLayout | 1<<slicedLayout:
		return allocateWith[H, tablesSliced]()
	case 1<<tablesLayout | 1<<nibblesLayout:
		return allocateWith[H, tablesNibbles]()
	case 1<<tablesLayout | 1<<packedLayout:
		return allocateWith[H, tablesPacked]()
	case 1 << slicedLayout:
		return allocateWith[H, slicedOnly]()
	case 1 << nibblesLayout:
		return allocateWith[H, nibblesOnly]()
	case 1 << packedLayout:
		return allocateWith[H, packedOnly]()
	}
	panic("twofish: no schedule holds the key material of more than one constant-time layout")
}

// allocateWith returns a zero H and the Schedule of a zero T after it, in
// one allocation.
func allocateWith[H, T any, PT interface {
	*T
	schedule() *Schedule
}]() (*H, *Schedule) {
	x := new(struct {
		h H
		t T
	})
	return &x.h, PT(&x.t).schedule()
}

func (t *tablesOnly) schedule() *Schedule  { return &t.ks }
func (t *slicedOnly) schedule() *Schedule  { return &t.ks }
func (t *nibblesOnly) schedule() *Schedule { return &t.ks }
func (t *packedOnly) schedule() *Schedule  { return &t.ks }

// tables returns the tables before ks, which must have been allocated
// with the tables layout.
func (ks *Schedule) tables() *Tables {
	return (*Tables)(unsafe.Add(unsafe.Pointer(ks), -int(unsafe.Offsetof(tablesOnly{}.ks))))
}

// nibbles returns the nibble tables of ks, which must have been allocated
// with the nibbles layout.
func (ks *Schedule) nibbles() *ctSchedule {
	return (*ctSchedule)(unsafe.Add(unsafe.Pointer(ks), ctOffset))
}

// packed returns the packed tables of ks, which must have been allocated
// with the packed layout.
func (ks *Schedule) packed() *packedSchedule {
	return (*packedSchedule)(unsafe.Add(unsafe.Pointer(ks), ctOffset))
}

// warm returns the count of slicedOnly, which ks must have been allocated
// as.
func (ks *Schedule) warm() *atomic.Uint32 {
	return (*atomic.Uint32)(unsafe.Add(unsafe.Pointer(ks), unsafe.Offsetof(slicedOnly{}.warm)))
}

// sliced returns the byte-sliced S-boxes of ks, S-box j (before the MDS
// multiply) at bytes 256j..256j+255 in memory order, which the byte-sliced
// kernels read at slicedOffset; ks must have been allocated with the
// sliced layout.
func (ks *Schedule) sliced() *[256]uint32 {
	return (*[256]uint32)(unsafe.Add(unsafe.Pointer(ks), slicedOffset))
}

// fromSliced sets t to the tables of the byte-sliced S-boxes of src
// (tablesFromSliced, or its vector form where the CPU has one). It is how
// a Cipher builds its tables on use (Cipher.tablesFor), without the key.
func (t *Tables) fromSliced(src *Schedule) {
	if !tablesVector(&t.s, src.sliced()) {
		tablesFromSliced(&t.s, src.sliced())
	}
}

// tablesFromSliced sets s[j][x] to MDS column j times byte x of S-box j
// of the byte-sliced S-boxes y, which hold it in byte x%4 of their
// little-endian word 64j+x/4 (slicedSbox), whatever the machine's byte
// order.
func tablesFromSliced(s *[4][256]uint32, y *[256]uint32) {
	for j := range 4 {
		col, d := &mdsCols[j], &s[j]
		for i, w := range y[64*j : 64*j+64] {
			d[4*i&255] = col[byte(w)]
			d[(4*i+1)&255] = col[byte(w>>8)]
			d[(4*i+2)&255] = col[byte(w>>16)]
			d[(4*i+3)&255] = col[byte(w>>24)]
		}
	}
}

// qLevel[m][j] is the permutation that byte j of the h function passes
// through at the level that XORs in key word L[m] (section 4.3.2), and
// qLast[j] the last one, which mdsq[j] folds into the MDS column.
var (
	qLevel = [4][4]*[256]byte{
		{&q0, &q0, &q1, &q1},
		{&q0, &q1, &q0, &q1},
		{&q1, &q1, &q0, &q0},
		{&q1, &q0, &q0, &q1},
	}
	qLast = [4]*[256]byte{&q1, &q0, &q1, &q0}
)

// The table schedule, for the table kernels: the h function evaluated by
// looking q0, q1 and mdsq up at key-dependent indexes, which is what
// those kernels do with every block anyway. One pass computes the 1024
// entries of the four S-boxes with the levels of each key length written
// out (sboxes2, sboxes3, sboxes4), and can store the S-box bytes before
// the MDS multiply beside them, which are the byte-sliced kernels'
// S-boxes (key_avx512.go): a plan that mixes both layouts pays for one
// pass, not two. Where the CPU has AVX-512 VBMI, Init takes the vector
// schedule instead (key_avx512_amd64.go), which fills both layouts in
// constant time, 8.5x to 9.4x faster than this pass (0.20-0.28 us a key
// against 1.8-2.4 us; go test -run '^$' -bench Expand ./internal/kernel,
// medians of 3 runs, Zen 5). Where it has AVX2 only, expand takes the AVX2
// schedule of the tables (key_avx2_amd64.go), constant-time too, 4.7x to
// 6.5x faster (0.24-0.45 us against 1.5-2.1 us, Zen 5).

// expandTables computes the table kernels' schedule of a 16, 24 or 32-byte
// key (section 4.3) into ks, and if sliced also the byte-sliced kernels'
// S-boxes (as expandSliced does, but with key-indexed look-ups); ks must
// have the layouts.
func (ks *Schedule) expandTables(key []byte, sliced bool) {
	w := splitKey(key)
	ks.k = subkeys(w)
	s := &ks.tables().s
	var y [256]byte
	for j := range 4 {
		c := newByteChain(j, &w.sv, w.k)
		c.run(y[:])
		mq := c.mq
		for x := range y {
			s[j][x] = mq[y[x]]
		}
		if sliced {
			// Little-endian words: byte x of S-box j at byte 256j+x.
			last, d := c.last, ks.sliced()[64*j:64*j+64]
			for i := range d {
				d[i] = uint32(last[y[4*i]]) | uint32(last[y[4*i+1]])<<8 |
					uint32(last[y[4*i+2]])<<16 | uint32(last[y[4*i+3]])<<24
			}
		}
	}
}

// A byteChain is byte j of the h function for the key words l: the
// permutation q[m] of each level m, the key byte b[m] that follows it,
// and the last permutation with (mq) and without (last) the MDS column.
type byteChain struct {
	q    [4]*[256]byte
	b    [4]byte
	last *[256]byte
	mq   *[256]uint32
	k    int // levels: 2, 3 or 4
}

func newByteChain(j int, l *[4]uint32, k int) byteChain {
	c := byteChain{last: qLast[j], mq: &mdsq[j], k: k}
	for m := range 4 {
		c.q[m], c.b[m] = qLevel[m][j], byte(l[m]>>(8*j))
	}
	return c
}

// run sets y[x] to the byte chain on x up to the last permutation, for x
// = 0..len(y)-1. The loop of each key length has its levels written out,
// and reads the tables as slices of length 256 indexed by bytes, which
// need neither bounds nor nil checks.
func (c *byteChain) run(y []byte) {
	qa, qb, qc, qd := c.q[0][:], c.q[1][:], c.q[2][:], c.q[3][:]
	b0, b1, b2, b3 := c.b[0], c.b[1], c.b[2], c.b[3]
	switch c.k {
	case 2:
		for x := range y {
			y[x] = qa[qb[byte(x)]^b1] ^ b0
		}
	case 3:
		for x := range y {
			y[x] = qa[qb[qc[byte(x)]^b2]^b1] ^ b0
		}
	default:
		for x := range y {
			y[x] = qa[qb[qc[qd[byte(x)]^b3]^b2]^b1] ^ b0
		}
	}
}

// subkeys returns the 40 subkeys of the key words w, with hMe(x) = h(x,
// Me) and hMo(x) = h(x, Mo): A_i = hMe(2iρ), B_i = rol(hMo((2i+1)ρ), 8),
// K_2i = A_i + B_i, K_2i+1 = rol(A_i + 2B_i, 9) (section 4.3). With x = nρ
// every byte of x is n.
func subkeys(w keyWords) (k [40]uint32) {
	var a, b [20]uint32
	var ye, yo [40]byte
	for j := range 4 {
		ce, co := newByteChain(j, &w.me, w.k), newByteChain(j, &w.mo, w.k)
		ce.run(ye[:])
		co.run(yo[:])
		mq := ce.mq
		for i := range 20 {
			a[i] ^= mq[ye[2*i]]
			b[i] ^= mq[yo[2*i+1]]
		}
	}
	return combineSubkeys(&a, &b)
}

// combineSubkeys returns the subkeys of A_i = hMe(2iρ) and hMo((2i+1)ρ)
// (b, before its rotation).
func combineSubkeys(a, b *[20]uint32) (k [40]uint32) {
	for i := range 20 {
		bi := bits.RotateLeft32(b[i], 8)
		k[2*i] = a[i] + bi
		k[2*i+1] = bits.RotateLeft32(a[i]+2*bi, 9)
	}
	return k
}

// keyWords are the words of a key that section 4.3 derives everything
// from: the even words Me, the odd words Mo and the S vector, each k long.
type keyWords struct {
	me, mo, sv [4]uint32
	k          int // the key's length in 64-bit words: 2, 3 or 4
}

// splitKey returns the words of a 16, 24 or 32-byte key. The S vector is
// in the order the h function uses it: L[0] = S_{k-1}. It takes the same
// time for every key.
func splitKey(key []byte) keyWords {
	w := keyWords{k: len(key) / 8}
	for i := range w.k {
		m := binary.LittleEndian.Uint64(key[8*i:])
		w.me[i], w.mo[i] = uint32(m), uint32(m>>32)
		w.sv[w.k-1-i] = rsMultiply(m)
	}
	return w
}

// rsMultiply returns the RS matrix times the eight key bytes of m (byte c
// in bits 8c to 8c+7), as a little-endian word. The product is linear
// over GF(2): bit r of it is the parity of the key bits that rsRows[r]
// selects. It takes the same time for every key.
func rsMultiply(m uint64) uint32 {
	var w uint32
	for r, row := range &rsRows {
		w |= uint32(bits.OnesCount64(m&row)&1) << r
	}
	return w
}

// rsRows[8i+t] selects the key bits that bit t of byte i of the RS
// product adds up: bit 8c+u where rs[i][c]·2^u has bit t set.
var rsRows = func() (rows [32]uint64) {
	for i := range 4 {
		for c := range 8 {
			for u := range 8 {
				p := gfMul(rs[i][c], byte(1)<<u, rsPoly)
				for t := range 8 {
					rows[8*i+t] |= uint64(p>>t&1) << (8*c + u)
				}
			}
		}
	}
	return rows
}()
