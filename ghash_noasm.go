//go:build !amd64 || !gc || purego

package twofish

// ghashImpl names a GHASH implementation; this build has only the portable
// one.
type ghashImpl uint8

const ghashGeneric ghashImpl = 0

// ghashAuto is the implementation new keys use.
const ghashAuto = ghashGeneric

// ghashImplementations lists the GHASH implementations of this build.
func ghashImplementations() []ghashImplInfo {
	return []ghashImplInfo{{"generic", ghashGeneric, true}}
}

// ghashBlocks hashes the whole blocks of data into y.
func ghashBlocks(k *ghashKey, y *[16]byte, data []byte) { ghashBlocksGeneric(k, y, data) }
