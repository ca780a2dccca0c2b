package cryptotest

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"testing"

	"github.com/twofish-go/twofish/internal/testrand"
)

// MakeBlockMode returns a BlockMode over b that starts from iv.
type MakeBlockMode func(b cipher.Block, iv []byte) cipher.BlockMode

// TestBlockMode checks the BlockModes that enc and dec make over block
// from a random IV of ivSize bytes (0 for a mode without an IV, as ECB):
// CryptBlocks as crypto/cipher.BlockMode documents it, with the panics of
// crypto/cipher's own modes, and dec as enc's inverse.
func TestBlockMode(t *testing.T, block cipher.Block, ivSize int, enc, dec MakeBlockMode) {
	r := testrand.New(t)
	var iv []byte
	if ivSize > 0 {
		iv = testrand.Bytes(r, ivSize)
	}
	t.Run("Encrypter", func(t *testing.T) { testBlockMode(t, block, iv, ivSize, enc) })
	t.Run("Decrypter", func(t *testing.T) { testBlockMode(t, block, iv, ivSize, dec) })

	// The decrypter undoes the encrypter, and the encrypter changes every
	// message.
	t.Run("RoundTrip", func(t *testing.T) {
		r := testrand.New(t)
		bs := block.BlockSize()
		for _, n := range blockCounts() {
			src := randSlice(r, n*bs)
			ct, back := make([]byte, n*bs), make([]byte, n*bs)
			enc(block, iv).CryptBlocks(ct, src)
			if bytes.Equal(ct, src) {
				t.Fatalf("%d blocks: encryption left them as they were", n)
			}
			if dec(block, iv).CryptBlocks(back, ct); !bytes.Equal(back, src) {
				t.Fatalf("%d blocks: decryption does not give back the plaintext", n)
			}
		}
	})
}

// testBlockMode checks the BlockMode that mk makes over b from iv, which
// is ivSize bytes long.
func testBlockMode(t *testing.T, b cipher.Block, iv []byte, ivSize int, mk MakeBlockMode) {
	bs := b.BlockSize()

	// An IV of another length than the mode's panics in the constructor:
	// a short one would leave part of the chain zero. (A mode without an
	// IV, as ECB, has no such check.)
	if ivSize > 0 {
		t.Run("WrongIVLength", func(t *testing.T) {
			for _, n := range []int{0, ivSize - 1, ivSize + 1, 2 * ivSize} {
				mustPanic(t, fmt.Sprintf("a %d-byte IV", n), "IV length must equal block size", func() { mk(b, make([]byte, n)) })
			}
		})
	}

	// BlockSize is the block cipher's.
	t.Run("BlockSize", func(t *testing.T) {
		if got := mk(b, iv).BlockSize(); got != bs {
			t.Errorf("BlockSize() = %d, want the block cipher's %d", got, bs)
		}
	})

	// An empty src leaves dst as it was, and the mode too: the next call
	// gives what a new mode's first call gives.
	t.Run("EmptyInput", func(t *testing.T) {
		r := testrand.New(t)
		m := mk(b, iv)
		dst := testrand.Bytes(r, 2*bs)
		before := bytes.Clone(dst)
		m.CryptBlocks(dst, nil)
		m.CryptBlocks(dst[:0], dst[bs:bs])
		m.CryptBlocks(nil, nil)
		if i := firstDiff(dst, before); i >= 0 {
			t.Fatalf("CryptBlocks of nothing wrote dst[%d]", i)
		}
		src, got, want := randSlice(r, 2*bs), make([]byte, 2*bs), make([]byte, 2*bs)
		m.CryptBlocks(got, src)
		mk(b, iv).CryptBlocks(want, src)
		if !bytes.Equal(got, want) {
			t.Errorf("after CryptBlocks of nothing, a call gives what a new mode's does not")
		}
	})

	// src is only read.
	t.Run("SrcUnchanged", func(t *testing.T) {
		r := testrand.New(t)
		for _, n := range blockCounts() {
			src := randSlice(r, n*bs)
			before := bytes.Clone(src)
			mk(b, iv).CryptBlocks(make([]byte, n*bs), src)
			if i := firstDiff(src, before); i >= 0 {
				t.Fatalf("%d blocks: CryptBlocks changed src[%d]", n, i)
			}
		}
	})

	// dst == src gives what separate buffers give: crypto/cipher allows
	// it.
	t.Run("InPlace", func(t *testing.T) {
		r := testrand.New(t)
		for _, n := range blockCounts() {
			buf := randSlice(r, n*bs)
			want := make([]byte, n*bs)
			mk(b, iv).CryptBlocks(want, buf)
			if mk(b, iv).CryptBlocks(buf, buf); !bytes.Equal(buf, want) {
				t.Fatalf("%d blocks: in place differs from separate buffers", n)
			}
		}
	})

	// A dst longer than src is written up to len(src) only, and nothing
	// before it in its array is.
	t.Run("DstTail", func(t *testing.T) {
		r := testrand.New(t)
		for _, n := range blockCounts() {
			src := randSlice(r, n*bs)
			pad := 1 + r.IntN(bs)
			arena := testrand.Bytes(r, pad+n*bs+2*bs)
			before := bytes.Clone(arena)
			mk(b, iv).CryptBlocks(arena[pad:], src)
			checkRegions(t, fmt.Sprintf("%d blocks into a longer dst", n), arena, before, pad, pad+n*bs)
		}
	})

	// A dst shorter than src panics before anything is written, even
	// where its capacity would hold the output.
	t.Run("ShortDst", func(t *testing.T) {
		r := testrand.New(t)
		for _, n := range blockCounts() {
			arena := testrand.Bytes(r, 2*n*bs)
			dst, src := arena[:n*bs], arena[n*bs:]
			for _, short := range []int{1, bs} {
				mustPanicUntouched(t, fmt.Sprintf("%d blocks, dst %d bytes short", n, short), "output smaller than input", arena,
					func() { mk(b, iv).CryptBlocks(dst[:n*bs-short], src) })
			}
		}
	})

	// dst and src that share memory but not their start panic before
	// anything is written.
	t.Run("InexactOverlap", func(t *testing.T) {
		r := testrand.New(t)
		for _, n := range blockCounts() {
			l := n * bs
			arena := testrand.Bytes(r, 2*l)
			for _, c := range overlaps(arena, l) {
				mustPanicUntouched(t, fmt.Sprintf("%d blocks, %s", n, c.what), "invalid buffer overlap", arena,
					func() { mk(b, iv).CryptBlocks(c.dst, c.src) })
			}
		}
	})

	// A src that is not whole blocks panics before anything is written.
	t.Run("PartialBlocks", func(t *testing.T) {
		r := testrand.New(t)
		for _, n := range []int{1, bs - 1, bs + 1, 2*bs - 1, groupBlocks*bs + 1} {
			arena := testrand.Bytes(r, 2*n)
			mustPanicUntouched(t, fmt.Sprintf("%d bytes", n), "input not full blocks", arena,
				func() { mk(b, iv).CryptBlocks(arena[:n], arena[n:]) })
		}
	})

	// Calls continue one another: a message cut at random block
	// boundaries, or a block a call, gives what one call gives.
	t.Run("KeepState", func(t *testing.T) {
		r := testrand.New(t)
		n := 2*groupBlocks + 5
		src, want := randSlice(r, n*bs), make([]byte, n*bs)
		mk(b, iv).CryptBlocks(want, src)
		for trial := range 8 {
			m, got := mk(b, iv), make([]byte, n*bs)
			var cuts []int
			for i := 0; i < n; {
				k := 1
				if trial > 0 {
					k = r.IntN(min(n-i, 1<<trial) + 1)
				}
				m.CryptBlocks(got[i*bs:(i+k)*bs], src[i*bs:(i+k)*bs])
				cuts = append(cuts, i*bs)
				i += k
			}
			if i := firstDiff(got, want); i >= 0 {
				t.Fatalf("%d blocks in %d calls: byte %d, in the call for %s, differs from one call's", n, len(cuts), i, callOf(cuts, i, n*bs))
			}
		}
	})
}
