package ghash

import (
	"math/rand/v2"
	"testing"

	"github.com/twofish-go/twofish/internal/testrand"
)

// testRand returns a seeded generator whose seed a failing test logs.
func testRand(t *testing.T) *rand.Rand { return testrand.New(t) }

// randBytes returns n bytes from r.
func randBytes(r *rand.Rand, n int) []byte { return testrand.Bytes(r, n) }
