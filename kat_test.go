package twofish

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twofish-go/twofish/internal/kat"
)

// The official known-answer and Monte Carlo tests of the Twofish submission
// (testdata/*.TXT, as published with the AES candidate package).

// katRecord is one I=... entry of a test file, as package kat parses it.
type katRecord = kat.Record

func readKAT(t *testing.T, name string) []katRecord {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := kat.Parse(name, f)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// laneHarness runs single blocks through an implementation's widest kernel:
// the block under test sits in one lane (rotating from call to call) and
// the other lanes hold random blocks whose results are checked against the
// generic kernel.
type laneHarness struct {
	t         *testing.T
	c, ref    *Cipher
	lanes     int
	lane      int
	in, out   []byte
	wantEnc   []byte // generic's encryption of in
	wantDec   []byte // generic's decryption of in
	encrypted bool
}

func newLaneHarness(t *testing.T, impl Implementation, key []byte, lane int, fill []byte) *laneHarness {
	n := impl.Blocks * BlockSize
	h := &laneHarness{
		t: t, c: mustCipher(t, key, impl.Name), ref: mustCipher(t, key, "generic"),
		lanes: impl.Blocks, lane: lane % impl.Blocks,
		in: append([]byte(nil), fill[:n]...), out: make([]byte, n),
		wantEnc: make([]byte, n), wantDec: make([]byte, n),
	}
	h.ref.encryptBlocks(h.wantEnc, h.in)
	h.ref.decryptBlocks(h.wantDec, h.in)
	return h
}

// crypt encrypts or decrypts block in place through the widest kernel.
func (h *laneHarness) crypt(block []byte, decrypt bool) {
	off := h.lane * BlockSize
	copy(h.in[off:off+BlockSize], block)
	want := h.wantEnc
	if decrypt {
		h.c.decryptBlocks(h.out, h.in)
		want = h.wantDec
	} else {
		h.c.encryptBlocks(h.out, h.in)
	}
	copy(block, h.out[off:off+BlockSize])
	if !bytes.Equal(h.out[:off], want[:off]) || !bytes.Equal(h.out[off+BlockSize:], want[off+BlockSize:]) {
		h.t.Fatalf("%s: a random lane beside lane %d differs from generic", h.c.Implementation(), h.lane)
	}
}

func TestKnownAnswers(t *testing.T) {
	recs := readKAT(t, "ECB_TBL.TXT")
	if len(recs) != 3*49 {
		t.Fatalf("ECB_TBL.TXT: %d records, want %d", len(recs), 3*49)
	}
	forEachImpl(t, func(t *testing.T, impl Implementation) {
		fill := randBytes(testRand(t), impl.Blocks*BlockSize)
		for i, r := range recs {
			pt, ct := r.PT, r.CT
			h := newLaneHarness(t, impl, r.Key, i, fill)
			block := append([]byte(nil), pt...)
			if h.crypt(block, false); !bytes.Equal(block, ct) {
				t.Errorf("record %d (key %d bits): encrypt = %x, want %x", i, 8*r.KeySize, block, ct)
			}
			if h.crypt(block, true); !bytes.Equal(block, pt) {
				t.Errorf("record %d (key %d bits): decrypt = %x, want %x", i, 8*r.KeySize, block, pt)
			}
		}
	})
}

// Each Monte Carlo record is 10,000 chained operations from its KEY; the
// files hold 400 records per key size. With -short a prefix runs.
const mctShortRecords = 2

func TestMonteCarlo(t *testing.T) {
	for _, tc := range []struct {
		file string
		run  func(h *laneHarness, r katRecord) (got, want []byte)
	}{
		{"ECB_E_M.TXT", func(h *laneHarness, r katRecord) ([]byte, []byte) {
			b := append([]byte(nil), r.PT...)
			for range 10000 {
				h.crypt(b, false)
			}
			return b, r.CT
		}},
		{"ECB_D_M.TXT", func(h *laneHarness, r katRecord) ([]byte, []byte) {
			b := append([]byte(nil), r.CT...)
			for range 10000 {
				h.crypt(b, true)
			}
			return b, r.PT
		}},
		{"CBC_E_M.TXT", func(h *laneHarness, r katRecord) ([]byte, []byte) {
			// CT_j = E(PT_j ^ CV_j), PT_{j+1} = CV_j, CV_{j+1} = CT_j.
			pt := append([]byte(nil), r.PT...)
			cv := append([]byte(nil), r.IV...)
			b := make([]byte, BlockSize)
			for range 10000 {
				xorInto(b, pt, cv)
				h.crypt(b, false)
				copy(pt, cv)
				copy(cv, b)
			}
			return b, r.CT
		}},
		{"CBC_D_M.TXT", func(h *laneHarness, r katRecord) ([]byte, []byte) {
			// PT_j = D(CT_j) ^ CV_j, CV_{j+1} = CT_j, CT_{j+1} = PT_j.
			ct := append([]byte(nil), r.CT...)
			cv := append([]byte(nil), r.IV...)
			b := make([]byte, BlockSize)
			for range 10000 {
				copy(b, ct)
				h.crypt(b, true)
				xorInto(b, b, cv)
				copy(cv, ct)
				copy(ct, b)
			}
			return b, r.PT
		}},
	} {
		t.Run(strings.TrimSuffix(tc.file, ".TXT"), func(t *testing.T) {
			recs := readKAT(t, tc.file)
			if len(recs) != 3*400 {
				t.Fatalf("%s: %d records, want %d", tc.file, len(recs), 3*400)
			}
			if testing.Short() {
				t.Logf("-short: %d records of each key size", mctShortRecords)
				var prefix []katRecord
				for i, r := range recs {
					if i%400 < mctShortRecords {
						prefix = append(prefix, r)
					}
				}
				recs = prefix
			}
			forEachImpl(t, func(t *testing.T, impl Implementation) {
				// A wide kernel does its width in blocks per step, so the
				// implementations run side by side on every core.
				t.Parallel()
				fill := randBytes(testRand(t), impl.Blocks*BlockSize)
				for i, r := range recs {
					h := newLaneHarness(t, impl, r.Key, i, fill)
					if got, want := tc.run(h, r); !bytes.Equal(got, want) {
						t.Fatalf("record %d (key %d bits, key %x): got %x, want %x",
							i, 8*r.KeySize, r.Key, got, want)
					}
				}
			})
		})
	}
}

func xorInto(dst, a, b []byte) {
	for i := range dst {
		dst[i] = a[i] ^ b[i]
	}
}
