package twofish

import (
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/testrand"
)

// keySizes are the key lengths of Twofish-128, -192 and -256 in bytes.
var keySizes = []int{16, 24, 32}

// forEachImpl runs f as a subtest for every implementation of this build.
// One that this CPU cannot run is reported as skipped, with its name,
// unless TWOFISH_TEST_REQUIRE (a comma-separated list of names, set by CI)
// names it: then the test fails, so a kernel that was expected to run
// never passes silently. TWOFISH_TEST_IMPLS, if set, limits the run to the
// implementations it lists (the emulated dispatch test uses it: emulation
// is slow).
func forEachImpl(t *testing.T, f func(t *testing.T, impl Implementation)) {
	only := os.Getenv("TWOFISH_TEST_IMPLS")
	for _, impl := range Implementations() {
		t.Run(impl.Name, func(t *testing.T) {
			if only != "" && !slices.Contains(strings.Split(only, ","), impl.Name) {
				t.Skipf("implementation %s is not in TWOFISH_TEST_IMPLS=%s", impl.Name, only)
			}
			if !impl.Supported {
				if required(impl.Name) {
					t.Fatalf("implementation %s is required by TWOFISH_TEST_REQUIRE but not supported on this CPU", impl.Name)
				}
				t.Skipf("implementation %s is not supported on this CPU", impl.Name)
			}
			f(t, impl)
		})
	}
}

// forEachCipher runs f as a subtest for a Cipher with a random key of
// size bytes from every implementation this CPU runs (forEachImpl), and
// from NewCipher, whose plan mixes them.
func forEachCipher(t *testing.T, size int, f func(t *testing.T, r *rand.Rand, c *Cipher)) {
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		f(t, r, mustCipher(t, randBytes(r, size), impl.Name))
	})
	t.Run("NewCipher", func(t *testing.T) {
		r := testRand(t)
		c, _ := NewCipher(randBytes(r, size))
		f(t, r, c)
	})
}

// required reports whether TWOFISH_TEST_REQUIRE names impl.
func required(impl string) bool {
	return slices.Contains(strings.Split(os.Getenv("TWOFISH_TEST_REQUIRE"), ","), impl)
}

// TestRequiredImplementations fails if TWOFISH_TEST_REQUIRE names an
// implementation this build does not have at all.
func TestRequiredImplementations(t *testing.T) {
	env := os.Getenv("TWOFISH_TEST_REQUIRE")
	if env == "" {
		t.Skip("TWOFISH_TEST_REQUIRE is not set")
	}
	for _, name := range strings.Split(env, ",") {
		i := slices.IndexFunc(Implementations(), func(impl Implementation) bool { return impl.Name == name })
		switch {
		case i < 0:
			t.Errorf("TWOFISH_TEST_REQUIRE names %q, which this build does not have", name)
		case !Implementations()[i].Supported:
			t.Errorf("TWOFISH_TEST_REQUIRE names %q, which this CPU does not support", name)
		}
	}
}

// widestBlocks is the widest kernel of this build, in blocks.
func widestBlocks() int {
	w := 1
	for _, impl := range Implementations() {
		w = max(w, impl.Blocks)
	}
	return w
}

// exhaustive reports whether TWOFISH_TEST_EXHAUSTIVE=1 asks for the
// exhaustive runs, which CI sets: every length of the sweeps below instead
// of those around the block, batch and group boundaries.
func exhaustive() bool { return os.Getenv("TWOFISH_TEST_EXHAUSTIVE") == "1" }

// testRand returns a seeded generator whose seed a failing test logs.
func testRand(t *testing.T) *rand.Rand { return testrand.New(t) }

// randBytes returns n bytes from r.
func randBytes(r *rand.Rand, n int) []byte { return testrand.Bytes(r, n) }

// mustCipher returns a Cipher pinned to impl.
func mustCipher(t testing.TB, key []byte, impl string) *Cipher {
	t.Helper()
	c, err := NewCipherImpl(key, impl)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// expectPanic checks that f panics with exactly msg.
func expectPanic(t *testing.T, msg string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		switch r := recover(); {
		case r == nil:
			t.Errorf("no panic, want %q", msg)
		case r != msg:
			t.Errorf("panic %q, want %q", r, msg)
		}
	}()
	f()
}
