package twofish

import (
	"strconv"

	"github.com/twofish-go/twofish/internal/alias"
	"github.com/twofish-go/twofish/internal/kernel"
)

// BlockSize is the Twofish block size in bytes.
const BlockSize = kernel.BlockSize

// KeySizeError is returned by NewCipher for a key that is not 16, 24 or 32
// bytes long. Its text is that of golang.org/x/crypto/twofish.
type KeySizeError int

func (k KeySizeError) Error() string {
	return "crypto/twofish: invalid key size " + strconv.Itoa(int(k))
}

// A Cipher is an instance of Twofish encryption using a particular key. It
// implements cipher.Block and is safe for concurrent use. A Cipher that no
// constructor made has no key: every operation on it panics.
type Cipher struct {
	k kernel.Cipher
}

// NewCipher creates and returns a Cipher with the implementation that the
// CPU policy picks for this processor, or the one named by the TWOFISH_IMPL
// environment variable (see the package documentation). The key must be 16,
// 24 or 32 bytes long, selecting Twofish-128, -192 or -256.
func NewCipher(key []byte) (*Cipher, error) {
	return newCipher(key, kernel.Auto())
}

// NewCipherConstantTime is like NewCipher but uses only constant-time
// kernels, which make no memory access or branch that depends on the key or
// the data: the fastest this CPU runs (avx512-vbmi, else avx2-ct, else
// generic-ct), whatever TWOFISH_IMPL says. The modes and AEADs built on the
// Cipher stay constant-time (GHASH has no tables either). Table kernels,
// the default on CPUs without AVX-512 VBMI, are faster for single blocks
// and serial modes but their timing can leak key bits through the cache.
func NewCipherConstantTime(key []byte) (*Cipher, error) {
	return newCipher(key, kernel.AutoConstantTime())
}

// NewCipherImpl is like NewCipher but pins the implementation named impl,
// one of the names Implementations reports: impl does the bulk work and the
// narrower kernels of its family the rest. It returns an error if impl is
// unknown or not supported on this CPU. TWOFISH_IMPL does not affect it.
func NewCipherImpl(key []byte, impl string) (*Cipher, error) {
	k, err := kernel.Lookup(impl)
	if err != nil {
		return nil, err
	}
	return newCipher(key, k)
}

func newCipher(key []byte, k *kernel.Kernel) (*Cipher, error) {
	switch len(key) {
	case 16, 24, 32:
	default:
		return nil, KeySizeError(len(key))
	}
	c := new(Cipher)
	c.k.Init(k, key)
	return c, nil
}

// BlockSize returns the Twofish block size, 16 bytes.
func (c *Cipher) BlockSize() int { return BlockSize }

// Implementation returns the name of the widest kernel c uses, "" for a
// Cipher without a key.
func (c *Cipher) Implementation() string {
	if k := c.k.Head(); k != nil {
		return k.Name
	}
	return ""
}

// ConstantTime reports whether no operation of c can run a kernel that
// looks tables up: true for a Cipher from NewCipherConstantTime, and for
// one from NewCipher or NewCipherImpl whose kernels are all constant-time.
// It is false for a Cipher without a key.
func (c *Cipher) ConstantTime() bool { return c.k.ConstantTime() }

// Encrypt and Decrypt are defined with the kernel switch of each
// architecture (dispatch_*.go), so that a single block is one call from the
// caller to the kernel.

// errNoKey is the panic of every operation on a Cipher that no constructor
// made: its zero value has no key schedule and no kernels, and must not
// pass data through unencrypted.
const errNoKey = kernel.ErrNoKey

// checkBlock panics as crypto/cipher's block ciphers do for a short dst or
// src, or for dst and src that overlap but not exactly. It is small enough
// to inline into Encrypt and Decrypt.
func checkBlock(dst, src []byte) {
	if len(src) < BlockSize {
		panic("crypto/twofish: input not full block")
	}
	if len(dst) < BlockSize {
		panic("crypto/twofish: output not full block")
	}
	if alias.InexactOverlapBlock(&dst[0], &src[0], BlockSize) {
		panic("crypto/twofish: invalid buffer overlap")
	}
}

// encryptBlocks encrypts the whole blocks of src into dst, which must be at
// least as long, through c's ladder of kernels. Callers check lengths and
// overlap; in place is allowed.
func (c *Cipher) encryptBlocks(dst, src []byte) { c.k.EncryptBlocks(dst, src) }

// decryptBlocks is the inverse of encryptBlocks.
func (c *Cipher) decryptBlocks(dst, src []byte) { c.k.DecryptBlocks(dst, src) }
