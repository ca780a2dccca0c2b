//go:build gc && !purego

package kernel

import "github.com/twofish-go/twofish/internal/cpu"

//go:generate go run -C ../../_asm/scalar . -out ../../internal/kernel/scalar_amd64.s -pkg kernel
//go:generate go run -C ../../_asm/avx2 . -out ../../internal/kernel/avx2_amd64.s -pkg kernel
//go:generate go run -C ../../_asm/avx512 . -out ../../internal/kernel/avx512_amd64.s -pkg kernel
//go:generate go run -C ../../_asm/avx512single . -out ../../internal/kernel/single_avx512_amd64.s -pkg kernel
//go:generate go run -C ../../_asm/avx2ct . -out ../../internal/kernel/avx2ct_amd64.s -pkg kernel
//go:generate go run -C ../../_asm/ocb . -out ../../internal/kernel/ocb_amd64.s -pkg kernel

// The x86-64 kernels, in order of preference. Both scalar kernels need only
// baseline x86-64; internal/cpu says which of the others this CPU runs.
var (
	// The constant-time 64-way AVX-512 kernel (kernels_avx512_amd64.go)
	// needs AVX512F, BW, VL and VBMI and the operating system's support for
	// the zmm registers. It takes any number of blocks itself, so that no
	// block of its ladder reaches a kernel that looks tables up.
	AVX512VBMI = &Kernel{Name: "avx512-vbmi", Blocks: 64, ConstantTime: true, sliced: true}
	// AVX512GFNI is avx512-vbmi with the GFNI variants of its kernels,
	// whose MDS products are one VGF2P8AFFINEQB each: it needs GFNI
	// besides what avx512-vbmi needs, and has the same ladder, schedule
	// and fused mode kernels.
	AVX512GFNI = &Kernel{Name: "avx512-gfni", Blocks: 64, ConstantTime: true, sliced: true}
	// The constant-time 64-way AVX2 kernel without table look-ups
	// (kernels_avx2ct_amd64.go) needs AVX2 and the operating system's
	// support for the ymm registers. It takes any number of blocks itself,
	// padding the last group or giving a last single block its single-block
	// kernel, so that no block of its ladder reaches a kernel that looks
	// tables up.
	AVX2CT = &Kernel{Name: "avx2-ct", Blocks: avx2CTBlocks, ConstantTime: true}
	// The 16-way AVX2 kernels (kernels_avx2_amd64.go) need AVX2 and the
	// operating system's support for the ymm registers.
	avx2Gather   = &Kernel{Name: "avx2-gather", Blocks: 16, narrower: "amd64-3way", pads: true}
	avx2VPGather = &Kernel{Name: "avx2-vpgather", Blocks: 16, narrower: "amd64-3way", pads: true}
	amd64x3      = &Kernel{Name: "amd64-3way", Blocks: 3, narrower: "amd64-1way"}
	// AMD64x1 and AMD64x1BMI are the 1-way kernel with each of its bodies
	// (kernels_amd64.go); amd64x1 is the one internal/cpu chose, which the
	// list and the 3-way kernel's ladder hold.
	AMD64x1    = &Kernel{Name: "amd64-1way", Blocks: 1, Supported: true}
	AMD64x1BMI = &Kernel{Name: "amd64-1way", Blocks: 1, Supported: cpu.Host().Scalar.Supported("bmi")}
	amd64x1    = map[bool]*Kernel{false: AMD64x1, true: AMD64x1BMI}[scalarBMI]
)

func init() {
	// The body the CPU did not choose is no kernel of the list, and has no
	// ladder from it.
	for _, k := range []*Kernel{AMD64x1, AMD64x1BMI} {
		k.ladder = []*Kernel{k}
	}
}

// archKernels returns the kernels of this architecture, in order of
// preference; the portable kernel is not among them.
func archKernels() []*Kernel {
	return []*Kernel{AVX512GFNI, AVX512VBMI, AVX2CT, avx2Gather, avx2VPGather, amd64x3, amd64x1}
}

func (k *Kernel) encrypt(ks *Schedule, t *Tables, dst, src []byte) {
	switch k {
	case AVX512GFNI:
		crypt64AVX512(ks, dst, src, false, true)
	case AVX512VBMI:
		crypt64AVX512(ks, dst, src, false, false)
	case AVX2CT:
		encrypt64AVX2CT(ks, dst, src)
	case GenericCT:
		encryptBlocksGenericCT(ks, dst, src)
	case avx2Gather:
		encrypt16Gather(t, ks, dst, src)
	case avx2VPGather:
		encrypt16VPGather(t, ks, dst, src)
	case amd64x3:
		encrypt3x(t, ks, dst, src)
	case AMD64x1:
		encrypt1x(t, ks, dst, src, false)
	case AMD64x1BMI:
		encrypt1x(t, ks, dst, src, true)
	default:
		encryptBlocksGeneric(ks, t, dst, src)
	}
}

func (k *Kernel) decrypt(ks *Schedule, t *Tables, dst, src []byte) {
	switch k {
	case AVX512GFNI:
		crypt64AVX512(ks, dst, src, true, true)
	case AVX512VBMI:
		crypt64AVX512(ks, dst, src, true, false)
	case AVX2CT:
		decrypt64AVX2CT(ks, dst, src)
	case GenericCT:
		decryptBlocksGenericCT(ks, dst, src)
	case avx2Gather:
		decrypt16Gather(t, ks, dst, src)
	case avx2VPGather:
		decrypt16VPGather(t, ks, dst, src)
	case amd64x3:
		decrypt3x(t, ks, dst, src)
	case AMD64x1:
		decrypt1x(t, ks, dst, src, false)
	case AMD64x1BMI:
		decrypt1x(t, ks, dst, src, true)
	default:
		decryptBlocksGeneric(ks, t, dst, src)
	}
}

// The single blocks of the root package's Cipher.Encrypt and Decrypt,
// which switch on the Narrowest kernel of the Cipher's ladder themselves:
// each of these inlines, so a single block is one call from the caller to
// the kernel (a call level between them costs about 3% of a 1-way block).

// EncryptBlock1x encrypts one block with the 1-way kernel's baseline body.
func EncryptBlock1x(t *Tables, ks *Schedule, dst, src *byte) { encryptBlock1x(t, ks, dst, src) }

// DecryptBlock1x decrypts one block with the 1-way kernel's baseline body.
func DecryptBlock1x(t *Tables, ks *Schedule, dst, src *byte) { decryptBlock1x(t, ks, dst, src) }

// EncryptBlock1xBMI encrypts one block with the 1-way kernel's BMI body.
func EncryptBlock1xBMI(t *Tables, ks *Schedule, dst, src *byte) {
	encryptBlock1xBMI(t, ks, dst, src)
}

// DecryptBlock1xBMI decrypts one block with the 1-way kernel's BMI body.
func DecryptBlock1xBMI(t *Tables, ks *Schedule, dst, src *byte) {
	decryptBlock1xBMI(t, ks, dst, src)
}

// EncryptBlockAVX512 encrypts one block with the 4-block AVX-512 kernel,
// which loads and stores it with masks.
func EncryptBlockAVX512(ks *Schedule, dst, src *byte) { encryptBlocks4AVX512(ks, dst, src, 1) }

// DecryptBlockAVX512 decrypts one block with the 4-block AVX-512 kernel.
func DecryptBlockAVX512(ks *Schedule, dst, src *byte) { decryptBlocks4AVX512(ks, dst, src, 1) }

// EncryptBlockAVX512GFNI encrypts one block with avx512-gfni's single-block
// kernel (kernels_single_avx512_amd64.go).
func EncryptBlockAVX512GFNI(ks *Schedule, dst, src *byte) { encryptBlock1AVX512GFNI(ks, dst, src) }

// DecryptBlockAVX512GFNI decrypts one block with avx512-gfni's single-block
// kernel.
func DecryptBlockAVX512GFNI(ks *Schedule, dst, src *byte) { decryptBlock1AVX512GFNI(ks, dst, src) }

// EncryptBlockAVX2CT encrypts the first block of src with the avx2-ct
// kernel of single blocks.
func EncryptBlockAVX2CT(ks *Schedule, dst, src []byte) {
	_, _ = dst[BlockSize-1], src[BlockSize-1]
	run1AVX2CT(ks, &dst[0], &src[0], false)
}

// DecryptBlockAVX2CT decrypts the first block of src with the avx2-ct
// kernel of single blocks.
func DecryptBlockAVX2CT(ks *Schedule, dst, src []byte) {
	_, _ = dst[BlockSize-1], src[BlockSize-1]
	run1AVX2CT(ks, &dst[0], &src[0], true)
}

// The Go side of the kernels: the length checks happen here, so the
// assembly can trust its pointers and counts.

// encrypt1x encrypts the whole blocks of src with the 1-way body bmi.
func encrypt1x(t *Tables, ks *Schedule, dst, src []byte, bmi bool) {
	if n := len(src) / BlockSize; n > 0 {
		_ = dst[n*BlockSize-1]
		run1x(t, ks, &dst[0], &src[0], n, bmi, false)
	}
}

// decrypt1x is the inverse of encrypt1x.
func decrypt1x(t *Tables, ks *Schedule, dst, src []byte, bmi bool) {
	if n := len(src) / BlockSize; n > 0 {
		_ = dst[n*BlockSize-1]
		run1x(t, ks, &dst[0], &src[0], n, bmi, true)
	}
}

// run1x runs n blocks through the 1-way body bmi.
func run1x(t *Tables, ks *Schedule, dst, src *byte, n int, bmi, dec bool) {
	switch {
	case bmi && dec:
		decryptBlocks1xBMI(t, ks, dst, src, n)
	case bmi:
		encryptBlocks1xBMI(t, ks, dst, src, n)
	case dec:
		decryptBlocks1x(t, ks, dst, src, n)
	default:
		encryptBlocks1x(t, ks, dst, src, n)
	}
}

// encrypt3x takes any number of blocks, three at a time: two left over go
// padded to three, one to the 1-way kernel. Two blocks padded take
// 0.92-0.95x the time of two 1-way calls on Zen 5 (100 against 109 ns, in
// other runs 117 against 124; kernels called alternately in one process,
// BenchmarkRuns/n=2/impl=(amd64-3way|amd64-1way)); llvm-mca 19 estimates
// 553 against 576 cycles on Zen 1 (-mcpu=znver1, the kernels disassembled
// from a test binary).
func encrypt3x(t *Tables, ks *Schedule, dst, src []byte) { crypt3x(t, ks, dst, src, false) }

// decrypt3x is the inverse of encrypt3x.
func decrypt3x(t *Tables, ks *Schedule, dst, src []byte) { crypt3x(t, ks, dst, src, true) }

// crypt3x is encrypt3x, or decrypt3x if dec.
func crypt3x(t *Tables, ks *Schedule, dst, src []byte, dec bool) {
	n := len(src) / BlockSize
	if n == 0 {
		return
	}
	_ = dst[n*BlockSize-1]
	run3x := func(dst, src *byte, g int) {
		if dec {
			decryptBlocks3x(t, ks, dst, src, g)
		} else {
			encryptBlocks3x(t, ks, dst, src, g)
		}
	}
	if g := n / 3; g > 0 {
		run3x(&dst[0], &src[0], g)
	}
	i := n / 3 * 3 * BlockSize
	switch n % 3 {
	case 2:
		// The pad is the second block again, so that it holds nothing
		// but the caller's blocks and their images (a zero block's
		// would be E(0), GCM's hash key).
		var pad [3 * BlockSize]byte
		copy(pad[:], src[i:i+2*BlockSize])
		copy(pad[2*BlockSize:], src[i+BlockSize:i+2*BlockSize])
		run3x(&pad[0], &pad[0], 1)
		copy(dst[i:], pad[:2*BlockSize])
	case 1:
		run1x(t, ks, &dst[i], &src[i], 1, scalarBMI, dec)
	}
}
