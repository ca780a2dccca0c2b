//go:build gc && !purego

package kernel

import (
	"bytes"
	"crypto/subtle"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/twofish-go/twofish/internal/turns"
)

// fusedLengths are the block counts the fused kernels' tests try: every
// count up to two groups and three blocks, three groups with a padded rest
// (the last whole group then goes with it, after a call of two), four
// groups, and four groups and a narrow tail (a call of four whole groups,
// whose loop over pairs ends with nothing left, and that of the word
// layout's kernels after it), and a few random ones up to ten groups; with
// -short (under emulation), the counts around each group's edges and the
// padding's thresholds (smallTail, narrowMost), three groups with a padded
// rest, the four groups, and one random one.
func fusedLengths(r *rand.Rand) []int {
	if testing.Short() {
		return []int{0, 1, smallTail + 1, narrowMost / 2, narrowMost/2 + 1, narrowMost, narrowMost + 1, FusedGroup - 1, FusedGroup, FusedGroup + 1, FusedGroup + smallTail, FusedGroup + smallTail + 1, 2*FusedGroup - 1, 2 * FusedGroup, 2*FusedGroup + 3, 2*FusedGroup + smallTail + 1, 2*FusedGroup + narrowMost + 1, 3*FusedGroup + smallTail + 1, 4 * FusedGroup, 4*FusedGroup + smallTail + 1, r.IntN(10 * FusedGroup)}
	}
	var ns []int
	for n := 0; n <= 2*FusedGroup+3; n++ {
		ns = append(ns, n)
	}
	ns = append(ns, 3*FusedGroup+smallTail+1, 4*FusedGroup-1, 4*FusedGroup, 4*FusedGroup+smallTail+1)
	for range 4 {
		ns = append(ns, r.IntN(10*FusedGroup))
	}
	return ns
}

// ctrRef is CTR in Go over ref: the key stream of the counter hi, lo XORed
// into src, written to dst. It returns the counter after the last block.
func ctrRef(ref *Cipher, dst, src []byte, hi, lo uint64) (uint64, uint64) {
	ks := make([]byte, len(src))
	for i := 0; i < len(ks); i += BlockSize {
		binary.BigEndian.PutUint64(ks[i:], hi)
		binary.BigEndian.PutUint64(ks[i+8:], lo)
		lo++
		if lo == 0 {
			hi++
		}
	}
	ref.EncryptBlocks(ks, ks)
	for i := range src {
		dst[i] = src[i] ^ ks[i]
	}
	return hi, lo
}

// gcmRef is CTR with GCM's counter in Go over ref, from the counter hi, lo
// (the 128-bit counter hi<<64 | lo) whose low 32 bits alone count; it
// returns the counter after the last block.
func gcmRef(ref *Cipher, dst, src []byte, hi, lo uint64) (uint64, uint64) {
	ks := make([]byte, len(src))
	for i := 0; i < len(ks); i += BlockSize {
		binary.BigEndian.PutUint64(ks[i:], hi)
		binary.BigEndian.PutUint64(ks[i+8:], lo)
		lo = lo&^(1<<32-1) | uint64(uint32(lo)+1)
	}
	ref.EncryptBlocks(ks, ks)
	for i := range src {
		dst[i] = src[i] ^ ks[i]
	}
	return hi, lo
}

// cbcDecryptRef is CBC decryption in Go over ref; it returns the last
// ciphertext block.
func cbcDecryptRef(ref *Cipher, dst, src []byte, iv [BlockSize]byte) [BlockSize]byte {
	out := make([]byte, len(src))
	ref.DecryptBlocks(out, src)
	for i := range out {
		if i < BlockSize {
			out[i] ^= iv[i]
		} else {
			out[i] ^= src[i-BlockSize]
		}
	}
	if len(src) > 0 {
		copy(iv[:], src[len(src)-BlockSize:])
	}
	copy(dst, out)
	return iv
}

// cfbDecryptRef is CFB decryption in Go over ref; it returns the last
// ciphertext block.
func cfbDecryptRef(ref *Cipher, dst, src []byte, iv [BlockSize]byte) [BlockSize]byte {
	ks := make([]byte, len(src))
	if len(src) > 0 {
		copy(ks, iv[:])
		copy(ks[BlockSize:], src[:len(src)-BlockSize])
		copy(iv[:], src[len(src)-BlockSize:])
	}
	ref.EncryptBlocks(ks, ks)
	for i := range src {
		dst[i] = src[i] ^ ks[i]
	}
	return iv
}

// xtsRef is XTS in Go over ref, without stealing: block i of src whitened
// with the tweak T·x^i before and after the block cipher, T = hi<<64 | lo.
// It returns the tweak after the last block.
func xtsRef(ref *Cipher, dst, src []byte, lo, hi uint64, dec bool) (uint64, uint64) {
	tw := make([]byte, len(src))
	for i := 0; i < len(tw); i += BlockSize {
		binary.LittleEndian.PutUint64(tw[i:], lo)
		binary.LittleEndian.PutUint64(tw[i+8:], hi)
		carry := hi >> 63
		hi = hi<<1 | lo>>63
		lo = lo<<1 ^ 0x87&-carry
	}
	out := make([]byte, len(src))
	for i := range src {
		out[i] = src[i] ^ tw[i]
	}
	if dec {
		ref.DecryptBlocks(out, out)
	} else {
		ref.EncryptBlocks(out, out)
	}
	for i := range out {
		dst[i] = out[i] ^ tw[i]
	}
	return lo, hi
}

// fusedKernels are the kernels with fused mode kernels.
var fusedKernels = []*Kernel{AVX512GFNI, AVX512VBMI}

// forEachFused runs f as a subtest for each of fusedKernels, skipping (or
// failing, as forEachKernel does) one this CPU cannot run.
func forEachFused(t *testing.T, f func(t *testing.T, k *Kernel)) {
	for _, k := range fusedKernels {
		t.Run(k.Name, func(t *testing.T) {
			if !k.Supported {
				skipUnsupported(t, k.Name)
			}
			f(t, k)
		})
	}
}

// TestFusedGroupsAssembly compares the fused CTR, CBC decryption, CFB
// decryption and XTS kernels with the modes in Go around the generic
// kernel: every block count up to two groups and three blocks and a few
// larger ones (the kernels take the whole groups, and more than smallTail
// blocks after them, padded into a group or through the word layout's
// mode kernels, as a pinned plan's ECB takes them, and must leave the rest
// of dst alone), in place and not, at a random
// offset of the buffers modulo 8, with random counters, IVs and tweaks.
func TestFusedGroupsAssembly(t *testing.T) {
	forEachFused(t, func(t *testing.T, kern *Kernel) {
		r := testRand(t)
		for _, bits := range []int{128, 256} {
			key := randBytes(r, bits/8)
			c, ref := newCipher(key, kern), newCipher(key, Generic)
			for _, n := range fusedLengths(r) {
				for _, inPlace := range []bool{false, true} {
					off := r.IntN(8)
					what := fmt.Sprintf("%d-bit key, %d blocks, in place %v, offset %d", bits, n, inPlace, off)
					done := n / FusedGroup * FusedGroup * BlockSize
					if n%FusedGroup > smallTail {
						done = n * BlockSize
					}
					src := randBytes(r, n*BlockSize+off)[off:]
					fill := randBytes(r, len(src))

					// CTR.
					hi, lo := r.Uint64(), r.Uint64()
					want := bytes.Clone(fill)
					wantHi, wantLo := ctrRef(ref, want[:done], src[:done], hi, lo)
					got := append(make([]byte, off, off+len(src)), fill...)[off:]
					in := src
					if inPlace {
						copy(got[:done], src)
						in = got
					}
					ctr := [2]uint64{lo, hi}
					if m := c.CTRGroups(got, in, &ctr, nil); m != done {
						t.Fatalf("CTR, %s: CTRGroups did %d bytes, want %d", what, m, done)
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("CTR, %s: differs from CTR in Go", what)
					}
					if ctr != [2]uint64{wantLo, wantHi} {
						t.Fatalf("CTR, %s: counter %x, want %x", what, ctr, [2]uint64{wantLo, wantHi})
					}

					// CBC decryption.
					var iv [BlockSize]byte
					copy(iv[:], randBytes(r, BlockSize))
					want = bytes.Clone(fill)
					wantIV := cbcDecryptRef(ref, want[:done], src[:done], iv)
					got = append(make([]byte, off, off+len(src)), fill...)[off:]
					in = src
					if inPlace {
						copy(got[:done], src)
						in = got
					}
					if m := c.CBCDecryptGroups(got, in, &iv); m != done {
						t.Fatalf("CBC, %s: CBCDecryptGroups did %d bytes, want %d", what, m, done)
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("CBC, %s: differs from CBC decryption in Go", what)
					}
					if iv != wantIV {
						t.Fatalf("CBC, %s: next IV %x, want %x", what, iv, wantIV)
					}

					// CFB decryption.
					copy(iv[:], randBytes(r, BlockSize))
					want = bytes.Clone(fill)
					wantIV = cfbDecryptRef(ref, want[:done], src[:done], iv)
					got = append(make([]byte, off, off+len(src)), fill...)[off:]
					in = src
					if inPlace {
						copy(got[:done], src)
						in = got
					}
					if m := c.CFBDecryptGroups(got, in, &iv, nil); m != done {
						t.Fatalf("CFB, %s: CFBDecryptGroups did %d bytes, want %d", what, m, done)
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("CFB, %s: differs from CFB decryption in Go", what)
					}
					if iv != wantIV {
						t.Fatalf("CFB, %s: next IV %x, want %x", what, iv, wantIV)
					}

					// XTS.
					for _, dec := range []bool{false, true} {
						lo, hi := r.Uint64(), r.Uint64()
						want = bytes.Clone(fill)
						wantLo, wantHi := xtsRef(ref, want[:done], src[:done], lo, hi, dec)
						got = append(make([]byte, off, off+len(src)), fill...)[off:]
						in = src
						if inPlace {
							copy(got[:done], src)
							in = got
						}
						tw := [2]uint64{lo, hi}
						if m := c.XTSGroups(got, in, &tw, dec); m != done {
							t.Fatalf("XTS, %s, decrypt %v: XTSGroups did %d bytes, want %d", what, dec, m, done)
						}
						if !bytes.Equal(got, want) {
							t.Fatalf("XTS, %s, decrypt %v: differs from XTS in Go", what, dec)
						}
						if tw != [2]uint64{wantLo, wantHi} {
							t.Fatalf("XTS, %s, decrypt %v: next tweak %x, want %x", what, dec, tw, [2]uint64{wantLo, wantHi})
						}
					}
				}
			}
		}
	})
}

// xtsHalvesRef is XTSHalves in Go over ref: half h of src, XTSHalf blocks,
// through xtsRef with the tweak tweaks[h].
func xtsHalvesRef(ref *Cipher, dst, src []byte, tweaks [][2]uint64, dec bool) {
	const half = XTSHalf * BlockSize
	for h := 0; h < len(src)/half; h++ {
		xtsRef(ref, dst[half*h:half*(h+1)], src[half*h:half*(h+1)], tweaks[h][0], tweaks[h][1], dec)
	}
}

// TestXTSHalves compares the XTS kernels of a tweak a half-group with XTS
// in Go around the generic kernel, half by half: from zero to four
// groups (four: two turns of the kernels' loop over pairs, the second
// ending the run), with as many tweaks as the groups need, one more, and
// one fewer (the kernels take the groups that both src and the tweaks
// cover, and must leave the rest of dst alone), in place and not, at a
// random offset of the buffers modulo 8.
func TestXTSHalves(t *testing.T) {
	forEachFused(t, func(t *testing.T, kern *Kernel) {
		r := testRand(t)
		for _, bits := range []int{128, 256} {
			key := randBytes(r, bits/8)
			c, ref := newCipher(key, kern), newCipher(key, Generic)
			for groups := range 5 {
				for _, extra := range []int{-1, 0, 1} {
					nt := max(2*groups+extra, 0)
					done := min(groups, nt/2) * FusedGroup * BlockSize
					tweaks := make([][2]uint64, nt)
					for i := range tweaks {
						tweaks[i] = [2]uint64{r.Uint64(), r.Uint64()}
					}
					for _, inPlace := range []bool{false, true} {
						for _, dec := range []bool{false, true} {
							off := r.IntN(8)
							what := fmt.Sprintf("%d-bit key, %d groups, %d tweaks, in place %v, decrypt %v", bits, groups, nt, inPlace, dec)
							src := randBytes(r, groups*FusedGroup*BlockSize+off)[off:]
							fill := randBytes(r, len(src))
							want := bytes.Clone(fill)
							xtsHalvesRef(ref, want[:done], src[:done], tweaks, dec)
							got := append(make([]byte, off, off+len(src)), fill...)[off:]
							in := src
							if inPlace {
								copy(got[:done], src)
								in = got
							}
							if m := c.XTSHalves(got, in, tweaks, dec); m != done {
								t.Fatalf("%s: XTSHalves did %d bytes, want %d", what, m, done)
							}
							if !bytes.Equal(got, want) {
								t.Fatalf("%s: differs from XTS in Go, half by half", what)
							}
						}
					}
				}
			}
		}
	})
}

// TestFusedPartial checks CTRGroups and CFBDecryptGroups with a partial
// block at the end of src and rest to take its key stream, against the
// modes in Go around the generic kernel: at every block count of
// fusedLengths and partial blocks of 1, 7 and 15 bytes, in place and not,
// the kernels take the partial block, counted as a block, with the blocks
// before it wherever they go through a padded group or the word layout's
// kernels (more than smallTail blocks after the last whole group, the
// partial one among them), or it ends a group; put its whole block of key stream in rest
// and move the counter on past it (CTR) or leave its ciphertext at the
// start of the IV (CFB); elsewhere they take the whole groups before it
// and leave rest and the rest of dst alone.
func TestFusedPartial(t *testing.T) {
	forEachFused(t, func(t *testing.T, kern *Kernel) {
		r := testRand(t)
		key := randBytes(r, 32)
		c, ref := newCipher(key, kern), newCipher(key, Generic)
		for _, n := range fusedLengths(r) {
			for _, p := range []int{1, 7, 15} {
				blocks := n + 1
				size := n*BlockSize + p
				done := blocks / FusedGroup * FusedGroup * BlockSize
				if rem := blocks % FusedGroup; rem > smallTail || rem == 0 {
					done = size
				}
				src := randBytes(r, (n+1)*BlockSize)
				clear(src[size:])
				fill := randBytes(r, size)
				for _, mode := range []string{"CTR", "CFB"} {
					// want: the mode in Go over the blocks done, the
					// partial one zero-padded; wantRest its key stream.
					want := append(bytes.Clone(fill), make([]byte, BlockSize-p)...)
					hi, lo := r.Uint64(), r.Uint64()
					var iv [BlockSize]byte
					copy(iv[:], randBytes(r, BlockSize))
					wantHi, wantLo, wantIV := hi, lo, iv
					m := done
					if done == size {
						m = len(src)
					}
					if mode == "CTR" {
						wantHi, wantLo = ctrRef(ref, want[:m], src[:m], hi, lo)
					} else {
						wantIV = cfbDecryptRef(ref, want[:m], src[:m], iv)
					}
					var wantRest [BlockSize]byte
					if done == size {
						subtle.XORBytes(wantRest[:], want[n*BlockSize:], src[n*BlockSize:])
					}
					copy(want[done:size], fill[done:])
					want = want[:size]
					for _, inPlace := range []bool{false, true} {
						what := fmt.Sprintf("%s, %d blocks and %d bytes, in place %v", mode, n, p, inPlace)
						got := bytes.Clone(fill)
						in := src[:size]
						if inPlace {
							copy(got[:done], src)
							in = got
						}
						var rest [BlockSize]byte
						ctr, gotIV := [2]uint64{lo, hi}, iv
						var did int
						if mode == "CTR" {
							did = c.CTRGroups(got, in, &ctr, &rest)
						} else {
							did = c.CFBDecryptGroups(got, in, &gotIV, &rest)
						}
						if did != done {
							t.Fatalf("%s: did %d bytes, want %d", what, did, done)
						}
						if !bytes.Equal(got, want) {
							t.Fatalf("%s: differs from the mode in Go", what)
						}
						if rest != wantRest {
							t.Fatalf("%s: rest of the key stream %x, want %x", what, rest, wantRest)
						}
						if mode == "CTR" && ctr != [2]uint64{wantLo, wantHi} {
							t.Fatalf("%s: counter %x, want %x", what, ctr, [2]uint64{wantLo, wantHi})
						}
						if k := (done-1)%BlockSize + 1; mode == "CFB" && done > 0 && !bytes.Equal(gotIV[:k], wantIV[:k]) {
							t.Fatalf("%s: IV %x, want %x in its first %d bytes", what, gotIV, wantIV, k)
						}
					}
				}
			}
		}
	})
}

// TestCTRGroupsCarry checks the CTR kernels' counter where it carries: from
// 2^(8j)-1-k for every byte position j of the 128-bit counter (j = 16 is
// the wrap of the whole counter to zero, j = 8 the carry from the low
// 64-bit word into the high one), k from 0 to one past the run, so that the
// carry falls in every block of the call and just after it, and the counter
// after the call: for every way a run reaches the kernels, a pair of
// groups, a group alone (64 blocks, and two groups and one), a padded group
// (37 blocks, and a group and 37), and the 16- and 32-block kernels' word
// layout, partly filled and full (12, 16, 20 and 32 blocks, and after two
// groups). With -short (under emulation), j takes the 32-bit word
// boundaries alone, where the kernels carry, and k goes in steps of 5 and
// takes the first and last block of every 16, so the carry still falls in
// every register and where one starts.
func TestCTRGroupsCarry(t *testing.T) {
	step, jStep := uint64(1), 1
	if testing.Short() {
		step, jStep = 5, 4
	}
	forEachFused(t, func(t *testing.T, kern *Kernel) {
		r := testRand(t)
		key := randBytes(r, 32)
		c, ref := newCipher(key, kern), newCipher(key, Generic)
		for _, n := range []int{2 * FusedGroup, FusedGroup, 3 * FusedGroup, 37, FusedGroup + 37, 12, 16, 20, 32, 2*FusedGroup + 12, 2*FusedGroup + 32} {
			src := randBytes(r, n*BlockSize)
			got, want := make([]byte, len(src)), make([]byte, len(src))
			for j := jStep; j <= 16; j += jStep {
				for k := uint64(0); k <= uint64(n)+1; k++ {
					if k%step != 0 && k%16 != 0 && k%16 != 15 {
						continue
					}
					// 2^(8j) - 1 - k as hi, lo.
					hi, lo := uint64(0), ^uint64(0)>>(64-8*min(j, 8))
					if j > 8 {
						hi = ^uint64(0) >> (64 - 8*(j-8))
						lo = ^uint64(0)
					}
					if lo < k {
						hi--
					}
					lo -= k
					wantHi, wantLo := ctrRef(ref, want, src, hi, lo)
					ctr := [2]uint64{lo, hi}
					if m := c.CTRGroups(got, src, &ctr, nil); m != len(src) {
						t.Fatalf("%d blocks: CTRGroups did %d bytes", n, m)
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("%d blocks, counter %016x%016x: differs from CTR in Go", n, hi, lo)
					}
					if ctr != [2]uint64{wantLo, wantHi} {
						t.Fatalf("%d blocks, counter %016x%016x: next counter %x, want %x", n, hi, lo, ctr, [2]uint64{wantLo, wantHi})
					}
				}
			}
		}
	})
}

// TestGCMGroupsCounter checks the CTR kernel with GCM's counter, whose low
// 32 bits alone count: from 2^32-1-k, k from 0 to 130, so that the wrap
// falls in every lane of every register of both groups of a two-group call
// and just after them, with the upper 96 bits random and all ones (where
// a carry out of the low 32 would show), against the same in Go; and that
// it takes only the whole groups of a run, leaving the blocks after them
// alone. With -short (under emulation), k goes in steps of 5.
func TestGCMGroupsCounter(t *testing.T) {
	step := uint32(1)
	if testing.Short() {
		step = 5
	}
	forEachFused(t, func(t *testing.T, kern *Kernel) {
		r := testRand(t)
		key := randBytes(r, 32)
		c, ref := newCipher(key, kern), newCipher(key, Generic)
		for _, n := range []int{FusedGroup, 2 * FusedGroup, 2*FusedGroup + 37} {
			whole := n / FusedGroup * FusedGroup * BlockSize
			src := randBytes(r, n*BlockSize)
			want := make([]byte, whole)
			for _, upper := range [][2]uint64{{^uint64(0), ^uint64(0)}, {r.Uint64(), r.Uint64()}} {
				for k := uint32(0); k <= 2*FusedGroup+2; k += step {
					hi, lo := upper[1], upper[0]&^(1<<32-1)|uint64(^uint32(0)-k)
					wantHi, wantLo := gcmRef(ref, want, src[:whole], hi, lo)
					got := make([]byte, len(src))
					ctr := [2]uint64{lo, hi}
					if m := c.GCMGroups(got, src, &ctr); m != whole {
						t.Fatalf("%d blocks: GCMGroups did %d bytes, want %d", n, m, whole)
					}
					if !bytes.Equal(got[:whole], want) {
						t.Fatalf("%d blocks, counter %016x%016x: differs from GCM's counter in Go", n, hi, lo)
					}
					if !bytes.Equal(got[whole:], make([]byte, len(got)-whole)) {
						t.Fatalf("%d blocks: GCMGroups wrote past its whole groups", n)
					}
					if ctr != [2]uint64{wantLo, wantHi} {
						t.Fatalf("%d blocks, counter %016x%016x: next counter %x, want %x", n, hi, lo, ctr, [2]uint64{wantLo, wantHi})
					}
				}
			}
		}
	})
}

// TestFusedGroupsDecline checks that the Ciphers of the kernels without
// fused mode kernels decline the fused modes and leave dst alone, and that
// those with them say so.
func TestFusedGroupsDecline(t *testing.T) {
	r := testRand(t)
	src := randBytes(r, 2*FusedGroup*BlockSize)
	for _, k := range All() {
		if !k.Supported {
			continue
		}
		c := newCipher(randBytes(r, 16), k)
		if slices.Contains(fusedKernels, k) {
			if !c.Fused() {
				t.Errorf("%s: Fused reports false", k.Name)
			}
			// The halves kernels take sectors of 512 bytes, 1 KiB and an
			// odd number of halves; whole groups from 2 KiB go a sector a
			// call.
			for size, want := range map[int]bool{512: true, 1024: true, 1536: true, 2560: true, 2048: false, 4096: false, 0: false, 256: false, 520: false} {
				if got := c.XTSHalvesTake(size); got != want {
					t.Errorf("%s: XTSHalvesTake(%d) = %v, want %v", k.Name, size, got, want)
				}
			}
			continue
		}
		if c.XTSHalvesTake(512) {
			t.Errorf("%s: XTSHalvesTake(512) without the halves kernels", k.Name)
		}
		dst := make([]byte, len(src))
		var ctr [2]uint64
		var iv [BlockSize]byte
		tweaks := make([][2]uint64, 4)
		if c.CTRGroups(dst, src, &ctr, nil) != 0 || c.GCMGroups(dst, src, &ctr) != 0 || c.CBCDecryptGroups(dst, src, &iv) != 0 || c.CFBDecryptGroups(dst, src, &iv, nil) != 0 ||
			c.XTSGroups(dst, src, &ctr, false) != 0 || c.XTSGroups(dst, src, &ctr, true) != 0 ||
			c.XTSHalves(dst, src, tweaks, false) != 0 || c.XTSHalves(dst, src, tweaks, true) != 0 {
			t.Errorf("%s: a fused mode took blocks", k.Name)
		}
		if !bytes.Equal(dst, make([]byte, len(src))) || ctr != [2]uint64{} || iv != [BlockSize]byte{} {
			t.Errorf("%s: a declined fused mode wrote", k.Name)
		}
	}
}

// BenchmarkFusedGroups times each of fusedKernels' fused CTR, CBC and CFB
// decryption and XTS kernels against its ECB encryption over the same 8
// KiB, the two taking turns (turns.Take), and reports each one's speed as
// a fraction of ECB's (metric xECB: 1 is as fast as ECB; xECBmin from the
// fastest call of each, which a shared, noisy machine disturbs least):
//
//	go test -run '^$' -bench FusedGroups -count 7 ./internal/kernel
func BenchmarkFusedGroups(b *testing.B) {
	for _, k := range fusedKernels {
		b.Run("impl="+k.Name, func(b *testing.B) {
			if !k.Supported {
				b.Skipf("implementation %s is not supported on this CPU", k.Name)
			}
			benchmarkFusedGroups(b, newCipher(make([]byte, 32), k))
		})
	}
}

func benchmarkFusedGroups(b *testing.B, c *Cipher) {
	buf := make([]byte, 8192)
	var ctr [2]uint64
	var iv [BlockSize]byte
	for _, mode := range []string{"CTR", "GCM-CTR", "CBC-dec", "CFB-dec", "XTS-enc", "XTS-dec"} {
		b.Run("mode="+mode+"/size=8192", func(b *testing.B) {
			f := func() { c.CTRGroups(buf, buf, &ctr, nil) }
			switch mode {
			case "GCM-CTR":
				f = func() { c.GCMGroups(buf, buf, &ctr) }
			case "CBC-dec":
				f = func() { c.CBCDecryptGroups(buf, buf, &iv) }
			case "CFB-dec":
				f = func() { c.CFBDecryptGroups(buf, buf, &iv, nil) }
			case "XTS-enc", "XTS-dec":
				f = func() { c.XTSGroups(buf, buf, &ctr, mode == "XTS-dec") }
			}
			t := turns.Take(b, f, func() { c.EncryptBlocks(buf, buf) })
			b.ReportMetric(turns.Ratio(turns.Sum, t.G, t.F), "xECB")
			b.ReportMetric(turns.Ratio(slices.Min, t.G, t.F), "xECBmin")
		})
	}
}
