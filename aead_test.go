package twofish

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/des"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/big"
	"testing"
	"unsafe"

	"github.com/twofish-go/twofish/internal/ghash"
)

// aeadMode is one of the authenticated modes, built over any block with
// given nonce and tag sizes.
type aeadMode struct {
	name   string
	new    func(b cipher.Block, nonceSize, tagSize int) (cipher.AEAD, error)
	nonces []int // nonce sizes to test
	tags   []int // tag sizes to test
}

var aeadModes = []aeadMode{
	{"GCM", func(b cipher.Block, ns, ts int) (cipher.AEAD, error) { return newGCM(b, ns, ts) },
		[]int{12, 1, 8, 16, 17, 64}, []int{16, 12, 13, 15}},
	{"OCB", NewOCB, []int{12, 15, 1, 7, 8, 14}, []int{16, 8, 12, 15}},
	{"EAX", NewEAX, []int{16, 12, 1, 17, 33}, []int{16, 8, 12}},
}

func mustAEAD(t testing.TB, m aeadMode, b cipher.Block, nonceSize, tagSize int) cipher.AEAD {
	t.Helper()
	a, err := m.new(b, nonceSize, tagSize)
	if err != nil {
		t.Fatalf("%s(%d, %d): %v", m.name, nonceSize, tagSize, err)
	}
	return a
}

// aeadLengths are the message and associated-data lengths the tests try:
// every length up to 20 bytes and every seventh up to 300 (every one in
// exhaustive runs), then lengths around the batch sizes and those where
// GCM keeps the last of an odd number of whole groups from the fused
// kernel (gcm.fusedRun: one group, or three, and a rest that the bulk
// kernel pads into a group or that fills one with the tag mask's block),
// and in exhaustive runs larger ones.
func aeadLengths() []int {
	var ns []int
	for n := 0; n <= 300; n++ {
		if exhaustive() || n%7 == 0 || n < 20 {
			ns = append(ns, n)
		}
	}
	ns = append(ns, 1023, 1024, 1024+200, 2047-15, 2047, 2048, 2049, 3*1024+200+3, 4096+15)
	if exhaustive() {
		ns = append(ns, 8192, 16384+16, 65536+33)
	}
	return ns
}

// TestGCMAgainstCryptoCipher compares GCM with crypto/cipher's own generic
// GCM over the same block with the fast methods hidden (wrap), for every
// implementation: standard and other nonce sizes (a nonce of other than 12
// bytes goes through GHASH), every tag size, messages of every length up
// to 300 bytes and a few large ones, with associated data; and the error
// of a wrong tag.
func TestGCMAgainstCryptoCipher(t *testing.T) {
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		for _, ks := range keySizes {
			c := mustCipher(t, randBytes(r, ks), impl.Name)
			type variant struct {
				nonceSize, tagSize int
				ref                cipher.AEAD
			}
			var vs []variant
			for _, ns := range []int{12, 1, 8, 16, 60} {
				ref, _ := cipher.NewGCMWithNonceSize(wrap{c}, ns)
				vs = append(vs, variant{ns, 16, ref})
			}
			for _, ts := range []int{12, 13, 15} {
				ref, _ := cipher.NewGCMWithTagSize(wrap{c}, ts)
				vs = append(vs, variant{12, ts, ref})
			}
			for i, n := range aeadLengths() {
				v := vs[i%len(vs)]
				g := mustAEAD(t, aeadModes[0], c, v.nonceSize, v.tagSize)
				nonce, pt, ad := randBytes(r, v.nonceSize), randBytes(r, n+1)[1:], randBytes(r, r.IntN(80))
				if i%5 == 0 {
					ad = randBytes(r, n)
				}
				want := v.ref.Seal(nil, nonce, pt, ad)
				got := g.Seal(nil, nonce, pt, ad)
				if !bytes.Equal(got, want) {
					t.Fatalf("%d-byte key, nonce %d, tag %d, %d bytes, %d of AD: Seal differs from crypto/cipher",
						ks, v.nonceSize, v.tagSize, n, len(ad))
				}
				back, err := g.Open(nil, nonce, want, ad)
				if err != nil || !bytes.Equal(back, pt) {
					t.Fatalf("%d bytes: Open of crypto/cipher's ciphertext: %v", n, err)
				}
				// A wrong tag fails with crypto/cipher's error.
				want[len(want)-1] ^= 1
				_, errWant := v.ref.Open(nil, nonce, want, ad)
				if _, err := g.Open(nil, nonce, want, ad); err == nil || errWant == nil || err.Error() != errWant.Error() {
					t.Fatalf("%d bytes: Open of a wrong tag: %v, want %v", n, err, errWant)
				}
			}
		}
	})
}

// TestGCMCounterWraps starts the 32-bit counter just before it wraps (a
// nonce of other than 12 bytes can make any J0): GCM's counter is the last
// four bytes alone, and the carry must not reach the rest of the block.
// The longer messages have whole groups for the fused CTR kernels, before
// and after the wrap.
func TestGCMCounterWraps(t *testing.T) {
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		c := mustCipher(t, randBytes(r, 16), impl.Name)
		g := mustAEAD(t, aeadModes[0], c, 16, 16).(*gcm)
		// A nonce whose J0 ends in ff ff ff fX is too rare to search
		// for: set J0 directly, and compare with a block-by-block
		// reference.
		for _, tc := range []struct {
			last uint32
			n    int
		}{
			{0xffffffff, 5*BlockSize + 3},
			{0xfffffffe, 5*BlockSize + 3},
			{0xfffffff0, 5*BlockSize + 3},
			{0x7fffffff, 5*BlockSize + 3},
			{0xffffffff, 3*fusedBytes + 5*BlockSize + 3},
			{0xfffffff0, 3*fusedBytes + 5*BlockSize + 3},
			{0xffffffff - 2*fusedBytes/BlockSize, 3*fusedBytes + 5*BlockSize + 3},
			// A group of the fused kernel whose last block takes counter
			// ff ff ff ff, and one whose last block would wrap.
			{0xffffffff - fusedBytes/BlockSize, fusedBytes + 5*BlockSize + 3},
			{0xffffffff - fusedBytes/BlockSize + 1, fusedBytes + 5*BlockSize + 3},
			// The same with two groups, which the fused run keeps together
			// (one alone it leaves to the key stream's call, to pair it
			// with the blocks after it): the run's last block takes
			// counter ff ff ff ff, or the run would wrap by one block.
			{0xffffffff - 2*fusedBytes/BlockSize, 2*fusedBytes + 5*BlockSize + 3},
			{0xffffffff - 2*fusedBytes/BlockSize + 1, 2*fusedBytes + 5*BlockSize + 3},
		} {
			last := tc.last
			var j0 [BlockSize]byte
			copy(j0[:], randBytes(r, 12))
			binary.BigEndian.PutUint32(j0[12:], last)
			src := randBytes(r, tc.n)
			got := make([]byte, len(src))
			var y, tagMask, wantMask [BlockSize]byte
			g.crypt(got, src, &j0, &y, &tagMask, false)
			if c.Encrypt(wantMask[:], j0[:]); tagMask != wantMask {
				t.Fatalf("J0 ending %08x, %d bytes: tag mask differs", last, tc.n)
			}
			want := make([]byte, len(src))
			ctr := j0
			for i := 0; i < len(src); i += BlockSize {
				binary.BigEndian.PutUint32(ctr[12:], binary.BigEndian.Uint32(ctr[12:])+1)
				var ks [BlockSize]byte
				c.Encrypt(ks[:], ctr[:])
				for k := i; k < min(i+BlockSize, len(src)); k++ {
					want[k] = src[k] ^ ks[k-i]
				}
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("J0 ending %08x, %d bytes: key stream differs", last, tc.n)
			}
		}
	})
}

// TestGCMPathIsPublic checks that what takes GCM's key stream, the fused
// CTR kernel or the bulk kernel, is chosen from public values alone. A
// nonce of other than 12 bytes makes J0 by GHASH under the secret H: were
// the path to leave the fused kernel near where the counter wraps, its
// timing would tell where that secret counter is. The fused kernel counts
// as GCM does, so every nonce size takes it for whole groups, wherever the
// counter stands.
func TestGCMPathIsPublic(t *testing.T) {
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		c := mustCipher(t, randBytes(r, 32), impl.Name)
		n := 9*fusedBytes + 200
		want := 0
		if c.k.Fused() {
			want = gcmFusedBatch
		}
		for _, ns := range []int{1, 8, 12, 16, 32} {
			g := mustAEAD(t, aeadModes[0], c, ns, 16).(*gcm)
			if got := g.fusedRun(make([]byte, n), BlockSize); got != want {
				t.Errorf("%d-byte nonce, %d bytes: the fused kernel takes %d, want %d", ns, n, got, want)
			}
		}
	})
}

// TestGCMLengthsBlock checks the block of bit lengths that GHASH ends with
// (gcm.finish) for associated data and ciphertexts of 2^29 bytes and more,
// whose bit lengths need more than 32 bits, up to GCM's limits: no test
// hashes that much, so a length cut to 32 bits, or an int overflow on
// 32-bit platforms, would go unseen. The block is built here with
// math/big.
func TestGCMLengthsBlock(t *testing.T) {
	r := testRand(t)
	c := mustCipher(t, randBytes(r, 16), autoName())
	g := mustAEAD(t, aeadModes[0], c, 12, 16).(*gcm)
	for _, l := range [][2]int64{
		{0, 0}, {1 << 29, 0}, {0, 1 << 29}, {1<<29 - 1, 1<<29 + 1}, {1<<31 - 1, 1<<31 - 1},
		{1 << 32, 5}, {1<<61 - 1, gcmMaxPlaintext},
	} {
		adLen, ctLen := int(l[0]), int(l[1])
		if int64(adLen) != l[0] || int64(ctLen) != l[1] {
			continue // past this platform's int
		}
		var y, mask [BlockSize]byte
		copy(y[:], randBytes(r, BlockSize))
		copy(mask[:], randBytes(r, BlockSize))
		lens := new(big.Int).Lsh(big.NewInt(l[0]), 64+3)
		lens.Or(lens, new(big.Int).Lsh(big.NewInt(l[1]), 3))
		want := y
		ghash.Blocks(&g.key, &want, lens.FillBytes(make([]byte, BlockSize)))
		xorBlock(want[:], want[:], mask[:])
		if g.finish(&y, &mask, adLen, ctLen); y != want {
			t.Errorf("%d bytes of associated data, %d of ciphertext: tag %x, want %x", adLen, ctLen, y, want)
		}
	}
}

// TestCryptoCipherGCMHook checks that crypto/cipher's GCM constructors find
// Cipher.NewGCM and return this package's GCM.
func TestCryptoCipherGCMHook(t *testing.T) {
	c := mustCipher(t, make([]byte, 16), "generic")
	for name, f := range map[string]func() (cipher.AEAD, error){
		"NewGCM":              func() (cipher.AEAD, error) { return cipher.NewGCM(c) },
		"NewGCMWithNonceSize": func() (cipher.AEAD, error) { return cipher.NewGCMWithNonceSize(c, 16) },
		"NewGCMWithTagSize":   func() (cipher.AEAD, error) { return cipher.NewGCMWithTagSize(c, 12) },
	} {
		a, err := f()
		if err != nil {
			t.Fatalf("cipher.%s: %v", name, err)
		}
		if _, ok := a.(*gcm); !ok {
			t.Errorf("cipher.%s returned %T, not this package's GCM", name, a)
		}
	}
	if a, _ := cipher.NewGCMWithNonceSize(c, 16); a.NonceSize() != 16 || a.Overhead() != 16 {
		t.Errorf("NewGCMWithNonceSize(c, 16): NonceSize %d, Overhead %d", a.NonceSize(), a.Overhead())
	}
	if a, _ := cipher.NewGCMWithTagSize(c, 12); a.NonceSize() != 12 || a.Overhead() != 12 {
		t.Errorf("NewGCMWithTagSize(c, 12): NonceSize %d, Overhead %d", a.NonceSize(), a.Overhead())
	}
}

// TestAEADConstructorErrors checks the parameters each constructor
// refuses.
func TestAEADConstructorErrors(t *testing.T) {
	c := mustCipher(t, make([]byte, 16), "generic")
	d, _ := des.NewCipher(make([]byte, 8))
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"GCM tag 11", second(c.NewGCM(12, 11))},
		{"GCM tag 17", second(c.NewGCM(12, 17))},
		{"GCM nonce 0", second(c.NewGCM(0, 16))},
		{"GCM DES", second(NewGCM(d))},
		{"OCB nonce 0", second(NewOCB(c, 0, 16))},
		{"OCB nonce 16", second(NewOCB(c, 16, 16))},
		{"OCB tag 7", second(NewOCB(c, 12, 7))},
		{"OCB tag 17", second(NewOCB(c, 12, 17))},
		{"OCB DES", second(NewOCB(d, 12, 16))},
		{"EAX nonce 0", second(NewEAX(c, 0, 16))},
		{"EAX tag 7", second(NewEAX(c, 16, 7))},
		{"EAX tag 17", second(NewEAX(c, 16, 17))},
		{"EAX DES", second(NewEAX(d, 16, 16))},
	} {
		if tc.err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	for _, m := range aeadModes {
		for _, ns := range m.nonces {
			for _, ts := range m.tags {
				a := mustAEAD(t, m, c, ns, ts)
				if a.NonceSize() != ns || a.Overhead() != ts {
					t.Errorf("%s(%d, %d): NonceSize %d, Overhead %d", m.name, ns, ts, a.NonceSize(), a.Overhead())
				}
			}
		}
	}
}

func second(_ any, err error) error { return err }

// TestAEADImplementationsAgree seals the same messages with every
// implementation, and through a block that is not a *Cipher (one block at
// a time), and requires the same output; each opens what it sealed, in
// place and appending to a prefix.
func TestAEADImplementationsAgree(t *testing.T) {
	for _, m := range aeadModes {
		t.Run(m.name, func(t *testing.T) {
			forEachImpl(t, func(t *testing.T, impl Implementation) {
				r := testRand(t)
				for _, ks := range keySizes {
					key := randBytes(r, ks)
					c := mustCipher(t, key, impl.Name)
					for i, n := range aeadLengths() {
						ns, ts := m.nonces[i%len(m.nonces)], m.tags[i%len(m.tags)]
						ours := mustAEAD(t, m, c, ns, ts)
						ref := mustAEAD(t, m, wrap{mustCipher(t, key, "generic")}, ns, ts)
						nonce, pt, ad := randBytes(r, ns), randBytes(r, n), randBytes(r, r.IntN(3*BlockSize+5))
						if i%3 == 0 {
							ad = randBytes(r, n)
						}
						want := ref.Seal(nil, nonce, pt, ad)
						checkAEAD(t, fmt.Sprintf("%d-byte key, %d bytes, nonce %d, tag %d", ks, n, ns, ts), ours, nonce, pt, ad, want)
					}
				}
			})
		})
	}
}

// checkAEAD seals pt into fresh, prefixed and in-place buffers and checks
// each against want, then opens each way.
func checkAEAD(t *testing.T, what string, a cipher.AEAD, nonce, pt, ad, want []byte) {
	t.Helper()
	if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
		t.Fatalf("%s: Seal differs", what)
	}
	// Appending to a prefix, with and without spare capacity.
	prefix := []byte("prefix")
	got := a.Seal(append([]byte(nil), prefix...), nonce, pt, ad)
	if !bytes.Equal(got[:len(prefix)], prefix) || !bytes.Equal(got[len(prefix):], want) {
		t.Fatalf("%s: Seal appending to a prefix", what)
	}
	buf := make([]byte, len(prefix), len(prefix)+len(want)+10)
	copy(buf, prefix)
	got = a.Seal(buf, nonce, pt, ad)
	if &got[0] != &buf[0] || !bytes.Equal(got[len(prefix):], want) {
		t.Fatalf("%s: Seal into spare capacity", what)
	}
	// In place.
	inPlace := make([]byte, len(pt), len(want))
	copy(inPlace, pt)
	if got := a.Seal(inPlace[:0], nonce, inPlace, ad); !bytes.Equal(got, want) {
		t.Fatalf("%s: Seal in place", what)
	}
	back, err := a.Open(nil, nonce, want, ad)
	if err != nil || !bytes.Equal(back, pt) {
		t.Fatalf("%s: Open: %v", what, err)
	}
	back, err = a.Open(append([]byte(nil), prefix...), nonce, want, ad)
	if err != nil || !bytes.Equal(back[:len(prefix)], prefix) || !bytes.Equal(back[len(prefix):], pt) {
		t.Fatalf("%s: Open appending to a prefix: %v", what, err)
	}
	ct := append([]byte(nil), want...)
	back, err = a.Open(ct[:0], nonce, ct, ad)
	if err != nil || !bytes.Equal(back, pt) {
		t.Fatalf("%s: Open in place: %v", what, err)
	}
}

// TestAEADTamper changes each byte of the ciphertext, the tag, the nonce
// and the associated data in turn (by a random nonzero XOR): Open must
// fail, return nil, and leave zeros where it would have put the plaintext.
func TestAEADTamper(t *testing.T) {
	for _, m := range aeadModes {
		t.Run(m.name, func(t *testing.T) {
			r := testRand(t)
			c := mustCipher(t, randBytes(r, 32), autoName())
			for _, n := range []int{0, 1, 15, 16, 17, 33, 100} {
				for _, ns := range m.nonces[:2] {
					a := mustAEAD(t, m, c, ns, m.tags[0])
					nonce, pt, ad := randBytes(r, ns), randBytes(r, n), randBytes(r, r.IntN(40))
					ct := a.Seal(nil, nonce, pt, ad)
					try := func(what string, nonce, ct, ad []byte) {
						t.Helper()
						dst := make([]byte, 3, 3+len(ct))
						copy(dst, "abc")
						full := dst[:cap(dst)]
						for i := 3; i < len(full); i++ {
							full[i] = 0x55
						}
						out, err := a.Open(dst, nonce, ct, ad)
						if err == nil || out != nil {
							t.Fatalf("%d bytes: Open accepted a message with %s changed", n, what)
						}
						if err.Error() != "cipher: message authentication failed" {
							t.Fatalf("Open: %v", err)
						}
						for i, b := range full[3 : 3+max(len(ct)-a.Overhead(), 0)] {
							if b != 0 && b != 0x55 {
								t.Fatalf("%d bytes, %s changed: plaintext byte %d left in dst after a failed Open", n, what, i)
							}
						}
					}
					flip := func(b []byte, i int) []byte {
						b = append([]byte(nil), b...)
						b[i] ^= byte(1 + r.IntN(255))
						return b
					}
					for i := range ct {
						what := "ciphertext"
						if i >= n {
							what = "tag"
						}
						try(fmt.Sprintf("%s byte %d", what, i), nonce, flip(ct, i), ad)
					}
					for i := range nonce {
						try(fmt.Sprintf("nonce byte %d", i), flip(nonce, i), ct, ad)
					}
					for i := range ad {
						try(fmt.Sprintf("associated data byte %d", i), nonce, ct, flip(ad, i))
					}
					try("the length of the associated data", nonce, ct, append(ad, 0))
					if len(ct) > a.Overhead() {
						try("the length of the ciphertext", nonce, ct[1:], ad)
					}
					if _, err := a.Open(nil, nonce, ct[:a.Overhead()-1], ad); err == nil {
						t.Fatal("Open accepted a ciphertext shorter than the tag")
					}
				}
			}
		})
	}
}

// TestAEADOpenWipes checks what a failed Open leaves in dst, for every
// tag size and lengths from none to a run of the fused kernels: dst's
// bytes before the output untouched, and the output zeroed, as
// crypto/cipher's GCM leaves it, by GCM and OCB, which decrypt before they
// know the tag is wrong, and untouched by EAX, which checks the tag first.
// In place, the plaintext GCM and OCB wrote over the ciphertext is zeroed
// too.
func TestAEADOpenWipes(t *testing.T) {
	for _, m := range aeadModes {
		r := testRand(t)
		c := mustCipher(t, randBytes(r, 16), autoName())
		for _, ts := range m.tags {
			a := mustAEAD(t, m, c, m.nonces[0], ts)
			for _, n := range []int{0, 1, 15, 16, 17, 1000, 130*BlockSize + 5} {
				what := fmt.Sprintf("%s, %d-byte tag, %d bytes", m.name, ts, n)
				nonce, pt := randBytes(r, m.nonces[0]), randBytes(r, n)
				ct := a.Seal(nil, nonce, pt, nil)
				ct[len(ct)-1] ^= 1
				const prefix = "kept"
				dst := bytes.Repeat([]byte{0xAA}, len(prefix)+n)
				copy(dst, prefix)
				if _, err := a.Open(dst[:len(prefix)], nonce, ct, nil); err == nil {
					t.Fatalf("%s: Open accepted a bad tag", what)
				}
				want := bytes.Repeat([]byte{0}, n)
				if m.name == "EAX" {
					want = bytes.Repeat([]byte{0xAA}, n)
				}
				if string(dst[:len(prefix)]) != prefix || !bytes.Equal(dst[len(prefix):], want) {
					t.Fatalf("%s: a failed Open leaves dst %x, want %q then %x", what, dst, prefix, want)
				}
				if _, err := a.Open(ct[:0], nonce, ct, nil); err == nil {
					t.Fatalf("%s: in-place Open accepted a bad tag", what)
				}
				if m.name != "EAX" && !bytes.Equal(ct[:n], want) {
					t.Fatalf("%s: in-place Open left data behind after a bad tag", what)
				}
			}
		}
	}
}

// panicBlock is a cipher.Block that panics once it has encrypted or
// decrypted left blocks (never if left is negative), as a caller's Block
// may.
type panicBlock struct {
	b    cipher.Block
	left *int
}

func (p panicBlock) BlockSize() int          { return p.b.BlockSize() }
func (p panicBlock) Encrypt(dst, src []byte) { p.spend(); p.b.Encrypt(dst, src) }
func (p panicBlock) Decrypt(dst, src []byte) { p.spend(); p.b.Decrypt(dst, src) }

func (p panicBlock) spend() {
	if *p.left == 0 {
		panic("panicBlock: out of blocks")
	}
	if *p.left > 0 {
		*p.left--
	}
}

// TestAEADOpenWipesOnPanic checks that an Open of a forged message that a
// panic of the caller's Block ends before the verdict leaves no plaintext
// in dst, as a wrong tag does: none may stay behind for a caller that
// recovers.
func TestAEADOpenWipesOnPanic(t *testing.T) {
	r := testRand(t)
	c := mustCipher(t, randBytes(r, 16), "generic")
	for _, m := range aeadModes {
		left := -1
		a := mustAEAD(t, m, panicBlock{c, &left}, m.nonces[0], m.tags[0])
		nonce, pt := randBytes(r, m.nonces[0]), randBytes(r, 4096)
		ct := a.Seal(nil, nonce, pt, nil)
		ct[len(ct)-1] ^= 1
		// calls is how many blocks a whole Open takes.
		left = 1 << 30
		if _, err := a.Open(nil, nonce, ct, nil); err == nil {
			t.Fatalf("%s: Open accepted a bad tag", m.name)
		}
		calls := 1<<30 - left
		for _, budget := range []int{1, calls / 4, calls / 2, calls - 1} {
			left = budget
			dst := make([]byte, 0, len(pt))
			func() {
				defer func() {
					if recover() == nil {
						t.Fatalf("%s: Open with %d of its %d blocks did not panic", m.name, budget, calls)
					}
				}()
				a.Open(dst, nonce, ct, nil)
			}()
			out := dst[:len(pt)]
			for i := 0; i < len(pt); i += BlockSize {
				if bytes.Equal(out[i:i+BlockSize], pt[i:i+BlockSize]) {
					t.Fatalf("%s: a panic after %d of Open's %d blocks left plaintext block %d in dst", m.name, budget, calls, i/BlockSize)
				}
			}
		}
	}
}

// TestAEADMisuse checks the panics of Seal and Open, with crypto/cipher's
// messages.
func TestAEADMisuse(t *testing.T) {
	c := mustCipher(t, make([]byte, 16), "generic")
	const (
		overlapIn = "crypto/cipher: invalid buffer overlap of output and input"
		overlapAD = "crypto/cipher: invalid buffer overlap of output and additional data"
	)
	for _, m := range aeadModes {
		t.Run(m.name, func(t *testing.T) {
			a := mustAEAD(t, m, c, m.nonces[0], m.tags[0])
			nonce := make([]byte, a.NonceSize())
			wrongNonce := "crypto/cipher: incorrect nonce length given to " + m.name
			expectPanic(t, wrongNonce, func() { a.Seal(nil, nonce[1:], nil, nil) })
			expectPanic(t, wrongNonce, func() { a.Seal(nil, append(nonce, 0), nil, nil) })
			expectPanic(t, wrongNonce, func() { a.Open(nil, nonce[1:], make([]byte, 32), nil) })
			expectPanic(t, wrongNonce, func() { a.Open(nil, append(nonce, 0), make([]byte, 32), nil) })
			buf := make([]byte, 200)
			// Output one byte after the input: inexact overlap.
			expectPanic(t, overlapIn, func() { a.Seal(buf[1:1], nonce, buf[:64], nil) })
			expectPanic(t, overlapIn, func() { a.Seal(buf[:0], nonce, buf[1:65], nil) })
			// Output over the associated data.
			expectPanic(t, overlapAD, func() { a.Seal(buf[:0], nonce, buf[:64], buf[70:80]) })
			// Even exactly, from its first byte: any overlap.
			expectPanic(t, overlapAD, func() { a.Seal(buf[100:100], nonce, buf[:64], buf[100:110]) })
			ct := a.Seal(nil, nonce, make([]byte, 64), nil)
			copy(buf, ct)
			expectPanic(t, overlapIn, func() { a.Open(buf[1:1], nonce, buf[:len(ct)], nil) })
			expectPanic(t, overlapAD, func() { a.Open(buf[:0], nonce, buf[:len(ct)], buf[10:20]) })
			expectPanic(t, overlapAD, func() { a.Open(buf[100:100], nonce, buf[:len(ct)], buf[100:110]) })
			// With dst's capacity exactly what the plaintext needs, Open
			// writes within dst's array too. The tag is right this time
			// (the associated data is what it was sealed with), so only the
			// overlap checks stop Open, before it writes anything.
			ad := bytes.Repeat([]byte{0xa5}, 10)
			ct = a.Seal(nil, nonce, make([]byte, 64), ad)
			for _, tc := range []struct {
				want string
				at   int // where the sealed message lies; its associated data lies at 100
				dst  func(buf []byte) []byte
			}{
				{overlapIn, 0, func(buf []byte) []byte { return buf[1:1:65] }},
				{overlapAD, 0, func(buf []byte) []byte { return buf[100:100:164] }},
				{overlapAD, 120, func(buf []byte) []byte { return buf[40:40:104] }},
			} {
				buf := make([]byte, 200)
				copy(buf[tc.at:], ct)
				copy(buf[100:], ad)
				before := bytes.Clone(buf)
				expectPanic(t, tc.want, func() { a.Open(tc.dst(buf), nonce, buf[tc.at:tc.at+len(ct)], buf[100:110]) })
				if !bytes.Equal(buf, before) {
					t.Errorf("Open into %d bytes of capacity wrote to its buffers before it panicked", cap(tc.dst(buf)))
				}
			}
			copy(buf, ct)
			copy(buf[100:], ad)
			if got, err := a.Open(buf[:0:64], nonce, buf[:len(ct)], buf[100:110]); err != nil || &got[0] != &buf[0] || !bytes.Equal(got, make([]byte, 64)) {
				t.Fatalf("in-place Open into exactly the room needed: %x, %v", got, err)
			}
			// In place is fine; so is associated data right after the output.
			a.Seal(buf[:0], nonce, buf[:64], buf[64+a.Overhead():100])
			if _, err := a.Open(buf[:0], nonce, buf[:64+a.Overhead()], buf[64+a.Overhead():100]); err != nil {
				t.Fatalf("in-place Open: %v", err)
			}
		})
	}
	if ^uint(0)>>32 != 0 && !raceEnabled {
		// A slice longer than GCM allows, never read: Seal checks the
		// length first. (-race turns on checkptr, which refuses it.)
		var b byte
		limit := uint64(gcmMaxPlaintext) // a variable: the constant overflows int on 32-bit platforms
		huge := unsafe.Slice(&b, limit+1)
		g := mustAEAD(t, aeadModes[0], c, 12, 16)
		expectPanic(t, "crypto/cipher: message too large for GCM", func() { g.Seal(nil, make([]byte, 12), huge, nil) })
		if _, err := g.Open(nil, make([]byte, 12), unsafe.Slice(&b, limit+17), nil); err == nil {
			t.Error("Open accepted a message longer than GCM allows")
		}
	}
}

// TestAEADAllocations checks that Seal and Open allocate nothing when dst
// has room, with a *Cipher.
func TestAEADAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	c := mustCipher(t, make([]byte, 32), autoName())
	for _, m := range aeadModes {
		a := mustAEAD(t, m, c, m.nonces[0], m.tags[0])
		nonce, ad := make([]byte, a.NonceSize()), make([]byte, 20)
		for _, n := range []int{0, 15, 1000, 8192 + 7} {
			pt := make([]byte, n)
			buf := make([]byte, 0, n+a.Overhead())
			ct := a.Seal(nil, nonce, pt, ad)
			if allocs := testing.AllocsPerRun(10, func() { a.Seal(buf, nonce, pt, ad) }); allocs != 0 {
				t.Errorf("%s Seal, %d bytes: %v allocations", m.name, n, allocs)
			}
			if allocs := testing.AllocsPerRun(10, func() { a.Open(buf, nonce, ct, ad) }); allocs != 0 {
				t.Errorf("%s Open, %d bytes: %v allocations", m.name, n, allocs)
			}
			bad := append([]byte(nil), ct...)
			bad[0] ^= 1
			if allocs := testing.AllocsPerRun(10, func() { a.Open(buf, nonce, bad, ad) }); allocs != 0 {
				t.Errorf("%s failed Open, %d bytes: %v allocations", m.name, n, allocs)
			}
			// EAX checks the tag before it decrypts: a forged message
			// needs no output, so it allocates none, even with no dst.
			if allocs := testing.AllocsPerRun(10, func() { a.Open(nil, nonce, bad, ad) }); m.name == "EAX" && allocs != 0 {
				t.Errorf("%s failed Open, %d bytes, no dst: %v allocations", m.name, n, allocs)
			}
		}
	}
}

// TestAEADOtherBlocks runs the modes over AES: GCM against crypto/cipher's
// AES-GCM, OCB against RFC 7253's vectors, EAX against the EAX paper's.
func TestAEADOtherBlocks(t *testing.T) {
	r := testRand(t)
	for n := range 100 {
		a, _ := aes.NewCipher(randBytes(r, 32))
		ref, _ := cipher.NewGCMWithNonceSize(a, 13)
		ours := mustAEAD(t, aeadModes[0], a, 13, 16)
		nonce, pt, ad := randBytes(r, 13), randBytes(r, 7*n), randBytes(r, n)
		checkAEAD(t, fmt.Sprintf("AES-GCM, %d bytes", 7*n), ours, nonce, pt, ad, ref.Seal(nil, nonce, pt, ad))
	}
}

func unhex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// TestOCBRFC7253 runs the AES vectors of RFC 7253, appendix A, through
// NewOCB over crypto/aes: the construction (offsets, the nonce's stretch,
// the checksum, HASH and the tag-length bits of the nonce block) is the
// same for Twofish, which libgcrypt_aead_test.go checks with libgcrypt.
func TestOCBRFC7253(t *testing.T) {
	// The iterated test of appendix A covers empty and non-empty
	// messages and associated data of every length from 0 to 127 bytes.
	for _, tc := range []struct {
		keyLen, tagLen int
		want           string
	}{
		{128, 128, "67E944D23256C5E0B6C61FA22FDF1EA2"},
		{192, 128, "F673F2C3E7174AAE7BAE986CA9F29E17"},
		{256, 128, "D90EB8E9C977C88B79DD793D7FFA161C"},
		{128, 96, "77A3D8E73589158D25D01209"},
		{192, 96, "05D56EAD2752C86BE6932C5E"},
		{256, 96, "5458359AC23B0CBA9E6330DD"},
		{128, 64, "192C9B7BD90BA06A"},
		{192, 64, "0066BC6E0EF34E24"},
		{256, 64, "7D4EA5D445501CBE"},
	} {
		key := make([]byte, tc.keyLen/8)
		key[len(key)-1] = byte(tc.tagLen)
		b, _ := aes.NewCipher(key)
		o, err := NewOCB(b, 12, tc.tagLen/8)
		if err != nil {
			t.Fatal(err)
		}
		var c []byte
		nonce := func(i int) []byte {
			n := make([]byte, 12)
			binary.BigEndian.PutUint32(n[8:], uint32(i))
			return n
		}
		for i := range 128 {
			s := make([]byte, i)
			c = o.Seal(c, nonce(3*i+1), s, s)
			c = o.Seal(c, nonce(3*i+2), s, nil)
			c = o.Seal(c, nonce(3*i+3), nil, s)
		}
		if got := o.Seal(nil, nonce(385), nil, c); !bytes.Equal(got, unhex(tc.want)) {
			t.Errorf("AES-%d, %d-bit tag: %X, want %s", tc.keyLen, tc.tagLen, got, tc.want)
		}
	}
	// The 96-bit tag example of appendix A.
	b, _ := aes.NewCipher(unhex("0F0E0D0C0B0A09080706050403020100"))
	o, _ := NewOCB(b, 12, 12)
	data := unhex("000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F2021222324252627")
	nonce := unhex("BBAA9988776655443322110D")
	want := unhex("1792A4E31E0755FB03E31B22116E6C2DDF9EFD6E33D536F1A0124B0A55BAE884ED93481529C76B6AD0C515F4D1CDD4FDAC4F02AA")
	checkAEAD(t, "RFC 7253 96-bit tag example", o, nonce, data, data, want)
}

// TestEAXVectors runs the AES vectors of the EAX paper (Bellare, Rogaway,
// Wagner, appendix E) through NewEAX over crypto/aes.
func TestEAXVectors(t *testing.T) {
	for _, v := range []struct{ msg, key, nonce, header, out string }{
		{"", "233952DEE4D5ED5F9B9C6D6FF80FF478", "62EC67F9C3A4A407FCB2A8C49031A8B3", "6BFB914FD07EAE6B",
			"E037830E8389F27B025A2D6527E79D01"},
		{"F7FB", "91945D3F4DCBEE0BF45EF52255F095A4", "BECAF043B0A23D843194BA972C66DEBD", "FA3BFD4806EB53FA",
			"19DD5C4C9331049D0BDAB0277408F67967E5"},
		{"1A47CB4933", "01F74AD64077F2E704C0F60ADA3DD523", "70C3DB4F0D26368400A10ED05D2BFF5E", "234A3463C1264AC6",
			"D851D5BAE03A59F238A23E39199DC9266626C40F80"},
		{"481C9E39B1", "D07CF6CBB7F313BDDE66B727AFD3C5E8", "8408DFFF3C1A2B1292DC199E46B7D617", "33CCE2EABFF5A79D",
			"632A9D131AD4C168A4225D8E1FF755939974A7BEDE"},
		{"8B0A79306C9CE7ED99DAE4F87F8DD61636", "7C77D6E813BED5AC98BAA417477A2E7D", "1A8C98DCD73D38393B2BF1569DEEFC19",
			"65D2017990D62528", "02083E3979DA014812F59F11D52630DA30137327D10649B0AA6E1C181DB617D7F2"},
	} {
		b, _ := aes.NewCipher(unhex(v.key))
		e, err := NewEAX(b, 16, 16)
		if err != nil {
			t.Fatal(err)
		}
		checkAEAD(t, "EAX vector "+v.out, e, unhex(v.nonce), unhex(v.msg), unhex(v.header), unhex(v.out))
	}
}

// TestOpenPGPAEADSamples runs the first chunk of the sample AEAD-EAX and
// AEAD-OCB encryptions of OpenPGP (RFC 9580, appendix A, as in the
// rfc4880bis drafts before it; AES-128, 16-byte tags) through NewEAX and
// NewOCB over
// crypto/aes: the only vectors of the default run with OpenPGP's 15-byte
// OCB nonce (the nonce block's 1 bit then goes in its first byte, with
// the tag length), and with an EAX header that is not 8 bytes;
// libgcrypt_aead_test.go covers these sizes only with libgcrypt.
func TestOpenPGPAEADSamples(t *testing.T) {
	for _, v := range []struct {
		name                        string
		new                         func(cipher.Block, int, int) (cipher.AEAD, error)
		key, nonce, ad, pt, ct, tag string
	}{
		{"EAX", NewEAX, "86f1efb86952329f24acd3bfd0e5346d", "b732379f73c4928de25facfe6517ec10", "d40107010e0000000000000000",
			"cb1462000000000048656c6c6f2c20776f726c64210a", "5dc11a81dc0cb8a2f6f3d90016384a56fc821ae11ae8", "dbcb49862655dea88d06a81486801b0f"},
		{"OCB", NewOCB, "d1f01ba30e130aa7d2582c16e050ae44", "5ed2bc1e470abe8f1d644c7a6c8a56", "d40107020e0000000000000000",
			"cb1462000000000048656c6c6f2c20776f726c64210a", "7b0f7701196611a154ba9c2574cd056284a8ef68035c", "623d93cc708a43211bb6eaf2b27f7c18"},
	} {
		b, _ := aes.NewCipher(unhex(v.key))
		nonce := unhex(v.nonce)
		a, err := v.new(b, len(nonce), 16)
		if err != nil {
			t.Fatal(err)
		}
		checkAEAD(t, "OpenPGP AEAD-"+v.name+" sample", a, nonce, unhex(v.pt), unhex(v.ad), unhex(v.ct+v.tag))
	}
}

// TestEAXCounterCarries runs EAX's counter mode (eax.ctr) from counters
// whose low 64 bits, or all 128, wrap within the message, across its
// batches and groups, against crypto/cipher's CTR over the same block: the
// counter starts at OMAC's output, so random nonces all but never reach
// the carry.
func TestEAXCounterCarries(t *testing.T) {
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		c := mustCipher(t, randBytes(r, 16), impl.Name)
		e := mustAEAD(t, aeadModes[2], c, 16, 16).(*eax)
		for _, iv := range []string{
			"0123456789abcdefffffffffffffffff", // carries into the high word at once
			"0123456789abcdeffffffffffffffff0", // after 16 blocks
			"0123456789abcdefffffffffffffff80", // after 128 blocks, as the second batch starts
			"fffffffffffffffffffffffffffffffd", // wraps modulo 2^128
		} {
			var n [BlockSize]byte
			copy(n[:], unhex(iv))
			src := randBytes(r, 3*streamBatch+37)
			got := make([]byte, len(src))
			e.ctr(got, src, &n)
			want := make([]byte, len(src))
			cipher.NewCTR(wrap{c}, n[:]).XORKeyStream(want, src)
			if !bytes.Equal(got, want) {
				t.Fatalf("counter from %s: key stream differs from crypto/cipher's CTR", iv)
			}
		}
	})
}

// TestAEADConcurrent shares one AEAD of each mode between goroutines.
func TestAEADConcurrent(t *testing.T) {
	r := testRand(t)
	c := mustCipher(t, randBytes(r, 32), autoName())
	for _, m := range aeadModes {
		a := mustAEAD(t, m, c, m.nonces[0], m.tags[0])
		nonce, pt := randBytes(r, m.nonces[0]), randBytes(r, 5000)
		want := a.Seal(nil, nonce, pt, nonce)
		done := make(chan bool)
		for range 8 {
			go func() {
				ok := true
				for range 20 {
					got := a.Seal(nil, nonce, pt, nonce)
					back, err := a.Open(nil, nonce, got, nonce)
					ok = ok && bytes.Equal(got, want) && err == nil && bytes.Equal(back, pt)
				}
				done <- ok
			}()
		}
		for range 8 {
			if !<-done {
				t.Errorf("%s: concurrent use gave a wrong answer", m.name)
			}
		}
	}
}

// ocbReference is RFC 7253's pseudocode written out block by block with
// any cipher.Block, independent of ocb.go: no tables, no groups, the
// stretch shifted with math/big.
func ocbReference(b cipher.Block, tagSize int, nonce, p, a []byte) []byte {
	enc := func(x []byte) []byte {
		y := make([]byte, BlockSize)
		b.Encrypt(y, x)
		return y
	}
	xor := func(x, y []byte) []byte {
		z := make([]byte, len(x))
		for i := range z {
			z[i] = x[i] ^ y[i]
		}
		return z
	}
	double := func(s []byte) []byte {
		d := make([]byte, BlockSize)
		for i := range BlockSize - 1 {
			d[i] = s[i]<<1 | s[i+1]>>7
		}
		d[15] = s[15] << 1
		if s[0]&0x80 != 0 {
			d[15] ^= 0x87
		}
		return d
	}
	ntz := func(i int) int {
		n := 0
		for ; i%2 == 0; i /= 2 {
			n++
		}
		return n
	}
	lStar := enc(make([]byte, BlockSize))
	lDollar := double(lStar)
	l := func(i int) []byte {
		x := double(lDollar)
		for ; i > 0; i-- {
			x = double(x)
		}
		return x
	}
	pad := func(x []byte) []byte {
		y := make([]byte, BlockSize)
		copy(y, x)
		y[len(x)] = 0x80
		return y
	}

	// HASH(K, A).
	sum, off := make([]byte, BlockSize), make([]byte, BlockSize)
	i := 1
	for ; len(a) >= BlockSize; a, i = a[BlockSize:], i+1 {
		off = xor(off, l(ntz(i)))
		sum = xor(sum, enc(xor(a[:BlockSize], off)))
	}
	if len(a) > 0 {
		off = xor(off, lStar)
		sum = xor(sum, enc(xor(pad(a), off)))
	}
	hash := sum

	n := make([]byte, BlockSize)
	n[0] = byte(tagSize * 8 % 128 << 1)
	n[BlockSize-1-len(nonce)] |= 1
	copy(n[BlockSize-len(nonce):], nonce)
	bottom := uint(n[15] & 63)
	n[15] &^= 63
	ktop := enc(n)
	stretch := new(big.Int).SetBytes(append(ktop, xor(ktop[:8], ktop[1:9])...))
	stretch.Rsh(stretch, 64-bottom)
	off = stretch.FillBytes(make([]byte, 24))[8:] // the low 128 bits

	var c []byte
	checksum := make([]byte, BlockSize)
	for i = 1; len(p) >= BlockSize; p, i = p[BlockSize:], i+1 {
		off = xor(off, l(ntz(i)))
		c = append(c, xor(off, enc(xor(p[:BlockSize], off)))...)
		checksum = xor(checksum, p[:BlockSize])
	}
	if len(p) > 0 {
		off = xor(off, lStar)
		c = append(c, xor(p, enc(off)[:len(p)])...)
		checksum = xor(checksum, pad(p))
	}
	tag := xor(enc(xor(xor(checksum, off), lDollar)), hash)
	return append(c, tag[:tagSize]...)
}

// TestOCBAgainstReference compares OCB with ocbReference for every
// implementation, up to several hundred groups of 64 blocks, so that the
// offsets of every group's last block (ntz up to 6+8) are checked.
func TestOCBAgainstReference(t *testing.T) {
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		lengths := []int{0, 1, 16, 1023, 1024, 1025, 2048 + 17, 4096, 65536 + 33}
		if exhaustive() && impl.Name != "generic-ct" {
			lengths = append(lengths, 64*1024*16+5, 300*1024+48)
		}
		for i, n := range lengths {
			c := mustCipher(t, randBytes(r, keySizes[i%3]), impl.Name)
			ns, ts := []int{12, 15, 1}[i%3], []int{16, 12, 8}[i%3]
			o := mustAEAD(t, aeadModes[1], c, ns, ts)
			nonce, pt, ad := randBytes(r, ns), randBytes(r, n), randBytes(r, n/3+i)
			want := ocbReference(wrap{c}, ts, nonce, pt, ad)
			if got := o.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
				t.Fatalf("%d bytes, %d of associated data: differs from the RFC 7253 reference", n, len(ad))
			}
			if back, err := o.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(back, pt) {
				t.Fatalf("%d bytes: Open: %v", n, err)
			}
		}
	})
}

// TestOCBTagSizes compares OCB with ocbReference at every tag size it
// takes, 8 to 16 bytes: the size is coded in the nonce's block, so a size
// coded wrongly changes every byte of the output, where libgcrypt makes
// only tags of 8, 12 and 16 bytes to compare with.
func TestOCBTagSizes(t *testing.T) {
	r := testRand(t)
	def, err := NewCipher(randBytes(r, 32))
	if err != nil {
		t.Fatal(err)
	}
	for impl, c := range map[string]*Cipher{"NewCipher": def, "generic": mustCipher(t, randBytes(r, 32), "generic")} {
		for ts := 8; ts <= 16; ts++ {
			for _, ns := range []int{1, 12, 15} {
				o := mustAEAD(t, aeadModes[1], c, ns, ts)
				for _, n := range []int{0, 17, 1024 + 5} {
					nonce, pt, ad := randBytes(r, ns), randBytes(r, n), randBytes(r, 7)
					if got, want := o.Seal(nil, nonce, pt, ad), ocbReference(wrap{c}, ts, nonce, pt, ad); !bytes.Equal(got, want) {
						t.Fatalf("%s: %d-byte tag, %d-byte nonce, %d bytes: differs from the RFC 7253 reference", impl, ts, ns, n)
					}
				}
			}
		}
	}
}

// TestOCBPartialLastAD compares OCB with ocbReference for associated data
// of every number of whole blocks up to two groups of 64 and a few more,
// each with a partial last block (and none, as the control), which the
// kernels that apply the offsets take as one more whole block; sealed and
// opened with no message, and with one whose partial last block's pad
// rides along with the associated data's last blocks in Open.
func TestOCBPartialLastAD(t *testing.T) {
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		c := mustCipher(t, randBytes(r, 32), impl.Name)
		o := mustAEAD(t, aeadModes[1], c, 12, 16)
		for blocks := 0; blocks <= 2*ocbGroup+3; blocks++ {
			for _, rest := range []int{0, 1, 15} {
				for _, n := range []int{0, 21} {
					nonce, pt, ad := randBytes(r, 12), randBytes(r, n), randBytes(r, blocks*BlockSize+rest)
					want := ocbReference(wrap{c}, 16, nonce, pt, ad)
					if got := o.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
						t.Fatalf("%d bytes, %d of associated data: differs from the RFC 7253 reference", n, len(ad))
					}
					if back, err := o.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(back, pt) {
						t.Fatalf("%d bytes, %d of associated data: Open: %v", n, len(ad), err)
					}
				}
			}
		}
	})
}

// TestOCBKtopCache shares one OCB between goroutines that seal with nonces
// which share their Ktop in runs and differ from each other, so that the
// cache of ocb.go is read and written at once; every answer must match
// one computed beforehand without the cache's help. Run it under -race.
func TestOCBKtopCache(t *testing.T) {
	r := testRand(t)
	c := mustCipher(t, randBytes(r, 16), autoName())
	o := mustAEAD(t, aeadModes[1], c, 12, 16)
	type job struct{ nonce, want []byte }
	var jobs []job
	pt := randBytes(r, 100)
	for i := range 64 {
		nonce := randBytes(r, 12)
		nonce[11] = byte(i) // the same prefix in runs, other bottoms
		if i%8 == 0 {
			nonce[0] ^= 1
		}
		jobs = append(jobs, job{nonce, ocbReference(wrap{c}, 16, nonce, pt, nil)})
	}
	done := make(chan string)
	for w := range 8 {
		go func() {
			for k := range 300 {
				j := jobs[(k*7+w*13)%len(jobs)]
				if got := o.Seal(nil, j.nonce, pt, nil); !bytes.Equal(got, j.want) {
					done <- fmt.Sprintf("nonce %x: wrong ciphertext under concurrent use", j.nonce)
					return
				}
			}
			done <- ""
		}()
	}
	for range 8 {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
}

// countingBlock is a cipher.Block that counts its Encrypt calls.
type countingBlock struct {
	cipher.Block
	encrypts int
}

func (b *countingBlock) Encrypt(dst, src []byte) {
	b.encrypts++
	b.Block.Encrypt(dst, src)
}

// TestOCBKtopCacheSavesEncryption checks that the Ktop cache is used: an
// empty message costs two block encryptions (Ktop and the tag) with a new
// nonce block, and one (the tag) with a nonce that differs from the last
// one only in its bottom six bits, as RFC 7253 suggests.
func TestOCBKtopCacheSavesEncryption(t *testing.T) {
	r := testRand(t)
	for _, nonceSize := range []int{12, 15, 1} {
		b := &countingBlock{Block: mustCipher(t, randBytes(r, 16), autoName())}
		o := mustAEAD(t, aeadModes[1], b, nonceSize, 16)
		nonce := randBytes(r, nonceSize)
		nonce[0] ^= 0x40 // a nonce block other than the one NewOCB may leave
		for _, tc := range []struct {
			what   string
			change func()
			want   int
		}{
			{"a new nonce block", func() { nonce[nonceSize-1] &^= 63 }, 2},
			{"the same Ktop, bottom 1", func() { nonce[nonceSize-1] |= 1 }, 1},
			{"the same Ktop, bottom 63", func() { nonce[nonceSize-1] |= 63 }, 1},
			{"another Ktop", func() { nonce[nonceSize-1] ^= 64 }, 2},
			{"that Ktop again, bottom 0", func() { nonce[nonceSize-1] &^= 63 }, 1},
		} {
			tc.change()
			b.encrypts = 0
			o.Seal(nil, nonce, nil, nil)
			if b.encrypts != tc.want {
				t.Fatalf("nonce size %d, %s (nonce %x): Seal of an empty message made %d block encryptions, want %d", nonceSize, tc.what, nonce, b.encrypts, tc.want)
			}
		}
	}
}

// TestAEADAllocationsOtherBlocks checks that a block that is not a
// *Cipher, which goes a block at a time, allocates nothing either once
// warm.
func TestAEADAllocationsOtherBlocks(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	b, _ := aes.NewCipher(make([]byte, 16))
	for _, m := range aeadModes {
		a := mustAEAD(t, m, b, m.nonces[0], m.tags[0])
		nonce, pt := make([]byte, a.NonceSize()), make([]byte, 1000)
		buf := make([]byte, 0, len(pt)+a.Overhead())
		if allocs := testing.AllocsPerRun(10, func() { a.Seal(buf, nonce, pt, nonce) }); allocs != 0 {
			t.Errorf("%s over AES: %v allocations", m.name, allocs)
		}
	}
}
