//go:build gc && !purego

package kernel

import (
	"bytes"
	"testing"
)

// The arm64-neon kernels of single blocks (_asm/arm64neon's single.go)
// against the official vectors and the generic kernel. The root package's
// Encrypt and Decrypt reach them for arm64-neon's ladder, and so does a run
// whose last group is one block (TestGuardPages, TestDifferential); these
// call them directly. TestNEONAssemblyIsConstantTime scans them with the
// 16-way kernels.

// singleNEON is arm64-neon's kernel of single blocks.
var singleNEON = singleKernel{
	func(key []byte) *Schedule { return newCipher(key, ARM64NEON).ks },
	encryptBlock1NEON,
	decryptBlock1NEON,
}

// requireNEON skips t where this CPU cannot run arm64-neon, or fails it
// where TWOFISH_TEST_REQUIRE names arm64-neon.
func requireNEON(t *testing.T) {
	t.Helper()
	if !ARM64NEON.Supported {
		skipUnsupported(t, ARM64NEON.Name)
	}
}

// TestSingleNEONKnownAnswers runs the official vectors through the
// single-block kernels (checkSingleKnownAnswers).
func TestSingleNEONKnownAnswers(t *testing.T) {
	requireNEON(t)
	checkSingleKnownAnswers(t, singleNEON)
}

// TestSingleNEONDifferential compares the single-block kernels with the
// generic kernel (checkSingleDifferential).
func TestSingleNEONDifferential(t *testing.T) {
	requireNEON(t)
	checkSingleDifferential(t, singleNEON)
}

// TestSingleNEONShort passes EncryptBlockNEON and DecryptBlockNEON a
// destination or a source a byte short of a block, in front of spare
// capacity: each panics before the kernel reads or writes a byte, and
// leaves the destination and the capacity behind it as they were.
func TestSingleNEONShort(t *testing.T) {
	requireNEON(t)
	c := newCipher(randBytes(testRand(t), 32), ARM64NEON)
	for _, f := range []struct {
		name string
		run  func(ks *Schedule, dst, src []byte)
	}{{"EncryptBlockNEON", EncryptBlockNEON}, {"DecryptBlockNEON", DecryptBlockNEON}} {
		for _, shortDst := range []bool{true, false} {
			buf := bytes.Repeat([]byte{0xa5}, BlockSize)
			dst, src := buf[:BlockSize-1], make([]byte, BlockSize)
			if !shortDst {
				dst, src = buf, src[:BlockSize-1]
			}
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%s, short destination %v: no panic", f.name, shortDst)
					}
				}()
				f.run(c.ks, dst, src)
			}()
			if !bytes.Equal(buf, bytes.Repeat([]byte{0xa5}, BlockSize)) {
				t.Errorf("%s, short destination %v: destination written: %x", f.name, shortDst, buf)
			}
		}
	}
}
