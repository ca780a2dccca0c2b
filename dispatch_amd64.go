//go:build gc && !purego

package twofish

//go:generate sh -c "cd _asm/scalar && go run . -out ../../scalar_amd64.s -pkg twofish"
//go:generate sh -c "cd _asm/avx2 && go run . -out ../../avx2_amd64.s -pkg twofish"
//go:generate sh -c "cd _asm/avx512 && go run . -out ../../avx512_amd64.s -pkg twofish"
//go:generate sh -c "cd _asm/avx2ct && go run . -out ../../avx2ct_amd64.s -pkg twofish"

// The x86-64 kernels, in order of preference. Both scalar kernels need only
// baseline x86-64.
var (
	// The constant-time 64-way AVX-512 kernel (kernels_avx512_amd64.go)
	// needs AVX512F, BW, VL and VBMI and the operating system's support for
	// the zmm registers. It takes any number of blocks itself, so that no
	// block of its ladder reaches a kernel that looks tables up.
	avx512VBMI = &kernel{
		Implementation: Implementation{Name: "avx512-vbmi", Blocks: 64, ConstantTime: true, Supported: haveAVX512VBMI},
	}
	// The constant-time 64-way AVX2 kernel without table look-ups
	// (kernels_avx2ct_amd64.go) needs AVX2 and the operating system's
	// support for the ymm registers. It takes any number of blocks itself,
	// padding the last group, so that no block of its ladder reaches a
	// kernel that looks tables up.
	avx2CT = &kernel{
		Implementation: Implementation{Name: "avx2-ct", Blocks: avx2CTBlocks, ConstantTime: true, Supported: haveAVX2},
	}
	// The 16-way AVX2 kernels (kernels_avx2_amd64.go) need AVX2 and the
	// operating system's support for the ymm registers.
	avx2Gather = &kernel{
		Implementation: Implementation{Name: "avx2-gather", Blocks: 16, Supported: haveAVX2},
		narrower:       "amd64-3way",
	}
	avx2VPGather = &kernel{
		Implementation: Implementation{Name: "avx2-vpgather", Blocks: 16, Supported: haveAVX2},
		narrower:       "amd64-3way",
	}
	amd64x3 = &kernel{
		Implementation: Implementation{Name: "amd64-3way", Blocks: 3, Supported: true},
		narrower:       "amd64-1way",
	}
	amd64x1 = &kernel{
		Implementation: Implementation{Name: "amd64-1way", Blocks: 1, Supported: true},
	}
)

// archKernels returns the kernels of this architecture, in order of
// preference; the portable kernel is not among them.
func archKernels() []*kernel {
	return []*kernel{avx512VBMI, avx2CT, avx2Gather, avx2VPGather, amd64x3, amd64x1}
}

// haveAVX2 reports whether this CPU and OS can run the AVX2 kernels.
var haveAVX2 = func() bool { f := cpuidFacts(); return f.AVX2 && f.OSYMM }()

// policy names the kernel NewCipher uses and says why.
// The rules are in policy.go.
func policy() (name, reason string) { return policyFor(hostFacts()) }

func (k *kernel) encrypt(ks *schedule, dst, src []byte) {
	switch k {
	case avx512VBMI:
		encrypt64AVX512(ks, dst, src)
	case avx2CT:
		encrypt64AVX2CT(ks, dst, src)
	case genericCT:
		encryptBlocksGenericCT(ks, dst, src)
	case avx2Gather:
		encrypt16Gather(ks, dst, src)
	case avx2VPGather:
		encrypt16VPGather(ks, dst, src)
	case amd64x3:
		encrypt3x(ks, dst, src)
	case amd64x1:
		encrypt1x(ks, dst, src)
	default:
		encryptBlocksGeneric(ks, dst, src)
	}
}

func (k *kernel) decrypt(ks *schedule, dst, src []byte) {
	switch k {
	case avx512VBMI:
		decrypt64AVX512(ks, dst, src)
	case avx2CT:
		decrypt64AVX2CT(ks, dst, src)
	case genericCT:
		decryptBlocksGenericCT(ks, dst, src)
	case avx2Gather:
		decrypt16Gather(ks, dst, src)
	case avx2VPGather:
		decrypt16VPGather(ks, dst, src)
	case amd64x3:
		decrypt3x(ks, dst, src)
	case amd64x1:
		decrypt1x(ks, dst, src)
	default:
		decryptBlocksGeneric(ks, dst, src)
	}
}

// Encrypt encrypts the first block of src into dst. dst and src must
// overlap entirely or not at all.
//
// Encrypt and Decrypt switch on the narrowest kernel of c's ladder
// themselves, the path of single blocks and the serial modes: a call level
// between them and the kernel costs about 3% of a 1-way block.
func (c *Cipher) Encrypt(dst, src []byte) {
	checkBlock(dst, src)
	switch ks := &c.ks; c.narrow {
	case amd64x1:
		encryptBlocks1x(ks, &dst[0], &src[0], 1)
	case avx512VBMI:
		encrypt64AVX512(ks, dst[:BlockSize], src[:BlockSize])
	case avx2CT:
		encrypt64AVX2CT(ks, dst[:BlockSize], src[:BlockSize])
	case genericCT:
		encryptBlockGenericCT(ks, dst, src)
	case generic:
		encryptBlockGeneric(ks, dst, src)
	default:
		panic(errNoKey)
	}
}

// Decrypt decrypts the first block of src into dst. dst and src must
// overlap entirely or not at all.
func (c *Cipher) Decrypt(dst, src []byte) {
	checkBlock(dst, src)
	switch ks := &c.ks; c.narrow {
	case amd64x1:
		decryptBlocks1x(ks, &dst[0], &src[0], 1)
	case avx512VBMI:
		decrypt64AVX512(ks, dst[:BlockSize], src[:BlockSize])
	case avx2CT:
		decrypt64AVX2CT(ks, dst[:BlockSize], src[:BlockSize])
	case genericCT:
		decryptBlockGenericCT(ks, dst, src)
	case generic:
		decryptBlockGeneric(ks, dst, src)
	default:
		panic(errNoKey)
	}
}

// expandKey computes the schedule of key that k's ladder reads: the
// byte-sliced S-boxes, without secret-indexed loads, for avx512-vbmi; the
// subkeys and nibble tables, without secret-indexed loads, for avx2-ct and
// generic-ct; the MDS·S-box tables for the others.
func (k *kernel) expandKey(ks *schedule, key []byte) {
	switch k {
	case avx512VBMI:
		ks.expandSliced(key)
	case avx2CT, genericCT:
		ks.expandCT(key)
	default:
		ks.expand(key)
	}
}

// The Go side of the kernels: the length checks happen here, so the
// assembly can trust its pointers and counts.

func encrypt1x(ks *schedule, dst, src []byte) {
	if n := len(src) / BlockSize; n > 0 {
		_ = dst[n*BlockSize-1]
		encryptBlocks1x(ks, &dst[0], &src[0], n)
	}
}

func decrypt1x(ks *schedule, dst, src []byte) {
	if n := len(src) / BlockSize; n > 0 {
		_ = dst[n*BlockSize-1]
		decryptBlocks1x(ks, &dst[0], &src[0], n)
	}
}

// encrypt3x takes any number of blocks: the ladder passes it multiples of
// three, and any other blocks go to the 1-way kernel.
func encrypt3x(ks *schedule, dst, src []byte) {
	n := len(src) / BlockSize
	if n == 0 {
		return
	}
	_ = dst[n*BlockSize-1]
	if g := n / 3; g > 0 {
		encryptBlocks3x(ks, &dst[0], &src[0], g)
	}
	if r := n % 3; r > 0 {
		i := (n - r) * BlockSize
		encryptBlocks1x(ks, &dst[i], &src[i], r)
	}
}

// decrypt3x is the inverse of encrypt3x.
func decrypt3x(ks *schedule, dst, src []byte) {
	n := len(src) / BlockSize
	if n == 0 {
		return
	}
	_ = dst[n*BlockSize-1]
	if g := n / 3; g > 0 {
		decryptBlocks3x(ks, &dst[0], &src[0], g)
	}
	if r := n % 3; r > 0 {
		i := (n - r) * BlockSize
		decryptBlocks1x(ks, &dst[i], &src[i], r)
	}
}
