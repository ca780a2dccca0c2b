//go:build cgo && libgcrypt

package twofish

// Speed of GCM, OCB and EAX against the system libgcrypt's, in the same
// process (libgcrypt 1.10 on amd64 has 3-way and AVX2 16-way Twofish and
// bulk OCB, GCM with PCLMULQDQ):
//
//	go test -tags libgcrypt -run LibgcryptAEADSpeed -v .
//	go test -tags libgcrypt -run '^$' -bench LibgcryptAEAD -count 5 . | benchstat -col /impl -

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/twofish-go/twofish/internal/libgcrypt"
)

// aeadRun returns a function that seals or opens size bytes (no
// associated data, 16-byte tags, the mode's usual nonce) with libgcrypt
// (impl "libgcrypt") or with impl of this package.
func aeadRun(tb testing.TB, m libgcryptAEAD, dir, impl string, key []byte, size int) func() {
	ns := m.nonces[0]
	nonce := make([]byte, ns)
	pt := make([]byte, size)
	buf := make([]byte, size)
	if impl == "libgcrypt" {
		g, err := libgcrypt.New(m.mode, key)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(g.Close)
		sealed := libgcryptSeal(tb, m, key, nonce, pt, nil, 16)
		tag := sealed[size:]
		return func() {
			g.SetIV(nonce)
			g.Final()
			if dir == "seal" {
				g.Encrypt(buf, pt)
				g.GetTag(16)
				return
			}
			g.Decrypt(buf, sealed[:size])
			if g.CheckTag(tag) != nil {
				panic("libgcrypt: tag")
			}
		}
	}
	a, err := m.ours(mustCipher(tb, key, impl), ns, 16)
	if err != nil {
		tb.Fatal(err)
	}
	sealed := a.Seal(nil, nonce, pt, nil)
	out := make([]byte, 0, size+16)
	return func() {
		if dir == "seal" {
			a.Seal(out, nonce, pt, nil)
			return
		}
		if _, err := a.Open(out, nonce, sealed, nil); err != nil {
			panic(err)
		}
	}
}

func BenchmarkLibgcryptAEAD(b *testing.B) {
	impls := append([]string{"libgcrypt"}, aeadBenchImpls()...)
	for _, m := range libgcryptAEADs {
		for _, dir := range []string{"seal", "open"} {
			for _, impl := range impls {
				for _, size := range []int{1024, 8192} {
					name := fmt.Sprintf("mode=%s/dir=%s/impl=%s/key=256/size=%d", m.name, dir, impl, size)
					run := aeadRun(b, m, dir, impl, make([]byte, 32), size)
					b.Run(name, func(b *testing.B) {
						b.SetBytes(int64(size))
						for b.Loop() {
							run()
						}
					})
				}
			}
		}
	}
}

// TestLibgcryptAEADSpeed times each mode at 8 KiB with a 256-bit key,
// libgcrypt and each implementation of this package but the slow
// generic-ct alternately (amd64-3way is the closest to the 3-way code
// libgcrypt runs on CPUs without a fast VPGATHERDD), and
// logs the ratio of the median times (above 1: this package is faster).
// Medians of alternating calls shrug off the other processes of a shared
// machine. (libgcrypt_aead_test.go checks that the outputs agree.)
func TestLibgcryptAEADSpeed(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no timing")
	}
	t.Logf("libgcrypt %s", libgcrypt.Version())
	const calls = 400
	key := randBytes(testRand(t), 32)
	impls := slices.DeleteFunc(aeadBenchImpls(), func(s string) bool { return s == "generic-ct" })
	t.Logf("NewCipher picks %s", autoName())
	for _, m := range libgcryptAEADs {
		for _, dir := range []string{"seal", "open"} {
			lib := aeadRun(t, m, dir, "libgcrypt", key, 8192)
			for _, impl := range impls {
				ours := aeadRun(t, m, dir, impl, key, 8192)
				var tl, to []time.Duration
				for range calls {
					t0 := time.Now()
					lib()
					t1 := time.Now()
					ours()
					tl = append(tl, t1.Sub(t0))
					to = append(to, time.Since(t1))
				}
				ml, mo := median(tl), median(to)
				t.Logf("%s %s, 8 KiB: %s %.3f ns/B, libgcrypt %.3f ns/B: %s/libgcrypt throughput %.2f",
					m.name, dir, impl, float64(mo)/8192, float64(ml)/8192, impl, float64(ml)/float64(mo))
			}
		}
	}
}
