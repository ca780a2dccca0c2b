//go:build !(amd64 || arm64) || !gc || purego

package kernel

// Chain reports that no kernel of this build has chain kernels: the caller
// runs the mode a block at a time.
func (c *Cipher) Chain(m ChainMode, dst, src []byte, s *[BlockSize]byte) bool { return false }
