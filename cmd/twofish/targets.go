package main

//lint:file-ignore SA1019 golang.org/x/crypto/twofish (the package this module replaces) and crypto/cipher's CFB and OFB (modes Twofish is used in) are the references compared with.

import (
	"crypto/aes"
	"crypto/cipher"
	"fmt"
	"slices"
	"strings"

	"github.com/twofish-go/twofish"
	xtwofish "golang.org/x/crypto/twofish"
	"golang.org/x/crypto/xts"
)

// A target is one table of the benchmark: a keyed block cipher and the
// operations of its rows.
type target struct {
	label  string // "Twofish (impl=generic, key=256)"
	cipher string // "Twofish" or "AES"
	impl   string // "generic", "xcrypto", "crypto/aes"
	bits   int    // key size
	rows   []row
}

// A row is one line of a table: an operation that encrypts or decrypts a
// buffer in place (the authenticated modes: see aead_bench.go).
type row struct {
	mode string // "ECB"
	dir  string // "enc" or "dec"; "auth" for GCM and OCB
	op   func(buf []byte)
}

// benchModes are the modes bench measures, in the order of its rows; each
// has an "enc" and a "dec" row, GCM and OCB an "auth" row, and KEY, key
// setup, a "setup" row. XTS takes the buffer as one sector, XTS512 as
// consecutive sectors of 512 bytes, a disk's (VeraCrypt's data units).
var benchModes = []string{"BLOCK", "ECB", "CBC", "CFB", "OFB", "CTR", "XTS", "XTS512", "GCM", "OCB", "EAX", "KEY"}

// targets returns the tables cfg asks for: each Twofish implementation with
// each key size, then, with -compare, golang.org/x/crypto/twofish and
// crypto/aes with each key size. Each has a row per direction of each mode
// in cfg.modes.
func (cfg *benchConfig) targets() ([]target, error) {
	var ts []target
	add := func(cipherName, impl string, bits int, rows []row) {
		label := fmt.Sprintf("%s (impl=%s, key=%d)", cipherName, impl, bits)
		rows = slices.DeleteFunc(rows, func(r row) bool { return !slices.Contains(cfg.modes, r.mode) })
		ts = append(ts, target{label, cipherName, impl, bits, rows})
	}
	for _, impl := range cfg.impls {
		for _, bits := range cfg.keySizes {
			c, err := newCipher(impl, benchKey(bits))
			if err != nil {
				return nil, err
			}
			x, err := newXTS(impl, benchKey(2*bits))
			if err != nil {
				return nil, err
			}
			rows := append(twofishRows(c, x), twofishAEADRows(c)...)
			add("Twofish", impl, bits, append(rows, keyRow(func(k []byte) (*twofish.Cipher, error) { return newCipher(impl, k) }, bits)))
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
		x, err := xts.NewCipher(func(key []byte) (cipher.Block, error) { return xtwofish.NewCipher(key) }, benchKey(2*bits))
		if err != nil {
			return nil, err
		}
		rows := append(stdRows(b, x), stdAEADRows(b)...)
		add("Twofish", "xcrypto", bits, append(rows, keyRow(xtwofish.NewCipher, bits)))
	}
	for _, bits := range cfg.keySizes {
		b, err := aes.NewCipher(benchKey(bits))
		if err != nil {
			return nil, err
		}
		x, err := xts.NewCipher(aes.NewCipher, benchKey(2*bits))
		if err != nil {
			return nil, err
		}
		rows := append(stdRows(b, x), stdAEADRows(b)...)
		add("AES", "crypto/aes", bits, append(rows, keyRow(aes.NewCipher, bits)))
	}
	return ts, nil
}

// newCipher returns a Cipher with key of impl: an implementation to pin,
// or "auto" (NewCipher, whose kernels differ by shape) or "ct"
// (NewCipherConstantTime).
func newCipher(impl string, key []byte) (*twofish.Cipher, error) {
	switch impl {
	case "auto":
		return twofish.NewCipher(key)
	case "ct":
		return twofish.NewCipherConstantTime(key)
	}
	return twofish.NewCipherImpl(key, impl)
}

// newXTS is newCipher for XTS.
func newXTS(impl string, key []byte) (*twofish.XTS, error) {
	switch impl {
	case "auto":
		return twofish.NewXTS(key)
	case "ct":
		return twofish.NewXTSConstantTime(key)
	}
	return twofish.NewXTSImpl(key, impl)
}

// parseModes parses the -modes flag, a comma-separated list of modes in
// any case, into the modes of benchModes it names, in benchModes' order.
func parseModes(spec string) ([]string, error) {
	var modes []string
	for _, field := range strings.Split(spec, ",") {
		m := strings.ToUpper(strings.TrimSpace(field))
		if !slices.Contains(benchModes, m) {
			return nil, fmt.Errorf("-modes %q: want modes from %s separated by commas", spec, strings.ToLower(strings.Join(benchModes, ",")))
		}
		modes = append(modes, m)
	}
	return slices.DeleteFunc(slices.Clone(benchModes), func(m string) bool { return !slices.Contains(modes, m) }), nil
}

// benchKey returns a fixed key of bits bits.
func benchKey(bits int) []byte {
	key := make([]byte, bits/8)
	for i := range key {
		key[i] = byte(i)
	}
	return key
}

// twofishRows returns the rows for c and x (XTS with the same
// implementation) through the modes of package twofish, which hand whole
// runs of blocks to c's kernels.
func twofishRows(c *twofish.Cipher, x *twofish.XTS) []row {
	iv := make([]byte, twofish.BlockSize)
	return []row{
		{"BLOCK", "enc", chain(c.Encrypt, twofish.BlockSize)},
		{"BLOCK", "dec", chain(c.Decrypt, twofish.BlockSize)},
		{"ECB", "enc", cryptBlocks(twofish.NewECBEncrypter(c))},
		{"ECB", "dec", cryptBlocks(twofish.NewECBDecrypter(c))},
		{"CBC", "enc", cryptBlocks(twofish.NewCBCEncrypter(c, iv))},
		{"CBC", "dec", cryptBlocks(twofish.NewCBCDecrypter(c, iv))},
		{"CFB", "enc", xorKeyStream(twofish.NewCFBEncrypter(c, iv))},
		{"CFB", "dec", xorKeyStream(twofish.NewCFBDecrypter(c, iv))},
		{"OFB", "enc", xorKeyStream(twofish.NewOFB(c, iv))},
		{"OFB", "dec", xorKeyStream(twofish.NewOFB(c, iv))},
		{"CTR", "enc", xorKeyStream(twofish.NewCTR(c, iv))},
		{"CTR", "dec", xorKeyStream(twofish.NewCTR(c, iv))},
		{"XTS", "enc", func(buf []byte) { x.Encrypt(buf, buf, 0) }},
		{"XTS", "dec", func(buf []byte) { x.Decrypt(buf, buf, 0) }},
		{"XTS512", "enc", sectors(x.EncryptSectors, x.Encrypt)},
		{"XTS512", "dec", sectors(x.DecryptSectors, x.Decrypt)},
	}
}

// sectorSize is the sector of the XTS512 rows.
const sectorSize = 512

// sectors returns an operation that runs XTS over a buffer in place as
// consecutive sectors of sectorSize bytes, the whole ones through all (as
// EncryptSectors), a short last one through one.
func sectors(all func(dst, src []byte, size int, first uint64), one func(dst, src []byte, sector uint64)) func(buf []byte) {
	return func(buf []byte) {
		whole := len(buf) - len(buf)%sectorSize
		all(buf[:whole], buf[:whole], sectorSize, 0)
		if whole < len(buf) {
			one(buf[whole:], buf[whole:], uint64(whole/sectorSize))
		}
	}
}

// sectorLoop returns an operation that runs XTS over a buffer in place as
// consecutive sectors of sectorSize bytes, one at a time through one (the
// last may be shorter).
func sectorLoop(one func(dst, src []byte, sector uint64)) func(buf []byte) {
	return func(buf []byte) {
		for i := 0; i < len(buf); i += sectorSize {
			s := buf[i:min(i+sectorSize, len(buf))]
			one(s, s, uint64(i/sectorSize))
		}
	}
}

// stdRows returns the rows for b through crypto/cipher's modes, ECB, which
// crypto/cipher lacks, as a loop of single-block calls, and XTS through x,
// a golang.org/x/crypto/xts Cipher over the same block cipher. (crypto/cipher
// deprecates its CFB and OFB, which are unauthenticated, but keeps them; they
// are what Twofish's CFB and OFB are compared with.)
func stdRows(b cipher.Block, x *xts.Cipher) []row {
	iv := make([]byte, b.BlockSize())
	return []row{
		{"BLOCK", "enc", chain(b.Encrypt, b.BlockSize())},
		{"BLOCK", "dec", chain(b.Decrypt, b.BlockSize())},
		{"ECB", "enc", blockLoop(b.Encrypt, b.BlockSize())},
		{"ECB", "dec", blockLoop(b.Decrypt, b.BlockSize())},
		{"CBC", "enc", cryptBlocks(cipher.NewCBCEncrypter(b, iv))},
		{"CBC", "dec", cryptBlocks(cipher.NewCBCDecrypter(b, iv))},
		{"CFB", "enc", xorKeyStream(cipher.NewCFBEncrypter(b, iv))},
		{"CFB", "dec", xorKeyStream(cipher.NewCFBDecrypter(b, iv))},
		{"OFB", "enc", xorKeyStream(cipher.NewOFB(b, iv))},
		{"OFB", "dec", xorKeyStream(cipher.NewOFB(b, iv))},
		{"CTR", "enc", xorKeyStream(cipher.NewCTR(b, iv))},
		{"CTR", "dec", xorKeyStream(cipher.NewCTR(b, iv))},
		{"XTS", "enc", func(buf []byte) { x.Encrypt(buf, buf, 0) }},
		{"XTS", "dec", func(buf []byte) { x.Decrypt(buf, buf, 0) }},
		{"XTS512", "enc", sectorLoop(x.Encrypt)},
		{"XTS512", "dec", sectorLoop(x.Decrypt)},
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

// chain returns an operation that applies crypt, a cipher.Block's Encrypt
// or Decrypt, to the blocks of a buffer in turn, each block's input the
// output before it (the first's, the buffer's last block): one block's
// latency, which CBC and CFB encryption and CMAC pay for every block. The
// buffer is a whole number of blocks.
func chain(crypt func(dst, src []byte), blockSize int) func(buf []byte) {
	return func(buf []byte) {
		prev := buf[len(buf)-blockSize:]
		for i := 0; i < len(buf); i += blockSize {
			crypt(buf[i:i+blockSize], prev)
			prev = buf[i : i+blockSize]
		}
	}
}

// keyRow returns the key setup row of a cipher that newCipher makes from
// keys of bits bits: the operation makes a Cipher from each key-sized
// piece of the buffer in turn (what is left over, none), so its cost per
// byte times the key's length in bytes is the cost of a key, with the
// allocation and the garbage collection that a key per message brings.
func keyRow[B cipher.Block](newCipher func(key []byte) (B, error), bits int) row {
	n := bits / 8
	return row{"KEY", "setup", func(buf []byte) {
		for i := 0; i+n <= len(buf); i += n {
			if _, err := newCipher(buf[i : i+n]); err != nil {
				panic(err)
			}
		}
	}}
}
