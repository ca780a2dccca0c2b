package twofish

import (
	"strconv"

	"github.com/twofish-go/twofish/internal/alias"
	"github.com/twofish-go/twofish/internal/kernel"
)

// BlockSize is the Twofish block size in bytes.
const BlockSize = 16

// KeySizeError is returned by NewCipher for a key that is not 16, 24 or 32
// bytes long. Its text is that of golang.org/x/crypto/twofish.
type KeySizeError int

func (k KeySizeError) Error() string {
	return "crypto/twofish: invalid key size " + strconv.Itoa(int(k))
}

// A Cipher is an instance of Twofish encryption using a particular key. It
// implements cipher.Block and is safe for concurrent use. A Cipher that no
// constructor made has no key: every operation on it panics. A Cipher must
// not be copied after first use (go vet's copylocks reports copies): it
// may build some of its tables then, and publishes them atomically; share
// the *Cipher that the constructors return.
type Cipher struct {
	k kernel.Cipher
}

// NewCipher creates and returns a Cipher with the kernels that the CPU
// policy picks for this processor, the fastest for each shape of work
// (single blocks, short runs, long runs; see Paths), or those of the
// implementation named by the TWOFISH_IMPL environment variable (see the
// package documentation). The key must be 16, 24 or 32 bytes long,
// selecting Twofish-128, -192 or -256.
//
// Where the long runs' kernel is byte-sliced (AVX-512 VBMI), the tables of
// the kernels of single blocks and short runs are not built with the key
// but from its S-boxes when first needed: at the first single block, or
// once the long runs' kernel has done about as much of their work as
// building them costs (the blocks of a mode's setup, as GCM's hash key,
// and short runs). So a new key costs what NewCipherConstantTime's does,
// and a key for one GCM, CTR or XTS message never pays for the tables
// (4,096 bytes), nor one for an OCB message with up to 32 bytes of
// associated data (with more, its short runs and OCB's setup blocks can
// add up to what building them costs).
func NewCipher(key []byte) (*Cipher, error) {
	return newCipher(key, kernel.Auto())
}

// NewCipherConstantTime is like NewCipher but uses only constant-time
// kernels, which make no memory access or branch that depends on the key or
// the data, for every shape: the fastest this CPU runs (avx512-gfni, else
// avx512-vbmi, else avx2-ct, or arm64-neon, else generic-ct), whatever
// TWOFISH_IMPL says.
// The modes and AEADs built on the Cipher stay constant-time (GHASH has no
// tables either; NewGCM says which small 32-bit cores its portable code's
// multiplications are not constant-time on). The table kernels that NewCipher uses for single blocks and
// short runs everywhere, and for long runs on CPUs without AVX-512 VBMI,
// are up to 8x faster there than the vector constant-time kernels (a single
// block on Zen 5; long runs with AVX2 0.96-1.3x there, 2x on Zen 1), and
// than generic-ct 3x to 15x in long runs and 21x to 32x in single blocks
// (Zen 5, the README's table and twofish bench's block rows: twofish bench
// -impl generic-ct,amd64-1way -modes block), but
// their timing can leak key bits through the cache to code that shares the
// processor.
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
	return newCipher(key, kernel.Pin(k))
}

func newCipher(key []byte, p kernel.Plan) (*Cipher, error) {
	switch len(key) {
	case 16, 24, 32:
	default:
		return nil, KeySizeError(len(key))
	}
	return kernel.New(p, key, func(c *Cipher) *kernel.Cipher { return &c.k }), nil
}

// BlockSize returns the Twofish block size, 16 bytes.
func (c *Cipher) BlockSize() int { return BlockSize }

// Implementation returns the name of the kernel of c's long runs, the
// widest it uses, "" for a Cipher without a key.
func (c *Cipher) Implementation() string {
	if k := c.k.Head(); k != nil {
		return k.Name
	}
	return ""
}

// Paths tells which implementation serves each shape of work on a Cipher.
type Paths struct {
	// Single serves single blocks: Encrypt, Decrypt, and so the serial
	// modes (CBC and CFB encryption, OFB, CMAC in EAX). Where it reads
	// tables that Bulk does not, Bulk's ladder serves a new Cipher's
	// short runs and the blocks of its modes' setup until they are built
	// (see NewCipher).
	Single Path
	// Short serves runs of fewer than ShortBelow blocks, and what is left
	// of a longer run after the last whole group of Bulk's kernel when
	// that is shorter too, but for the modes that Bulk's kernels fuse
	// from FusedFrom blocks on.
	Short Path
	// Bulk serves runs of ShortBelow blocks or more: ECB, CBC and CFB
	// decryption, CTR, XTS, GCM, OCB. It takes a remainder of ShortBelow
	// blocks or more after its last whole group itself: padded to a
	// group, masked within one, or in narrower kernels of its own.
	Bulk Path
	// ShortBelow is 0 where one implementation's family ladder serves
	// every run: a Cipher pinned to one (NewCipherImpl, TWOFISH_IMPL) and
	// one from NewCipherConstantTime.
	ShortBelow int
	// FusedFrom is, where Bulk's kernels do a mode's work in the kernel
	// (avx512-vbmi, avx512-gfni: CTR, CBC and CFB decryption, XTS, OCB),
	// the run length in blocks, a partial last block counting as one,
	// from which they take those modes' runs whatever ShortBelow says; 0
	// where they fuse no mode.
	FusedFrom int
}

// A Path is an implementation, as Implementations names it, and whether it
// and the narrower kernels it hands leftover blocks to are constant-time.
type Path struct {
	Impl         string
	ConstantTime bool
}

// Paths returns the implementations that serve each shape of work on c,
// the zero Paths for a Cipher without a key.
func (c *Cipher) Paths() Paths {
	p := c.k.Plan()
	if p.Bulk == nil {
		return Paths{}
	}
	path := func(k *kernel.Kernel) Path {
		return Path{k.Name, kernel.Pin(k).ConstantTime()}
	}
	ps := Paths{Single: path(p.Single), Short: path(p.Short), Bulk: path(p.Bulk), ShortBelow: p.From}
	if c.k.Fused() {
		ps.FusedFrom = fusedMin / BlockSize
	}
	return ps
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
