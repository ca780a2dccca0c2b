package twofish

import "errors"

// What the authenticated modes (gcm.go, ocb.go, eax.go) share.

// errOpen is what Open returns when the tag does not match: crypto/cipher's
// GCM error, word for word, since crypto/cipher.NewGCM with a *Cipher
// returns this package's GCM where it returned its own for x/crypto's
// cipher.
var errOpen = errors.New("cipher: message authentication failed")

// sliceForAppend returns in extended by n bytes, reusing in's capacity
// when it suffices, and the n new bytes.
func sliceForAppend(in []byte, n int) (head, tail []byte) {
	if total := len(in) + n; cap(in) >= total {
		head = in[:total]
	} else {
		head = make([]byte, total)
		copy(head, in)
	}
	tail = head[len(in):]
	return
}

// wipeUnverified clears out, the plaintext an Open wrote before it knew
// the tag, unless *verified: deferred, it wipes it on a wrong tag and on a
// panic before the verdict alike, so that no caller that recovers finds
// plaintext no tag vouches for.
func wipeUnverified(out []byte, verified *bool) {
	if !*verified {
		clear(out)
	}
}
