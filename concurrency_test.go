package twofish

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// TestConcurrentUse shares one Cipher and one XTS between 16 goroutines
// that run every mode at once and check their results against answers
// computed beforehand. Run it under -race.
func TestConcurrentUse(t *testing.T) {
	r := testRand(t)
	key := randBytes(r, 32)
	c, err := NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	x, err := NewXTS(append(randBytes(r, 32), key...))
	if err != nil {
		t.Fatal(err)
	}
	iv := randBytes(r, BlockSize)
	src := randBytes(r, 4096+5)
	blocks := src[:4096]

	type job struct {
		name string
		run  func() []byte
	}
	var jobs []job
	for _, mc := range modeCases {
		in := src
		if mc.blockMode {
			in = blocks
		}
		jobs = append(jobs, job{mc.name, func() []byte {
			out := make([]byte, len(in))
			crypt(mc.ours(c, iv), out, in)
			return out
		}})
	}
	jobs = append(jobs,
		job{"XTS-enc", func() []byte { out := make([]byte, len(src)); x.Encrypt(out, src, 9); return out }},
		job{"XTS-dec", func() []byte { out := make([]byte, len(src)); x.Decrypt(out, src, 9); return out }},
		job{"XTS-sectors", func() []byte { out := make([]byte, len(blocks)); x.EncryptSectors(out, blocks, 512, 9); return out }},
		job{"Encrypt", func() []byte { out := make([]byte, BlockSize); c.Encrypt(out, src); return out }},
	)
	want := make([][]byte, len(jobs))
	for i, j := range jobs {
		want[i] = j.run()
	}

	const goroutines = 16
	rounds := 50
	if !exhaustive() {
		rounds = 5
	}
	concurrently(t, goroutines, func(g int) error {
		for i := range rounds * len(jobs) {
			k := (g + i) % len(jobs)
			if got := jobs[k].run(); !bytes.Equal(got, want[k]) {
				return fmt.Errorf("goroutine %d: %s gave a different result", g, jobs[k].name)
			}
		}
		return nil
	})
}

// TestConcurrentFirstUse starts 8 goroutines on each of many new Ciphers
// at once, so that they meet while the Cipher decides which kernel serves
// its first single blocks and short runs, and builds the tables of its
// table kernels (NewCipher where the bulk kernel is byte-sliced). Each
// checks single blocks, short runs, or GCM messages (whose hash key and
// tag mask are the blocks of a mode's setup, which count towards building
// the tables), encrypting and decrypting, against the generic
// implementation. Run it under -race.
func TestConcurrentFirstUse(t *testing.T) {
	r := testRand(t)
	ciphers := 50
	if !exhaustive() {
		ciphers = 10
	}
	const goroutines = 8
	for range ciphers {
		key := randBytes(r, 32)
		c, err := NewCipher(key)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := NewCipherImpl(key, "generic")
		if err != nil {
			t.Fatal(err)
		}
		src := randBytes(r, 16*3*BlockSize)
		want := make([]byte, len(src))
		NewECBEncrypter(ref).CryptBlocks(want, src)
		refGCM, err := NewGCM(ref)
		if err != nil {
			t.Fatal(err)
		}
		nonce := make([]byte, refGCM.NonceSize())
		concurrently(t, goroutines, func(g int) error {
			if g%4 == 3 {
				a, err := NewGCM(c)
				if err != nil {
					return err
				}
				for i := range 16 {
					in := src[3*BlockSize*i : 3*BlockSize*(i+1)]
					nonce := append([]byte{byte(i)}, nonce[1:]...)
					sealed := a.Seal(nil, nonce, in, nil)
					back, err := a.Open(nil, nonce, sealed, nil)
					if !bytes.Equal(sealed, refGCM.Seal(nil, nonce, in, nil)) || err != nil || !bytes.Equal(back, in) {
						return fmt.Errorf("goroutine %d: GCM message %d of a new Cipher (%s) differs from generic's", g, i, c.Implementation())
					}
				}
				return nil
			}
			for i := g % 2; i < 16; i += 2 {
				in, exp := src[3*BlockSize*i:3*BlockSize*(i+1)], want[3*BlockSize*i:3*BlockSize*(i+1)]
				got := make([]byte, len(in))
				if g%4 < 2 {
					for j := 0; j < len(in); j += BlockSize {
						c.Encrypt(got[j:], in[j:])
					}
				} else {
					NewECBEncrypter(c).CryptBlocks(got, in)
				}
				back := make([]byte, len(in))
				NewECBDecrypter(c).CryptBlocks(back, got)
				if !bytes.Equal(got, exp) || !bytes.Equal(back, in) {
					return fmt.Errorf("goroutine %d: blocks %d of a new Cipher (%s) differ from generic", g, 3*i, c.Implementation())
				}
			}
			return nil
		})
	}
}

// TestConcurrentAEAD shares one AEAD of each mode between goroutines that
// seal and open at once, with nonces that share their block but for the
// last six bits in pairs and differ above them otherwise, so that OCB's
// cache of the last nonce block and its encryption (ktopCache) is read,
// missed and rewritten by several goroutines at once. Each result is
// checked against one computed beforehand: a torn read of the cache would
// give a message another nonce's offsets (TestKtopCacheConcurrent drives
// the cache alone, harder). Run it under -race.
func TestConcurrentAEAD(t *testing.T) {
	r := testRand(t)
	key := randBytes(r, 32)
	const goroutines, nonces = 8, 16
	rounds := 200
	if !exhaustive() {
		rounds = 40
	}
	for _, m := range aeadModes {
		t.Run(m.name, func(t *testing.T) {
			c, err := NewCipher(key)
			if err != nil {
				t.Fatal(err)
			}
			a := mustAEAD(t, m, c, 12, 16)
			pt, ad := randBytes(r, 3*BlockSize+5), randBytes(r, 7)
			nonce := func(i int) []byte {
				n := make([]byte, 12)
				n[5] = byte(i / 2)  // above the last six bits: a new nonce block
				n[11] = byte(i % 2) // in them: the same block as its pair
				return n
			}
			want := make([][]byte, nonces)
			for i := range want {
				want[i] = a.Seal(nil, nonce(i), pt, ad)
			}
			concurrently(t, goroutines, func(g int) error {
				for k := range rounds {
					i := (g*5 + k*3) % nonces
					if got := a.Seal(nil, nonce(i), pt, ad); !bytes.Equal(got, want[i]) {
						return fmt.Errorf("goroutine %d: Seal with nonce %d differs", g, i)
					}
					if got, err := a.Open(nil, nonce(i), want[i], ad); err != nil || !bytes.Equal(got, pt) {
						return fmt.Errorf("goroutine %d: Open with nonce %d failed: %v", g, i, err)
					}
				}
				return nil
			})
		})
	}
}

// TestKtopCacheConcurrent has goroutines put and get nonce blocks and
// their Ktop in one ktopCache as fast as they can, each Ktop a function of
// its block, and checks that every hit returns the Ktop of the block asked
// for: the cache's sequence count must keep a reader from using words that
// a writer was storing meanwhile.
func TestKtopCacheConcurrent(t *testing.T) {
	var c ktopCache
	ktop := func(i uint64) fe { return fe{i * 0x9E3779B97F4A7C15, ^i} }
	block := func(i uint64) *[BlockSize]byte {
		var n [BlockSize]byte
		binary.BigEndian.PutUint64(n[:8], i|1<<63) // never zero
		binary.BigEndian.PutUint64(n[8:], i*3)
		return &n
	}
	const goroutines, blocks = 4, 4
	iterations := 20000
	if exhaustive() {
		iterations = 1000000
	}
	concurrently(t, goroutines, func(g int) error {
		for k := range iterations {
			i := uint64(g+k) % blocks
			if g%2 == 0 {
				c.put(block(i), ktop(i))
				continue
			}
			if got, ok := c.get(block(i)); ok && got != ktop(i) {
				return fmt.Errorf("goroutine %d: block %d hit with Ktop %x, want %x", g, i, got, ktop(i))
			}
		}
		return nil
	})
}

// TestKtopCachePublishAfterFill has one writer put two nonce blocks in
// turn, B then A, while the other goroutines get A: every put of A then
// overwrites B's words, so a put that made its words visible before it
// had stored them all (the sequence count even again too early) would
// give a reader A's block with B's Ktop, which TestKtopCacheConcurrent's
// unaligned puts and gets catch only now and then.
func TestKtopCachePublishAfterFill(t *testing.T) {
	var c ktopCache
	var a, b [BlockSize]byte
	a[0], b[0] = 0xA0, 0xB0
	ka, kb := fe{0x1111111111111111, 0x2222222222222222}, fe{0x3333333333333333, 0x4444444444444444}
	puts := 200000
	if exhaustive() {
		puts = 2000000
	}
	var done atomic.Bool
	concurrently(t, 4, func(g int) error {
		if g == 0 {
			defer done.Store(true)
			for range puts {
				c.put(&b, kb)
				c.put(&a, ka)
			}
			return nil
		}
		for !done.Load() {
			if got, ok := c.get(&a); ok && got != ka {
				return fmt.Errorf("goroutine %d: block A hit with Ktop %x, want %x: a reader used words a writer was storing", g, got, ka)
			}
		}
		return nil
	})
}

// TestKtopCacheSequence steps through the sequence count that
// TestKtopCacheConcurrent can only catch out by chance: a put leaves it
// even and moved on, so that a reader that read the words meanwhile sees
// the change; while it is odd, a put under way, get misses, even the block
// whose words the cache holds, and another put backs off.
func TestKtopCacheSequence(t *testing.T) {
	var c ktopCache
	var n, m [BlockSize]byte
	n[0], m[0] = 1, 2
	k := fe{1, 2}
	s := c.seq.Load()
	c.put(&n, k)
	if got := c.seq.Load(); got == s || got&1 != 0 {
		t.Fatalf("sequence count %d after a put from %d, want another even count", got, s)
	}
	if got, ok := c.get(&n); !ok || got != k {
		t.Fatalf("get after put: %x, hit %v, want %x", got, ok, k)
	}
	c.seq.Add(1) // a put under way
	if _, ok := c.get(&n); ok {
		t.Error("get hit while a put was under way")
	}
	c.put(&m, fe{3, 4})
	c.seq.Add(1) // the put under way ends
	if got, ok := c.get(&n); !ok || got != k {
		t.Errorf("a put while another was under way: get %x, hit %v, want %x", got, ok, k)
	}
}

// TestKtopCacheGetRechecks has a put of nonce block B land in a get of
// block A after the get has read A's words but before it reads Ktop's
// (ktopReadHook), so that the words it then reads are B's Ktop: the get
// must see the sequence count move and miss, never return B's Ktop for A,
// which would give A's messages the offsets of another nonce. The
// concurrent tests catch a get that skips that re-check only when a put
// happens to land there, in a fraction of runs; this lands one there every
// time, and checks that the cache still works afterwards.
func TestKtopCacheGetRechecks(t *testing.T) {
	var c ktopCache
	var a, b [BlockSize]byte
	a[0], b[0] = 0xA0, 0xB0
	ka, kb := fe{0x1111111111111111, 0x2222222222222222}, fe{0x3333333333333333, 0x4444444444444444}
	c.put(&a, ka)
	t.Cleanup(func() { ktopReadHook = nil })
	ktopReadHook = func() {
		ktopReadHook = nil
		c.put(&b, kb)
	}
	if got, ok := c.get(&a); ok {
		t.Errorf("a get of block A that a put of block B overtook hit with Ktop %x; want a miss", got)
	}
	if ktopReadHook != nil {
		t.Fatal("get did not call ktopReadHook: the test did not put B where it meant to")
	}
	if got, ok := c.get(&b); !ok || got != kb {
		t.Errorf("get of block B after its put: %x, hit %v, want %x", got, ok, kb)
	}
	if got, ok := c.get(&a); ok {
		t.Errorf("get of block A after a put of block B hit with Ktop %x; want a miss", got)
	}
}

// concurrently runs f(g) for g from 0 to n-1, each in a goroutine of its
// own, and reports each error one returns.
func concurrently(t *testing.T, n int, f func(g int) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for g := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f(g); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
