package kernel

import (
	"bytes"
	"testing"

	"github.com/twofish-go/twofish/internal/kat"
)

// A singleKernel is a kernel of single blocks that the tests call
// directly: its entries, and the schedule of a key that they read.
type singleKernel struct {
	schedule func(key []byte) *Schedule
	enc, dec func(ks *Schedule, dst, src *byte)
}

// checkSingleKnownAnswers runs ECB_TBL.TXT and the prefix of the ECB and
// CBC Monte Carlo files (mctPrefix) through the kernel k.
func checkSingleKnownAnswers(t *testing.T, k singleKernel) {
	t.Helper()
	for i, r := range loadKAT(t, kat.ECBTable) {
		ks := k.schedule(r.Key)
		block := bytes.Clone(r.PT)
		if k.enc(ks, &block[0], &block[0]); !bytes.Equal(block, r.CT) {
			t.Errorf("record %d (key %d bits): encrypt = %x, want %x", i, 8*r.KeySize, block, r.CT)
		}
		if k.dec(ks, &block[0], &block[0]); !bytes.Equal(block, r.PT) {
			t.Errorf("record %d (key %d bits): decrypt = %x, want %x", i, 8*r.KeySize, block, r.PT)
		}
	}
	// The Monte Carlo files side by side on every core: all their records
	// through the portable constant-time block take two minutes on one.
	for _, file := range kat.MonteCarloFiles {
		t.Run(file[:len(file)-len(".TXT")], func(t *testing.T) {
			t.Parallel()
			for _, r := range kat.Prefix(loadKAT(t, file), mctPrefix()) {
				ks := k.schedule(r.Key)
				got, want, err := kat.MonteCarlo(file, r, func(block []byte, decrypt bool) {
					if decrypt {
						k.dec(ks, &block[0], &block[0])
					} else {
						k.enc(ks, &block[0], &block[0])
					}
				})
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%s record I=%d (key %d bits): got %x, want %x", file, r.Index, 8*r.KeySize, got, want)
				}
			}
		})
	}
}

// checkSingleDifferential compares the kernel k with the generic kernel on
// random keys of every size and random blocks, in place and not, at every
// offset of the buffers from 0 to 7.
func checkSingleDifferential(t *testing.T, k singleKernel) {
	t.Helper()
	r := testRand(t)
	for _, size := range keySizes {
		for range 50 {
			key := randBytes(r, size)
			ks, ref := k.schedule(key), newCipher(key, Generic)
			for off := range 8 {
				src := randBytes(r, BlockSize+off)[off:]
				want := make([]byte, BlockSize)
				ref.EncryptBlocks(want, src)
				dst := make([]byte, BlockSize+7)[7-off:]
				if k.enc(ks, &dst[0], &src[0]); !bytes.Equal(dst[:BlockSize], want) {
					t.Fatalf("key %x: encrypt(%x) = %x, want %x", key, src, dst[:BlockSize], want)
				}
				if k.dec(ks, &dst[0], &dst[0]); !bytes.Equal(dst[:BlockSize], src) {
					t.Fatalf("key %x: decrypt in place(%x) = %x, want %x", key, want, dst[:BlockSize], src)
				}
				in := bytes.Clone(want)
				out := make([]byte, BlockSize)
				if k.dec(ks, &out[0], &in[0]); !bytes.Equal(out, src) || !bytes.Equal(in, want) {
					t.Fatalf("key %x: decrypt(%x) = %x, want %x", key, want, out, src)
				}
			}
		}
	}
}
