package twofish

//lint:file-ignore SA1019 golang.org/x/crypto/twofish (the package this module replaces) and crypto/cipher's CFB and OFB (modes Twofish is used in) are the references compared with.

import (
	"crypto/cipher"
	"fmt"
	"slices"
	"testing"

	xtwofish "golang.org/x/crypto/twofish"
	"golang.org/x/crypto/xts"

	"github.com/twofish-go/twofish/internal/turns"
)

// benchMode is one mode and direction, built over an implementation (or
// over x/crypto/twofish through crypto/cipher and x/crypto/xts for
// impl=xcrypto, and over NewCipher and NewXTS for impl=auto) as a function
// that processes a whole buffer in place.
type benchMode struct {
	mode, dir string
	build     func(impl string, key []byte) func(buf []byte)
}

var benchModes = func() []benchMode {
	iv := make([]byte, BlockSize)
	block := func(impl string, key []byte) cipher.Block {
		switch impl {
		case "xcrypto": // no methods but cipher.Block's: crypto/cipher's generic modes
			c, _ := xtwofish.NewCipher(key)
			return c
		case "auto":
			c, _ := NewCipher(key)
			return c
		}
		c, err := NewCipherImpl(key, impl)
		if err != nil {
			panic(err)
		}
		return c
	}
	bm := func(f func(b cipher.Block) cipher.BlockMode) func(string, []byte) func([]byte) {
		return func(impl string, key []byte) func([]byte) {
			m := f(block(impl, key))
			return func(buf []byte) { m.CryptBlocks(buf, buf) }
		}
	}
	st := func(f func(b cipher.Block) cipher.Stream) func(string, []byte) func([]byte) {
		return func(impl string, key []byte) func([]byte) {
			s := f(block(impl, key))
			return func(buf []byte) { s.XORKeyStream(buf, buf) }
		}
	}
	xtsMode := func(decrypt bool) func(string, []byte) func([]byte) {
		return func(impl string, key []byte) func([]byte) {
			key = append(key, key...)
			var f func(dst, src []byte, sector uint64)
			if impl == "xcrypto" {
				x, _ := xts.NewCipher(func(k []byte) (cipher.Block, error) { return xtwofish.NewCipher(k) }, key)
				f = x.Encrypt
				if decrypt {
					f = x.Decrypt
				}
			} else {
				x, err := NewXTSImpl(key, impl)
				if impl == "auto" {
					x, err = NewXTS(key)
				}
				if err != nil {
					panic(err)
				}
				f = x.Encrypt
				if decrypt {
					f = x.Decrypt
				}
			}
			return func(buf []byte) { f(buf, buf, 1) }
		}
	}
	// ECB for x/crypto is crypto/cipher-style: a loop over Encrypt.
	ecb := func(decrypt bool) func(string, []byte) func([]byte) {
		return bm(func(b cipher.Block) cipher.BlockMode {
			if w, ok := b.(wrap); ok {
				return ecbRef{w, decrypt}
			}
			if decrypt {
				return NewECBDecrypter(b)
			}
			return NewECBEncrypter(b)
		})
	}
	return []benchMode{
		{"ECB", "enc", ecb(false)},
		{"ECB", "dec", ecb(true)},
		{"CBC", "enc", bm(func(b cipher.Block) cipher.BlockMode { return cipher.NewCBCEncrypter(b, iv) })},
		{"CBC", "dec", bm(func(b cipher.Block) cipher.BlockMode { return cipher.NewCBCDecrypter(b, iv) })},
		{"CFB", "enc", st(func(b cipher.Block) cipher.Stream { return cfbEncrypter(b, iv) })},
		{"CFB", "dec", st(func(b cipher.Block) cipher.Stream { return cfbDecrypter(b, iv) })},
		{"OFB", "enc", st(func(b cipher.Block) cipher.Stream { return ofbStream(b, iv) })},
		{"CTR", "enc", st(func(b cipher.Block) cipher.Stream { return cipher.NewCTR(b, iv) })},
		{"XTS", "enc", xtsMode(false)},
		{"XTS", "dec", xtsMode(true)},
	}
}()

// cfbEncrypter, cfbDecrypter and ofbStream use this package's modes for a
// *Cipher and crypto/cipher's for x/crypto (CBC and CTR find this
// package's modes through crypto/cipher's hooks).
func cfbEncrypter(b cipher.Block, iv []byte) cipher.Stream {
	if _, ok := b.(wrap); ok {
		return cipher.NewCFBEncrypter(b, iv)
	}
	return NewCFBEncrypter(b, iv)
}

func cfbDecrypter(b cipher.Block, iv []byte) cipher.Stream {
	if _, ok := b.(wrap); ok {
		return cipher.NewCFBDecrypter(b, iv)
	}
	return NewCFBDecrypter(b, iv)
}

func ofbStream(b cipher.Block, iv []byte) cipher.Stream {
	if _, ok := b.(wrap); ok {
		return cipher.NewOFB(b, iv)
	}
	return NewOFB(b, iv)
}

// BenchmarkModes measures every mode and direction for every implementation
// and x/crypto (impl=xcrypto), e.g.
//
//	go test -run '^$' -bench 'Modes/mode=CTR/dir=enc/impl=/key=256/size=8192' -count 5 .
func BenchmarkModes(b *testing.B) {
	for _, m := range benchModes {
		for _, impl := range benchImpls() {
			for _, bits := range []int{128, 256} {
				f := m.build(impl, make([]byte, bits/8))
				for _, size := range []int{16, 64, 1024, 8192, 65536} {
					b.Run(fmt.Sprintf("mode=%s/dir=%s/impl=%s/key=%d/size=%d", m.mode, m.dir, impl, bits, size), func(b *testing.B) {
						buf := make([]byte, size)
						b.SetBytes(int64(size))
						b.ReportAllocs()
						for b.Loop() {
							f(buf)
						}
					})
				}
			}
		}
	}
}

// BenchmarkModeVsECB runs each mode and raw ECB encryption with the same
// implementation (or both with NewCipher's plan, impl=auto) taking turns
// (turns.Take) over a buffer of 512 bytes (a disk sector) or 8 KiB and
// reports the mode's speed as a fraction of ECB's (metric xECB: 1 is as
// fast as ECB), from the total times and, as xECBmin, from the fastest
// call of each, which a shared, noisy machine disturbs least.
func BenchmarkModeVsECB(b *testing.B) {
	for _, m := range benchModes {
		for _, impl := range append([]string{"auto"}, benchImpls()...) {
			if impl == "xcrypto" {
				continue
			}
			for _, size := range []int{512, 8192} {
				b.Run(fmt.Sprintf("mode=%s/dir=%s/impl=%s/key=256/size=%d", m.mode, m.dir, impl, size), func(b *testing.B) {
					benchmarkModeVsECB(b, m.build(impl, make([]byte, 32)), benchModes[0].build(impl, make([]byte, 32)), size)
				})
			}
		}
	}
}

// benchmarkModeVsECB is BenchmarkModeVsECB for the mode f and ECB
// encryption ecb over size bytes.
func benchmarkModeVsECB(b *testing.B, f, ecb func([]byte), size int) {
	buf := make([]byte, size)
	t := turns.Take(b, func() { f(buf) }, func() { ecb(buf) })
	b.ReportMetric(turns.Ratio(turns.Sum, t.G, t.F), "xECB")
	b.ReportMetric(turns.Ratio(slices.Min, t.G, t.F), "xECBmin")
}

// BenchmarkXTSSectors encrypts 64 KiB of consecutive sectors of 512 to
// 4096 bytes with NewXTS's XTS, sector by sector through Encrypt (way=one)
// and all at once through EncryptSectors (way=sectors), and with
// x/crypto/xts over x/crypto/twofish sector by sector (impl=xcrypto):
//
//	go test -run '^$' -bench XTSSectors -count 7 .
func BenchmarkXTSSectors(b *testing.B) {
	key := make([]byte, 64)
	key[0] = 1
	x, _ := NewXTS(key)
	xc, _ := xts.NewCipher(func(k []byte) (cipher.Block, error) { return xtwofish.NewCipher(k) }, key)
	buf := make([]byte, 64<<10)
	for _, size := range []int{512, 1024, 2048, 4096} {
		oneByOne := func(f func(dst, src []byte, sector uint64)) func() {
			return func() {
				for i := 0; i < len(buf); i += size {
					f(buf[i:i+size], buf[i:i+size], uint64(i/size))
				}
			}
		}
		for _, w := range []struct {
			name string
			run  func()
		}{
			{"impl=auto/way=sectors", func() { x.EncryptSectors(buf, buf, size, 0) }},
			{"impl=auto/way=one", oneByOne(x.Encrypt)},
			{"impl=xcrypto/way=one", oneByOne(xc.Encrypt)},
		} {
			b.Run(fmt.Sprintf("sector=%d/%s", size, w.name), func(b *testing.B) {
				b.SetBytes(int64(len(buf)))
				for b.Loop() {
					w.run()
				}
			})
		}
	}
}
