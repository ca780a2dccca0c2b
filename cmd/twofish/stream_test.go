package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestUnpad checks the padding check on every last byte and on a wrong
// byte at every place of the padding.
func TestUnpad(t *testing.T) {
	for n := range 256 {
		b := bytes.Repeat([]byte{0xaa}, 16)
		for i := max(0, 16-n); i < 16; i++ {
			b[i] = byte(n)
		}
		want := -1
		if n >= 1 && n <= 16 {
			want = 16 - n
		}
		if got := unpad(b); got != want {
			t.Errorf("unpad of a block ending in %d bytes of %d: %d, want %d", n, n, got, want)
		}
		if n >= 2 && n <= 16 {
			for i := 16 - n; i < 15; i++ {
				c := bytes.Clone(b)
				c[i] ^= 0x40
				if got := unpad(c); got != -1 {
					t.Errorf("unpad with padding %d and byte %d wrong: %d, want -1", n, i, got)
				}
			}
		}
	}
	if got := pad(make([]byte, 5, 32)); len(got) != 16 || got[15] != 11 || got[5] != 11 {
		t.Errorf("pad of 5 bytes: %x", got)
	}
	if got := pad(make([]byte, 16, 32)); len(got) != 32 || unpad(got[16:]) != 0 {
		t.Errorf("pad of 16 bytes: %x", got)
	}
}

func TestCounterAt(t *testing.T) {
	for _, tc := range []struct {
		iv   string
		off  int64
		want string
	}{
		{"00000000000000000000000000000000", 16, "00000000000000000000000000000001"},
		{"0000000000000000ffffffffffffffff", 16, "00000000000000010000000000000000"},
		{"ffffffffffffffffffffffffffffffff", 32, "00000000000000000000000000000001"},
		{"0123456789abcdef0000000000000000", 1 << 40, "0123456789abcdef0000001000000000"},
	} {
		iv, _ := hex.DecodeString(tc.iv)
		if got := hex.EncodeToString(counterAt(iv, tc.off)); got != tc.want {
			t.Errorf("counterAt(%s, %d) = %s, want %s", tc.iv, tc.off, got, tc.want)
		}
	}
}

// TestProgress checks the progress line, that it fits the terminal's
// width, and that a pipe gets none.
func TestProgress(t *testing.T) {
	p := &progress{total: 1 << 30, cols: 100}
	line := p.line(256<<20, 2*time.Second)
	if want := "[#######-----------------------]  25%  256.0 MiB / 1.0 GiB  128.0 MiB/s  0:06 left"; line != want {
		t.Errorf("line = %q, want %q", line, want)
	}
	for cols, want := range map[int]string{
		80: "[######---------------------]  25%  256.0 MiB / 1.0 GiB  128.0 MiB/s  0:06 left",
		50: " 25%  128.0 MiB/s  0:06 left",
		10: " 25%  128",
	} {
		p.cols = cols
		if line := p.line(256<<20, 2*time.Second); line != want || len(line) >= cols {
			t.Errorf("%d columns: line = %q, want %q", cols, line, want)
		}
	}
	p.total, p.cols = -1, 80
	if line, want := p.line(100<<20, time.Second), "100.0 MiB  100.0 MiB/s"; line != want {
		t.Errorf("line of an unknown total = %q, want %q", line, want)
	}
	var b strings.Builder
	if startProgress(&b, 1<<40) != nil {
		t.Error("progress on a strings.Builder")
	}
	var none *progress
	none.add(1)
	none.finish()

	// Drawing and blanking.
	p = &progress{w: &b, total: 1 << 30, start: time.Now(), now: time.Now, stop: make(chan struct{}), cols: 80}
	p.add(1 << 29)
	p.draw()
	p.finish()
	if out := b.String(); !strings.HasPrefix(out, "\r[###") || !strings.Contains(out, "]  50%") || !strings.HasSuffix(out, strings.Repeat(" ", p.width)+"\r") {
		t.Errorf("drawn: %q", out)
	}
}

// runCrypter runs the crypter of cfg, reading chunks of chunk bytes, with
// GOMAXPROCS procs, from r to w, and returns its error. It fails t if run
// does not return, or leaves goroutines behind.
func runCrypter(t *testing.T, cfg *cryptConfig, chunk, procs int, r io.Reader, w io.Writer, done func(int)) error {
	t.Helper()
	cr, err := newCrypter(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cr.chunk = chunk
	return runCrypterOf(t, cr, procs, r, w, done)
}

// runCrypterOf is runCrypter for the crypter cr. It may run on a goroutine
// of its own, so it reports with t.Errorf, never t.Fatal, and returns an
// error where run does not return; the bounds on the waits only catch a
// hang (60 s, and 10 s for the goroutines to end, where a run takes
// milliseconds even on a loaded machine).
func runCrypterOf(t *testing.T, cr *crypter, procs int, r io.Reader, w io.Writer, done func(int)) error {
	t.Helper()
	cfg, err := cr.cfg, error(nil)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	before := runtime.NumGoroutine()
	errc := make(chan error, 1)
	go func() { errc <- cr.run(r, w, done) }()
	select {
	case err = <-errc:
	case <-time.After(60 * time.Second):
		t.Errorf("%s decrypt=%v procs=%d: run did not return", cfg.mode, cfg.decrypt, procs)
		return errors.New("run did not return")
	}
	for deadline := time.Now().Add(10 * time.Second); runtime.NumGoroutine() > before; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Errorf("%s decrypt=%v procs=%d: %d goroutines left behind", cfg.mode, cfg.decrypt, procs, runtime.NumGoroutine()-before)
			break
		}
	}
	return err
}

// whenPoolWaits makes f run, once, when a pool's get first waits for a
// buffer during the rest of the test (poolWaitHook): all of them are out.
func whenPoolWaits(t *testing.T, f func()) {
	var once sync.Once
	poolWaitHook = func() { once.Do(f) }
	t.Cleanup(func() { poolWaitHook = nil })
}

// A boundedReader reads r and calls over, once, when more than limit bytes
// have been read.
type boundedReader struct {
	r     io.Reader
	n     atomic.Int64
	limit int64
	over  func()
	once  sync.Once
}

func (b *boundedReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if b.n.Add(int64(n)) > b.limit {
		b.once.Do(b.over)
	}
	return n, err
}

// testConfig is a configuration of mode with fixed keys and IV, xts sectors
// of 16 bytes and padding for ecb and cbc.
func testConfig(mode string, decrypt bool) *cryptConfig {
	cfg := &cryptConfig{decrypt: decrypt, mode: mode, key: bytes.Repeat([]byte{7}, 16), impl: "auto",
		pad: mode == "ecb" || mode == "cbc", sectorSize: 16}
	if mode == "xts" {
		cfg.key = append(cfg.key, bytes.Repeat([]byte{8}, 16)...)
	} else if mode != "ecb" {
		cfg.iv = bytes.Repeat([]byte{9}, 16)
	}
	return cfg
}

// A strictReader reads r, then gives err (io.EOF for a clean end), and
// counts the reads it gets after that: a stream may be a terminal or a pipe
// that would wait for more.
type strictReader struct {
	r     io.Reader
	err   error
	ended bool
	late  int
	bytes int64
}

func (s *strictReader) Read(p []byte) (int, error) {
	if s.ended {
		s.late++
		return 0, errors.New("read after the end")
	}
	n, err := s.r.Read(p)
	s.bytes += int64(n)
	if err == io.EOF {
		s.ended, err = true, s.err
	}
	return n, err
}

// endless is an endless input of zeros.
type endless struct{ n atomic.Int64 }

func (z *endless) Read(p []byte) (int, error) {
	clear(p)
	z.n.Add(int64(len(p)))
	return len(p), nil
}

// brokenWriter fails, or panics, at its write number fail (from 1), and
// blocks its first write until release is closed, if that is not nil.
type brokenWriter struct {
	bytes.Buffer
	writes  int
	fail    int
	panics  bool
	release chan struct{}
}

func (w *brokenWriter) Write(p []byte) (int, error) {
	if w.writes == 0 && w.release != nil {
		<-w.release
	}
	w.writes++
	if w.writes == w.fail {
		if w.panics {
			panic("the writer broke")
		}
		return 0, errors.New("disk full")
	}
	return w.Buffer.Write(p)
}

// TestRunChunkOrder runs every chunked mode over many small chunks, with one
// worker and with several, against the library's mode on the whole input:
// so the chunks are written in their order, cbc and cfb decryption get the
// ciphertext block before each chunk, and the last chunk is padded (or
// unpadded) alone, once.
func TestRunChunkOrder(t *testing.T) {
	const chunk = 32
	r := rng(t)
	for _, mode := range []string{"ecb", "cbc", "cfb", "ofb", "ctr", "xts"} {
		for _, decrypt := range []bool{false, true} {
			for _, size := range []int{0, 21, chunk, 100*chunk + 21} {
				if mode == "xts" {
					size -= size % 16
				}
				for _, procs := range []int{1, 4} {
					cfg := testConfig(mode, decrypt)
					pt := randomBytes(r, size)
					in := pt
					if decrypt {
						in = reference(t, false, mode, cfg.key, cfg.iv, pt, cfg.pad, 16, 0)
					}
					var out bytes.Buffer
					var counted int
					err := runCrypter(t, cfg, chunk, procs, &strictReader{r: bytes.NewReader(in), err: io.EOF}, &out, func(n int) { counted += n })
					want := reference(t, decrypt, mode, cfg.key, cfg.iv, in, cfg.pad, 16, 0)
					if err != nil || !bytes.Equal(out.Bytes(), want) {
						t.Fatalf("%s decrypt=%v size=%d procs=%d: error %v, output differs from the library's: %v", mode, decrypt, size, procs, err, !bytes.Equal(out.Bytes(), want))
					}
					wantCount := len(in) // of the input, and enc's padding
					if !decrypt {
						wantCount = len(want)
					}
					if counted != wantCount {
						t.Errorf("%s decrypt=%v size=%d procs=%d: progress counted %d bytes, want %d", mode, decrypt, size, procs, counted, wantCount)
					}
				}
			}
		}
	}
}

// TestRunStopsReading checks that after a write fails, or the writer
// panics, run stops reading an endless input and returns the error, with
// one worker and with several: also when the writer was stuck until every
// buffer was out and a worker waits for one, holding the input.
func TestRunStopsReading(t *testing.T) {
	for _, mode := range []string{"cbc", "ctr"} {
		for _, panics := range []bool{false, true} {
			for _, stuck := range []bool{false, true} {
				for _, procs := range []int{1, 4} {
					want := "writing the output: disk full"
					if panics {
						want = "internal error: the writer broke"
					}
					w := &brokenWriter{fail: 3, panics: panics}
					var in io.Reader = new(endless)
					if stuck {
						// The writer is let go once every buffer is out, or
						// (were the pool broken, which TestRunBoundedMemory
						// checks) once the reader is well past them.
						w.fail, w.release = 1, make(chan struct{})
						var once sync.Once
						release := func() { once.Do(func() { close(w.release) }) }
						whenPoolWaits(t, release)
						in = &boundedReader{r: in, limit: 64 * 64, over: release}
					}
					err := runCrypter(t, testConfig(mode, false), 64, procs, in, w, nil)
					if err == nil || err.Error() != want || w.Len() != (w.fail-1)*64 {
						t.Errorf("%s procs=%d stuck=%v: error %v, %d bytes written; want %q after %d chunks", mode, procs, stuck, err, w.Len(), want, w.fail-1)
					}
				}
			}
		}
	}
}

// A releasingReader closes release when r gives its first error.
type releasingReader struct {
	r       io.Reader
	release chan struct{}
	once    sync.Once
}

func (rr *releasingReader) Read(p []byte) (int, error) {
	n, err := rr.r.Read(p)
	if err != nil {
		rr.once.Do(func() { close(rr.release) })
	}
	return n, err
}

// TestRunReadErrorFirst checks that a read error is the one reported when
// the writer fails after it.
func TestRunReadErrorFirst(t *testing.T) {
	for _, procs := range []int{1, 4} {
		// The writer fails once the read has failed, whatever the speed.
		w := &brokenWriter{fail: 1, release: make(chan struct{})}
		in := &releasingReader{r: &strictReader{r: bytes.NewReader(make([]byte, 100)), err: errors.New("disk on fire")}, release: w.release}
		err := runCrypter(t, testConfig("ctr", false), 64, procs, in, w, nil)
		if want := "reading the input: disk on fire"; err == nil || err.Error() != want {
			t.Errorf("procs=%d: error %v, want %q", procs, err, want)
		}
	}
}

// TestRunBoundedMemory checks that while the writer is stuck, run reads no
// more chunks ahead than it has buffers for, and then finishes: the reader
// must come to wait for a buffer (whenPoolWaits) before it has read more
// than the buffers hold. The buffers are two per worker and two more, but
// no more than bufferBudget holds, however many the cores.
func TestRunBoundedMemory(t *testing.T) {
	for _, tc := range []struct {
		procs int
		mode  string
		chunk int
	}{
		{1, "ofb", 64}, {1, "ctr", 64}, {3, "ofb", 64}, {3, "ctr", 64},
		{64, "ctr", bufferBudget / 16}, // 16 buffers, not 130
	} {
		procs, mode, chunk := tc.procs, tc.mode, tc.chunk
		workers := 1
		if mode == "ctr" {
			workers = procs
		}
		nbuf := max(3, min(2*workers+2, bufferBudget/chunk))
		waits, over := make(chan struct{}), make(chan struct{})
		z := &boundedReader{r: new(endless), limit: int64(nbuf * chunk), over: func() { close(over) }}
		w := &brokenWriter{fail: 2, release: make(chan struct{})}
		whenPoolWaits(t, func() { close(waits) })
		errc := make(chan error, 1)
		go func() { errc <- runCrypter(t, testConfig(mode, false), chunk, procs, z, w, nil) }()
		select {
		case <-waits:
		case <-over:
			t.Errorf("%s procs=%d: read more than the %d buffers hold ahead of a stuck writer", mode, procs, nbuf)
		case <-time.After(time.Minute): // a hang's bound: the reader waits within milliseconds
			t.Errorf("%s procs=%d: the reader neither waited for a buffer nor read past the %d buffers", mode, procs, nbuf)
		}
		close(w.release)
		if err := <-errc; err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("%s procs=%d: error %v, want disk full", mode, procs, err)
		}
	}
}

// TestRunInputErrors checks a read error and a bad length of the input:
// the chunks before it are written (but a padded decryption's last block,
// not known to be the last, is held back), the error is returned, and the
// input is not read again after its error or its end.
func TestRunInputErrors(t *testing.T) {
	const chunk = 32
	r := rng(t)
	pt := randomBytes(r, 10*chunk)
	for _, tc := range []struct {
		mode    string
		decrypt bool
		size    int   // of the input given
		err     error // at its end
		want    string
		written int // bytes of plaintext or ciphertext before the error
	}{
		{"cbc", true, 10*chunk + 1, io.EOF, "the input is 321 bytes, not a whole number of 16-byte blocks", 10*chunk - 16},
		{"cbc", true, 7*chunk + 20, errors.New("disk on fire"), "reading the input: disk on fire", 7*chunk - 16},
		{"ctr", false, 7*chunk + 20, errors.New("disk on fire"), "reading the input: disk on fire", 7 * chunk},
		{"xts", false, 10*chunk + 15, io.EOF, "the last sector is 15 bytes", 10 * chunk},
	} {
		for _, procs := range []int{1, 4} {
			cfg := testConfig(tc.mode, tc.decrypt)
			in := append(bytes.Clone(pt), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)
			if tc.decrypt {
				in = reference(t, false, tc.mode, cfg.key, cfg.iv, pt, cfg.pad, 16, 0)
			}
			in = in[:tc.size]
			want := pt[:tc.written]
			if !tc.decrypt {
				want = reference(t, false, tc.mode, cfg.key, cfg.iv, want, false, 16, 0)
			}
			sr := &strictReader{r: bytes.NewReader(in), err: tc.err}
			var out bytes.Buffer
			err := runCrypter(t, cfg, chunk, procs, sr, &out, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s decrypt=%v procs=%d: error %v, want %q", tc.mode, tc.decrypt, procs, err, tc.want)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("%s decrypt=%v procs=%d: wrote %d bytes, want (the same as) the %d before the error", tc.mode, tc.decrypt, procs, out.Len(), len(want))
			}
			if sr.late != 0 {
				t.Errorf("%s decrypt=%v procs=%d: read %d times more after the input's error or end", tc.mode, tc.decrypt, procs, sr.late)
			}
		}
	}
}

// panicReader panics at its read number n (from 1), after zeros.
type panicReader struct{ reads, n int }

func (p *panicReader) Read(b []byte) (int, error) {
	if p.reads++; p.reads == p.n {
		panic("the reader broke")
	}
	clear(b)
	return len(b), nil
}

// TestRunBugs checks that a bug in reading or in a worker ends the stream
// with an internal error, as main's recover ends the rest of the command:
// run returns, having written the chunks before it, and reads no further.
func TestRunBugs(t *testing.T) {
	for _, procs := range []int{1, 4} {
		var out bytes.Buffer
		err := runCrypter(t, testConfig("ctr", false), 64, procs, &panicReader{n: 4}, &out, nil)
		if err == nil || err.Error() != "internal error: the reader broke" || out.Len() != 3*64 {
			t.Errorf("reader panics, procs=%d: error %v, %d bytes written", procs, err, out.Len())
		}

		cr, err := newCrypter(testConfig("ctr", false))
		if err != nil {
			t.Fatal(err)
		}
		cr.chunk, cr.block = 64, nil // every chunk panics
		in := new(endless)
		out.Reset()
		err = runCrypterOf(t, cr, procs, in, &out, nil)
		if err == nil || !strings.HasPrefix(err.Error(), "internal error: ") || out.Len() != 0 {
			t.Errorf("worker panics, procs=%d: error %v, %d bytes written", procs, err, out.Len())
		}
		if n := in.n.Load(); n > 64*64 {
			t.Errorf("worker panics, procs=%d: %d bytes read after the first chunk failed", procs, n)
		}
	}
}

// TestRunHeldBlockWriteFails checks a padded decryption whose write of the
// block it held back fails as the last chunk comes: the write's error is
// the one returned, said as every write's is, not the padding's, which is
// bad too, nothing more is written, and progress counts only the chunk
// before.
func TestRunHeldBlockWriteFails(t *testing.T) {
	for _, procs := range []int{1, 4} {
		cfg := testConfig("cbc", true)
		// Three blocks whose last byte, 0, is no padding: chunks of 32 and
		// 16 bytes, the first written but for its last block, held back.
		in := reference(t, false, "cbc", cfg.key, cfg.iv, make([]byte, 48), false, 16, 0)
		w := &brokenWriter{fail: 2}
		counted := 0
		err := runCrypter(t, cfg, 32, procs, bytes.NewReader(in), w, func(n int) { counted += n })
		if err == nil || !strings.HasPrefix(err.Error(), "writing the output: ") || !strings.Contains(err.Error(), "disk full") || w.Len() != 16 || counted != 32 {
			t.Errorf("procs=%d: error %v, %d bytes written, %d counted; want writing the output: disk full after 16 written, 32 counted", procs, err, w.Len(), counted)
		}
	}
}

// TestPool checks that a pool hands out a buffer given back before it makes
// another, makes no more than n, and keeps every buffer given back.
func TestPool(t *testing.T) {
	made := 0
	p := newPool(3, func() *int { made++; return new(int) })
	a, b := p.get(), p.get()
	p.free <- a
	if c := p.get(); c != a || made != 2 {
		t.Fatalf("a buffer given back: got another, %d made, want it again and 2 made", made)
	}
	p.free <- a
	p.free <- b
	if c := p.get(); (c != a && c != b) || made != 2 || len(p.free) != 1 {
		t.Fatalf("two buffers given back: got another or lost one, %d made, %d left, want 2 made and 1 left", made, len(p.free))
	}
	p.get()
	p.get()
	if made != 3 {
		t.Errorf("%d buffers made for 3 out at once, want 3", made)
	}
}
