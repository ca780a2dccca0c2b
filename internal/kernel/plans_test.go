package kernel

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/twofish-go/twofish/internal/cpu"
)

// policyCPUs are the facts of CPUs on which the policy's plans differ: the
// AVX-512 kernels with the table kernels for short runs and single blocks
// (Zen 5 with GFNI and VPCLMULQDQ, avx512-gfni; and without, avx512-vbmi, whose plan the
// emulated test of testdata/bochs runs), the 16-way AVX2 kernels with the 3-way ladder below a group
// (Zen 1, Alder Lake), and the 3-way ladder alone (Nehalem).
var policyCPUs = []cpu.Facts{
	{Vendor: "AuthenticAMD", Family: 0x1A, Model: 0x02, AVX2: true, OSYMM: true, BMI1: true, BMI2: true,
		AVX512F: true, AVX512BW: true, AVX512VL: true, AVX512VBMI: true, GFNI: true, VPCLMULQDQ: true, OSZMM: true},
	{Vendor: "AuthenticAMD", Family: 0x1A, Model: 0x02, AVX2: true, OSYMM: true, BMI1: true, BMI2: true,
		AVX512F: true, AVX512BW: true, AVX512VL: true, AVX512VBMI: true, OSZMM: true},
	{Vendor: "AuthenticAMD", Family: 0x17, Model: 0x01, AVX2: true, OSYMM: true, BMI1: true, BMI2: true},
	{Vendor: "GenuineIntel", Family: 6, Model: 0x97, AVX2: true, OSYMM: true, BMI1: true, BMI2: true, GDS: "Not affected"},
	{Vendor: "GenuineIntel", Family: 6, Model: 0x1A},
}

// TestPlans checks the plans the policy makes for policyCPUs against
// generic, for every run length around the crossover and the bulk
// kernel's groups, so that each block goes through the kernel its shape
// names and reads the schedule that kernel needs.
func TestPlans(t *testing.T) {
	forEachPlan(t, func(t *testing.T, p Plan) {
		r := testRand(t)
		for _, ks := range keySizes {
			t.Run(fmt.Sprintf("key=%d", 8*ks), func(t *testing.T) {
				key := randBytes(r, ks)
				c, ref := newPlanCipher(p, key), newCipher(key, Generic)
				for _, n := range planCounts(p) {
					checkBulk(t, c, ref, r, n, r.IntN(BlockSize), r.IntN(BlockSize), r.IntN(BlockSize))
				}
			})
		}
	})
}

// forEachPlan runs f as a subtest, named for its bulk kernel, for each
// plan the policy makes for policyCPUs, skipping (or failing, as
// forEachKernel does) one with a kernel this CPU cannot run.
func forEachPlan(t *testing.T, f func(t *testing.T, p Plan)) {
	var seen []string
	for _, facts := range policyCPUs {
		p := planFor(cpu.Decide(facts))
		if slices.Contains(seen, p.Bulk.Name) {
			continue // a build without the kernels of these facts
		}
		seen = append(seen, p.Bulk.Name)
		t.Run(p.Bulk.Name, func(t *testing.T) {
			for _, k := range []*Kernel{p.Bulk, p.Short, p.Single} {
				if !k.Supported {
					skipUnsupported(t, k.Name)
				}
			}
			f(t, p)
		})
	}
}

// planCounts returns the run lengths that reach every path of p: each up
// to past the crossover, and around one, two and three whole groups of the
// bulk kernel, with remainders on both sides of the crossover (three: a
// call of two groups, then the last with a padded remainder).
func planCounts(p Plan) []int {
	var counts []int
	for n := 0; n <= max(p.From, 3)+3; n++ {
		counts = append(counts, n)
	}
	for g := 1; g <= 3; g++ {
		for _, d := range []int{-1, 0, 1, p.From - 1, p.From, p.From + 1} {
			if n := g*p.Bulk.Blocks + d; n >= 0 && !slices.Contains(counts, n) {
				counts = append(counts, n)
			}
		}
	}
	return counts
}

// TestBulkBlocks checks where runs cross from the short ladder to the bulk
// one, at the boundaries.
func TestBulkBlocks(t *testing.T) {
	wide, narrow := &Kernel{Name: "wide", Blocks: 64}, &Kernel{Name: "narrow", Blocks: 16}
	for _, tc := range []struct {
		p       Plan
		n, want int
	}{
		{Plan{Bulk: wide, From: 10}, 0, 0},
		{Plan{Bulk: wide, From: 10}, 9, 0},
		{Plan{Bulk: wide, From: 10}, 10, 10},
		{Plan{Bulk: wide, From: 10}, 63, 63},
		{Plan{Bulk: wide, From: 10}, 64, 64},
		{Plan{Bulk: wide, From: 10}, 73, 64},
		{Plan{Bulk: wide, From: 10}, 74, 74},
		{Plan{Bulk: wide, From: 10}, 137, 128},
		{Plan{Bulk: wide, From: 10}, 138, 138},
		{Plan{Bulk: wide, From: 64}, 63, 0},
		{Plan{Bulk: wide, From: 64}, 127, 64},
		{Plan{Bulk: narrow, From: 13}, 12, 0},
		{Plan{Bulk: narrow, From: 13}, 13, 13},
		{Plan{Bulk: narrow, From: 13}, 16, 16},
		{Plan{Bulk: narrow, From: 13}, 28, 16},
		{Plan{Bulk: narrow, From: 13}, 29, 29},
	} {
		if got := tc.p.bulkBlocks(tc.n); got != tc.want {
			t.Errorf("%d-block bulk kernel from %d blocks: %d blocks give it %d, want %d", tc.p.Bulk.Blocks, tc.p.From, tc.n, got, tc.want)
		}
	}
}

// TestPlanSchedules checks that New gives each plan one allocation with
// room for exactly the key material its kernels read (less the tables of
// a byte-sliced bulk kernel's plan, built on use), and refuses a plan of
// two constant-time layouts, whose key material takes the same bytes.
func TestPlanSchedules(t *testing.T) {
	kernel := func(name string, ct, sliced bool) *Kernel {
		k := &Kernel{Name: name, Blocks: 8, ConstantTime: ct, sliced: sliced}
		k.ladder = []*Kernel{k}
		return k
	}
	sliced, nibbles, tables := kernel("sliced", true, true), kernel("nibbles", true, false), kernel("tables", false, false)
	for _, tc := range []struct {
		single, short, bulk *Kernel
		want                layoutSet // 0: New panics
	}{
		{tables, tables, sliced, 1<<tablesLayout | 1<<slicedLayout},
		{sliced, sliced, sliced, 1 << slicedLayout},
		{tables, tables, nibbles, 1<<tablesLayout | 1<<nibblesLayout},
		{nibbles, nibbles, nibbles, 1 << nibblesLayout},
		{GenericCT, GenericCT, GenericCT, 1 << packedLayout},
		{Generic, Generic, GenericCT, 1<<tablesLayout | 1<<packedLayout},
		{tables, tables, tables, 1 << tablesLayout},
		{nibbles, nibbles, sliced, 0},
		{GenericCT, GenericCT, nibbles, 0},
	} {
		name := tc.single.Name + ", " + tc.short.Name + ", " + tc.bulk.Name
		p := Plan{Single: tc.single, Short: tc.short, Bulk: tc.bulk}
		if got := p.layouts(); tc.want != 0 && got != tc.want {
			t.Errorf("%s: layouts %b, want %b", name, got, tc.want)
		}
		var why any
		panicked := func() (failed bool) {
			defer func() { why = recover(); failed = why != nil }()
			newPlanCipher(p, make([]byte, 16))
			return false
		}()
		if panicked != (tc.want == 0) {
			t.Errorf("%s: New panicked %v, want %v", name, panicked, tc.want == 0)
			continue
		}
		if tc.want == 0 {
			// New's own refusal, naming the plan, not allocate's backstop.
			if want := "plan of " + tc.single.Name + ", " + tc.short.Name + " and " + tc.bulk.Name + " cannot share a schedule"; !strings.Contains(fmt.Sprint(why), want) {
				t.Errorf("%s: New panicked %q, want %q", name, why, want)
			}
			continue
		}
		if allocs := testing.AllocsPerRun(10, func() { newPlanCipher(p, make([]byte, 16)) }); allocs != 1 {
			t.Errorf("%s: New makes %v allocations, want 1", name, allocs)
		}
	}
}

// TestPlanConstantTime checks that a plan, and a Cipher of it, is
// constant time only if the kernels of all three shapes are: a table
// kernel for single blocks alone makes it not.
func TestPlanConstantTime(t *testing.T) {
	ct, table := GenericCT, Generic
	for _, p := range []struct {
		plan Plan
		want bool
	}{
		{Plan{Single: ct, Short: ct, Bulk: ct}, true},
		{Plan{Single: table, Short: ct, Bulk: ct, From: 4}, false},
		{Plan{Single: ct, Short: table, Bulk: ct, From: 4}, false},
		{Plan{Single: ct, Short: ct, Bulk: table, From: 4}, false},
	} {
		name := fmt.Sprintf("single %s, short %s, bulk %s", p.plan.Single.Name, p.plan.Short.Name, p.plan.Bulk.Name)
		if got := p.plan.ConstantTime(); got != p.want {
			t.Errorf("plan of %s: ConstantTime %v, want %v", name, got, p.want)
		}
		if got := newPlanCipher(p.plan, make([]byte, 16)).ConstantTime(); got != p.want {
			t.Errorf("Cipher of %s: ConstantTime %v, want %v", name, got, p.want)
		}
	}

	// A table kernel below a constant-time one in its ladder, where the
	// rest of a run would go, makes the plan not constant time either.
	mixed := *ct
	mixed.Name = "generic-ct over generic"
	mixed.ladder = []*Kernel{&mixed, table}
	for _, p := range []Plan{
		{Single: &mixed, Short: ct, Bulk: ct, From: 4},
		{Single: ct, Short: &mixed, Bulk: ct, From: 4},
		{Single: ct, Short: ct, Bulk: &mixed, From: 4},
	} {
		if p.ConstantTime() {
			t.Errorf("plan of single %s, short %s, bulk %s: constant time", p.Single.Name, p.Short.Name, p.Bulk.Name)
		}
	}
}

// TestTablesOnUse follows the Ciphers of the policy's plans that leave
// their tables out (New): setup blocks (EncryptOnce) and short runs go to
// the bulk kernel's ladder until their weights pass warmLimit, which
// builds the tables, a single block builds them at once, and every block
// agrees with generic. Plans that build their tables with the key start
// with them.
func TestTablesOnUse(t *testing.T) {
	forEachPlan(t, func(t *testing.T, p Plan) {
		r := testRand(t)
		key := randBytes(r, 32)
		ref := newCipher(key, Generic)
		check := func(c *Cipher, what string, got, src []byte) {
			t.Helper()
			want := make([]byte, len(src))
			ref.EncryptBlocks(want, src)
			if !bytes.Equal(got, want) {
				t.Fatalf("%s: %x, want %x", what, got, want)
			}
		}
		lazy := p.Single.layout() == tablesLayout && p.Bulk.layout() == slicedLayout
		if c := newPlanCipher(p, key); (c.t.Load() == nil) != lazy {
			t.Fatalf("tables left out: %v, want %v", c.t.Load() == nil, lazy)
		}
		if !lazy {
			return
		}

		c := newPlanCipher(p, key)
		for i := range warmLimit/setupWeight + 1 {
			src := randBytes(r, BlockSize)
			got := make([]byte, BlockSize)
			if did, want := c.EncryptOnce(got, src), i < warmLimit/setupWeight; did != want {
				t.Fatalf("setup block %d: EncryptOnce reports %v, want %v", i, did, want)
			} else if did {
				check(c, "setup block", got, src)
			}
			if built := c.t.Load() != nil; built == (i < warmLimit/setupWeight) {
				t.Fatalf("after setup block %d: tables built %v", i, built)
			}
		}

		c = newPlanCipher(p, key)
		run := min(p.From-1, 4)
		for i := 0; i <= warmLimit; i += run {
			src := randBytes(r, run*BlockSize)
			got := make([]byte, len(src))
			c.EncryptBlocks(got, src)
			check(c, "short run", got, src)
			if built := c.t.Load() != nil; built != (i+run > warmLimit) {
				t.Fatalf("after %d blocks of short runs: tables built %v", i+run, built)
			}
		}

		c = newPlanCipher(p, key)
		if k, _, tables := c.Single(); tables != nil || k != p.Single {
			t.Fatalf("Single before the tables: %s, tables %v", k.Name, tables != nil)
		}
		if k, ks, tables := c.WarmSingle(); ks != c.ks || tables == nil || k != p.Single || c.t.Load() != tables {
			t.Fatalf("WarmSingle did not build the tables")
		}
	})
}

// TestTablesOnUseConcurrent runs checkTablesOnUseConcurrent on the
// policy's plans that build their tables on use. Run it under -race.
func TestTablesOnUseConcurrent(t *testing.T) {
	forEachPlan(t, func(t *testing.T, p Plan) {
		if p.Single.layout() != tablesLayout || p.Bulk.layout() != slicedLayout {
			t.Skip("the plan builds its tables with the key")
		}
		checkTablesOnUseConcurrent(t, p)
	})
}

// checkTablesOnUseConcurrent starts goroutines on each of several new
// Ciphers of p, a plan that builds its tables on use, at once: some do a
// mode's setup blocks (EncryptOnce), some short runs, some single blocks
// as the root package's Encrypt does (Single, then WarmSingle), so that
// they meet while the warm count passes warmLimit and the tables are
// built. Every block must agree with generic, and once built the tables
// must never change: every goroutine that reads them reads the ones the
// Cipher keeps.
func checkTablesOnUseConcurrent(t *testing.T, p Plan) {
	r := testRand(t)
	const goroutines = 6
	for range 20 {
		key := randBytes(r, 32)
		c, ref := newPlanCipher(p, key), newCipher(key, Generic)
		run := min(p.From-1, 4)
		src := randBytes(r, goroutines*16*run*BlockSize)
		want := make([]byte, len(src))
		ref.EncryptBlocks(want, src)
		seen := make([]*Tables, goroutines)
		errs := make(chan error, goroutines)
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				in := src[g*16*run*BlockSize : (g+1)*16*run*BlockSize]
				exp := want[g*16*run*BlockSize : (g+1)*16*run*BlockSize]
				got := make([]byte, len(in))
				for i := 0; i < len(in); i += run * BlockSize {
					switch g % 3 {
					case 0:
						for j := i; j < i+run*BlockSize; j += BlockSize {
							if !c.EncryptOnce(got[j:], in[j:]) {
								c.EncryptBlocks(got[j:j+BlockSize], in[j:j+BlockSize])
							}
						}
					case 1:
						c.EncryptBlocks(got[i:i+run*BlockSize], in[i:i+run*BlockSize])
					default:
						for j := i; j < i+run*BlockSize; j += BlockSize {
							k, ks, tables := c.Single()
							if tables == nil {
								k, ks, tables = c.WarmSingle()
							}
							k.encrypt(ks, tables, got[j:j+BlockSize], in[j:j+BlockSize])
							seen[g] = tables
						}
					}
				}
				if !bytes.Equal(got, exp) {
					errs <- fmt.Errorf("goroutine %d: blocks of a new Cipher differ from generic", g)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		for g, tables := range seen {
			if tables != nil && tables != c.t.Load() {
				t.Fatalf("goroutine %d read tables that the Cipher does not keep", g)
			}
		}
	}
}

// TestPlanTablesAndSliced runs a plan whose kernels read both the tables
// and the byte-sliced S-boxes from the start (a byte-sliced kernel of
// single blocks, table kernels for short runs): New fills both layouts,
// so every run through either kernel agrees with the generic kernel.
func TestPlanTablesAndSliced(t *testing.T) {
	for _, name := range []string{"avx512-gfni", "avx512-vbmi"} {
		t.Run(name, func(t *testing.T) {
			bulk, short := Find(name), Find("amd64-3way")
			if bulk == nil || short == nil {
				t.Skipf("no %s and amd64-3way kernels in this build", name)
			}
			if !bulk.Supported {
				skipUnsupported(t, name)
			}
			p := Plan{Single: bulk, Short: short, Bulk: bulk, From: smallTail + 1}
			if l := p.layouts(); l != 1<<tablesLayout|1<<slicedLayout {
				t.Fatalf("layouts %b, want the tables and the byte-sliced S-boxes", l)
			}
			r := testRand(t)
			for _, size := range keySizes {
				key := randBytes(r, size)
				c, ref := newPlanCipher(p, key), newCipher(key, Generic)
				for _, n := range []int{1, smallTail, FusedGroup + 1, 2 * FusedGroup} {
					checkBulk(t, c, ref, r, n, 0, 0, 0)
				}
			}
		})
	}
}
