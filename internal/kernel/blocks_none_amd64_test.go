//go:build (linux || darwin) && gc && !purego

package kernel

import (
	"testing"
	"unsafe"

	"github.com/twofish-go/twofish/internal/guardpage"
)

// TestBlockKernelsNoBlocks calls the amd64 kernels of runs of blocks with
// no blocks and dst and src on an inaccessible page: they must touch
// neither, as the chain kernels must not (TestChainKernelsNoBlocks). Their
// callers give them no such call, but a kernel that ran a group before
// testing its count would read and write past its buffers for n = 0,
// group after group.
func TestBlockKernelsNoBlocks(t *testing.T) {
	r := testRand(t)
	end := guardpage.Flush(t, BlockSize, true)
	none := (*byte)(unsafe.Add(unsafe.Pointer(&end[0]), BlockSize)) // the guard page
	// A kernelFunc is a kernel of runs of blocks; those of the vector
	// kernels take no tables.
	type kernelFunc = func(t *Tables, ks *Schedule, dst, src *byte, n int)
	type vectorFunc = func(ks *Schedule, dst, src *byte, n int)
	vector := func(f vectorFunc) kernelFunc {
		return func(_ *Tables, ks *Schedule, dst, src *byte, n int) { f(ks, dst, src, n) }
	}
	// avx2-ct's kernels, by key size: encryption and decryption.
	ct := func(by map[int][2]vectorFunc) func(size int) [2]kernelFunc {
		return func(size int) [2]kernelFunc { return [2]kernelFunc{vector(by[size][0]), vector(by[size][1])} }
	}
	same := func(enc, dec kernelFunc) func(int) [2]kernelFunc {
		return func(int) [2]kernelFunc { return [2]kernelFunc{enc, dec} }
	}
	for _, k := range []struct {
		name   string
		kernel *Kernel
		funcs  func(size int) [2]kernelFunc
	}{
		{"Blocks1x", AMD64x1, same(encryptBlocks1x, decryptBlocks1x)},
		{"Blocks1xBMI", AMD64x1BMI, same(encryptBlocks1xBMI, decryptBlocks1xBMI)},
		{"Blocks3x", amd64x3, same(encryptBlocks3x, decryptBlocks3x)},
		{"Blocks16AVX2Gather", avx2Gather, same(encryptBlocks16AVX2Gather, decryptBlocks16AVX2Gather)},
		{"Blocks16AVX2VPGather", avx2VPGather, same(encryptBlocks16AVX2VPGather, decryptBlocks16AVX2VPGather)},
		{"Blocks8AVX2CT", AVX2CT, ct(map[int][2]vectorFunc{
			16: {encryptBlocks8AVX2CT128, decryptBlocks8AVX2CT128},
			24: {encryptBlocks8AVX2CT192, decryptBlocks8AVX2CT192},
			32: {encryptBlocks8AVX2CT256, decryptBlocks8AVX2CT256}})},
		{"Blocks32AVX2CT", AVX2CT, ct(map[int][2]vectorFunc{
			16: {encryptBlocks32AVX2CT128, decryptBlocks32AVX2CT128},
			24: {encryptBlocks32AVX2CT192, decryptBlocks32AVX2CT192},
			32: {encryptBlocks32AVX2CT256, decryptBlocks32AVX2CT256}})},
		{"Blocks64AVX2CT", AVX2CT, ct(map[int][2]vectorFunc{
			16: {encryptBlocks64AVX2CT128, decryptBlocks64AVX2CT128},
			24: {encryptBlocks64AVX2CT192, decryptBlocks64AVX2CT192},
			32: {encryptBlocks64AVX2CT256, decryptBlocks64AVX2CT256}})},
		{"Blocks4AVX512", AVX512VBMI, same(vector(encryptBlocks4AVX512), vector(decryptBlocks4AVX512))},
		{"Blocks16AVX512", AVX512VBMI, same(vector(encryptBlocks16AVX512), vector(decryptBlocks16AVX512))},
		{"Blocks32AVX512", AVX512VBMI, same(vector(encryptBlocks32AVX512), vector(decryptBlocks32AVX512))},
		{"Blocks64AVX512", AVX512VBMI, same(vector(encryptBlocks64AVX512), vector(decryptBlocks64AVX512))},
		{"Blocks4AVX512GFNI", AVX512GFNI, same(vector(encryptBlocks4AVX512GFNI), vector(decryptBlocks4AVX512GFNI))},
		{"Blocks16AVX512GFNI", AVX512GFNI, same(vector(encryptBlocks16AVX512GFNI), vector(decryptBlocks16AVX512GFNI))},
		{"Blocks32AVX512GFNI", AVX512GFNI, same(vector(encryptBlocks32AVX512GFNI), vector(decryptBlocks32AVX512GFNI))},
		{"Blocks64AVX512GFNI", AVX512GFNI, same(vector(encryptBlocks64AVX512GFNI), vector(decryptBlocks64AVX512GFNI))},
	} {
		t.Run(k.name, func(t *testing.T) {
			if !k.kernel.Supported {
				skipUnsupported(t, k.kernel.Name)
			}
			for _, size := range keySizes {
				_, ks, tb := newCipher(randBytes(r, size), k.kernel).Single()
				for i, dir := range []string{"encryption", "decryption"} {
					if err := faults(func() { k.funcs(size)[i](tb, ks, none, none, 0) }); err != nil {
						t.Errorf("%d-bit key, %s of no blocks: %v", 8*size, dir, err)
					}
				}
			}
		})
	}
}
