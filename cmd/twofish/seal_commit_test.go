package main

import (
	"bytes"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/binary"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twofish-go/twofish"
	"github.com/twofish-go/twofish/internal/gf128"
)

// TestSealCommitsToKey builds a chunk that GCM authenticates under two
// file keys, to a different message under each (the last of its three
// blocks solves GHASH's equation for both tags), and checks that the file
// made of it opens under one key at most, and with the other gives nothing
// of the chunk even to standard output: the header's MAC, checked before
// any chunk, not the chunks, binds a file to its key.
func TestSealCommitsToKey(t *testing.T) {
	dir := t.TempDir()
	r := rng(t)
	k1, k2 := randomBytes(r, 32), randomBytes(r, 32)
	h := &sealHeader{aead: aeadGCM, chunkLog: minChunkLog, kdf: kdfKey}
	copy(h.salt[:], randomBytes(r, 16))
	copy(h.prefix[:], randomBytes(r, 7))
	ad := h.fields()
	nonce := h.nonce(0, true)

	// Each key's hash key H, its E(J0) and its key stream for blocks 1
	// and 2, as GCM makes them from the file key.
	type gcmKey struct{ h, ej0, ks1, ks2 gf128.Elem }
	expand := func(secret []byte) gcmKey {
		fk, err := hkdf.Key(sha256.New, secret, h.salt[:], sealKeyInfo, 32)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := twofish.NewCipher(fk)
		enc := func(ctr uint32) (b gf128.Elem) {
			in := binary.BigEndian.AppendUint32(bytes.Clone(nonce), ctr)
			c.Encrypt(b[:], in)
			return b
		}
		var g gcmKey
		c.Encrypt(g.h[:], make([]byte, 16))
		g.ej0, g.ks1, g.ks2 = enc(1), enc(2), enc(3)
		return g
	}
	g1, g2 := expand(k1), expand(k2)
	var m1, m2 gf128.Elem
	copy(m1[:], "pay Alice 10    ")
	copy(m2[:], "pay Mallory 1000")
	// Block 1 says m1 under k1, block 2 says m2 under k2; block 3 is c3.
	// A tag is GHASH(ad, c1 c2 0, lengths) + c3·H² + E(J0), so the tags
	// agree where c3 = (GHASH₁ + E₁(J0) + GHASH₂ + E₂(J0)) / (H₁² + H₂²).
	c1, c2 := m1.Add(g1.ks1), m2.Add(g2.ks2)
	ct := append(append(c1[:], c2[:]...), make([]byte, 16)...)
	base := func(g gcmKey) gf128.Elem { return gf128.GHASH(g.h, ad, ct).Add(g.ej0) }
	c3 := base(g1).Add(base(g2)).Mul(g1.h.Mul(g1.h).Add(g2.h.Mul(g2.h)).Inverse())
	copy(ct[32:], c3[:])
	tag := gf128.GHASH(g1.h, ad, ct).Add(g1.ej0)
	chunk := append(ct, tag[:]...)

	// The chunk itself opens under both keys, to both messages.
	for i, k := range [][]byte{k1, k2} {
		a, _, err := h.keys(k)
		if err != nil {
			t.Fatal(err)
		}
		msg, err := a.Open(nil, nonce, chunk, ad)
		if want := [][]byte{m1[:], m2[:]}[i]; err != nil || !bytes.Contains(msg, want) {
			t.Fatalf("the crafted chunk under key %d: %q, %v; want it to open to %q", i+1, msg, err, want)
		}
	}

	// The file, with the header's MAC under k1: open takes it with k1 and
	// refuses it with k2.
	_, h.mac, _ = h.keys(k1)
	in := filepath.Join(dir, "two-keys")
	writeFile(t, in, append(h.marshal(), chunk...))
	for i, k := range [][]byte{k1, k2} {
		key := filepath.Join(dir, "key")
		writeFile(t, key, k)
		out := filepath.Join(dir, "out")
		status, _, stderr := runTool(t, "open", "-f", "-in", in, "-out", out, "-key-file", key)
		switch {
		case i == 0 && (status != exitOK || !bytes.Contains(readFile(t, out), m1[:])):
			t.Errorf("open with the header's key: status %d, %s", status, stderr)
		case i == 1 && status != exitFailure:
			t.Errorf("open with the other key: status %d, want %d: the file opened under two keys", status, exitFailure)
		}
	}
	status, stdout, stderr := runTool(t, "open", "-in", in, "-key-file", filepath.Join(dir, "key"))
	if status != exitFailure || stdout != "" || !strings.Contains(stderr, "its MAC does not match") {
		t.Errorf("open with the other key to standard output: status %d, %d bytes out, %q; want %d, none, the MAC's error", status, len(stdout), stderr, exitFailure)
	}
}
