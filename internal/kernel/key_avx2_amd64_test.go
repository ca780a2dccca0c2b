//go:build gc && !purego

package kernel

import (
	"fmt"
	"os"
	"testing"

	"github.com/twofish-go/twofish/internal/asmscan"
	"github.com/twofish-go/twofish/internal/cpu"
)

// runsKeyAVX2 is whether this CPU runs scheduleAVX2, chosen or not: the
// tests run it on AVX-512 CPUs too, where avx512-vbmi is chosen.
var runsKeyAVX2 = cpu.Host().KeySched.Supported("avx2")

// TestScheduleAVX2 checks the AVX2 key schedule against the Go one on
// random keys of each size: every subkey and table word, and the subkeys
// of subkeysAVX2, the constant-time schedule's. TestSchedules
// checks the Go one against the specification's reference.
func TestScheduleAVX2(t *testing.T) {
	if !runsKeyAVX2 {
		skipUnsupported(t, "avx2")
	}
	r := testRand(t)
	n := 500
	if testing.Short() {
		n = 50
	}
	for _, size := range keySizes {
		t.Run(fmt.Sprintf("key=%d", 8*size), func(t *testing.T) {
			for i := range n {
				key := randBytes(r, size)
				if i == 0 {
					key = make([]byte, size)
				}
				ref := withLayouts(tablesLayout)
				ref.expandTables(key, false)
				got := withLayouts(tablesLayout)
				expandAVX2(got, key)
				if got.k != ref.k {
					t.Fatalf("key %x: subkeys\n%08x\nwant\n%08x", key, got.k, ref.k)
				}
				if got.tables().s != ref.tables().s {
					t.Fatalf("key %x: tables differ from expandTables", key)
				}
				w := splitKey(key)
				in := newKeyBytes(key, w)
				var h, k [40]uint32
				subkeysAVX2(&h, &in, w.k)
				if setSubkeysOfH(&k, &h); k != ref.k {
					t.Fatalf("key %x: subkeysAVX2's subkeys\n%08x\nwant\n%08x", key, k, ref.k)
				}
			}
		})
	}
}

// TestExpandVectorAVX2 checks that expandVector runs the AVX2 schedule
// for the tables alone where internal/cpu chose it, and declines the
// byte-sliced layout.
func TestExpandVectorAVX2(t *testing.T) {
	if !keyAVX2 {
		t.Skipf("internal/cpu chose the %s key schedule on this CPU, not avx2", cpu.Host().KeySched.Name)
	}
	key := make([]byte, 32)
	if expandVector(withLayouts(tablesLayout, slicedLayout), true, true, key) {
		t.Error("expandVector computed the byte-sliced S-boxes with the AVX2 schedule")
	}
	got, ref := withLayouts(tablesLayout), withLayouts(tablesLayout)
	ref.expandTables(key, false)
	if !expandVector(got, true, false, key) || got.k != ref.k || got.tables().s != ref.tables().s {
		t.Error("expandVector did not compute the tables with the AVX2 schedule")
	}
}

// TestKeyAVX2AssemblyIsConstantTime checks key_avx2_amd64.s as
// TestKeyAVX512AssemblyIsConstantTime checks key_avx512_amd64.s: no memory
// operand with an index register, general-purpose registers loaded only
// from the argument frame, constants and addresses, no flags from vector
// data, VZEROUPPER before RET; and no feature beyond AVX2, which
// internal/cpu's rule for avx2 checks.
func TestKeyAVX2AssemblyIsConstantTime(t *testing.T) {
	const name = "key_avx2_amd64.s"
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	funcs := asmscan.Functions(string(data))
	if funcs["scheduleAVX2"] == nil {
		t.Errorf("%s has no function scheduleAVX2", name)
	}
	for fn, lines := range funcs {
		checkPublicAddressesAndBranches(t, fn, lines)
	}
	checkRequires(t, name, string(data), len(funcs), "AVX", "AVX2")
}

// expandAVX2Bench runs expandAVX2 for BenchmarkExpand where this CPU
// runs it, and reports whether it did.
func expandAVX2Bench(ks *Schedule, key []byte) bool {
	if !runsKeyAVX2 {
		return false
	}
	expandAVX2(ks, key)
	return true
}

// expandCTAVX2Bench runs expandCT as it runs where internal/cpu chose the
// AVX2 key schedule (avx2-ct's NewCipherConstantTime on Zen 1), making that
// choice for the call, for BenchmarkExpand where this CPU runs it, and
// reports whether it did.
func expandCTAVX2Bench(ks *Schedule, key []byte) bool {
	if !runsKeyAVX2 {
		return false
	}
	defer func(avx512, avx2 bool) { keyAVX512, keyAVX2 = avx512, avx2 }(keyAVX512, keyAVX2)
	keyAVX512, keyAVX2 = false, true
	ks.expandCT(key)
	return true
}
