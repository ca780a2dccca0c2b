//go:build linux || darwin

package twofish

import (
	"crypto/cipher"
	"fmt"
	"os"
	"testing"
	"unsafe"

	"github.com/twofish-go/twofish/internal/guardpage"
)

// BenchmarkPageEnd times modes over runs that end flush against a page
// that is not mapped in (a guard page here; fresh memory from the heap or
// mmap, never written, is alike), beside the same runs with a mapped page
// after them: a masked load or store whose masked-off bytes reach into
// such a page costs a slow assist each time on Zen 5, so the AVX-512
// kernels' loads and stores never reach past a run's last page (the
// generator's stretch.go). 1024 bytes end on a whole register; 80, 1200
// and 2000 bytes (5, 75 and 125 blocks) on a partial one.
//
//	go test -run '^$' -bench PageEnd -count 5 .
func BenchmarkPageEnd(b *testing.B) {
	c, err := NewCipher(make([]byte, 32))
	if err != nil {
		b.Fatal(err)
	}
	x, err := NewXTS(make([]byte, 64))
	if err != nil {
		b.Fatal(err)
	}
	iv := make([]byte, BlockSize)
	modes := []struct {
		name string
		run  func(buf []byte)
	}{
		{"ECB", func(buf []byte) { NewECBEncrypter(c).CryptBlocks(buf, buf) }},
		{"CBC-dec", func(buf []byte) { NewCBCDecrypter(c, iv).CryptBlocks(buf, buf) }},
		{"CTR", func(buf []byte) { cipher.NewCTR(c, iv).XORKeyStream(buf, buf) }},
		{"XTS", func(buf []byte) { x.Encrypt(buf, buf, 1) }},
	}
	for _, m := range modes {
		for _, size := range []int{80, 1024, 1200, 2000} {
			for _, next := range []string{"unmapped", "mapped"} {
				b.Run(fmt.Sprintf("mode=%s/size=%d/next=%s", m.name, size, next), func(b *testing.B) {
					var buf []byte
					if next == "unmapped" {
						buf = guardpage.New(b, size).AtEnd(size)
					} else {
						// Ending on a page boundary as well, so that
						// the two runs' loads and stores split cache
						// lines alike, and only the next page differs.
						page := os.Getpagesize()
						mem := make([]byte, size+2*page)
						for i := range mem {
							mem[i] = 1 // every page written, so mapped in
						}
						end := size + (page-int((uintptr(unsafe.Pointer(&mem[0]))+uintptr(size))%uintptr(page)))%page
						buf = mem[end-size : end]
					}
					b.SetBytes(int64(size))
					for b.Loop() {
						m.run(buf)
					}
				})
			}
		}
	}
}
