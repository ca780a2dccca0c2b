//go:build !amd64 || !gc || purego

package kernel

// Fused reports that no kernel of this build has fused mode kernels.
func (c *Cipher) Fused() bool { return false }

// TakesAsGroup reports that no kernel of this build has fused mode
// kernels.
func (c *Cipher) TakesAsGroup(int) bool { return false }

// CTRGroups reports that no kernel of this build makes CTR's counter
// blocks itself: it does nothing and returns 0.
func (c *Cipher) CTRGroups([]byte, []byte, *[2]uint64, *[BlockSize]byte) int { return 0 }

// GCMGroups reports that no kernel of this build makes GCM's counter
// blocks itself: it does nothing and returns 0.
func (c *Cipher) GCMGroups([]byte, []byte, *[2]uint64) int { return 0 }

// CBCDecryptGroups reports that no kernel of this build XORs in CBC's
// ciphertext blocks itself: it does nothing and returns 0.
func (c *Cipher) CBCDecryptGroups([]byte, []byte, *[BlockSize]byte) int { return 0 }

// CFBDecryptGroups reports that no kernel of this build XORs in CFB's
// ciphertext blocks itself: it does nothing and returns 0.
func (c *Cipher) CFBDecryptGroups([]byte, []byte, *[BlockSize]byte, *[BlockSize]byte) int { return 0 }

// XTSGroups reports that no kernel of this build makes XTS's tweaks
// itself: it does nothing and returns 0.
func (c *Cipher) XTSGroups([]byte, []byte, *[2]uint64, bool) int { return 0 }

// XTSHalves reports that no kernel of this build makes XTS's tweaks
// itself: it does nothing and returns 0.
func (c *Cipher) XTSHalves([]byte, []byte, [][2]uint64, bool) int { return 0 }

// XTSHalvesTake reports that no kernel of this build takes XTS's sectors
// by halves of groups.
func (c *Cipher) XTSHalvesTake(int) bool { return false }
