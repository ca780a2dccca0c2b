package twofish

//lint:file-ignore SA1019 this module implements the legacy modes that Twofish is used in (CFB in OpenPGP, OFB): crypto/cipher's are the reference.

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/des"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// wrap hides every method of a Cipher but cipher.Block's, so crypto/cipher
// runs its own generic mode code over it, the reference for our modes, and
// our modes take their one-block-at-a-time path.
type wrap struct{ b cipher.Block }

func (w wrap) BlockSize() int          { return w.b.BlockSize() }
func (w wrap) Encrypt(dst, src []byte) { w.b.Encrypt(dst, src) }
func (w wrap) Decrypt(dst, src []byte) { w.b.Decrypt(dst, src) }

// ecbRef is ECB written out block by block.
type ecbRef struct {
	b       cipher.Block
	decrypt bool
}

func (x ecbRef) BlockSize() int { return BlockSize }
func (x ecbRef) CryptBlocks(dst, src []byte) {
	for i := 0; i < len(src); i += BlockSize {
		if x.decrypt {
			x.b.Decrypt(dst[i:], src[i:])
		} else {
			x.b.Encrypt(dst[i:], src[i:])
		}
	}
}

// modeCase builds a mode under test and its reference for a block and IV.
type modeCase struct {
	name      string
	blockMode bool // a BlockMode (whole blocks); otherwise a Stream
	ours      func(b cipher.Block, iv []byte) any
	ref       func(b cipher.Block, iv []byte) any
}

var modeCases = []modeCase{
	{"ECB-enc", true,
		func(b cipher.Block, _ []byte) any { return NewECBEncrypter(b) },
		func(b cipher.Block, _ []byte) any { return ecbRef{b, false} }},
	{"ECB-dec", true,
		func(b cipher.Block, _ []byte) any { return NewECBDecrypter(b) },
		func(b cipher.Block, _ []byte) any { return ecbRef{b, true} }},
	{"CBC-enc", true,
		func(b cipher.Block, iv []byte) any { return NewCBCEncrypter(b, iv) },
		func(b cipher.Block, iv []byte) any { return cipher.NewCBCEncrypter(b, iv) }},
	{"CBC-dec", true,
		func(b cipher.Block, iv []byte) any { return NewCBCDecrypter(b, iv) },
		func(b cipher.Block, iv []byte) any { return cipher.NewCBCDecrypter(b, iv) }},
	{"CFB-enc", false,
		func(b cipher.Block, iv []byte) any { return NewCFBEncrypter(b, iv) },
		func(b cipher.Block, iv []byte) any { return cipher.NewCFBEncrypter(b, iv) }},
	{"CFB-dec", false,
		func(b cipher.Block, iv []byte) any { return NewCFBDecrypter(b, iv) },
		func(b cipher.Block, iv []byte) any { return cipher.NewCFBDecrypter(b, iv) }},
	{"OFB", false,
		func(b cipher.Block, iv []byte) any { return NewOFB(b, iv) },
		func(b cipher.Block, iv []byte) any { return cipher.NewOFB(b, iv) }},
	{"CTR", false,
		func(b cipher.Block, iv []byte) any { return NewCTR(b, iv) },
		func(b cipher.Block, iv []byte) any { return cipher.NewCTR(b, iv) }},
}

// crypt runs a BlockMode or a Stream over src into dst.
func crypt(m any, dst, src []byte) {
	switch m := m.(type) {
	case cipher.BlockMode:
		m.CryptBlocks(dst, src)
	case cipher.Stream:
		m.XORKeyStream(dst, src)
	}
}

// modeLength reports whether TestModesAgainstCryptoCipher tries messages of
// n bytes: every length in exhaustive runs; by default those up to 64
// bytes, every whole block and every seventh; with -short every seventh
// and the whole blocks up to 64 bytes.
func modeLength(n int) bool {
	switch {
	case exhaustive():
		return true
	case testing.Short():
		return n%7 == 0 || n <= 64 && n%BlockSize == 0
	}
	return n <= 64 || n%BlockSize == 0 || n%7 == 0
}

// TestModesAgainstCryptoCipher compares each mode, for every
// implementation, with crypto/cipher's generic code over generic's block
// with the same key: messages of every length up to 1000 bytes (in
// exhaustive runs; see modeLength) and a few large ones, the same messages
// split into three calls at random points (state carries over), unaligned
// and in place, and, up to 4 KiB and a block, through the
// one-block-at-a-time path for the implementation's block behind a type
// that is not a *Cipher.
func TestModesAgainstCryptoCipher(t *testing.T) {
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		for _, mc := range modeCases {
			t.Run(mc.name, func(t *testing.T) {
				for _, ks := range keySizes {
					key := randBytes(r, ks)
					c, ref := mustCipher(t, key, impl.Name), mustCipher(t, key, "generic")
					for n := 0; n <= 1000; n++ {
						if (mc.blockMode && n%BlockSize != 0) || !modeLength(n) {
							continue
						}
						checkMode(t, mc, c, ref, r, n)
					}
					for _, n := range []int{4096, 4096 + 16, 65536 + 48} {
						checkMode(t, mc, c, ref, r, n)
					}
				}
			})
		}
	})
}

// checkMode checks mc over c on a random message of n bytes against
// mc.ref over ref, a Cipher of the same key.
func checkMode(t *testing.T, mc modeCase, c, ref *Cipher, r *rand.Rand, n int) {
	t.Helper()
	iv := randBytes(r, BlockSize)
	if r.IntN(4) == 0 {
		copy(iv[8:], []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe}) // near counter wrap-around
	}
	src := randBytes(r, n+1)[1:] // unaligned
	want := make([]byte, n)
	crypt(mc.ref(wrap{ref}, iv), want, src)

	got := make([]byte, n)
	crypt(mc.ours(c, iv), got, src)
	if !bytes.Equal(got, want) {
		t.Fatalf("%d bytes: differs from crypto/cipher", n)
	}

	// In place, in three calls split at random points.
	split := func() int {
		if mc.blockMode {
			return r.IntN(n/BlockSize+1) * BlockSize
		}
		return r.IntN(n + 1)
	}
	i, j := split(), split()
	i, j = min(i, j), max(i, j)
	m := mc.ours(c, iv)
	got = append(got[:0], src...)
	crypt(m, got[:i], got[:i])
	crypt(m, got[i:j], got[i:j])
	crypt(m, got[j:], got[j:])
	if !bytes.Equal(got, want) {
		t.Fatalf("%d bytes in place, split at %d and %d: differs from crypto/cipher", n, i, j)
	}

	// A block that is not a *Cipher goes one block at a time, in the
	// modes' batches of at most 1 KiB, whose edges 4 KiB and a block
	// crosses already.
	if n > 4096+BlockSize {
		return
	}
	clear(got)
	crypt(mc.ours(wrap{c}, iv), got, src)
	if !bytes.Equal(got, want) {
		t.Fatalf("%d bytes through a wrapped block: differs from crypto/cipher", n)
	}
}

// TestCTRCounterWraps checks that the counter is the whole 128-bit IV,
// carrying from the low into the high half and wrapping to zero.
func TestCTRCounterWraps(t *testing.T) {
	c := mustCipher(t, make([]byte, 16), "generic")
	for _, iv := range [][]byte{
		bytes.Repeat([]byte{0xff}, 16),
		append(make([]byte, 8), bytes.Repeat([]byte{0xff}, 8)...),
		append(bytes.Repeat([]byte{0xff}, 8), append(make([]byte, 7), 0xfe)...),
	} {
		src := make([]byte, 5*BlockSize)
		got, want := make([]byte, len(src)), make([]byte, len(src))
		NewCTR(c, iv).XORKeyStream(got, src)
		cipher.NewCTR(wrap{c}, iv).XORKeyStream(want, src)
		if !bytes.Equal(got, want) {
			t.Errorf("IV %x: key stream differs from crypto/cipher's", iv)
		}
	}
}

// TestStreamsAnyLength checks that every Stream takes a message of any
// length an int holds: rounding the length up to whole blocks of key
// stream must not overflow, as it did for CTR and OFB with a message
// within 15 bytes of the largest int (on 32-bit platforms, of 2 GiB),
// which panicked with a negative slice bound. The message is a slice
// longer than the memory under it, and the block stops the call with
// haltBlock's panic at its first block, before anything past that memory
// is read or written.
func TestStreamsAnyLength(t *testing.T) {
	if raceEnabled {
		t.Skip("-race turns on checkptr, which refuses a slice longer than its allocation")
	}
	arena := make([]byte, 4096) // what the first batch of a call reads
	n := int(^uint(0)>>1) - 3
	if uintptr(unsafe.Pointer(&arena[0])) > ^uintptr(0)-uintptr(n) {
		t.Skip("the arena lies too high in the address space for a slice of the largest length")
	}
	huge := unsafe.Slice(&arena[0], n)
	iv := make([]byte, BlockSize)
	for _, mc := range modeCases {
		if mc.blockMode {
			continue
		}
		t.Run(mc.name, func(t *testing.T) {
			m := mc.ours(haltBlock{}, iv)
			expectPanic(t, errHalt, func() { crypt(m, huge, huge) })
		})
	}
}

// haltBlock is a cipher.Block with 16-byte blocks that panics with errHalt
// at the first block it is given.
type haltBlock struct{}

const errHalt = "haltBlock: stop"

func (haltBlock) BlockSize() int      { return BlockSize }
func (haltBlock) Encrypt(_, _ []byte) { panic(errHalt) }
func (haltBlock) Decrypt(_, _ []byte) { panic(errHalt) }

// TestCBCSetIV checks that the CBC modes have crypto/cipher's SetIV, which
// code reusing a mode asserts for, whether made here or by crypto/cipher's
// constructors (which return this package's modes for a *Cipher): after
// SetIV a mode encrypts and decrypts as crypto/cipher's own after its
// SetIV, and an IV of the wrong length panics with crypto/cipher's message.
func TestCBCSetIV(t *testing.T) {
	type setIVer interface {
		cipher.BlockMode
		SetIV([]byte)
	}
	r := testRand(t)
	c := mustCipher(t, randBytes(r, 32), "generic")
	iv, iv2, src := randBytes(r, BlockSize), randBytes(r, BlockSize), randBytes(r, 5*BlockSize)
	for _, m := range []struct {
		name      string
		ours, ref func(b cipher.Block, iv []byte) cipher.BlockMode
	}{
		{"NewCBCEncrypter", NewCBCEncrypter, cipher.NewCBCEncrypter},
		{"NewCBCDecrypter", NewCBCDecrypter, cipher.NewCBCDecrypter},
		{"crypto/cipher.NewCBCEncrypter", cipher.NewCBCEncrypter, cipher.NewCBCEncrypter},
		{"crypto/cipher.NewCBCDecrypter", cipher.NewCBCDecrypter, cipher.NewCBCDecrypter},
	} {
		ours, ok := m.ours(c, iv).(setIVer)
		if !ok {
			t.Errorf("%s: the mode has no SetIV", m.name)
			continue
		}
		ref := m.ref(wrap{c}, iv).(setIVer)
		got, want := make([]byte, len(src)), make([]byte, len(src))
		ours.CryptBlocks(got, src)
		ref.CryptBlocks(want, src)
		ours.SetIV(iv2)
		ref.SetIV(iv2)
		ours.CryptBlocks(got, got)
		ref.CryptBlocks(want, want)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: after SetIV, %x, want %x", m.name, got, want)
		}
		expectPanic(t, "cipher: incorrect length IV", func() { ours.SetIV(iv2[:8]) })
		expectPanic(t, "cipher: incorrect length IV", func() { ours.SetIV(make([]byte, BlockSize+1)) })
	}
}

func TestModeMisuse(t *testing.T) {
	c := mustCipher(t, make([]byte, 16), "generic")
	iv := make([]byte, BlockSize)
	buf := make([]byte, 4*BlockSize)
	for _, n := range []int{0, 15, 17} {
		expectPanic(t, "cipher.NewCBCEncrypter: IV length must equal block size", func() { NewCBCEncrypter(c, make([]byte, n)) })
		expectPanic(t, "cipher.NewCBCDecrypter: IV length must equal block size", func() { NewCBCDecrypter(c, make([]byte, n)) })
		expectPanic(t, "cipher.NewCTR: IV length must equal block size", func() { NewCTR(c, make([]byte, n)) })
		expectPanic(t, "cipher.newCFB: IV length must equal block size", func() { NewCFBEncrypter(c, make([]byte, n)) })
		expectPanic(t, "cipher.newCFB: IV length must equal block size", func() { NewCFBDecrypter(c, make([]byte, n)) })
		expectPanic(t, "cipher.NewOFB: IV length must equal block size", func() { NewOFB(c, make([]byte, n)) })
	}
	des3, _ := des.NewCipher(make([]byte, 8))
	expectPanic(t, "twofish: block size must be 16 bytes", func() { NewECBEncrypter(des3) })
	expectPanic(t, "twofish: block size must be 16 bytes", func() { NewCTR(des3, iv[:8]) })

	for _, mc := range modeCases {
		m := mc.ours(c, iv)
		if bm, ok := m.(cipher.BlockMode); ok && bm.BlockSize() != BlockSize {
			t.Errorf("%s: BlockSize() = %d", mc.name, bm.BlockSize())
		}
		t.Run(mc.name, func(t *testing.T) {
			if mc.blockMode {
				expectPanic(t, "crypto/cipher: input not full blocks", func() { crypt(m, buf, buf[:17]) })
			}
			expectPanic(t, "crypto/cipher: output smaller than input", func() { crypt(m, buf[:16], buf[16:48]) })
			expectPanic(t, "crypto/cipher: invalid buffer overlap", func() { crypt(m, buf[16:], buf[:48]) })
			expectPanic(t, "crypto/cipher: invalid buffer overlap", func() { crypt(m, buf[:48], buf[16:]) })
			crypt(m, buf, buf)           // in place is fine
			crypt(m, buf[:32], buf[32:]) // and so are disjoint buffers
			crypt(m, nil, nil)
		})
	}
}

// wideBlock is a cipher.Block that says its blocks are 32 bytes long.
type wideBlock struct{ cipher.Block }

func (wideBlock) BlockSize() int { return 2 * BlockSize }

// TestModesRejectWiderBlocks checks that the modes reject a cipher.Block
// whose blocks are longer than 16 bytes as they do one whose blocks are
// shorter: they would run it on 16 of its bytes at a time.
func TestModesRejectWiderBlocks(t *testing.T) {
	a, _ := aes.NewCipher(make([]byte, 16))
	w := wideBlock{a}
	iv := make([]byte, BlockSize)
	expectPanic(t, "twofish: block size must be 16 bytes", func() { NewECBEncrypter(w) })
	expectPanic(t, "twofish: block size must be 16 bytes", func() { NewCTR(w, iv) })
	if _, err := NewGCM(w); err == nil {
		t.Error("NewGCM of 32-byte blocks: no error")
	}
	if _, err := NewOCB(w, 12, 16); err == nil {
		t.Error("NewOCB of 32-byte blocks: no error")
	}
	if _, err := NewEAX(w, 16, 16); err == nil {
		t.Error("NewEAX of 32-byte blocks: no error")
	}
}

func TestModesWithOtherBlocks(t *testing.T) {
	// The constructors accept any 16-byte cipher.Block, AES for instance.
	a, _ := aes.NewCipher(make([]byte, 16))
	iv := make([]byte, 16)
	for _, mc := range modeCases {
		src := bytes.Repeat([]byte("abcdefghijklmnop"), 9)
		got, want := make([]byte, len(src)), make([]byte, len(src))
		crypt(mc.ours(a, iv), got, src)
		crypt(mc.ref(a, iv), want, src)
		if !bytes.Equal(got, want) {
			t.Errorf("%s over AES differs from crypto/cipher", mc.name)
		}
	}
}

// TestOtherBlocksWipesScratch runs ECB over a cipher.Block that is not a
// *Cipher, through otherBlocks' pooled scratch block, and checks that the
// block the pool hands out next holds none of the data. (The pool may hand
// out a fresh block instead, as it does now and then under -race; that
// passes, and the other turns check.)
func TestOtherBlocksWipesScratch(t *testing.T) {
	a, _ := aes.NewCipher(make([]byte, 16))
	src := bytes.Repeat([]byte{0x80, 0x81, 0x82, 0x83}, 16)
	dst := make([]byte, len(src))
	for _, dec := range []bool{false, true} {
		for range 10 {
			if dec {
				NewECBDecrypter(a).CryptBlocks(dst, src)
			} else {
				NewECBEncrypter(a).CryptBlocks(dst, src)
			}
			s := scratchBlocks.Get().(*[BlockSize]byte)
			got := *s
			scratchBlocks.Put(s)
			if got != ([BlockSize]byte{}) {
				t.Fatalf("the pooled scratch block holds %x after ECB (decrypt %v), want zeros", got, dec)
			}
		}
	}
}

// TestCryptoCipherHooks checks that crypto/cipher's constructors find the
// bulk paths: they return this package's modes, not their generic ones.
func TestCryptoCipherHooks(t *testing.T) {
	c := mustCipher(t, make([]byte, 16), "generic")
	iv := make([]byte, BlockSize)
	for name, got := range map[string]any{
		"NewCTR":          cipher.NewCTR(c, iv),
		"NewCBCEncrypter": cipher.NewCBCEncrypter(c, iv),
		"NewCBCDecrypter": cipher.NewCBCDecrypter(c, iv),
	} {
		switch got.(type) {
		case *stream, *cbcEncrypter, *cbcDecrypter:
		default:
			t.Errorf("cipher.%s returned %T, not this package's mode", name, got)
		}
	}
}
