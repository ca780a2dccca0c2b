package cryptotest

import (
	"bytes"
	"crypto/cipher"
	"crypto/subtle"
	"fmt"
	"testing"

	"github.com/twofish-go/twofish/internal/testrand"
)

// MakeStream returns a Stream over b that starts from iv.
type MakeStream func(b cipher.Block, iv []byte) cipher.Stream

// TestStream checks the Stream that mk makes over block from a random IV
// of a block, one whose output is its input XORed with a key stream that
// the key and IV alone decide (CTR, OFB): XORKeyStream as
// crypto/cipher.Stream documents it, with the panics of crypto/cipher's
// own streams, and those XOR semantics.
func TestStream(t *testing.T, block cipher.Block, mk MakeStream) {
	r := testrand.New(t)
	iv := testrand.Bytes(r, block.BlockSize())
	testStream(t, block, iv, mk)

	// The output is src XORed with the key stream, which is what the
	// stream makes of zeros: so it is its own inverse, and the key
	// stream does not depend on the data.
	t.Run("XORSemantics", func(t *testing.T) {
		r := testrand.New(t)
		for _, n := range byteLengths(block.BlockSize()) {
			ks, src, got := make([]byte, n), randSlice(r, n), make([]byte, n)
			mk(block, iv).XORKeyStream(ks, ks)
			mk(block, iv).XORKeyStream(got, src)
			want := make([]byte, n)
			subtle.XORBytes(want, src, ks)
			if i := firstDiff(got, want); i >= 0 {
				t.Fatalf("%d bytes: byte %d is not src's XOR the key stream's", n, i)
			}
			if mk(block, iv).XORKeyStream(got, got); !bytes.Equal(got, src) {
				t.Fatalf("%d bytes: the stream applied twice does not give back src", n)
			}
		}
	})
}

// TestStreamPair checks the Streams that enc and dec make over block from
// a random IV of a block, which feed the ciphertext back into the key
// stream (CFB), so that TestStream's XOR semantics do not hold: the rest
// of what TestStream checks, of each, and dec as enc's inverse.
func TestStreamPair(t *testing.T, block cipher.Block, enc, dec MakeStream) {
	r := testrand.New(t)
	iv := testrand.Bytes(r, block.BlockSize())
	t.Run("Encrypter", func(t *testing.T) { testStream(t, block, iv, enc) })
	t.Run("Decrypter", func(t *testing.T) { testStream(t, block, iv, dec) })

	// The decrypter undoes the encrypter, and the encrypter changes every
	// message of 8 bytes or more (a shorter one may stay as it was by
	// chance).
	t.Run("RoundTrip", func(t *testing.T) {
		r := testrand.New(t)
		for _, n := range byteLengths(block.BlockSize()) {
			src := randSlice(r, n)
			ct, back := make([]byte, n), make([]byte, n)
			enc(block, iv).XORKeyStream(ct, src)
			if n >= 8 && bytes.Equal(ct, src) {
				t.Fatalf("%d bytes: encryption left them as they were", n)
			}
			if dec(block, iv).XORKeyStream(back, ct); !bytes.Equal(back, src) {
				t.Fatalf("%d bytes: decryption does not give back the plaintext", n)
			}
		}
	})
}

// testStream checks what every Stream of this module promises, of the one
// that mk makes over b from iv.
func testStream(t *testing.T, b cipher.Block, iv []byte, mk MakeStream) {
	// An IV of another length than a block panics in the constructor, as
	// this module's streams promise (crypto/cipher's CFB did not always).
	t.Run("WrongIVLength", func(t *testing.T) {
		for _, n := range []int{0, len(iv) - 1, len(iv) + 1, 2 * len(iv)} {
			mustPanic(t, fmt.Sprintf("a %d-byte IV", n), "IV length must equal block size", func() { mk(b, make([]byte, n)) })
		}
	})

	// An empty src leaves dst as it was, and the stream too: the next call
	// gives what a new stream's first call gives.
	t.Run("EmptyInput", func(t *testing.T) {
		r := testrand.New(t)
		s := mk(b, iv)
		dst := testrand.Bytes(r, 100)
		before := bytes.Clone(dst)
		s.XORKeyStream(dst, nil)
		s.XORKeyStream(dst[:0], dst[50:50])
		s.XORKeyStream(nil, nil)
		if i := firstDiff(dst, before); i >= 0 {
			t.Fatalf("XORKeyStream of nothing wrote dst[%d]", i)
		}
		src, got, want := randSlice(r, 100), make([]byte, 100), make([]byte, 100)
		s.XORKeyStream(got, src)
		mk(b, iv).XORKeyStream(want, src)
		if !bytes.Equal(got, want) {
			t.Errorf("after XORKeyStream of nothing, a call gives what a new stream's does not")
		}
	})

	// src is only read.
	t.Run("SrcUnchanged", func(t *testing.T) {
		r := testrand.New(t)
		for _, n := range byteLengths(b.BlockSize()) {
			src := randSlice(r, n)
			before := bytes.Clone(src)
			mk(b, iv).XORKeyStream(make([]byte, n), src)
			if i := firstDiff(src, before); i >= 0 {
				t.Fatalf("%d bytes: XORKeyStream changed src[%d]", n, i)
			}
		}
	})

	// dst == src gives what separate buffers give: crypto/cipher allows
	// it.
	t.Run("InPlace", func(t *testing.T) {
		r := testrand.New(t)
		for _, n := range byteLengths(b.BlockSize()) {
			buf := randSlice(r, n)
			want := make([]byte, n)
			mk(b, iv).XORKeyStream(want, buf)
			if mk(b, iv).XORKeyStream(buf, buf); !bytes.Equal(buf, want) {
				t.Fatalf("%d bytes: in place differs from separate buffers", n)
			}
		}
	})

	// A dst longer than src is written up to len(src) only, and nothing
	// before it in its array is: a partial last block's key stream must
	// not spill.
	t.Run("DstTail", func(t *testing.T) {
		r := testrand.New(t)
		for _, n := range byteLengths(b.BlockSize()) {
			src := randSlice(r, n)
			pad := 1 + r.IntN(b.BlockSize())
			arena := testrand.Bytes(r, pad+n+2*b.BlockSize())
			before := bytes.Clone(arena)
			mk(b, iv).XORKeyStream(arena[pad:], src)
			checkRegions(t, fmt.Sprintf("%d bytes into a longer dst", n), arena, before, pad, pad+n)
		}
	})

	// A dst shorter than src panics before anything is written, even
	// where its capacity would hold the output.
	t.Run("ShortDst", func(t *testing.T) {
		r := testrand.New(t)
		for _, n := range byteLengths(b.BlockSize()) {
			arena := testrand.Bytes(r, 2*n)
			dst, src := arena[:n], arena[n:]
			mustPanicUntouched(t, fmt.Sprintf("%d bytes, dst a byte short", n), "output smaller than input", arena,
				func() { mk(b, iv).XORKeyStream(dst[:n-1], src) })
			mustPanicUntouched(t, fmt.Sprintf("%d bytes, empty dst", n), "output smaller than input", arena,
				func() { mk(b, iv).XORKeyStream(dst[:0], src) })
		}
	})

	// dst and src that share memory but not their start panic before
	// anything is written.
	t.Run("InexactOverlap", func(t *testing.T) {
		r := testrand.New(t)
		for _, n := range byteLengths(b.BlockSize()) {
			if n < 2 {
				continue // a byte overlaps exactly or not at all
			}
			arena := testrand.Bytes(r, 2*n)
			for _, c := range overlaps(arena, n) {
				mustPanicUntouched(t, fmt.Sprintf("%d bytes, %s", n, c.what), "invalid buffer overlap", arena,
					func() { mk(b, iv).XORKeyStream(c.dst, c.src) })
			}
		}
	})

	// Calls continue one another: a message cut anywhere, within blocks
	// too, in pieces of fixed or random sizes and empty ones among them,
	// gives what one call gives.
	t.Run("Splits", func(t *testing.T) {
		r := testrand.New(t)
		bs := b.BlockSize()
		n := (2*groupBlocks+5)*bs + 7
		src, want := randSlice(r, n), make([]byte, n)
		mk(b, iv).XORKeyStream(want, src)
		piece := []func() int{
			func() int { return 1 },
			func() int { return bs - 1 },
			func() int { return bs + 1 },
			func() int { return 5*bs + 3 },
			func() int { return r.IntN(3 * bs) },
			func() int { return r.IntN(groupBlocks * bs * 3 / 2) },
			func() int { return r.IntN(groupBlocks * bs * 3 / 2) },
			func() int { return []int{0, 1, bs, 6 * bs, groupBlocks * bs}[r.IntN(5)] + r.IntN(bs) },
		}
		for _, next := range piece {
			s, got := mk(b, iv), make([]byte, n)
			var cuts []int
			for i := 0; i < n; {
				k := min(next(), n-i)
				s.XORKeyStream(got[i:i+k], src[i:i+k])
				cuts = append(cuts, i)
				i += k
			}
			if i := firstDiff(got, want); i >= 0 {
				t.Fatalf("%d bytes in %d calls: byte %d, in the call for %s, differs from one call's", n, len(cuts), i, callOf(cuts, i, n))
			}
		}
	})
}
