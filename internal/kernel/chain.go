package kernel

// ChainMode is a serial mode of operation, whose every block's cipher input
// is made from the block before: Cipher.Chain runs a run of one in a single
// kernel call where the Cipher's kernel of single blocks has a chain kernel.
type ChainMode int

const (
	// ChainCBC is CBC encryption: s = E(s ^ P[i]), C[i] = s.
	ChainCBC ChainMode = iota
	// ChainCFB is full-block CFB encryption: s = E(s) ^ P[i], C[i] = s.
	ChainCFB
	// ChainOFB is OFB's key stream: s = E(s), K[i] = s, from no source.
	ChainOFB
	// ChainMAC is CBC-MAC, as CMAC runs it: s = E(s ^ M[i]), with no
	// output but s.
	ChainMAC
)
