package main

import (
	"crypto/aes"
	"crypto/cipher"
	"fmt"

	"github.com/twofish-go/twofish"
	xtwofish "golang.org/x/crypto/twofish"
)

// A target is one table of the benchmark: a keyed block cipher and the
// operations of its rows.
type target struct {
	label string // "Twofish (impl=generic, key=256)"
	rows  []row
}

// A row is one line of a table: an operation that encrypts or decrypts a
// buffer in place.
type row struct {
	name string // "ECB enc"
	op   func(buf []byte)
}

// targets returns the tables cfg asks for: each Twofish implementation with
// each key size, then, with -compare, golang.org/x/crypto/twofish and
// crypto/aes with each key size.
func (cfg *benchConfig) targets() ([]target, error) {
	var ts []target
	for _, impl := range cfg.impls {
		for _, bits := range cfg.keySizes {
			c, err := twofish.NewCipherImpl(benchKey(bits), impl)
			if err != nil {
				return nil, err
			}
			ts = append(ts, target{fmt.Sprintf("Twofish (impl=%s, key=%d)", impl, bits), twofishRows(c)})
		}
	}
	if !cfg.compare {
		return ts, nil
	}
	for _, bits := range cfg.keySizes {
		b, err := xtwofish.NewCipher(benchKey(bits))
		if err != nil {
			return nil, err
		}
		ts = append(ts, target{fmt.Sprintf("Twofish (impl=xcrypto, key=%d)", bits), stdRows(b)})
	}
	for _, bits := range cfg.keySizes {
		b, err := aes.NewCipher(benchKey(bits))
		if err != nil {
			return nil, err
		}
		ts = append(ts, target{fmt.Sprintf("AES (impl=crypto/aes, key=%d)", bits), stdRows(b)})
	}
	return ts, nil
}

// benchKey returns a fixed key of bits bits.
func benchKey(bits int) []byte {
	key := make([]byte, bits/8)
	for i := range key {
		key[i] = byte(i)
	}
	return key
}

// twofishRows returns the rows for c through the modes of package twofish,
// which hand whole runs of blocks to c's kernels.
func twofishRows(c *twofish.Cipher) []row {
	iv := make([]byte, twofish.BlockSize)
	return []row{
		{"ECB enc", cryptBlocks(twofish.NewECBEncrypter(c))},
		{"ECB dec", cryptBlocks(twofish.NewECBDecrypter(c))},
		{"CBC enc", cryptBlocks(twofish.NewCBCEncrypter(c, iv))},
		{"CBC dec", cryptBlocks(twofish.NewCBCDecrypter(c, iv))},
		{"CTR enc", xorKeyStream(twofish.NewCTR(c, iv))},
		{"CTR dec", xorKeyStream(twofish.NewCTR(c, iv))},
	}
}

// stdRows returns the rows for b through crypto/cipher's modes, and ECB,
// which crypto/cipher lacks, as a loop of single-block calls.
func stdRows(b cipher.Block) []row {
	iv := make([]byte, b.BlockSize())
	return []row{
		{"ECB enc", blockLoop(b.Encrypt, b.BlockSize())},
		{"ECB dec", blockLoop(b.Decrypt, b.BlockSize())},
		{"CBC enc", cryptBlocks(cipher.NewCBCEncrypter(b, iv))},
		{"CBC dec", cryptBlocks(cipher.NewCBCDecrypter(b, iv))},
		{"CTR enc", xorKeyStream(cipher.NewCTR(b, iv))},
		{"CTR dec", xorKeyStream(cipher.NewCTR(b, iv))},
	}
}

// cryptBlocks returns an operation that runs m over a buffer in place. The
// buffer is a whole number of blocks.
func cryptBlocks(m cipher.BlockMode) func(buf []byte) {
	return func(buf []byte) { m.CryptBlocks(buf, buf) }
}

// xorKeyStream returns an operation that runs s over a buffer in place.
func xorKeyStream(s cipher.Stream) func(buf []byte) {
	return func(buf []byte) { s.XORKeyStream(buf, buf) }
}

// blockLoop returns an operation that applies crypt, a cipher.Block's
// Encrypt or Decrypt, to each blockSize-byte block of a buffer in place.
// The buffer is a whole number of blocks.
func blockLoop(crypt func(dst, src []byte), blockSize int) func(buf []byte) {
	return func(buf []byte) {
		for i := 0; i < len(buf); i += blockSize {
			crypt(buf[i:], buf[i:])
		}
	}
}
