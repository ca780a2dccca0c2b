package twofish

import (
	"crypto/cipher"
	"testing"
)

// TestZeroCipherFailsClosed checks that a Cipher no constructor made (the
// zero value, or &Cipher{}) never passes data through without a key: every
// method, every mode built on it, and crypto/cipher's modes that find its
// fast paths panic with errNoKey, this package's mode constructors
// already. A zero XTS panics likewise.
func TestZeroCipherFailsClosed(t *testing.T) {
	const xtsNoKey = "twofish: use of an XTS without a key (make one with NewXTS)"
	iv := make([]byte, BlockSize)
	for _, c := range []*Cipher{new(Cipher), {}} {
		buf := make([]byte, 4*BlockSize)
		ops := []struct {
			name string
			f    func()
		}{
			{"Encrypt", func() { c.Encrypt(buf, buf) }},
			{"Decrypt", func() { c.Decrypt(buf, buf) }},
			{"NewECBEncrypter", func() { NewECBEncrypter(c).CryptBlocks(buf, buf) }},
			{"NewECBDecrypter", func() { NewECBDecrypter(c).CryptBlocks(buf, buf) }},
			{"NewCBCEncrypter", func() { NewCBCEncrypter(c, iv).CryptBlocks(buf, buf) }},
			{"NewCBCDecrypter", func() { NewCBCDecrypter(c, iv).CryptBlocks(buf, buf) }},
			{"NewCTR", func() { NewCTR(c, iv).XORKeyStream(buf, buf) }},
			{"NewCFBEncrypter", func() { NewCFBEncrypter(c, iv).XORKeyStream(buf, buf) }},
			{"NewCFBDecrypter", func() { NewCFBDecrypter(c, iv).XORKeyStream(buf, buf) }},
			{"NewOFB", func() { NewOFB(c, iv).XORKeyStream(buf, buf) }},
			{"cipher.NewCTR", func() { cipher.NewCTR(c, iv).XORKeyStream(buf, buf) }},
			{"cipher.NewCBCEncrypter", func() { cipher.NewCBCEncrypter(c, iv).CryptBlocks(buf, buf) }},
			{"cipher.NewCBCDecrypter", func() { cipher.NewCBCDecrypter(c, iv).CryptBlocks(buf, buf) }},
			{"NewGCM", func() { NewGCM(c) }},
			{"cipher.NewGCM", func() { cipher.NewGCM(c) }},
			{"NewOCB", func() { NewOCB(c, 12, 16) }},
			{"NewEAX", func() { NewEAX(c, 16, 16) }},
		}
		for _, op := range ops {
			t.Run(op.name, func(t *testing.T) { expectPanic(t, errNoKey, op.f) })
		}
		// The mode constructors panic themselves, before any data.
		for _, mc := range modeCases {
			t.Run(mc.name+" constructor", func(t *testing.T) { expectPanic(t, errNoKey, func() { mc.ours(c, iv) }) })
		}
	}
	var x XTS
	buf := make([]byte, 2*BlockSize)
	expectPanic(t, xtsNoKey, func() { x.Encrypt(buf, buf, 0) })
	expectPanic(t, xtsNoKey, func() { x.Decrypt(buf, buf, 0) })
	expectPanic(t, xtsNoKey, func() { x.EncryptSectors(buf, buf, BlockSize, 0) })
	expectPanic(t, xtsNoKey, func() { x.DecryptSectors(buf, buf, BlockSize, 0) })
}
