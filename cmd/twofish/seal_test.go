package main

import (
	"bytes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/twofish-go/twofish"
	"golang.org/x/crypto/argon2"
)

// The seal and open tests use a chunk of 1 KiB, so that a few kilobytes
// make several chunks, and a cheap Argon2id: the format is the same.
var (
	sealChunk     = 1024
	fastArgon     = []string{"-argon2-time", "1", "-argon2-memory", "1", "-argon2-threads", "1"}
	sealChunkFlag = []string{"-chunk-size", "1024"}
)

// sealSetup writes a random message of n bytes, a key file and a
// passphrase file to a new directory and returns their paths.
func sealSetup(t *testing.T, n int) (dir, msg, key, pass string) {
	t.Helper()
	dir = t.TempDir()
	r := rng(t)
	msg, key, pass = filepath.Join(dir, "msg"), filepath.Join(dir, "key"), filepath.Join(dir, "pass")
	writeFile(t, msg, randomBytes(r, n))
	writeFile(t, key, randomBytes(r, 32))
	writeFile(t, pass, []byte("correct horse battery staple\n"))
	return dir, msg, key, pass
}

// sealFile seals msg to dir/name with args and returns the sealed bytes.
func sealFile(t *testing.T, dir, msg, name string, args ...string) []byte {
	t.Helper()
	out := filepath.Join(dir, name)
	args = append([]string{"seal", "-in", msg, "-out", out}, args...)
	if status, _, stderr := runTool(t, args...); status != exitOK {
		t.Fatalf("twofish %q: status %d: %s", args, status, stderr)
	}
	return readFile(t, out)
}

// openFails checks that open refuses the sealed bytes b: exit status 1, a
// one-line error containing want, and no output file.
func openFails(t *testing.T, dir string, b []byte, want string, secret ...string) {
	t.Helper()
	in, out := filepath.Join(dir, "bad"), filepath.Join(dir, "bad.out")
	writeFile(t, in, b)
	os.Remove(out)
	status, stdout, stderr := runTool(t, append([]string{"open", "-in", in, "-out", out}, secret...)...)
	checkOneLineError(t, execResult{code: status, stdout: []byte(stdout), stderr: []byte(stderr)}, exitFailure, want, secret)
	if _, err := os.Stat(out); err == nil {
		t.Errorf("open of a bad file left %s", out)
	}
	if names := dirNames(t, dir); strings.Contains(strings.Join(names, " "), ".tmp") {
		t.Errorf("temporary files left: %q", names)
	}
}

// TestSealRoundTrip seals and opens messages of the sizes around the chunk
// boundaries with both modes and every kind of secret, and checks the
// sealed file's size: the header, the message, and a tag per chunk.
func TestSealRoundTrip(t *testing.T) {
	secrets := map[string][]string{
		"key file":        {"-key-file", "key"},
		"hex key":         {"-key-file", "hexkey"},
		"passphrase file": {"-passphrase-file", "pass"},
	}
	for _, aead := range []string{"gcm", "ocb"} {
		for _, n := range []int{0, 1, sealChunk - 1, sealChunk, sealChunk + 1, 3*sealChunk + 5} {
			for what, secret := range secrets {
				t.Run(fmt.Sprintf("%s/%d/%s", aead, n, what), func(t *testing.T) {
					dir, msg, key, _ := sealSetup(t, n)
					writeFile(t, filepath.Join(dir, "hexkey"), []byte(hex.EncodeToString(readFile(t, key))+"\n"))
					secret := []string{secret[0], filepath.Join(dir, secret[1])}
					args := append(append(append([]string{"-aead", aead}, sealChunkFlag...), fastArgon...), secret...)
					sealed := sealFile(t, dir, msg, "sealed", args...)
					chunks := max(1, (n+sealChunk-1)/sealChunk)
					if want := sealHeaderSize + n + 16*chunks; len(sealed) != want {
						t.Errorf("sealed %d bytes into %d, want %d", n, len(sealed), want)
					}
					out := filepath.Join(dir, "opened")
					if status, _, stderr := runTool(t, append([]string{"open", "-in", filepath.Join(dir, "sealed"), "-out", out}, secret...)...); status != exitOK {
						t.Fatalf("open: status %d: %s", status, stderr)
					}
					if !bytes.Equal(readFile(t, out), readFile(t, msg)) {
						t.Error("open gave back a different message")
					}
				})
			}
		}
	}
}

// TestSealTamper changes the bytes of a sealed file of three chunks, one at
// a time, and cuts it at every chunk boundary and inside chunks, swaps,
// drops and repeats chunks: open must refuse each, write nothing, and say
// why in one line.
func TestSealTamper(t *testing.T) {
	dir, msg, key, _ := sealSetup(t, 2*sealChunk+100)
	secret := []string{"-key-file", key}
	sealed := sealFile(t, dir, msg, "sealed", append(sealChunkFlag, secret...)...)
	hdr, c := sealHeaderSize, sealChunk+16
	chunk := func(i int) []byte { return sealed[hdr+i*c : min(hdr+(i+1)*c, len(sealed))] }
	join := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

	// Every byte in exhaustive runs; otherwise every header byte and every
	// fifth (-short: 31st) byte after it.
	step := 5
	switch {
	case exhaustive():
		step = 1
	case testing.Short():
		step = 31
	}
	for i := 0; i < len(sealed); i++ {
		if i >= hdr && (i-hdr)%step != 0 {
			continue
		}
		b := bytes.Clone(sealed)
		b[i] ^= 0x40
		want := "does not authenticate"
		if i < hdr {
			want = "" // the header's checks may catch it first
		}
		openFails(t, dir, b, want, secret...)
	}
	for _, cut := range []int{0, 5, hdr - 1, hdr, hdr + 1, hdr + c - 1, hdr + c, hdr + c + 17, hdr + 2*c, len(sealed) - 1} {
		// The header's MAC has shown the key right: a chunk that fails
		// as the last is a cut, or a change, never a wrong key.
		want := "the file was cut short or changed"
		switch {
		case cut < hdr:
			want = "header"
		case cut < hdr+sealTagSize:
			want = "cut short after its header"
		}
		if cut == 0 {
			want = "not a file sealed by twofish seal"
		}
		openFails(t, dir, sealed[:cut], want, secret...)
	}
	h := sealed[:hdr]
	for name, b := range map[string][]byte{
		"chunks 0 and 1 swapped":  join(h, chunk(1), chunk(0), chunk(2)),
		"chunk 1 dropped":         join(h, chunk(0), chunk(2)),
		"chunk 1 repeated":        join(h, chunk(0), chunk(1), chunk(1), chunk(2)),
		"the last chunk repeated": join(h, chunk(0), chunk(1), chunk(2), chunk(2)),
		"a byte appended":         join(sealed, []byte{0}),
	} {
		t.Run(name, func(t *testing.T) { openFails(t, dir, b, "does not authenticate", secret...) })
	}
}

// TestSealWrongSecret checks that a wrong passphrase or key, and the wrong
// kind of secret, fail clearly and write nothing, in both modes: the
// header's MAC tells a wrong secret.
func TestSealWrongSecret(t *testing.T) {
	dir, msg, key, pass := sealSetup(t, 3000)
	other := filepath.Join(dir, "other")
	writeFile(t, other, []byte("Tr0ub4dor&3\n"))
	otherKey := filepath.Join(dir, "otherkey")
	writeFile(t, otherKey, randomBytes(rng(t), 32))
	const wrong = "wrong passphrase or key, or the header was changed (its MAC does not match)"
	for _, aead := range []string{"gcm", "ocb"} {
		byPass := sealFile(t, dir, msg, "p-"+aead, append(fastArgon, "-aead", aead, "-passphrase-file", pass)...)
		byKey := sealFile(t, dir, msg, "k-"+aead, "-aead", aead, "-key-file", key)
		openFails(t, dir, byPass, wrong, "-passphrase-file", other)
		openFails(t, dir, byKey, wrong, "-key-file", otherKey)
		openFails(t, dir, byPass, "sealed with a passphrase, not a key file", "-key-file", key)
		openFails(t, dir, byKey, "sealed with a key file", "-passphrase-file", pass)
	}
	t.Setenv("TWOFISH_TEST_PASSPHRASE", "correct horse battery staple")
	if status, _, stderr := runTool(t, "open", "-in", filepath.Join(dir, "p-gcm"), "-out", filepath.Join(dir, "env.out"), "-passphrase-env", "TWOFISH_TEST_PASSPHRASE"); status != exitOK {
		t.Errorf("open with -passphrase-env: status %d: %s", status, stderr)
	}
}

// TestOpenStdoutStopsAtFailure opens a file whose third chunk was changed
// to standard output: the two chunks before it come out, nothing after.
func TestOpenStdoutStopsAtFailure(t *testing.T) {
	dir, msg, key, _ := sealSetup(t, 4*sealChunk)
	sealed := sealFile(t, dir, msg, "sealed", append(sealChunkFlag, "-key-file", key)...)
	sealed[sealHeaderSize+2*(sealChunk+16)+5] ^= 1
	bad := filepath.Join(dir, "bad")
	writeFile(t, bad, sealed)
	status, stdout, stderr := runTool(t, "open", "-in", bad, "-key-file", key)
	if status != exitFailure || !strings.Contains(stderr, "chunk 2 does not authenticate") {
		t.Errorf("status %d, stderr %q", status, stderr)
	}
	if want := readFile(t, msg)[:2*sealChunk]; stdout != string(want) {
		t.Errorf("stdout got %d bytes, want the %d of the chunks before the bad one", len(stdout), len(want))
	}
}

// TestSealUsage checks seal's and open's usage errors: status 2, one line.
func TestSealUsage(t *testing.T) {
	dir, msg, key, pass := sealSetup(t, 10)
	// 32 bytes that are no key: passphrases with their line feeds (ASCII,
	// UTF-8, after a byte order mark), a 16-byte key in hex, zeros, and
	// UTF-16 text.
	notKeys := map[string][]byte{
		"ascii":  []byte("correct horse battery staple!!!\n"),
		"utf-8":  []byte("Mot de passe très secret!!!!!!\n"),
		"bom":    []byte("\uFEFFcorrect horse battery staple\n"),
		"hex":    []byte("000102030405060708090a0b0c0d0e0f"),
		"zeros":  make([]byte, 32),
		"utf-16": []byte("c\x00o\x00r\x00r\x00e\x00c\x00t\x00 \x00h\x00o\x00r\x00s\x00e\x00 \x00b\x00a\x00"),
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"seal", "-in", msg, "-key-file", key, "-passphrase-file", pass}, "give one"},
		{[]string{"seal", "-in", msg, "-key-file", key, "-aead", "ctr"}, "want gcm or ocb"},
		{[]string{"seal", "-in", msg, "-key-file", key, "-chunk-size", "1000"}, "power of two"},
		{[]string{"seal", "-in", msg, "-key-file", key, "-chunk-size", "512"}, "power of two"},
		{[]string{"seal", "-in", msg, "-passphrase-file", pass, "-argon2-time", "0"}, "-argon2-time 0"},
		{[]string{"seal", "-in", msg, "-passphrase-file", pass, "-argon2-threads", "0"}, "-argon2-threads 0"},
		{[]string{"seal", "-in", msg, "-passphrase-file", pass, "-argon2-memory", "0"}, "-argon2-memory 0"},
		{[]string{"open", "-in", msg, "extra"}, "unexpected argument"},
		{[]string{"seal", "-in", "", "-key-file", key}, "-in and -out: want a file name or -"},
		{[]string{"open", "-in", msg, "-out", "", "-key-file", key}, "-in and -out: want a file name or -"},
		// An empty value, as "-key-file $KEY" with KEY unset gives, is
		// refused, not taken as no flag: that would prompt for a
		// passphrase where a key file was meant.
		{[]string{"seal", "-in", msg, "-key-file", ""}, "-key-file: want a file name"},
		{[]string{"open", "-in", msg, "-passphrase-file", ""}, "-passphrase-file: want a file name"},
		{[]string{"seal", "-in", msg, "-passphrase-env", ""}, "-passphrase-env: want a variable name"},
	} {
		status, stdout, stderr := runTool(t, tc.args...)
		checkOneLineError(t, execResult{code: status, stdout: []byte(stdout), stderr: []byte(stderr)}, exitUsage, tc.want, tc.args)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"open", "-in", msg, "-key-file", key}, "not a file sealed by twofish seal"},
		{[]string{"seal", "-in", filepath.Join(dir, "nonesuch"), "-key-file", key}, "nonesuch"},
		{[]string{"seal", "-in", msg, "-key-file", pass}, "want a 32-byte key"},
		{[]string{"seal", "-in", msg, "-passphrase-env", "TWOFISH_TEST_UNSET_VARIABLE"}, "not set or empty"},
	} {
		status, stdout, stderr := runTool(t, tc.args...)
		checkOneLineError(t, execResult{code: status, stdout: []byte(stdout), stderr: []byte(stderr)}, exitFailure, tc.want, tc.args)
	}
	for name, b := range notKeys {
		if len(b) != 32 {
			t.Fatalf("the %s key file has %d bytes, want 32", name, len(b))
		}
		key := filepath.Join(dir, name+"-key")
		writeFile(t, key, b)
		args := []string{"seal", "-in", msg, "-key-file", key}
		status, stdout, stderr := runTool(t, args...)
		checkOneLineError(t, execResult{code: status, stdout: []byte(stdout), stderr: []byte(stderr)}, exitFailure, "not a key; want 32 random bytes", args)
	}
}

// TestSealHeader checks that the header parser refuses every field out of
// range, with a message that names it.
func TestSealHeader(t *testing.T) {
	h := &sealHeader{aead: aeadGCM, chunkLog: 16, kdf: kdfArgon2id, time: 3, memory: 64 << 10, threads: 4}
	good := h.marshal()
	if got, err := parseSealHeader(good); err != nil || *got != *h {
		t.Fatalf("parse(marshal(h)) = %+v, %v", got, err)
	}
	for _, tc := range []struct {
		at   int
		val  byte
		want string
	}{
		{0, 'T', "not a file sealed"},
		{8, 1, "format version 1, of an earlier twofish"},
		{8, 3, "format version 3"},
		{9, 3, "unknown authenticated mode"},
		{10, 9, "chunk size"},
		{10, 25, "chunk size"},
		{11, 3, "unknown key derivation"},
		{11, kdfKey, "key-file header with Argon2id"},
		{15, 0, "Argon2id parameters"}, // t = 0
		{20, 0, "Argon2id parameters"}, // p = 0
		{16, 0xff, "Argon2id parameters"},
	} {
		b := bytes.Clone(good)
		b[tc.at] = tc.val
		if tc.at == 15 {
			b[12], b[13], b[14] = 0, 0, 0
		}
		if _, err := parseSealHeader(b); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("byte %d = %d: error %v, want %q", tc.at, tc.val, err, tc.want)
		}
	}
	// Every length from the magic to a byte short of the header, each in
	// a slice of its own capacity, so that no read past it goes unseen.
	for n := len(sealMagic); n < sealHeaderSize; n++ {
		if _, err := parseSealHeader(good[:n:n]); err == nil || !strings.Contains(err.Error(), "cut short") {
			t.Errorf("a header of %d bytes: error %v", n, err)
		}
	}
	// A version 1 file of an empty message, 60 bytes, shorter than a
	// version 2 header: named as version 1, not as cut short.
	v1 := append([]byte(sealMagic+"\x01\x01\x10\x02"), make([]byte, 32+16)...)
	if _, err := parseSealHeader(v1); err == nil || !strings.Contains(err.Error(), "format version 1") {
		t.Errorf("an empty message sealed in version 1: error %v", err)
	}
	// Each bound itself parses; a step past it does not, nor one of the
	// Argon2id fields alone in a key-file header.
	for _, ok := range []sealHeader{
		{aead: aeadOCB, chunkLog: minChunkLog, kdf: kdfKey},
		{aead: aeadGCM, chunkLog: maxChunkLog, kdf: kdfKey},
		{aead: aeadGCM, chunkLog: 16, kdf: kdfArgon2id, time: 1, memory: maxArgon2Memory, threads: 1},
		{aead: aeadGCM, chunkLog: 16, kdf: kdfArgon2id, time: 1, memory: 8 * 4, threads: 4},
	} {
		if got, err := parseSealHeader(ok.marshal()); err != nil || *got != ok {
			t.Errorf("parse(marshal(%+v)) = %+v, %v", ok, got, err)
		}
	}
	for _, tc := range []struct {
		h    sealHeader
		want string
	}{
		{sealHeader{aead: aeadGCM, chunkLog: 16, kdf: kdfArgon2id, time: 1, memory: maxArgon2Memory + 1, threads: 1}, "Argon2id parameters"},
		{sealHeader{aead: aeadGCM, chunkLog: 16, kdf: kdfArgon2id, time: 1, memory: 8*4 - 1, threads: 4}, "Argon2id parameters"},
		{sealHeader{aead: aeadGCM, chunkLog: 16, kdf: kdfKey, time: 1}, "key-file header with Argon2id"},
		{sealHeader{aead: aeadGCM, chunkLog: 16, kdf: kdfKey, memory: 1}, "key-file header with Argon2id"},
		{sealHeader{aead: aeadGCM, chunkLog: 16, kdf: kdfKey, threads: 1}, "key-file header with Argon2id"},
	} {
		if _, err := parseSealHeader(tc.h.marshal()); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.h, err, tc.want)
		}
	}
}

// TestSealFormat opens a sealed file by FORMAT.md alone, without the
// command's code: the header's fields at their offsets, the file key from
// HKDF-SHA256, and each chunk's nonce.
func TestSealFormat(t *testing.T) {
	dir, msg, key, _ := sealSetup(t, 2*sealChunk+3)
	b := sealFile(t, dir, msg, "sealed", append(sealChunkFlag, "-key-file", key, "-aead", "ocb")...)
	hdr := b[:44]
	if string(hdr[:8]) != "\x89TWOFSH\n" || hdr[8] != 2 || hdr[9] != 2 || hdr[10] != 10 || hdr[11] != 2 || !bytes.Equal(hdr[12:21], make([]byte, 9)) {
		t.Fatalf("header % x", hdr)
	}
	got, ok := openByFormat(b, readFile(t, key))
	if !ok || !bytes.Equal(got, readFile(t, msg)) {
		t.Error("the message read by FORMAT.md differs")
	}
	// 301 chunks: the numbers past 255 reach the bytes of the nonce's
	// chunk number above its lowest.
	dir, msg, key, _ = sealSetup(t, 300*sealChunk+7)
	b = sealFile(t, dir, msg, "sealed", append(sealChunkFlag, "-key-file", key)...)
	if got, ok := openByFormat(b, readFile(t, key)); !ok || !bytes.Equal(got, readFile(t, msg)) {
		t.Error("a file of 301 chunks does not open by FORMAT.md")
	}
}

// TestSealFormatPassphrase opens a file sealed with a passphrase by
// FORMAT.md: the input keying material is Argon2id of the passphrase with
// the header's salt, passes, memory and lanes, each other than the others
// so that a mix-up shows, and the rest as with a key file.
func TestSealFormatPassphrase(t *testing.T) {
	dir, msg, _, pass := sealSetup(t, 2*sealChunk+3)
	b := sealFile(t, dir, msg, "sealed", append(slices.Clone(sealChunkFlag), "-argon2-time", "2", "-argon2-memory", "1", "-argon2-threads", "3", "-passphrase-file", pass)...)
	hdr := b[:44]
	passes, memory, lanes := binary.BigEndian.Uint32(hdr[12:]), binary.BigEndian.Uint32(hdr[16:]), hdr[20]
	if hdr[11] != 1 || passes != 2 || memory != 1024 || lanes != 3 {
		t.Fatalf("header % x: want key derivation 1 (Argon2id), t = 2, m = 1024, p = 3", hdr)
	}
	ikm := argon2.IDKey([]byte("correct horse battery staple"), hdr[21:37], passes, memory, lanes, 32)
	if got, ok := openByIKM(b, ikm); !ok || !bytes.Equal(got, readFile(t, msg)) {
		t.Error("a file sealed with a passphrase does not open by FORMAT.md")
	}
}

// openByFormat opens b, sealed with a 32-byte key, as FORMAT.md says a
// reader does, without the command's code; ok is false where a reader
// must reject it.
func openByFormat(b, key []byte) (msg []byte, ok bool) {
	if len(b) < 76 || string(b[:8]) != "\x89TWOFSH\n" || b[8] != 2 || b[9] < 1 || b[9] > 2 || b[10] < 10 || b[10] > 24 || b[11] != 2 || !bytes.Equal(b[12:21], make([]byte, 9)) {
		return nil, false
	}
	return openByIKM(b, key)
}

// openByIKM is openByFormat from the header's MAC on, for a file whose
// header is well formed, with its input keying material ikm.
func openByIKM(b, ikm []byte) (msg []byte, ok bool) {
	hdr := b[:44]
	m := hmac.New(sha256.New, formatKey(hdr, ikm, "twofish-seal v2 header MAC"))
	m.Write(hdr)
	if !hmac.Equal(m.Sum(nil), b[44:76]) {
		return nil, false
	}
	a := formatAEAD(hdr, ikm)
	rest := b[76:]
	if len(rest) == 0 {
		return nil, false
	}
	msg = []byte{}
	for i := uint32(0); len(rest) > 0; i++ {
		n := min(len(rest), 1<<b[10]+16)
		pt, err := a.Open(nil, formatNonce(hdr, i, n == len(rest)), rest[:n], hdr)
		if err != nil || (i > 0 && n == len(rest) && len(pt) == 0) {
			return nil, false
		}
		msg, rest = append(msg, pt...), rest[n:]
	}
	return msg, true
}

// formatKey is the key that HKDF-SHA256 derives from a file's 32-byte key
// and the salt of its header fields hdr with info, as FORMAT.md says.
func formatKey(hdr, key []byte, info string) []byte {
	k, err := hkdf.Key(sha256.New, key, hdr[21:37], info, 32)
	if err != nil {
		panic(err)
	}
	return k
}

// formatAEAD is the AEAD that the header fields hdr name, under the file
// key derived from key.
func formatAEAD(hdr, key []byte) cipher.AEAD {
	c, _ := twofish.NewCipher(formatKey(hdr, key, "twofish-seal v2 file key"))
	if hdr[9] == 2 {
		a, _ := twofish.NewOCB(c, 12, 16)
		return a
	}
	a, _ := cipher.NewGCM(c)
	return a
}

// formatNonce is chunk i's nonce: the header's prefix, i, and the last flag.
func formatNonce(hdr []byte, i uint32, last bool) []byte {
	nonce := append(binary.BigEndian.AppendUint32(bytes.Clone(hdr[37:44]), i), 0)
	if last {
		nonce[11] = 1
	}
	return nonce
}

// TestOpenEmptyLastChunk checks that open rejects a file that ends in an
// empty chunk after a full one, which authenticates but is not how a
// message of whole chunks is sealed: its last full chunk is the last.
func TestOpenEmptyLastChunk(t *testing.T) {
	dir, msg, key, _ := sealSetup(t, sealChunk)
	b := sealFile(t, dir, msg, "sealed", append(sealChunkFlag, "-key-file", key)...)
	hdr := b[:44]
	a := formatAEAD(hdr, readFile(t, key))
	padded := slices.Concat(b[:76], a.Seal(nil, formatNonce(hdr, 0, false), readFile(t, msg), hdr), a.Seal(nil, formatNonce(hdr, 1, true), nil, hdr))
	writeFile(t, filepath.Join(dir, "padded"), padded)
	if _, ok := openByFormat(padded, readFile(t, key)); ok {
		t.Error("openByFormat read a full chunk and then an empty last one")
	}
	args := []string{"open", "-in", filepath.Join(dir, "padded"), "-out", filepath.Join(dir, "out"), "-key-file", key}
	status, stdout, stderr := runTool(t, args...)
	checkOneLineError(t, execResult{code: status, stdout: []byte(stdout), stderr: []byte(stderr)}, exitFailure, "ends in an empty chunk (number 1) after a full one", args)
}

// TestOpenChunkNonces reseals a message of two chunks with the key and
// other numbers or last-chunk flags in the nonces: open refuses each,
// naming the first chunk that does not authenticate, and writes nothing.
// A file that FORMAT.md's STREAM construction would let through (a chunk
// sealed as the last but followed by more, a message's end cut off at a
// chunk sealed as not the last, a chunk moved) would be a second message
// spliced on, or a message cut short, that opens without a word. The same
// chunks with the right nonces open, so that each refusal is the nonce's.
func TestOpenChunkNonces(t *testing.T) {
	dir, msg, key, _ := sealSetup(t, sealChunk+100)
	b := sealFile(t, dir, msg, "sealed", append(sealChunkFlag, "-key-file", key)...)
	hdr, pt := b[:44], readFile(t, msg)
	a := formatAEAD(hdr, readFile(t, key))
	type nonce struct {
		i    uint32
		last bool
	}
	reseal := func(n0, n1 nonce) []byte {
		return slices.Concat(b[:sealHeaderSize],
			a.Seal(nil, formatNonce(hdr, n0.i, n0.last), pt[:sealChunk], hdr),
			a.Seal(nil, formatNonce(hdr, n1.i, n1.last), pt[sealChunk:], hdr))
	}
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	writeFile(t, in, reseal(nonce{0, false}, nonce{1, true}))
	args := []string{"open", "-in", in, "-out", out, "-key-file", key}
	if status, _, stderr := runTool(t, args...); status != exitOK || !bytes.Equal(readFile(t, out), pt) {
		t.Fatalf("the chunks resealed with their own nonces: status %d, %s", status, stderr)
	}
	for _, tc := range []struct {
		name   string
		n0, n1 nonce
		want   string
	}{
		{"the first chunk sealed as the last", nonce{0, true}, nonce{1, true}, "chunk 0 does not authenticate"},
		{"the last chunk sealed as not the last", nonce{0, false}, nonce{1, false}, "last chunk, number 1, does not authenticate"},
		{"both sealed as the last", nonce{0, true}, nonce{0, true}, "chunk 0 does not authenticate"},
		{"numbered from 1", nonce{1, false}, nonce{2, true}, "chunk 0 does not authenticate"},
		{"the second numbered 0", nonce{0, false}, nonce{0, true}, "last chunk, number 1, does not authenticate"},
		{"the second numbered 2", nonce{0, false}, nonce{2, true}, "last chunk, number 1, does not authenticate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			openFails(t, dir, reseal(tc.n0, tc.n1), tc.want, "-key-file", key)
		})
	}
}

// TestOpenShortBodyCostsNothing checks that open refuses a file whose body
// is shorter than the shortest there is, an empty last chunk's tag, before
// it pays for Argon2id.
func TestOpenShortBodyCostsNothing(t *testing.T) {
	dir, msg, _, pass := sealSetup(t, 100)
	secret := []string{"-passphrase-file", pass}
	sealed := sealFile(t, dir, msg, "sealed", append(fastArgon, secret...)...)
	derive := argon2IDKey
	defer func() { argon2IDKey = derive }()
	argon2IDKey = func(pass, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte {
		t.Error("open derived a key for a file too short to open")
		return make([]byte, keyLen)
	}
	for _, n := range []int{0, 1, sealTagSize - 1} {
		openFails(t, dir, sealed[:sealHeaderSize+n], "cut short after its header", secret...)
	}
}

// TestSealPassphraseTamper flips every bit of the header of a file sealed
// with a passphrase, and sets every Argon2id field to its largest value:
// open must refuse each with one line, exit 1 and no output, and never
// derive a key with more than the ceiling its flags set. A flip that the
// ceiling lets through costs at most 64 MiB of work, so every open is quick
// and the test needs no clock.
func TestSealPassphraseTamper(t *testing.T) {
	dir, msg, _, pass := sealSetup(t, 100)
	secret := []string{"-passphrase-file", pass}
	ceiling := []string{"-argon2-max-memory", "64", "-argon2-max-work", "64", "-argon2-max-threads", "16"}
	sealed := sealFile(t, dir, msg, "sealed", append(fastArgon, secret...)...)
	limits := argon2Limits{memory: 64 << 10, work: 64 << 10, lanes: 16}
	// Argon2id over the ceiling of the open under way fails the test at
	// once, where paying it would hang the test on a billion passes.
	ceilingNow := limits
	derive := argon2IDKey
	defer func() { argon2IDKey = derive }()
	argon2IDKey = func(pass, salt []byte, time, memory uint32, threads uint8, keyLen uint32) []byte {
		if err := ceilingNow.check(time, memory, threads); err != nil {
			t.Errorf("open derived a key over its ceiling: %v", err)
			return make([]byte, keyLen)
		}
		return derive(pass, salt, time, memory, threads, keyLen)
	}
	open := func(b []byte) {
		t.Helper()
		h, err := parseSealHeader(b)
		want := "the header was changed (its MAC does not match)"
		switch {
		case err != nil:
			want = "" // the header's own checks
		case h.kdf == kdfKey:
			want = "sealed with a key file"
		case limits.check(h.time, h.memory, h.threads) != nil:
			want = "over the ceiling"
		}
		openFails(t, dir, b, want, append(ceiling, secret...)...)
	}
	for i := range sealHeaderSize {
		for bit := range 8 {
			b := bytes.Clone(sealed)
			b[i] ^= 1 << bit
			open(b)
		}
	}
	// Each Argon2id field at its largest, with the default ceiling and the
	// test's: refused before Argon2id runs.
	for _, f := range []struct{ at, n int }{{12, 4}, {16, 4}, {20, 1}} {
		b := bytes.Clone(sealed)
		copy(b[f.at:f.at+f.n], bytes.Repeat([]byte{0xff}, f.n))
		open(b)
		ceilingNow = argon2Limits{memory: defaultArgon2MaxMemMiB << 10, work: defaultArgon2MaxWorkMiB << 10, lanes: defaultArgon2MaxThreads}
		openFails(t, dir, b, "", secret...)
		ceilingNow = limits
	}
}

// TestArgon2Limits checks the ceiling of each Argon2id cost on its own and
// the default ceiling against what a crafted header may ask for.
func TestArgon2Limits(t *testing.T) {
	def := argon2Limits{memory: defaultArgon2MaxMemMiB << 10, work: defaultArgon2MaxWorkMiB << 10, lanes: defaultArgon2MaxThreads}
	for _, tc := range []struct {
		t, m uint32
		p    byte
		want string // "" for within the ceiling
	}{
		{defaultArgon2Time, defaultArgon2MemMiB << 10, defaultArgon2Threads, ""},
		{1, 2 << 20, 4, ""},                          // RFC 9106's first recommendation
		{3, 64 << 10, 4, ""},                         // and its second
		{4, 1 << 20, 4, ""},                          // 4 GiB of work exactly
		{1, 2<<20 + 1, 4, "-argon2-max-memory"},      // 1 KiB more memory
		{5, 1 << 20, 4, "-argon2-max-work"},          // one pass more
		{1<<30 + 8, 48 << 10, 4, "-argon2-max-work"}, // the passes field's bit 30 flipped
		{1<<32 - 1, 8, 1, "-argon2-max-work"},
		{1, maxArgon2Memory, 4, "-argon2-max-memory"},
		{1, 64 << 10, 17, "-argon2-max-threads"},
		{1, 64 << 10, 255, "-argon2-max-threads"},
	} {
		err := def.check(tc.t, tc.m, tc.p)
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("t=%d m=%d KiB p=%d: %v, want %q", tc.t, tc.m, tc.p, err, tc.want)
		}
	}
}

// TestArgon2LimitsSayHowMuch checks that a refusal's numbers tell the
// cost from the ceiling, also where they differ by less than the one
// decimal of GiB shows.
func TestArgon2LimitsSayHowMuch(t *testing.T) {
	def := argon2Limits{memory: defaultArgon2MaxMemMiB << 10, work: defaultArgon2MaxWorkMiB << 10, lanes: defaultArgon2MaxThreads}
	for _, tc := range []struct {
		t, m uint32
		want string
	}{
		{1, 2<<20 + 1, "asks for 2097153 KiB of memory, over the ceiling of 2097152 KiB"},
		{1, 3 << 20, "asks for 3.0 GiB of memory, over the ceiling of 2.0 GiB"},
		{5, 1 << 20, "asks for 5 passes over 1.0 GiB, 5.0 GiB of work (passes times memory), over the ceiling of 4.0 GiB"},
		{2, 2<<20 + 1, "asks for 2097153 KiB of memory"},
		{4, 1<<20 + 1, "asks for 4 passes over 1.0 GiB, 4194308 KiB of work (passes times memory), over the ceiling of 4194304 KiB"},
	} {
		if err := def.check(tc.t, tc.m, 4); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("t=%d m=%d KiB: %v, want %q", tc.t, tc.m, err, tc.want)
		}
	}
	// The most work a header can ask for, under the highest ceiling of
	// memory, is 2^54 KiB: 2^64 bytes, too many for an int64.
	most := argon2Limits{memory: maxArgon2Memory, work: defaultArgon2MaxWorkMiB << 10, lanes: defaultArgon2MaxThreads}
	want := "asks for 4294967295 passes over 4.0 GiB, 17179869180.0 GiB of work (passes times memory), over the ceiling of 4.0 GiB"
	if err := most.check(1<<32-1, maxArgon2Memory, 4); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("t=2^32-1 m=4 GiB: %v, want %q", err, want)
	}
}

// TestSealStrongerThanCeiling checks that seal refuses Argon2id settings
// above the default ceiling unless its flag raises it, and that open then
// needs the same flag.
func TestSealStrongerThanCeiling(t *testing.T) {
	dir, msg, _, pass := sealSetup(t, 100)
	strong := append([]string{"-argon2-time", "1", "-argon2-memory", "1", "-argon2-threads", "17", "-passphrase-file", pass}, sealChunkFlag...)
	status, stdout, stderr := runTool(t, append([]string{"seal", "-in", msg, "-out", filepath.Join(dir, "refused")}, strong...)...)
	checkOneLineError(t, execResult{code: status, stdout: []byte(stdout), stderr: []byte(stderr)}, exitUsage, "-argon2-max-threads", strong)
	raise := []string{"-argon2-max-threads", "17"}
	sealed := sealFile(t, dir, msg, "sealed", append(raise, strong...)...)
	openFails(t, dir, sealed, "17 lanes, over the ceiling of 16", "-passphrase-file", pass)
	out := filepath.Join(dir, "opened")
	args := append([]string{"open", "-in", filepath.Join(dir, "sealed"), "-out", out, "-passphrase-file", pass}, raise...)
	if status, _, stderr := runTool(t, args...); status != exitOK {
		t.Fatalf("twofish %q: status %d: %s", args, status, stderr)
	}
	if !bytes.Equal(readFile(t, out), readFile(t, msg)) {
		t.Error("the message did not survive seal and open with a raised ceiling")
	}
}

// TestChunkPlan checks that the largest chunk a header may ask for keeps
// runChunks' buffers within chunkMemory on any number of cores, that the
// default chunk runs a worker a core on up to 64 cores, and that jobs hold
// batchBytes of small chunks and one large chunk.
func TestChunkPlan(t *testing.T) {
	for _, procs := range []int{1, 2, 64, 1024} {
		for _, in := range []int{1 << maxChunkLog, 1<<maxChunkLog + sealTagSize} {
			slot, per, w := chunkPlan(procs, in, 2<<maxChunkLog+sealTagSize-in)
			if w < 1 || w > procs || per != 1 || (2*w+2)*per*slot > chunkMemory {
				t.Errorf("%d cores, 16 MiB chunks: %d workers, %d a job, %d MiB of buffers", procs, w, per, (2*w+2)*per*slot>>20)
			}
		}
		slot, per, w := chunkPlan(procs, 1<<defaultChunkLog, 1<<defaultChunkLog+sealTagSize)
		if procs <= 64 && w != procs {
			t.Errorf("%d cores, 64 KiB chunks: %d workers", procs, w)
		}
		if per*slot > batchBytes || (per+1)*slot <= batchBytes {
			t.Errorf("64 KiB chunks: %d a job of %d bytes", per, per*slot)
		}
	}
}

// TestSealKeyFileNotHex checks that a key file of 64 characters that are
// not all hex digits is refused without its message quoting any of them:
// the file may hold a secret (a passphrase given as a key file, say).
func TestSealKeyFileNotHex(t *testing.T) {
	dir, msg, _, _ := sealSetup(t, 10)
	key := filepath.Join(dir, "notHexKey")
	text := strings.Repeat("0123456789abcdef", 3) + "0123456%89abcdef"
	writeFile(t, key, []byte(text))
	args := []string{"seal", "-in", msg, "-out", filepath.Join(dir, "sealed"), "-key-file", key}
	r := exe(t, nil, nil, args...)
	checkOneLineError(t, r, exitFailure, "character 56 is not a hex digit", args)
	if strings.Contains(string(r.stderr), "%") {
		t.Errorf("the error quotes a character of the key file: %q", r.stderr)
	}
}

// TestSealArgon2MemoryOverflow checks that an -argon2-memory whose value in
// KiB does not fit in 64 bits is a usage error, not memory modulo 2^64.
func TestSealArgon2MemoryOverflow(t *testing.T) {
	dir, msg, _, pass := sealSetup(t, 10)
	for _, mib := range []string{"18014398509481985", "18446744073709551615"} { // 2^54+1: 1 MiB after wrapping
		args := []string{"seal", "-in", msg, "-out", filepath.Join(dir, "sealed"), "-passphrase-file", pass, "-argon2-time", "1", "-argon2-threads", "1", "-argon2-memory", mib}
		checkOneLineError(t, exe(t, nil, nil, args...), exitUsage, "-argon2-memory "+mib, args)
		if _, err := os.Stat(filepath.Join(dir, "sealed")); err == nil {
			t.Errorf("-argon2-memory %s: sealed a file", mib)
			os.Remove(filepath.Join(dir, "sealed"))
		}
	}
}

// TestSealFlagBounds checks each numeric flag of seal and open at its
// bounds: the bound itself is taken, and one past it, or a negative
// number, is a usage error that names the flag.
func TestSealFlagBounds(t *testing.T) {
	// Seal's cases raise the ceiling to the most it may be, so that the
	// flag under test is the one that refuses.
	// Memory's bound is the format's 4096 MiB, 1024 in a 32-bit build.
	most, over := fmt.Sprint(maxArgon2MemoryHere>>10), fmt.Sprint(maxArgon2MemoryHere>>10+1)
	raise := []string{"-argon2-max-memory", most, "-argon2-max-work", "4398046511104", "-argon2-max-threads", "255"}
	for _, tc := range []struct {
		open bool
		args []string
		want string // "" for a good command line
	}{
		{false, []string{"-argon2-time", "65536"}, ""},
		{false, []string{"-argon2-time", "65537"}, "-argon2-time 65537: want 1 to 65536"},
		{false, []string{"-argon2-time", "-1"}, `invalid value "-1" for flag -argon2-time`},
		{false, []string{"-argon2-threads", "255", "-argon2-memory", "2"}, ""},
		{false, []string{"-argon2-threads", "256", "-argon2-memory", "2"}, "-argon2-threads 256: want 1 to 255"},
		{false, []string{"-argon2-threads", "255", "-argon2-memory", "1"}, "at least 8 KiB per lane"},
		{false, []string{"-argon2-memory", most}, ""},
		{false, []string{"-argon2-memory", over}, "-argon2-memory " + over + ": want 1 to " + most + " MiB"},
		// Past 2^32, where a 32-bit uint ends: the same check's message.
		{false, []string{"-argon2-memory", "4294967297"}, "-argon2-memory 4294967297: want 1 to " + most + " MiB"},
		{false, []string{"-argon2-time", "4294967297"}, "-argon2-time 4294967297: want 1 to 65536"},
		{false, []string{"-argon2-threads", "4294967297"}, "-argon2-threads 4294967297: want 1 to 255"},
		{false, []string{"-chunk-size", "4294967296"}, "-chunk-size 4294967296: want a power of two"},
		{false, []string{"-chunk-size", "1024"}, ""},
		{false, []string{"-chunk-size", "16777216"}, ""},
		{false, []string{"-chunk-size", "33554432"}, "-chunk-size 33554432: want a power of two"},
		{false, []string{"-chunk-size", "0"}, "-chunk-size 0: want a power of two"},
		{false, []string{"-chunk-size", "-1024"}, `invalid value "-1024" for flag -chunk-size`},
		{true, []string{"-argon2-max-memory", most}, ""},
		{true, []string{"-argon2-max-memory", over}, "-argon2-max-memory " + over + ": want at most " + most + " MiB"},
		{true, []string{"-argon2-max-memory", "-1"}, `invalid value "-1" for flag -argon2-max-memory`},
		{true, []string{"-argon2-max-work", "4398046511104"}, ""},
		{true, []string{"-argon2-max-work", "4398046511105"}, "-argon2-max-work 4398046511105: want at most 4398046511104 MiB"},
		{true, []string{"-argon2-max-work", "18014398509481984"}, "-argon2-max-work 18014398509481984"}, // 2^54 MiB: 0 KiB after wrapping
	} {
		name, args := "open", tc.args
		if !tc.open {
			name, args = "seal", append(append(slices.Clone(raise), tc.args...), "-passphrase-env", "TWOFISH_TEST_UNSET_VARIABLE")
		}
		var stderr bytes.Buffer
		_, err := parseSeal(name, tc.open, args, &stderr)
		got := stderr.String()
		if err != nil && err != errReported {
			got += err.Error()
		}
		if (err == nil) != (tc.want == "") || !strings.Contains(got, tc.want) {
			t.Errorf("twofish %s %q: %v, stderr %q; want %q", name, args, err, stderr.String(), tc.want)
		}
	}
}

// TestSealPassphraseEnvEmpty checks that -passphrase-env naming a variable
// that is set but empty is refused, as one that is not set is: an empty
// passphrase would seal a file that anyone opens.
func TestSealPassphraseEnvEmpty(t *testing.T) {
	dir, msg, _, _ := sealSetup(t, 100)
	t.Setenv("TWOFISH_TEST_EMPTY_PASSPHRASE", "")
	out := filepath.Join(dir, "sealed")
	args := append([]string{"seal", "-in", msg, "-out", out, "-passphrase-env", "TWOFISH_TEST_EMPTY_PASSPHRASE"}, fastArgon...)
	status, stdout, stderr := runTool(t, args...)
	checkOneLineError(t, execResult{code: status, stdout: []byte(stdout), stderr: []byte(stderr)}, exitFailure, "-passphrase-env TWOFISH_TEST_EMPTY_PASSPHRASE: the variable is not set or empty", args)
	if _, err := os.Stat(out); err == nil {
		t.Error("seal with an empty passphrase wrote a sealed file")
	}
}

// TestSealPassphraseFileLeadingNUL checks that seal refuses a passphrase
// file whose first line starts with a NUL byte, as it does one with a NUL
// byte further on (TestSealPassphraseFile's UTF-16 text has it second).
func TestSealPassphraseFileLeadingNUL(t *testing.T) {
	dir, msg, _, _ := sealSetup(t, 100)
	pass := filepath.Join(dir, "leading-nul") // not "nul", a device on Windows
	writeFile(t, pass, []byte("\x00c\x00o\x00r\x00\n"))
	args := []string{"seal", "-in", msg, "-out", filepath.Join(dir, "refused"), "-passphrase-file", pass}
	status, stdout, stderr := runTool(t, args...)
	checkOneLineError(t, execResult{code: status, stdout: []byte(stdout), stderr: []byte(stderr)}, exitFailure, "the first line has a NUL byte", args)
}

// TestSealKeyFileIgnoresArgon2Ceiling checks that the Argon2id ceiling,
// which bounds what a passphrase costs, does not refuse a seal with a key
// file, where Argon2id does not run: the ceiling set below the default
// Argon2id settings, the key file still seals, and the file opens.
func TestSealKeyFileIgnoresArgon2Ceiling(t *testing.T) {
	dir, msg, key, _ := sealSetup(t, 100)
	low := []string{"-argon2-max-memory", "1", "-argon2-max-work", "1", "-argon2-max-threads", "1"}
	sealFile(t, dir, msg, "sealed", append(low, "-key-file", key)...)
	out := filepath.Join(dir, "opened")
	if status, _, stderr := runTool(t, append([]string{"open", "-in", filepath.Join(dir, "sealed"), "-out", out, "-key-file", key}, low...)...); status != exitOK {
		t.Fatalf("open: status %d: %s", status, stderr)
	}
}

// TestSealInputDirectory checks that seal and open name a directory given
// as -in as such, before they create an output.
func TestSealInputDirectory(t *testing.T) {
	dir, _, key, _ := sealSetup(t, 10)
	in := filepath.Join(dir, "sub")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"seal", "open"} {
		out := filepath.Join(dir, cmd+".out")
		args := []string{cmd, "-in", in, "-out", out, "-key-file", key}
		status, stdout, stderr := runTool(t, args...)
		checkOneLineError(t, execResult{code: status, stdout: []byte(stdout), stderr: []byte(stderr)}, exitFailure, "-in "+in+" is a directory", args)
		if _, err := os.Stat(out); err == nil {
			t.Errorf("twofish %s of a directory left %s", cmd, out)
		}
	}
}

// TestSealPassphraseFile checks that -passphrase-file takes the first line
// of the file, without its line ending (\n or \r\n), as the passphrase,
// refuses a file whose first line is empty, and when sealing one whose
// first line starts with a byte-order mark or holds a NUL byte.
func TestSealPassphraseFile(t *testing.T) {
	dir, msg, _, _ := sealSetup(t, 100)
	t.Setenv("TWOFISH_TEST_PASSPHRASE", "correct horse")
	sealed := filepath.Join(dir, "sealed")
	sealFile(t, dir, msg, "sealed", append(fastArgon, "-passphrase-env", "TWOFISH_TEST_PASSPHRASE")...)
	for i, text := range []string{"correct horse", "correct horse\n", "correct horse\r\n", "correct horse\nsecond line\n"} {
		pass, out := filepath.Join(dir, fmt.Sprint("pass", i)), filepath.Join(dir, fmt.Sprint("out", i))
		writeFile(t, pass, []byte(text))
		if status, _, stderr := runTool(t, "open", "-in", sealed, "-out", out, "-passphrase-file", pass); status != exitOK {
			t.Errorf("-passphrase-file holding %q: status %d: %s", text, status, stderr)
		}
	}
	for _, text := range []string{"", "\n", "\r\ncorrect horse\n"} {
		pass := filepath.Join(dir, "empty")
		writeFile(t, pass, []byte(text))
		args := []string{"seal", "-in", msg, "-out", filepath.Join(dir, "refused"), "-passphrase-file", pass}
		status, stdout, stderr := runTool(t, args...)
		checkOneLineError(t, execResult{code: status, stdout: []byte(stdout), stderr: []byte(stderr)}, exitFailure, "the first line is empty", args)
	}
	// What a text editor or shell writes that no one types: seal refuses
	// it, where the file would seal what the prompt could not open.
	for text, why := range map[string]string{
		"\xef\xbb\xbfcorrect horse\r\n":       "starts with a UTF-8 byte-order mark",
		"\xff\xfec\x00o\x00r\x00\r\x00\n\x00": "starts with a UTF-16 byte-order mark",
		"\xfe\xff\x00c\x00o\x00r\x00\r\x00\n": "starts with a UTF-16 byte-order mark",
		"c\x00o\x00r\x00\n\x00":               "has a NUL byte",
	} {
		pass := filepath.Join(dir, "untypeable")
		writeFile(t, pass, []byte(text))
		args := []string{"seal", "-in", msg, "-out", filepath.Join(dir, "refused"), "-passphrase-file", pass}
		status, stdout, stderr := runTool(t, args...)
		checkOneLineError(t, execResult{code: status, stdout: []byte(stdout), stderr: []byte(stderr)}, exitFailure, "the first line "+why+", which no passphrase typed", args)
	}
	// open takes the line as it is: a file sealed with such a passphrase
	// (before seal refused it) still opens with it.
	t.Setenv("TWOFISH_TEST_PASSPHRASE", "\xef\xbb\xbfcorrect horse")
	sealFile(t, dir, msg, "marked", append(fastArgon, "-passphrase-env", "TWOFISH_TEST_PASSPHRASE")...)
	pass := filepath.Join(dir, "marked-pass")
	writeFile(t, pass, []byte("\xef\xbb\xbfcorrect horse\r\n"))
	if status, _, stderr := runTool(t, "open", "-in", filepath.Join(dir, "marked"), "-out", filepath.Join(dir, "marked-out"), "-passphrase-file", pass); status != exitOK {
		t.Errorf("open with a passphrase file that starts with a byte-order mark: status %d: %s", status, stderr)
	}
}

// TestSealOutputOwnerOnly checks that the files seal and open write, the
// sealed file and the plaintext, are for their owner alone, also where -f
// replaces a file that others could read.
func TestSealOutputOwnerOnly(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permissions on Windows")
	}
	dir, msg, key, _ := sealSetup(t, 3000)
	sealed, opened := filepath.Join(dir, "sealed"), filepath.Join(dir, "opened")
	writeFile(t, opened, []byte("old"))
	if err := os.Chmod(opened, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"seal", "-in", msg, "-out", sealed, "-key-file", key},
		{"open", "-in", sealed, "-out", opened, "-key-file", key, "-f"},
	} {
		if status, _, stderr := runTool(t, args...); status != exitOK {
			t.Fatalf("twofish %q: status %d: %s", args, status, stderr)
		}
		fi, err := os.Stat(args[4])
		if err != nil {
			t.Fatal(err)
		}
		if perm := fi.Mode().Perm(); perm&0o077 != 0 {
			t.Errorf("twofish %s wrote %s with permissions %v, want none for group and others", args[0], args[4], perm)
		}
	}
}

// TestSealRefusesBeforeSecret checks that what can be refused without the
// secret is refused before the secret is read: an existing output, or one
// that cannot be made (open tries its temporary file before the secret and
// makes it for good after), and for open the wrong kind of secret, so that
// no passphrase is typed and no Argon2id paid for nothing. A secret file
// that does not exist tells which came first. A secret that fails after
// the output was made leaves none.
func TestSealRefusesBeforeSecret(t *testing.T) {
	dir, msg, key, pass := sealSetup(t, 100)
	sealFile(t, dir, msg, "p", append(fastArgon, "-passphrase-file", pass)...)
	sealFile(t, dir, msg, "k", "-key-file", key)
	missing := filepath.Join(dir, "missing")
	exists := filepath.Join(dir, "exists")
	writeFile(t, exists, []byte("old"))
	// A header's Argon2id costs are beside the point with a key file.
	costly := readFile(t, filepath.Join(dir, "p"))
	copy(costly[12:16], []byte{0xff, 0xff, 0xff, 0xff})
	writeFile(t, filepath.Join(dir, "p"), costly)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"seal", "-in", msg, "-out", exists, "-passphrase-file", missing}, "-out " + exists + " exists"},
		{[]string{"seal", "-in", msg, "-out", exists, "-key-file", missing}, "-out " + exists + " exists"},
		{[]string{"open", "-in", filepath.Join(dir, "k"), "-out", exists, "-key-file", missing}, "-out " + exists + " exists"},
		{[]string{"open", "-in", filepath.Join(dir, "k"), "-out", filepath.Join(dir, "nosuch", "out"), "-key-file", missing}, "cannot create a file in " + filepath.Join(dir, "nosuch")},
		{[]string{"open", "-in", filepath.Join(dir, "p"), "-out", filepath.Join(dir, "new"), "-key-file", missing}, "sealed with a passphrase, not a key file"},
		{[]string{"open", "-in", filepath.Join(dir, "k"), "-out", filepath.Join(dir, "new"), "-passphrase-file", missing}, "sealed with a key file"},
		{[]string{"seal", "-in", msg, "-out", filepath.Join(dir, "new"), "-passphrase-file", missing}, "-passphrase-file " + missing},
		{[]string{"open", "-in", filepath.Join(dir, "k"), "-out", filepath.Join(dir, "new"), "-key-file", missing}, "-key-file " + missing},
	} {
		status, stdout, stderr := runTool(t, tc.args...)
		checkOneLineError(t, execResult{code: status, stdout: []byte(stdout), stderr: []byte(stderr)}, exitFailure, tc.want, tc.args)
		if string(readFile(t, exists)) != "old" {
			t.Fatalf("twofish %q changed %s", tc.args, exists)
		}
		if names := dirNames(t, dir); len(names) != 6 {
			t.Errorf("twofish %q: files in the directory: %q", tc.args, names)
		}
	}
}

// TestSealOutputIsSecretFile checks that seal and open refuse an output
// that is the key or passphrase file, even with -f: replacing it would
// lose the secret, and with it the sealed file.
func TestSealOutputIsSecretFile(t *testing.T) {
	dir, msg, key, pass := sealSetup(t, 100)
	sealFile(t, dir, msg, "k", "-key-file", key)
	sealFile(t, dir, msg, "p", append(fastArgon, "-passphrase-file", pass)...)
	keyBytes, passBytes := readFile(t, key), readFile(t, pass)
	cases := [][]string{
		{"seal", "-in", msg, "-out", key, "-key-file", key},
		{"seal", "-in", msg, "-out", pass, "-passphrase-file", pass},
		{"open", "-in", filepath.Join(dir, "k"), "-out", key, "-key-file", key},
		{"open", "-in", filepath.Join(dir, "p"), "-out", pass, "-passphrase-file", pass},
	}
	if link := filepath.Join(dir, "link"); symlink(t, key, link) {
		cases = append(cases, []string{"seal", "-in", msg, "-out", link, "-key-file", key})
	}
	for _, args := range cases {
		for _, f := range []string{"-f=false", "-f"} {
			args := append(slices.Clone(args), f)
			status, stdout, stderr := runTool(t, args...)
			checkOneLineError(t, execResult{code: status, stdout: []byte(stdout), stderr: []byte(stderr)}, exitUsage, "-out "+args[4]+" is also the "+args[5], args)
		}
	}
	if !bytes.Equal(readFile(t, key), keyBytes) || !bytes.Equal(readFile(t, pass), passBytes) {
		t.Error("the key or passphrase file was changed")
	}
}

// TestOpenFailureKeepsOutput checks that open of a changed file, with -f,
// leaves the file that it would have replaced as it was, and no other.
func TestOpenFailureKeepsOutput(t *testing.T) {
	dir, msg, key, _ := sealSetup(t, 3*sealChunk)
	sealed := sealFile(t, dir, msg, "sealed", append(sealChunkFlag, "-key-file", key)...)
	sealed[len(sealed)-1] ^= 1
	bad, out := filepath.Join(dir, "bad"), filepath.Join(dir, "out")
	writeFile(t, bad, sealed)
	writeFile(t, out, []byte("old"))
	args := []string{"open", "-f", "-in", bad, "-out", out, "-key-file", key}
	status, stdout, stderr := runTool(t, args...)
	checkOneLineError(t, execResult{code: status, stdout: []byte(stdout), stderr: []byte(stderr)}, exitFailure, "does not authenticate", args)
	if got := string(readFile(t, out)); got != "old" {
		t.Errorf("a failed open -f left %d bytes in the output, want the old file", len(got))
	}
	if names := dirNames(t, dir); len(names) != 6 {
		t.Errorf("files in the directory: %q", names)
	}
}

// TestSealKeyFileLength checks that a key file is 32 raw bytes or 64 hex
// digits: hex of another length, or raw bytes of another, is refused, not
// taken as a shorter or longer key.
func TestSealKeyFileLength(t *testing.T) {
	dir, msg, _, _ := sealSetup(t, 10)
	key := filepath.Join(dir, "key")
	for _, text := range []string{strings.Repeat("ab", 31) + "\n", strings.Repeat("ab", 33) + "\n", strings.Repeat("ab", 16) + "\n", strings.Repeat("x", 31), strings.Repeat("x", 33)} {
		writeFile(t, key, []byte(text))
		args := []string{"seal", "-in", msg, "-out", filepath.Join(dir, "sealed"), "-key-file", key}
		status, stdout, stderr := runTool(t, args...)
		checkOneLineError(t, execResult{code: status, stdout: []byte(stdout), stderr: []byte(stderr)}, exitFailure, fmt.Sprintf("%d bytes; want a 32-byte key, raw or as 64 hex digits", len(text)), args)
	}
}
