//go:build (linux || darwin) && gc && !purego

package kernel

import (
	"fmt"
	"testing"
)

// TestChainKernelsNoBlocks calls every chain kernel with no blocks and
// its buffers on an inaccessible page: it must touch neither buffer and
// leave the chain value as it was. Cipher.Chain gives them no such call,
// but a kernel that ran a block before testing its count would read and
// write past its buffers for n = 0, block after block.
func TestChainKernelsNoBlocks(t *testing.T) {
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
				checkChainNoBlocks(t, r, fmt.Sprintf("%d-bit key", bits), func(m ChainMode, none *byte, s *[BlockSize]byte) {
					var f chainFunc
					switch k {
					case AMD64x1, AMD64x1BMI:
						one := map[ChainMode][2]func(*Tables, *Schedule, *byte, *byte, int, *[BlockSize]byte){
							ChainCBC: {cbcEncrypt1x, cbcEncrypt1xBMI},
							ChainCFB: {cfbEncrypt1x, cfbEncrypt1xBMI},
							ChainOFB: {ofbStream1x, ofbStream1xBMI},
							ChainMAC: {cbcMAC1x, cbcMAC1xBMI},
						}[m]
						body := one[0]
						if k == AMD64x1BMI {
							body = one[1]
						}
						f = func(ks *Schedule, dst, src *byte, n int, s *[BlockSize]byte) { body(tb, ks, dst, src, n, s) }
					case AVX512GFNI:
						f = map[ChainMode]chainFunc{
							ChainCBC: cbcEncryptAVX512GFNI, ChainCFB: cfbEncryptAVX512GFNI,
							ChainOFB: ofbStreamAVX512GFNI, ChainMAC: cbcMACAVX512GFNI,
						}[m]
					case AVX2CT:
						f = func(ks *Schedule, dst, src *byte, n int, s *[BlockSize]byte) { chainAVX2CT(ks, m, dst, src, n, s) }
					}
					f(ks, none, none, 0, s)
				})
			}
		})
	}
}
