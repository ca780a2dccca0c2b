//go:build gc && !purego && (linux || darwin)

package kernel

import (
	"bytes"
	"fmt"
	"testing"
	"unsafe"

	"github.com/twofish-go/twofish/internal/guardpage"
)

// TestScheduleGuarded runs the multi-block kernels that read key material
// besides the subkeys, the byte-sliced S-boxes of avx512-gfni and
// avx512-vbmi (their 64-, 32-, 16- and 4-block kernels and mode kernels) and the
// nibble tables of avx2-ct (its 64-, 32- and 8-block kernels), with the
// schedule flush against a page that faults, after and before it: they
// must read nothing outside the bytes their layout gives them (1184 and
// 1480), which in a Cipher are followed by other fields and preceded by
// the root package's Cipher, so an over-read there would go unnoticed.
// (TestSingleAVX512Guarded and TestSingleAVX2CTGuarded guard the
// single-block kernels, TestTableKernelsGuarded the table kernels, and
// TestGuardPages and TestFusedGuardPages the data.)
func TestScheduleGuarded(t *testing.T) {
	for _, k := range []struct {
		kernel *Kernel
		size   int
	}{
		{AVX512GFNI, slicedOffset + 1024},
		{AVX512VBMI, slicedOffset + 1024},
		{AVX2CT, int(unsafe.Sizeof(nibblesOnly{}))},
	} {
		t.Run(k.kernel.Name, func(t *testing.T) {
			if !k.kernel.Supported {
				skipUnsupported(t, k.kernel.Name)
			}
			r := testRand(t)
			for _, size := range keySizes {
				key := randBytes(r, size)
				ref := newCipher(key, k.kernel)
				for _, atEnd := range []bool{true, false} {
					sched := guardpage.Flush(t, k.size, atEnd)
					copy(sched, unsafe.Slice((*byte)(unsafe.Pointer(ref.ks)), k.size))
					c := &Cipher{ks: (*Schedule)(unsafe.Pointer(&sched[0])), plan: ref.plan}
					c.t.Store(&noTables)
					what := fmt.Sprintf("key %x, schedule at the %s of its page", key, map[bool]string{true: "end", false: "start"}[atEnd])
					checkGuardedSchedule(t, what, c, ref)
				}
			}
		})
	}
}

// checkGuardedSchedule compares c, whose schedule is guarded, with ref,
// which holds the same schedule in a Cipher, over every run length up to
// two groups of 64 and three blocks (each width and tail of the ladders),
// and, where they have them, the fused mode kernels over one and two
// groups.
func checkGuardedSchedule(t *testing.T, what string, c, ref *Cipher) {
	t.Helper()
	r := testRand(t)
	src := randBytes(r, (2*64+narrowMost)*BlockSize)
	want, got := make([]byte, len(src)), make([]byte, len(src))
	for n := 1; n <= 2*64+3; n++ {
		in := src[:n*BlockSize]
		ref.EncryptBlocks(want, in)
		if c.EncryptBlocks(got, in); !bytes.Equal(got[:len(in)], want[:len(in)]) {
			t.Fatalf("%s, %d blocks: guarded encryption differs", what, n)
		}
		ref.DecryptBlocks(want, in)
		if c.DecryptBlocks(got, in); !bytes.Equal(got[:len(in)], want[:len(in)]) {
			t.Fatalf("%s, %d blocks: guarded decryption differs", what, n)
		}
	}
	if !c.Fused() {
		return
	}
	table := randomOCBTable(r)
	offs, sum0 := randomOCBOffsets(r)
	// Whole groups, runs of the word layout's mode kernels, alone and
	// after two groups, and masked groups, alone and after one.
	for _, blocks := range []int{FusedGroup, 2 * FusedGroup, narrowMost / 2, narrowMost, 2*FusedGroup + narrowMost, narrowMost + 1, FusedGroup + 37} {
		in := src[:blocks*BlockSize]
		for _, f := range []struct {
			name string
			run  func(c *Cipher, dst []byte) any
		}{
			{"CTR", func(c *Cipher, dst []byte) any {
				ctr := [2]uint64{^uint64(0) - 3, 7}
				c.CTRGroups(dst, in, &ctr, nil)
				return ctr
			}},
			{"CBC", func(c *Cipher, dst []byte) any {
				var iv [BlockSize]byte
				c.CBCDecryptGroups(dst, in, &iv)
				return iv
			}},
			{"CFB", func(c *Cipher, dst []byte) any {
				var iv [BlockSize]byte
				c.CFBDecryptGroups(dst, in, &iv, nil)
				return iv
			}},
			{"XTS encryption", func(c *Cipher, dst []byte) any {
				tw := [2]uint64{5, 1 << 63}
				c.XTSGroups(dst, in, &tw, false)
				return tw
			}},
			{"XTS decryption", func(c *Cipher, dst []byte) any {
				tw := [2]uint64{5, 1 << 63}
				c.XTSGroups(dst, in, &tw, true)
				return tw
			}},
			{"OCB encryption", func(c *Cipher, dst []byte) any {
				sum := sum0
				c.OCBGroups(dst, in, table, &offs, &sum, false)
				return sum
			}},
			{"OCB decryption", func(c *Cipher, dst []byte) any {
				sum := sum0
				c.OCBGroups(dst, in, table, &offs, &sum, true)
				return sum
			}},
			{"OCB's hash", func(c *Cipher, _ []byte) any {
				sum := sum0
				c.OCBHash(in, table, &offs, &sum)
				return sum
			}},
		} {
			wantState, gotState := f.run(ref, want), f.run(c, got)
			if !bytes.Equal(got[:len(in)], want[:len(in)]) || gotState != wantState {
				t.Fatalf("%s, %d blocks: guarded %s differs", what, blocks, f.name)
			}
		}
	}
}
