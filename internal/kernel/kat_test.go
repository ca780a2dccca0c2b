package kernel

import (
	"bytes"
	"os"
	"testing"

	"github.com/twofish-go/twofish/internal/kat"
)

// The official known-answer and Monte Carlo tests of the Twofish submission
// (testdata/*.TXT, as published with the AES candidate package, embedded in
// internal/kat), through every kernel.

func loadKAT(t *testing.T, name string) []kat.Record {
	t.Helper()
	recs, err := kat.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// laneHarness runs single blocks through a kernel's whole width: the block
// under test sits in one lane (rotating from call to call) and the other
// lanes hold random blocks whose results are checked against the generic
// kernel.
type laneHarness struct {
	t       *testing.T
	c       *Cipher
	name    string
	lane    int
	in, out []byte
	wantEnc []byte // generic's encryption of in
	wantDec []byte // generic's decryption of in
}

func newLaneHarness(t *testing.T, k *Kernel, key []byte, lane int, fill []byte) *laneHarness {
	n := k.Blocks * BlockSize
	h := &laneHarness{
		t: t, c: newCipher(key, k), name: k.Name, lane: lane % k.Blocks,
		in: bytes.Clone(fill[:n]), out: make([]byte, n),
		wantEnc: make([]byte, n), wantDec: make([]byte, n),
	}
	ref := newCipher(key, Generic)
	ref.EncryptBlocks(h.wantEnc, h.in)
	ref.DecryptBlocks(h.wantDec, h.in)
	return h
}

// crypt encrypts or decrypts block in place through the kernel; it is a
// kat.Crypter.
func (h *laneHarness) crypt(block []byte, decrypt bool) {
	off := h.lane * BlockSize
	copy(h.in[off:off+BlockSize], block)
	want := h.wantEnc
	if decrypt {
		h.c.DecryptBlocks(h.out, h.in)
		want = h.wantDec
	} else {
		h.c.EncryptBlocks(h.out, h.in)
	}
	copy(block, h.out[off:off+BlockSize])
	if !bytes.Equal(h.out[:off], want[:off]) || !bytes.Equal(h.out[off+BlockSize:], want[off+BlockSize:]) {
		h.t.Fatalf("%s: a random lane beside lane %d differs from generic", h.name, h.lane)
	}
}

func TestKnownAnswers(t *testing.T) { forEachKernel(t, testKnownAnswers) }

// testKnownAnswers runs every record of ECB_TBL.TXT through k, both ways.
func testKnownAnswers(t *testing.T, k *Kernel) {
	recs := loadKAT(t, kat.ECBTable)
	if len(recs) != 3*49 {
		t.Fatalf("%s: %d records, want %d", kat.ECBTable, len(recs), 3*49)
	}
	fill := randBytes(testRand(t), k.Blocks*BlockSize)
	for i, r := range recs {
		h := newLaneHarness(t, k, r.Key, i, fill)
		block := bytes.Clone(r.PT)
		if h.crypt(block, false); !bytes.Equal(block, r.CT) {
			t.Errorf("record %d (key %d bits): encrypt = %x, want %x", i, 8*r.KeySize, block, r.CT)
		}
		if h.crypt(block, true); !bytes.Equal(block, r.PT) {
			t.Errorf("record %d (key %d bits): decrypt = %x, want %x", i, 8*r.KeySize, block, r.PT)
		}
	}
}

// Each Monte Carlo record is 10,000 chained operations from its KEY; the
// files hold 400 records per key size. By default the first
// mctRecords of each key size run through every kernel (a wrong round, key
// schedule or lane shows in the first record), with -short the first
// mctShortRecords, and all 400 where TWOFISH_TEST_EXHAUSTIVE=1 asks for the
// exhaustive runs (CI sets it).
const (
	mctRecords      = 8
	mctShortRecords = 1
)

// mctPrefix is how many Monte Carlo records of each key size this run
// takes.
func mctPrefix() int {
	switch {
	case exhaustive():
		return 400
	case testing.Short():
		return mctShortRecords
	}
	return mctRecords
}

// exhaustive reports whether TWOFISH_TEST_EXHAUSTIVE=1 asks for the
// exhaustive runs.
func exhaustive() bool { return os.Getenv("TWOFISH_TEST_EXHAUSTIVE") == "1" }

func TestMonteCarlo(t *testing.T) {
	for _, file := range kat.MonteCarloFiles {
		t.Run(file[:len(file)-len(".TXT")], func(t *testing.T) {
			// The files and the kernels side by side on every core: a wide
			// kernel does its width in blocks per step, and generic-ct's
			// bitsliced groups take most of a minute for each file's 1,200
			// records (TWOFISH_TEST_EXHAUSTIVE=1, Zen 5).
			t.Parallel()
			forEachKernel(t, func(t *testing.T, k *Kernel) {
				t.Parallel()
				testMonteCarlo(t, file, k)
			})
		})
	}
}

// testMonteCarlo runs the prefix of file's records (mctPrefix) through k.
func testMonteCarlo(t *testing.T, file string, k *Kernel) {
	recs := loadKAT(t, file)
	if len(recs) != 3*400 {
		t.Fatalf("%s: %d records, want %d", file, len(recs), 3*400)
	}
	recs = kat.Prefix(recs, mctPrefix())
	fill := randBytes(testRand(t), k.Blocks*BlockSize)
	for i, r := range recs {
		h := newLaneHarness(t, k, r.Key, i, fill)
		got, want, err := kat.MonteCarlo(file, r, h.crypt)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s record I=%d (key %d bits, key %x): got %x, want %x", file, r.Index, 8*r.KeySize, r.Key, got, want)
		}
	}
}
