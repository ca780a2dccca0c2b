//go:build gc && !purego

package kernel

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/twofish-go/twofish/internal/kat"
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

// A singleKernel is a kernel of single blocks that the tests call
// directly: its entries, and the schedule of a key that they read.
type singleKernel struct {
	schedule func(key []byte) *Schedule
	enc, dec func(ks *Schedule, dst, src *byte)
}

// checkSingleKnownAnswers runs ECB_TBL.TXT and the prefix of the ECB and
// CBC Monte Carlo files (mctPrefix) through the kernel k.
func checkSingleKnownAnswers(t *testing.T, k singleKernel) {
	t.Helper()
	for i, r := range loadKAT(t, kat.ECBTable) {
		ks := k.schedule(r.Key)
		block := bytes.Clone(r.PT)
		if k.enc(ks, &block[0], &block[0]); !bytes.Equal(block, r.CT) {
			t.Errorf("record %d (key %d bits): encrypt = %x, want %x", i, 8*r.KeySize, block, r.CT)
		}
		if k.dec(ks, &block[0], &block[0]); !bytes.Equal(block, r.PT) {
			t.Errorf("record %d (key %d bits): decrypt = %x, want %x", i, 8*r.KeySize, block, r.PT)
		}
	}
	for _, file := range []string{kat.ECBEncrypt, kat.ECBDecrypt, kat.CBCEncrypt, kat.CBCDecrypt} {
		for _, r := range kat.Prefix(loadKAT(t, file), mctPrefix()) {
			ks := k.schedule(r.Key)
			got, want, err := kat.MonteCarlo(file, r, func(block []byte, decrypt bool) {
				if decrypt {
					k.dec(ks, &block[0], &block[0])
				} else {
					k.enc(ks, &block[0], &block[0])
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s record I=%d (key %d bits): got %x, want %x", file, r.Index, 8*r.KeySize, got, want)
			}
		}
	}
}

// checkSingleDifferential compares the kernel k with the generic kernel on
// random keys of every size and random blocks, in place and not, at every
// offset of the buffers from 0 to 7.
func checkSingleDifferential(t *testing.T, k singleKernel) {
	t.Helper()
	r := testRand(t)
	for _, size := range keySizes {
		for range 50 {
			key := randBytes(r, size)
			ks, ref := k.schedule(key), newCipher(key, Generic)
			for off := range 8 {
				src := randBytes(r, BlockSize+off)[off:]
				want := make([]byte, BlockSize)
				ref.EncryptBlocks(want, src)
				dst := make([]byte, BlockSize+7)[7-off:]
				if k.enc(ks, &dst[0], &src[0]); !bytes.Equal(dst[:BlockSize], want) {
					t.Fatalf("key %x: encrypt(%x) = %x, want %x", key, src, dst[:BlockSize], want)
				}
				if k.dec(ks, &dst[0], &dst[0]); !bytes.Equal(dst[:BlockSize], src) {
					t.Fatalf("key %x: decrypt in place(%x) = %x, want %x", key, want, dst[:BlockSize], src)
				}
				in := bytes.Clone(want)
				out := make([]byte, BlockSize)
				if k.dec(ks, &out[0], &in[0]); !bytes.Equal(out, src) || !bytes.Equal(in, want) {
					t.Fatalf("key %x: decrypt(%x) = %x, want %x", key, want, out, src)
				}
			}
		}
	}
}
