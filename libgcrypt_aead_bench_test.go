//go:build cgo && libgcrypt

package twofish

// Speed of GCM, OCB and EAX against the system libgcrypt's, in the same
// process (libgcrypt 1.10 on amd64 has 3-way and AVX2 16-way Twofish and
// bulk OCB, GCM with PCLMULQDQ):
//
//	go test -tags libgcrypt -run '^$' -bench LibgcryptAEADVs -count 5 .
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

// BenchmarkLibgcryptAEADVs seals or opens 8 KiB with a 256-bit key in each
// mode, libgcrypt and an implementation of this package alternately in
// every iteration (each one but the slow generic-ct; amd64-3way is the
// closest to the 3-way code libgcrypt runs on CPUs without a fast
// VPGATHERDD), and reports the ratio of the median times as "xlibgcrypt"
// (above 1: this package is faster). (libgcrypt_aead_test.go checks that
// the outputs agree.)
func BenchmarkLibgcryptAEADVs(b *testing.B) {
	key := make([]byte, 32)
	impls := slices.DeleteFunc(aeadBenchImpls(), func(s string) bool { return s == "generic-ct" })
	for _, m := range libgcryptAEADs {
		for _, dir := range []string{"seal", "open"} {
			for _, impl := range impls {
				b.Run(fmt.Sprintf("mode=%s/dir=%s/impl=%s/key=256/size=8192", m.name, dir, impl), func(b *testing.B) {
					lib := aeadRun(b, m, dir, "libgcrypt", key, 8192)
					ours := aeadRun(b, m, dir, impl, key, 8192)
					var tl, to []time.Duration
					for b.Loop() {
						t0 := time.Now()
						lib()
						t1 := time.Now()
						ours()
						tl, to = append(tl, t1.Sub(t0)), append(to, time.Since(t1))
					}
					b.ReportMetric(float64(median(tl))/float64(median(to)), "xlibgcrypt")
				})
			}
		}
	}
}
