package kernel

import (
	"fmt"
	"testing"
)

// TestGenericInterleaved checks the generic kernel's runs, genericBlocks
// at a time (two left over padded, one alone), against its single blocks, the
// reference of every other test (kat_test.go and differential_test.go
// compare each kernel's runs with the generic kernel's): every count of
// blocks up to four interleaved calls and a longer run, in place and not,
// every key size.
func TestGenericInterleaved(t *testing.T) {
	r := testRand(t)
	for _, size := range keySizes {
		key := randBytes(r, size)
		ks := withLayouts(tablesLayout)
		ks.expandTables(key, false)
		tab := ks.tables()
		for _, n := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 100} {
			src := randBytes(r, n*BlockSize)
			want := make([]byte, len(src))
			for i := 0; i < len(src); i += BlockSize {
				EncryptBlockGeneric(tab, ks, want[i:], src[i:])
			}
			got := make([]byte, len(src))
			encryptBlocksGeneric(ks, tab, got, src)
			if string(got) != string(want) {
				t.Fatalf("key %x, %d blocks: encryptBlocksGeneric differs from EncryptBlockGeneric", key, n)
			}
			for i := 0; i < len(src); i += BlockSize {
				DecryptBlockGeneric(tab, ks, want[i:], got[i:])
			}
			decryptBlocksGeneric(ks, tab, got, got)
			if string(got) != string(want) || string(got) != string(src) {
				t.Fatalf("key %x, %d blocks: decryptBlocksGeneric in place differs from DecryptBlockGeneric", key, n)
			}
		}
	}
}

// BenchmarkGeneric compares the generic kernel's two ways to encrypt and
// decrypt a run of blocks: genericBlocks at a time, interleaved (its runs),
// and one block at a time (its single blocks).
func BenchmarkGeneric(b *testing.B) {
	ks := withLayouts(tablesLayout)
	ks.expandTables(make([]byte, 32), false)
	tab := ks.tables()
	buf := make([]byte, 8192)
	for _, way := range []struct {
		name     string
		enc, dec func(dst, src []byte)
	}{
		{"interleaved", func(dst, src []byte) { encryptBlocksGeneric(ks, tab, dst, src) }, func(dst, src []byte) { decryptBlocksGeneric(ks, tab, dst, src) }},
		{"blocks", func(dst, src []byte) {
			for i := 0; i < len(src); i += BlockSize {
				EncryptBlockGeneric(tab, ks, dst[i:], src[i:])
			}
		}, func(dst, src []byte) {
			for i := 0; i < len(src); i += BlockSize {
				DecryptBlockGeneric(tab, ks, dst[i:], src[i:])
			}
		}},
	} {
		for _, dir := range []struct {
			name string
			f    func(dst, src []byte)
		}{{"enc", way.enc}, {"dec", way.dec}} {
			f := dir.f
			b.Run(fmt.Sprintf("dir=%s/way=%s", dir.name, way.name), func(b *testing.B) {
				b.SetBytes(int64(len(buf)))
				for b.Loop() {
					f(buf, buf)
				}
			})
		}
	}
}
