//go:build cgo && libgcrypt

package main

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/twofish-go/twofish/internal/libgcrypt"
)

// TestAEADAgainstLibgcrypt checks that "twofish enc -mode gcm|ocb" writes
// what the system libgcrypt makes, the ciphertext then the 16-byte tag,
// for random keys (128 and 256 bits), nonces and inputs, and that "twofish
// dec" opens libgcrypt's output. Run with: go test -tags libgcrypt -run
// Libgcrypt ./cmd/twofish.
func TestAEADAgainstLibgcrypt(t *testing.T) {
	t.Logf("libgcrypt %s", libgcrypt.Version())
	r := rng(t)
	dir := t.TempDir()
	gmodes := map[string]libgcrypt.Mode{"gcm": libgcrypt.GCM, "ocb": libgcrypt.OCB}
	for _, keySize := range []int{16, 32} {
		for _, mode := range []string{"gcm", "ocb"} {
			for _, size := range []int{0, 1, 16, 1000, 70000 + 3} {
				nonceSize := []int{12, 8, 15}[size%3] // libgcrypt's OCB takes 8 to 15 bytes
				key, nonce, pt := randomBytes(r, keySize), randomBytes(r, nonceSize), randomBytes(r, size)
				name := fmt.Sprintf("%s, %d-bit key, nonce %d, %d bytes", mode, 8*keySize, nonceSize, size)
				g, err := libgcrypt.New(gmodes[mode], key)
				if err != nil {
					t.Fatal(err)
				}
				want := make([]byte, size+16)
				if err = g.SetIV(nonce); err == nil {
					if err = g.Final(); err == nil {
						if err = g.Encrypt(want[:size], pt); err == nil {
							err = g.GetTag(want[size:])
						}
					}
				}
				g.Close()
				if err != nil {
					t.Fatalf("%s: libgcrypt: %v", name, err)
				}

				args := []string{"-mode", mode, "-key", hex.EncodeToString(key), "-iv", hex.EncodeToString(nonce)}
				ptFile, ctFile, backFile := filepath.Join(dir, "pt"), filepath.Join(dir, "ct"), filepath.Join(dir, "back")
				writeFile(t, ptFile, pt)
				mustRun(t, nil, nil, append([]string{"enc", "-f", "-in", ptFile, "-out", ctFile}, args...)...)
				if got := readFile(t, ctFile); !bytes.Equal(got, want) {
					t.Fatalf("%s: twofish enc differs from libgcrypt", name)
				}
				writeFile(t, ctFile, want)
				mustRun(t, nil, nil, append([]string{"dec", "-f", "-in", ctFile, "-out", backFile}, args...)...)
				if got := readFile(t, backFile); !bytes.Equal(got, pt) {
					t.Fatalf("%s: twofish dec did not open libgcrypt's output", name)
				}
			}
		}
	}
}
