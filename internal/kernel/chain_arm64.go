//go:build gc && !purego

package kernel

// Chain runs mode m over the whole blocks of src into dst from the chain
// value s in one call of a chain kernel, and reports whether it did, as on
// amd64 (chain_amd64.go): where c's kernel of single blocks is arm64-1way.
func (c *Cipher) Chain(m ChainMode, dst, src []byte, s *[BlockSize]byte) bool {
	k, ks, t := c.Single()
	if k != ARM64x1 {
		return false
	}
	if t == nil {
		_, ks, t = c.WarmSingle()
	}
	d, p, n := chainBlocks(m, dst, src)
	if n > 0 {
		chain1x(t, ks, m, d, p, n, s)
	}
	return true
}

// chain1x runs arm64-1way's chain kernel of mode m over n blocks.
func chain1x(t *Tables, ks *Schedule, m ChainMode, d, p *byte, n int, s *[BlockSize]byte) {
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
