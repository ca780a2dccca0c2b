//go:build linux || darwin

// Package guardpage maps buffers between inaccessible pages, for the tests
// that run kernels and modes over buffers flush against a page that faults:
// a read or write one byte outside a buffer crashes the test.
package guardpage

import (
	"syscall"
	"testing"
)

// A Region is n usable bytes (rounded up to pages) between two
// inaccessible pages.
type Region struct{ usable []byte }

// New maps a Region of at least n usable bytes, unmapped when tb ends.
func New(tb testing.TB, n int) *Region {
	tb.Helper()
	page := syscall.Getpagesize()
	pages := (n + page - 1) / page
	mem, err := syscall.Mmap(-1, 0, (pages+2)*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		tb.Fatalf("mmap: %v", err)
	}
	tb.Cleanup(func() { syscall.Munmap(mem) })
	for _, g := range [][]byte{mem[:page], mem[(pages+1)*page:]} {
		if err := syscall.Mprotect(g, syscall.PROT_NONE); err != nil {
			tb.Fatalf("mprotect: %v", err)
		}
	}
	return &Region{mem[page : (pages+1)*page]}
}

// AtEnd returns n bytes flush against the following guard page.
func (g *Region) AtEnd(n int) []byte { return g.usable[len(g.usable)-n:] }

// AtStart returns n bytes flush against the preceding guard page, with no
// capacity beyond them.
func (g *Region) AtStart(n int) []byte { return g.usable[:n:n] }

// Flush returns n bytes of a new Region, flush against its following
// guard page if atEnd and against its preceding one otherwise.
func Flush(tb testing.TB, n int, atEnd bool) []byte {
	tb.Helper()
	g := New(tb, n)
	if atEnd {
		return g.AtEnd(n)
	}
	return g.AtStart(n)
}

// A Placement is a source and a destination of a kernel under test.
type Placement struct {
	Name     string
	Src, Dst []byte
}

// Placements returns the four ways the tests place an n-byte source and
// destination in a and b: each flush against a faulting page, the source
// at its end and the destination at its start and the other way round,
// and in place at either end.
func Placements(a, b *Region, n int) []Placement {
	return []Placement{
		{"src at end, dst at start", a.AtEnd(n), b.AtStart(n)},
		{"src at start, dst at end", a.AtStart(n), b.AtEnd(n)},
		{"in place at end", a.AtEnd(n), a.AtEnd(n)},
		{"in place at start", b.AtStart(n), b.AtStart(n)},
	}
}
