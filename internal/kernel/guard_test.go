//go:build linux || darwin

package kernel

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/twofish-go/twofish/internal/guardpage"
)

// TestGuardPages runs every implementation over buffers that touch an
// inaccessible page on either side, for every block count up to twice the
// widest kernel plus three (at least 70): a kernel that reads or writes
// one byte outside its buffers crashes the test.
func TestGuardPages(t *testing.T) {
	maxBlocks := max(2*widestBlocks()+3, 70)
	forEachKernel(t, func(t *testing.T, k *Kernel) {
		checkGuardPages(t, func(key []byte) *Cipher { return newCipher(key, k) }, maxBlocks)
	})
}

// TestPlansGuardPages runs checkGuardPages with the plans the policy makes
// for policyCPUs, which TestGuardPages, on one kernel's ladder at a time,
// does not: a run's whole groups go to one kernel and the rest to another,
// a remainder from the crossover on is padded to a group (the path of
// avx2-gather's padded tail), and table kernels wait for tables built on
// use. A new Cipher for every count meets each count both before and after
// it builds them.
func TestPlansGuardPages(t *testing.T) {
	forEachPlan(t, func(t *testing.T, p Plan) {
		checkGuardPages(t, func(key []byte) *Cipher { return newPlanCipher(p, key) }, max(2*p.Bulk.Blocks+p.From+3, 70))
	})
}

// checkGuardPages encrypts and decrypts every block count up to maxBlocks
// with the Cipher that newC makes of a key for each, over buffers that
// touch an inaccessible page on either side, separate and in place, and
// compares the results with generic.
func checkGuardPages(t *testing.T, newC func(key []byte) *Cipher, maxBlocks int) {
	r := testRand(t)
	key := randBytes(r, 32)
	ref := newCipher(key, Generic)
	a := guardpage.New(t, maxBlocks*BlockSize)
	b := guardpage.New(t, maxBlocks*BlockSize)
	for n := 0; n <= maxBlocks; n++ {
		c := newC(key)
		size := n * BlockSize
		for _, place := range guardpage.Placements(a, b, size) {
			copy(place.Src, randBytes(r, size))
			want := make([]byte, size)
			ref.EncryptBlocks(want, place.Src)
			c.EncryptBlocks(place.Dst, place.Src)
			if !bytes.Equal(place.Dst, want) {
				t.Fatalf("%d blocks, %s: encryption differs from generic", n, place.Name)
			}
			ref.DecryptBlocks(want, place.Dst)
			c.DecryptBlocks(place.Dst, place.Dst)
			if !bytes.Equal(place.Dst, want) {
				t.Fatalf("%d blocks, %s: decryption differs from generic", n, place.Name)
			}
		}
	}
}

// TestRunEndsShortOfPage runs every implementation over buffers that end
// 16 or 48 bytes short of an inaccessible page, separate and in place, for
// every block count up to twice the widest kernel plus three (at least 70),
// and checks the results against generic and the bytes after dst for
// writes: there the 64 bytes from a run's end cross into the next page, so
// a tail kernel that reaches past a run that ends with a whole register
// takes the path of a footprint that crosses a page, which the buffers of
// TestGuardPages, ending at a page's end, never make it take.
func TestRunEndsShortOfPage(t *testing.T) {
	maxBlocks := max(2*widestBlocks()+3, 70)
	forEachKernel(t, func(t *testing.T, k *Kernel) {
		r := testRand(t)
		key := randBytes(r, 32)
		c, ref := newCipher(key, k), newCipher(key, Generic)
		a := guardpage.New(t, maxBlocks*BlockSize+64)
		b := guardpage.New(t, maxBlocks*BlockSize+64)
		for n := 0; n <= maxBlocks; n++ {
			size := n * BlockSize
			for _, short := range []int{16, 48} {
				for _, inPlace := range []bool{false, true} {
					in, out := a.AtEnd(size+short), b.AtEnd(size+short)
					if inPlace {
						out = in
					}
					copy(in, randBytes(r, size+short))
					after := bytes.Clone(out[size:])
					src, dst := in[:size:size], out[:size:size]
					want := make([]byte, size)
					ref.EncryptBlocks(want, src)
					c.EncryptBlocks(dst, src)
					what := fmt.Sprintf("%d blocks, %d bytes short of the page, in place %v", n, short, inPlace)
					if !bytes.Equal(dst, want) {
						t.Fatalf("%s: encryption differs from generic", what)
					}
					ref.DecryptBlocks(want, dst)
					c.DecryptBlocks(dst, dst)
					if !bytes.Equal(dst, want) {
						t.Fatalf("%s: decryption differs from generic", what)
					}
					if !bytes.Equal(out[size:], after) {
						t.Fatalf("%s: wrote past dst", what)
					}
				}
			}
		}
	})
}
