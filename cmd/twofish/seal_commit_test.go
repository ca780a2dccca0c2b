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
	type gcmKey struct{ h, ej0, ks1, ks2 gf128 }
	expand := func(secret []byte) gcmKey {
		fk, err := hkdf.Key(sha256.New, secret, h.salt[:], sealKeyInfo, 32)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := twofish.NewCipher(fk)
		enc := func(ctr uint32) (b gf128) {
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
	var m1, m2 gf128
	copy(m1[:], "pay Alice 10    ")
	copy(m2[:], "pay Mallory 1000")
	// Block 1 says m1 under k1, block 2 says m2 under k2; block 3 is c3.
	// A tag is GHASH(ad, c1 c2 0, lengths) + c3·H² + E(J0), so the tags
	// agree where c3 = (GHASH₁ + E₁(J0) + GHASH₂ + E₂(J0)) / (H₁² + H₂²).
	c1, c2 := m1.add(g1.ks1), m2.add(g2.ks2)
	ct := append(append(c1[:], c2[:]...), make([]byte, 16)...)
	base := func(g gcmKey) gf128 { return ghashOf(g.h, ad, ct).add(g.ej0) }
	c3 := base(g1).add(base(g2)).mul(g1.h.mul(g1.h).add(g2.h.mul(g2.h)).inverse())
	copy(ct[32:], c3[:])
	tag := ghashOf(g1.h, ad, ct).add(g1.ej0)
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

// gf128 is an element of GCM's field, in its bit order: the first bit of
// the first byte is the coefficient of x^0.
type gf128 [16]byte

func (a gf128) add(b gf128) gf128 {
	for i := range a {
		a[i] ^= b[i]
	}
	return a
}

// mul is NIST SP 800-38D's Algorithm 1, a bit at a time.
func (a gf128) mul(b gf128) (z gf128) {
	v := b
	for i := range 128 {
		if a[i/8]>>(7-i%8)&1 == 1 {
			z = z.add(v)
		}
		carry := v[15] & 1
		for k := 15; k > 0; k-- {
			v[k] = v[k]>>1 | v[k-1]<<7
		}
		v[0] >>= 1
		if carry == 1 {
			v[0] ^= 0xe1
		}
	}
	return z
}

// inverse is a^(2^128-2).
func (a gf128) inverse() gf128 {
	r := gf128{0x80} // 1
	// r = a^(2^n-1) after n rounds.
	for range 127 {
		r = r.mul(r).mul(a)
	}
	return r.mul(r)
}

// ghashOf is GHASH under h of the associated data ad and the ciphertext
// ct, each padded to whole blocks, then their lengths in bits.
func ghashOf(h gf128, ad, ct []byte) (x gf128) {
	pad := func(b []byte) []byte { return append(bytes.Clone(b), make([]byte, -len(b)&15)...) }
	in := append(pad(ad), pad(ct)...)
	in = binary.BigEndian.AppendUint64(in, uint64(len(ad))*8)
	in = binary.BigEndian.AppendUint64(in, uint64(len(ct))*8)
	for i := 0; i < len(in); i += 16 {
		x = x.add(gf128(in[i : i+16])).mul(h)
	}
	return x
}
