package twofish

import (
	"bytes"
	"fmt"
	"sync"
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
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds * len(jobs) {
				k := (g + i) % len(jobs)
				if got := jobs[k].run(); !bytes.Equal(got, want[k]) {
					errs <- fmt.Errorf("goroutine %d: %s gave a different result", g, jobs[k].name)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestConcurrentFirstUse starts 8 goroutines on each of many new Ciphers
// at once, so that they meet while the Cipher decides which kernel serves
// its first single blocks and short runs, and builds the tables of its
// table kernels (NewCipher where the bulk kernel is byte-sliced). Each
// checks single blocks and short runs, encrypting and decrypting, against
// the generic implementation. Run it under -race.
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
		var wg sync.WaitGroup
		errs := make(chan error, goroutines)
		for g := range goroutines {
			wg.Add(1)
			go func() {
				defer wg.Done()
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
						errs <- fmt.Errorf("goroutine %d: blocks %d of a new Cipher (%s) differ from generic", g, 3*i, c.Implementation())
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	}
}
