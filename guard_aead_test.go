//go:build linux || darwin

package twofish

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"testing"

	"github.com/twofish-go/twofish/internal/guardpage"
)

// TestGuardPagesAEAD runs checkGuardPagesAEAD with every mode and
// implementation.
func TestGuardPagesAEAD(t *testing.T) {
	for _, m := range aeadModes {
		t.Run(m.name, func(t *testing.T) {
			forEachImpl(t, func(t *testing.T, impl Implementation) {
				checkGuardPagesAEAD(t, m, func(key []byte) cipher.Block { return mustCipher(t, key, impl.Name) })
			})
		})
	}
}

// TestGuardPagesAEADDefault runs checkGuardPagesAEAD with every mode and
// the Ciphers that NewCipher makes, which the tests of every
// implementation do not: their long runs go to one kernel and the rest
// to another, and their table kernels wait for tables built on use. A new
// Cipher for every length meets each length both before and after it
// builds them.
func TestGuardPagesAEADDefault(t *testing.T) {
	for _, m := range aeadModes {
		t.Run(m.name, func(t *testing.T) {
			checkGuardPagesAEAD(t, m, func(key []byte) cipher.Block {
				c, err := NewCipher(key)
				if err != nil {
					t.Fatal(err)
				}
				return c
			})
		})
	}
}

// checkGuardPagesAEAD seals and opens with the mode m, over the block
// cipher that newBlock makes of a key for each length, over buffers flush
// against inaccessible pages: the plaintext, the ciphertext, the output
// (with exactly the capacity it needs), the associated data and the nonce
// each end at a guard page or start right after one; then associated data
// of that length alone. The lengths around every fourth whole block and whole groups
// of 64 up to twice the widest kernel plus four blocks are tried (every
// length in exhaustive runs), so every tail path of the kernels, GHASH and
// the offset batches runs at a page edge. A read or write one byte outside
// a buffer crashes the test.
func checkGuardPagesAEAD(t *testing.T, m aeadMode, newBlock func(key []byte) cipher.Block) {
	maxLen := max(2*widestBlocks()+3, 70)*BlockSize + BlockSize
	r := testRand(t)
	key := randBytes(r, 32)
	ns, ts := m.nonces[0], m.tags[0]
	pa := guardpage.New(t, maxLen+ts)
	pb := guardpage.New(t, maxLen+ts)
	adr := guardpage.New(t, maxLen)
	nr := guardpage.New(t, ns)
	nonce := nr.AtEnd(ns)
	copy(nonce, randBytes(r, ns))
	for n := 0; n <= maxLen; n++ {
		if n > 3*BlockSize && n%BlockSize > 1 && n%BlockSize < BlockSize-1 && (!exhaustive() || n%5 != 0) {
			continue
		}
		if !exhaustive() && n > 3*BlockSize && n < maxLen-BlockSize && n/BlockSize%4 != 1 && n%(ocbGroup*BlockSize) != 0 {
			continue
		}
		a := mustAEAD(t, m, newBlock(key), ns, ts)
		k := n % (3*BlockSize + 1)
		ad := adr.AtEnd(k)
		if n%2 == 1 {
			ad = adr.AtStart(k)
		}
		copy(ad, randBytes(r, k))
		pt := pa.AtEnd(n)
		copy(pt, randBytes(r, n))
		want := a.Seal(nil, bytes.Clone(nonce), bytes.Clone(pt), bytes.Clone(ad))
		what := fmt.Sprintf("%d bytes, %d of associated data", n, k)

		if got := a.Seal(pb.AtStart(n + ts)[:0], nonce, pt, ad); !bytes.Equal(got, want) {
			t.Fatalf("%s: Seal to the start of a region differs", what)
		}
		if got := a.Seal(pb.AtEnd(n + ts)[:0], nonce, pt, ad); !bytes.Equal(got, want) {
			t.Fatalf("%s: Seal to the end of a region differs", what)
		}
		ct := pa.AtEnd(n + ts)
		copy(ct, want)
		if got, err := a.Open(pb.AtStart(n)[:0], nonce, ct, ad); err != nil || len(got) != n {
			t.Fatalf("%s: Open from the end of a region: %v", what, err)
		}
		if got, err := a.Open(pb.AtEnd(n)[:0], nonce, ct, ad); err != nil || len(got) != n {
			t.Fatalf("%s: Open to the end of a region: %v", what, err)
		}
		if _, err := a.Open(ct[:0], nonce, ct, ad); err != nil {
			t.Fatalf("%s: Open in place at the end of a region: %v", what, err)
		}
		copy(ct, want)
		ct[len(ct)-1] ^= 1
		if _, err := a.Open(ct[:0], nonce, ct, ad); err == nil {
			t.Fatalf("%s: Open accepted a bad tag", what)
		}

		ad = adr.AtEnd(n)
		if n%2 == 1 {
			ad = adr.AtStart(n)
		}
		copy(ad, randBytes(r, n))
		want = a.Seal(nil, bytes.Clone(nonce), nil, bytes.Clone(ad))
		if got := a.Seal(pb.AtEnd(ts)[:0], nonce, nil, ad); !bytes.Equal(got, want) {
			t.Fatalf("%d bytes of associated data alone: Seal differs", n)
		}
	}
}
