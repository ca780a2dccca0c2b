package twofish

import (
	"crypto/cipher"
	"fmt"
	"testing"

	"github.com/twofish-go/twofish/internal/cryptotest"
)

// The contract tests hold every way of making a Cipher, and every mode
// over it, to crypto/cipher's interfaces through internal/cryptotest.
//
// Which Ciphers each contract runs over keeps them under a second on two
// cores. The Block contract and those of the modes and XTS cost little:
// they run over every implementation this CPU runs and over the Ciphers of
// NewCipher and NewCipherConstantTime (the Block contract at every key
// size), the modes also over NewCipher's behind wrap, which hides the
// *Cipher so that they take their one-block-at-a-time path. The AEADs',
// with every implementation, would cost three times the rest: they run
// over generic, NewCipher's, NewCipherConstantTime's and wrap, and over
// every implementation in exhaustive runs only (TWOFISH_TEST_EXHAUSTIVE=1);
// TestAEADImplementationsAgree and the fused and guard-page tests run each
// kernel's bulk paths through the AEADs anyway.

// TestContractBlock checks crypto/cipher.Block's contract, and the
// KeySizeError of a key of a wrong size, at every key size of every
// implementation and of NewCipher and NewCipherConstantTime.
func TestContractBlock(t *testing.T) {
	for _, ks := range keySizes {
		t.Run(fmt.Sprintf("key=%d", 8*ks), func(t *testing.T) {
			forEachImpl(t, func(t *testing.T, impl Implementation) {
				cryptotest.TestBlock(t, ks, func(key []byte) (cipher.Block, error) {
					return asBlock(NewCipherImpl(key, impl.Name))
				}, keySizeError)
			})
			t.Run("NewCipher", func(t *testing.T) {
				cryptotest.TestBlock(t, ks, func(key []byte) (cipher.Block, error) { return asBlock(NewCipher(key)) }, keySizeError)
			})
			t.Run("NewCipherConstantTime", func(t *testing.T) {
				cryptotest.TestBlock(t, ks, func(key []byte) (cipher.Block, error) { return asBlock(NewCipherConstantTime(key)) }, keySizeError)
			})
		})
	}
}

// TestContractBlockModes checks crypto/cipher.BlockMode's contract of ECB
// and CBC, each direction and the pair.
func TestContractBlockModes(t *testing.T) {
	forEachContractBlock(t, true, func(t *testing.T, b cipher.Block) {
		t.Run("ECB", func(t *testing.T) {
			cryptotest.TestBlockMode(t, b, 0,
				func(b cipher.Block, _ []byte) cipher.BlockMode { return NewECBEncrypter(b) },
				func(b cipher.Block, _ []byte) cipher.BlockMode { return NewECBDecrypter(b) })
		})
		t.Run("CBC", func(t *testing.T) { cryptotest.TestBlockMode(t, b, BlockSize, NewCBCEncrypter, NewCBCDecrypter) })
	})
}

// TestContractStreams checks crypto/cipher.Stream's contract of CTR and
// OFB, with their XOR semantics, and of CFB, each direction and the pair.
func TestContractStreams(t *testing.T) {
	forEachContractBlock(t, true, func(t *testing.T, b cipher.Block) {
		t.Run("CTR", func(t *testing.T) { cryptotest.TestStream(t, b, NewCTR) })
		t.Run("OFB", func(t *testing.T) { cryptotest.TestStream(t, b, NewOFB) })
		t.Run("CFB", func(t *testing.T) { cryptotest.TestStreamPair(t, b, NewCFBEncrypter, NewCFBDecrypter) })
	})
}

// contractAEADs are the AEADs that TestContractAEADs checks: each mode with
// its usual sizes and with short nonces or tags, and crypto/cipher.NewGCM,
// which returns this package's GCM for a *Cipher (only for one: for
// another Block it is crypto/cipher's own).
var contractAEADs = []struct {
	name       string
	nonce, tag int
	new        func(b cipher.Block) (cipher.AEAD, error)
	cipherOnly bool
}{
	{"NewGCM", 12, 16, NewGCM, false},
	{"GCM,nonce=16,tag=12", 16, 12, func(b cipher.Block) (cipher.AEAD, error) { return newGCM(b, 16, 12) }, false},
	{"cipher.NewGCM", 12, 16, cipher.NewGCM, true},
	{"OCB,nonce=12,tag=16", 12, 16, func(b cipher.Block) (cipher.AEAD, error) { return NewOCB(b, 12, 16) }, false},
	{"OCB,nonce=15,tag=8", 15, 8, func(b cipher.Block) (cipher.AEAD, error) { return NewOCB(b, 15, 8) }, false},
	{"EAX,nonce=16,tag=16", 16, 16, func(b cipher.Block) (cipher.AEAD, error) { return NewEAX(b, 16, 16) }, false},
	{"EAX,nonce=12,tag=8", 12, 8, func(b cipher.Block) (cipher.AEAD, error) { return NewEAX(b, 12, 8) }, false},
}

// TestContractAEADs checks crypto/cipher.AEAD's contract of GCM, OCB and
// EAX at several nonce and tag sizes.
func TestContractAEADs(t *testing.T) {
	forEachContractBlock(t, exhaustive(), func(t *testing.T, b cipher.Block) {
		_, isCipher := b.(*Cipher)
		for _, m := range contractAEADs {
			if m.cipherOnly && !isCipher {
				continue
			}
			t.Run(m.name, func(t *testing.T) {
				cryptotest.TestAEAD(t, m.nonce, m.tag, func() (cipher.AEAD, error) { return m.new(b) })
			})
		}
	})
}

// TestContractXTS checks the part of the modes' contract that fits XTS,
// whose calls are independent sectors (cryptotest.TestSectors), over the
// XTS of every implementation, NewXTS and NewXTSConstantTime, with keys of
// each size in turn.
func TestContractXTS(t *testing.T) {
	turn := 0
	check := func(t *testing.T, newXTS func(key []byte) (*XTS, error)) {
		turn++
		x, err := newXTS(randBytes(testRand(t), 2*keySizes[turn%len(keySizes)]))
		if err != nil {
			t.Fatal(err)
		}
		cryptotest.TestSectors(t, BlockSize, x.Encrypt, x.Decrypt)
	}
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		check(t, func(key []byte) (*XTS, error) { return NewXTSImpl(key, impl.Name) })
	})
	t.Run("NewXTS", func(t *testing.T) { check(t, NewXTS) })
	t.Run("NewXTSConstantTime", func(t *testing.T) { check(t, NewXTSConstantTime) })
}

// forEachContractBlock runs f as a subtest for each block that the
// contracts of the modes run over: the Cipher of every implementation this
// CPU runs if everyImpl, else generic's; NewCipher's and
// NewCipherConstantTime's; and NewCipher's behind wrap. Their keys are
// random, of each size in turn.
func forEachContractBlock(t *testing.T, everyImpl bool, f func(t *testing.T, b cipher.Block)) {
	turn := 0
	key := func(t *testing.T) []byte {
		turn++
		return randBytes(testRand(t), keySizes[turn%len(keySizes)])
	}
	if everyImpl {
		forEachImpl(t, func(t *testing.T, impl Implementation) { f(t, mustCipher(t, key(t), impl.Name)) })
	} else {
		t.Run("generic", func(t *testing.T) { f(t, mustCipher(t, key(t), "generic")) })
	}
	t.Run("NewCipher", func(t *testing.T) {
		c, _ := NewCipher(key(t))
		f(t, c)
	})
	t.Run("NewCipherConstantTime", func(t *testing.T) {
		c, _ := NewCipherConstantTime(key(t))
		f(t, c)
	})
	t.Run("wrap", func(t *testing.T) {
		c, _ := NewCipher(key(t))
		f(t, wrap{c})
	})
}

// asBlock returns c as a cipher.Block, and a nil one with err: a nil
// *Cipher would make a Block that is not nil.
func asBlock(c *Cipher, err error) (cipher.Block, error) {
	if err != nil {
		return nil, err
	}
	return c, nil
}

// keySizeError is KeySizeError(n) as an error, for cryptotest.TestBlock.
func keySizeError(n int) error { return KeySizeError(n) }
