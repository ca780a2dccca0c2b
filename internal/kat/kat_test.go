package kat

//lint:file-ignore SA1019 golang.org/x/crypto/twofish is the deprecated package this module replaces: the tests compare with it.

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	xtwofish "golang.org/x/crypto/twofish"
)

// TestEmbeddedFiles checks that the embedded files decompress to the
// module's testdata/*.TXT byte for byte, and that they are the ones Files
// lists; if not, run "go generate" here.
func TestEmbeddedFiles(t *testing.T) {
	for _, name := range Files {
		got, err := Open(name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("..", "..", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: embedded copy (%d bytes) differs from testdata (%d bytes); run go generate", name, len(got), len(want))
		}
	}
	entries, err := fs.ReadDir(vectors, "vectors")
	if err != nil {
		t.Fatal(err)
	}
	var embedded []string
	for _, e := range entries {
		embedded = append(embedded, strings.TrimSuffix(e.Name(), ".gz"))
	}
	if want := slices.Sorted(slices.Values(Files)); !slices.Equal(embedded, want) {
		t.Errorf("embedded files %q, want %q", embedded, want)
	}
	if _, err := Open("NOSUCH.TXT"); err == nil {
		t.Error("Open of a file that is not embedded: no error")
	}
}

// TestRecordCounts checks that every file parses into the records the
// submission has.
func TestRecordCounts(t *testing.T) {
	for _, name := range Files {
		recs, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		per := 400
		if name == ECBTable {
			per = 49
		}
		if len(recs) != 3*per {
			t.Errorf("%s: %d records, want %d", name, len(recs), 3*per)
		}
		for i, r := range recs {
			if want := []int{16, 24, 32}[i/per]; r.KeySize != want {
				t.Fatalf("%s: record %d has key size %d, want %d", name, i, r.KeySize, want)
			}
			if hasIV := strings.HasPrefix(name, "CBC"); (r.IV != nil) != hasIV {
				t.Fatalf("%s: record %d: IV %x", name, i, r.IV)
			}
		}
	}
}

func TestParse(t *testing.T) {
	const good = "header\r\nKEYSIZE=128\r\n\r\nI=7\r\nKEY=000102030405060708090A0B0C0D0E0F\r\n" +
		"IV=00000000000000000000000000000001\r\nPT=00000000000000000000000000000002\r\nCT=00000000000000000000000000000003\r\n"
	recs, err := Parse("good", strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].Index != 7 || recs[0].KeySize != 16 || recs[0].Key[15] != 15 ||
		recs[0].IV[15] != 1 || recs[0].PT[15] != 2 || recs[0].CT[15] != 3 {
		t.Errorf("Parse = %+v", recs)
	}
	for _, bad := range []string{
		"KEYSIZE=100\n",
		"I=1\n",
		"KEYSIZE=128\nKEY=00\n",
		"KEYSIZE=128\nI=x\n",
		"KEYSIZE=128\nI=1\nKEY=zz\n",
		"KEYSIZE=128\nI=1\nKEY=00\nPT=000000000000000000000000000000000\nCT=00000000000000000000000000000000\n",
		"KEYSIZE=128\nI=1\nKEY=00000000000000000000000000000000\nPT=00000000000000000000000000000000\n",
		"KEYSIZE=192\nI=1\nKEY=00000000000000000000000000000000\nPT=00000000000000000000000000000000\nCT=00000000000000000000000000000000\n",
	} {
		if recs, err := Parse("bad", strings.NewReader(bad)); err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", bad, recs)
		}
	}
}

func TestPrefix(t *testing.T) {
	recs, err := Load(ECBEncrypt)
	if err != nil {
		t.Fatal(err)
	}
	p := Prefix(recs, 2)
	if len(p) != 6 || p[0].Index != 0 || p[1].Index != 1 || p[2].KeySize != 24 || p[2].Index != 0 || p[5].KeySize != 32 {
		t.Errorf("Prefix(recs, 2) = %+v", p)
	}
}

// TestMonteCarloRules checks the chaining rules with the independent
// golang.org/x/crypto/twofish, on a prefix of each file.
func TestMonteCarloRules(t *testing.T) {
	n := 10
	if testing.Short() {
		n = 1
	}
	for _, name := range MonteCarloFiles {
		recs, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range Prefix(recs, n) {
			c, err := xtwofish.NewCipher(r.Key)
			if err != nil {
				t.Fatal(err)
			}
			got, want, err := MonteCarlo(name, r, func(b []byte, decrypt bool) {
				if decrypt {
					c.Decrypt(b, b)
				} else {
					c.Encrypt(b, b)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: record I=%d, key %d bits: got %x, want %x", name, r.Index, 8*r.KeySize, got, want)
			}
		}
	}
	if _, _, err := MonteCarlo(ECBTable, Record{}, nil); err == nil {
		t.Error("MonteCarlo of the known-answer file: no error")
	}
}

// TestKnownAnswers checks the known-answer records with x/crypto/twofish,
// which says that the parser reads them right.
func TestKnownAnswers(t *testing.T) {
	recs, err := Load(ECBTable)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		c, err := xtwofish.NewCipher(r.Key)
		if err != nil {
			t.Fatal(err)
		}
		b := make([]byte, 16)
		if c.Encrypt(b, r.PT); !bytes.Equal(b, r.CT) {
			t.Errorf("record I=%d, key %d bits: E(PT) = %x, want %x", r.Index, 8*r.KeySize, b, r.CT)
		}
	}
}

// TestParseRecordShape checks that Parse rejects a record that is not
// whole however complete its fields: one before any KEYSIZE (of no key
// size), and one whose PT or IV is not a block.
func TestParseRecordShape(t *testing.T) {
	const block = "00000000000000000000000000000000"
	for _, bad := range []string{
		"I=1\nKEY=\nPT=" + block + "\nCT=" + block + "\n",
		"KEYSIZE=128\nI=1\nKEY=" + block + "\nPT=00\nCT=" + block + "\n",
		"KEYSIZE=128\nI=1\nKEY=" + block + "\nIV=00\nPT=" + block + "\nCT=" + block + "\n",
	} {
		if recs, err := Parse("bad", strings.NewReader(bad)); err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", bad, recs)
		}
	}
}

// TestParseBlanks checks that blanks around a line do not change it: the
// files are hand-edited text, and a value with a blank at either end would
// otherwise not parse.
func TestParseBlanks(t *testing.T) {
	const block = "000102030405060708090A0B0C0D0E0F"
	in := "  KEYSIZE=128 \n\tI=3\t\n KEY=" + block + " \nPT=" + block + "\t\n CT=" + block + "\n"
	recs, err := Parse("blanks", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].Index != 3 || recs[0].KeySize != 16 || recs[0].CT[15] != 15 {
		t.Errorf("Parse = %+v", recs)
	}
}

// TestParseErrors checks that an error names the file and the line, from
// 1, of what it rejects, and that Parse reports an error of the reader
// rather than the records read before it.
func TestParseErrors(t *testing.T) {
	_, err := Parse("f.TXT", strings.NewReader("header\nKEYSIZE=100\n"))
	if err == nil || !strings.Contains(err.Error(), "f.TXT:2:") {
		t.Errorf("Parse of a bad line 2: error %v, want one naming f.TXT:2", err)
	}
	r := io.MultiReader(strings.NewReader("KEYSIZE=128\n"), iotest.ErrReader(errors.New("disk on fire")))
	if recs, err := Parse("f.TXT", r); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("Parse of a failing reader = %v, %v, want its error", recs, err)
	}
}

// TestMonteCarloDirections checks that each Monte Carlo file's rule
// encrypts or decrypts as its name says, MonteCarloIterations times: a
// rule that ran the inverse from the other end would pass for a right
// cipher yet test the other direction.
func TestMonteCarloDirections(t *testing.T) {
	recs, err := Load(CBCEncrypt)
	if err != nil {
		t.Fatal(err)
	}
	r := recs[0] // a record with an IV serves every rule
	for _, name := range MonteCarloFiles {
		var enc, dec int
		if _, _, err := MonteCarlo(name, r, func(b []byte, decrypt bool) {
			if decrypt {
				dec++
			} else {
				enc++
			}
		}); err != nil {
			t.Fatal(err)
		}
		want := [2]int{MonteCarloIterations, 0} // encryptions, decryptions
		if name == ECBDecrypt || name == CBCDecrypt {
			want = [2]int{0, MonteCarloIterations}
		}
		if got := [2]int{enc, dec}; got != want {
			t.Errorf("%s: %d encryptions and %d decryptions, want %d and %d", name, enc, dec, want[0], want[1])
		}
	}
}

// TestMonteCarloNeedsIV checks that a CBC rule given a record without an
// IV returns an error, without running the cipher.
func TestMonteCarloNeedsIV(t *testing.T) {
	recs, err := Load(ECBEncrypt)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{CBCEncrypt, CBCDecrypt} {
		calls := 0
		if _, _, err := MonteCarlo(name, recs[0], func([]byte, bool) { calls++ }); err == nil || calls != 0 {
			t.Errorf("%s of a record without an IV: error %v after %d calls, want an error and none", name, err, calls)
		}
	}
}

// TestOpenNotEmbedded checks that Open and Load of a name that is not one
// of Files say so, rather than report what failed to decompress nothing.
func TestOpenNotEmbedded(t *testing.T) {
	if _, err := Open("NOSUCH.TXT"); err == nil || !strings.Contains(err.Error(), `no embedded file "NOSUCH.TXT"`) {
		t.Errorf("Open(NOSUCH.TXT): error %v, want one saying no such file is embedded", err)
	}
	if _, err := Load("NOSUCH.TXT"); err == nil || !strings.Contains(err.Error(), "no embedded file") {
		t.Errorf("Load(NOSUCH.TXT): error %v, want one saying no such file is embedded", err)
	}
}
