//go:build gc && !purego

package kernel

// Chain runs mode m over the whole blocks of src into dst (OFB: the whole
// blocks of dst, with no src; MAC: no dst) from the chain value s, which it
// leaves updated, in one call of a chain kernel, and reports whether it
// did: where c's kernel of single blocks has chain kernels (amd64-1way,
// avx512-gfni, avx2-ct; on arm64, arm64-1way), which keep s in registers
// from block to block (where a block at a time through Encrypt loads what
// the call before stored) and load what the blocks read once a call (the
// constant-time kernels' S-boxes and key vectors). The constant-time ones
// stay constant time. dst may be src but must not overlap it otherwise,
// and must be at least as long.
//
// CBC encryption of 1 KiB on Zen 5, 256-bit key, against a block at a time
// through the single-block entry (BenchmarkChain, medians of 5): amd64-1way
// 57 ns a block against 70 ns (1.24x), avx512-gfni 152 against 161 ns
// (1.06x), avx2-ct 489 against 498 ns (1.02x, its rounds' cost dwarfing
// the call's there).
func (c *Cipher) Chain(m ChainMode, dst, src []byte, s *[BlockSize]byte) bool {
	k, ks, t := c.Single()
	switch k {
	case AMD64x1, AMD64x1BMI:
		if t == nil {
			k, ks, t = c.WarmSingle()
		}
	case AVX512GFNI, AVX2CT:
	default:
		return false
	}
	d, p, n := chainBlocks(m, dst, src)
	if n == 0 {
		return true
	}
	if k == AVX2CT {
		chainAVX2CT(ks, m, d, p, n, s)
		return true
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
		return true
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
	return true
}
