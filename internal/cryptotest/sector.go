package cryptotest

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/twofish-go/twofish/internal/testrand"
)

// SectorFunc encrypts or decrypts src into dst as the sector sectorNum:
// the shape of golang.org/x/crypto/xts.Cipher's methods.
type SectorFunc func(dst, src []byte, sectorNum uint64)

// TestSectors checks enc and dec, a tweakable cipher's sector functions
// (XTS with ciphertext stealing) on sectors of at least blockSize bytes:
// those of TestBlockMode's checks that fit a mode whose calls are
// independent sectors of any length from a block on, dec as enc's
// inverse, and the sector number as part of the key.
func TestSectors(t *testing.T, blockSize int, enc, dec SectorFunc) {
	t.Run("Encrypt", func(t *testing.T) { testSectors(t, blockSize, enc) })
	t.Run("Decrypt", func(t *testing.T) { testSectors(t, blockSize, dec) })

	// dec undoes enc, enc changes every sector, and the same data in
	// another sector encrypts to something else.
	t.Run("RoundTrip", func(t *testing.T) {
		r := testrand.New(t)
		for _, n := range sectorLengths(blockSize) {
			sector := r.Uint64()
			src := randSlice(r, n)
			ct, other, back := make([]byte, n), make([]byte, n), make([]byte, n)
			enc(ct, src, sector)
			if bytes.Equal(ct, src) {
				t.Fatalf("%d bytes: encryption left them as they were", n)
			}
			if enc(other, src, sector+1); bytes.Equal(other, ct) {
				t.Fatalf("%d bytes: sectors %d and %d encrypt alike", n, sector, sector+1)
			}
			if dec(back, ct, sector); !bytes.Equal(back, src) {
				t.Fatalf("%d bytes: decryption does not give back the plaintext", n)
			}
		}
	})
}

// sectorLengths returns the sector lengths that TestSectors tries: whole
// blocks and partial last blocks, which ciphertext stealing takes.
func sectorLengths(blockSize int) []int {
	var ns []int
	for _, n := range byteLengths(blockSize) {
		if n >= blockSize {
			ns = append(ns, n)
		}
	}
	return ns
}

// testSectors checks f, one of the sector functions, on blocks of bs
// bytes.
func testSectors(t *testing.T, bs int, f SectorFunc) {
	// An empty sector leaves dst as it was, as golang.org/x/crypto/xts
	// does.
	t.Run("EmptyInput", func(t *testing.T) {
		r := testrand.New(t)
		dst := testrand.Bytes(r, 2*bs)
		before := bytes.Clone(dst)
		f(dst, nil, 1)
		f(dst[:0], dst[bs:bs], 1)
		f(nil, nil, 1)
		if i := firstDiff(dst, before); i >= 0 {
			t.Errorf("a sector of nothing wrote dst[%d]", i)
		}
	})

	// A sector of 1 to blockSize-1 bytes panics before anything is
	// written: there is no block to steal from.
	t.Run("ShortInput", func(t *testing.T) {
		r := testrand.New(t)
		arena := testrand.Bytes(r, 2*bs)
		for n := 1; n < bs; n++ {
			mustPanicUntouched(t, fmt.Sprintf("%d bytes", n), "shorter than one block", arena,
				func() { f(arena[:n], arena[bs:bs+n], 1) })
		}
	})

	// Calls are independent: the same sector gives the same output, and
	// src is only read.
	t.Run("SrcUnchanged", func(t *testing.T) {
		r := testrand.New(t)
		for _, n := range sectorLengths(bs) {
			src := randSlice(r, n)
			before := bytes.Clone(src)
			a, b := make([]byte, n), make([]byte, n)
			f(a, src, 7)
			f(b, src, 7)
			if i := firstDiff(src, before); i >= 0 {
				t.Fatalf("%d bytes: changed src[%d]", n, i)
			}
			if !bytes.Equal(a, b) {
				t.Fatalf("%d bytes: the same sector twice gives two outputs", n)
			}
		}
	})

	// dst == src gives what separate buffers give.
	t.Run("InPlace", func(t *testing.T) {
		r := testrand.New(t)
		for _, n := range sectorLengths(bs) {
			buf := randSlice(r, n)
			want := make([]byte, n)
			f(want, buf, 7)
			if f(buf, buf, 7); !bytes.Equal(buf, want) {
				t.Fatalf("%d bytes: in place differs from separate buffers", n)
			}
		}
	})

	// A dst longer than src is written up to len(src) only, and nothing
	// before it in its array is: the stolen tail must not spill.
	t.Run("DstTail", func(t *testing.T) {
		r := testrand.New(t)
		for _, n := range sectorLengths(bs) {
			src := randSlice(r, n)
			pad := 1 + r.IntN(bs)
			arena := testrand.Bytes(r, pad+n+2*bs)
			before := bytes.Clone(arena)
			f(arena[pad:], src, 7)
			checkRegions(t, fmt.Sprintf("%d bytes into a longer dst", n), arena, before, pad, pad+n)
		}
	})

	// A dst shorter than src panics before anything is written.
	t.Run("ShortDst", func(t *testing.T) {
		r := testrand.New(t)
		for _, n := range sectorLengths(bs) {
			arena := testrand.Bytes(r, 2*n)
			mustPanicUntouched(t, fmt.Sprintf("%d bytes, dst a byte short", n), "smaller than", arena,
				func() { f(arena[:n-1], arena[n:], 7) })
		}
	})

	// dst and src that share memory but not their start panic before
	// anything is written.
	t.Run("InexactOverlap", func(t *testing.T) {
		r := testrand.New(t)
		for _, n := range sectorLengths(bs) {
			arena := testrand.Bytes(r, 2*n)
			for _, c := range overlaps(arena, n) {
				mustPanicUntouched(t, fmt.Sprintf("%d bytes, %s", n, c.what), "invalid buffer overlap", arena,
					func() { f(c.dst, c.src, 7) })
			}
		}
	})
}
