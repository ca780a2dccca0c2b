//go:build (linux || darwin) && gc && !purego

package kernel

import (
	"testing"
	"unsafe"

	"github.com/twofish-go/twofish/internal/guardpage"
)

// TestChainKernelsNoBlocks calls every chain kernel with no blocks and
// its buffers on an inaccessible page: it must touch neither buffer and
// leave the chain value as it was. Cipher.Chain gives them no such call,
// but a kernel that ran a block before testing its count would read and
// write past its buffers for n = 0, block after block.
func TestChainKernelsNoBlocks(t *testing.T) {
	end := guardpage.Flush(t, BlockSize, true)
	none := (*byte)(unsafe.Add(unsafe.Pointer(&end[0]), BlockSize)) // the guard page
	r := testRand(t)
	type chainFunc = func(ks *Schedule, dst, src *byte, n int, s *[BlockSize]byte)
	for _, k := range []*Kernel{AMD64x1, AMD64x1BMI, AVX512GFNI, AVX2CT} {
		name := k.Name
		if k == AMD64x1BMI {
			name += "/bmi"
		}
		t.Run(name, func(t *testing.T) {
			if !k.Supported {
				skipUnsupported(t, k.Name)
			}
			for _, bits := range []int{128, 192, 256} {
				c := newCipher(randBytes(r, bits/8), k)
				_, ks, tb := c.Single()
				kernels := map[ChainMode]chainFunc{}
				for _, m := range chainModes {
					switch k {
					case AMD64x1, AMD64x1BMI:
						bmi := k == AMD64x1BMI
						f := map[ChainMode][2]func(*Tables, *Schedule, *byte, *byte, int, *[BlockSize]byte){
							ChainCBC: {cbcEncrypt1x, cbcEncrypt1xBMI},
							ChainCFB: {cfbEncrypt1x, cfbEncrypt1xBMI},
							ChainOFB: {ofbStream1x, ofbStream1xBMI},
							ChainMAC: {cbcMAC1x, cbcMAC1xBMI},
						}[m][map[bool]int{false: 0, true: 1}[bmi]]
						kernels[m] = func(ks *Schedule, dst, src *byte, n int, s *[BlockSize]byte) { f(tb, ks, dst, src, n, s) }
					case AVX512GFNI:
						kernels[m] = map[ChainMode]chainFunc{
							ChainCBC: cbcEncryptAVX512GFNI, ChainCFB: cfbEncryptAVX512GFNI,
							ChainOFB: ofbStreamAVX512GFNI, ChainMAC: cbcMACAVX512GFNI,
						}[m]
					case AVX2CT:
						kernels[m] = func(ks *Schedule, dst, src *byte, n int, s *[BlockSize]byte) { chainAVX2CT(ks, m, dst, src, n, s) }
					}
				}
				for m, f := range kernels {
					var s [BlockSize]byte
					copy(s[:], randBytes(r, BlockSize))
					was := s
					if err := faults(func() { f(ks, none, none, 0, &s) }); err != nil {
						t.Errorf("%d-bit key, %v: no blocks: %v", bits, m, err)
					} else if s != was {
						t.Errorf("%d-bit key, %v: no blocks changed the chain value", bits, m)
					}
				}
			}
		})
	}
}
