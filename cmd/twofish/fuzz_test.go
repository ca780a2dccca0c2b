package main

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"
)

// FuzzOpen opens arbitrary bytes as a file sealed with a key file, with
// the command and by FORMAT.md alone (openByFormat): the command must
// never panic, succeed exactly where the format's reader does, with the
// same message, and otherwise exit with status 1, one line on stderr and
// no output file. The seeds are sealed files of a few chunks of 1 KiB, in
// GCM and in OCB, so that the fuzzer starts from well-formed headers and
// chunks.
func FuzzOpen(f *testing.F) {
	dir := f.TempDir()
	// A fixed key, so that a crasher committed to testdata/fuzz replays;
	// random-looking, as open wants a key file to be (notKey).
	key32 := sha256.Sum256([]byte("FuzzOpen"))
	keyBytes := key32[:]
	key := filepath.Join(dir, "key")
	if err := os.WriteFile(key, keyBytes, 0o600); err != nil {
		f.Fatal(err)
	}
	for i, n := range []int{0, 1, 1024, 2*1024 + 7} {
		for _, aead := range []string{"gcm", "ocb"} {
			in, sealed := filepath.Join(dir, "msg"), filepath.Join(dir, "sealed")
			if err := os.WriteFile(in, bytes.Repeat([]byte{byte(i)}, n), 0o600); err != nil {
				f.Fatal(err)
			}
			var stderr bytes.Buffer
			if status := run([]string{"seal", "-f", "-aead", aead, "-chunk-size", "1024", "-key-file", key, "-in", in, "-out", sealed}, new(bytes.Buffer), &stderr); status != exitOK {
				f.Fatalf("seal: status %d: %s", status, stderr.String())
			}
			b, err := os.ReadFile(sealed)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
		if err := os.WriteFile(in, b, 0o600); err != nil {
			t.Fatal(err)
		}
		os.Remove(out)
		args := []string{"open", "-key-file", key, "-in", in, "-out", out}
		status, stdout, stderr := runTool(t, args...)
		if names, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(names) > 0 {
			t.Errorf("temporary files left: %q", names)
		}
		msg, ok := openByFormat(b, keyBytes)
		if !ok {
			checkOneLineError(t, execResult{code: status, stdout: []byte(stdout), stderr: []byte(stderr)}, exitFailure, "", args)
			if _, err := os.Stat(out); err == nil {
				t.Errorf("open of a file that FORMAT.md's reader rejects left %s", out)
			}
			return
		}
		got, err := os.ReadFile(out)
		if status != exitOK || err != nil || !bytes.Equal(got, msg) {
			t.Errorf("open of a file that FORMAT.md's reader opens: status %d, %v, %d bytes of %d; stderr %q", status, err, len(got), len(msg), stderr)
		}
	})
}
