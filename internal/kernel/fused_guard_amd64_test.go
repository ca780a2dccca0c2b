//go:build gc && !purego && (linux || darwin)

package kernel

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/twofish-go/twofish/internal/guardpage"
)

// TestFusedGuardPages runs the fused CTR (with CTR's counter and GCM's),
// CBC and CFB decryption and XTS kernels (and XTS's of a tweak a
// half-group, their tweaks flush against a guard page too, after them and
// before) over buffers that touch an inaccessible page on either side, for
// zero, one and two groups, and runs that end in a padded group
// or go through the word layout's kernels, alone or after two groups
// (CTR's and CFB decryption's also in a partial block):
// a kernel that reads or writes one byte outside the blocks it is given
// (the CBC and CFB kernels read the block before each group but the first)
// crashes the test.
func TestFusedGuardPages(t *testing.T) {
	forEachFused(t, func(t *testing.T, kern *Kernel) {
		const maxGroups = 3
		r := testRand(t)
		key := randBytes(r, 32)
		c, ref := newCipher(key, kern), newCipher(key, Generic)
		a := guardpage.New(t, maxGroups*FusedGroup*BlockSize)
		b := guardpage.New(t, maxGroups*FusedGroup*BlockSize)
		// XTSHalves's tweaks, flush against the guard page after them or
		// the one before.
		tr := guardpage.New(t, 2*maxGroups*BlockSize)
		tweaksAt := func(n int, atEnd bool) [][2]uint64 {
			b := tr.AtStart(n * BlockSize)
			if atEnd {
				b = tr.AtEnd(n * BlockSize)
			}
			if n == 0 {
				return nil
			}
			return unsafe.Slice((*[2]uint64)(unsafe.Pointer(&b[0])), n)
		}
		for _, n := range []int{0, FusedGroup, 2 * FusedGroup, smallTail + 1, narrowMost / 2, narrowMost/2 + 1, narrowMost, narrowMost + 1, FusedGroup - 1, FusedGroup + 37, 2*FusedGroup + 20} {
			// The guard pages are flush against the blocks the kernels
			// take.
			size := n * BlockSize
			for _, place := range guardpage.Placements(a, b, size) {
				copy(place.Src, randBytes(r, size))
				want := make([]byte, size)
				hi, lo := r.Uint64(), ^uint64(0)-uint64(r.IntN(128))
				ctrRef(ref, want, place.Src, hi, lo)
				ctr := [2]uint64{lo, hi}
				c.CTRGroups(place.Dst, place.Src, &ctr, nil)
				if !bytes.Equal(place.Dst, want) {
					t.Fatalf("%d blocks, %s: CTR differs from CTR in Go", n, place.Name)
				}
				whole := n / FusedGroup * FusedGroup * BlockSize
				lo = lo&^(1<<32-1) | uint64(^uint32(0)-uint32(r.IntN(128)))
				gcmRef(ref, want[:whole], place.Src[:whole], hi, lo)
				ctr = [2]uint64{lo, hi}
				copy(place.Dst, place.Src)
				if m := c.GCMGroups(place.Dst, place.Src, &ctr); m != whole || !bytes.Equal(place.Dst[:whole], want[:whole]) {
					t.Fatalf("%d blocks, %s: CTR with GCM's counter differs from it in Go", n, place.Name)
				}
				var iv [BlockSize]byte
				copy(iv[:], randBytes(r, BlockSize))
				cbcDecryptRef(ref, want, place.Dst, iv)
				c.CBCDecryptGroups(place.Dst, place.Dst, &iv)
				if !bytes.Equal(place.Dst, want) {
					t.Fatalf("%d blocks, %s: CBC decryption differs from CBC in Go", n, place.Name)
				}
				cfbDecryptRef(ref, want, place.Dst, iv)
				c.CFBDecryptGroups(place.Dst, place.Dst, &iv, nil)
				if !bytes.Equal(place.Dst, want) {
					t.Fatalf("%d blocks, %s: CFB decryption differs from CFB in Go", n, place.Name)
				}
				for _, dec := range []bool{false, true} {
					lo, hi := r.Uint64(), r.Uint64()
					xtsRef(ref, want, place.Dst, lo, hi, dec)
					tw := [2]uint64{lo, hi}
					c.XTSGroups(place.Dst, place.Dst, &tw, dec)
					if !bytes.Equal(place.Dst, want) {
						t.Fatalf("%d blocks, %s, decrypt %v: XTS differs from XTS in Go", n, place.Name, dec)
					}
					if n%FusedGroup != 0 {
						continue
					}
					// The halves kernels, their tweaks against a guard page
					// too.
					for _, atEnd := range []bool{false, true} {
						tweaks := tweaksAt(2*n/FusedGroup, atEnd)
						for i := range tweaks {
							tweaks[i] = [2]uint64{r.Uint64(), r.Uint64()}
						}
						xtsHalvesRef(ref, want, place.Dst, tweaks, dec)
						c.XTSHalves(place.Dst, place.Dst, tweaks, dec)
						if !bytes.Equal(place.Dst, want) {
							t.Fatalf("%d blocks, %s, decrypt %v, tweaks at the end %v: XTS of a tweak a half-group differs from XTS in Go", n, place.Name, dec, atEnd)
						}
					}
				}
			}
		}
		// CTR and CFB decryption with a partial last block that the
		// kernels take: in a padded group, at the end of a whole group,
		// after one, and in the word layout's runs.
		for _, size := range []int{(narrowMost+1)*BlockSize + 7, FusedGroup*BlockSize - 9, (FusedGroup+37)*BlockSize + 3, narrowMost/2*BlockSize + 7, (2*FusedGroup+20)*BlockSize + 3} {
			for _, place := range guardpage.Placements(a, b, size) {
				copy(place.Src, randBytes(r, size))
				padded := make([]byte, (size+BlockSize-1)&^(BlockSize-1))
				copy(padded, place.Src)
				want := make([]byte, len(padded))
				hi, lo := r.Uint64(), r.Uint64()
				ctrRef(ref, want, padded, hi, lo)
				ctr := [2]uint64{lo, hi}
				var rest, iv [BlockSize]byte
				if m := c.CTRGroups(place.Dst, place.Src, &ctr, &rest); m != size || !bytes.Equal(place.Dst, want[:size]) {
					t.Fatalf("%d bytes, %s: CTR with a partial block differs from CTR in Go", size, place.Name)
				}
				copy(place.Src, padded) // in place, CTR overwrote it
				cfbDecryptRef(ref, want, padded, iv)
				if m := c.CFBDecryptGroups(place.Dst, place.Src, &iv, &rest); m != size || !bytes.Equal(place.Dst, want[:size]) {
					t.Fatalf("%d bytes, %s: CFB decryption with a partial block differs from CFB in Go", size, place.Name)
				}
			}
		}
	})
}

// TestFusedShortDst runs the fused modes with a destination shorter than
// the source, flush against a guard page: each panics before a kernel
// writes a byte past it, whatever part of the run (whole groups, a pair
// with a padded group, a partial block) would reach there.
func TestFusedShortDst(t *testing.T) {
	forEachFused(t, func(t *testing.T, kern *Kernel) {
		r := testRand(t)
		c := newCipher(randBytes(r, 32), kern)
		for _, blocks := range []int{FusedGroup + 37, 3*FusedGroup + 10, 4 * FusedGroup, 2*FusedGroup + 20} {
			src := randBytes(r, blocks*BlockSize+5)
			groups := randBytes(r, (blocks+FusedGroup-1)/FusedGroup*FusedGroup*BlockSize) // GCM's: whole groups only
			for _, short := range []int{BlockSize + 1, FusedGroup * BlockSize, len(src) - BlockSize} {
				for name, f := range map[string]func(dst []byte){
					"CTR": func(dst []byte) {
						var ctr [2]uint64
						var rest [BlockSize]byte
						c.CTRGroups(dst, src, &ctr, &rest)
					},
					"GCM": func(dst []byte) {
						var ctr [2]uint64
						c.GCMGroups(dst, groups, &ctr)
					},
					"CBC": func(dst []byte) {
						var iv [BlockSize]byte
						c.CBCDecryptGroups(dst, src[:blocks*BlockSize], &iv)
					},
					"CFB": func(dst []byte) {
						var iv, rest [BlockSize]byte
						c.CFBDecryptGroups(dst, src, &iv, &rest)
					},
					"XTS": func(dst []byte) {
						var tw [2]uint64
						c.XTSGroups(dst, src[:blocks*BlockSize], &tw, false)
					},
				} {
					dst := guardpage.Flush(t, short, true)
					func() {
						defer func() {
							if recover() == nil {
								t.Errorf("%s, %d blocks, dst of %d bytes: no panic", name, blocks, short)
							}
						}()
						f(dst)
					}()
				}
			}
		}
	})
}

// TestWordKernelsGuardPages runs the word layout's mode kernels at every
// length they take, whatever the callers give them today: CTR and CFB
// decryption every byte count to narrowMost blocks (with -short, every
// one to six blocks and every thirteenth after), CBC decryption and XTS
// every block count among them, over buffers flush against an
// inaccessible page on either side. The kernels read and write no byte
// outside the n they are given: CFB's first register once read its last
// block whole, up to 15 bytes past a partial one, in runs of up to four
// blocks.
func TestWordKernelsGuardPages(t *testing.T) {
	forEachFused(t, func(t *testing.T, kern *Kernel) {
		r := testRand(t)
		key := randBytes(r, 32)
		c, ref := newCipher(key, kern), newCipher(key, Generic)
		a := guardpage.New(t, narrowMost*BlockSize)
		b := guardpage.New(t, narrowMost*BlockSize)
		for size := 1; size <= narrowMost*BlockSize; size++ {
			if testing.Short() && size > 6*BlockSize && size%13 != 0 {
				continue
			}
			padded := make([]byte, (size+BlockSize-1)&^(BlockSize-1))
			want := make([]byte, len(padded))
			for _, place := range guardpage.Placements(a, b, size) {
				copy(padded, randBytes(r, size))
				copy(place.Src, padded)
				hi, lo := r.Uint64(), r.Uint64()
				ctrRef(ref, want, padded, hi, lo)
				ctr := [2]uint64{lo, hi}
				var stream, iv [BlockSize]byte
				c.fusedWords(fusedCTR, &place.Dst[0], &place.Src[0], size, &ctr, nil, &stream)
				if !bytes.Equal(place.Dst, want[:size]) {
					t.Fatalf("%d bytes, %s: the words' CTR differs from CTR in Go", size, place.Name)
				}
				copy(place.Src, padded) // in place, CTR overwrote it
				copy(iv[:], randBytes(r, BlockSize))
				cfbDecryptRef(ref, want, padded, iv)
				c.fusedWords(fusedCFB, &place.Dst[0], &place.Src[0], size, nil, &iv, &stream)
				if !bytes.Equal(place.Dst, want[:size]) {
					t.Fatalf("%d bytes, %s: the words' CFB decryption differs from CFB in Go", size, place.Name)
				}
				if size%BlockSize != 0 {
					continue
				}
				copy(place.Src, padded)
				cbcDecryptRef(ref, want, padded, iv)
				c.fusedWords(fusedCBC, &place.Dst[0], &place.Src[0], size, nil, &iv, nil)
				if !bytes.Equal(place.Dst, want) {
					t.Fatalf("%d blocks, %s: the words' CBC decryption differs from CBC in Go", size/BlockSize, place.Name)
				}
				for _, m := range []int{fusedXTSEnc, fusedXTSDec} {
					copy(place.Src, padded)
					lo, hi := r.Uint64(), r.Uint64()
					xtsRef(ref, want, padded, lo, hi, m == fusedXTSDec)
					tw := [2]uint64{lo, hi}
					c.fusedWords(m, &place.Dst[0], &place.Src[0], size, &tw, nil, nil)
					if !bytes.Equal(place.Dst, want) {
						t.Fatalf("%d blocks, %s, decrypt %v: the words' XTS differs from XTS in Go", size/BlockSize, place.Name, m == fusedXTSDec)
					}
				}
			}
		}
	})
}
