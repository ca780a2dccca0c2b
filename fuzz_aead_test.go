package twofish

import (
	"bytes"
	"crypto/cipher"
	"testing"
)

// FuzzAEAD seals a fuzzer-chosen message with a fuzzer-chosen mode, nonce
// and tag size through a fuzzer-chosen implementation (NewCipher's, or any
// this CPU runs), and checks it against the same mode over the portable
// block one block at a time (the oracle; OCB also against RFC 7253's
// algorithm written out, ocbReference), that Open inverts Seal, and that
// Open refuses the message with one fuzzer-chosen byte of ciphertext, tag,
// nonce or associated data changed.
func FuzzAEAD(f *testing.F) {
	for i := range aeadModes {
		f.Add(byte(i), byte(i), byte(0), byte(0), []byte("key"), []byte("nonce"), []byte("plaintext"), []byte("ad"), uint16(3), byte(0))
		f.Add(byte(i), byte(2), byte(1), byte(1), []byte("another key"), []byte{}, bytes.Repeat([]byte{0xA5}, 16*70+5), []byte{}, uint16(999), byte(i+1))
		f.Add(byte(i), byte(1), byte(0), byte(1), []byte("a third key"), []byte("n"), []byte("p"), bytes.Repeat([]byte{0x5A}, 16*(128+20)+5), uint16(77), byte(0))
		// Past 8 KiB: GCM's and OCB's second batch, and GCM's fused
		// kernels, which the 16*70+5 bytes above leave for the unfused
		// code. The fuzzer's mutations grow a message slowly.
		f.Add(byte(i), byte(0), byte(0), byte(0), []byte("key"), []byte("nonce"), bytes.Repeat([]byte{0xC3}, 9*1024+5), []byte("ad"), uint16(5), byte(0))
	}
	f.Fuzz(func(t *testing.T, modeSel, keySel, nonceSel, tagSel byte, keyBytes, nonceBytes, pt, ad []byte, where uint16, implSel byte) {
		m := aeadModes[int(modeSel)%len(aeadModes)]
		pt, ad = fuzzBound(pt), fuzzBound(ad)
		ns, ts := m.nonces[int(nonceSel)%len(m.nonces)], m.tags[int(tagSel)%len(m.tags)]
		key := fuzzKey(keySel, keyBytes)
		nonce := make([]byte, ns)
		copy(nonce, nonceBytes)
		c := mustCipher(t, key, fuzzImpl(implSel))
		a := mustAEAD(t, m, c, ns, ts)
		generic := wrap{mustCipher(t, key, "generic")}
		ref := mustAEAD(t, m, generic, ns, ts)
		ct := a.Seal(nil, nonce, pt, ad)
		if want := ref.Seal(nil, nonce, pt, ad); !bytes.Equal(ct, want) {
			t.Fatalf("%s with %s, %d bytes: differs from the block-by-block oracle", m.name, c.Implementation(), len(pt))
		}
		if m.name == "OCB" {
			// The oracle shares ocb.go's code; RFC 7253 written out does not.
			if want := ocbReference(generic, ts, nonce, pt, ad); !bytes.Equal(ct, want) {
				t.Fatalf("OCB, %d bytes: differs from RFC 7253's reference", len(pt))
			}
		}
		back, err := a.Open(nil, nonce, ct, ad)
		if err != nil || !bytes.Equal(back, pt) {
			t.Fatalf("%s, %d bytes: Open does not invert Seal: %v", m.name, len(pt), err)
		}
		// Change one byte of ciphertext-and-tag, nonce and associated
		// data together.
		i := int(where) % (len(ct) + len(nonce) + len(ad))
		ct2, nonce2, ad2 := bytes.Clone(ct), bytes.Clone(nonce), bytes.Clone(ad)
		switch {
		case i < len(ct):
			ct2[i] ^= byte(where>>8) | 1
		case i < len(ct)+len(nonce):
			nonce2[i-len(ct)] ^= byte(where>>8) | 1
		default:
			ad2[i-len(ct)-len(nonce)] ^= byte(where>>8) | 1
		}
		if _, err := a.Open(nil, nonce2, ct2, ad2); err == nil {
			t.Fatalf("%s, %d bytes: Open accepted a changed byte %d", m.name, len(pt), i)
		}
	})
}

// FuzzGCMOracle checks GCM through a fuzzer-chosen implementation against
// crypto/cipher's own generic GCM over the same block with its fast methods
// hidden.
func FuzzGCMOracle(f *testing.F) {
	f.Add(byte(0), []byte("key"), byte(12), []byte("nonce"), []byte("plaintext"), []byte("ad"), byte(0))
	f.Add(byte(2), []byte("another key"), byte(1), []byte{}, bytes.Repeat([]byte{1}, 16*33+1), []byte("additional"), byte(1))
	f.Add(byte(1), []byte("key"), byte(12), []byte("nonce"), bytes.Repeat([]byte{2}, 9*1024+5), []byte("ad"), byte(0)) // a second 8 KiB batch
	f.Fuzz(func(t *testing.T, keySel byte, keyBytes []byte, nonceSize byte, nonceBytes, pt, ad []byte, implSel byte) {
		ns := 1 + int(nonceSize)%64
		pt, ad = fuzzBound(pt), fuzzBound(ad)
		c := mustCipher(t, fuzzKey(keySel, keyBytes), fuzzImpl(implSel))
		nonce := make([]byte, ns)
		copy(nonce, nonceBytes)
		ref, err := cipher.NewGCMWithNonceSize(wrap{c}, ns)
		if err != nil {
			t.Fatal(err)
		}
		g, err := newGCM(c, ns, gcmTagSize)
		if err != nil {
			t.Fatal(err)
		}
		want := ref.Seal(nil, nonce, pt, ad)
		if got := g.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
			t.Fatalf("nonce %d bytes, %d bytes, %d of associated data: differs from crypto/cipher", ns, len(pt), len(ad))
		}
		if back, err := g.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(back, pt) {
			t.Fatalf("Open of crypto/cipher's ciphertext: %v", err)
		}
	})
}
