package kernel

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// widestBlocks is the widest kernel of this build, in blocks.
func widestBlocks() int {
	w := 1
	for _, k := range All() {
		w = max(w, k.Blocks)
	}
	return w
}

// TestDifferential checks every kernel against generic through the bulk
// entry points: every block count up to twice the widest kernel plus three
// (so every tail path runs) and some large ones, every source and
// destination offset at a few counts and random ones otherwise, in place
// and separate, both directions, every key size.
func TestDifferential(t *testing.T) {
	forEachKernel(t, func(t *testing.T, k *Kernel) {
		if k == Generic {
			t.Skip("generic is the reference (TestGenericInterleaved checks its runs against its single blocks)")
		}
		testDifferential(t, k)
	})
}

func testDifferential(t *testing.T, k *Kernel) {
	counts := []int{}
	for n := 0; n <= 2*widestBlocks()+3; n++ {
		counts = append(counts, n)
	}
	counts = append(counts, 100, 257, 1000)
	allOffsets := map[int]bool{1: true, widestBlocks() + 1: true}
	if exhaustive() {
		allOffsets[3], allOffsets[100] = true, true
	}
	r := testRand(t)
	for _, ks := range keySizes {
		t.Run(fmt.Sprintf("key=%d", 8*ks), func(t *testing.T) {
			key := randBytes(r, ks)
			c, ref := newCipher(key, k), newCipher(key, Generic)
			for _, n := range counts {
				if allOffsets[n] && !testing.Short() {
					for so := range BlockSize {
						for do := range BlockSize {
							checkBulk(t, c, ref, r, n, so, do, 0)
						}
					}
				} else {
					checkBulk(t, c, ref, r, n, r.IntN(BlockSize), r.IntN(BlockSize), r.IntN(BlockSize))
					checkBulk(t, c, ref, r, n, 0, 0, 0)
				}
			}
		})
	}
}

// checkBulk encrypts and decrypts n random blocks at the given source and
// destination offsets, separately and in place, and compares with ref.
// Source and destination hold partial more bytes after the whole blocks,
// as EncryptBlocks allows: the kernel must leave the destination's alone.
func checkBulk(t *testing.T, c, ref *Cipher, r *rand.Rand, n, srcOff, dstOff, partial int) {
	t.Helper()
	size := n * BlockSize
	src := randBytes(r, size+partial+srcOff+BlockSize)[srcOff : srcOff+size+partial]
	for _, dir := range []struct {
		name    string
		f, want func(dst, src []byte)
	}{
		{"encrypt", c.EncryptBlocks, ref.EncryptBlocks},
		{"decrypt", c.DecryptBlocks, ref.DecryptBlocks},
	} {
		want := make([]byte, size)
		dir.want(want, src[:size])

		buf := randBytes(r, size+partial+dstOff+BlockSize)
		guard := append([]byte(nil), buf...)
		dir.f(buf[dstOff:dstOff+size+partial], src)
		where := fmt.Sprintf("%s: %s %d blocks and %d bytes, src offset %d, dst offset %d",
			c.Head().Name, dir.name, n, partial, srcOff, dstOff)
		if !bytes.Equal(buf[dstOff:dstOff+size], want) {
			t.Fatalf("%s: differs from generic", where)
		}
		if !bytes.Equal(buf[:dstOff], guard[:dstOff]) || !bytes.Equal(buf[dstOff+size:], guard[dstOff+size:]) {
			t.Fatalf("%s: wrote outside the whole blocks of dst", where)
		}

		inPlace := append([]byte(nil), src...)
		dir.f(inPlace, inPlace)
		if !bytes.Equal(inPlace[:size], want) || !bytes.Equal(inPlace[size:], src[size:]) {
			t.Fatalf("%s in place: differs from generic", where)
		}
	}
}

// TestBulkWholeBlocksOnly gives every kernel's bulk entry points, generic's
// too, a source that ends in a partial block (or is only one) and a
// destination as long: at every block count up to twice the widest kernel
// plus three, they write the whole blocks' images and not a byte of dst
// after them, where a kernel that pads a last group or pair might copy out
// the pad.
func TestBulkWholeBlocksOnly(t *testing.T) {
	forEachKernel(t, func(t *testing.T, k *Kernel) {
		r := testRand(t)
		key := randBytes(r, 32)
		c, ref := newCipher(key, k), newCipher(key, Generic)
		for n := 0; n <= 2*widestBlocks()+3; n++ {
			for _, partial := range []int{1, BlockSize - 1} {
				checkBulk(t, c, ref, r, n, 0, 0, partial)
			}
		}
	})
}
