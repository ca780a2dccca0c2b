package twofish

import "encoding/binary"

// fe is a block as an element of GF(2^128) in the big-endian convention of
// OCB's and EAX's doubling (RFC 7253, section 2): hi holds bytes 0 to 7,
// big-endian, and lo bytes 8 to 15. GCM's GHASH keeps its own, in
// internal/ghash.
type fe struct{ hi, lo uint64 }

func loadFE(b []byte) fe {
	return fe{binary.BigEndian.Uint64(b), binary.BigEndian.Uint64(b[8:])}
}

func (a fe) put(b []byte) {
	binary.BigEndian.PutUint64(b, a.hi)
	binary.BigEndian.PutUint64(b[8:], a.lo)
}
