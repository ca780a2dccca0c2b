package twofish

//lint:file-ignore SA1019 golang.org/x/crypto/twofish is the deprecated package this module replaces: key setup is compared with it.

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"

	xtwofish "golang.org/x/crypto/twofish"

	"github.com/twofish-go/twofish/internal/testrand"
)

// TestConstructorsXCrypto checks the Ciphers of NewCipher and
// NewCipherConstantTime against x/crypto on keys of each size, structured
// ones (testrand.Keys: zeros, ones, each single bit) and random ones, for
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
				for _, key := range testrand.Keys(r, size, n) {
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

// TestCipherMemory checks how much a new Cipher takes from the heap, the
// Cipher and its one schedule together: at most 2 KiB for a constant-time
// plan and for a byte-sliced bulk kernel's S-boxes (NewCipher on AVX-512
// VBMI), 4.75 KiB for tables alone, as x/crypto's Cipher takes 4,864
// bytes; and after single blocks, which build the tables the first plan
// leaves out, 5.5 KiB in all. Each constructor and each pinned
// implementation this CPU runs is measured.
func TestCipherMemory(t *testing.T) {
	type constructor struct {
		name string
		new  func([]byte) (*Cipher, error)
	}
	cs := []constructor{{"NewCipher", NewCipher}, {"NewCipherConstantTime", NewCipherConstantTime}}
	for _, impl := range Implementations() {
		if impl.Supported {
			cs = append(cs, constructor{impl.Name, func(k []byte) (*Cipher, error) { return NewCipherImpl(k, impl.Name) }})
		}
	}
	key := make([]byte, 32)
	for _, c := range cs {
		ciph, err := c.new(key)
		if err != nil {
			t.Fatal(err)
		}
		p := ciph.Paths()
		// A plan of table kernels and a byte-sliced bulk kernel builds
		// its tables, 4,096 bytes, when single blocks or short runs first
		// need them.
		limit, inUse := 4864, 4864
		switch {
		case ciph.ConstantTime():
			limit, inUse = 2048, 2048
		case p.Bulk.ConstantTime:
			limit, inUse = 2048, 5632
		}
		used := func(key []byte) (*Cipher, error) {
			c, err := c.new(key)
			if err == nil {
				var b [BlockSize]byte
				for range 64 {
					c.Encrypt(b[:], b[:])
				}
			}
			return c, err
		}
		got, gotInUse := heapBytes(t, c.new, key), heapBytes(t, used, key)
		t.Logf("%s (%s): %d bytes, %d after 64 single blocks", c.name, p.Bulk.Impl, got, gotInUse)
		if got > limit || gotInUse > inUse {
			t.Errorf("%s (%s): %d bytes a Cipher and %d after 64 single blocks, want at most %d and %d", c.name, p.Bulk.Impl, got, gotInUse, limit, inUse)
		}
	}
}

// heapBytes returns the bytes that new(key) allocates, the fewest of
// three measurements of 100 calls on one thread.
func heapBytes(t testing.TB, new func([]byte) (*Cipher, error), key []byte) int {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	best := -1
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 100 {
			if _, err := new(key); err != nil {
				t.Fatal(err)
			}
		}
		runtime.ReadMemStats(&after)
		if n := int(after.TotalAlloc-before.TotalAlloc) / 100; best < 0 || n < best {
			best = n
		}
	}
	return best
}
