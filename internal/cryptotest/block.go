package cryptotest

import (
	"bytes"
	"crypto/cipher"
	"errors"
	"fmt"
	"testing"

	"github.com/twofish-go/twofish/internal/testrand"
)

// MakeBlock returns a cipher.Block keyed with key, or an error for a key
// it refuses.
type MakeBlock func(key []byte) (cipher.Block, error)

// TestBlock checks the cipher.Block that mk makes from a random key of
// keySize bytes: Encrypt and Decrypt as crypto/cipher.Block documents
// them, with the panics this module's ciphers add, Decrypt as Encrypt's
// inverse, and that mk refuses an empty key and one a byte shorter or
// longer than keySize with the error keyErr(len(key)).
func TestBlock(t *testing.T, keySize int, mk MakeBlock, keyErr func(size int) error) {
	r := testrand.New(t)
	b, err := mk(testrand.Bytes(r, keySize))
	if err != nil {
		t.Fatalf("%d-byte key: %v", keySize, err)
	}
	t.Run("Encrypt", func(t *testing.T) { testBlockOp(t, "Encrypt", b.BlockSize(), b.Encrypt) })
	t.Run("Decrypt", func(t *testing.T) { testBlockOp(t, "Decrypt", b.BlockSize(), b.Decrypt) })

	// Decrypt undoes Encrypt and Encrypt undoes Decrypt, and neither
	// leaves a block as it was: a cipher that did nothing would pass every
	// other check.
	t.Run("RoundTrip", func(t *testing.T) {
		r := testrand.New(t)
		bs := b.BlockSize()
		for range 16 {
			p := testrand.Bytes(r, bs)
			c, back := make([]byte, bs), make([]byte, bs)
			b.Encrypt(c, p)
			if bytes.Equal(c, p) {
				t.Fatalf("Encrypt(%x) gives the block itself", p)
			}
			if b.Decrypt(back, c); !bytes.Equal(back, p) {
				t.Fatalf("Decrypt(Encrypt(%x)) = %x", p, back)
			}
			b.Decrypt(c, p)
			if b.Encrypt(back, c); !bytes.Equal(back, p) {
				t.Fatalf("Encrypt(Decrypt(%x)) = %x", p, back)
			}
		}
	})

	// A key of the wrong length is an error, the package's own, not a
	// panic or a cipher with part of a key.
	t.Run("WrongKeySizes", func(t *testing.T) {
		for _, n := range []int{0, keySize - 1, keySize + 1} {
			if _, err := mk(make([]byte, n)); !errors.Is(err, keyErr(n)) {
				t.Errorf("%d-byte key: error %v, want %v", n, err, keyErr(n))
			}
		}
	})
}

// testBlockOp checks f, a cipher.Block's Encrypt or Decrypt, named op, on
// blocks of bs bytes.
func testBlockOp(t *testing.T, op string, bs int, f func(dst, src []byte)) {
	// src is only read, and so is the rest of a longer one: a caller may
	// keep the input.
	t.Run("SrcUnchanged", func(t *testing.T) {
		r := testrand.New(t)
		src := randSlice(r, 2*bs)
		before := bytes.Clone(src)
		f(make([]byte, bs), src)
		if i := firstDiff(src, before); i >= 0 {
			t.Errorf("%s changed src[%d]", op, i)
		}
	})

	// dst == src gives what separate buffers give: crypto/cipher allows
	// it, and the modes work in place.
	t.Run("InPlace", func(t *testing.T) {
		r := testrand.New(t)
		buf := randSlice(r, bs)
		want := make([]byte, bs)
		f(want, buf)
		if f(buf, buf); !bytes.Equal(buf, want) {
			t.Errorf("%s in place gives %x, separate buffers %x", op, buf, want)
		}
	})

	// Only dst[:BlockSize] is written, neither past it in a longer dst
	// nor before it in its array: the caller may keep other data there.
	t.Run("DstTail", func(t *testing.T) {
		r := testrand.New(t)
		src := randSlice(r, bs)
		for _, n := range []int{bs, bs + 1, 3 * bs} {
			pad := 1 + r.IntN(bs)
			arena := testrand.Bytes(r, pad+n)
			before := bytes.Clone(arena)
			f(arena[pad:], src)
			checkRegions(t, fmt.Sprintf("%s into a dst of %d bytes", op, n), arena, before, pad, pad+bs)
		}
	})

	// The result depends on src[:BlockSize] alone, not on the bytes after
	// it in a longer src.
	t.Run("SrcTail", func(t *testing.T) {
		r := testrand.New(t)
		long := randSlice(r, 3*bs)
		want, got := make([]byte, bs), make([]byte, bs)
		f(want, bytes.Clone(long[:bs]))
		if f(got, long); !bytes.Equal(got, want) {
			t.Errorf("%s of a %d-byte src gives %x, of its first block %x", op, len(long), got, want)
		}
	})

	// What dst held before does not change the result.
	t.Run("DstContents", func(t *testing.T) {
		r := testrand.New(t)
		src := randSlice(r, bs)
		want, got := make([]byte, bs), randSlice(r, bs)
		f(want, src)
		if f(got, src); !bytes.Equal(got, want) {
			t.Errorf("%s into a dst of random bytes gives %x, into zeros %x", op, got, want)
		}
	})

	// dst and src that share memory but not their start panic before
	// anything is written: only exact aliasing is defined.
	t.Run("InexactOverlap", func(t *testing.T) {
		r := testrand.New(t)
		arena := testrand.Bytes(r, 2*bs)
		for _, c := range overlaps(arena, bs) {
			mustPanicUntouched(t, op+", "+c.what, "invalid buffer overlap", arena, func() { f(c.dst, c.src) })
		}
	})

	// A src or dst shorter than a block panics before anything is
	// written, even where its capacity holds a block: a kernel must not
	// read or write past len.
	t.Run("ShortBuffers", func(t *testing.T) {
		r := testrand.New(t)
		arena := testrand.Bytes(r, 4*bs)
		dst, src := arena[:bs], arena[2*bs:3*bs]
		for _, c := range []struct {
			what, want string
			dst, src   []byte
		}{
			{"src a byte short", "input not full block", dst, src[:bs-1]},
			{"src of one byte", "input not full block", dst, src[:1]},
			{"empty src", "input not full block", dst, src[:0]},
			{"nil src", "input not full block", dst, nil},
			{"dst a byte short", "output not full block", dst[:bs-1], src},
			{"dst of one byte", "output not full block", dst[:1], src},
			{"empty dst", "output not full block", dst[:0], src},
			{"nil dst", "output not full block", nil, src},
		} {
			mustPanicUntouched(t, op+", "+c.what, c.want, arena, func() { f(c.dst, c.src) })
		}
	})
}
