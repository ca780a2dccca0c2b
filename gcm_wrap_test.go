package twofish

//lint:file-ignore SA1019 golang.org/x/crypto/twofish is the deprecated package this module replaces: crypto/cipher's GCM over it is the reference.

import (
	"bytes"
	"crypto/cipher"
	"encoding/binary"
	"testing"

	xtwofish "golang.org/x/crypto/twofish"
)

// TestGCMCounterWrapsSealed is TestGCMCounterWraps through the public API
// alone, against crypto/cipher's GCM over golang.org/x/crypto/twofish: a
// 16-byte nonce N gives J0 = N·H² + L·H (L the block of its length in
// bits), so the nonce (J0 + L·H)·H⁻² starts the counter wherever the test
// wants, with no search and no hook into the package.
func TestGCMCounterWrapsSealed(t *testing.T) {
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		key := randBytes(r, 32)
		g := mustAEAD(t, aeadModes[0], mustCipher(t, key, impl.Name), 16, 16)
		xc, err := xtwofish.NewCipher(key)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := cipher.NewGCMWithNonceSize(xc, 16)
		if err != nil {
			t.Fatal(err)
		}
		var hb [BlockSize]byte
		xc.Encrypt(hb[:], hb[:])
		h := loadGF(hb[:])
		lh := gfMul(gf{0, 16 * 8}, h)
		toNonce := gfMul(gfInv(gfMul(h, h)), gf{1 << 63, 0})
		for _, last := range []uint32{0xffffffff, 0xfffffffe, 0xfffffff0, 0xffffffff - fusedBytes/BlockSize, 0} {
			j0 := gf{r.Uint64(), r.Uint64()&^0xffffffff | uint64(last)}
			nonce := gfMul(gf{j0.hi ^ lh.hi, j0.lo ^ lh.lo}, toNonce).bytes()
			for _, n := range []int{1, 5*BlockSize + 3, 3*fusedBytes + 5*BlockSize + 3} {
				pt, ad := randBytes(r, n), randBytes(r, 13)
				want := ref.Seal(nil, nonce, pt, ad)
				if got := g.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
					t.Fatalf("J0 ending %08x, %d bytes: Seal differs from crypto/cipher's", last, n)
				}
				if back, err := g.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(back, pt) {
					t.Fatalf("J0 ending %08x, %d bytes: Open of crypto/cipher's ciphertext: %v", last, n, err)
				}
			}
		}
	})
}

// gf is an element of GCM's field, bytes 0-7 of its block in hi and 8-15 in
// lo, big-endian: the bit of x⁰ is hi's top bit.
type gf struct{ hi, lo uint64 }

func loadGF(b []byte) gf { return gf{binary.BigEndian.Uint64(b), binary.BigEndian.Uint64(b[8:])} }

func (a gf) bytes() []byte {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, a.hi), a.lo)
}

// gfMul is SP 800-38D's algorithm 1, bit by bit.
func gfMul(x, y gf) gf {
	var z gf
	for i := range 128 {
		bit := x.lo >> (127 - i)
		if i < 64 {
			bit = x.hi >> (63 - i)
		}
		if bit&1 == 1 {
			z.hi, z.lo = z.hi^y.hi, z.lo^y.lo
		}
		carry := y.lo & 1
		y.lo, y.hi = y.lo>>1|y.hi<<63, y.hi>>1
		y.hi ^= carry * 0xe1 << 56
	}
	return z
}

// gfInv is a^(2^128-2), the inverse of a non-zero a.
func gfInv(a gf) gf {
	r := gf{1 << 63, 0}
	for range 127 {
		a = gfMul(a, a)
		r = gfMul(r, a)
	}
	return r
}
