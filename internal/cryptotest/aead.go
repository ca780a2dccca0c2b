package cryptotest

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/twofish-go/twofish/internal/testrand"
)

// MakeAEAD returns the AEAD under test, with the same key and parameters
// at every call.
type MakeAEAD func() (cipher.AEAD, error)

// TestAEAD checks the AEAD that mk makes, configured for nonces of
// nonceSize bytes (at least 1) and tags of overhead bytes: Seal and Open as
// crypto/cipher.AEAD documents them, with the panics of crypto/cipher's
// GCM, and that Open refuses every change to what Seal made.
func TestAEAD(t *testing.T, nonceSize, overhead int, mk MakeAEAD) {
	a, err := mk()
	if err != nil {
		t.Fatal(err)
	}

	// NonceSize and Overhead are what the AEAD was made with.
	t.Run("Sizes", func(t *testing.T) {
		if got := a.NonceSize(); got != nonceSize {
			t.Errorf("NonceSize() = %d, want %d", got, nonceSize)
		}
		if got := a.Overhead(); got != overhead {
			t.Errorf("Overhead() = %d, want %d", got, overhead)
		}
	})

	// Open gives back what Seal sealed, for every pairing of plaintext
	// and additional-data lengths; Seal's output is Overhead bytes longer
	// than the plaintext, and the same for the same inputs.
	t.Run("RoundTrip", func(t *testing.T) {
		r := testrand.New(t)
		for _, c := range aeadCases() {
			nonce, pt, ad := testrand.Bytes(r, nonceSize), randSlice(r, c.pt), randSlice(r, c.ad)
			ct := a.Seal(nil, nonce, pt, ad)
			if len(ct) != c.pt+overhead {
				t.Fatalf("%s: Seal gives %d bytes, want %d", c, len(ct), c.pt+overhead)
			}
			if again := a.Seal(nil, nonce, pt, ad); !bytes.Equal(again, ct) {
				t.Fatalf("%s: Seal gives another output the second time", c)
			}
			back, err := a.Open(nil, nonce, ct, ad)
			if err != nil || !bytes.Equal(back, pt) {
				t.Fatalf("%s: Open of what Seal gave: error %v, plaintext back %t", c, err, bytes.Equal(back, pt))
			}
		}
	})

	// Seal and Open only read the nonce, the plaintext or ciphertext and
	// the additional data.
	t.Run("InputsUnchanged", func(t *testing.T) {
		r := testrand.New(t)
		for _, c := range aeadCases() {
			nonce, pt, ad := testrand.Bytes(r, nonceSize), randSlice(r, c.pt), randSlice(r, c.ad)
			n0, p0, a0 := bytes.Clone(nonce), bytes.Clone(pt), bytes.Clone(ad)
			ct := a.Seal(nil, nonce, pt, ad)
			if !bytes.Equal(nonce, n0) || !bytes.Equal(pt, p0) || !bytes.Equal(ad, a0) {
				t.Fatalf("%s: Seal changed its nonce, plaintext or additional data", c)
			}
			c0 := bytes.Clone(ct)
			if _, err := a.Open(nil, nonce, ct, ad); err != nil {
				t.Fatalf("%s: Open: %v", c, err)
			}
			if !bytes.Equal(nonce, n0) || !bytes.Equal(ct, c0) || !bytes.Equal(ad, a0) {
				t.Fatalf("%s: Open changed its nonce, ciphertext or additional data", c)
			}
		}
	})

	// Seal and Open append to dst: its bytes stay, a short prefix or a
	// long one, the output follows them, into dst's spare capacity where
	// it has room (without writing past the output) and into a new array
	// where it has not.
	t.Run("AppendDst", func(t *testing.T) {
		r := testrand.New(t)
		for _, c := range aeadCases() {
			nonce, pt, ad := testrand.Bytes(r, nonceSize), randSlice(r, c.pt), randSlice(r, c.ad)
			ct := a.Seal(nil, nonce, pt, ad)
			for _, p := range []int{1, 16, 512} {
				for _, spare := range []int{0, c.pt + overhead + 17} {
					what := fmt.Sprintf("%s, %d-byte prefix, %d spare", c, p, spare)
					checkAppend(t, r, "Seal "+what, p, spare, ct, func(dst []byte) []byte { return a.Seal(dst, nonce, pt, ad) })
					checkAppend(t, r, "Open "+what, p, spare, pt, func(dst []byte) []byte {
						out, err := a.Open(dst, nonce, ct, ad)
						if err != nil {
							t.Fatalf("Open %s: %v", what, err)
						}
						return out
					})
				}
			}
		}
	})

	// Seal into the plaintext's own array (plaintext[:0], as
	// crypto/cipher documents) and Open into the ciphertext's give what
	// separate buffers give.
	t.Run("InPlace", func(t *testing.T) {
		r := testrand.New(t)
		for _, c := range aeadCases() {
			nonce, pt, ad := testrand.Bytes(r, nonceSize), randSlice(r, c.pt), randSlice(r, c.ad)
			want := a.Seal(nil, nonce, pt, ad)
			buf := make([]byte, c.pt, c.pt+overhead)
			copy(buf, pt)
			if got := a.Seal(buf[:0], nonce, buf, ad); !bytes.Equal(got, want) {
				t.Fatalf("%s: Seal in place differs from Seal into new memory", c)
			}
			got, err := a.Open(buf[:0], nonce, buf[:c.pt+overhead], ad)
			if err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("%s: Open in place: error %v, plaintext back %t", c, err, bytes.Equal(got, pt))
			}
		}
	})

	// A changed byte of the nonce makes Open fail: the nonce is
	// authenticated.
	t.Run("WrongNonce", func(t *testing.T) {
		checkForgeries(t, a, nonceSize, func(r *rand.Rand, m *message) bool {
			flip(r, m.nonce)
			return true
		})
	})

	// Changed additional data, a byte of it or its length, makes Open
	// fail.
	t.Run("WrongAdditionalData", func(t *testing.T) {
		checkForgeries(t, a, nonceSize, func(r *rand.Rand, m *message) bool {
			switch {
			case len(m.ad) == 0:
				m.ad = []byte{0}
			case r.IntN(2) == 0:
				m.ad = m.ad[:len(m.ad)-1]
			default:
				flip(r, m.ad)
			}
			return true
		})
	})

	// A changed byte of the ciphertext before the tag makes Open fail.
	t.Run("WrongCiphertext", func(t *testing.T) {
		checkForgeries(t, a, nonceSize, func(r *rand.Rand, m *message) bool {
			if len(m.ct) == overhead {
				return false
			}
			flip(r, m.ct[:len(m.ct)-overhead])
			return true
		})
	})

	// A changed byte of the tag makes Open fail.
	t.Run("WrongTag", func(t *testing.T) {
		checkForgeries(t, a, nonceSize, func(r *rand.Rand, m *message) bool {
			flip(r, m.ct[len(m.ct)-overhead:])
			return true
		})
	})

	// A ciphertext shorter than a tag fails to open, and returns nil.
	t.Run("ShortCiphertext", func(t *testing.T) {
		r := testrand.New(t)
		nonce := testrand.Bytes(r, nonceSize)
		for n := range overhead {
			if out, err := a.Open(nil, nonce, testrand.Bytes(r, n), nil); err == nil || out != nil {
				t.Errorf("Open of %d bytes, shorter than the %d-byte tag: %d bytes, error %v", n, overhead, len(out), err)
			}
		}
	})

	// A nonce of another length than NonceSize panics in Seal and in
	// Open: crypto/cipher documents it, and a short nonce would repeat.
	t.Run("WrongNonceLength", func(t *testing.T) {
		r := testrand.New(t)
		nonce := testrand.Bytes(r, nonceSize)
		ct := a.Seal(nil, nonce, testrand.Bytes(r, 40), nil)
		for _, n := range []int{0, nonceSize - 1, nonceSize + 1, 2 * nonceSize} {
			wrong := testrand.Bytes(r, n)
			mustPanic(t, fmt.Sprintf("Seal with a %d-byte nonce", n), "incorrect nonce length", func() { a.Seal(nil, wrong, nil, nil) })
			mustPanic(t, fmt.Sprintf("Open with a %d-byte nonce", n), "incorrect nonce length", func() { a.Open(nil, wrong, ct, nil) })
		}
	})

	// An output that shares memory with the input but does not start
	// with it panics: only plaintext[:0] and ciphertext[:0] are allowed.
	t.Run("InexactOverlap", func(t *testing.T) {
		r := testrand.New(t)
		nonce := testrand.Bytes(r, nonceSize)
		for _, n := range []int{2, 17, 333, groupBlocks*16 + 5} {
			buf := testrand.Bytes(r, 2*n+2*overhead)
			pt := buf[:n]
			want := a.Seal(nil, nonce, pt, nil)
			mustPanic(t, fmt.Sprintf("Seal of %d bytes into dst a byte after them", n), "invalid buffer overlap",
				func() { a.Seal(buf[1:1], nonce, pt, nil) })
			mustPanic(t, fmt.Sprintf("Seal of %d bytes into dst from their last byte", n), "invalid buffer overlap",
				func() { a.Seal(buf[n-1:n-1], nonce, pt, nil) })
			ct := buf[:len(want)]
			copy(ct, want)
			mustPanic(t, fmt.Sprintf("Open of %d bytes into dst a byte after them", n), "invalid buffer overlap",
				func() { a.Open(buf[1:1], nonce, ct, nil) })
			mustPanic(t, fmt.Sprintf("Open of %d bytes into dst from the last byte before the tag", n), "invalid buffer overlap",
				func() { a.Open(buf[n-1:n-1], nonce, ct, nil) })
		}
	})

	// An output that shares any memory with the additional data panics:
	// crypto/cipher does not allow them to overlap.
	t.Run("AdditionalDataOverlap", func(t *testing.T) {
		r := testrand.New(t)
		nonce, pt := testrand.Bytes(r, nonceSize), testrand.Bytes(r, 64)
		buf := testrand.Bytes(r, 2*len(pt)+overhead)
		ad := buf[10:20]
		ct := a.Seal(nil, nonce, pt, ad)
		mustPanic(t, "Seal into dst over the additional data", "invalid buffer overlap", func() { a.Seal(buf[:0], nonce, pt, ad) })
		mustPanic(t, "Open into dst over the additional data", "invalid buffer overlap", func() { a.Open(buf[:0], nonce, ct, ad) })
	})
}

// aeadCase is a plaintext length and an additional-data length.
type aeadCase struct{ pt, ad int }

func (c aeadCase) String() string { return fmt.Sprintf("%d bytes, %d of additional data", c.pt, c.ad) }

// aeadCases returns the pairings of lengths that TestAEAD tries: every
// pairing of a few lengths around a block and of a few KiB, which pass
// the fused kernels' groups, and in exhaustive runs every length up to
// three blocks and around a group with a few of those.
func aeadCases() []aeadCase {
	ls := []int{0, 1, 15, 16, 17, 64, 333, 3*groupBlocks*16 + 200 + 3}
	if testing.Short() {
		ls = []int{0, 1, 17, 333, 3*groupBlocks*16 + 200 + 3}
	}
	var cs []aeadCase
	for _, p := range ls {
		for _, a := range ls {
			cs = append(cs, aeadCase{p, a})
		}
	}
	if exhaustive() {
		var more []int
		for n := 2; n <= 48; n++ {
			more = append(more, n)
		}
		for n := groupBlocks*16 - 17; n <= groupBlocks*16+17; n++ {
			more = append(more, n)
		}
		for _, n := range more {
			cs = append(cs, aeadCase{n, 0}, aeadCase{n, 17}, aeadCase{0, n}, aeadCase{333, n})
		}
	}
	return cs
}

// checkAppend checks what op, a Seal or an Open, does with a dst of a
// p-byte prefix and spare bytes of capacity after it: the prefix kept,
// want after it, in dst's array if it fits, and the capacity past want
// unwritten.
func checkAppend(t *testing.T, r *rand.Rand, what string, p, spare int, want []byte, op func(dst []byte) []byte) {
	t.Helper()
	arena := testrand.Bytes(r, p+spare)
	before := bytes.Clone(arena)
	out := op(arena[:p])
	if len(out) != p+len(want) || !bytes.Equal(out[:p], before[:p]) {
		t.Fatalf("%s: the output does not keep dst's prefix", what)
	}
	if !bytes.Equal(out[p:], want) {
		t.Fatalf("%s: the output after the prefix differs from one into new memory", what)
	}
	if spare >= len(want) {
		if &out[0] != &arena[0] {
			t.Fatalf("%s: the output is in new memory, though dst had room", what)
		}
		if i := firstDiff(arena[p+len(want):], before[p+len(want):]); i >= 0 {
			t.Fatalf("%s: wrote byte %d of dst's capacity past the output", what, i)
		}
	}
}

// message is what Open takes besides dst.
type message struct{ nonce, ct, ad []byte }

// checkForgeries seals messages of TestAEAD's lengths, lets forge change
// each (it returns false for a message with nothing of the kind it
// changes), and checks that Open refuses the result with nil and an
// error.
func checkForgeries(t *testing.T, a cipher.AEAD, nonceSize int, forge func(r *rand.Rand, m *message) bool) {
	r := testrand.New(t)
	for _, c := range aeadCases() {
		nonce, pt, ad := testrand.Bytes(r, nonceSize), randSlice(r, c.pt), randSlice(r, c.ad)
		m := message{nonce, a.Seal(nil, nonce, pt, ad), ad}
		if !forge(r, &m) {
			continue
		}
		if out, err := a.Open(nil, m.nonce, m.ct, m.ad); err == nil || out != nil {
			t.Fatalf("%s: Open of a forgery: %d bytes, error %v, want nil and an error", c, len(out), err)
		}
	}
}

// flip changes a random byte of b by a random nonzero XOR.
func flip(r *rand.Rand, b []byte) { b[r.IntN(len(b))] ^= byte(1 + r.IntN(255)) }
