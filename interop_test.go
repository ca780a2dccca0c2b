package twofish

// Known answers of Twofish's modes from other implementations' own tests:
// Botan's Twofish/XTS and Twofish/EAX vectors, VeraCrypt's self-test of its
// Twofish XTS volumes, the Linux kernel's vectors of the ciphers dm-crypt
// uses, and the OCB tags libgcrypt's tests require (interop_formats_test.go
// has files other programs made). They check, without cgo, what
// libgcrypt_test.go and libgcrypt_aead_test.go check against libgcrypt:
// XTS's ciphertext stealing and its whole 128-bit tweaks, EAX and OCB over
// Twofish, the data units of VeraCrypt and dm-crypt.

import (
	"bufio"
	"bytes"
	"crypto/cipher"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"os"
	"strings"
	"testing"
)

// forEachXTS runs f as a subtest for every implementation this CPU runs
// (forEachImpl), and for NewXTS and NewXTSConstantTime, whose plans mix
// them: f makes its XTSs with newXTS.
func forEachXTS(t *testing.T, f func(t *testing.T, newXTS func(key []byte) *XTS)) {
	must := func(t *testing.T, nx func([]byte) (*XTS, error)) func([]byte) *XTS {
		return func(key []byte) *XTS {
			x, err := nx(key)
			if err != nil {
				t.Fatal(err)
			}
			return x
		}
	}
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		f(t, must(t, func(key []byte) (*XTS, error) { return NewXTSImpl(key, impl.Name) }))
	})
	t.Run("NewXTS", func(t *testing.T) { f(t, must(t, NewXTS)) })
	t.Run("NewXTSConstantTime", func(t *testing.T) { f(t, must(t, NewXTSConstantTime)) })
}

// vector is a record of a test-vector file in the layout of Botan's
// (src/tests/data in randombit/botan): its fields by name, decoded from
// hex.
type vector map[string][]byte

// readVectors parses a file of test vectors in Botan's layout: "Name = hex"
// lines, a blank line after each record, "#" comments, and "[Algorithm]"
// headers, by which it groups the records.
func readVectors(t *testing.T, path string) map[string][]vector {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	vs := map[string][]vector{}
	alg, v := "", vector{}
	end := func() {
		if len(v) > 0 {
			vs[alg] = append(vs[alg], v)
			v = vector{}
		}
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		switch {
		case s == "":
			end()
		case strings.HasPrefix(s, "#"):
		case strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]"):
			end()
			alg = s[1 : len(s)-1]
		default:
			name, value, ok := strings.Cut(s, " =")
			b, err := hex.DecodeString(strings.TrimSpace(value))
			if !ok || err != nil {
				t.Fatalf("%s:%d: not a field of hex: %q", path, line, s)
			}
			v[name] = b
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	end()
	return vs
}

// TestXTSBotanVectors runs Botan's 240 Twofish/XTS vectors: 256-bit data
// and tweak keys, 17 to 256 bytes (every length, so every length of a
// stolen final block), each under a random 128-bit tweak, which Botan
// calls the nonce and encrypts with the tweak key. Encrypt's sector
// numbers set only the low 64 bits of that block, so the test gives the
// tweak to the mode's common path, run, as Encrypt does its own.
func TestXTSBotanVectors(t *testing.T) {
	vs := readVectors(t, "testdata/botan/xts-twofish.vec")["Twofish/XTS"]
	if len(vs) != 240 {
		t.Fatalf("%d vectors in the file, want 240", len(vs))
	}
	forEachXTS(t, func(t *testing.T, newXTS func([]byte) *XTS) {
		for i, v := range vs {
			x := newXTS(v["Key"])
			var tb [BlockSize]byte
			copy(tb[:], v["Nonce"])
			x.tweak.Encrypt(tb[:], tb[:])
			tw := tweak{binary.LittleEndian.Uint64(tb[:]), binary.LittleEndian.Uint64(tb[8:])}
			in, want := v["In"], v["Out"]
			got := make([]byte, len(in))
			x.run(got, in, tw, false)
			if !bytes.Equal(got, want) {
				t.Fatalf("vector %d (%d bytes): encryption %X, want %X", i, len(in), got, want)
			}
			x.run(got, got, tw, true)
			if !bytes.Equal(got, in) {
				t.Fatalf("vector %d (%d bytes): in-place decryption does not give the plaintext", i, len(in))
			}
		}
	})
}

// TestXTSVeraCrypt encrypts what VeraCrypt's self-test encrypts with
// Twofish (TestSectorBufEncryption in src/Common/Tests.c of
// veracrypt/VeraCrypt): four 512-byte data units, each bytes 0 to 255
// twice, under the keys of IEEE 1619's vector 14 (the data key first),
// from data unit 2^40-1-k for k = 0 to 3 (the units cross 2^40) and from
// unit 0 (its volume-header buffer), and checks the CRC-32 of the four
// units against the one VeraCrypt requires of its own Twofish.
func TestXTSVeraCrypt(t *testing.T) {
	key := unhex("2718281828459045235360287471352662497757247093699959574966967627" +
		"3141592653589793238462643383279502884197169399375105820974944592")
	plain := make([]byte, 4*512)
	for i := range plain {
		plain[i] = byte(i)
	}
	const plainCRC = 0x9f5edd58 // VeraCrypt's check of the decryption
	if crc32.ChecksumIEEE(plain) != plainCRC {
		t.Fatal("the plaintext's CRC-32 is not VeraCrypt's")
	}
	units := []struct {
		unit uint64
		crc  uint32
	}{
		{1<<40 - 1, 0x91525124},
		{1<<40 - 2, 0x2895cc47},
		{1<<40 - 3, 0x6bee346d},
		{1<<40 - 4, 0xb1c45759},
		{0, 0xc4d65b46},
	}
	forEachXTS(t, func(t *testing.T, newXTS func([]byte) *XTS) {
		x := newXTS(key)
		for _, tc := range units {
			buf := append([]byte(nil), plain...)
			x.EncryptSectors(buf, buf, 512, tc.unit)
			if got := crc32.ChecksumIEEE(buf); got != tc.crc {
				t.Errorf("units from %#x, EncryptSectors: CRC-32 %#08x, want %#08x", tc.unit, got, tc.crc)
			}
			one := make([]byte, len(plain))
			for i := 0; i < len(plain); i += 512 {
				x.Encrypt(one[i:i+512], plain[i:i+512], tc.unit+uint64(i/512))
			}
			if !bytes.Equal(one, buf) {
				t.Errorf("units from %#x: Encrypt unit by unit differs from EncryptSectors", tc.unit)
			}
			x.DecryptSectors(buf, buf, 512, tc.unit)
			if got := crc32.ChecksumIEEE(buf); got != plainCRC {
				t.Errorf("units from %#x, DecryptSectors: CRC-32 %#08x, want %#08x", tc.unit, got, uint32(plainCRC))
			}
		}
	})
}

// botanEAX is the output, ciphertext then 16-byte tag, of Botan's 33
// Twofish/EAX vectors (src/tests/data/aead/eax.vec), a chain: vector n's
// nonce, associated data and plaintext are each the bytes 0, 1, ..., n-1,
// its key the last 16 bytes of vector n-1's output, and vector 0's key the
// bytes 0 to 15.
var botanEAX = []string{
	"DB0C02CB069E3773296D3BD4A87A381B",
	"997D21D19E9C440F68E99F1F2EA2668694",
	"0696EA590EC417C88E23FD23917F9ECFB0C6",
	"B9B08282D4C9B68DDB02C906496413E13A2D68",
	"D6B29D745BCE5CA4F662E883BF7FCAAE5FB2CE01",
	"A59C9CB009CBFB04226D1029A7EC9D64A48A6729BE",
	"F4924FE3E3553D85B3900DECA0528C815F1447A1F209",
	"679C88D52FB519931C7A863C3701D8015FDBD8696C6C30",
	"26DA41C0D115375E7627E23E791A4DCB0FA5ED71B1ED2288",
	"8FEC6EB7016AD2B178F65ED0286A724F0CB2EA317D5022B0D8",
	"B5F22415B1334133C53187C4F3A8991BBB85984BC4D3305A5CF1",
	"23E1D0ED2E820AFE7DA2FE100499F1093FAB2ECF73B643594E98E3",
	"79519ABA91F46B8DAD6D5335FBDCD1FCDB20AB99135F28A714C6992F",
	"5968D0B4198A0AAD3D0395018F781F22E2DA98F83398FCF911B2010057",
	"4E55B14432B601E3EF2EF567CB158BF6E53D7657E56EA3DA1BFD9C9EC06E",
	"6ED89651CE19B3DD1EE5C8780B5015131CFD657D32D4E1B35140ADDCA0E13A",
	"2295A968B4D072D12757756247554850F35FAC95C2AA4155450EAAA6E2E789B5",
	"F9B2AA2AA502EA79BBA0C5EAD932B8E1EE0ED81AA40B9BF39A9AAEDDDB7A04BEA6",
	"385055F1C1C26C0472A504B4CD225DCA55FE24831680B56368231AC54227D737F582",
	"771529585C741A3F8B1C973709892F255A99EE2A132B4BF96FD5109DB04459103F5E84",
	"E7A2197D9FAA8AB8B303B5EC71AE34AD5EC5DD66CCAB6518371EC8E0A9E9EE4F7CA5878B",
	"279E54F755EAC6B57375B9EC4406E43DB3139D740C7B6F26F2C0ECC9F2DF4EDD7513E6E0B7",
	"27816AA94CBA2BF98E49E595AF5B3FAD12BF1D6F1AC6D04876C5492D275F15C834E3CF794F0E",
	"B5658DC148855F68B282211D879F688F3C142FE555CF814539CDA8A65DB9047AAD76B421B81120",
	"72F0BD4F939C2C9B4FA734DCB0AE4FB9BD342BC8459ED2FECEA8469BC0457EBF3418C1114288C904",
	"70568245E6E6BD5D11AD0C74030D7AE08BA05057DEA0FBF4AD71554FDE6B87477A51EE4499D78783D2",
	"8702D35BE07D7ADF70684046CC6C72FBBBF821E0BBCCBC97360133CC6FBFDA15E306919E0C3BB2E22BB6",
	"0BA23F4A6174165D4A8BA80B7C875340B0F8B2A6967D34E106BC2200E6679496714236EECEC84B9AF3072E",
	"B9E25ABA84C6BD95B5149E7616FE2E1D6FAACEAAD77A636C602791768D8AD0B9D4C709E1DA370EE01611482A",
	"74759711F6D542581F9F83498FB616638D092732BA07109BF4B5BE045C71A40DC777BD09F75362F7B20E0B7576",
	"ADBF7E98926484BA2C7F6CD7CD9734FC19265F68AF3BFCAEB025F6296E378DF15B5F69B67F7DABE44E3666B55047",
	"2DC26D449379997D110309B2A0DC2760FCE8CADB4B14ED580F86C70F69C9BAEFCB60EB2B25737E256BC76700B198EF",
	"2B1890EB9FC0B8293E45D42D2126F4072754AA54E220C853C5F20FBA86BE07951A1B15BBC287372FB9AF035FB124B6A1",
}

func TestEAXBotanVectors(t *testing.T) {
	if len(botanEAX) != 33 {
		t.Fatalf("%d vectors, want 33", len(botanEAX))
	}
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		key := unhex("000102030405060708090A0B0C0D0E0F")
		for n, out := range botanEAX {
			want := unhex(out)
			// NewEAX takes no empty nonce: vector 0 only gives vector 1
			// its key.
			if n > 0 {
				data := make([]byte, n)
				for i := range data {
					data[i] = byte(i)
				}
				e, err := NewEAX(mustCipher(t, key, impl.Name), n, 16)
				if err != nil {
					t.Fatal(err)
				}
				checkAEAD(t, fmt.Sprintf("vector %d", n), e, data, data, data, want)
			}
			key = want[len(want)-16:]
		}
	})
}

// TestOCBLibgcryptLargeBuffer seals what libgcrypt's own tests seal with
// Twofish in OCB (check_ocb_cipher_largebuf in tests/basic.c of
// gpg/libgcrypt): 2 MiB and 32 bytes, block i the first 16 bytes of the
// SHA-1 of i's 4-byte little-endian byte offset, as both the associated
// data and the plaintext, under the key 0, 1, ..., 15 or 0, 1, ..., 31
// and the 12-byte nonce 8 to 15, 0 to 3, and checks the tag against the
// one libgcrypt requires.
func TestOCBLibgcryptLargeBuffer(t *testing.T) {
	buf := make([]byte, 2<<20+32)
	for i := 0; i < len(buf); i += BlockSize {
		h := sha1.Sum(binary.LittleEndian.AppendUint32(nil, uint32(i)))
		copy(buf[i:], h[:BlockSize])
	}
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(i)
	}
	nonce := unhex("08090A0B0C0D0E0F00010203")
	tags := map[int]string{16: "548768B617E6D7A6760D7E9F578BEC88", 32: "0BC39352FA9722E6886E294D77354884"}
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		for _, size := range []int{16, 32} {
			o, err := NewOCB(mustCipher(t, key[:size], impl.Name), len(nonce), 16)
			if err != nil {
				t.Fatal(err)
			}
			sealed := o.Seal(nil, nonce, buf, buf)
			if tag := fmt.Sprintf("%X", sealed[len(buf):]); tag != tags[size] {
				t.Errorf("%d-bit key: tag %s, want %s", 8*size, tag, tags[size])
			}
			if _, err := o.Open(sealed[:0], nonce, sealed, buf); err != nil {
				t.Errorf("%d-bit key: Open: %v", 8*size, err)
			}
		}
	})
}

// TestLinuxKernelVectors runs the Twofish vectors of the Linux kernel's
// crypto tests (testdata/linux/twofish.vec), the known answers of the
// ciphers dm-crypt uses, through every implementation: ECB, CBC, CTR with
// its 128-bit big-endian counter (one vector carries through all 128 bits,
// one ends in a partial block), and XTS with the sector numbers of
// twofish-xts-plain64.
func TestLinuxKernelVectors(t *testing.T) {
	vs := readVectors(t, "testdata/linux/twofish.vec")
	if n := []int{len(vs["ECB"]), len(vs["CBC"]), len(vs["CTR"]), len(vs["XTS"])}; n[0] != 1 || n[1] != 1 || n[2] != 3 || n[3] != 5 {
		t.Fatalf("ECB, CBC, CTR and XTS vectors: %v, want [1 1 3 5]", n)
	}
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		check := func(mode string, i int, what string, got, want []byte) {
			t.Helper()
			if !bytes.Equal(got, want) {
				t.Errorf("%s vector %d, %s: %X, want %X", mode, i, what, got, want)
			}
		}
		for _, m := range []struct {
			name     string
			enc, dec func(c *Cipher, iv []byte) cipher.BlockMode
		}{
			{"ECB", func(c *Cipher, _ []byte) cipher.BlockMode { return NewECBEncrypter(c) },
				func(c *Cipher, _ []byte) cipher.BlockMode { return NewECBDecrypter(c) }},
			{"CBC", func(c *Cipher, iv []byte) cipher.BlockMode { return NewCBCEncrypter(c, iv) },
				func(c *Cipher, iv []byte) cipher.BlockMode { return NewCBCDecrypter(c, iv) }},
		} {
			for i, v := range vs[m.name] {
				c := mustCipher(t, v["Key"], impl.Name)
				got := make([]byte, len(v["In"]))
				m.enc(c, v["IV"]).CryptBlocks(got, v["In"])
				check(m.name, i, "encryption", got, v["Out"])
				m.dec(c, v["IV"]).CryptBlocks(got, got)
				check(m.name, i, "decryption", got, v["In"])
			}
		}
		for i, v := range vs["CTR"] {
			c := mustCipher(t, v["Key"], impl.Name)
			got := make([]byte, len(v["In"]))
			NewCTR(c, v["IV"]).XORKeyStream(got, v["In"])
			check("CTR", i, "encryption", got, v["Out"])
		}
	})
	forEachXTS(t, func(t *testing.T, newXTS func([]byte) *XTS) {
		for i, v := range vs["XTS"] {
			iv := v["IV"]
			if len(iv) != BlockSize || binary.LittleEndian.Uint64(iv[8:]) != 0 {
				t.Fatalf("XTS vector %d: IV %X is not a 64-bit sector number", i, iv)
			}
			x, sector := newXTS(v["Key"]), binary.LittleEndian.Uint64(iv)
			got := make([]byte, len(v["In"]))
			x.Encrypt(got, v["In"], sector)
			if !bytes.Equal(got, v["Out"]) {
				t.Errorf("XTS vector %d: encryption %X, want %X", i, got, v["Out"])
			}
			x.Decrypt(got, got, sector)
			if !bytes.Equal(got, v["In"]) {
				t.Errorf("XTS vector %d: decryption does not give the plaintext", i)
			}
		}
	})
}
