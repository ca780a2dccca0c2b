//go:build (amd64 || arm64) && gc && !purego

package kernel

// chainBlocks returns how many whole blocks Chain runs in mode m, and the
// addresses of dst's and src's first bytes (nil for the buffer m does not
// touch), having checked that both hold that many.
func chainBlocks(m ChainMode, dst, src []byte) (d, p *byte, n int) {
	in := src
	if m == ChainOFB {
		in = dst
	}
	n = len(in) / BlockSize
	if n == 0 {
		return nil, nil, 0
	}
	if m != ChainMAC {
		_ = dst[n*BlockSize-1]
		d = &dst[0]
	}
	if m != ChainOFB {
		_ = src[n*BlockSize-1]
		p = &src[0]
	}
	return d, p, n
}
