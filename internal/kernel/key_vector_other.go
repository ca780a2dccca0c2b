//go:build !amd64 || !gc || purego

package kernel

// expandVector reports false: this build has no vector key schedule
// (key_vector_amd64.go), and the Go schedules serve every kernel.
func expandVector(ks *Schedule, tables, sliced bool, key []byte) bool { return false }

// tablesVector reports false: the Go loop of fromSliced builds the tables.
func tablesVector(tables *[4][256]uint32, sliced *[256]uint32) bool { return false }

// subkeysVector reports false: the bitsliced Go (subkeysCT) computes the
// constant-time schedule's subkeys.
func subkeysVector(k *[40]uint32, key []byte, w keyWords) bool { return false }
