package twofish

//lint:file-ignore SA1019 golang.org/x/crypto/twofish is the deprecated package this module replaces: the tests compare with it.

import (
	"bytes"
	"crypto/cipher"
	"testing"

	xtwofish "golang.org/x/crypto/twofish"
	"golang.org/x/crypto/xts"
)

func TestXTSKeySizes(t *testing.T) {
	for n := 0; n <= 80; n++ {
		_, err := NewXTS(make([]byte, n))
		switch n {
		case 32, 48, 64:
			if err != nil {
				t.Errorf("NewXTS(%d-byte key): %v", n, err)
			}
		default:
			if err != KeySizeError(n) {
				t.Errorf("NewXTS(%d-byte key): error %v, want KeySizeError(%d)", n, err, n)
			}
		}
	}
	if _, err := NewXTSImpl(make([]byte, 32), "no-such-kernel"); err == nil {
		t.Error("NewXTSImpl accepted an unknown implementation")
	}
}

// TestXTSAgainstXCrypto compares whole sectors with golang.org/x/crypto/xts
// over x/crypto/twofish, and checks that every length of at least one
// block, including partial final blocks (ciphertext stealing, which
// x/crypto/xts lacks), round-trips, unaligned and in place.
func TestXTSAgainstXCrypto(t *testing.T) {
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		for _, ks := range keySizes {
			key := randBytes(r, 2*ks)
			x, err := NewXTSImpl(key, impl.Name)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := xts.NewCipher(func(k []byte) (cipher.Block, error) { return xtwofish.NewCipher(k) }, key)
			if err != nil {
				t.Fatal(err)
			}
			for n := BlockSize; n <= 1100; n++ {
				if !exhaustive() && n%5 != 0 {
					continue
				}
				sector := r.Uint64()
				src := randBytes(r, n+3)[3:]
				got := make([]byte, n)
				x.Encrypt(got, src, sector)
				if n%BlockSize == 0 {
					want := make([]byte, n)
					ref.Encrypt(want, src, sector)
					if !bytes.Equal(got, want) {
						t.Fatalf("%d-bit key, %d bytes: encryption differs from x/crypto/xts", 8*ks, n)
					}
				}
				back := append([]byte(nil), got...)
				x.Decrypt(back, back, sector)
				if !bytes.Equal(back, src) {
					t.Fatalf("%d-bit key, %d bytes: in-place decryption does not invert encryption", 8*ks, n)
				}
				inPlace := append([]byte(nil), src...)
				x.Encrypt(inPlace, inPlace, sector)
				if !bytes.Equal(inPlace, got) {
					t.Fatalf("%d-bit key, %d bytes: in-place encryption differs", 8*ks, n)
				}
			}
		}
	})
}

// TestXTSStealing checks the structure that IEEE 1619 gives ciphertext
// stealing: every block before the last two is as without stealing, and
// the short final block is the first bytes of what the last whole
// plaintext block encrypts to on its own.
func TestXTSStealing(t *testing.T) {
	x, _ := NewXTSImpl(bytes.Repeat([]byte{7}, 32), "generic")
	src := make([]byte, 3*BlockSize+5)
	for i := range src {
		src[i] = byte(i)
	}
	got := make([]byte, len(src))
	x.Encrypt(got, src, 42)
	whole := make([]byte, 3*BlockSize)
	x.Encrypt(whole, src[:3*BlockSize], 42)
	if !bytes.Equal(got[:2*BlockSize], whole[:2*BlockSize]) {
		t.Error("blocks before the stolen one differ from plain XTS")
	}
	if !bytes.Equal(got[3*BlockSize:], whole[2*BlockSize:2*BlockSize+5]) {
		t.Error("the short final block is not the head of the last whole block's encryption")
	}
}

func TestXTSMisuse(t *testing.T) {
	x, _ := NewXTS(make([]byte, 32))
	buf := make([]byte, 64)
	expectPanic(t, "xts: input shorter than one block", func() { x.Encrypt(buf, buf[:15], 0) })
	expectPanic(t, "xts: input shorter than one block", func() { x.Decrypt(buf, nil, 0) })
	expectPanic(t, "xts: ciphertext is smaller than plaintext", func() { x.Encrypt(buf[:16], buf[16:48], 0) })
	expectPanic(t, "xts: plaintext is smaller than ciphertext", func() { x.Decrypt(buf[:16], buf[16:48], 0) })
	expectPanic(t, "xts: invalid buffer overlap", func() { x.Encrypt(buf[1:], buf[:33], 0) })
	expectPanic(t, "xts: invalid buffer overlap", func() { x.Decrypt(buf[:33], buf[1:34], 0) })
	x.Encrypt(buf, buf, 1) // in place is fine
}
