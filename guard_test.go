//go:build linux || darwin

package twofish

import (
	"bytes"
	"syscall"
	"testing"
)

// guardedRegion maps n usable bytes (rounded up to pages) between two
// inaccessible pages, so that any access just before or just after the
// usable bytes faults.
type guardedRegion struct{ mem, usable []byte }

func newGuardedRegion(t *testing.T, n int) *guardedRegion {
	page := syscall.Getpagesize()
	pages := (n + page - 1) / page
	mem, err := syscall.Mmap(-1, 0, (pages+2)*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	for _, g := range [][]byte{mem[:page], mem[(pages+1)*page:]} {
		if err := syscall.Mprotect(g, syscall.PROT_NONE); err != nil {
			t.Fatalf("mprotect: %v", err)
		}
	}
	return &guardedRegion{mem, mem[page : (pages+1)*page]}
}

func init() {
	newArena = func(t *testing.T, n int) []byte { return newGuardedRegion(t, n).atEnd(n) }
}

// atEnd and atStart return n bytes flush against the following or the
// preceding guard page.
func (g *guardedRegion) atEnd(n int) []byte   { return g.usable[len(g.usable)-n:] }
func (g *guardedRegion) atStart(n int) []byte { return g.usable[:n:n] }

// TestGuardPages runs every implementation over buffers that touch an
// inaccessible page on either side, for every block count up to twice the
// widest kernel plus three (at least 70): a kernel that reads or writes
// one byte outside its buffers crashes the test.
func TestGuardPages(t *testing.T) {
	maxBlocks := max(2*widestBlocks()+3, 70)
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		key := randBytes(r, 32)
		c, ref := mustCipher(t, key, impl.Name), mustCipher(t, key, "generic")
		a := newGuardedRegion(t, maxBlocks*BlockSize)
		b := newGuardedRegion(t, maxBlocks*BlockSize)
		for n := 0; n <= maxBlocks; n++ {
			size := n * BlockSize
			for _, place := range []struct {
				name     string
				src, dst []byte
			}{
				{"src at end, dst at start", a.atEnd(size), b.atStart(size)},
				{"src at start, dst at end", a.atStart(size), b.atEnd(size)},
				{"in place at end", a.atEnd(size), a.atEnd(size)},
				{"in place at start", b.atStart(size), b.atStart(size)},
			} {
				copy(place.src, randBytes(r, size))
				want := make([]byte, size)
				ref.encryptBlocks(want, place.src)
				c.encryptBlocks(place.dst, place.src)
				if !bytes.Equal(place.dst, want) {
					t.Fatalf("%d blocks, %s: encryption differs from generic", n, place.name)
				}
				ref.decryptBlocks(want, place.dst)
				c.decryptBlocks(place.dst, place.dst)
				if !bytes.Equal(place.dst, want) {
					t.Fatalf("%d blocks, %s: decryption differs from generic", n, place.name)
				}
			}
		}
	})
}

// TestGuardPagesModes runs every mode over buffers flush against guard
// pages on both sides, for every length up to maxBlocks blocks (and a few
// bytes past them for the streams and XTS).
func TestGuardPagesModes(t *testing.T) {
	maxBlocks := max(2*widestBlocks()+3, 70)
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		r := testRand(t)
		key := randBytes(r, 32)
		c := mustCipher(t, key, impl.Name)
		x, _ := NewXTSImpl(append(key, key...), impl.Name)
		iv := randBytes(r, BlockSize)
		a := newGuardedRegion(t, maxBlocks*BlockSize+BlockSize)
		b := newGuardedRegion(t, maxBlocks*BlockSize+BlockSize)
		for n := 0; n <= maxBlocks*BlockSize+BlockSize-1; n++ {
			if testing.Short() && n%BlockSize != 0 && n%BlockSize != 7 {
				continue
			}
			src, dst := a.atEnd(n), b.atStart(n)
			src2, dst2 := a.atStart(n), b.atEnd(n)
			for _, mc := range modeCases {
				if mc.blockMode && n%BlockSize != 0 {
					continue
				}
				crypt(mc.ours(c, iv), dst, src)
				crypt(mc.ours(c, iv), dst2, src2)
				crypt(mc.ours(c, iv), src, src)
			}
			if n >= BlockSize {
				x.Encrypt(dst, src, uint64(n))
				x.Decrypt(dst2, src2, uint64(n))
				x.Encrypt(src, src, uint64(n))
			}
		}
	})
}
