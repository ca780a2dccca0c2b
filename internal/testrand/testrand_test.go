package testrand

import (
	"bytes"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"
)

// recorder is a testing.TB that records what New does with it: its
// cleanups, to run when the test chooses, and its logs and fatal errors.
type recorder struct {
	testing.TB
	failed   bool
	cleanups []func()
	logs     []string
	fatal    string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Failed() bool              { return r.failed }
func (r *recorder) Cleanup(f func())          { r.cleanups = append(r.cleanups, f) }
func (r *recorder) Logf(f string, a ...any)   { r.logs = append(r.logs, fmt.Sprintf(f, a...)) }
func (r *recorder) Fatalf(f string, a ...any) { r.fatal = fmt.Sprintf(f, a...) }

// end runs the recorded cleanups, as the end of a test that failed or not.
func (r *recorder) end(failed bool) {
	r.failed = failed
	for _, f := range r.cleanups {
		f()
	}
}

func first(r *rand.Rand) [4]uint64 { return [4]uint64{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()} }

// TestSeedReplays checks the promise of the package: a test that fails
// logs its seed, only then, and TWOFISH_TEST_SEED set to what it logged
// gives the generator it had.
func TestSeedReplays(t *testing.T) {
	t.Setenv("TWOFISH_TEST_SEED", "")
	passed := &recorder{}
	New(passed)
	if passed.end(false); len(passed.logs) != 0 {
		t.Errorf("a test that passed logged %q", passed.logs)
	}
	failed := &recorder{}
	want := first(New(failed))
	failed.end(true)
	if len(failed.logs) != 1 {
		t.Fatalf("a test that failed logged %q, want its seed", failed.logs)
	}
	_, seed, ok := strings.Cut(failed.logs[0], "TWOFISH_TEST_SEED=")
	if !ok {
		t.Fatalf("a test that failed logged %q, want TWOFISH_TEST_SEED=seed", failed.logs[0])
	}
	t.Setenv("TWOFISH_TEST_SEED", seed)
	replay := &recorder{}
	if got := first(New(replay)); got != want || replay.fatal != "" {
		t.Errorf("TWOFISH_TEST_SEED=%s gave %x (%s), the failed test had %x", seed, got, replay.fatal, want)
	}
	if again := first(New(t)); again != want {
		t.Errorf("TWOFISH_TEST_SEED=%s gave %x a second time, want %x", seed, again, want)
	}
}

// TestSeedNotANumber checks that a TWOFISH_TEST_SEED that is not a
// number fails the test rather than being ignored.
func TestSeedNotANumber(t *testing.T) {
	t.Setenv("TWOFISH_TEST_SEED", "twelve")
	r := &recorder{}
	New(r)
	if !strings.Contains(r.fatal, "TWOFISH_TEST_SEED") {
		t.Errorf("TWOFISH_TEST_SEED=twelve: fatal error %q, want one naming the variable", r.fatal)
	}
}

// TestKeys checks the structured keys that Keys returns first, in order:
// all zeros, all ones, 0x55s and 0xaas, the ramp 0, 1, 2, ..., then each
// key of one bit set, bit 0 first; and that random keys make up the rest
// of n, and none are added where the structured ones are n or more.
func TestKeys(t *testing.T) {
	r := New(t)
	for _, size := range []int{16, 24, 32} {
		structured := 5 + 8*size
		for _, n := range []int{0, structured, structured + 3} {
			keys := Keys(r, size, n)
			if want := max(n, structured); len(keys) != want {
				t.Fatalf("Keys(%d, %d): %d keys, want %d", size, n, len(keys), want)
			}
			for i, k := range keys {
				if len(k) != size {
					t.Fatalf("Keys(%d, %d): key %d is %d bytes", size, n, i, len(k))
				}
			}
			for i, b := range []byte{0x00, 0xff, 0x55, 0xaa} {
				if !bytes.Equal(keys[i], bytes.Repeat([]byte{b}, size)) {
					t.Errorf("Keys(%d, %d): key %d = %x, want all %#02x", size, n, i, keys[i], b)
				}
			}
			for i, b := range keys[4] {
				if b != byte(i) {
					t.Fatalf("Keys(%d, %d): key 4 = %x, want the ramp 00 01 02 ...", size, n, keys[4])
				}
			}
			for bit := range 8 * size {
				k := keys[5+bit]
				ones := 0
				for _, b := range k {
					ones += bits.OnesCount8(b)
				}
				if ones != 1 || k[bit/8] != 1<<(bit%8) {
					t.Fatalf("Keys(%d, %d): key %d = %x, want bit %d alone", size, n, 5+bit, k, bit)
				}
			}
		}
	}
}
