//go:build gc && !purego

package kernel

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// A blockFunc is a single-block entry point of the root package's Encrypt
// and Decrypt, with the tables t that table kernels take.
type blockFunc func(t *Tables, ks *Schedule, dst, src []byte)

// singleBlock returns the entry points that the root package's Encrypt and
// Decrypt call for a Cipher whose narrowest kernel is k.
func singleBlock(k *Kernel) (enc, dec blockFunc) {
	tables := func(f func(t *Tables, ks *Schedule, dst, src *byte)) blockFunc {
		return func(t *Tables, ks *Schedule, dst, src []byte) { f(t, ks, &dst[0], &src[0]) }
	}
	ptrs := func(f func(ks *Schedule, dst, src *byte)) blockFunc {
		return func(_ *Tables, ks *Schedule, dst, src []byte) { f(ks, &dst[0], &src[0]) }
	}
	slices := func(f func(ks *Schedule, dst, src []byte)) blockFunc {
		return func(_ *Tables, ks *Schedule, dst, src []byte) { f(ks, dst, src) }
	}
	switch k {
	case AMD64x1:
		return tables(EncryptBlock1x), tables(DecryptBlock1x)
	case AMD64x1BMI:
		return tables(EncryptBlock1xBMI), tables(DecryptBlock1xBMI)
	case AVX512VBMI:
		return ptrs(EncryptBlockAVX512), ptrs(DecryptBlockAVX512)
	case AVX512GFNI:
		return ptrs(EncryptBlockAVX512GFNI), ptrs(DecryptBlockAVX512GFNI)
	case AVX2CT:
		return slices(EncryptBlockAVX2CT), slices(DecryptBlockAVX2CT)
	case GenericCT:
		return slices(EncryptBlockGenericCT), slices(DecryptBlockGenericCT)
	}
	return EncryptBlockGeneric, DecryptBlockGeneric
}

// TestSingleBlocks checks the single-block entry points of every kernel's
// ladder against the generic kernel, for every key size, in place and not.
func TestSingleBlocks(t *testing.T) {
	forEachKernel(t, func(t *testing.T, k *Kernel) {
		r := testRand(t)
		for _, size := range keySizes {
			key := randBytes(r, size)
			checkSingleBlocks(t, r, newCipher(key, k), newCipher(key, Generic))
		}
	})
}

// TestPlanSingleBlocks checks the single blocks of the policy's plans: the
// kernel of single blocks reads the schedule of the short runs, which is
// not the bulk kernel's where that one is avx512-vbmi.
func TestPlanSingleBlocks(t *testing.T) {
	forEachPlan(t, func(t *testing.T, p Plan) {
		r := testRand(t)
		for _, size := range keySizes {
			key := randBytes(r, size)
			c := newPlanCipher(p, key)
			checkSingleBlocks(t, r, c, newCipher(key, Generic))
		}
	})
}

// checkSingleBlocks compares random single blocks through the entry
// points of c's kernel of single blocks with ref, in place and not, asking
// c for its kernel before each: a plan's first blocks may go through
// another one, until its tables are built.
func checkSingleBlocks(t *testing.T, r *rand.Rand, c, ref *Cipher) {
	t.Helper()
	_, refKS, refT := ref.Single()
	for range 64 {
		src := randBytes(r, BlockSize)
		k, ks, tables := c.Single()
		if tables == nil {
			k, ks, tables = c.WarmSingle()
		}
		enc, dec := singleBlock(k)
		for _, f := range []struct {
			name      string
			got, want blockFunc
		}{{"encrypt", enc, EncryptBlockGeneric}, {"decrypt", dec, DecryptBlockGeneric}} {
			want := make([]byte, BlockSize)
			f.want(refT, refKS, want, src)
			got := make([]byte, 3*BlockSize)[2*BlockSize:]
			f.got(tables, ks, got, src)
			inPlace := bytes.Clone(src)
			f.got(tables, ks, inPlace, inPlace)
			if !bytes.Equal(got, want) || !bytes.Equal(inPlace, want) {
				t.Fatalf("%s in the plan of %s, %s %x: %x (in place %x), want %x", k.Name, c.plan.Bulk.Name, f.name, src, got, inPlace, want)
			}
		}
	}
}
