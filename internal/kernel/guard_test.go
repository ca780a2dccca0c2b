//go:build linux || darwin

package kernel

import (
	"bytes"
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
