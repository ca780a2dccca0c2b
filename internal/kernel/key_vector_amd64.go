//go:build gc && !purego

package kernel

import "math/bits"

// expandVector computes the schedule of key into ks with the vector
// schedule that internal/cpu chose, and reports true: expandAVX512 for
// every layout, or expandAVX2 for the tables alone. Elsewhere (no vector
// schedule, or AVX2 asked for the byte-sliced S-boxes) it reports false
// and leaves ks as it was.
func expandVector(ks *Schedule, tables, sliced bool, key []byte) bool {
	switch {
	case keyAVX512:
		expandAVX512(ks, tables, sliced, key)
	case keyAVX2 && tables && !sliced:
		expandAVX2(ks, key)
	default:
		return false
	}
	return true
}

// subkeysVector sets k to the subkeys of key, whose words are w, with the
// vector schedule that internal/cpu chose, and reports true; elsewhere it
// reports false. The constant-time schedule of avx2-ct and generic-ct
// takes them (expandCT, expandPacked): with subkeysAVX2 and the second
// layers by XOR, it takes 0.46 us for a 256-bit key and 0.26 us for a
// 128-bit one, against 2.2 and 1.3 us with the bitsliced Go subkeys and
// the second layers looked up entry by entry (go test -run '^$' -bench
// 'Expand/key=(128|256)/ct' ./internal/kernel, ct-avx2 against the old
// ct, Zen 5, 3 alternating runs).
func subkeysVector(k *[40]uint32, key []byte, w keyWords) bool {
	if !keyAVX512 && !keyAVX2 {
		return false
	}
	in := newKeyBytes(key, w)
	var h [48]uint32
	if keyAVX512 {
		scheduleAVX512(nil, nil, &h, &in, w.k)
	} else {
		subkeysAVX2((*[40]uint32)(h[:40]), &in, w.k)
	}
	setSubkeysOfH(k, (*[40]uint32)(h[:40]))
	return true
}

// tablesVector sets tables from sliced as tablesFromSlicedAVX512 does, and
// reports true, where this CPU runs it (keyAVX512); elsewhere it reports
// false.
func tablesVector(tables *[4][256]uint32, sliced *[256]uint32) bool {
	if !keyAVX512 {
		return false
	}
	tablesFromSlicedAVX512(tables, sliced)
	return true
}

// setSubkeysOfH sets k to the subkeys of h(nρ, Me) for even n and
// h(nρ, Mo) for odd n, n = 0..39, as the vector schedules leave them:
// combineSubkeys of the even and the odd words, in place.
func setSubkeysOfH(k, h *[40]uint32) {
	for i := 0; i < 40; i += 2 {
		b := bits.RotateLeft32(h[i+1], 8)
		k[i] = h[i] + b
		k[i+1] = bits.RotateLeft32(h[i]+2*b, 9)
	}
}
