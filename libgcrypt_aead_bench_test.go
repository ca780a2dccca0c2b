//go:build cgo && libgcrypt

package twofish

// Speed of GCM, OCB and EAX against the system libgcrypt's, in the same
// process (libgcrypt 1.10 on amd64 has 3-way and AVX2 16-way Twofish and
// bulk OCB, GCM with PCLMULQDQ):
//
//	go test -tags libgcrypt -run '^$' -bench LibgcryptAEADVs -count 5 .
//	go test -tags libgcrypt -run '^$' -bench LibgcryptAEAD -count 5 . | benchstat -col /impl -

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/twofish-go/twofish/internal/libgcrypt"
	"github.com/twofish-go/twofish/internal/turns"
)

// aeadRun returns a function that seals or opens size bytes (no
// associated data, 16-byte tags, the mode's usual nonce size) with
// libgcrypt (impl "libgcrypt") or with impl of this package: it seals under
// a counter nonce (nextNonce), and opens one message again and again.
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
		tag := make([]byte, 16)
		return func() {
			var err error
			if dir == "seal" {
				nextNonce(nonce)
				err = errors.Join(g.SetIV(nonce), g.Final(), g.Encrypt(buf, pt), g.GetTag(tag))
			} else {
				err = errors.Join(g.SetIV(nonce), g.Final(), g.Decrypt(buf, sealed[:size]), g.CheckTag(sealed[size:]))
			}
			if err != nil {
				panic(err)
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
			nextNonce(nonce)
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
					reportVsLibgcrypt(b, aeadRun(b, m, dir, "libgcrypt", key, 8192), aeadRun(b, m, dir, impl, key, 8192))
				})
			}
		}
	}
}

// BenchmarkLibgcryptShortVs runs short messages, 16 bytes to 1 KiB, with
// NewCipher's cipher (the default, whose short runs go to the table
// kernels) and with libgcrypt alternately in every iteration, 256-bit
// keys: the raw modes in place (XTS as one sector) and the AEADs sealing
// without associated data, a new mode or IV per message as an
// application would. It reports the ratio of the median times as
// "xlibgcrypt" (above 1: this package is faster):
//
//	go test -tags libgcrypt -run '^$' -bench LibgcryptShortVs .
func BenchmarkLibgcryptShortVs(b *testing.B) {
	key, xtsKey := make([]byte, 32), make([]byte, 64)
	iv := make([]byte, BlockSize)
	c, err := NewCipher(key)
	if err != nil {
		b.Fatal(err)
	}
	x, err := NewXTS(xtsKey)
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []int{16, 64, 256, 1024} {
		buf := make([]byte, size)
		raw := []struct {
			name    string
			mode    libgcrypt.Mode
			decrypt bool
			ours    func()
		}{
			{"ECB", libgcrypt.ECB, false, func() { NewECBEncrypter(c).CryptBlocks(buf, buf) }},
			{"CBC-enc", libgcrypt.CBC, false, func() { NewCBCEncrypter(c, iv).CryptBlocks(buf, buf) }},
			{"CBC-dec", libgcrypt.CBC, true, func() { NewCBCDecrypter(c, iv).CryptBlocks(buf, buf) }},
			{"CFB-enc", libgcrypt.CFB, false, func() { NewCFBEncrypter(c, iv).XORKeyStream(buf, buf) }},
			{"OFB", libgcrypt.OFB, false, func() { NewOFB(c, iv).XORKeyStream(buf, buf) }},
			{"CTR", libgcrypt.CTR, false, func() { NewCTR(c, iv).XORKeyStream(buf, buf) }},
			{"XTS", libgcrypt.XTS, false, func() { x.Encrypt(buf, buf, 7) }},
		}
		for _, m := range raw {
			b.Run(fmt.Sprintf("mode=%s/size=%d", m.name, size), func(b *testing.B) {
				k := key
				if m.mode == libgcrypt.XTS {
					k = xtsKey
				}
				g, err := libgcrypt.New(m.mode, k)
				if err != nil {
					b.Fatal(err)
				}
				defer g.Close()
				lib := func() {
					var err error
					if m.mode != libgcrypt.ECB {
						err = g.SetIV(iv)
					}
					if err == nil && m.decrypt {
						err = g.Decrypt(buf, buf)
					} else if err == nil {
						err = g.Encrypt(buf, buf)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				reportVsLibgcrypt(b, lib, m.ours)
			})
		}
		for _, m := range libgcryptAEADs {
			b.Run(fmt.Sprintf("mode=%s/size=%d", m.name, size), func(b *testing.B) {
				a, err := m.ours(c, m.nonces[0], 16)
				if err != nil {
					b.Fatal(err)
				}
				nonce, pt := make([]byte, m.nonces[0]), make([]byte, size)
				out := make([]byte, 0, size+16)
				reportVsLibgcrypt(b, aeadRun(b, m, "seal", "libgcrypt", key, size), func() { nextNonce(nonce); a.Seal(out, nonce, pt, nil) })
			})
		}
	}
}

// reportVsLibgcrypt runs lib and ours taking turns (turns.Take) in every
// iteration of b and reports the ratio of their median times as
// "xlibgcrypt".
func reportVsLibgcrypt(b *testing.B, lib, ours func()) {
	t := turns.Take(b, lib, ours)
	b.ReportMetric(turns.Ratio(turns.Median, t.F, t.G), "xlibgcrypt")
}
