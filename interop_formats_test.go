package twofish

// Files that programs which use Twofish made, opened and made again:
// Password Safe and KeePass databases (ECB and CBC) and OpenPGP messages
// from GnuPG (CFB) and rnp (EAX).

import (
	"bytes"
	"compress/gzip"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/crypto/argon2"
)

// TestPasswordSafeV3 opens a Password Safe database, version 3 of its
// format (formatV3.txt in pwsafe/pwsafe), made by the Password Safe
// project's own code: testdata/pwsafe/sample3.psafe3, pwsafe/pwsafe's
// pwsafe/Java/PasswordSafeLib/sample3.psafe3 at cd49db73c323 (2006), whose
// passphrase is Pa$$word. The format stretches the passphrase with SHA-256
// into a Twofish key that decrypts, in ECB, the keys of the records (K) and
// of their HMAC-SHA256 (L); the records are Twofish-CBC under K. The test
// checks the passphrase's hash, the HMAC and the two entries' titles, and
// that encryption gives back the file's bytes, through every
// implementation.
func TestPasswordSafeV3(t *testing.T) {
	file, err := os.ReadFile("testdata/pwsafe/sample3.psafe3")
	if err != nil {
		t.Fatal(err)
	}
	eof := bytes.Index(file, []byte("PWS3-EOFPWS3-EOF"))
	if !bytes.HasPrefix(file, []byte("PWS3")) || eof < 152 || (eof-152)%BlockSize != 0 || len(file) != eof+16+32 {
		t.Fatal("not a Password Safe v3 database")
	}
	salt, iter, stretchedHash := file[4:36], binary.LittleEndian.Uint32(file[36:40]), file[40:72]
	wrappedK, wrappedL, iv, records, mac := file[72:104], file[104:136], file[136:152], file[152:eof], file[eof+16:]

	p := sha256.Sum256(append([]byte("Pa$$word"), salt...))
	for range iter {
		p = sha256.Sum256(p[:])
	}
	if h := sha256.Sum256(p[:]); !bytes.Equal(h[:], stretchedHash) {
		t.Fatal("the stretched passphrase's hash differs from the file's")
	}
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		pc := mustCipher(t, p[:], impl.Name)
		k, l := make([]byte, 32), make([]byte, 32)
		NewECBDecrypter(pc).CryptBlocks(k, wrappedK)
		NewECBDecrypter(pc).CryptBlocks(l, wrappedL)
		kc := mustCipher(t, k, impl.Name)
		plain := make([]byte, len(records))
		NewCBCDecrypter(kc, iv).CryptBlocks(plain, records)

		// Fields: a 4-byte little-endian length, a type and the data,
		// padded to whole blocks. Type 3 is an entry's title, 0xff ends
		// the header and each entry; the HMAC covers every field's data.
		m := hmac.New(sha256.New, l)
		var titles []string
		for rest := plain; len(rest) > 0; {
			n := int(binary.LittleEndian.Uint32(rest))
			if n > len(rest)-5 {
				t.Fatalf("a field of %d bytes overruns the records", n)
			}
			data := rest[5 : 5+n]
			m.Write(data)
			if rest[4] == 3 {
				titles = append(titles, string(data))
			}
			rest = rest[(5+n+BlockSize-1)/BlockSize*BlockSize:]
		}
		if !hmac.Equal(m.Sum(nil), mac) {
			t.Error("the records' HMAC differs from the file's")
		}
		if fmt.Sprint(titles) != "[Title1 Title2]" {
			t.Errorf("titles %q, want Title1 and Title2", titles)
		}

		again := make([]byte, len(records))
		NewCBCEncrypter(kc, iv).CryptBlocks(again, plain)
		NewECBEncrypter(pc).CryptBlocks(k, k)
		NewECBEncrypter(pc).CryptBlocks(l, l)
		if !bytes.Equal(again, records) || !bytes.Equal(k, wrappedK) || !bytes.Equal(l, wrappedL) {
			t.Error("encryption does not give back the file's bytes")
		}
	})
}

// TestEAXOpenPGPMessage runs the two EAX operations of an OpenPGP message
// that rnp (rnpgp/rnp, built on Botan) encrypted with Twofish in EAX, in
// the AEAD layout of the rfc4880bis drafts (rnp's
// src/tests/data/test_messages/cleartext.rnp-aead-eax at ca19ba2dee37,
// passphrase password1): the v5 SKESK packet's encrypted session key,
// under the key that S2K makes from the passphrase, and the final tag of
// the encrypted data packet, under the session key, whose associated data
// is the packet's header, the chunk index and the message's length.
func TestEAXOpenPGPMessage(t *testing.T) {
	for _, v := range []struct{ name, key, nonce, ad, pt, out string }{
		{"SKESK", "EC814154F69011AE62DC738BFBC716ABEDF7F50DB078307BDACB8226ED66E30E", "23D5F58E1620BE7DDEE5A5F4BCE0D4DB", "C3050A01",
			"962F6A92ED3AD573F59F3CDB2FE9C53F5AB4E0DFAFF65B2FF6C97EF49C11767F",
			"DFEB7B00A4C2DCF92394567674754899402E7E2FB8A2544A1905C5157C9CEB4D974B65165E9B3A0F542169187FBA6266"},
		{"final tag", "962F6A92ED3AD573F59F3CDB2FE9C53F5AB4E0DFAFF65B2FF6C97EF49C11767F", "2EDE0ED555E50C6C83BCC7A9FB6F5676",
			"D4010A010C0000000000000001000000000000A0C9", "", "1CE31CFEC59AB9D00D1450407BA8C8CC"},
	} {
		forEachImpl(t, func(t *testing.T, impl Implementation) {
			e, err := NewEAX(mustCipher(t, unhex(v.key), impl.Name), BlockSize, BlockSize)
			if err != nil {
				t.Fatal(err)
			}
			checkAEAD(t, v.name, e, unhex(v.nonce), unhex(v.pt), unhex(v.ad), unhex(v.out))
		})
	}
}

// TestOpenPGPGnuPGMessages decrypts and re-encrypts two messages GnuPG
// 2.2.40 encrypted with Twofish under the passphrase X (gpg --symmetric
// --cipher-algo TWOFISH --s2k-mode 1 --compress-algo none, the second also
// --rfc2440): OpenPGP's CFB (RFC 4880, 13.9) over a random block and its
// last two bytes again, with a zero IV, in a symmetrically encrypted
// integrity-protected data packet (version 1, a SHA-1 MDC at its end), and
// in the older symmetrically encrypted data packet, whose CFB starts again
// after those 18 bytes with the ciphertext's bytes 2 to 17 as its IV.
func TestOpenPGPGnuPGMessages(t *testing.T) {
	const text = "Hello Twofish interop test message. 0123456789"
	for _, m := range []struct {
		name, msg string
		mdc       bool
	}{
		{"SEIPD", "8c0c040a01022c1986277797415bd26601948e685c8cad1568607ce63d1a8751a617989ff150d461e22a6146471c5006100f1b27a9d55e325288e83e52ff3d8c84f5f62178a7a43dcf7456846bc535b773d9f9a2b8032437c80b9b7aaaef78824b381abfbf24a1c5d9869ae6fbb278afcc4dcb82b3df", true},
		{"SED", "8c0c040a0102710f97d66cf073dca44fddb573811a583dd4ba3616b1de1357b5618f446f35822b09b3debd00297e4b15d9a4986be4f231f5f5f9d6c87990a91f37ed4c7115b23926ba66a2a4a6426ed9f506ee3cbf0c5ff268809ad22352b8", false},
	} {
		msg := unhex(m.msg)
		// The SKESK packet: version 4, Twofish (10), salted S2K (1) with
		// SHA-1 (2) and an 8-byte salt. A 256-bit key takes two SHA-1
		// hashes, the second preloaded with a zero byte.
		skesk := msg[2 : 2+msg[1]]
		if !bytes.Equal(skesk[:4], []byte{4, 10, 1, 2}) {
			t.Fatalf("%s: SKESK %X", m.name, skesk)
		}
		salt := skesk[4:12]
		h0 := sha1.Sum(append(bytes.Clone(salt), 'X'))
		h1 := sha1.Sum(append(append([]byte{0}, salt...), 'X'))
		key := append(h0[:], h1[:12]...)
		body := msg[2+msg[1]+2:]
		if m.mdc {
			if body[0] != 1 {
				t.Fatalf("%s: SEIPD version %d", m.name, body[0])
			}
			body = body[1:]
		}
		forEachImpl(t, func(t *testing.T, impl Implementation) {
			c := mustCipher(t, key, impl.Name)
			// OpenPGP's CFB: one stream from a zero IV, or for SED a
			// second after 18 bytes, from the ciphertext's bytes 2 to 17.
			cfb := func(dst, src []byte, decrypt bool) {
				newCFB, ct := NewCFBEncrypter, dst
				if decrypt {
					newCFB, ct = NewCFBDecrypter, src
				}
				zero := make([]byte, BlockSize)
				if m.mdc {
					newCFB(c, zero).XORKeyStream(dst, src)
					return
				}
				newCFB(c, zero).XORKeyStream(dst[:18], src[:18])
				newCFB(c, ct[2:18]).XORKeyStream(dst[18:], src[18:])
			}
			plain := make([]byte, len(body))
			cfb(plain, body, true)
			if !bytes.Equal(plain[14:16], plain[16:18]) {
				t.Fatalf("%s: the quick check's bytes differ", m.name)
			}
			data := plain[18:]
			if m.mdc {
				mdc := sha1.Sum(plain[:len(plain)-20])
				if !bytes.Equal(data[len(data)-22:], append([]byte{0xD3, 0x14}, mdc[:]...)) {
					t.Fatalf("%s: the MDC packet differs from the SHA-1 of the message", m.name)
				}
				data = data[:len(data)-22]
			}
			// A literal data packet (tag 11, old format: 0xAC), its
			// length, the format, the file name (its length first) and a
			// 4-byte date, then the text.
			if data[0] != 0xAC || int(data[1]) != len(data)-2 || !strings.HasSuffix(string(data), text) {
				t.Fatalf("%s: literal data packet %X", m.name, data)
			}

			again := make([]byte, len(plain))
			cfb(again, plain, false)
			if !bytes.Equal(again, body) {
				t.Errorf("%s: encryption does not give back GnuPG's ciphertext", m.name)
			}
		})
	}
}

// TestKeePassKDBX4 opens a KeePass database of version 4 of the KDBX
// format whose cipher is Twofish-CBC (the cipher KeePassXC offers beside
// AES and ChaCha20): testdata/keepass/, from the tests of keepass-rs
// (sseemayer/keepass-rs at 030d6242a8c9, tests/resources), whose password
// is demopass. The password goes through SHA-256 twice and Argon2id into
// the key of the HMAC-SHA256s of the header and of each block of the
// payload, and with the master seed into the Twofish key; the payload is
// Twofish-CBC with PKCS#7 padding over a gzip stream of the inner header
// and the XML database. The test checks the HMACs, the padding and the
// entry's title, and that encryption gives back the file's payload,
// through every implementation.
func TestKeePassKDBX4(t *testing.T) {
	file, err := os.ReadFile("testdata/keepass/test_db_kdbx4_with_password_argon2id_twofish.kdbx")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(file, unhex("03D9A29A67FB4BB5")) || binary.LittleEndian.Uint16(file[10:]) != 4 {
		t.Fatal("not a KDBX 4 database")
	}
	// The outer header: fields of a type byte, a 4-byte length and the data,
	// up to type 0; then its SHA-256 and HMAC-SHA256.
	fields := map[byte][]byte{}
	off := 12
	for {
		typ, n := file[off], int(binary.LittleEndian.Uint32(file[off+1:]))
		fields[typ] = file[off+5 : off+5+n]
		off += 5 + n
		if typ == 0 {
			break
		}
	}
	header := file[:off]
	if !bytes.Equal(fields[2], unhex("AD68F29F576F4BB9A36AD47AF965346C")) {
		t.Fatalf("cipher %X, not Twofish-CBC", fields[2])
	}
	if h := sha256.Sum256(header); !bytes.Equal(h[:], file[off:off+32]) {
		t.Fatal("the header's SHA-256 differs from the file's")
	}

	// The key derivation's parameters: a dictionary of typed entries.
	kdf := map[string][]byte{}
	for d := fields[11][2:]; d[0] != 0; {
		kn := int(binary.LittleEndian.Uint32(d[1:]))
		name := string(d[5 : 5+kn])
		d = d[5+kn:]
		vn := int(binary.LittleEndian.Uint32(d))
		kdf[name], d = d[4:4+vn], d[4+vn:]
	}
	if !bytes.Equal(kdf["$UUID"], unhex("9E298B1956DB4773B23DFC3EC6F0A1E6")) {
		t.Fatalf("key derivation %X, not Argon2id", kdf["$UUID"])
	}
	h := sha256.Sum256([]byte("demopass"))
	h = sha256.Sum256(h[:])
	derived := argon2.IDKey(h[:], kdf["S"], uint32(binary.LittleEndian.Uint64(kdf["I"])),
		uint32(binary.LittleEndian.Uint64(kdf["M"])/1024), uint8(binary.LittleEndian.Uint32(kdf["P"])), 32)
	seed := fields[4]
	key := sha256.Sum256(append(bytes.Clone(seed), derived...))
	macBase := sha512.Sum512(append(append(bytes.Clone(seed), derived...), 1))
	mac := func(index uint64, parts ...[]byte) []byte {
		k := sha512.Sum512(append(binary.LittleEndian.AppendUint64(nil, index), macBase[:]...))
		m := hmac.New(sha256.New, k[:])
		for _, p := range parts {
			m.Write(p)
		}
		return m.Sum(nil)
	}
	if !hmac.Equal(mac(^uint64(0), header), file[off+32:off+64]) {
		t.Fatal("the header's HMAC differs from the file's")
	}
	// The payload: blocks of an HMAC, a 4-byte length and the data, up to
	// an empty one.
	var payload []byte
	for i, rest := uint64(0), file[off+64:]; ; i++ {
		n := int(binary.LittleEndian.Uint32(rest[32:]))
		if !hmac.Equal(mac(i, binary.LittleEndian.AppendUint64(nil, i), rest[32:36+n]), rest[:32]) {
			t.Fatalf("block %d: the HMAC differs from the file's", i)
		}
		if n == 0 {
			break
		}
		payload, rest = append(payload, rest[36:36+n]...), rest[36+n:]
	}

	forEachImpl(t, func(t *testing.T, impl Implementation) {
		c := mustCipher(t, key[:], impl.Name)
		plain := make([]byte, len(payload))
		NewCBCDecrypter(c, fields[7]).CryptBlocks(plain, payload)
		pad := int(plain[len(plain)-1])
		if pad < 1 || pad > BlockSize || !bytes.Equal(plain[len(plain)-pad:], bytes.Repeat([]byte{byte(pad)}, pad)) {
			t.Fatal("no PKCS#7 padding")
		}
		zr, err := gzip.NewReader(bytes.NewReader(plain[:len(plain)-pad]))
		if err != nil {
			t.Fatal(err)
		}
		inner, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`<Key>Title</Key>\s*<Value>test</Value>`).Match(inner) {
			t.Error("the database has no entry titled test")
		}
		again := make([]byte, len(plain))
		NewCBCEncrypter(c, fields[7]).CryptBlocks(again, plain)
		if !bytes.Equal(again, payload) {
			t.Error("encryption does not give back the file's payload")
		}
	})
}
