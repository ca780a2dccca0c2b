package main

import (
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"golang.org/x/crypto/argon2"

	"github.com/twofish-go/twofish"
)

// The container of "twofish seal" and "twofish open", specified in
// FORMAT.md: a header, whose MAC binds it and the file to one key, then the
// message in chunks, each sealed with Twofish-256 in GCM or OCB under a key
// derived for this file, with the STREAM construction's nonces (a random
// prefix, the chunk's number and a flag on the last chunk) and the
// header's fields as associated data.

// sealMagic begins every sealed file. The first byte is not ASCII and the
// last is a line feed, so that a transfer that changes either is noticed.
const sealMagic = "\x89TWOFSH\n"

// A header is its fields, then the MAC of the fields.
const (
	sealFieldsSize = 44
	sealMACSize    = sha256.Size
	sealHeaderSize = sealFieldsSize + sealMACSize
)

// The values of the header's fields.
const (
	sealVersion = 2

	aeadGCM = 1
	aeadOCB = 2

	kdfArgon2id = 1 // a passphrase through Argon2id
	kdfKey      = 2 // a 32-byte key through HKDF-SHA256

	minChunkLog, maxChunkLog = 10, 24 // 1 KiB to 16 MiB of plaintext per chunk
	defaultChunkLog          = 16     // 64 KiB

	sealTagSize = 16
)

// HKDF's infos for the file key and the header's MAC key: they bind the
// keys to this format and to their use.
const (
	sealKeyInfo = "twofish-seal v2 file key"
	sealMACInfo = "twofish-seal v2 header MAC"
)

// A sealHeader is the header of a sealed file.
type sealHeader struct {
	aead     byte // aeadGCM or aeadOCB
	chunkLog byte // plaintext bytes per chunk: 1 << chunkLog
	kdf      byte // kdfArgon2id or kdfKey
	// Argon2id's passes, memory in KiB and lanes; zero with kdfKey.
	time, memory uint32
	threads      byte
	salt         [16]byte
	prefix       [7]byte // the nonce prefix
	// mac is HMAC-SHA256 of the fields under a key derived beside the
	// file key, from the same secret and salt (sealHeader.keys).
	mac [sealMACSize]byte
}

// marshal returns the header's bytes: its fields, then its MAC.
func (h *sealHeader) marshal() []byte {
	return append(h.fields(), h.mac[:]...)
}

// fields returns the bytes of the header's fields: what its MAC and every
// chunk authenticate.
func (h *sealHeader) fields() []byte {
	b := make([]byte, 0, sealHeaderSize)
	b = append(b, sealMagic...)
	b = append(b, sealVersion, h.aead, h.chunkLog, h.kdf)
	b = binary.BigEndian.AppendUint32(b, h.time)
	b = binary.BigEndian.AppendUint32(b, h.memory)
	b = append(b, h.threads)
	b = append(b, h.salt[:]...)
	return append(b, h.prefix[:]...)
}

// parseSealHeader reads and checks a header. Its errors say what is wrong
// in words a user can act on.
func parseSealHeader(b []byte) (*sealHeader, error) {
	if len(b) < len(sealMagic) || string(b[:len(sealMagic)]) != sealMagic {
		return nil, errors.New("not a file sealed by twofish seal (no header)")
	}
	if len(b) > 8 {
		switch v := b[8]; v {
		case sealVersion:
		case 1:
			return nil, errors.New("format version 1, of an earlier twofish; this one reads version 2, whose header binds the file to one key: open the file with the twofish that sealed it, and seal it again")
		default:
			return nil, fmt.Errorf("format version %d; this twofish reads version %d", v, sealVersion)
		}
	}
	if len(b) < sealHeaderSize {
		return nil, errors.New("the header is cut short")
	}
	h := &sealHeader{aead: b[9], chunkLog: b[10], kdf: b[11]}
	h.time = binary.BigEndian.Uint32(b[12:])
	h.memory = binary.BigEndian.Uint32(b[16:])
	h.threads = b[20]
	copy(h.salt[:], b[21:37])
	copy(h.prefix[:], b[37:44])
	copy(h.mac[:], b[sealFieldsSize:])
	switch {
	case h.aead != aeadGCM && h.aead != aeadOCB:
		return nil, fmt.Errorf("unknown authenticated mode %d in the header", h.aead)
	case h.chunkLog < minChunkLog || h.chunkLog > maxChunkLog:
		return nil, fmt.Errorf("chunk size 2^%d in the header is out of range", h.chunkLog)
	case h.kdf == kdfArgon2id && (h.time < 1 || h.memory < 8*uint32(h.threads) || h.threads < 1 || h.memory > maxArgon2Memory):
		return nil, fmt.Errorf("Argon2id parameters t=%d m=%d KiB p=%d in the header are out of range", h.time, h.memory, h.threads)
	case h.kdf == kdfKey && (h.time != 0 || h.memory != 0 || h.threads != 0):
		return nil, errors.New("a key-file header with Argon2id parameters")
	case h.kdf != kdfArgon2id && h.kdf != kdfKey:
		return nil, fmt.Errorf("unknown key derivation %d in the header", h.kdf)
	}
	return h, nil
}

// maxArgon2Memory is the most memory the format lets a header ask Argon2id
// for (4 GiB, in KiB); argon2Limits bound what open pays well below it.
const maxArgon2Memory = 4 << 20

// maxArgon2MemoryHere is the most memory Argon2id may have in this build:
// the format's limit where an int has 64 bits, and 1 GiB, half the range of
// an int, where it has 32. x/crypto's argon2 allocates all its memory as
// one slice, and a 32-bit address space (3 or 4 GiB) holds none of 4 GiB
// (it panics: "makeslice: len out of range") and seldom one of 2 GiB (the
// runtime stops the process: "out of memory", which no recover catches).
const maxArgon2MemoryHere = min(maxArgon2Memory, (math.MaxInt/2+1)>>10)

// argon2MemoryLimit says, for a usage error, what sets maxArgon2MemoryHere.
func argon2MemoryLimit() string {
	if maxArgon2MemoryHere < maxArgon2Memory {
		return "the most a 32-bit build gives Argon2id"
	}
	return "the format's limit"
}

// argon2Footprint is the memory, in bytes, that Argon2id over m KiB asks
// of the system: its blocks and 64 MiB for the runtime to map them with
// (its heap grows by 64 MiB arenas on 64-bit Linux).
func argon2Footprint(m uint32) uint64 { return uint64(m)<<10 + 64<<20 }

// argon2Limits are the most Argon2id work that open derives a key with. A
// sealed file is untrusted input, and its header is authenticated only by
// the key that Argon2id derives from it, so the costs the header asks for
// are checked before they are paid: without a ceiling one changed bit in
// the passes field asks for over a billion passes, and the memory field
// for 4 GiB. As age bounds scrypt's work factor, open refuses more than
// the ceiling, which its flags raise for files sealed with stronger
// settings, and seal refuses to write what open would refuse.
type argon2Limits struct {
	memory uint64 // KiB
	work   uint64 // passes times memory, KiB
	lanes  uint64
}

// The default ceiling: 2 GiB of memory, which admits RFC 9106's first
// recommended setting (one pass over 2 GiB), or in a 32-bit build the 1 GiB
// of maxArgon2MemoryHere, which does not; 4 GiB of work, passes times
// memory, ten times the default's 8 × 48 MiB; 16 lanes, four times the
// default. The worst header within it, two passes over 2 GiB in one lane,
// costs 11.2 s and 2 GiB on the 2-core Zen 5 machine, where the default
// costs 0.25-0.30 s (/usr/bin/time twofish open, medians of 3 and 5).
const (
	defaultArgon2MaxMemMiB  = 2048
	defaultArgon2MaxWorkMiB = 4096
	defaultArgon2MaxThreads = 16
)

// check reports why Argon2id with t passes over m KiB in p lanes is over
// the limits, nil if it is not.
func (l argon2Limits) check(t, m uint32, p byte) error {
	switch {
	case uint64(m) > l.memory:
		asked, ceiling := overKiB(uint64(m), l.memory)
		return fmt.Errorf("Argon2id asks for %s of memory, over the ceiling of %s (-argon2-max-memory raises it)", asked, ceiling)
	case uint64(t)*uint64(m) > l.work:
		asked, ceiling := overKiB(uint64(t)*uint64(m), l.work)
		return fmt.Errorf("Argon2id asks for %d passes over %s, %s of work (passes times memory), over the ceiling of %s (-argon2-max-work raises it)", t, formatBytes(int64(m)<<10), asked, ceiling)
	case uint64(p) > l.lanes:
		return fmt.Errorf("Argon2id asks for %d lanes, over the ceiling of %d (-argon2-max-threads raises it)", p, l.lanes)
	}
	return nil
}

// overKiB spells an amount of KiB that is over a ceiling, and the ceiling:
// in binary units with one decimal, or in KiB where those would read the
// same.
func overKiB(asked, ceiling uint64) (string, string) {
	a, c := formatKiB(asked), formatKiB(ceiling)
	if a == c {
		return fmt.Sprintf("%d KiB", asked), fmt.Sprintf("%d KiB", ceiling)
	}
	return a, c
}

// formatKiB is formatBytes of n KiB, which may be more bytes than an
// int64 holds: a header's passes times memory reach 2^54 KiB.
func formatKiB(n uint64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<20))
	}
	return formatBytes(int64(n) << 10)
}

// chunkSize is the plaintext size of every chunk but the last.
func (h *sealHeader) chunkSize() int { return 1 << h.chunkLog }

// argon2IDKey is argon2.IDKey, in a variable so that tests can see the
// costs that open would pay, and refuse to pay them, before it does.
var argon2IDKey = argon2.IDKey

// keys derives the file key and the header's MAC key from secret (the
// passphrase for kdfArgon2id, the 32-byte key for kdfKey), and returns the
// AEAD of the header's mode under the file key and the MAC of the header's
// fields.
//
// The MAC is what binds a file to one key. GCM and OCB do not: whoever
// knows two keys can make a chunk that authenticates under both, to two
// plaintexts (solving GHASH's equation for one block of it), so that one
// file says two things to two people, or a service that reports whether
// a file opens answers for many passphrases at once (the "invisible
// salamanders" and partitioning oracles of Dodis et al., 2018, and Len,
// Grubbs and Ristenpart, 2021). An HMAC-SHA256 that matches under two keys
// is a collision of SHA-256; age's header MAC binds its files the same way.
func (h *sealHeader) keys(secret []byte) (a cipher.AEAD, mac [sealMACSize]byte, err error) {
	ikm := secret
	if h.kdf == kdfArgon2id {
		ikm = argon2IDKey(secret, h.salt[:], h.time, h.memory, h.threads, 32)
	}
	key, err := hkdf.Key(sha256.New, ikm, h.salt[:], sealKeyInfo, 32)
	if err != nil {
		return nil, mac, err
	}
	macKey, err := hkdf.Key(sha256.New, ikm, h.salt[:], sealMACInfo, 32)
	if err != nil {
		return nil, mac, err
	}
	m := hmac.New(sha256.New, macKey)
	m.Write(h.fields())
	m.Sum(mac[:0])
	c, err := twofish.NewCipher(key)
	if err != nil {
		return nil, mac, err
	}
	if h.aead == aeadOCB {
		a, err = twofish.NewOCB(c, 12, sealTagSize)
	} else {
		a, err = twofish.NewGCM(c)
	}
	return a, mac, err
}

// errWrongKey is how open reports a header whose MAC does not match.
var errWrongKey = errors.New("wrong passphrase or key, or the header was changed (its MAC does not match)")

// nonce returns the nonce of chunk i: the prefix, i as 4 big-endian bytes,
// and 1 for the last chunk, else 0.
func (h *sealHeader) nonce(i uint32, last bool) []byte {
	n := make([]byte, 12)
	copy(n, h.prefix[:])
	binary.BigEndian.PutUint32(n[7:], i)
	if last {
		n[11] = 1
	}
	return n
}

// errAuth is how open reports a chunk that does not authenticate.
type errAuth struct {
	chunk uint32
	last  bool
}

func (e errAuth) Error() string {
	if e.last {
		return fmt.Sprintf("the file was cut short or changed (its last chunk, number %d, does not authenticate)", e.chunk)
	}
	return fmt.Sprintf("the file was changed (chunk %d does not authenticate)", e.chunk)
}

// sealChunks seals the message read from r, chunk by chunk, to w (after
// the header, which the caller has written).
func sealChunks(a cipher.AEAD, h *sealHeader, r io.Reader, w io.Writer, progress func(int)) error {
	ad := h.fields()
	return runChunks(r, w, h.chunkSize(), h.chunkSize()+sealTagSize, progress, func(i uint32, last bool, in []byte) ([]byte, error) {
		return a.Seal(in[:0], h.nonce(i, last), in, ad), nil
	}, false)
}

// openChunks opens the chunks read from r (after the header) to w,
// stopping at the first that does not authenticate: nothing after it is
// written.
func openChunks(a cipher.AEAD, h *sealHeader, r io.Reader, w io.Writer, progress func(int)) error {
	ad := h.fields()
	return runChunks(r, w, h.chunkSize()+sealTagSize, h.chunkSize(), progress, func(i uint32, last bool, in []byte) ([]byte, error) {
		if len(in) < sealTagSize {
			return nil, errAuth{i, true}
		}
		out, err := a.Open(in[:0], h.nonce(i, last), in, ad)
		if err != nil {
			return nil, errAuth{i, last}
		}
		if last && i > 0 && len(out) == 0 {
			// Only an empty message ends in an empty chunk: one
			// encoding for every message.
			return nil, fmt.Errorf("the file ends in an empty chunk (number %d) after a full one, where a sealed file's last chunk holds the rest of the message", i)
		}
		return out, nil
	}, true)
}

// chunkMemory bounds the buffers of runChunks: the chunk size comes from
// a file's header (up to 16 MiB, and its tag), and a buffer for each of
// 2·GOMAXPROCS+2 jobs would otherwise take 2 GiB on a 64-core machine.
const chunkMemory = 256 << 20

// batchBytes is how much input a job of runChunks holds when chunks are
// small: as many whole chunks as fit, and at least one. Handing the
// default 64 KiB chunks between the reader, the workers and the writer one
// at a time, sealing 1 GiB from the page cache to /dev/null took 1.5x as
// long as in jobs of 1 MiB (0.57 against 0.37 s, medians of 5, Zen 5, 2
// cores): the goroutines' hand-offs and wake-ups cost that much.
const batchBytes = 1 << 20

// chunkPlan returns how runChunks lays out chunks of inSize bytes in and
// outSize out on procs cores: a slot of slot bytes a chunk, per chunks a
// job (batchBytes, or one chunk), and a worker a core, but no more than
// keep the buffers of 2·workers+2 jobs within chunkMemory, and at least
// one.
func chunkPlan(procs, inSize, outSize int) (slot, per, workers int) {
	slot = max(inSize, outSize)
	per = max(1, batchBytes/slot)
	return slot, per, max(1, min(procs, (chunkMemory/(per*slot)-2)/2))
}

// maxChunks is the most chunks a message may have: FORMAT.md numbers
// them in 4 bytes. It is a variable so that tests can reach it.
var maxChunks uint64 = 1 << 32

// errTooManyChunks is runChunks' error for a message of over maxChunks.
var errTooManyChunks = errors.New("the input is too long for this chunk size (2^32 chunks)")

// A sealJob is a run of consecutive chunks on its way through the
// pipeline, each processed in place in a slot of buf.
type sealJob struct {
	first uint32   // the number of its first chunk
	lens  []int    // the input length of each chunk
	last  bool     // its last chunk is the message's last
	buf   []byte   // the chunks, one a slot
	outs  [][]byte // each chunk's output, in its slot, up to the first failure
	err   error    // the first chunk's failure
	done  chan struct{}
}

// runChunks reads r in chunks of inSize bytes (the last may be shorter),
// processes them on GOMAXPROCS workers and writes their outputs in order to
// w. process turns chunk i's input into its output of at most outSize
// bytes, in the input's place; last says whether the input ends with it.
// An empty input is one empty last chunk, except when opening (open),
// where it is an error. After a chunk fails nothing more is written.
// Memory stays at a few jobs' buffers whatever the input's size.
func runChunks(r io.Reader, w io.Writer, inSize, outSize int, progress func(int), process func(i uint32, last bool, in []byte) ([]byte, error), open bool) error {
	slot, per, workers := chunkPlan(runtime.GOMAXPROCS(0), inSize, outSize)
	// Up to 2·workers+2 jobs, made as the reader needs them: a short
	// input takes one, whatever chunk size its header names.
	nbuf := 2*workers + 2
	jobs := newPool(nbuf, func() *sealJob { return &sealJob{buf: make([]byte, per*slot)} })
	work := make(chan *sealJob, nbuf)
	order := make(chan *sealJob, nbuf)
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range work {
				func() {
					defer close(j.done)
					defer func() {
						if p := recover(); p != nil {
							j.err = fmt.Errorf("internal error: %v", p)
						}
					}()
					for k, n := range j.lens {
						out, err := process(j.first+uint32(k), j.last && k == len(j.lens)-1, j.buf[k*slot:k*slot+n:(k+1)*slot])
						if err != nil {
							j.err = err
							break
						}
						j.outs = append(j.outs, out)
					}
				}()
			}
		}()
	}

	// A bug (a panic) in a worker or the writer ends the stream with an
	// internal error, as main's recover ends the rest of the command, and
	// the output is removed: a panic in another goroutine would stop the
	// process and leave the temporary file.
	var werr error
	wdone := make(chan struct{})
	go func() {
		defer close(wdone)
		defer func() {
			if p := recover(); p != nil {
				werr = fmt.Errorf("internal error: %v", p)
				failed.Store(true)
				for j := range order { // let the reader and the workers finish
					<-j.done
					jobs.free <- j
				}
			}
		}()
		for j := range order {
			<-j.done
			if werr == nil {
				werr = j.write(w, slot)
				if werr == nil && progress != nil {
					n := 0
					for _, l := range j.lens[:len(j.outs)] {
						n += l
					}
					progress(n)
				}
				if werr == nil {
					werr = j.err
				}
			}
			if werr != nil {
				failed.Store(true)
			}
			jobs.free <- j
		}
	}()

	send := func(j *sealJob) {
		j.done = make(chan struct{})
		order <- j
		work <- j
	}
	rerr := func() error {
		// A full job is held back until a byte after it comes: only then
		// is it known that its last chunk is not the message's last.
		var held *sealJob
		for i := uint64(0); !failed.Load(); {
			j := jobs.get()
			j.first, j.lens, j.outs, j.err, j.last = uint32(i), j.lens[:0], j.outs[:0], nil, false
			ended := false
			for !ended && len(j.lens) < per {
				k := len(j.lens)
				b := j.buf[k*slot : k*slot+inSize]
				n, err := io.ReadAtLeast(r, b, 1)
				if n > 0 {
					if held != nil {
						send(held)
						held = nil
					}
					// Chunk 2^32 is one too many, but only a byte of it
					// says it is there: a message of 2^32 full chunks
					// ends with the last of them.
					if i+uint64(k) >= maxChunks {
						err = errTooManyChunks
					} else if err == nil {
						var m int
						m, err = io.ReadFull(r, b[n:])
						n += m
					}
				}
				switch err {
				case nil:
				case io.EOF, io.ErrUnexpectedEOF:
					ended = true
				default:
					// The chunks read that a byte followed are not the
					// message's last: they go out before the error, so
					// that open writes those that authenticate. The last
					// chunk read is one of them only if this read got a
					// byte; held is left only if it got none.
					rest := j
					if held != nil {
						rest = held
					}
					if n == 0 && len(rest.lens) > 0 {
						rest.lens = rest.lens[:len(rest.lens)-1]
					}
					if len(rest.lens) > 0 {
						send(rest)
					}
					if err == errTooManyChunks {
						return err
					}
					return fmt.Errorf("reading the input: %v", unwrapPath(err))
				}
				if n > 0 {
					j.lens = append(j.lens, n)
				}
			}
			i += uint64(len(j.lens))
			switch {
			case !ended:
				held = j
				continue
			case len(j.lens) > 0:
				j.last = true
				send(j)
			case held != nil:
				held.last = true
				send(held)
				jobs.free <- j
			case open:
				return errors.New("the file was cut short after its header")
			default:
				j.lens, j.last = append(j.lens, 0), true
				send(j)
			}
			return nil
		}
		return nil
	}()
	close(work)
	close(order)
	wg.Wait()
	<-wdone
	if werr != nil {
		return werr
	}
	return rerr
}

// write writes the outputs of j's chunks to w in order, each run of them
// that follow each other in j.buf in one write.
func (j *sealJob) write(w io.Writer, slot int) error {
	start, end := 0, 0 // the run of j.buf not yet written
	flush := func(b []byte) error {
		if len(b) == 0 {
			return nil
		}
		if _, err := w.Write(b); err != nil {
			return fmt.Errorf("writing the output: %v", unwrapPath(err))
		}
		return nil
	}
	for k, out := range j.outs {
		switch {
		case len(out) == 0:
		case &out[0] == &j.buf[k*slot] && end == k*slot:
			end += len(out)
		case &out[0] == &j.buf[k*slot]:
			if err := flush(j.buf[start:end]); err != nil {
				return err
			}
			start, end = k*slot, k*slot+len(out)
		default:
			if err := flush(j.buf[start:end]); err != nil {
				return err
			}
			if err := flush(out); err != nil {
				return err
			}
			start, end = 0, 0
		}
	}
	return flush(j.buf[start:end])
}
