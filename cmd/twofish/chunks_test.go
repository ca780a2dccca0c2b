package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// The tests of runChunks, the pipeline of seal and open, with a stand-in
// for the AEAD: tagChunk appends each chunk's number and last flag, and
// untagChunk checks and removes them, so that a chunk in the wrong place,
// or with the wrong number or flag, shows.

// tagLen is what tagChunk adds to a chunk.
const tagLen = 5

// tagChunk is seal's stand-in: the chunk, its number and its last flag,
// in place.
func tagChunk(i uint32, last bool, in []byte) ([]byte, error) {
	flag := byte(0)
	if last {
		flag = 1
	}
	return append(binary.BigEndian.AppendUint32(in, i), flag), nil
}

// untagChunk is open's stand-in: it checks the number and the flag that
// tagChunk added, and removes them in place.
func untagChunk(i uint32, last bool, in []byte) ([]byte, error) {
	n := len(in) - tagLen
	if n < 0 {
		return nil, fmt.Errorf("chunk %d: %d bytes", i, len(in))
	}
	if got := binary.BigEndian.Uint32(in[n:]); got != i || (in[n+4] == 1) != last {
		return nil, fmt.Errorf("chunk %d (last %v) came as chunk %d (last %v)", i, last, got, in[n+4] == 1)
	}
	return in[:n], nil
}

// tagged is what runChunks with tagChunk must write for msg in chunks of
// size bytes: an empty message is one empty last chunk.
func tagged(msg []byte, size int) []byte {
	var out []byte
	for i := 0; i == 0 || i*size < len(msg); i++ {
		chunk := msg[i*size : min(len(msg), (i+1)*size)]
		out, _ = tagChunk(uint32(i), (i+1)*size >= len(msg), append(out, chunk...))
	}
	return out
}

// chunkLengths are message lengths around the chunk and job boundaries of
// chunks of size bytes, jobs of per chunks.
func chunkLengths(size, per int) []int {
	job := per * size
	return []int{0, 1, size - 1, size, size + 1, job - 1, job, job + 1, 2 * job, 2*job + size + 3}
}

// TestRunChunks seals messages of every length around the chunk and job
// boundaries with the stand-in, read whole, in halves and a byte at a time,
// and opens them again: every chunk in its place with its number and last
// flag, in jobs of many chunks (1000-byte chunks) and of a few (300 KiB).
func TestRunChunks(t *testing.T) {
	r := rng(t)
	readers := map[string]func(io.Reader) io.Reader{
		"whole":  func(r io.Reader) io.Reader { return r },
		"halves": iotest.HalfReader,
		"bytes":  iotest.OneByteReader,
	}
	for _, size := range []int{1000, 300 << 10} {
		_, per, _ := chunkPlan(2, size, size+tagLen)
		if size == 300<<10 && per != 3 {
			t.Fatalf("300 KiB chunks: %d a job, want 3", per)
		}
		for _, n := range chunkLengths(size, per) {
			msg := randomBytes(r, n)
			want := tagged(msg, size)
			for name, wrap := range readers {
				if name == "bytes" && n > 4*size {
					continue
				}
				t.Run(fmt.Sprintf("size=%d/n=%d/%s", size, n, name), func(t *testing.T) {
					var sealed bytes.Buffer
					done := 0
					if err := runChunks(wrap(bytes.NewReader(msg)), &sealed, size, size+tagLen, func(k int) { done += k }, tagChunk, false); err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(sealed.Bytes(), want) {
						t.Fatalf("sealed %d bytes into %d, want %d (or they differ)", n, sealed.Len(), len(want))
					}
					if done != n {
						t.Errorf("progress counted %d bytes of %d", done, n)
					}
					var opened bytes.Buffer
					done = 0
					err := runChunks(wrap(bytes.NewReader(want)), &opened, size+tagLen, size, func(k int) { done += k }, untagChunk, true)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(opened.Bytes(), msg) || done != len(want) {
						t.Errorf("opened %d bytes (progress %d) into %d, want %d", len(want), done, opened.Len(), n)
					}
				})
			}
		}
	}
}

// TestRunChunksEmptyOpen checks that opening nothing after the header is
// an error, where sealing nothing makes one empty chunk.
func TestRunChunksEmptyOpen(t *testing.T) {
	var out bytes.Buffer
	err := runChunks(bytes.NewReader(nil), &out, 1000+tagLen, 1000, nil, untagChunk, true)
	if err == nil || !strings.Contains(err.Error(), "cut short after its header") || out.Len() > 0 {
		t.Errorf("got %v and %d bytes", err, out.Len())
	}
}

// TestRunChunksStopsAtFailure fails one chunk, first, last, inside a job
// and at either end of one: the chunks before it are written, and counted
// as done, nothing after it, and its error is runChunks'.
func TestRunChunksStopsAtFailure(t *testing.T) {
	const size = 1000
	_, per, _ := chunkPlan(2, size, size+tagLen)
	msg := randomBytes(rng(t), 3*per*size+10)
	last := 3 * per
	for _, bad := range []int{0, 1, per / 2, per - 1, per, per + 1, 2*per + 7, last} {
		errBad := errors.New("bad chunk")
		var out bytes.Buffer
		done := 0
		err := runChunks(bytes.NewReader(msg), &out, size, size+tagLen, func(k int) { done += k }, func(i uint32, last bool, in []byte) ([]byte, error) {
			if int(i) == bad {
				return nil, errBad
			}
			return tagChunk(i, last, in)
		}, false)
		if err != errBad {
			t.Errorf("chunk %d failed: runChunks returned %v", bad, err)
		}
		if want := tagged(msg, size)[:bad*(size+tagLen)]; !bytes.Equal(out.Bytes(), want) {
			t.Errorf("chunk %d failed: wrote %d bytes, want the %d before it", bad, out.Len(), len(want))
		}
		if done != bad*size {
			t.Errorf("chunk %d failed: progress counted %d bytes, want the %d before it", bad, done, bad*size)
		}
	}
}

// TestRunChunksOutOfPlace checks that outputs that process makes
// elsewhere than in the input's place are written too, in order.
func TestRunChunksOutOfPlace(t *testing.T) {
	const size = 1000
	_, per, _ := chunkPlan(2, size, size+tagLen)
	msg := randomBytes(rng(t), 2*per*size+33)
	var out bytes.Buffer
	err := runChunks(bytes.NewReader(msg), &out, size, size+tagLen, nil, func(i uint32, last bool, in []byte) ([]byte, error) {
		if i%3 == 1 {
			return tagChunk(i, last, bytes.Clone(in))
		}
		return tagChunk(i, last, in)
	}, false)
	if err != nil || !bytes.Equal(out.Bytes(), tagged(msg, size)) {
		t.Errorf("error %v, %d bytes written of %d", err, out.Len(), len(tagged(msg, size)))
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// failingWriter fails every write after the first n bytes.
type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		return 0, errors.New("disk full")
	}
	w.n -= len(p)
	return len(p), nil
}

// TestRunChunksWriteFails checks that a write that fails stops the
// pipeline: the error says so, and the reader stops within the jobs in
// flight instead of reading the rest of a long input.
func TestRunChunksWriteFails(t *testing.T) {
	const size, total = 1000, 256 << 20
	slot, per, workers := chunkPlan(runtime.GOMAXPROCS(0), size, size+tagLen)
	in := &countingReader{r: io.LimitReader(zeros{}, total)}
	err := runChunks(in, &failingWriter{n: 3 * slot}, size, size+tagLen, nil, tagChunk, false)
	if err == nil || !strings.Contains(err.Error(), "writing the output: disk full") {
		t.Errorf("got %v", err)
	}
	// The jobs in flight, the one held back and the one being read.
	if limit := (2*workers + 4) * per * size; in.n > limit {
		t.Errorf("read %d bytes after the output failed, more than %d", in.n, limit)
	}
}

// TestRunChunksBugs checks that a bug (a panic) in processing a chunk, or
// in writing, ends runChunks with an internal error, as main's recover
// ends the rest of the command, rather than stopping the process from
// another goroutine with the temporary file left: the chunks before a
// panicking one are written, nothing after it, and after the writer
// panics the reader stops within the jobs in flight.
func TestRunChunksBugs(t *testing.T) {
	const size = 1000
	_, per, _ := chunkPlan(2, size, size+tagLen)
	msg := randomBytes(rng(t), 3*per*size+10)
	for _, bad := range []int{0, per - 1, per + 1, 3 * per} {
		var out bytes.Buffer
		err := runChunks(bytes.NewReader(msg), &out, size, size+tagLen, nil, func(i uint32, last bool, in []byte) ([]byte, error) {
			if int(i) == bad {
				panic("the chunk broke")
			}
			return tagChunk(i, last, in)
		}, false)
		if err == nil || err.Error() != "internal error: the chunk broke" {
			t.Errorf("chunk %d panics: runChunks returned %v", bad, err)
		}
		if want := tagged(msg, size)[:bad*(size+tagLen)]; !bytes.Equal(out.Bytes(), want) {
			t.Errorf("chunk %d panics: wrote %d bytes, want the %d before it", bad, out.Len(), len(want))
		}
	}

	const total = 256 << 20
	slot, per, workers := chunkPlan(runtime.GOMAXPROCS(0), size, size+tagLen)
	in := &countingReader{r: io.LimitReader(zeros{}, total)}
	w := &brokenWriter{fail: 2, panics: true}
	err := runChunks(in, w, size, size+tagLen, nil, tagChunk, false)
	if err == nil || err.Error() != "internal error: the writer broke" {
		t.Errorf("the writer panics: runChunks returned %v", err)
	}
	if w.Len() > per*slot {
		t.Errorf("the writer panics: %d bytes written, more than the job before it", w.Len())
	}
	if limit := (2*workers + 4) * per * size; in.n > limit {
		t.Errorf("the writer panics: read %d bytes after it, more than %d", in.n, limit)
	}
}

// TestRunChunksReadFails checks that a read error ends runChunks with it,
// after the output of every chunk that a byte followed, and so was not
// the message's last, as before jobs: for open, the chunks that
// authenticate go to standard output even if the input then fails. The
// chunk the input failed in, and the one before it if that ended where
// the input did, are not.
func TestRunChunksReadFails(t *testing.T) {
	const size = 1000
	_, per, _ := chunkPlan(2, size, size+tagLen)
	msg := randomBytes(rng(t), 3*per*size)
	for _, n := range []int{0, 1, size, size + 1, 3*size - 1, per * size, per*size + 1, per*size + size, 2*per*size + 5, 3 * per * size} {
		in := io.MultiReader(bytes.NewReader(msg[:n]), iotest.ErrReader(errors.New("device gone")))
		var out bytes.Buffer
		err := runChunks(in, &out, size, size+tagLen, nil, tagChunk, false)
		if err == nil || !strings.Contains(err.Error(), "reading the input: device gone") {
			t.Errorf("input failed after %d bytes: got %v", n, err)
		}
		var want []byte
		for i := 0; (i+1)*size < n; i++ {
			want, _ = tagChunk(uint32(i), false, append(want, msg[i*size:(i+1)*size]...))
		}
		if !bytes.Equal(out.Bytes(), want) {
			t.Errorf("input failed after %d bytes: wrote %d bytes, want the %d of the chunks before the failing one", n, out.Len(), len(want))
		}
	}
}

// zeros reads as an endless run of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// notifyWriter collects what is written and tells written each time.
type notifyWriter struct {
	bytes.Buffer
	written chan int
}

func (w *notifyWriter) Write(p []byte) (int, error) {
	n, err := w.Buffer.Write(p)
	w.written <- w.Len()
	return n, err
}

// TestRunChunksStreams feeds runChunks from a pipe that stops after a full
// job and one byte more: the job must come out while the writer waits,
// as soon as that byte tells runChunks it is not the message's last.
func TestRunChunksStreams(t *testing.T) {
	const size = 1000
	_, per, _ := chunkPlan(2, size, size+tagLen)
	msg := randomBytes(rng(t), per*size+1)
	pr, pw := io.Pipe()
	out := &notifyWriter{written: make(chan int, 2*per+2)}
	errc := make(chan error, 1)
	go func() { errc <- runChunks(pr, out, size, size+tagLen, nil, tagChunk, false) }()
	go pw.Write(msg)
	for n := 0; n < per*(size+tagLen); {
		select {
		case n = <-out.written:
		case <-time.After(60 * time.Second):
			t.Fatalf("after a job and a byte more, %d bytes written of the job's %d", n, per*(size+tagLen))
		}
	}
	pw.Close()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), tagged(msg, size)) {
		t.Error("the streamed message came out wrong")
	}
}

// TestRunChunksShortInputOneJob checks that a short input makes the
// buffers of one job, not of every job the pipeline may hold: a header
// may name 16 MiB chunks for a file of a few bytes.
func TestRunChunksShortInputOneJob(t *testing.T) {
	const size = 1 << maxChunkLog
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var out bytes.Buffer
	if err := runChunks(bytes.NewReader([]byte("short")), &out, size, size+tagLen, nil, tagChunk, false); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 3<<maxChunkLog/2 {
		t.Errorf("sealing 5 bytes in 16 MiB chunks allocated %d MiB", got>>20)
	}
}

// TestMaxChunksFitsNonce checks that runChunks' limit is FORMAT.md's 2^32
// chunks: every chunk number below it fits the nonce's 4 bytes, so that no
// two chunks of a file share a nonce, and none past it is allowed.
// TestRunChunksLimit lowers maxChunks, so it does not see the limit itself;
// a message that reaches it is terabytes long.
func TestMaxChunksFitsNonce(t *testing.T) {
	if maxChunks != 1<<32 {
		t.Fatalf("maxChunks = %d, want 2^32, what the nonce's 4-byte chunk number counts", maxChunks)
	}
	h := &sealHeader{}
	last := h.nonce(uint32(maxChunks-1), true)
	if string(last[7:11]) != "\xff\xff\xff\xff" {
		t.Errorf("chunk %d's nonce % x", maxChunks-1, last)
	}
}

// TestRunChunksLimit lowers the limit of 2^32 chunks to a few and to a
// job's worth or so: a message of exactly that many chunks, the last one
// full, seals and opens, and one byte more is refused either way, after
// the chunks within the limit.
func TestRunChunksLimit(t *testing.T) {
	const size = 1000
	_, per, _ := chunkPlan(2, size, size+tagLen)
	defer func(n uint64) { maxChunks = n }(maxChunks)
	for _, limit := range []int{1, 3, per - 1, per, per + 1, 2 * per} {
		maxChunks = uint64(limit)
		msg := randomBytes(rng(t), limit*size+1)
		for _, n := range []int{limit * size, limit*size + 1} {
			var sealed, opened bytes.Buffer
			errSeal := runChunks(bytes.NewReader(msg[:n]), &sealed, size, size+tagLen, nil, tagChunk, false)
			want := tagged(msg[:n], size)
			errOpen := runChunks(bytes.NewReader(want), &opened, size+tagLen, size, nil, untagChunk, true)
			if n == limit*size {
				if errSeal != nil || errOpen != nil || !bytes.Equal(sealed.Bytes(), want) || !bytes.Equal(opened.Bytes(), msg[:n]) {
					t.Errorf("%d chunks, %d the limit: seal %v, open %v", limit, limit, errSeal, errOpen)
				}
				continue
			}
			for _, err := range []error{errSeal, errOpen} {
				if err == nil || !strings.Contains(err.Error(), "too long for this chunk size") {
					t.Errorf("%d chunks and a byte, %d the limit: %v", limit, limit, err)
				}
			}
			if !bytes.Equal(sealed.Bytes(), tagged(msg, size)[:limit*(size+tagLen)]) || !bytes.Equal(opened.Bytes(), msg[:limit*size]) {
				t.Errorf("%d chunks and a byte, %d the limit: sealed %d bytes, opened %d, want the %d chunks", limit, limit, sealed.Len(), opened.Len(), limit)
			}
		}
	}
}

// writeCounter collects what is written and counts the writes.
type writeCounter struct {
	bytes.Buffer
	writes int
}

func (w *writeCounter) Write(p []byte) (int, error) {
	w.writes++
	return w.Buffer.Write(p)
}

// TestRunChunksCoalescesWrites checks that the outputs of a job that fill
// their slots, as seal's do, go out in one write a job, and outputs that
// fall short of their slots, as open's do, in one write a chunk: no more
// writes than that, and never the bytes between them.
func TestRunChunksCoalescesWrites(t *testing.T) {
	const size = 1000
	_, per, _ := chunkPlan(2, size, size+tagLen)
	msg := randomBytes(rng(t), 2*per*size+3)
	var sealed, opened writeCounter
	if err := runChunks(bytes.NewReader(msg), &sealed, size, size+tagLen, nil, tagChunk, false); err != nil {
		t.Fatal(err)
	}
	if want := tagged(msg, size); !bytes.Equal(sealed.Bytes(), want) || sealed.writes != 3 {
		t.Errorf("sealing 2 jobs and a chunk: %d writes, want 3 (or the output differs)", sealed.writes)
	}
	if err := runChunks(bytes.NewReader(sealed.Bytes()), &opened, size+tagLen, size, nil, untagChunk, true); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(opened.Bytes(), msg) || opened.writes != 2*per+1 {
		t.Errorf("opening %d chunks: %d writes, want one a chunk (or the output differs)", 2*per+1, opened.writes)
	}
}

// stuckWriter blocks every write until release is closed.
type stuckWriter struct {
	bytes.Buffer
	release chan struct{}
}

func (w *stuckWriter) Write(p []byte) (int, error) {
	<-w.release
	return w.Buffer.Write(p)
}

// TestRunChunksWaitsForWriter checks that the reader stops when every
// job's buffer is taken while the output is stuck: memory stays within
// the 2·workers+2 jobs that chunkMemory bounds, however far the input goes.
func TestRunChunksWaitsForWriter(t *testing.T) {
	const size, total = 1000, 32 << 20
	_, per, workers := chunkPlan(runtime.GOMAXPROCS(0), size, size+tagLen)
	limit := int64((2*workers + 2) * per * size)
	waits, over := make(chan struct{}), make(chan struct{})
	in := &boundedReader{r: io.LimitReader(zeros{}, total), limit: limit, over: func() { close(over) }}
	out := &stuckWriter{release: make(chan struct{})}
	whenPoolWaits(t, func() { close(waits) })
	errc := make(chan error, 1)
	go func() { errc <- runChunks(in, out, size, size+tagLen, nil, tagChunk, false) }()
	select {
	case <-waits:
	case <-over:
		t.Errorf("read more than the %d bytes of every job while the output was stuck", limit)
	case <-time.After(time.Minute): // a hang's bound: the reader waits within milliseconds
		t.Errorf("the reader neither waited for a job's buffer nor read past the %d bytes of every job", limit)
	}
	close(out.release)
	if err := <-errc; err != nil || out.Len() != total+(total+size-1)/size*tagLen {
		t.Errorf("error %v, %d bytes written", err, out.Len())
	}
}
