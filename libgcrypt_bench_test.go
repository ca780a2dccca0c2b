//go:build libgcrypt && cgo

package twofish

// Comparison with the system libgcrypt (libgcrypt20-dev), whose amd64
// Twofish has its own 3-way code for CBC decryption, in the same process:
//
//	go test -tags libgcrypt -run '^$' -bench LibgcryptCBCDecryptVs -count 5 .
//	go test -tags libgcrypt -run '^$' -bench Libgcrypt -count 10 . | benchstat -col /impl -

import (
	"fmt"
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

// BenchmarkLibgcryptCBCDecryptVs decrypts 8 KiB in place in CBC mode with a
// 256-bit key, libgcrypt and this package's rival alternately in every
// iteration, and reports the ratio of the median times as "xlibgcrypt"
// (above 1: this package is faster); medians of alternating calls shrug off
// the other processes of a shared machine. (libgcrypt_test.go checks that
// the outputs agree.)
func BenchmarkLibgcryptCBCDecryptVs(b *testing.B) {
	key := make([]byte, 32)
	rival := libgcryptRival()
	b.Run("impl="+rival+"/key=256/size=8192", func(b *testing.B) {
		iv, buf := make([]byte, BlockSize), make([]byte, 8192)
		g, err := libgcrypt.New(libgcrypt.CBC, key)
		if err != nil {
			b.Fatal(err)
		}
		defer g.Close()
		if err := g.SetIV(iv); err != nil {
			b.Fatal(err)
		}
		m := NewCBCDecrypter(mustCipher(b, key, rival), iv)
		reportVsLibgcrypt(b, func() {
			if err := g.Decrypt(buf, buf); err != nil {
				b.Fatal(err)
			}
		}, func() { m.CryptBlocks(buf, buf) })
	})
}
