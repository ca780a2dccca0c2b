package twofish

import (
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"math/bits"

	"github.com/twofish-go/twofish/internal/alias"
	"github.com/twofish-go/twofish/internal/ghash"
)

// GCM parameters, as crypto/cipher has them.
const (
	gcmStandardNonceSize = 12
	gcmTagSize           = 16
	gcmMinimumTagSize    = 12 // NIST SP 800-38D recommends tags of 12 or more bytes
	// gcmMaxPlaintext is the longest message: the 32-bit counter has
	// 2^32 - 2 blocks of key stream after the tag mask's.
	gcmMaxPlaintext = (1<<32 - 2) * BlockSize
)

// NewGCM returns b in Galois/Counter Mode (NIST SP 800-38D) with the
// standard 12-byte nonce and 16-byte tag. b must have 16-byte blocks; with a
// *Cipher, the key stream comes from the kernels many blocks at a time.
// GHASH uses carry-less multiplication instructions where the CPU has them
// (PCLMULQDQ, VPCLMULQDQ on amd64, PMULL on arm64) and portable code
// elsewhere; neither looks anything up in a table. The portable code is
// constant-time where integer multiplication is, as on x86, arm64 and
// ARMv7-A cores, but not on some small 32-bit ones (ARM7TDMI, ARM9,
// Cortex-M3), whose multipliers end early on small operands.
//
// crypto/cipher.NewGCM, NewGCMWithNonceSize and NewGCMWithTagSize called
// with a *Cipher return this implementation too, through Cipher.NewGCM.
func NewGCM(b cipher.Block) (cipher.AEAD, error) {
	return newGCM(b, gcmStandardNonceSize, gcmTagSize)
}

// NewGCM returns c in Galois/Counter Mode with the given nonce and tag
// sizes: the nonce must not be empty, and the tag is 12 to 16 bytes.
// crypto/cipher's GCM constructors call it (only use other sizes than 12
// and 16 for compatibility with existing systems, as crypto/cipher says).
func (c *Cipher) NewGCM(nonceSize, tagSize int) (cipher.AEAD, error) {
	return newGCM(c, nonceSize, tagSize)
}

func newGCM(b cipher.Block, nonceSize, tagSize int) (cipher.AEAD, error) {
	if tagSize < gcmMinimumTagSize || tagSize > BlockSize {
		return nil, errors.New("twofish: GCM tag size must be 12 to 16 bytes")
	}
	if nonceSize <= 0 {
		return nil, errors.New("twofish: GCM nonce size must be at least 1 byte")
	}
	blk, ok := newBlocks(b)
	if !ok {
		return nil, errors.New("twofish: NewGCM requires a 128-bit block cipher")
	}
	g := &gcm{b: blk, nonceSize: nonceSize, tagSize: tagSize}
	var h [BlockSize]byte
	blk.encryptOnce(h[:], h[:])
	g.key.Init(&h)
	return g, nil
}

// gcm is read-only after newGCM, so one is safe for concurrent use.
type gcm struct {
	b                  blocks
	nonceSize, tagSize int
	key                ghash.Key
}

func (g *gcm) NonceSize() int { return g.nonceSize }
func (g *gcm) Overhead() int  { return g.tagSize }

func (g *gcm) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	if len(nonce) != g.nonceSize {
		panic("crypto/cipher: incorrect nonce length given to GCM")
	}
	if uint64(len(plaintext)) > gcmMaxPlaintext {
		panic("crypto/cipher: message too large for GCM")
	}
	ret, out := sliceForAppend(dst, len(plaintext)+g.tagSize)
	if alias.InexactOverlap(out, plaintext) {
		panic("crypto/cipher: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, additionalData) {
		panic("crypto/cipher: invalid buffer overlap of output and additional data")
	}

	var counter, tagMask, y [BlockSize]byte
	g.deriveCounter(&counter, nonce)
	ghash.Padded(&g.key, &y, additionalData)
	g.crypt(out[:len(plaintext)], plaintext, &counter, &y, &tagMask, false)
	g.finish(&y, &tagMask, len(additionalData), len(plaintext))
	copy(out[len(plaintext):], y[:g.tagSize])
	return ret
}

func (g *gcm) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	if len(nonce) != g.nonceSize {
		panic("crypto/cipher: incorrect nonce length given to GCM")
	}
	if len(ciphertext) < g.tagSize || uint64(len(ciphertext)) > gcmMaxPlaintext+uint64(g.tagSize) {
		return nil, errOpen
	}
	ret, out := sliceForAppend(dst, len(ciphertext)-g.tagSize)
	if alias.InexactOverlap(out, ciphertext) {
		panic("crypto/cipher: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, additionalData) {
		panic("crypto/cipher: invalid buffer overlap of output and additional data")
	}
	tag := ciphertext[len(ciphertext)-g.tagSize:]
	ciphertext = ciphertext[:len(ciphertext)-g.tagSize]

	var counter, tagMask, y [BlockSize]byte
	g.deriveCounter(&counter, nonce)
	ghash.Padded(&g.key, &y, additionalData)
	// Hash and decrypt in one pass, chunk by chunk while it is in cache,
	// and wipe the plaintext if the tag turns out wrong, as crypto/cipher
	// does, or if a panic (a caller's cipher.Block may panic) leaves Open
	// before the verdict.
	verified := false
	defer wipeUnverified(out, &verified)
	g.crypt(out, ciphertext, &counter, &y, &tagMask, true)
	g.finish(&y, &tagMask, len(additionalData), len(ciphertext))
	if subtle.ConstantTimeCompare(y[:g.tagSize], tag) != 1 { // ctgrind: the verdict
		return nil, errOpen
	}
	verified = true
	return ret, nil
}

// deriveCounter sets counter to the pre-counter block J0 of nonce.
func (g *gcm) deriveCounter(counter *[BlockSize]byte, nonce []byte) {
	if len(nonce) == gcmStandardNonceSize {
		copy(counter[:], nonce)
		counter[BlockSize-1] = 1
		return
	}
	ghash.Padded(&g.key, counter, nonce)
	var lens [BlockSize]byte
	binary.BigEndian.PutUint64(lens[8:], uint64(len(nonce))*8)
	ghash.Blocks(&g.key, counter, lens[:])
}

// gcmBatch is how many bytes of key stream one kernel call makes at most:
// a multiple of every kernel's width.
const gcmBatch = 2048

// gcmFusedBatch is how many bytes at most one call of the fused CTR kernel
// takes before GHASH reads them, while they are in the L1 cache: 8 groups.
const gcmFusedBatch = 8 * fusedBytes

// crypt sets tagMask to the encryption of the counter block J0 and XORs
// src with the key stream that follows it into dst, hashing the ciphertext
// (dst when sealing, src when opening) into y as it goes. GCM's counter is
// the last 32 bits of the block, big-endian, and wraps around alone. The
// tag mask is the first block of the first call that does not go to the
// fused CTR kernel (the blocks after the whole groups that fusedRun gives
// it, or the first batch without that kernel), so that a short message
// costs one kernel call, not two. The key stream goes through a buffer on
// the stack, a short message's a small one, which costs less to zero.
func (g *gcm) crypt(dst, src []byte, j0, y, tagMask *[BlockSize]byte, open bool) {
	if len(src) <= shortBatch {
		var ks [BlockSize + shortBatch]byte
		g.cryptWith(ks[:], dst, src, j0, y, tagMask, open)
		return
	}
	var ks [BlockSize + gcmBatch]byte
	g.cryptWith(ks[:], dst, src, j0, y, tagMask, open)
}

// cryptWith is crypt with the key stream buffer ks, of a block and a
// batch.
func (g *gcm) cryptWith(ks, dst, src []byte, j0, y, tagMask *[BlockSize]byte, open bool) {
	head := binary.LittleEndian.Uint64(j0[:8])
	mid := uint64(binary.LittleEndian.Uint32(j0[8:12]))
	ctr := binary.BigEndian.Uint32(j0[12:]) + 1
	skip := BlockSize // the tag mask's block, in the first key stream batch only
	for skip > 0 || len(src) > 0 {
		if n := g.fusedRun(src, skip); n > 0 {
			if open {
				ghash.Padded(&g.key, y, src[:n])
			}
			c := [2]uint64{binary.BigEndian.Uint64(j0[8:])&^0xFFFFFFFF | uint64(ctr), binary.BigEndian.Uint64(j0[:8])}
			if g.b.c.k.GCMGroups(dst[:n], src[:n], &c) != n {
				// Fused means every whole group goes to the kernel; were
				// one left, Seal in place would leave plaintext in dst.
				panic("twofish: internal error: the fused CTR kernel left blocks of GCM undone")
			}
			ctr += uint32(n / BlockSize)
			if !open {
				ghash.Padded(&g.key, y, dst[:n])
			}
			dst, src = dst[n:], src[n:]
			continue
		}
		n := min(len(src), len(ks)-BlockSize)
		m := skip + (n+BlockSize-1)&^(BlockSize-1)
		copy(ks[:skip], j0[:])
		for i := skip; i < m; i += BlockSize {
			b := (*[BlockSize]byte)(ks[i : i+BlockSize])
			binary.LittleEndian.PutUint64(b[:8], head)
			binary.LittleEndian.PutUint64(b[8:], mid|uint64(bits.ReverseBytes32(ctr))<<32)
			ctr++
		}
		g.b.encryptBlocks(ks[:m], ks[:m])
		k := ks[skip : skip+n]
		if skip > 0 {
			copy(tagMask[:], ks[:BlockSize])
			skip = 0
		}
		if open {
			ghash.Padded(&g.key, y, src[:n])
		}
		subtle.XORBytes(dst[:n], src[:n], k)
		if !open {
			ghash.Padded(&g.key, y, dst[:n])
		}
		dst, src = dst[n:], src[n:]
	}
}

// fusedRun returns how many bytes at the start of src go to the fused CTR
// kernel next, with skip the bytes of the tag mask's block still to come:
// none without that kernel; else the whole groups of gcmFusedBatch bytes at
// most, but for the last of an odd number of them before the end when the
// bulk kernel takes the blocks after it, the tag mask's among them, as a
// group: the key stream's call (g.b.encryptBlocks) then takes the two
// groups together, in one call of the kernels' pairs
// (kernel.Cipher.TakesAsGroup). The counter plays no part: the kernel
// counts as GCM does (kernel.Cipher.GCMGroups), and where a nonce of other
// than 12 bytes makes J0 by GHASH, the counter is a secret that must not
// choose the path.
func (g *gcm) fusedRun(src []byte, skip int) int {
	if g.b.c == nil || !g.b.c.k.Fused() {
		return 0
	}
	n := min(len(src), gcmFusedBatch) &^ (fusedBytes - 1)
	if n == 0 {
		return 0
	}
	if rest := len(src) - n; rest < fusedBytes && n/fusedBytes%2 == 1 && g.b.c.k.TakesAsGroup((skip+rest+BlockSize-1)/BlockSize) {
		n -= fusedBytes
	}
	return n
}

// finish hashes the lengths block into y and masks it into the full tag.
func (g *gcm) finish(y, tagMask *[BlockSize]byte, adLen, ctLen int) {
	var lens [BlockSize]byte
	binary.BigEndian.PutUint64(lens[:8], uint64(adLen)*8)
	binary.BigEndian.PutUint64(lens[8:], uint64(ctLen)*8)
	ghash.Blocks(&g.key, y, lens[:])
	xorBlock(y[:], y[:], tagMask[:])
}
