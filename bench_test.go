package twofish

//lint:file-ignore SA1019 golang.org/x/crypto/twofish is the deprecated package this module replaces: the tests compare with it.

import (
	"crypto/cipher"
	"fmt"
	"testing"

	xtwofish "golang.org/x/crypto/twofish"
)

// Benchmarks name their parameters key=value for benchstat, and run
// x/crypto/twofish as impl=xcrypto beside our implementations so that
// ratios come from one run, e.g.
//
//	go test -run '^$' -bench 'Encrypt/.*/key=256/size=8192' -count 10 | benchstat -col /impl -

var benchSizes = []int{16, 64, 1024, 8192}

// benchImpls returns the supported implementations' names and "xcrypto".
func benchImpls() []string {
	var names []string
	for _, impl := range Implementations() {
		if impl.Supported {
			names = append(names, impl.Name)
		}
	}
	return append(names, "xcrypto")
}

func benchBlock(b *testing.B, impl string, key []byte) cipher.Block {
	if impl == "xcrypto" {
		c, err := xtwofish.NewCipher(key)
		if err != nil {
			b.Fatal(err)
		}
		return c
	}
	return mustCipher(b, key, impl)
}

// BenchmarkEncrypt and BenchmarkDecrypt drive a block one block at a time
// through Encrypt and Decrypt over the buffer, as crypto/cipher's generic
// modes drive a block: one call through the cipher.Block interface per
// block.
func BenchmarkEncrypt(b *testing.B) { benchmarkBlock(b, false) }

func BenchmarkDecrypt(b *testing.B) { benchmarkBlock(b, true) }

func benchmarkBlock(b *testing.B, decrypt bool) {
	for _, impl := range benchImpls() {
		for _, bits := range []int{128, 256} {
			blk := benchBlock(b, impl, make([]byte, bits/8))
			for _, size := range benchSizes {
				b.Run(fmt.Sprintf("impl=%s/key=%d/size=%d", impl, bits, size), func(b *testing.B) {
					buf := make([]byte, size)
					b.SetBytes(int64(size))
					b.ReportAllocs()
					if decrypt {
						for b.Loop() {
							for i := 0; i < size; i += BlockSize {
								blk.Decrypt(buf[i:i+BlockSize], buf[i:i+BlockSize])
							}
						}
						return
					}
					for b.Loop() {
						for i := 0; i < size; i += BlockSize {
							blk.Encrypt(buf[i:i+BlockSize], buf[i:i+BlockSize])
						}
					}
				})
			}
		}
	}
}

// BenchmarkECB measures the bulk path: each implementation's ladder through
// NewECBEncrypter / NewECBDecrypter (x/crypto as a per-block loop).
func BenchmarkECB(b *testing.B) {
	for _, dir := range []string{"enc", "dec"} {
		for _, impl := range benchImpls() {
			for _, bits := range []int{128, 256} {
				blk := benchBlock(b, impl, make([]byte, bits/8))
				var m cipher.BlockMode = ecbRef{blk, dir == "dec"}
				if c, ok := blk.(*Cipher); ok {
					m = NewECBEncrypter(c)
					if dir == "dec" {
						m = NewECBDecrypter(c)
					}
				}
				for _, size := range benchSizes {
					b.Run(fmt.Sprintf("dir=%s/impl=%s/key=%d/size=%d", dir, impl, bits, size), func(b *testing.B) {
						buf := make([]byte, size)
						b.SetBytes(int64(size))
						b.ReportAllocs()
						for b.Loop() {
							m.CryptBlocks(buf, buf)
						}
					})
				}
			}
		}
	}
}

func BenchmarkNewCipher(b *testing.B) {
	for _, bits := range []int{128, 192, 256} {
		key := make([]byte, bits/8)
		b.Run(fmt.Sprintf("impl=auto/key=%d", bits), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				NewCipher(key)
			}
		})
		b.Run(fmt.Sprintf("impl=xcrypto/key=%d", bits), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				xtwofish.NewCipher(key)
			}
		})
	}
}
