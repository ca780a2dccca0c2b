package main

import (
	"crypto/cipher"
	"encoding/binary"

	"github.com/twofish-go/twofish"
)

// The rows of the authenticated modes: GCM, OCB and EAX, each sealing
// ("enc"), opening ("dec") and, for GCM and OCB, authenticating associated
// data alone ("auth", the cost of the MAC half, as libgcrypt's bench-slope
// has it). Sealing writes the ciphertext and tag to a buffer of its own,
// and opening reads a message sealed beforehand for each length, so the
// buffer a row is given only sets the length. Nonces are 12 bytes for GCM,
// 15 for OCB and 16 for EAX, as OpenPGP (RFC 9580) uses them, and tags 16. Sealing and
// authenticating take a new nonce for each message, a counter, as most uses
// do: OCB then encrypts its nonce block once in 64 messages (its Ktop
// cache), where one nonce for all would skip that in every one. Opening
// opens the one message it sealed, under one nonce, so OCB's "dec" row
// skips it: a cost per call, which the slope leaves out, and -sweep's
// short messages do not.

// twofishAEADRows returns the rows of this package's AEADs over c.
func twofishAEADRows(c *twofish.Cipher) []row {
	gcm, _ := twofish.NewGCM(c)
	ocb, _ := twofish.NewOCB(c, 15, 16)
	eax, _ := twofish.NewEAX(c, 16, 16)
	return aeadRows(gcm, ocb, eax)
}

// stdAEADRows returns the rows for b, golang.org/x/crypto/twofish or
// crypto/aes: GCM through crypto/cipher (its generic GCM for x/crypto, its
// AES-NI and carry-less-multiplication GCM for AES). Neither library has
// OCB or EAX: those rows run this package's OCB and EAX over b, a block at
// a time.
func stdAEADRows(b cipher.Block) []row {
	gcm, _ := cipher.NewGCM(b)
	ocb, _ := twofish.NewOCB(b, 15, 16)
	eax, _ := twofish.NewEAX(b, 16, 16)
	return aeadRows(gcm, ocb, eax)
}

func aeadRows(gcm, ocb, eax cipher.AEAD) []row {
	return []row{
		{"GCM", "enc", sealOp(gcm)},
		{"GCM", "dec", openOp(gcm)},
		{"GCM", "auth", authOp(gcm)},
		{"OCB", "enc", sealOp(ocb)},
		{"OCB", "dec", openOp(ocb)},
		{"OCB", "auth", authOp(ocb)},
		{"EAX", "enc", sealOp(eax)},
		{"EAX", "dec", openOp(eax)},
	}
}

// sealOp returns an operation that seals a buffer into a buffer of its
// own.
func sealOp(a cipher.AEAD) func(buf []byte) {
	nonce := make([]byte, a.NonceSize())
	var out []byte
	return func(buf []byte) {
		if cap(out) < len(buf)+a.Overhead() {
			out = make([]byte, 0, len(buf)+a.Overhead())
		}
		nextNonce(nonce)
		a.Seal(out[:0], nonce, buf, nil)
	}
}

// openOp returns an operation that opens a message as long as its buffer,
// sealed the first time that length comes up.
func openOp(a cipher.AEAD) func(buf []byte) {
	nonce := make([]byte, a.NonceSize())
	sealed := map[int][]byte{}
	var out []byte
	return func(buf []byte) {
		ct, ok := sealed[len(buf)]
		if !ok {
			ct = a.Seal(nil, nonce, buf, nil)
			sealed[len(buf)] = ct
		}
		if cap(out) < len(buf) {
			out = make([]byte, 0, len(buf))
		}
		if _, err := a.Open(out[:0], nonce, ct, nil); err != nil {
			panic("twofish bench: a message sealed for the benchmark does not open")
		}
	}
}

// authOp returns an operation that authenticates a buffer as associated
// data of an empty message.
func authOp(a cipher.AEAD) func(buf []byte) {
	nonce := make([]byte, a.NonceSize())
	tag := make([]byte, 0, a.Overhead())
	return func(buf []byte) {
		nextNonce(nonce)
		a.Seal(tag, nonce, nil, buf)
	}
}

// nextNonce counts nonce up by one, big-endian, in its last 8 bytes.
func nextNonce(nonce []byte) {
	n := nonce[len(nonce)-8:]
	binary.BigEndian.PutUint64(n, binary.BigEndian.Uint64(n)+1)
}
