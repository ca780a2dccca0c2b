//go:build gc && !purego

package kernel

// hasChainKernels reports whether the single-block kernel k has chain
// kernels: amd64-1way (both bodies), avx512-gfni and avx2-ct.
func hasChainKernels(k *Kernel) bool {
	switch k {
	case AMD64x1, AMD64x1BMI, AVX512GFNI, AVX2CT:
		return true
	}
	return false
}

// runChain runs the chain kernel of k and mode m over n > 0 blocks.
func runChain(k *Kernel, ks *Schedule, t *Tables, m ChainMode, d, p *byte, n int, s *[BlockSize]byte) {
	if k == AVX2CT {
		chainAVX2CT(ks, m, d, p, n, s)
		return
	}
	if k == AVX512GFNI {
		switch m {
		case ChainCBC:
			cbcEncryptAVX512GFNI(ks, d, p, n, s)
		case ChainCFB:
			cfbEncryptAVX512GFNI(ks, d, p, n, s)
		case ChainOFB:
			ofbStreamAVX512GFNI(ks, d, p, n, s)
		case ChainMAC:
			cbcMACAVX512GFNI(ks, d, p, n, s)
		default:
			panic("kernel: unknown chain mode")
		}
		return
	}
	bmi := k == AMD64x1BMI
	switch m {
	case ChainCBC:
		if bmi {
			cbcEncrypt1xBMI(t, ks, d, p, n, s)
		} else {
			cbcEncrypt1x(t, ks, d, p, n, s)
		}
	case ChainCFB:
		if bmi {
			cfbEncrypt1xBMI(t, ks, d, p, n, s)
		} else {
			cfbEncrypt1x(t, ks, d, p, n, s)
		}
	case ChainOFB:
		if bmi {
			ofbStream1xBMI(t, ks, d, p, n, s)
		} else {
			ofbStream1x(t, ks, d, p, n, s)
		}
	case ChainMAC:
		if bmi {
			cbcMAC1xBMI(t, ks, d, p, n, s)
		} else {
			cbcMAC1x(t, ks, d, p, n, s)
		}
	default:
		panic("kernel: unknown chain mode")
	}
}
