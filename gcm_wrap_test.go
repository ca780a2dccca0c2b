package twofish

//lint:file-ignore SA1019 golang.org/x/crypto/twofish is the deprecated package this module replaces: crypto/cipher's GCM over it is the reference.

import (
	"bytes"
	"crypto/cipher"
	"encoding/binary"
	"testing"

	"github.com/twofish-go/twofish/internal/gf128"
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
		var h gf128.Elem
		xc.Encrypt(h[:], h[:])
		var l gf128.Elem // the nonce's length in bits, 128
		l[15] = 16 * 8
		lh, toNonce := l.Mul(h), h.Mul(h).Inverse()
		for _, last := range []uint32{0xffffffff, 0xfffffffe, 0xfffffff0, 0xffffffff - fusedBytes/BlockSize, 0} {
			var j0 gf128.Elem
			copy(j0[:], randBytes(r, 12))
			binary.BigEndian.PutUint32(j0[12:], last)
			n := j0.Add(lh).Mul(toNonce)
			nonce := n[:]
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
