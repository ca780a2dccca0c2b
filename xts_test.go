package twofish

//lint:file-ignore SA1019 golang.org/x/crypto/twofish is the deprecated package this module replaces: the tests compare with it.

import (
	"bytes"
	"crypto/cipher"
	"fmt"
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

// TestXTSSectors checks that EncryptSectors and DecryptSectors give what
// Encrypt and Decrypt give sector by sector, for every implementation and
// NewXTS's and NewXTSConstantTime's plans: sectors of one block, of 48,
// 256 and 1040 bytes (not whole halves of a group), of 512, 1024 and 1536
// bytes (the halves kernels' one, two and three halves a sector), of 2048
// and 4096 bytes (whole groups, a sector a call), of 127 halves (the most a
// batch takes, an odd number) and of 129 (more, which take no halves), in
// runs of sectors around the batches' and the groups' edges, in place and
// not, with sector numbers that wrap past 2^64.
func TestXTSSectors(t *testing.T) {
	type maker struct {
		name string
		new  func(key []byte) (*XTS, error)
	}
	makers := []maker{{"NewXTS", NewXTS}, {"NewXTSConstantTime", NewXTSConstantTime}}
	for _, impl := range Implementations() {
		if impl.Supported {
			makers = append(makers, maker{impl.Name, func(key []byte) (*XTS, error) { return NewXTSImpl(key, impl.Name) }})
		}
	}
	for _, m := range makers {
		t.Run(m.name, func(t *testing.T) {
			r := testRand(t)
			x, err := m.new(randBytes(r, 64))
			if err != nil {
				t.Fatal(err)
			}
			for _, size := range []int{BlockSize, 17, 31, 48, 256, 512, 520, 1024, 1040, 1536, 2048, 4096, (xtsHalves - 1) * halfBytes, (xtsHalves + 1) * halfBytes} {
				counts := []int{0, 1, 2, 3, xtsSectors + 1}
				switch {
				case size <= 512:
					counts = append(counts, xtsHalves+3)
				case size > 4096:
					counts = []int{1, 3}
				}
				for _, count := range counts {
					first := r.Uint64()
					if r.IntN(2) == 0 {
						first = ^uint64(0) - uint64(r.IntN(count+1))
					}
					what := fmt.Sprintf("%d sectors of %d bytes from sector %d", count, size, first)
					src := randBytes(r, count*size)
					want := make([]byte, len(src))
					for i := range count {
						x.Encrypt(want[size*i:size*(i+1)], src[size*i:size*(i+1)], first+uint64(i))
					}
					got := make([]byte, len(src))
					x.EncryptSectors(got, src, size, first)
					if !bytes.Equal(got, want) {
						t.Fatalf("%s: EncryptSectors differs from Encrypt sector by sector", what)
					}
					x.DecryptSectors(got, got, size, first)
					if !bytes.Equal(got, src) {
						t.Fatalf("%s: DecryptSectors in place does not invert EncryptSectors", what)
					}
					back := make([]byte, len(src))
					x.DecryptSectors(back, want, size, first)
					if !bytes.Equal(back, src) {
						t.Fatalf("%s: DecryptSectors does not invert EncryptSectors", what)
					}
				}
			}
		})
	}
}

func TestXTSSectorsMisuse(t *testing.T) {
	x, _ := NewXTS(make([]byte, 32))
	buf := make([]byte, 1024)
	for _, size := range []int{0, -16, 1, 15} {
		expectPanic(t, "xts: sector size is shorter than one block", func() { x.EncryptSectors(buf, buf[:510], size, 0) })
		expectPanic(t, "xts: sector size is shorter than one block", func() { x.DecryptSectors(buf, buf[:510], size, 0) })
	}
	expectPanic(t, "xts: input is not a whole number of sectors", func() { x.EncryptSectors(buf, buf[:768], 512, 0) })
	expectPanic(t, "xts: input is not a whole number of sectors", func() { x.DecryptSectors(buf, buf[:16], 512, 0) })
	expectPanic(t, "xts: ciphertext is smaller than plaintext", func() { x.EncryptSectors(buf[:256], buf[512:], 256, 0) })
	expectPanic(t, "xts: plaintext is smaller than ciphertext", func() { x.DecryptSectors(buf[:16], buf[512:], 256, 0) })
	expectPanic(t, "xts: invalid buffer overlap", func() { x.EncryptSectors(buf[16:], buf[:512], 512, 0) })
	expectPanic(t, "xts: invalid buffer overlap", func() { x.DecryptSectors(buf[:512], buf[16:528], 512, 0) })
	// The lengths before the overlap, as Encrypt and x/crypto/xts check them.
	expectPanic(t, "xts: input is not a whole number of sectors", func() { x.EncryptSectors(buf[16:], buf[:768], 512, 0) })
	expectPanic(t, "xts: sector size is shorter than one block", func() { x.DecryptSectors(buf[:510], buf[16:526], 15, 0) })
	x.EncryptSectors(buf, buf, 512, 1) // in place is fine
	x.EncryptSectors(nil, nil, 512, 1) // and so are no sectors
}

func TestXTSMisuse(t *testing.T) {
	x, _ := NewXTS(make([]byte, 32))
	buf := make([]byte, 64)
	expectPanic(t, "xts: input shorter than one block", func() { x.Encrypt(buf, buf[:15], 0) })
	expectPanic(t, "xts: input shorter than one block", func() { x.Decrypt(buf, buf[:1], 0) })
	expectPanic(t, "xts: ciphertext is smaller than plaintext", func() { x.Encrypt(buf[:16], buf[16:48], 0) })
	expectPanic(t, "xts: plaintext is smaller than ciphertext", func() { x.Decrypt(buf[:16], buf[16:48], 0) })
	expectPanic(t, "xts: invalid buffer overlap", func() { x.Encrypt(buf[1:], buf[:33], 0) })
	expectPanic(t, "xts: invalid buffer overlap", func() { x.Decrypt(buf[:33], buf[1:34], 0) })
	// The length before the overlap, as x/crypto/xts checks them.
	expectPanic(t, "xts: input shorter than one block", func() { x.Encrypt(buf[1:], buf[:15], 0) })
	x.Encrypt(buf, buf, 1) // in place is fine
	// No input is no output, as in x/crypto/xts, whatever dst is.
	x.Encrypt(nil, nil, 0)
	x.Decrypt(buf[1:], buf[:0], 0)
}

// TestXTSTablesOnUse checks, where NewXTS's Ciphers build the tables of
// their table kernels on use (see NewCipher), that one sector, through
// Encrypt, Decrypt or EncryptSectors, does not build them: the tweak's
// encryption, one block a sector, and the stolen block are a mode's setup
// blocks, which the bulk kernel's ladder does until they have cost what
// building the tables does. Each sector, new key or not, must still agree
// with the generic implementation's.
func TestXTSTablesOnUse(t *testing.T) {
	r := testRand(t)
	key := randBytes(r, 64)
	if x, _ := NewXTS(key); !tablesLeftOut(x.tweak) {
		t.Skipf("NewXTS's Ciphers build their tables with the key here (%s)", x.data.Implementation())
	}
	ref, _ := NewXTSImpl(key, "generic")
	for _, size := range []int{BlockSize, 512, 520, 4096, 4096 + 15} {
		src := randBytes(r, size)
		want, back := make([]byte, size), make([]byte, size)
		ref.Encrypt(want, src, 7)
		x, _ := NewXTS(key)
		got := make([]byte, size)
		x.Encrypt(got, src, 7)
		if !bytes.Equal(got, want) {
			t.Fatalf("%d bytes: encryption differs from generic", size)
		}
		if !tablesLeftOut(x.tweak) || !tablesLeftOut(x.data) {
			t.Errorf("%d bytes: encrypting one sector built the tables", size)
		}
		x, _ = NewXTS(key)
		x.Decrypt(back, got, 7)
		if !bytes.Equal(back, src) {
			t.Fatalf("%d bytes: decryption differs from generic", size)
		}
		if !tablesLeftOut(x.tweak) || !tablesLeftOut(x.data) {
			t.Errorf("%d bytes: decrypting one sector built the tables", size)
		}
		if size%BlockSize == 0 {
			// So is one sector through EncryptSectors.
			x, _ = NewXTS(key)
			if x.EncryptSectors(got, src, size, 7); !bytes.Equal(got, want) {
				t.Fatalf("%d bytes: EncryptSectors differs from generic", size)
			}
			if !tablesLeftOut(x.tweak) || !tablesLeftOut(x.data) {
				t.Errorf("%d bytes: EncryptSectors of one sector built the tables", size)
			}
		}
		// A key that goes on to more sectors builds them, and agrees.
		for sector := range uint64(2 * 24) {
			ref.Encrypt(want, src, sector)
			if x.Encrypt(got, src, sector); !bytes.Equal(got, want) {
				t.Fatalf("%d bytes, sector %d: encryption differs from generic", size, sector)
			}
		}
		if tablesLeftOut(x.tweak) {
			t.Errorf("%d bytes: 48 sectors left the tweak's tables unbuilt", size)
		}
	}
}

// tablesLeftOut reports whether c has yet to build the tables of its
// kernel of single blocks.
func tablesLeftOut(c *Cipher) bool {
	_, _, t := c.k.Single()
	return t == nil
}
