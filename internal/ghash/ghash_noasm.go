//go:build (!amd64 && !arm64) || !gc || purego

package ghash

// ghashImpl names a GHASH implementation; this build has only the portable
// one.
type ghashImpl uint8

const ghashGeneric ghashImpl = 0

// implOf returns the implementation internal/cpu calls name: the
// portable one, the only one of this build.
func implOf(string) ghashImpl { return ghashGeneric }

// Blocks hashes the whole blocks of data into y.
func Blocks(k *Key, y *[16]byte, data []byte) { ghashBlocksGeneric(k, y, data) }

// powersAsm reports false: this build fills the key powers in Go.
func powersAsm(*Key) bool { return false }
