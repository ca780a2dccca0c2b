//go:build cgo && libgcrypt

package twofish

import (
	"bytes"
	"crypto/cipher"
	"testing"

	"github.com/twofish-go/twofish/internal/libgcrypt"
)

// TestAgainstLibgcrypt compares every mode with the system libgcrypt, whose
// Twofish assembly this project learned from, on random keys, IVs and lengths, for every
// implementation. Run with: go test -tags libgcrypt -run Libgcrypt .
func TestAgainstLibgcrypt(t *testing.T) {
	t.Logf("libgcrypt %s", libgcrypt.Version())
	type mode struct {
		name   string
		gmode  libgcrypt.Mode
		stream bool
		enc    func(c *Cipher, iv []byte) func(dst, src []byte)
		dec    func(c *Cipher, iv []byte) func(dst, src []byte)
	}
	bm := func(m cipher.BlockMode) func(dst, src []byte) { return m.CryptBlocks }
	st := func(s cipher.Stream) func(dst, src []byte) { return s.XORKeyStream }
	modes := []mode{
		{"ECB", libgcrypt.ECB, false,
			func(c *Cipher, _ []byte) func(dst, src []byte) { return bm(NewECBEncrypter(c)) },
			func(c *Cipher, _ []byte) func(dst, src []byte) { return bm(NewECBDecrypter(c)) }},
		{"CBC", libgcrypt.CBC, false,
			func(c *Cipher, iv []byte) func(dst, src []byte) { return bm(NewCBCEncrypter(c, iv)) },
			func(c *Cipher, iv []byte) func(dst, src []byte) { return bm(NewCBCDecrypter(c, iv)) }},
		{"CFB", libgcrypt.CFB, true,
			func(c *Cipher, iv []byte) func(dst, src []byte) { return st(NewCFBEncrypter(c, iv)) },
			func(c *Cipher, iv []byte) func(dst, src []byte) { return st(NewCFBDecrypter(c, iv)) }},
		{"OFB", libgcrypt.OFB, true,
			func(c *Cipher, iv []byte) func(dst, src []byte) { return st(NewOFB(c, iv)) },
			func(c *Cipher, iv []byte) func(dst, src []byte) { return st(NewOFB(c, iv)) }},
		{"CTR", libgcrypt.CTR, true,
			func(c *Cipher, iv []byte) func(dst, src []byte) { return st(NewCTR(c, iv)) },
			func(c *Cipher, iv []byte) func(dst, src []byte) { return st(NewCTR(c, iv)) }},
	}
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		for _, ks := range []int{16, 32} {
			for _, m := range modes {
				for i := range 60 {
					n := r.IntN(2000)
					if i < 3 {
						n = []int{0, 16, 8192}[i]
					}
					if !m.stream {
						n -= n % BlockSize
					}
					key, iv, src := randBytes(r, ks), randBytes(r, BlockSize), randBytes(r, n)
					g, err := libgcrypt.New(m.gmode, key)
					if err != nil {
						t.Fatal(err)
					}
					want := make([]byte, n)
					if m.gmode != libgcrypt.ECB {
						g.SetIV(iv)
					}
					if err := g.Encrypt(want, src); err != nil {
						t.Fatal(err)
					}
					g.Close()
					c := mustCipher(t, key, impl.Name)
					got := make([]byte, n)
					m.enc(c, iv)(got, src)
					if !bytes.Equal(got, want) {
						t.Fatalf("%s, %d-bit key, %d bytes: encryption differs from libgcrypt", m.name, 8*ks, n)
					}
					m.dec(c, iv)(got, got)
					if !bytes.Equal(got, src) {
						t.Fatalf("%s, %d-bit key, %d bytes: decryption does not invert", m.name, 8*ks, n)
					}
				}
			}
			// XTS, ciphertext stealing included: libgcrypt takes the
			// tweak as its IV, the sector number in little-endian order.
			for i := range 200 {
				n := BlockSize + r.IntN(600)
				if i < 2 {
					n = []int{BlockSize, 4096}[i]
				}
				key, src := randBytes(r, 2*ks), randBytes(r, n)
				sector := r.Uint64()
				tw := make([]byte, BlockSize)
				for j := range 8 {
					tw[j] = byte(sector >> (8 * j))
				}
				g, err := libgcrypt.New(libgcrypt.XTS, key)
				if err != nil {
					t.Fatal(err)
				}
				want := make([]byte, n)
				g.SetIV(tw)
				if err := g.Encrypt(want, src); err != nil {
					t.Fatal(err)
				}
				g.Close()
				x, err := NewXTSImpl(key, impl.Name)
				if err != nil {
					t.Fatal(err)
				}
				got := make([]byte, n)
				x.Encrypt(got, src, sector)
				if !bytes.Equal(got, want) {
					t.Fatalf("XTS, %d-bit key, %d bytes: encryption differs from libgcrypt", 8*ks, n)
				}
				x.Decrypt(got, got, sector)
				if !bytes.Equal(got, src) {
					t.Fatalf("XTS, %d-bit key, %d bytes: decryption does not invert", 8*ks, n)
				}
			}
		}
	})
}
