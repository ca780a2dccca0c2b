package main

import (
	"crypto/cipher"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/twofish-go/twofish"
)

// The authenticated modes of enc and dec, gcm and ocb, take the whole input
// as one message: the output is the ciphertext followed by a 16-byte tag,
// as crypto/cipher's Seal and libgcrypt make it, and dec checks the tag
// before it writes a byte. A message is held in memory, so its size is
// bounded; splitting a larger input into messages is a format question
// (OpenPGP's chunked AEAD, for one) that this tool does not answer.

// maxAEADSize is the largest input gcm and ocb take (tests lower it).
var maxAEADSize = 256 << 20

// aeadTagSize is the length of the tag that enc appends.
const aeadTagSize = 16

// aeadNonceSize is the nonce length enc makes up when it has no -iv.
const aeadNonceSize = 12

// isAEAD reports whether mode is one of the authenticated modes.
func isAEAD(mode string) bool { return mode == "gcm" || mode == "ocb" }

// ivSize is the length of the IV that enc makes up for mode.
func ivSize(mode string) int {
	if isAEAD(mode) {
		return aeadNonceSize
	}
	return twofish.BlockSize
}

// checkIVSize checks the length n of an -iv for mode: 16 bytes, or for gcm
// a nonce of 1 to 64 bytes and for ocb of 1 to 15 (RFC 7253).
func checkIVSize(mode string, n int) error {
	switch {
	case mode == "gcm" && (n < 1 || n > 64):
		return usagef("-iv is %s; gcm takes a nonce of 1 to 64 bytes (12 is standard)", plural(n, "byte"))
	case mode == "ocb" && (n < 1 || n > 15):
		return usagef("-iv is %s; ocb takes a nonce of 1 to 15 bytes (12 is usual)", plural(n, "byte"))
	case !isAEAD(mode) && n != twofish.BlockSize:
		return usagef("-iv is %s; want 16", plural(n, "byte"))
	}
	return nil
}

// newAEAD returns mode (gcm or ocb) over c with 16-byte tags and nonces of
// nonceSize bytes.
func newAEAD(c *twofish.Cipher, mode string, nonceSize int) (cipher.AEAD, error) {
	if mode == "ocb" {
		return twofish.NewOCB(c, nonceSize, aeadTagSize)
	}
	return c.NewGCM(nonceSize, aeadTagSize)
}

// runAEAD reads all of r (at most maxAEADSize bytes, and a tag when
// decrypting), seals or opens it in place, and writes the result to w only
// if that worked. done, if not nil, is told the size of the input.
func (cr *crypter) runAEAD(r io.Reader, w io.Writer, done func(n int)) error {
	mode, limit := cr.cfg.mode, maxAEADSize
	if cr.cfg.decrypt {
		limit += aeadTagSize
	}
	buf, err := readMessage(r, limit, aeadTagSize)
	if err != nil && err != errOverLimit {
		return fmt.Errorf("reading the input: %v", unwrapPath(err))
	}
	if err == errOverLimit || len(buf) > limit {
		return fmt.Errorf("the input is over %d MiB, the most %s takes: it is one message, authenticated and held in memory whole", maxAEADSize>>20, mode)
	}
	var out []byte
	if cr.cfg.decrypt {
		if len(buf) < aeadTagSize {
			return fmt.Errorf("the input is %s, shorter than the %d-byte tag: truncated, or not %s ciphertext", plural(len(buf), "byte"), aeadTagSize, mode)
		}
		out, err = cr.aead.Open(buf[:0], cr.cfg.iv, buf, nil)
		if err != nil {
			return fmt.Errorf("authentication failed: wrong key or -iv, or the input is damaged or not %s ciphertext; no output written", mode)
		}
	} else {
		out = cr.aead.Seal(buf[:0], cr.cfg.iv, buf, nil)
	}
	if _, err := w.Write(out); err != nil {
		return fmt.Errorf("writing the output: %v", unwrapPath(err))
	}
	if done != nil {
		done(len(buf))
	}
	return nil
}

// errOverLimit is readMessage's error for a regular file whose size is
// over the limit.
var errOverLimit = errors.New("over the limit")

// readMessage reads r to its end, or to one byte past limit, into a buffer
// with room for spare more bytes (a tag). Where r is a regular file, its
// size sizes the buffer, which is then the one allocation: io.ReadAll's
// doublings, and a copy to make room for the tag, held up to 3.6 times the
// input at their peak (920 MB of memory for a message of 256 MiB). A
// regular file whose size is over the limit is refused with errOverLimit
// before a byte is read: reading it up to the limit, to refuse it then,
// cost 256 MiB of memory and 2.6 s (dec -mode gcm of a 1 GiB file, Zen 5).
func readMessage(r io.Reader, limit, spare int) ([]byte, error) {
	size := 512
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			if fi.Size() > int64(limit) {
				return nil, errOverLimit
			}
			size = int(fi.Size()) + 1
		}
	}
	buf := make([]byte, 0, size+spare)
	for len(buf) <= limit {
		if len(buf)+spare == cap(buf) {
			buf = slices.Grow(buf, spare+1)
		}
		n, err := r.Read(buf[len(buf):min(cap(buf)-spare, limit+1)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return buf, nil
}
