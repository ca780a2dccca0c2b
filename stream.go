package twofish

import (
	"crypto/subtle"

	"github.com/twofish-go/twofish/internal/alias"
)

// stream is CTR and OFB: a key stream made in batches on the stack of each
// XORKeyStream call, so that a stream for one short message costs one
// small allocation, the stream's own, and the rest of a block that the
// last call ended inside.
type stream struct {
	b blocks
	// ofb selects the key stream: OFB's, each block the encryption of the
	// one before, r the last (ofb.go); else CTR's, the encryption of the
	// 128-bit counter hi, lo (ctr.go).
	ofb    bool
	r      [BlockSize]byte
	hi, lo uint64
	// rest is a block of key stream of which the last left bytes are
	// unused.
	rest [BlockSize]byte
	left int
}

// streamBatch is how many bytes of key stream one batch makes at most, and
// shortBatch the batch of a short message, for which zeroing a whole
// streamBatch on the stack would cost as much as 7% (CTR, 64 bytes, Zen 1).
const (
	streamBatch = 1024
	shortBatch  = 128
)

func (s *stream) XORKeyStream(dst, src []byte) {
	checkStream(dst, src)
	n := subtle.XORBytes(dst, src, s.rest[BlockSize-s.left:])
	s.left -= n
	dst, src = dst[n:], src[n:]
	if !s.ofb && len(src) >= fusedMin {
		n = s.fused(dst, src)
		dst, src = dst[n:], src[n:]
	}
	if len(src) <= shortBatch {
		var buf [shortBatch]byte
		s.xor(dst, src, buf[:])
		return
	}
	var buf [streamBatch]byte
	s.xor(dst, src, buf[:])
}

// xor XORs the key stream into dst from src, made in batches in buf.
func (s *stream) xor(dst, src, buf []byte) {
	for len(src) > 0 {
		// m is src rounded up to whole blocks, at most buf. Only a src
		// shorter than buf is rounded up, so that a length within a
		// block of the largest int (2 GiB on 32-bit platforms) does not
		// overflow into a negative m.
		m := len(buf)
		if len(src) < m {
			m = (len(src) + BlockSize - 1) &^ (BlockSize - 1)
		}
		n := min(len(src), m)
		if s.ofb {
			s.feedback(buf[:m])
		} else {
			s.counters(buf[:m])
		}
		subtle.XORBytes(dst, src[:n], buf[:m])
		if s.left = m - n; s.left > 0 {
			copy(s.rest[:], buf[m-BlockSize:m])
		}
		dst, src = dst[n:], src[n:]
	}
}

// checkStream panics as crypto/cipher's streams do for a short dst or an
// inexact overlap.
func checkStream(dst, src []byte) {
	if len(dst) < len(src) {
		panic("crypto/cipher: output smaller than input")
	}
	if alias.InexactOverlap(dst[:len(src)], src) {
		panic("crypto/cipher: invalid buffer overlap")
	}
}
