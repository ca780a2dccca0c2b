//go:build linux || darwin

package guardpage

import (
	"runtime"
	"runtime/debug"
	"syscall"
	"testing"
	"unsafe"
)

var sink byte

// faults reports whether reading the byte at p, or writing it if write,
// faults: debug.SetPanicOnFault turns the fault into a runtime.Error panic
// that it recovers. The panic has an Addr method where the runtime learns
// the address; on linux/arm it reads it from the signal context's
// fault_address, which qemu-arm leaves zero, and reports a nil dereference.
func faults(p unsafe.Pointer, write bool) (faulted bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		_, faulted = recover().(runtime.Error)
	}()
	if write {
		*(*byte)(p) = 0
	} else {
		sink = *(*byte)(p)
	}
	return false
}

// before and after point at the byte just before b and just after it.
func before(b []byte) unsafe.Pointer { return unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), -1) }
func after(b []byte) unsafe.Pointer  { return unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), len(b)) }

// checkFlush checks that b is n usable bytes and that both reading and
// writing the byte beyond it on the side atEnd names fault.
func checkFlush(t *testing.T, what string, b []byte, n int, atEnd bool) {
	t.Helper()
	if len(b) != n {
		t.Fatalf("%s: %d bytes, want %d", what, len(b), n)
	}
	for _, p := range []unsafe.Pointer{unsafe.Pointer(&b[0]), unsafe.Pointer(&b[n-1])} {
		if faults(p, false) || faults(p, true) {
			t.Fatalf("%s: its own bytes fault", what)
		}
	}
	side, beyond := "start", before(b)
	if atEnd {
		side, beyond = "end", after(b)
	}
	if !faults(beyond, false) || !faults(beyond, true) {
		t.Errorf("%s: reading or writing the byte beyond its %s does not fault", what, side)
	}
}

// sizes are lengths of a Region's buffers: within a page, a page, and
// across pages.
func sizes() []int {
	page := syscall.Getpagesize()
	return []int{1, 16, 100, page - 1, page, page + 1, 2*page + 7}
}

// TestRegionGuards checks that a Region's bytes lie between pages that
// fault on both reads and writes: AtStart's first byte follows one and
// AtEnd's last precedes the other, and AtStart leaves no capacity that
// an append could write beyond its bytes.
func TestRegionGuards(t *testing.T) {
	for _, n := range sizes() {
		g := New(t, n)
		start, end := g.AtStart(n), g.AtEnd(n)
		checkFlush(t, "AtStart", start, n, false)
		checkFlush(t, "AtEnd", end, n, true)
		if cap(start) != n {
			t.Errorf("AtStart(%d) has capacity %d", n, cap(start))
		}
	}
}

// TestFlush checks that Flush places its bytes against the following guard
// page if atEnd and against the preceding one otherwise.
func TestFlush(t *testing.T) {
	for _, n := range sizes() {
		for _, atEnd := range []bool{false, true} {
			checkFlush(t, "Flush", Flush(t, n, atEnd), n, atEnd)
		}
	}
}

// TestPlacements checks the four placements of a source and a destination:
// each buffer is flush against the guard page its name says, and only the
// in-place ones share their bytes.
func TestPlacements(t *testing.T) {
	want := []struct {
		name               string
		srcAtEnd, dstAtEnd bool
		inPlace            bool
	}{
		{"src at end, dst at start", true, false, false},
		{"src at start, dst at end", false, true, false},
		{"in place at end", true, true, true},
		{"in place at start", false, false, true},
	}
	const n = 48
	ps := Placements(New(t, n), New(t, n), n)
	if len(ps) != len(want) {
		t.Fatalf("%d placements, want %d", len(ps), len(want))
	}
	for i, p := range ps {
		w := want[i]
		if p.Name != w.name {
			t.Errorf("placement %d is %q, want %q", i, p.Name, w.name)
			continue
		}
		checkFlush(t, p.Name+": src", p.Src, n, w.srcAtEnd)
		checkFlush(t, p.Name+": dst", p.Dst, n, w.dstAtEnd)
		if same := &p.Src[0] == &p.Dst[0]; same != w.inPlace {
			t.Errorf("%s: src and dst the same bytes: %v", p.Name, same)
		}
	}
}
