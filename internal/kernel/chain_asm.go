//go:build (amd64 || arm64) && gc && !purego

package kernel

// Chain runs mode m over the whole blocks of src into dst (OFB: the whole
// blocks of dst, with no src; MAC: no dst) from the chain value s, which it
// leaves updated, in one call of a chain kernel, and reports whether it
// did: where c's kernel of single blocks has chain kernels (amd64-1way,
// avx512-gfni, avx2-ct, arm64-1way), which keep s in registers from block
// to block (where a block at a time through Encrypt loads what the call
// before stored) and load what the blocks read once a call (the
// constant-time kernels' S-boxes and key vectors). The constant-time ones
// stay constant time. dst may be src but must not overlap it otherwise,
// and must be at least as long.
//
// CBC encryption of 1 KiB on Zen 5, 256-bit key, against a block at a time
// through the single-block entry (BenchmarkChain, medians of 3): amd64-1way
// 58 ns a block against 71 ns (1.22x), avx512-gfni 170 against 182 ns
// (1.07x), avx2-ct level (about 530 ns, its rounds' cost dwarfing the
// call's there).
func (c *Cipher) Chain(m ChainMode, dst, src []byte, s *[BlockSize]byte) bool {
	k, ks, t := c.Single()
	if !hasChainKernels(k) {
		return false
	}
	if t == nil && k.layout() == tablesLayout {
		k, ks, t = c.WarmSingle()
	}
	in := src
	if m == ChainOFB {
		in = dst
	}
	n := len(in) / BlockSize
	if n == 0 {
		return true
	}
	var d, p *byte
	if m != ChainMAC {
		_ = dst[n*BlockSize-1]
		d = &dst[0]
	}
	if m != ChainOFB {
		_ = src[n*BlockSize-1]
		p = &src[0]
	}
	runChain(k, ks, t, m, d, p, n, s)
	return true
}
