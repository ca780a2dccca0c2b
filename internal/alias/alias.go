// Package alias reports whether two byte slices share memory, for the
// buffer-overlap checks that crypto/cipher's contracts require.
package alias

import "unsafe"

// AnyOverlap reports whether x and y share memory at any index, not
// necessarily the same one.
func AnyOverlap(x, y []byte) bool {
	if len(x) == 0 || len(y) == 0 {
		return false
	}
	xStart, xEnd := uintptr(unsafe.Pointer(&x[0])), uintptr(unsafe.Pointer(&x[len(x)-1]))
	yStart, yEnd := uintptr(unsafe.Pointer(&y[0])), uintptr(unsafe.Pointer(&y[len(y)-1]))
	return xStart <= yEnd && yStart <= xEnd
}

// InexactOverlap reports whether x and y share memory at some index but not
// at the same one: in-place use (identical starts) is allowed, any other
// overlap is not. Only the first min(len(x), len(y)) bytes start together,
// so callers pass slices of the length actually read and written.
func InexactOverlap(x, y []byte) bool {
	if len(x) == 0 || len(y) == 0 || &x[0] == &y[0] {
		return false
	}
	return AnyOverlap(x, y)
}

// InexactOverlapBlock is InexactOverlap for two ranges of n bytes starting at
// x and y, written so that a per-block check stays small enough to inline:
// the ranges overlap inexactly when their starts differ by less than n but
// are not equal.
func InexactOverlapBlock(x, y *byte, n int) bool {
	d := uintptr(unsafe.Pointer(x)) - uintptr(unsafe.Pointer(y))
	return d != 0 && d+uintptr(n-1) < uintptr(2*n-1)
}
