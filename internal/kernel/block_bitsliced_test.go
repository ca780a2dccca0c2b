package kernel

import (
	"fmt"
	"testing"
	"unsafe"
)

// Tests of generic-ct's bitsliced parts, each against the code it stands
// for; the bulk functions run through every implementation test as well
// (kat_test.go, kernels_test.go, differential_test.go).

// TestQBitsliced checks both circuits on every byte value, taken from
// either word as the lane mask says, with a key XORed after them.
func TestQBitsliced(t *testing.T) {
	r := testRand(t)
	qs := [2]*[256]byte{&q0, &q1}
	for q := range 2 {
		// Lane l of the 256 lanes of four calls holds byte l in one of
		// the two words.
		for part := range 4 {
			var in, other, key [64]byte
			m := r.Uint64()
			for l := range in {
				in[l], other[l], key[l] = byte(64*part+l), byte(r.Uint32()), byte(r.Uint32())
				if m>>l&1 == 1 {
					in[l], other[l] = other[l], in[l]
				}
			}
			a, b, k := slice64(in), slice64(other), slice64(key)
			var dst [8]uint64
			qBitsliced(q, &dst, &a, &b, m, &k)
			got := unslice64(dst)
			for l := range got {
				x := in[l]
				if m>>l&1 == 1 {
					x = other[l]
				}
				if want := qs[q][x] ^ key[l]; got[l] != want {
					t.Fatalf("q%dBitsliced(%#02x) ^ %#02x = %#02x, want %#02x", q, x, key[l], got[l], want)
				}
			}
		}
	}
}

// slice64 returns the planes of 64 bytes: bit i of byte l in bit l of p[i].
func slice64(bytes [64]byte) (p [8]uint64) {
	for l, x := range bytes {
		for i := range 8 {
			p[i] |= uint64(x>>i&1) << l
		}
	}
	return p
}

func unslice64(p [8]uint64) (bytes [64]byte) {
	for l := range bytes {
		for i := range 8 {
			bytes[l] |= byte(p[i]>>l&1) << i
		}
	}
	return bytes
}

func TestTranspose8(t *testing.T) {
	r := testRand(t)
	var w [8]uint64
	for i := range w {
		w[i] = r.Uint64()
	}
	got := w
	transpose8(&got)
	for i := range 8 {
		for s := range 8 {
			for b := range 8 {
				if got[b]>>(8*s+i)&1 != w[i]>>(8*s+b)&1 {
					t.Fatalf("bit %d of w[%d] is not bit %d of w[%d]", 8*s+i, b, 8*s+b, i)
				}
			}
		}
	}
	transpose8(&got)
	if got != w {
		t.Fatal("transpose8 is not its own inverse")
	}
}

func TestZip(t *testing.T) {
	a, b := uint32(0x03020100), uint32(0x13121110)
	if got := zip(a, b); got != 0x1303120211011000 {
		t.Fatalf("zip = %#016x", got)
	}
	if x, y := unzip(zip(a, b)); x != a || y != b {
		t.Fatalf("unzip(zip(a, b)) = %#08x, %#08x", x, y)
	}
}

// TestGBitsliced checks the bitsliced g function against gCT for every
// key length, on random words and on every byte value in every position.
func TestGBitsliced(t *testing.T) {
	r := testRand(t)
	for _, size := range keySizes {
		t.Run(fmt.Sprintf("key=%d", 8*size), func(t *testing.T) {
			for range 4 {
				key := randBytes(r, size)
				ks := withLayouts(packedLayout)
				ks.expandPacked(key)
				plan := &bitslicedPlans[size/8]
				var bk bitslicedKey
				bk.set(ks.packed(), plan)
				for round := range 24 {
					var x, y, t0, t1 [bitslicedBlocks]uint32
					for i := range x {
						x[i], y[i] = r.Uint32(), r.Uint32()
						if round < 16 {
							v := uint32(16*round + i)
							x[i], y[i] = v*0x01010101, (v^0xFF)*0x01010101
						}
					}
					gBitsliced(plan, &bk, &x, &y, &t0, &t1)
					for i := range x {
						if w := ks.gCT(x[i]); t0[i] != w {
							t.Fatalf("key %x: g(x[%d] = %#08x) = %#08x, want %#08x", key, i, x[i], t0[i], w)
						}
						if w := ks.gCT(y[i]); t1[i] != w {
							t.Fatalf("key %x: g(y[%d] = %#08x) = %#08x, want %#08x", key, i, y[i], t1[i], w)
						}
					}
				}
			}
		})
	}
}

// TestBitsliced checks the bulk functions against the single-block ones
// at every count of blocks up to three groups, in place and not.
func TestBitsliced(t *testing.T) {
	r := testRand(t)
	for _, size := range keySizes {
		key := randBytes(r, size)
		ks := withLayouts(packedLayout)
		ks.expandPacked(key)
		for n := range 3*bitslicedBlocks + 1 {
			src := randBytes(r, n*BlockSize)
			want := make([]byte, len(src))
			for i := 0; i < len(src); i += BlockSize {
				EncryptBlockGenericCT(ks, want[i:], src[i:])
			}
			got := make([]byte, len(src))
			encryptBitsliced(ks, got, src)
			if string(got) != string(want) {
				t.Fatalf("key %x, %d blocks: encryptBitsliced differs from EncryptBlockGenericCT", key, n)
			}
			decryptBitsliced(ks, got, got)
			if string(got) != string(src) {
				t.Fatalf("key %x, %d blocks: decryptBitsliced in place does not invert encryption", key, n)
			}
		}
	}
}

// BenchmarkGenericCT compares generic-ct's two ways to encrypt a run of
// blocks: bitsliced (bitslicedBlocks at a time, the last group padded) and
// one block at a time.
func BenchmarkGenericCT(b *testing.B) {
	for _, size := range []int{16, 32} {
		ks := withLayouts(packedLayout)
		ks.expandPacked(make([]byte, size))
		for _, n := range []int{1, 2, 3, 4, 16, 512} {
			buf := make([]byte, n*BlockSize)
			b.Run(fmt.Sprintf("key=%d/n=%d/way=bitsliced", 8*size, n), func(b *testing.B) {
				b.SetBytes(int64(len(buf)))
				for b.Loop() {
					encryptBitsliced(ks, buf, buf)
				}
			})
			b.Run(fmt.Sprintf("key=%d/n=%d/way=blocks", 8*size, n), func(b *testing.B) {
				b.SetBytes(int64(len(buf)))
				for b.Loop() {
					for i := 0; i < len(buf); i += BlockSize {
						EncryptBlockGenericCT(ks, buf[i:], buf[i:])
					}
				}
			})
		}
	}
}

// genericCTSingle is generic-ct's single-block path, which runs of fewer
// than bitslicedMin blocks take; the known-answer and Monte Carlo tests
// through the Kernel run its bitsliced groups (kat_test.go).
var genericCTSingle = singleKernel{
	schedule: func(key []byte) *Schedule {
		ks := withLayouts(packedLayout)
		ks.expandPacked(key)
		return ks
	},
	enc: func(ks *Schedule, dst, src *byte) {
		EncryptBlockGenericCT(ks, unsafe.Slice(dst, BlockSize), unsafe.Slice(src, BlockSize))
	},
	dec: func(ks *Schedule, dst, src *byte) {
		DecryptBlockGenericCT(ks, unsafe.Slice(dst, BlockSize), unsafe.Slice(src, BlockSize))
	},
}

func TestGenericCTSingleKnownAnswers(t *testing.T) { checkSingleKnownAnswers(t, genericCTSingle) }

func TestGenericCTSingleDifferential(t *testing.T) { checkSingleDifferential(t, genericCTSingle) }
