package alias

import (
	"fmt"
	"testing"
)

// TestOverlapEdges places two ranges of n bytes at every offset d from
// each other within one array, from well apart to well past each other,
// and checks each function against the definition: AnyOverlap when they
// share a byte (|d| < n), InexactOverlap and InexactOverlapBlock when they
// do but do not start together. A single shared byte at either end is an
// overlap; ranges that touch without sharing one are not.
func TestOverlapEdges(t *testing.T) {
	for _, n := range []int{1, 2, 15, 16, 17, 64} {
		buf := make([]byte, 6*n)
		for d := -2 * n; d <= 2*n; d++ {
			x := buf[2*n+d : 3*n+d]
			y := buf[2*n : 3*n]
			share := d > -n && d < n
			what := fmt.Sprintf("%d bytes, x at y%+d", n, d)
			if got := AnyOverlap(x, y); got != share {
				t.Errorf("%s: AnyOverlap = %v, want %v", what, got, share)
			}
			if got := AnyOverlap(y, x); got != share {
				t.Errorf("%s: AnyOverlap(y, x) = %v, want %v", what, got, share)
			}
			inexact := share && d != 0
			if got := InexactOverlap(x, y); got != inexact {
				t.Errorf("%s: InexactOverlap = %v, want %v", what, got, inexact)
			}
			if got := InexactOverlap(y, x); got != inexact {
				t.Errorf("%s: InexactOverlap(y, x) = %v, want %v", what, got, inexact)
			}
			if got := InexactOverlapBlock(&x[0], &y[0], n); got != inexact {
				t.Errorf("%s: InexactOverlapBlock = %v, want %v", what, got, inexact)
			}
			if got := InexactOverlapBlock(&y[0], &x[0], n); got != inexact {
				t.Errorf("%s: InexactOverlapBlock(y, x) = %v, want %v", what, got, inexact)
			}
		}
	}
}

// TestOverlapEmpty checks that an empty or nil slice overlaps nothing,
// even one whose pointer lies inside the other (a slice of it), and that
// ranges of different lengths starting together are in place, not an
// inexact overlap, as crypto/cipher's callers pass a dst longer than src.
func TestOverlapEmpty(t *testing.T) {
	buf := make([]byte, 32)
	for _, e := range [][]byte{nil, buf[:0], buf[8:8], buf[32:]} {
		if AnyOverlap(e, buf) || AnyOverlap(buf, e) {
			t.Errorf("AnyOverlap with an empty slice at %p reports an overlap", e)
		}
		if InexactOverlap(e, buf[8:]) || InexactOverlap(buf[8:], e) {
			t.Errorf("InexactOverlap with an empty slice at %p reports an overlap", e)
		}
	}
	if InexactOverlap(buf, buf[:16]) || InexactOverlap(buf[:16], buf) {
		t.Error("InexactOverlap reports ranges with a common start, of different lengths")
	}
	if !AnyOverlap(buf, buf[:16]) {
		t.Error("AnyOverlap misses ranges with a common start")
	}
}
