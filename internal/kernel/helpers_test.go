package kernel

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/testrand"
)

// keySizes are the key lengths of Twofish-128, -192 and -256 in bytes.
var keySizes = []int{16, 24, 32}

// newCipher returns a Cipher with key on k's ladder.
func newCipher(key []byte, k *Kernel) *Cipher {
	return newPlanCipher(Pin(k), key)
}

// forEachKernel runs f as a subtest for every kernel of this build. One
// that this CPU cannot run is reported as skipped, with its name, unless
// TWOFISH_TEST_REQUIRE (a comma-separated list of names, set by CI) names
// it: then the test fails, so a kernel that was expected to run never
// passes silently. TWOFISH_TEST_IMPLS, if set, limits the run to the
// kernels it lists (the emulated dispatch test uses it: emulation is
// slow).
func forEachKernel(t *testing.T, f func(t *testing.T, k *Kernel)) {
	only := os.Getenv("TWOFISH_TEST_IMPLS")
	for _, k := range All() {
		t.Run(k.Name, func(t *testing.T) {
			if only != "" && !slices.Contains(strings.Split(only, ","), k.Name) {
				t.Skipf("implementation %s is not in TWOFISH_TEST_IMPLS=%s", k.Name, only)
			}
			if !k.Supported {
				skipUnsupported(t, k.Name)
			}
			f(t, k)
		})
	}
}

// skipUnsupported skips t, whose kernel name this CPU cannot run, or fails
// it if TWOFISH_TEST_REQUIRE names the kernel.
func skipUnsupported(t *testing.T, name string) {
	t.Helper()
	if slices.Contains(strings.Split(os.Getenv("TWOFISH_TEST_REQUIRE"), ","), name) {
		t.Fatalf("implementation %s is required by TWOFISH_TEST_REQUIRE but not supported on this CPU", name)
	}
	t.Skipf("implementation %s is not supported on this CPU", name)
}

// testRand returns a seeded generator whose seed a failing test logs.
func testRand(t *testing.T) *rand.Rand { return testrand.New(t) }

// randBytes returns n bytes from r.
func randBytes(r *rand.Rand, n int) []byte { return testrand.Bytes(r, n) }

// TestRequiredKernels fails if TWOFISH_TEST_REQUIRE names a kernel this
// build does not have or this CPU cannot run.
func TestRequiredKernels(t *testing.T) {
	env := os.Getenv("TWOFISH_TEST_REQUIRE")
	if env == "" {
		t.Skip("TWOFISH_TEST_REQUIRE is not set")
	}
	for _, name := range strings.Split(env, ",") {
		switch k := Find(name); {
		case k == nil:
			t.Errorf("TWOFISH_TEST_REQUIRE names %q, which this build does not have", name)
		case !k.Supported:
			t.Errorf("TWOFISH_TEST_REQUIRE names %q, which this CPU does not support", name)
		}
	}
}

// withLayouts returns a new zero Schedule with room for the layouts ls.
func withLayouts(ls ...int) *Schedule {
	var s layoutSet
	for _, l := range ls {
		s |= 1 << l
	}
	_, ks := allocate[struct{}](s)
	return ks
}

// newPlanCipher returns a Cipher keyed with key for the plan p, as New
// makes the root package's.
func newPlanCipher(p Plan, key []byte) *Cipher {
	return New(p, key, func(c *Cipher) *Cipher { return c })
}

// moduleFiles returns the module's files whose names end in suffix, as
// paths relative to the module's root, with "/". It skips what the go
// command leaves out of the module's packages: directories named testdata
// or vendor, or whose names begin with a dot or an underscore, and nested
// modules; so a vendor directory, a checkout inside this one or the
// generators' module (_asm) adds nothing.
func moduleFiles(t *testing.T, suffix string) []string {
	t.Helper()
	const root = "../.."
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root {
			name := d.Name()
			if name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), suffix) {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// slicedSbox returns byte x of S-box j as expandSliced stores it.
func (ks *Schedule) slicedSbox(j int, x byte) byte {
	i := 256*j + int(x)
	return byte(ks.sliced()[i/4] >> (8 * (i % 4)))
}
