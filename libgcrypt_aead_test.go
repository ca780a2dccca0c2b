//go:build cgo && libgcrypt

package twofish

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"slices"
	"testing"

	"github.com/twofish-go/twofish/internal/libgcrypt"
)

// libgcryptAEAD is an authenticated mode as both libraries take it.
type libgcryptAEAD struct {
	name   string
	mode   libgcrypt.Mode
	ours   func(c cipher.Block, nonceSize, tagSize int) (cipher.AEAD, error)
	nonces []int // nonce sizes libgcrypt takes: OCB only 8 to 15 bytes
	tags   []int // tag sizes libgcrypt makes: OCB only 8, 12 and 16
}

var libgcryptAEADs = []libgcryptAEAD{
	{"GCM", libgcrypt.GCM, func(c cipher.Block, ns, ts int) (cipher.AEAD, error) { return newGCM(c, ns, ts) },
		[]int{12, 1, 8, 16, 60}, []int{16, 12, 13, 14, 15}},
	{"OCB", libgcrypt.OCB, NewOCB, []int{12, 15, 8, 13}, []int{16, 8, 12}},
	{"EAX", libgcrypt.EAX, NewEAX, []int{16, 12, 1, 33}, []int{16, 8, 12}},
}

// libgcryptSeal seals with libgcrypt: the ciphertext followed by the tag.
func libgcryptSeal(t testing.TB, m libgcryptAEAD, key, nonce, pt, ad []byte, tagSize int) []byte {
	t.Helper()
	g, err := libgcrypt.New(m.mode, key)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if m.mode == libgcrypt.OCB {
		if err := g.SetTagLen(tagSize); err != nil {
			t.Fatal(err)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("libgcrypt %s: %v", m.name, err)
		}
	}
	must(g.SetIV(nonce))
	must(g.Authenticate(ad))
	must(g.Final())
	sealed := make([]byte, len(pt)+tagSize)
	must(g.Encrypt(sealed[:len(pt)], pt))
	must(g.GetTag(sealed[len(pt):]))
	return sealed
}

// libgcryptOpen opens with libgcrypt and reports whether the tag checked.
func libgcryptOpen(t testing.TB, m libgcryptAEAD, key, nonce, sealed, ad []byte, tagSize int) ([]byte, bool) {
	t.Helper()
	g, err := libgcrypt.New(m.mode, key)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if m.mode == libgcrypt.OCB {
		if err := g.SetTagLen(tagSize); err != nil {
			t.Fatal(err)
		}
	}
	ct, tag := sealed[:len(sealed)-tagSize], sealed[len(sealed)-tagSize:]
	if g.SetIV(nonce) != nil || g.Authenticate(ad) != nil || g.Final() != nil {
		t.Fatal("libgcrypt: setup failed")
	}
	pt := make([]byte, len(ct))
	if err := g.Decrypt(pt, ct); err != nil {
		t.Fatal(err)
	}
	return pt, g.CheckTag(tag) == nil
}

// TestAEADAgainstLibgcrypt compares GCM, OCB and EAX with the system
// libgcrypt (whose OCB, GCM and EAX take any 128-bit
// block cipher) for every implementation: 128- and 256-bit keys (libgcrypt
// has no 192-bit Twofish), random keys, nonces, tag sizes, associated data
// and lengths including 0 and lengths that are not whole blocks, both
// ways, and checks that each refuses the other's ciphertext with a byte
// changed. Run with: go test -tags libgcrypt -run Libgcrypt .
func TestAEADAgainstLibgcrypt(t *testing.T) {
	t.Logf("libgcrypt %s", libgcrypt.Version())
	for _, m := range libgcryptAEADs {
		t.Run(m.name, func(t *testing.T) {
			forEachImpl(t, func(t *testing.T, impl Implementation) {
				r := testRand(t)
				for _, ks := range []int{16, 32} {
					for i := range 80 {
						n, adLen := r.IntN(1100), r.IntN(100)
						switch i {
						case 0:
							n, adLen = 0, 0
						case 1:
							n, adLen = 0, 17
						case 2:
							n, adLen = 8192, 0
						case 3:
							n, adLen = 65536+7, 2000
						case 4:
							n, adLen = 16*64*3+15, 16*64+1
						}
						ns, ts := m.nonces[i%len(m.nonces)], m.tags[i%len(m.tags)]
						key, nonce, pt, ad := randBytes(r, ks), randBytes(r, ns), randBytes(r, n), randBytes(r, adLen)
						what := fmt.Sprintf("%d-bit key, nonce %d, tag %d, %d bytes, %d of associated data", 8*ks, ns, ts, n, adLen)
						a, err := m.ours(mustCipher(t, key, impl.Name), ns, ts)
						if err != nil {
							t.Fatal(err)
						}
						want := libgcryptSeal(t, m, key, nonce, pt, ad, ts)
						got := a.Seal(nil, nonce, pt, ad)
						if !bytes.Equal(got, want) {
							t.Fatalf("%s: Seal differs from libgcrypt", what)
						}
						if back, err := a.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(back, pt) {
							t.Fatalf("%s: Open of libgcrypt's output: %v", what, err)
						}
						if back, ok := libgcryptOpen(t, m, key, nonce, got, ad, ts); !ok || !bytes.Equal(back, pt) {
							t.Fatalf("%s: libgcrypt does not open our output", what)
						}
						bad := slices.Clone(got)
						bad[r.IntN(len(bad))] ^= byte(1 + r.IntN(255))
						if _, err := a.Open(nil, nonce, bad, ad); err == nil {
							t.Fatalf("%s: Open accepted a changed byte", what)
						}
						if _, ok := libgcryptOpen(t, m, key, nonce, bad, ad, ts); ok {
							t.Fatalf("%s: libgcrypt accepted a changed byte", what)
						}
					}
				}
			})
		})
	}
}
