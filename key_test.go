package twofish

//lint:file-ignore SA1019 golang.org/x/crypto/twofish is the deprecated package this module replaces: key setup is compared with it.

import (
	"bytes"
	"fmt"
	"testing"

	xtwofish "golang.org/x/crypto/twofish"
)

// TestConstructorsXCrypto checks the Ciphers of NewCipher and
// NewCipherConstantTime against x/crypto on random keys of each size, for
// single blocks and for a run long enough for every kernel of the plan
// (so also a bulk kernel whose schedule NewCipher fills from its table
// pass).
func TestConstructorsXCrypto(t *testing.T) {
	r := testRand(t)
	n := 200
	if testing.Short() {
		n = 20
	}
	for _, size := range keySizes {
		for _, c := range []struct {
			name string
			new  func([]byte) (*Cipher, error)
		}{{"NewCipher", NewCipher}, {"NewCipherConstantTime", NewCipherConstantTime}} {
			t.Run(fmt.Sprintf("key=%d/%s", 8*size, c.name), func(t *testing.T) {
				for range n {
					key := randBytes(r, size)
					ci, err := c.new(key)
					if err != nil {
						t.Fatal(err)
					}
					x, err := xtwofish.NewCipher(key)
					if err != nil {
						t.Fatal(err)
					}
					src := randBytes(r, 65*BlockSize)
					want, got := make([]byte, len(src)), make([]byte, len(src))
					for i := 0; i < len(src); i += BlockSize {
						x.Encrypt(want[i:], src[i:])
					}
					NewECBEncrypter(ci).CryptBlocks(got, src)
					if !bytes.Equal(got, want) {
						t.Fatalf("key %x: ECB encryption differs from x/crypto", key)
					}
					ci.Encrypt(got, src)
					if !bytes.Equal(got[:BlockSize], want[:BlockSize]) {
						t.Fatalf("key %x: Encrypt differs from x/crypto", key)
					}
				}
			})
		}
	}
}
