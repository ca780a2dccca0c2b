//go:build gc && !purego

package kernel

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/ghash"
)

// gcmPowers returns the GHASH key of h and its powers for the fused GCM
// kernels, skipping the test (or failing it, where
// TWOFISH_TEST_REQUIRE_GHASH names avx512-vpclmulqdq) if this CPU's GHASH
// does not run VPCLMULQDQ on zmm registers.
func gcmPowers(t *testing.T, h *[16]byte) (*ghash.Key, *[16][16]byte) {
	t.Helper()
	k := new(ghash.Key)
	k.Init(h)
	p := k.PowersVPCLMUL()
	if p == nil {
		const name = "avx512-vpclmulqdq"
		if slices.Contains(strings.Split(os.Getenv("TWOFISH_TEST_REQUIRE_GHASH"), ","), name) {
			t.Fatalf("GHASH %s is required by TWOFISH_TEST_REQUIRE_GHASH but not this CPU's", name)
		}
		t.Skipf("GHASH does not run %s on this CPU: no fused GCM kernels", name)
	}
	return k, p
}

// TestFusedGCM compares the fused GCM kernels (GCMGroups) with the fused
// CTR kernel's key stream and GHASH over the ciphertext, sealing and
// opening, for the block counts of fusedLengths, in place and not, at
// every offset of the buffers modulo 8, with random counters, hash keys
// and running values: the same output, counter and hash, and nothing
// written after the whole groups.
func TestFusedGCM(t *testing.T) {
	forEachFused(t, func(t *testing.T, kern *Kernel) {
		r := testRand(t)
		for _, bits := range []int{128, 256} {
			key := randBytes(r, bits/8)
			c := newCipher(key, kern)
			var h [16]byte
			copy(h[:], randBytes(r, 16))
			gk, powers := gcmPowers(t, &h)
			for _, n := range fusedLengths(r) {
				for _, inPlace := range []bool{false, true} {
					for _, open := range []bool{false, true} {
						off := r.IntN(8)
						what := fmt.Sprintf("%d-bit key, %d blocks, in place %v, open %v, offset %d", bits, n, inPlace, open, off)
						whole := n / FusedGroup * FusedGroup * BlockSize
						src := randBytes(r, n*BlockSize+off)[off:]
						fill := randBytes(r, len(src))
						var y0 [16]byte
						copy(y0[:], randBytes(r, 16))
						hi, lo := r.Uint64(), r.Uint64()

						want := bytes.Clone(fill)
						wantCtr := [2]uint64{lo, hi}
						c.CTRGroups(want[:whole], src[:whole], &wantCtr)
						wantY := y0
						if open {
							ghash.Blocks(gk, &wantY, src[:whole])
						} else {
							ghash.Blocks(gk, &wantY, want[:whole])
						}

						got := append(make([]byte, off, off+len(src)), fill...)[off:]
						in := src
						if inPlace {
							copy(got[:whole], src)
							in = got
						}
						ctr, y := [2]uint64{lo, hi}, y0
						if m := c.GCMGroups(got, in, &ctr, powers, &y, open); m != whole {
							t.Fatalf("%s: GCMGroups did %d bytes, want %d", what, m, whole)
						}
						if !bytes.Equal(got, want) {
							t.Fatalf("%s: output differs from the CTR kernel's", what)
						}
						if ctr != wantCtr {
							t.Fatalf("%s: counter %x, want %x", what, ctr, wantCtr)
						}
						if y != wantY {
							t.Fatalf("%s: hash %x, want %x", what, y, wantY)
						}
					}
				}
			}
		}
	})
}
