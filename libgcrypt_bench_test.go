//go:build libgcrypt && cgo

package twofish

// Comparison with the system libgcrypt (libgcrypt20-dev), whose amd64
// Twofish has its own 3-way code for CBC decryption, in the same process:
//
//	go test -tags libgcrypt -run Libgcrypt -v .
//	go test -tags libgcrypt -run '^$' -bench Libgcrypt -count 10 . | benchstat -col /impl -

import (
	"fmt"
	"slices"
	"testing"

	"github.com/twofish-go/twofish/internal/libgcrypt"
)

// libgcryptRival is the implementation compared with libgcrypt: the 3-way
// kernel where this build has it, else the automatic choice.
func libgcryptRival() string {
	for _, impl := range Implementations() {
		if impl.Name == "amd64-3way" && impl.Supported {
			return impl.Name
		}
	}
	name, _ := AutoImplementation()
	return name
}

// cbcDecryptBench returns a benchmark that decrypts size bytes in place in
// CBC mode with libgcrypt (impl "libgcrypt") or with impl of this package.
func cbcDecryptBench(tb testing.TB, impl string, key []byte, size int) func(b *testing.B) {
	iv := make([]byte, BlockSize)
	buf := make([]byte, size)
	if impl == "libgcrypt" {
		g, err := libgcrypt.New(libgcrypt.CBC, key)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(g.Close)
		if err := g.SetIV(iv); err != nil {
			tb.Fatal(err)
		}
		return func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				if err := g.Decrypt(buf, buf); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	m := NewCBCDecrypter(mustCipher(tb, key, impl), iv)
	return func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			m.CryptBlocks(buf, buf)
		}
	}
}

func BenchmarkLibgcryptCBCDecrypt(b *testing.B) {
	for _, impl := range []string{"libgcrypt", libgcryptRival()} {
		for _, bits := range []int{128, 256} {
			for _, size := range []int{1024, 8192} {
				name := fmt.Sprintf("impl=%s/key=%d/size=%d", impl, bits, size)
				b.Run(name, cbcDecryptBench(b, impl, make([]byte, bits/8), size))
			}
		}
	}
}

// TestLibgcryptCBCDecryptSpeed times CBC decryption of 8 KiB in place with
// a 256-bit key, libgcrypt and ours alternately, and logs the median ratio
// of their throughputs. (libgcrypt_test.go checks that the outputs agree.)
func TestLibgcryptCBCDecryptSpeed(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no timing")
	}
	t.Logf("libgcrypt %s", libgcrypt.Version())
	const rounds = 7
	key := randBytes(testRand(t), 32)
	rival := libgcryptRival()
	lib := cbcDecryptBench(t, "libgcrypt", key, 8192)
	ours := cbcDecryptBench(t, rival, key, 8192)
	var ratios []float64
	for range rounds {
		l := testing.Benchmark(lib)
		o := testing.Benchmark(ours)
		ratios = append(ratios, float64(l.NsPerOp())/float64(o.NsPerOp()))
		t.Logf("libgcrypt %v; %s %v", l, rival, o)
	}
	slices.Sort(ratios)
	t.Logf("CBC decryption, 256-bit key, 8 KiB in place: %s / libgcrypt throughput, median of %d = %.3f (sorted: %.3f)",
		rival, rounds, ratios[rounds/2], ratios)
}
