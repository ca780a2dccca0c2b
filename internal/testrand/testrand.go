// Package testrand gives the tests their random inputs: a generator seeded
// at random whose seed a failing test logs, so that the failure can be
// replayed with TWOFISH_TEST_SEED.
package testrand

import (
	"bytes"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// New returns a seeded generator and logs the seed if t fails. The seed is
// TWOFISH_TEST_SEED where that is set, else random.
func New(t testing.TB) *rand.Rand {
	seed := rand.Uint64()
	if s := os.Getenv("TWOFISH_TEST_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("TWOFISH_TEST_SEED: %v", err)
		}
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("random seed: TWOFISH_TEST_SEED=%d", seed)
		}
	})
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// Bytes returns n bytes from r.
func Bytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// Keys returns n keys of size bytes: first the keys whose structure random
// ones would hardly ever have (all zeros, all ones, alternating bits, a
// ramp of bytes, and each key of one bit set), then random ones from r.
func Keys(r *rand.Rand, size, n int) [][]byte {
	var keys [][]byte
	for _, b := range []byte{0x00, 0xff, 0x55, 0xaa} {
		keys = append(keys, bytes.Repeat([]byte{b}, size))
	}
	ramp := make([]byte, size)
	for i := range ramp {
		ramp[i] = byte(i)
	}
	keys = append(keys, ramp)
	for bit := range 8 * size {
		k := make([]byte, size)
		k[bit/8] = 1 << (bit % 8)
		keys = append(keys, k)
	}
	for len(keys) < n {
		keys = append(keys, Bytes(r, size))
	}
	return keys
}
