//go:build gc && !purego

package kernel

// hasChainKernels reports whether the single-block kernel k has chain
// kernels: arm64-1way.
func hasChainKernels(k *Kernel) bool { return k == ARM64x1 }

// runChain runs arm64-1way's chain kernel of mode m over n > 0 blocks.
func runChain(_ *Kernel, ks *Schedule, t *Tables, m ChainMode, d, p *byte, n int, s *[BlockSize]byte) {
	switch m {
	case ChainCBC:
		cbcEncrypt1x(t, ks, d, p, n, s)
	case ChainCFB:
		cfbEncrypt1x(t, ks, d, p, n, s)
	case ChainOFB:
		ofbStream1x(t, ks, d, p, n, s)
	case ChainMAC:
		cbcMAC1x(t, ks, d, p, n, s)
	default:
		panic("kernel: unknown chain mode")
	}
}
