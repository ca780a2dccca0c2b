package ghash

import (
	"math/rand/v2"
	"testing"

	"github.com/twofish-go/twofish/internal/cpu"
	"github.com/twofish-go/twofish/internal/testrand"
)

// testRand returns a seeded generator whose seed a failing test logs.
func testRand(t *testing.T) *rand.Rand { return testrand.New(t) }

// randBytes returns n bytes from r.
func randBytes(r *rand.Rand, n int) []byte { return testrand.Bytes(r, n) }

// feMul returns a·b with the portable code's multiplication.
func feMul(a, b fe) fe {
	k := newMulKey(b)
	return k.mul(a)
}

// ghashImplInfo describes one GHASH implementation of this build.
type ghashImplInfo struct {
	name      string
	impl      ghashImpl
	supported bool
}

// ghashImplementations lists the GHASH implementations of this build,
// widest first, as internal/cpu lists them.
func ghashImplementations() []ghashImplInfo {
	var impls []ghashImplInfo
	for _, o := range cpu.Host().GHASH.Options {
		impls = append(impls, ghashImplInfo{o.Name, implOf(o.Name), o.Supported})
	}
	return impls
}
