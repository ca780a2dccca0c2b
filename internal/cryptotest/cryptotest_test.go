package cryptotest_test

//lint:file-ignore SA1019 crypto/cipher's CFB and OFB are deprecated, and this module implements them: the checks must hold of the standard library's own.

import (
	"crypto/aes"
	"crypto/cipher"
	"testing"

	"github.com/twofish-go/twofish/internal/cryptotest"
)

// The checks hold of the standard library's AES and of crypto/cipher's
// modes and GCM over it, whose contracts they state: a check that failed
// here would be a wrong check, not a bug of this module.

func newAES(key []byte) (cipher.Block, error) { return aes.NewCipher(key) }

func aesKeySizeError(n int) error { return aes.KeySizeError(n) }

// generic hides the methods of crypto/aes's Block through which
// crypto/cipher's modes reach AES's own code, whose panics say other
// words, so that the modes run crypto/cipher's generic code.
type generic struct{ cipher.Block }

func mustAES(t *testing.T) cipher.Block {
	t.Helper()
	b, err := aes.NewCipher(make([]byte, 16))
	if err != nil {
		t.Fatal(err)
	}
	return generic{b}
}

func TestContractStdBlock(t *testing.T) {
	for _, ks := range []int{16, 24, 32} {
		cryptotest.TestBlock(t, ks, newAES, aesKeySizeError)
	}
}

func TestContractStdBlockMode(t *testing.T) {
	cryptotest.TestBlockMode(t, mustAES(t), aes.BlockSize, cipher.NewCBCEncrypter, cipher.NewCBCDecrypter)
}

func TestContractStdStream(t *testing.T) {
	b := mustAES(t)
	t.Run("CTR", func(t *testing.T) { cryptotest.TestStream(t, b, cipher.NewCTR) })
	t.Run("OFB", func(t *testing.T) { cryptotest.TestStream(t, b, cipher.NewOFB) })
	t.Run("CFB", func(t *testing.T) { cryptotest.TestStreamPair(t, b, cipher.NewCFBEncrypter, cipher.NewCFBDecrypter) })
}

func TestContractStdAEAD(t *testing.T) {
	b, err := aes.NewCipher(make([]byte, 16))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("AES", func(t *testing.T) {
		cryptotest.TestAEAD(t, 12, 16, func() (cipher.AEAD, error) { return cipher.NewGCM(b) })
	})
	t.Run("generic", func(t *testing.T) {
		cryptotest.TestAEAD(t, 12, 16, func() (cipher.AEAD, error) { return cipher.NewGCM(generic{b}) })
	})
}
