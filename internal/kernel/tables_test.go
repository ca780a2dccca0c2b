package kernel

import "testing"

// The first entries of q0 and q1 as printed in the specification's reference
// tables. Everything else the tables feed is covered by the known-answer
// tests, which fail on any wrong entry of q0, q1, MDS or RS.
func TestQPermutations(t *testing.T) {
	for _, tc := range []struct {
		name string
		q    *[256]byte
		want []byte
	}{
		{"q0", &q0, []byte{0xA9, 0x67, 0xB3, 0xE8, 0x04, 0xFD, 0xA3, 0x76}},
		{"q1", &q1, []byte{0x75, 0xF3, 0xC6, 0xF4, 0xDB, 0x7B, 0xFB, 0xC8}},
	} {
		for i, w := range tc.want {
			if tc.q[i] != w {
				t.Errorf("%s[%d] = %#02x, want %#02x", tc.name, i, tc.q[i], w)
			}
		}
		var seen [256]bool
		for _, v := range tc.q {
			seen[v] = true
		}
		for v, ok := range seen {
			if !ok {
				t.Errorf("%s is not a permutation: %#02x missing", tc.name, v)
			}
		}
	}
}

func TestGFMultiply(t *testing.T) {
	// In GF(2^8) mod x^8+x^6+x^5+x^3+1, 0x5B = 1 + 1/x^2 and 0xEF = 1 + 1/x + 1/x^2
	// (section 4.2), and multiplication is linear in each argument.
	for x := range 256 {
		b := byte(x)
		if got := gfMul(0x01, b, mdsPoly); got != b {
			t.Fatalf("1*%#02x = %#02x", b, got)
		}
		for y := range 256 {
			if gfMul(0xEF, b^byte(y), rsPoly) != gfMul(0xEF, b, rsPoly)^gfMul(0xEF, byte(y), rsPoly) {
				t.Fatalf("multiplication by 0xEF is not linear at %#02x, %#02x", x, y)
			}
		}
	}
	// x * x^7 = x^8 = x^6+x^5+x^3+1 = 0x69 modulo the MDS polynomial.
	if got := gfMul(0x02, 0x80, mdsPoly); got != 0x69 {
		t.Errorf("x*x^7 = %#02x, want 0x69", got)
	}
	if got := gfMul(0x02, 0x80, rsPoly); got != 0x4D {
		t.Errorf("x*x^7 mod RS polynomial = %#02x, want 0x4d", got)
	}
}
