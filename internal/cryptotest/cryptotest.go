// Package cryptotest checks that this module's block ciphers, block modes,
// streams and AEADs keep the contracts of crypto/cipher's interfaces: what
// the standard library's crypto/internal/cryptotest checks of its own
// ciphers, written afresh, and the panics this module promises where
// crypto/cipher leaves them to the implementation (a wrong IV, a short or
// overlapping buffer, all raised before anything is written).
//
// Each helper runs one subtest a property, named for it, so that a failure
// says which promise broke. The inputs are random, from internal/testrand:
// a failing subtest logs the seed that replays it.
package cryptotest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/testrand"
)

// exhaustive reports whether TWOFISH_TEST_EXHAUSTIVE=1 asks for the
// exhaustive runs, which CI sets: every length up to a few groups of the
// widest kernel instead of those around their boundaries.
func exhaustive() bool { return os.Getenv("TWOFISH_TEST_EXHAUSTIVE") == "1" }

// groupBlocks is the widest kernel group of this module, in blocks: the
// fused kernels of the modes take 64 blocks at a time and hand what is
// left to narrower kernels of 32, 16, 4, 3 and 1 blocks, so the lengths
// below straddle those widths.
const groupBlocks = 64

// blockCounts returns the message lengths, in blocks, that the modes'
// checks try: those around the widths of the kernels and of their groups,
// up to two groups and a tail; every count up to that in exhaustive runs.
func blockCounts() []int {
	if exhaustive() {
		ns := make([]int, 0, 2*groupBlocks+6)
		for n := 1; n <= 2*groupBlocks+5; n++ {
			ns = append(ns, n)
		}
		return ns
	}
	ns := []int{1, 2, 3, 4, 5, 7, 16, 17, groupBlocks - 1, groupBlocks, groupBlocks + 1, 2*groupBlocks + 5}
	if testing.Short() {
		ns = []int{1, 3, 5, 17, groupBlocks + 1, 2*groupBlocks + 5}
	}
	return ns
}

// byteLengths returns the message lengths, in bytes, that the streams'
// checks try: those of blockCounts, and each with a partial block after
// it, for blockSize-byte blocks.
func byteLengths(blockSize int) []int {
	var ns []int
	for _, n := range blockCounts() {
		ns = append(ns, n*blockSize, n*blockSize+blockSize/2-1)
	}
	return append(ns, 1, blockSize-1)
}

// randSlice returns n random bytes that start at a random offset into
// their array, so that a kernel that assumes aligned buffers fails.
func randSlice(r *rand.Rand, n int) []byte {
	off := 1 + r.IntN(15)
	return testrand.Bytes(r, off+n)[off:]
}

// mustPanic checks that f panics with a message that contains want.
func mustPanic(t *testing.T, what, want string, f func()) {
	t.Helper()
	switch msg, ok := panicOf(f); {
	case !ok:
		t.Errorf("%s: no panic, want one saying %q", what, want)
	case !strings.Contains(msg, want):
		t.Errorf("%s: panic %q, want one saying %q", what, msg, want)
	}
}

// panicOf calls f and returns the message of its panic, if it panics.
// The message is reported here, not in the deferred call, whose stack
// would name the panicking line rather than the check's.
func panicOf(f func()) (msg string, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			msg, panicked = fmt.Sprint(r), true
		}
	}()
	f()
	return "", false
}

// mustPanicUntouched is mustPanic, and checks that arena, which holds
// f's buffers, is as it was: the panic came before anything was written.
func mustPanicUntouched(t *testing.T, what, want string, arena []byte, f func()) {
	t.Helper()
	before := bytes.Clone(arena)
	mustPanic(t, what, want, f)
	if i := firstDiff(arena, before); i >= 0 {
		t.Errorf("%s: byte %d of the buffers was written before the panic", what, i)
	}
}

// An overlap is a dst and a src that share memory but not their start.
type overlap struct {
	what     string
	dst, src []byte
}

// overlaps returns the four ways that a dst and a src of n bytes each,
// both in arena (2n bytes), overlap inexactly by the least and the most:
// dst a byte after or before src, or sharing only src's last or first
// byte.
func overlaps(arena []byte, n int) []overlap {
	return []overlap{
		{"dst a byte after src", arena[1 : n+1], arena[:n]},
		{"dst from src's last byte", arena[n-1 : 2*n-1], arena[:n]},
		{"dst a byte before src", arena[:n], arena[1 : n+1]},
		{"dst up to src's first byte", arena[:n], arena[n-1 : 2*n-1]},
	}
}

// firstDiff returns the first index where a and b, of equal lengths,
// differ, or -1 if they are equal.
func firstDiff(a, b []byte) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// checkRegions checks that arena is as before outside [start, end), the
// part a call may write: the bytes before and after it are the caller's.
func checkRegions(t *testing.T, what string, arena, before []byte, start, end int) {
	t.Helper()
	if i := firstDiff(arena[:start], before[:start]); i >= 0 {
		t.Errorf("%s: wrote dst[-%d], before dst", what, start-i)
	}
	if i := firstDiff(arena[end:], before[end:]); i >= 0 {
		t.Errorf("%s: wrote dst[%d], past the %d bytes of output", what, end-start+i, end-start)
	}
}

// callOf names the call of a message of n bytes, cut into calls that
// start at the offsets cuts, that took byte i: "bytes [a, b)".
func callOf(cuts []int, i, n int) string {
	k := 0
	for k+1 < len(cuts) && cuts[k+1] <= i {
		k++
	}
	end := n
	if k+1 < len(cuts) {
		end = cuts[k+1]
	}
	return fmt.Sprintf("bytes [%d, %d)", cuts[k], end)
}
