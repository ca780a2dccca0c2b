package twofish

import (
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"math/bits"
	"sync/atomic"

	"github.com/twofish-go/twofish/internal/alias"
	"github.com/twofish-go/twofish/internal/kernel"
)

// NewOCB returns b in OCB mode (RFC 7253, OCB3) with nonces of nonceSize
// bytes (1 to 15; RFC 7253 recommends 12) and tags of tagSize bytes (8 to
// 16). b must have 16-byte blocks. With a *Cipher, the offsets of up to
// 512 blocks (8 KiB) are computed ahead and the blocks go to the kernels
// together, as libgcrypt does; OpenPGP (RFC 9580) uses OCB with 15-byte
// nonces and 16-byte tags.
func NewOCB(b cipher.Block, nonceSize, tagSize int) (cipher.AEAD, error) {
	// An empty nonce with 16-byte tags would make the nonce block with its
	// last six bits cleared all zeros, so that Ktop is L_*, the encryption
	// of the zero block, which OCB uses elsewhere as a secret offset; it
	// would also break ktopCache's rule that no nonce block is zero.
	if nonceSize < 1 || nonceSize > 15 {
		return nil, errors.New("twofish: OCB nonce size must be 1 to 15 bytes")
	}
	if tagSize < 8 || tagSize > BlockSize {
		return nil, errors.New("twofish: OCB tag size must be 8 to 16 bytes")
	}
	blk, ok := newBlocks(b)
	if !ok {
		return nil, errors.New("twofish: NewOCB requires a 128-bit block cipher")
	}
	o := &ocb{b: blk, nonceSize: nonceSize, tagSize: tagSize}
	var l [BlockSize]byte
	blk.encryptOnce(l[:], l[:])
	lStar := loadFE(l[:])
	lDollar := lStar.double()
	o.lStar, o.lDollar = ocbBlockOf(lStar), ocbBlockOf(lDollar)
	li := lDollar
	for i := range o.l {
		li = li.double()
		o.l[i] = ocbBlockOf(li)
	}
	var t ocbBlock
	for k := range o.t {
		t.xor(o.l[bits.TrailingZeros(uint(k+1))])
		t.put(o.t[k][:])
	}
	return o, nil
}

// ocbBlock is a block as two little-endian words, the order in which the
// bulk loops load and store them: XOR does not care which order it is, and
// only doubling and the nonce's stretch read blocks as numbers (fe).
type ocbBlock [2]uint64

func ocbBlockOf(a fe) ocbBlock {
	return ocbBlock{bits.ReverseBytes64(a.hi), bits.ReverseBytes64(a.lo)}
}

func loadOCB(b []byte) ocbBlock {
	return ocbBlock{binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])}
}

func (a *ocbBlock) put(b []byte) {
	binary.LittleEndian.PutUint64(b, a[0])
	binary.LittleEndian.PutUint64(b[8:], a[1])
}

func (a *ocbBlock) xor(b ocbBlock) {
	a[0] ^= b[0]
	a[1] ^= b[1]
}

// double returns 2·a in GF(2^128) as OCB and CMAC define it: a left shift
// of the big-endian number, reduced by x^128 + x^7 + x^2 + x + 1 (0x87).
func (a fe) double() fe {
	carry := -(a.hi >> 63)
	return fe{a.hi<<1 | a.lo>>63, a.lo<<1 ^ 0x87&carry}
}

// ocb is read-only after NewOCB but for ktop, a cache safe for concurrent
// use without locks (ktopCache), so one is safe for concurrent use.
type ocb struct {
	b                  blocks
	nonceSize, tagSize int
	lStar, lDollar     ocbBlock
	// l[i] is L_i: block number j (from 1) changes the offset by
	// l[ntz(j)], and j < 2^64.
	l [64]ocbBlock
	// t[k] is l[ntz(1)] ^ ... ^ l[ntz(k+1)]: within a group of 64 blocks
	// that starts after a multiple of 64, block k's offset is the
	// group's base offset ^ t[k], except that the last block of the
	// group has l[ntz] of the group's number in place of l[6].
	t [ocbGroup][BlockSize]byte
	// ktop is the last nonce block encrypted, and its encryption.
	ktop ktopCache
}

// ktopCache remembers one nonce block (its last six bits cleared) and its
// encryption, Ktop, for concurrent use without locks or allocation: a
// writer makes seq odd while it stores the words, and a reader uses what
// it read only if seq was even and unchanged around its reads. A reader
// that meets a writer, and a writer that meets another, simply go
// without the cache.
type ktopCache struct {
	seq atomic.Uint64
	w   [4]atomic.Uint64 // the nonce block, then Ktop
}

// get returns the Ktop of the nonce block n if the cache holds it. A nonce
// block is never zero, so the empty cache matches none.
func (c *ktopCache) get(n *[BlockSize]byte) (fe, bool) {
	s := c.seq.Load()
	n0, n1 := c.w[0].Load(), c.w[1].Load()
	if ktopReadHook != nil {
		ktopReadHook()
	}
	k := fe{c.w[2].Load(), c.w[3].Load()}
	if s&1 != 0 || c.seq.Load() != s {
		return fe{}, false
	}
	return k, n0 == binary.BigEndian.Uint64(n[:8]) && n1 == binary.BigEndian.Uint64(n[8:])
}

// ktopReadHook, where a test sets it, is called by a get between its reads
// of the nonce block's words and of Ktop's, where a put by another
// goroutine would leave it one block's words with another's Ktop: a test
// can put a block there every time, which the concurrent tests do only
// now and then. It is nil otherwise, and get is not inlined either way.
var ktopReadHook func()

// put stores the nonce block n and its Ktop k, unless another writer is
// at work.
func (c *ktopCache) put(n *[BlockSize]byte, k fe) {
	s := c.seq.Load()
	if s&1 != 0 || !c.seq.CompareAndSwap(s, s+1) {
		return
	}
	c.w[0].Store(binary.BigEndian.Uint64(n[:8]))
	c.w[1].Store(binary.BigEndian.Uint64(n[8:]))
	c.w[2].Store(k.hi)
	c.w[3].Store(k.lo)
	c.seq.Store(s + 2)
}

// ocbGroup is how many blocks share a base offset (see ocb.t).
const ocbGroup = kernel.OCBGroup

func (o *ocb) NonceSize() int { return o.nonceSize }
func (o *ocb) Overhead() int  { return o.tagSize }

func (o *ocb) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	if len(nonce) != o.nonceSize {
		panic("crypto/cipher: incorrect nonce length given to OCB")
	}
	ret, out := sliceForAppend(dst, len(plaintext)+o.tagSize)
	if alias.InexactOverlap(out, plaintext) {
		panic("crypto/cipher: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, additionalData) {
		panic("crypto/cipher: invalid buffer overlap of output and additional data")
	}
	tag := o.seal(out[:len(plaintext)], plaintext, nonce, additionalData)
	copy(out[len(plaintext):], tag[:o.tagSize])
	return ret
}

func (o *ocb) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	if len(nonce) != o.nonceSize {
		panic("crypto/cipher: incorrect nonce length given to OCB")
	}
	if len(ciphertext) < o.tagSize {
		return nil, errOpen
	}
	ret, out := sliceForAppend(dst, len(ciphertext)-o.tagSize)
	if alias.InexactOverlap(out, ciphertext) {
		panic("crypto/cipher: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, additionalData) {
		panic("crypto/cipher: invalid buffer overlap of output and additional data")
	}
	tag := ciphertext[len(ciphertext)-o.tagSize:]
	// OCB must decrypt to know the checksum: wipe what it wrote if the tag
	// turns out wrong, or if a panic (a caller's cipher.Block may panic)
	// leaves Open before the verdict.
	verified := false
	defer wipeUnverified(out, &verified)
	if !o.open(out, ciphertext[:len(ciphertext)-o.tagSize], nonce, additionalData, tag) { // ctgrind: the verdict
		return nil, errOpen
	}
	verified = true
	return ret, nil
}

// initialOffset returns Offset_0 of RFC 7253, section 4.2: the encrypted
// nonce block (Ktop), stretched and shifted by its own last six bits.
// Nonces that differ only in their last six bits share Ktop, and o.ktop
// remembers the last one, as RFC 7253 suggests: counter nonces then cost
// one block encryption in 64 messages, not one in each.
func (o *ocb) initialOffset(nonce []byte) ocbBlock {
	var n [BlockSize]byte
	n[0] = byte(o.tagSize * 8 % 128 << 1)
	n[BlockSize-1-len(nonce)] |= 1
	copy(n[BlockSize-len(nonce):], nonce)
	bottom := uint(n[BlockSize-1] & 63)
	n[BlockSize-1] &^= 63
	k, ok := o.ktop.get(&n)
	if !ok {
		in := n
		o.b.encryptOnce(n[:], n[:])
		k = loadFE(n[:])
		o.ktop.put(&in, k)
	}
	s := k.hi ^ (k.hi<<8 | k.lo>>56)
	// Stretch = Ktop || s; Offset_0 is its bits bottom to bottom+127.
	// (A shift by 64 gives 0 in Go, as bottom = 0 needs.)
	return ocbBlockOf(fe{k.hi<<bottom | k.lo>>(64-bottom), k.lo<<bottom | s>>(64-bottom)})
}

// ocbBatch is how many bytes of blocks go to the kernels at once: a
// multiple of every kernel's width, and of the offset groups. The message
// is whitened in place in dst, so a batch costs no stack, and a large one
// saves kernel calls, which cost the wide constant-time kernels dearly.
// The associated data goes through a buffer of ocbHashBatch bytes (where
// kernels apply the offsets, only what they leave of a batch of ocbBatch
// bytes, a few blocks), with room for two blocks that ride along: a
// partial last block of it, and the pad of a partial last block of a
// ciphertext.
const (
	ocbBatch     = kernel.OCBBatch
	ocbHashBatch = 2 * ocbGroup * BlockSize
)

// crypt encrypts or decrypts a batch of blocks (at most ocbBatch bytes,
// starting with a group) from src into dst, which may be src, with the
// offsets after *off, as offsets computes them, and adds the plaintext to
// the checksum sum: the blocks that kernels which apply the offsets take
// (kernel.Cipher.OCBGroups), and the rest with passes of OCBMask around the
// block cipher.
func (o *ocb) crypt(dst, src []byte, off *ocbBlock, g *uint64, sum *[BlockSize]byte, offs *kernel.OCBOffsets, dec bool) {
	o.offsets(len(src), off, g, offs)
	if o.b.c != nil {
		n := o.b.c.k.OCBGroups(dst, src, &o.t, offs, sum, dec)
		if n == len(src) {
			return
		}
		skipGroups(offs, n)
		dst, src = dst[n:], src[n:]
	}
	if dec {
		kernel.OCBMask(dst, src, &o.t, offs, sum, kernel.OCBWhiten)
		o.b.decryptBlocks(dst, dst)
		kernel.OCBMask(dst, dst, &o.t, offs, sum, kernel.OCBSumDst)
		return
	}
	// The checksum reads the plaintext before dst overwrites it in place.
	kernel.OCBMask(dst, src, &o.t, offs, sum, kernel.OCBSumSrc)
	o.b.encryptBlocks(dst, dst)
	kernel.OCBMask(dst, dst, &o.t, offs, sum, kernel.OCBWhiten)
}

// skipGroups drops from offs the groups of the first n bytes of a batch,
// which the kernels did: what they leave starts at a group, and its offsets
// are those of the groups after theirs.
func skipGroups(offs *kernel.OCBOffsets, n int) {
	k := n / (ocbGroup * BlockSize)
	copy(offs.Base[:], offs.Base[k:])
	copy(offs.Fix[:], offs.Fix[k:])
}

// offsets computes the offsets of a batch of size bytes of blocks into
// offs, starting from the offset *off of the block before them, and
// advances *off and the count *g of whole groups.
func (o *ocb) offsets(size int, off *ocbBlock, g *uint64, offs *kernel.OCBOffsets) {
	// Words in locals: Go would otherwise move the blocks through memory
	// in halves of different widths, which the CPU cannot forward.
	le := binary.LittleEndian
	o0, o1 := off[0], off[1]
	for j := 0; j < size; j += ocbGroup * BlockSize {
		i := j / (ocbGroup * BlockSize)
		le.PutUint64(offs.Base[i][:], o0)
		le.PutUint64(offs.Base[i][8:], o1)
		n := min(size-j, ocbGroup*BlockSize) / BlockSize
		t := &o.t[n-1]
		o0 ^= le.Uint64(t[:])
		o1 ^= le.Uint64(t[8:])
		if n == ocbGroup {
			*g++
			fix := o.groupFix(*g)
			le.PutUint64(offs.Fix[i][:], fix[0])
			le.PutUint64(offs.Fix[i][8:], fix[1])
			o0 ^= fix[0]
			o1 ^= fix[1]
		}
	}
	off[0], off[1] = o0, o1
}

// groupFix is what the last block of group number g (from 1) needs XORed
// in besides t[63]: l[6] ^ l[ntz(64g)], zero for odd g.
func (o *ocb) groupFix(g uint64) ocbBlock {
	a, b := &o.l[6], &o.l[(6+bits.TrailingZeros64(g))&63]
	return ocbBlock{a[0] ^ b[0], a[1] ^ b[1]}
}

// checksum XORs the whole blocks of b into sum.
func checksum(sum *ocbBlock, b []byte) {
	s0, s1, t0, t1 := sum[0], sum[1], uint64(0), uint64(0)
	le := binary.LittleEndian
	for ; len(b) >= 2*BlockSize; b = b[2*BlockSize:] {
		s0 ^= le.Uint64(b)
		s1 ^= le.Uint64(b[8:])
		t0 ^= le.Uint64(b[16:])
		t1 ^= le.Uint64(b[24:])
	}
	if len(b) >= BlockSize {
		s0 ^= le.Uint64(b)
		s1 ^= le.Uint64(b[8:])
	}
	sum[0], sum[1] = s0^t0, s1^t1
}

// seal encrypts src into dst, which is as long, and returns the full tag
// (RFC 7253, section 4.2). The blocks are whitened in place in dst.
func (o *ocb) seal(dst, src, nonce, ad []byte) (tag [BlockSize]byte) {
	var sum [BlockSize]byte
	var offs kernel.OCBOffsets
	var g uint64
	off := o.initialOffset(nonce)
	whole := len(src) &^ (BlockSize - 1)
	// k moves on by the batch just done, so that it stops at whole:
	// k += ocbBatch would overflow an int past the last batch of a
	// message within a batch of its largest value (2 GiB on 32-bit
	// platforms), and go on with a negative k.
	for k, n := 0, 0; k < whole; k += n {
		n = min(whole-k, ocbBatch)
		o.crypt(dst[k:k+n], src[k:k+n], &off, &g, &sum, &offs, false)
	}
	// The partial block's pad and the tag, in one call.
	var last [2 * BlockSize]byte
	m := 0
	r := len(src) - whole
	if r > 0 {
		off.xor(o.lStar)
		off.put(last[:])
		m = BlockSize
		var p [BlockSize]byte
		copy(p[:], src[whole:])
		p[r] = 0x80
		subtle.XORBytes(sum[:], sum[:], p[:])
	}
	t := loadOCB(sum[:])
	t.xor(off)
	t.xor(o.lDollar)
	t.put(last[m:])
	o.b.encryptBlocks(last[:m+BlockSize], last[:m+BlockSize])
	if r > 0 {
		subtle.XORBytes(dst[whole:], src[whole:], last[:r])
	}
	h := o.hash(ad, nil)
	subtle.XORBytes(tag[:], last[m:m+BlockSize], h[:])
	return tag
}

// open decrypts src into dst, which is as long, and reports whether tag is
// right (RFC 7253, section 4.3). The blocks are whitened in place in dst.
func (o *ocb) open(dst, src, nonce, ad, tag []byte) bool {
	var sum [BlockSize]byte
	var offs kernel.OCBOffsets
	var g uint64
	off := o.initialOffset(nonce)
	whole := len(src) &^ (BlockSize - 1)
	r := len(src) - whole
	// The pad of a partial last block depends only on the offsets: it is
	// encrypted along with the associated data.
	var pad [BlockSize]byte
	padp := (*[BlockSize]byte)(nil)
	if r > 0 {
		last := o.offsetAfter(off, uint64(whole/BlockSize))
		last.xor(o.lStar)
		last.put(pad[:])
		padp = &pad
	}
	h := o.hash(ad, padp)
	for k, n := 0, 0; k < whole; k += n { // k += n: see seal
		n = min(whole-k, ocbBatch)
		o.crypt(dst[k:k+n], src[k:k+n], &off, &g, &sum, &offs, true)
	}
	if r > 0 {
		off.xor(o.lStar)
		var p [BlockSize]byte
		subtle.XORBytes(p[:r], src[whole:], pad[:r])
		copy(dst[whole:], p[:r])
		p[r] = 0x80
		subtle.XORBytes(sum[:], sum[:], p[:])
	}
	x := loadOCB(sum[:])
	x.xor(off)
	x.xor(o.lDollar)
	x.put(sum[:])
	o.b.encryptOnce(sum[:], sum[:])
	subtle.XORBytes(sum[:], sum[:], h[:])
	return subtle.ConstantTimeCompare(sum[:o.tagSize], tag) == 1
}

// offsetAfter returns the offset of block m (from 1), given off, the
// offset of block 0.
func (o *ocb) offsetAfter(off ocbBlock, m uint64) ocbBlock {
	for g := uint64(1); g <= m/ocbGroup; g++ {
		off.xor(loadOCB(o.t[ocbGroup-1][:]))
		off.xor(o.groupFix(g))
	}
	if k := m % ocbGroup; k > 0 {
		off.xor(loadOCB(o.t[k-1][:]))
	}
	return off
}

// hash is HASH(K, A) of RFC 7253, section 4.1. If extra is not nil, it
// encrypts that block in place too, in the same kernel call as the last
// blocks of A. Where kernels apply the offsets themselves
// (kernel.Cipher.OCBHash), they take batches of ocbBatch bytes in place,
// and the few blocks they leave of a batch go through buf: whitened there
// in a pass, then encrypted and added up. A partial last block goes to
// them too, as a whole block after the others (lastAsWhole), where they
// take the whole last batch and buf holds it: copying that batch into buf
// costs less than the kernel call of its own that the partial block takes
// otherwise (short ones, which the kernels leave to the block cipher, go
// there with the partial block as before).
func (o *ocb) hash(ad []byte, extra *[BlockSize]byte) (sum [BlockSize]byte) {
	if len(ad) == 0 && extra == nil {
		return sum
	}
	var buf [ocbHashBatch + 2*BlockSize]byte
	var s, off ocbBlock
	var offs kernel.OCBOffsets
	var g uint64
	var unused, kernelSum [BlockSize]byte
	batch := ocbHashBatch
	if o.b.c != nil && o.b.c.k.Fused() {
		batch = ocbBatch
	}
	whole := len(ad) &^ (BlockSize - 1)
	r := len(ad) - whole
	for k := 0; ; {
		n := min(whole-k, batch)
		a := ad[k : k+n]
		k += n
		// The blocks left to whiten go to buf[lo:hi], or are whitened in
		// place where a lies in buf.
		lo := 0
		m := n/BlockSize + 1
		inBuf := k == whole && r > 0 && n+BlockSize <= ocbHashBatch && o.b.c != nil && o.b.c.k.OCBTakes(m) == m
		if inBuf {
			copy(buf[:], a)
			o.lastAsWhole(buf[n:n+BlockSize], ad[whole:], uint64(whole/BlockSize)+1)
			n += BlockSize
			a = buf[:n]
		}
		o.offsets(n, &off, &g, &offs)
		if o.b.c != nil {
			if d := o.b.c.k.OCBHash(a, &o.t, &offs, &kernelSum); d > 0 {
				skipGroups(&offs, d)
				a = a[d:]
				if inBuf {
					lo = d
				}
			}
		}
		hi := lo + len(a)
		kernel.OCBMask(buf[lo:hi], a, &o.t, &offs, &unused, kernel.OCBWhiten)
		if k < whole {
			o.b.encryptBlocks(buf[lo:hi], buf[lo:hi])
			checksum(&s, buf[lo:hi])
			continue
		}
		if r > 0 && !inBuf {
			off.xor(o.lStar)
			x := padOCB(ad[whole:])
			x.xor(off)
			x.put(buf[hi:])
			hi += BlockSize
		}
		e := hi
		if extra != nil {
			copy(buf[hi:], extra[:])
			e += BlockSize
		}
		o.b.encryptBlocks(buf[lo:e], buf[lo:e])
		checksum(&s, buf[lo:hi])
		if extra != nil {
			copy(extra[:], buf[hi:])
		}
		s.xor(loadOCB(kernelSum[:]))
		s.put(sum[:])
		return sum
	}
}

// lastAsWhole writes to dst the partial last block p of A, padded, as
// block j = m+1 of A would be: its offset Offset_m ^ L_*, and the kernels
// XOR Offset_m ^ L_ntz(j) into block j, so dst holds the padded block ^
// L_* ^ L_ntz(j).
func (o *ocb) lastAsWhole(dst, p []byte, j uint64) {
	x := padOCB(p)
	x.xor(o.lStar)
	x.xor(o.l[bits.TrailingZeros64(j)])
	x.put(dst)
}

// padOCB returns the partial block p padded: p, a one bit, zeros.
func padOCB(p []byte) ocbBlock {
	var b [BlockSize]byte
	copy(b[:], p)
	b[len(p)] = 0x80
	return loadOCB(b[:])
}
