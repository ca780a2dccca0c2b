package kernel

import "testing"

// TestTimesX checks TimesX against k doublings in GF(2^128), one bit
// shifted out at a time, for every k it takes (1 to 63; XTS uses up to
// 32), on tweaks whose top bits are all set, where every bit that leaves
// comes back reduced, and on random ones.
func TestTimesX(t *testing.T) {
	double := func(t [2]uint64) [2]uint64 {
		carry := t[1] >> 63
		return [2]uint64{t[0]<<1 ^ 0x87&-carry, t[1]<<1 | t[0]>>63}
	}
	r := testRand(t)
	tweaks := [][2]uint64{{1, 0}, {0, 1 << 63}, {^uint64(0), ^uint64(0)}}
	for range 8 {
		tweaks = append(tweaks, [2]uint64{r.Uint64(), r.Uint64()})
	}
	for _, tw := range tweaks {
		want := tw
		for k := uint(1); k < 64; k++ {
			want = double(want)
			if got := TimesX(tw, k); got != want {
				t.Fatalf("TimesX(%x, %d) = %x, want %x", tw, k, got, want)
			}
		}
	}
}
