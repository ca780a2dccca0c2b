//go:build cgo && libgcrypt

package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/twofish-go/twofish/internal/libgcrypt"
)

// TestEncAgainstLibgcrypt checks, for random keys (128 and 256 bits), IVs
// and inputs, that "twofish enc" writes what the system libgcrypt makes in
// every mode, including lengths that are not whole blocks where the mode
// allows them and inputs of several chunks, and that "twofish dec"
// restores the input. Run with: go test -tags libgcrypt -run Libgcrypt
// ./cmd/twofish.
func TestEncAgainstLibgcrypt(t *testing.T) {
	t.Logf("libgcrypt %s", libgcrypt.Version())
	r := rng(t)
	dir := t.TempDir()
	sizes := []int{0, 1, 16, 31, 512, 1000, 4096 + 7, chunkSize + 100, 2*chunkSize + 4096 + 33}
	if testing.Short() {
		sizes = []int{17, 4096 + 7, chunkSize + 100}
	}
	gmodes := map[string]libgcrypt.Mode{"ecb": libgcrypt.ECB, "cbc": libgcrypt.CBC, "cfb": libgcrypt.CFB,
		"ofb": libgcrypt.OFB, "ctr": libgcrypt.CTR, "xts": libgcrypt.XTS}
	for _, keySize := range []int{16, 32} {
		for _, mode := range cryptModes {
			if isAEAD(mode) {
				continue // aead_libgcrypt_test.go
			}
			for _, size := range sizes {
				for _, nopad := range []bool{false, true} {
					if nopad && mode != "ecb" && mode != "cbc" {
						continue
					}
					n := size
					if nopad {
						n -= n % 16
					}
					sectorSize, sector := 512*(1+r.IntN(8)), r.Uint64()
					if mode == "xts" {
						if n < 16 {
							continue
						}
						if last := n % sectorSize; last > 0 && last < 16 {
							n += 16
						}
					}
					keyLen := keySize
					if mode == "xts" {
						keyLen *= 2
					}
					key, iv, pt := randomBytes(r, keyLen), randomBytes(r, 16), randomBytes(r, n)
					name := fmt.Sprintf("%s, %d-bit key, %d bytes, nopad %v", mode, 8*keySize, n, nopad)

					// libgcrypt, with PKCS#7 padding done here.
					in := bytes.Clone(pt)
					padded := (mode == "ecb" || mode == "cbc") && !nopad
					if padded {
						p := 16 - n%16
						in = append(in, bytes.Repeat([]byte{byte(p)}, p)...)
					}
					g, err := libgcrypt.New(gmodes[mode], key)
					if err != nil {
						t.Fatal(err)
					}
					want := make([]byte, len(in))
					switch mode {
					case "ecb":
						err = g.Encrypt(want, in)
					case "xts":
						// One data unit per sector, the tweak its number as 16
						// little-endian bytes (dm-crypt plain64).
						for i, s := 0, sector; i < len(in) && err == nil; i, s = i+sectorSize, s+1 {
							var tweak [16]byte
							binary.LittleEndian.PutUint64(tweak[:], s)
							if err = g.SetIV(tweak[:]); err == nil {
								end := min(i+sectorSize, len(in))
								err = g.Encrypt(want[i:end], in[i:end])
							}
						}
					default:
						if err = g.SetIV(iv); err == nil {
							err = g.Encrypt(want, in)
						}
					}
					g.Close()
					if err != nil {
						t.Fatalf("%s: libgcrypt: %v", name, err)
					}

					args := []string{"-mode", mode, "-key", hex.EncodeToString(key)}
					switch {
					case mode == "xts":
						args = append(args, "-sector-size", fmt.Sprint(sectorSize), "-sector", fmt.Sprint(sector))
					case mode != "ecb":
						args = append(args, "-iv", hex.EncodeToString(iv))
					}
					if nopad {
						args = append(args, "-nopad")
					}
					ptFile, ctFile, backFile := filepath.Join(dir, "pt"), filepath.Join(dir, "ct"), filepath.Join(dir, "back")
					writeFile(t, ptFile, pt)
					mustRun(t, nil, nil, append([]string{"enc", "-f", "-in", ptFile, "-out", ctFile}, args...)...)
					if got := readFile(t, ctFile); !bytes.Equal(got, want) {
						t.Fatalf("%s: twofish enc differs from libgcrypt", name)
					}
					mustRun(t, nil, nil, append([]string{"dec", "-f", "-in", ctFile, "-out", backFile}, args...)...)
					if got := readFile(t, backFile); !bytes.Equal(got, pt) {
						t.Fatalf("%s: twofish dec did not restore the input", name)
					}
				}
			}
		}
	}
	os.RemoveAll(dir)
}
