package main

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/twofish-go/twofish"
)

// TestEncDecAEAD runs gcm and ocb through enc and dec with nonces of every
// size they take at the edges, against the library, through files and
// pipes. (TestEncDec runs them too, with the default nonce.)
func TestEncDecAEAD(t *testing.T) {
	r := rng(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		mode  string
		nonce int
	}{{"gcm", 1}, {"gcm", 16}, {"gcm", 64}, {"ocb", 1}, {"ocb", 8}, {"ocb", 15}} {
		for i, size := range []int{0, 15, 1000, 70000} {
			c := cryptCase{mode: tc.mode, keySize: []int{16, 24, 32}[i%3], size: size,
				iv: randomBytes(r, tc.nonce), pipes: i%2 == 1}
			c.run(t, r, dir)
		}
	}
}

// TestAEADFormat checks what enc writes for gcm and ocb: the library's
// Seal output, the ciphertext then the 16-byte tag, for the key and nonce
// given.
func TestAEADFormat(t *testing.T) {
	pt := []byte("attack at dawn, and bring the Twofish")
	nonce, _ := hex.DecodeString("000102030405060708090a0b")
	c, _ := twofish.NewCipher(mustHex(key128))
	for _, mode := range []string{"gcm", "ocb"} {
		a, _ := newAEAD(c, mode, len(nonce))
		want := a.Seal(nil, nonce, pt, nil)
		got := mustRun(t, pt, nil, "enc", "-mode", mode, "-key", key128, "-iv", hex.EncodeToString(nonce))
		if !bytes.Equal(got, want) || len(got) != len(pt)+16 {
			t.Errorf("%s: enc wrote %x, want %x", mode, got, want)
		}
	}
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// TestAEADErrors checks that a message that does not authenticate (a
// changed byte, the wrong key, nonce or mode, a truncation) is one line of
// error, status 1, and no output: no file, nothing on standard output; and
// the usage errors of the nonce.
func TestAEADErrors(t *testing.T) {
	dir := t.TempDir()
	pt := randomBytes(rng(t), 5000)
	out := filepath.Join(dir, "out")
	nonce := "a0a1a2a3a4a5a6a7a8a9aaab"
	for _, mode := range []string{"gcm", "ocb"} {
		ct := mustRun(t, pt, nil, "enc", "-mode", mode, "-key", key256, "-iv", nonce)
		write := func(name string, b []byte) string {
			f := filepath.Join(dir, mode+"-"+name)
			writeFile(t, f, b)
			return f
		}
		good := write("good", ct)
		flipped := bytes.Clone(ct)
		flipped[1234] ^= 4
		badTag := bytes.Clone(ct)
		badTag[len(badTag)-1] ^= 1
		for _, tc := range []struct {
			status int
			want   string
			args   []string
		}{
			{1, "authentication failed", []string{"-key", key256, "-iv", nonce, "-in", write("flipped", flipped)}},
			{1, "authentication failed", []string{"-key", key256, "-iv", nonce, "-in", write("badtag", badTag)}},
			{1, "authentication failed", []string{"-key", key256, "-iv", nonce, "-in", write("truncated", ct[:len(ct)-1])}},
			{1, "authentication failed", []string{"-key", key256, "-iv", nonce, "-in", write("extended", append(bytes.Clone(ct), 0))}},
			{1, "authentication failed", []string{"-key", key128 + key128, "-iv", nonce, "-in", good}},
			{1, "authentication failed", []string{"-key", key256, "-iv", "b" + nonce[1:], "-in", good}},
			{1, "authentication failed", []string{"-key", key256, "-iv", nonce[2:], "-in", good}},
			{1, "shorter than the 16-byte tag", []string{"-key", key256, "-iv", nonce, "-in", write("short", ct[:15])}},
			{2, "-iv is required: " + mode + " decryption", []string{"-key", key256, "-in", good}},
		} {
			for _, toFile := range []bool{true, false} {
				args := append([]string{"dec", "-mode", mode}, tc.args...)
				if toFile {
					args = append(args, "-out", out)
				}
				checkOneLineError(t, exe(t, nil, nil, args...), tc.status, tc.want, args)
			}
		}
		other := map[string]string{"gcm": "ocb", "ocb": "gcm"}[mode]
		args := []string{"dec", "-mode", other, "-key", key256, "-iv", nonce, "-in", good, "-out", out}
		checkOneLineError(t, exe(t, nil, nil, args...), 1, "authentication failed", args)
	}
	for _, tc := range []struct{ want, mode, iv string }{
		{"-iv is 0 bytes; gcm takes a nonce of 1 to 64 bytes", "gcm", ""},
		{"-iv is 65 bytes; gcm takes a nonce of 1 to 64 bytes", "gcm", strings.Repeat("ab", 65)},
		{"-iv is 16 bytes; ocb takes a nonce of 1 to 15 bytes", "ocb", strings.Repeat("ab", 16)},
	} {
		for _, cmd := range []string{"enc", "dec"} {
			args := []string{cmd, "-mode", tc.mode, "-key", key128, "-iv", tc.iv, "-in", filepath.Join(dir, "gcm-good")}
			checkOneLineError(t, exe(t, nil, nil, args...), 2, tc.want, args)
		}
	}
	args := []string{"enc", "-mode", "ocb", "-key", key128, "-nopad"}
	checkOneLineError(t, exe(t, nil, nil, args...), 2, "-nopad: only ecb and cbc pad", args)
	if names := dirNames(t, dir); len(names) != 12 {
		t.Errorf("files in the directory: %q", names)
	}
}

// TestAEADSizeLimit checks that an input over the size gcm and ocb hold in
// memory is refused with one line and no output, in this process with the
// limit lowered.
func TestAEADSizeLimit(t *testing.T) {
	defer func(n int) { maxAEADSize = n }(maxAEADSize)
	maxAEADSize = 1 << 20
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	for _, size := range []int{1<<20 + 1, 1<<20 + 17} {
		writeFile(t, in, make([]byte, size))
		for _, cmd := range []string{"enc", "dec"} {
			if cmd == "enc" && size != 1<<20+1 || cmd == "dec" && size != 1<<20+17 {
				continue
			}
			var stdout, stderr bytes.Buffer
			args := []string{"-mode", "gcm", "-key", key128, "-iv", "00", "-in", in, "-out", out}
			run := map[string]func([]string, *bytes.Buffer, *bytes.Buffer) int{
				"enc": func(a []string, o, e *bytes.Buffer) int { return runEnc(a, o, e) },
				"dec": func(a []string, o, e *bytes.Buffer) int { return runDec(a, o, e) },
			}[cmd]
			code := run(args, &stdout, &stderr)
			msg := stderr.String()
			if code != exitFailure || !strings.Contains(msg, "the input is over 1 MiB, the most gcm takes") || strings.Count(msg, "\n") != 1 {
				t.Errorf("%s of %d bytes: exit status %d, stderr %q", cmd, size, code, msg)
			}
			if names := dirNames(t, dir); len(names) != 1 {
				t.Errorf("%s of %d bytes: files left: %q", cmd, size, names)
			}
		}
	}
	// At the limit, both work.
	writeFile(t, in, make([]byte, 1<<20))
	var stdout, stderr bytes.Buffer
	if code := runEnc([]string{"-mode", "ocb", "-key", key128, "-iv", "00", "-in", in, "-out", out}, &stdout, &stderr); code != exitOK {
		t.Fatalf("enc at the limit: exit status %d: %s", code, stderr.String())
	}
	if code := runDec([]string{"-mode", "ocb", "-key", key128, "-iv", "00", "-in", out, "-out", filepath.Join(dir, "back")}, &stdout, &stderr); code != exitOK {
		t.Fatalf("dec at the limit: exit status %d: %s", code, stderr.String())
	}
	if got := readFile(t, filepath.Join(dir, "back")); !bytes.Equal(got, make([]byte, 1<<20)) {
		t.Errorf("dec at the limit gave %d bytes back", len(got))
	}
}

// TestReadMessage checks that gcm and ocb read a regular file into one
// buffer of its size and a tag's room, and any other input (a pipe) whole
// however it grows; that a stream stops one byte past the limit; and that
// a file whose size is over the limit is refused before a byte is read
// (or a buffer the limit's size made).
func TestReadMessage(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 4095, 4096, 100000} {
		msg := randomBytes(rng(t), size)
		name := filepath.Join(dir, fmt.Sprint(size))
		writeFile(t, name, msg)
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		buf, err := readMessage(f, 1<<20, aeadTagSize)
		f.Close()
		if err != nil || !bytes.Equal(buf, msg) || cap(buf) != size+1+aeadTagSize {
			t.Errorf("a file of %d bytes: %d bytes read, room for %d, %v", size, len(buf), cap(buf), err)
		}
		buf, err = readMessage(iotest.OneByteReader(bytes.NewReader(msg)), 1<<20, aeadTagSize)
		if err != nil || !bytes.Equal(buf, msg) || cap(buf) < size+aeadTagSize {
			t.Errorf("a stream of %d bytes: %d bytes read, room for %d, %v", size, len(buf), cap(buf), err)
		}
		if buf, err := readMessage(f, 1<<20, aeadTagSize); err == nil {
			t.Errorf("a closed file gave %d bytes and no error", len(buf))
		}
	}
	f, err := os.Open(filepath.Join(dir, "100000"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if buf, err := readMessage(f, 4096, aeadTagSize); err != errOverLimit || buf != nil {
		t.Errorf("a file over the limit: %d bytes read, %v; want none and errOverLimit", len(buf), err)
	}
	if off, err := f.Seek(0, io.SeekCurrent); off != 0 || err != nil {
		t.Errorf("a file over the limit: read to %d (%v) before it was refused", off, err)
	}
	msg := randomBytes(rng(t), 100000)
	if buf, err := readMessage(bytes.NewReader(msg), 4096, aeadTagSize); err != nil || !bytes.Equal(buf, msg[:4097]) {
		t.Errorf("a stream over the limit: %d bytes read, %v; want 4097", len(buf), err)
	}
}

// TestBenchAEADRows checks the rows of the authenticated modes in the
// gobench format, for this package's implementations and, with -compare,
// x/crypto and crypto/aes: GCM and OCB enc, dec and auth, EAX enc and dec.
func TestBenchAEADRows(t *testing.T) {
	out := benchOutput(t, "-format", "gobench", "-impl", "generic", "-keysize", "128", "-modes", "eax,gcm,ocb", "-compare")
	var rows []string
	for _, line := range strings.Split(out, "\n") {
		if name, _, ok := strings.Cut(line, "\t"); ok && strings.HasPrefix(name, "Benchmark") {
			rows = append(rows, name)
		}
	}
	var want []string
	for _, target := range []string{"Twofish/%s/impl=generic", "Twofish/%s/impl=xcrypto", "AES/%s/impl=crypto-aes"} {
		for _, r := range []string{"mode=GCM/dir=enc", "mode=GCM/dir=dec", "mode=GCM/dir=auth", "mode=OCB/dir=enc",
			"mode=OCB/dir=dec", "mode=OCB/dir=auth", "mode=EAX/dir=enc", "mode=EAX/dir=dec"} {
			want = append(want, "Benchmark"+fmt.Sprintf(target, r)+fmt.Sprintf("/key=128/size=%d", minSize))
		}
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
}
