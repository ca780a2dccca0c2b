package ghash

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/gf128"
)

// forEachGHASH runs f for every GHASH implementation of this build. One
// this CPU cannot run is skipped with its name, unless the comma-separated
// list TWOFISH_TEST_REQUIRE_GHASH (set by CI, like TWOFISH_TEST_REQUIRE for
// the kernels) names it.
func forEachGHASH(t *testing.T, f func(t *testing.T, g ghashImplInfo)) {
	for _, g := range ghashImplementations() {
		t.Run(g.name, func(t *testing.T) {
			if !g.supported {
				if slices.Contains(requiredGHASH(), g.name) {
					t.Fatalf("GHASH implementation %s is required by TWOFISH_TEST_REQUIRE_GHASH but not supported on this CPU", g.name)
				}
				t.Skipf("GHASH implementation %s is not supported on this CPU", g.name)
			}
			f(t, g)
		})
	}
}

// TestGHASHImplementationsDistinct checks that each GHASH implementation
// internal/cpu names runs code of its own: a name that ran another's code
// would pass its tests on that code and leave its own untested.
func TestGHASHImplementationsDistinct(t *testing.T) {
	seen := map[ghashImpl]string{}
	for _, g := range ghashImplementations() {
		if other, ok := seen[g.impl]; ok {
			t.Errorf("GHASH implementation %s runs the code of %s", g.name, other)
		}
		seen[g.impl] = g.name
	}
}

func requiredGHASH() []string {
	if env := os.Getenv("TWOFISH_TEST_REQUIRE_GHASH"); env != "" {
		return strings.Split(env, ",")
	}
	return nil
}

// TestRequiredGHASH fails if TWOFISH_TEST_REQUIRE_GHASH names a GHASH
// implementation that this build lacks or this CPU cannot run.
func TestRequiredGHASH(t *testing.T) {
	names := requiredGHASH()
	if names == nil {
		t.Skip("TWOFISH_TEST_REQUIRE_GHASH is not set")
	}
	for _, name := range names {
		i := slices.IndexFunc(ghashImplementations(), func(g ghashImplInfo) bool { return g.name == name })
		switch {
		case i < 0:
			t.Errorf("TWOFISH_TEST_REQUIRE_GHASH names %q, which this build does not have", name)
		case !ghashImplementations()[i].supported:
			t.Errorf("TWOFISH_TEST_REQUIRE_GHASH names %q, which this CPU does not support", name)
		}
	}
}

// TestGHASHNames checks that every GHASH option of internal/cpu but the
// portable one names assembly of this build, so that no misspelt name runs
// the portable code under an assembly implementation's name.
func TestGHASHNames(t *testing.T) {
	for _, g := range ghashImplementations() {
		if (g.impl == ghashGeneric) != (g.name == "generic") {
			t.Errorf("GHASH option %q resolves to implementation %d", g.name, g.impl)
		}
	}
}

// feMulRef multiplies in GF(2^128) bit by bit, straight from the
// definition in NIST SP 800-38D (algorithm 1, gf128.Elem.Mul): the
// reference for the portable and assembly code.
func feMulRef(x, y fe) fe {
	elem := func(a fe) (e gf128.Elem) {
		a.put(e[:])
		return e
	}
	z := elem(x).Mul(elem(y))
	return loadFE(z[:])
}

func TestFieldMultiply(t *testing.T) {
	r := testRand(t)
	one := fe{1 << 63, 0}
	for i := range 2000 {
		a, b := fe{r.Uint64(), r.Uint64()}, fe{r.Uint64(), r.Uint64()}
		switch i {
		case 0:
			a = one
		case 1:
			b = fe{}
		case 2:
			a, b = fe{^uint64(0), ^uint64(0)}, fe{^uint64(0), ^uint64(0)}
		}
		if got, want := feMul(a, b), feMulRef(a, b); got != want {
			t.Fatalf("%x · %x = %x, want %x", a, b, got, want)
		}
	}
	if got := feMul(one, fe{0, 1}); got != (fe{0, 1}) {
		t.Errorf("1 · x^127 = %x", got)
	}
	// x⁻¹ · x = 1.
	if got := feMul(fe{1 << 63, 0}.divX(), fe{1 << 62, 0}); got != one {
		t.Errorf("x⁻¹ · x = %x, want 1", got)
	}
}

// TestClmul64 checks the carry-less multiplication with holes against
// plain shift-and-add, including the all-ones operands that fill
// every column.
func TestClmul64(t *testing.T) {
	ref := func(x, y uint64) (hi, lo uint64) {
		for i := range 64 {
			if y>>i&1 == 1 {
				lo ^= x << i
				if i > 0 {
					hi ^= x >> (64 - i)
				}
			}
		}
		return
	}
	r := testRand(t)
	for i := range 5000 {
		x, y := r.Uint64(), r.Uint64()
		if i < 4 {
			x, y = []uint64{^uint64(0), 1 << 63, ^uint64(0), 1}[i], []uint64{^uint64(0), 1 << 63, 1, ^uint64(0)}[i]
		}
		p := split5(y)
		h, l := clmul64(x, &p)
		wh, wl := ref(x, y)
		if h != wh || l != wl {
			t.Fatalf("clmul64(%#x, %#x) = %#x:%#x, want %#x:%#x", x, y, h, l, wh, wl)
		}
	}
}

// TestGHASHImplementations compares every GHASH implementation with the
// bit-by-bit reference, for every block count up to 70 (every tail of the
// 16-block runs, several runs) and a few large ones, from random running
// values.
func TestGHASHImplementations(t *testing.T) {
	forEachGHASH(t, func(t *testing.T, g ghashImplInfo) {
		r := testRand(t)
		for i := range 20 {
			var h [16]byte
			copy(h[:], randBytes(r, 16))
			if i == 0 {
				h = [16]byte{}
			}
			var k Key
			k.initWith(&h, g.impl)
			hf := loadFE(h[:])
			counts := []int{}
			for n := 0; n <= 100; n++ {
				counts = append(counts, n)
			}
			counts = append(counts, 128, 255, 256+17)
			for _, n := range counts {
				data := randBytes(r, 16*n+1)[1:] // unaligned
				var y [16]byte
				copy(y[:], randBytes(r, 16))
				want := loadFE(y[:])
				for j := range n {
					b := loadFE(data[16*j:])
					want = feMulRef(fe{want.hi ^ b.hi, want.lo ^ b.lo}, hf)
				}
				Blocks(&k, &y, data)
				if got := loadFE(y[:]); got != want {
					t.Fatalf("H=%x, %d blocks: %x, want %x", h, n, got, want)
				}
			}
		}
	})
}

// TestGHASHAgainstAESGCM hashes through crypto/cipher's AES-GCM, whose
// GHASH is independent of ours (and uses AES-NI and PCLMULQDQ where
// present): the tag of a message under a 12-byte nonce is E(J0) ^
// GHASH(H, A || C || lengths), with H = E(0) and J0 = nonce || 1.
func TestGHASHAgainstAESGCM(t *testing.T) {
	forEachGHASH(t, func(t *testing.T, g ghashImplInfo) {
		r := testRand(t)
		for n := range 300 {
			a, _ := aes.NewCipher(randBytes(r, 16))
			ref, _ := cipher.NewGCM(a)
			nonce, pt, ad := randBytes(r, 12), randBytes(r, n), randBytes(r, r.IntN(70))
			sealed := ref.Seal(nil, nonce, pt, ad)
			ct, want := sealed[:n], sealed[n:]

			var h, y, j0, lens [16]byte
			a.Encrypt(h[:], h[:])
			var k Key
			k.initWith(&h, g.impl)
			Padded(&k, &y, ad)
			Padded(&k, &y, ct)
			binary.BigEndian.PutUint64(lens[:], uint64(len(ad))*8)
			binary.BigEndian.PutUint64(lens[8:], uint64(n)*8)
			Blocks(&k, &y, lens[:])
			copy(j0[:], nonce)
			j0[15] = 1
			a.Encrypt(j0[:], j0[:])
			for i := range y {
				y[i] ^= j0[i]
			}
			if !bytes.Equal(y[:], want) {
				t.Fatalf("%d bytes, %d of associated data: tag %x, crypto/cipher's AES-GCM %x", n, len(ad), y, want)
			}
		}
	})
}

// TestGHASHPowers checks the key table that each implementation's Init
// fills (in assembly with PCLMULQDQ, or in Go): power i is H^(16-i)·x⁻¹,
// for random keys, the zero key and H = 1.
func TestGHASHPowers(t *testing.T) {
	forEachGHASH(t, func(t *testing.T, g ghashImplInfo) {
		r := testRand(t)
		xinv := fe{1 << 63, 0}.divX()
		for n := range 20 {
			var h [16]byte
			copy(h[:], randBytes(r, 16))
			switch n {
			case 0:
				h = [16]byte{}
			case 1:
				h = [16]byte{0: 0x80} // the field's 1
			}
			var k Key
			k.initWith(&h, g.impl)
			hf := loadFE(h[:])
			p := hf
			for i := ghashPowers - 1; i >= 0; i-- {
				want := feMulRef(p, xinv)
				got := fe{binary.LittleEndian.Uint64(k.powers[i][8:]), binary.LittleEndian.Uint64(k.powers[i][:])}
				if got != want {
					t.Fatalf("H %x: powers[%d] = %x, want %x", h, i, got, want)
				}
				p = feMulRef(p, hf)
			}
		}
	})
}
