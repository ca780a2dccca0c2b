// Package kat holds the official known-answer and Monte Carlo test files of
// the Twofish AES submission (Schneier et al., 1998), a parser for them, and
// the chaining rules of the Monte Carlo tests, so that both the package's
// tests and the twofish command's selftest can run them.
//
// The files are embedded gzip-compressed (vectors/*.TXT.gz). They are made
// from the module's testdata/*.TXT by "go generate" (see gen/), and a test
// checks that they decompress to those files byte for byte.
package kat

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
)

//go:generate env -u GOARCH go run ./gen -src ../../testdata -dst vectors

// The files, by their names in testdata/.
const (
	ECBTable   = "ECB_TBL.TXT" // known answers: 49 chained records per key size
	ECBEncrypt = "ECB_E_M.TXT" // Monte Carlo, ECB encryption: 400 records per key size
	ECBDecrypt = "ECB_D_M.TXT" // Monte Carlo, ECB decryption
	CBCEncrypt = "CBC_E_M.TXT" // Monte Carlo, CBC encryption
	CBCDecrypt = "CBC_D_M.TXT" // Monte Carlo, CBC decryption
)

// Files lists the embedded files: the known-answer file, then the Monte
// Carlo files.
var Files = []string{ECBTable, ECBEncrypt, ECBDecrypt, CBCEncrypt, CBCDecrypt}

// MonteCarloFiles lists the Monte Carlo files.
var MonteCarloFiles = Files[1:]

// MonteCarloIterations is how many chained block operations each Monte
// Carlo record stands for.
const MonteCarloIterations = 10000

//go:embed vectors/*.TXT.gz
var vectors embed.FS

// Open returns the contents of the embedded file name, one of Files,
// decompressed.
func Open(name string) ([]byte, error) {
	z, err := vectors.ReadFile("vectors/" + name + ".gz")
	if err != nil {
		return nil, fmt.Errorf("kat: no embedded file %q", name)
	}
	zr, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		return nil, fmt.Errorf("kat: %s: %v", name, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("kat: %s: %v", name, err)
	}
	return b, nil
}

// Load parses the embedded file name, one of Files.
func Load(name string) ([]Record, error) {
	b, err := Open(name)
	if err != nil {
		return nil, err
	}
	return Parse(name, bytes.NewReader(b))
}

// A Record is one "I=..." entry of a test file.
type Record struct {
	KeySize int    // in bytes, from the KEYSIZE section the record is in
	Index   int    // the I= number (the known-answer file counts from 1, the others from 0)
	Key     []byte // KEY
	PT, CT  []byte // PT and CT: for Monte Carlo records, the first input and the last output
	IV      []byte // IV, in the CBC files; nil elsewhere
}

// Parse reads the records of a test file from r; name is for errors. Lines
// that are not "NAME=VALUE" are commentary; KEYSIZE=bits starts a section
// and I=n a record, whose KEY, PT, CT and IV follow in hex. Every record
// must have a key of its section's size and a PT and a CT of one block.
func Parse(name string, r io.Reader) ([]Record, error) {
	var recs []Record
	keySize := 0
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), "=")
		if !ok {
			continue
		}
		bad := func(why string) error {
			return fmt.Errorf("kat: %s:%d: %s: %q", name, line, why, sc.Text())
		}
		switch k {
		case "KEYSIZE":
			bits, err := strconv.Atoi(v)
			if err != nil || (bits != 128 && bits != 192 && bits != 256) {
				return nil, bad("key size not 128, 192 or 256")
			}
			keySize = bits / 8
		case "I":
			i, err := strconv.Atoi(v)
			if err != nil {
				return nil, bad("record number not a number")
			}
			if keySize == 0 {
				return nil, bad("record before KEYSIZE")
			}
			recs = append(recs, Record{KeySize: keySize, Index: i})
		case "KEY", "PT", "CT", "IV":
			b, err := hex.DecodeString(v)
			if err != nil {
				return nil, bad("not hex")
			}
			if len(recs) == 0 {
				return nil, bad("field before the first record")
			}
			r := &recs[len(recs)-1]
			switch k {
			case "KEY":
				r.Key = b
			case "PT":
				r.PT = b
			case "CT":
				r.CT = b
			case "IV":
				r.IV = b
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("kat: %s: %v", name, err)
	}
	for _, r := range recs {
		if len(r.Key) != r.KeySize || len(r.PT) != 16 || len(r.CT) != 16 || (r.IV != nil && len(r.IV) != 16) {
			return nil, fmt.Errorf("kat: %s: record I=%d of key size %d: key %x, PT %x, CT %x, IV %x",
				name, r.Index, 8*r.KeySize, r.Key, r.PT, r.CT, r.IV)
		}
	}
	return recs, nil
}

// Prefix returns the first n records of each key size of recs, in order.
func Prefix(recs []Record, n int) []Record {
	var out []Record
	count := map[int]int{}
	for _, r := range recs {
		if count[r.KeySize] < n {
			out = append(out, r)
		}
		count[r.KeySize]++
	}
	return out
}

// A Crypter encrypts or decrypts one 16-byte block in place with the key of
// the record being run.
type Crypter func(block []byte, decrypt bool)

// MonteCarlo runs the Monte Carlo record r of the file name (one of
// MonteCarloFiles) with crypt, keyed with r.Key, and returns what the run
// ends with and what the file says it should, which are equal if crypt is
// right. The rules, from the submission's description of the tests, for j =
// 0 .. MonteCarloIterations-1:
//
//	ECB_E_M: B_{j+1} = E(B_j), B_0 = PT; the result is CT.
//	ECB_D_M: B_{j+1} = D(B_j), B_0 = CT; the result is PT.
//	CBC_E_M: CT_j = E(PT_j ^ CV_j), PT_{j+1} = CV_j, CV_{j+1} = CT_j,
//	         CV_0 = IV; the result is the last CT_j.
//	CBC_D_M: PT_j = D(CT_j) ^ CV_j, CV_{j+1} = CT_j, CT_{j+1} = PT_j,
//	         CV_0 = IV; the result is the last PT_j.
func MonteCarlo(name string, r Record, crypt Crypter) (got, want []byte, err error) {
	b := make([]byte, 16)
	switch name {
	case ECBEncrypt, ECBDecrypt:
		decrypt := name == ECBDecrypt
		in, out := r.PT, r.CT
		if decrypt {
			in, out = r.CT, r.PT
		}
		copy(b, in)
		for range MonteCarloIterations {
			crypt(b, decrypt)
		}
		return b, out, nil
	case CBCEncrypt:
		if r.IV == nil {
			return nil, nil, fmt.Errorf("kat: %s: record I=%d has no IV", name, r.Index)
		}
		pt := bytes.Clone(r.PT)
		cv := bytes.Clone(r.IV)
		for range MonteCarloIterations {
			xor(b, pt, cv)
			crypt(b, false)
			copy(pt, cv)
			copy(cv, b)
		}
		return b, r.CT, nil
	case CBCDecrypt:
		if r.IV == nil {
			return nil, nil, fmt.Errorf("kat: %s: record I=%d has no IV", name, r.Index)
		}
		ct := bytes.Clone(r.CT)
		cv := bytes.Clone(r.IV)
		for range MonteCarloIterations {
			copy(b, ct)
			crypt(b, true)
			xor(b, b, cv)
			copy(cv, ct)
			copy(ct, b)
		}
		return b, r.PT, nil
	}
	return nil, nil, fmt.Errorf("kat: %q is not a Monte Carlo file", name)
}

func xor(dst, a, b []byte) {
	for i := range dst {
		dst[i] = a[i] ^ b[i]
	}
}
