//go:build gc && !purego

package kernel

//go:generate env -u GOARCH go run -C ../../_asm/arm64scalar . -out ../../internal/kernel/scalar_arm64.s
//go:generate env -u GOARCH go run -C ../../_asm/arm64neon . -out ../../internal/kernel/neon_arm64.s

// The arm64 kernels, in order of preference. (The generators run on the
// host: env -u GOARCH lets GOARCH=arm64 go generate run them on any
// machine.)
var (
	// ARM64NEON is the constant-time 16-way NEON kernel
	// (kernels_neon_arm64.go), which needs ASIMD. It takes any number of
	// blocks itself, a last single block with its single-block kernel and
	// a longer rest padded to a group, so that no block of its ladder
	// reaches a kernel that looks tables up.
	ARM64NEON = &Kernel{Name: "arm64-neon", Blocks: neonBlocks, ConstantTime: true, sliced: true}
	// The table kernels need only baseline arm64.
	//
	// arm64x2 interleaves two blocks; the 1-way kernel takes the last
	// block of an odd run.
	arm64x2 = &Kernel{Name: "arm64-2way", Blocks: 2, narrower: "arm64-1way"}
	// ARM64x1 is the 1-way table kernel, the one for single blocks.
	ARM64x1 = &Kernel{Name: "arm64-1way", Blocks: 1}
)

// archKernels returns the kernels of this architecture, in order of
// preference; the portable kernels are not among them.
func archKernels() []*Kernel { return []*Kernel{ARM64NEON, arm64x2, ARM64x1} }

func (k *Kernel) encrypt(ks *Schedule, t *Tables, dst, src []byte) {
	switch k {
	case ARM64NEON:
		cryptNEON(ks, dst, src, false)
	case arm64x2:
		crypt2x(t, ks, dst, src, false)
	case ARM64x1:
		crypt1x(t, ks, dst, src, false)
	case GenericCT:
		encryptBlocksGenericCT(ks, dst, src)
	default:
		encryptBlocksGeneric(ks, t, dst, src)
	}
}

func (k *Kernel) decrypt(ks *Schedule, t *Tables, dst, src []byte) {
	switch k {
	case ARM64NEON:
		cryptNEON(ks, dst, src, true)
	case arm64x2:
		crypt2x(t, ks, dst, src, true)
	case ARM64x1:
		crypt1x(t, ks, dst, src, true)
	case GenericCT:
		decryptBlocksGenericCT(ks, dst, src)
	default:
		decryptBlocksGeneric(ks, t, dst, src)
	}
}

// The single blocks of the root package's Cipher.Encrypt and Decrypt,
// which switch on the single-block kernel themselves: each of these
// inlines, so a single block is one call from the caller to the kernel.

// EncryptBlock1x encrypts one block with the 1-way kernel.
func EncryptBlock1x(t *Tables, ks *Schedule, dst, src *byte) { encryptBlocks1x(t, ks, dst, src, 1) }

// DecryptBlock1x decrypts one block with the 1-way kernel.
func DecryptBlock1x(t *Tables, ks *Schedule, dst, src *byte) { decryptBlocks1x(t, ks, dst, src, 1) }

// EncryptBlockNEON encrypts the first block of src with the arm64-neon
// single-block kernel.
func EncryptBlockNEON(ks *Schedule, dst, src []byte) {
	_, _ = dst[BlockSize-1], src[BlockSize-1]
	encryptBlock1NEON(ks, &dst[0], &src[0])
}

// DecryptBlockNEON decrypts the first block of src with the arm64-neon
// single-block kernel.
func DecryptBlockNEON(ks *Schedule, dst, src []byte) {
	_, _ = dst[BlockSize-1], src[BlockSize-1]
	decryptBlock1NEON(ks, &dst[0], &src[0])
}

// The Go side of the kernels: the length checks happen here, so the
// assembly can trust its pointers and counts.

// crypt1x encrypts, or if dec decrypts, the whole blocks of src with the
// 1-way kernel.
func crypt1x(t *Tables, ks *Schedule, dst, src []byte, dec bool) {
	n := len(src) / BlockSize
	if n == 0 {
		return
	}
	_ = dst[n*BlockSize-1]
	if dec {
		decryptBlocks1x(t, ks, &dst[0], &src[0], n)
	} else {
		encryptBlocks1x(t, ks, &dst[0], &src[0], n)
	}
}

// crypt2x takes any number of blocks: the ladder passes it pairs, and an
// odd last block goes to the 1-way kernel.
func crypt2x(t *Tables, ks *Schedule, dst, src []byte, dec bool) {
	n := len(src) / BlockSize
	if n == 0 {
		return
	}
	_ = dst[n*BlockSize-1]
	if g := n / 2; g > 0 {
		if dec {
			decryptBlocks2x(t, ks, &dst[0], &src[0], g)
		} else {
			encryptBlocks2x(t, ks, &dst[0], &src[0], g)
		}
	}
	if n%2 == 1 {
		i := (n - 1) * BlockSize
		crypt1x(t, ks, dst[i:], src[i:], dec)
	}
}
