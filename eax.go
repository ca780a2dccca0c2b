package twofish

import (
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"errors"

	"github.com/twofish-go/twofish/internal/alias"
	"github.com/twofish-go/twofish/internal/kernel"
)

// NewEAX returns b in EAX mode (Bellare, Rogaway and Wagner, 2004; the EAX
// of OpenPGP, RFC 9580, which uses 16-byte nonces and tags) with nonces of
// nonceSize bytes (at least 1) and tags of tagSize bytes (8 to 16). b must
// have 16-byte blocks.
//
// With a *Cipher, EAX's counter mode runs through the kernels many blocks
// at a time, but its OMAC (CMAC) of the ciphertext is serial, one block
// after another, and costs about as much as CBC encryption: EAX is several
// times slower than GCM or OCB with the wide kernels. Open checks the tag
// before it decrypts anything.
func NewEAX(b cipher.Block, nonceSize, tagSize int) (cipher.AEAD, error) {
	if nonceSize < 1 {
		return nil, errors.New("twofish: EAX nonce size must be at least 1 byte")
	}
	if tagSize < 8 || tagSize > BlockSize {
		return nil, errors.New("twofish: EAX tag size must be 8 to 16 bytes")
	}
	blk, ok := newBlocks(b)
	if !ok {
		return nil, errors.New("twofish: NewEAX requires a 128-bit block cipher")
	}
	e := &eax{b: blk, nonceSize: nonceSize, tagSize: tagSize}
	var l [BlockSize]byte
	blk.encryptOnce(l[:], l[:])
	k1 := loadFE(l[:]).double()
	k2 := k1.double()
	k1.put(e.k1[:])
	k2.put(e.k2[:])
	// OMAC^t starts with the block [t]: its encryption, and the whole
	// OMAC^t of an empty string, depend only on the key.
	for t := range e.first {
		e.first[t][BlockSize-1] = byte(t)
		copy(e.empty[t][:], e.first[t][:])
		xorBlock(e.empty[t][:], e.empty[t][:], e.k1[:])
		blk.encryptOnce(e.first[t][:], e.first[t][:])
		blk.encryptOnce(e.empty[t][:], e.empty[t][:])
	}
	return e, nil
}

// eax is read-only after NewEAX, so one is safe for concurrent use.
type eax struct {
	b                  blocks
	nonceSize, tagSize int
	k1, k2             [BlockSize]byte // CMAC's subkeys
	first, empty       [3][BlockSize]byte
}

func (e *eax) NonceSize() int { return e.nonceSize }
func (e *eax) Overhead() int  { return e.tagSize }

func (e *eax) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	if len(nonce) != e.nonceSize {
		panic("crypto/cipher: incorrect nonce length given to EAX")
	}
	ret, out := sliceForAppend(dst, len(plaintext)+e.tagSize)
	if alias.InexactOverlap(out, plaintext) {
		panic("crypto/cipher: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, additionalData) {
		panic("crypto/cipher: invalid buffer overlap of output and additional data")
	}
	n := e.omac(0, nonce)
	ct := out[:len(plaintext)]
	e.ctr(ct, plaintext, &n)
	tag := e.tag(&n, ct, additionalData)
	copy(out[len(plaintext):], tag[:e.tagSize])
	return ret
}

func (e *eax) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	if len(nonce) != e.nonceSize {
		panic("crypto/cipher: incorrect nonce length given to EAX")
	}
	if len(ciphertext) < e.tagSize {
		return nil, errOpen
	}
	// EAX checks the tag before it decrypts, so it makes the output only
	// for a message that passes: a forged one costs no allocation. An
	// output within dst's capacity is checked for overlaps with the whole
	// input first, as Seal's is; a new one overlaps nothing.
	if total := len(dst) + len(ciphertext) - e.tagSize; cap(dst) >= total {
		out := dst[len(dst):total]
		if alias.InexactOverlap(out, ciphertext) {
			panic("crypto/cipher: invalid buffer overlap of output and input")
		}
		if alias.AnyOverlap(out, additionalData) {
			panic("crypto/cipher: invalid buffer overlap of output and additional data")
		}
	}
	tag := ciphertext[len(ciphertext)-e.tagSize:]
	ciphertext = ciphertext[:len(ciphertext)-e.tagSize]
	n := e.omac(0, nonce)
	want := e.tag(&n, ciphertext, additionalData)
	if subtle.ConstantTimeCompare(want[:e.tagSize], tag) != 1 { // ctgrind: the verdict
		return nil, errOpen
	}
	ret, out := sliceForAppend(dst, len(ciphertext))
	e.ctr(out, ciphertext, &n)
	return ret, nil
}

// tag returns N ^ OMAC^1(H) ^ OMAC^2(C).
func (e *eax) tag(n *[BlockSize]byte, ct, ad []byte) [BlockSize]byte {
	c := e.omac(2, ct)
	h := e.omac(1, ad)
	xorBlock(c[:], c[:], h[:])
	xorBlock(c[:], c[:], n[:])
	return c
}

// omac returns OMAC^t(data) = CMAC([t] || data), one block at a time.
func (e *eax) omac(t int, data []byte) (x [BlockSize]byte) {
	if len(data) == 0 {
		return e.empty[t]
	}
	x = e.first[t]
	// The blocks before the last, whose padding and subkey differ.
	if whole := (len(data) - 1) &^ (BlockSize - 1); whole > 0 && e.b.c != nil && e.b.c.k.Chain(kernel.ChainMAC, nil, data[:whole], &x) {
		data = data[whole:]
	}
	for ; len(data) > BlockSize; data = data[BlockSize:] {
		xorBlock(x[:], x[:], data[:BlockSize])
		e.b.encryptBlock(x[:], x[:])
	}
	if len(data) == BlockSize {
		xorBlock(x[:], x[:], data)
		xorBlock(x[:], x[:], e.k1[:])
	} else {
		subtle.XORBytes(x[:], x[:len(data)], data)
		x[len(data)] ^= 0x80
		xorBlock(x[:], x[:], e.k2[:])
	}
	e.b.encryptBlock(x[:], x[:])
	return x
}

// ctr XORs src with the counter-mode key stream from the 128-bit
// big-endian counter iv (wrapping modulo 2^128) into dst: NewCTR's stream,
// and so its kernels (the fused ones, with a partial last block), on the
// stack.
func (e *eax) ctr(dst, src []byte, iv *[BlockSize]byte) {
	s := stream{b: e.b, hi: binary.BigEndian.Uint64(iv[:8]), lo: binary.BigEndian.Uint64(iv[8:])}
	s.XORKeyStream(dst, src)
}
