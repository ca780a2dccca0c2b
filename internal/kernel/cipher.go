package kernel

import (
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/twofish-go/twofish/internal/cpu"
)

// A Plan says which kernel serves each shape of work on a Cipher: Single
// takes single blocks (the root package's Encrypt and Decrypt, and so the
// serial modes), the ladder of Short takes runs of fewer than From blocks,
// and Bulk longer runs, taking a remainder after its last whole group
// itself (padded to a group, masked within one, or in its narrower
// kernels), unless that is shorter than From: then it goes to Short's
// ladder. A
// plan with From 0, a pinned one, runs Bulk's ladder for every run.
type Plan struct {
	Single, Short, Bulk *Kernel
	From                int
}

// Pin returns the plan of k's ladder for every shape, which NewCipherImpl
// uses: single blocks go to its narrowest kernel.
func Pin(k *Kernel) Plan { return Plan{Single: k.Narrowest(), Short: k, Bulk: k} }

// Auto returns the plan that new Ciphers use in this process, as
// internal/cpu chose it for each shape. It is worked out once: looking the
// three kernels up by name for every key took 50 ns of NewCipher's 585
// (Zen 5, 256-bit keys).
var Auto = sync.OnceValue(func() Plan { return planFor(cpu.Host()) })

// planFor returns the plan of the choices c.
func planFor(h cpu.Choices) Plan {
	return Plan{
		Single: Find(h.Single.Name).Narrowest(),
		Short:  Find(h.Short.Name),
		Bulk:   Find(h.Block.Name),
		From:   h.Short.Below,
	}
}

// AutoConstantTime returns the plan of the constant-time kernel that
// internal/cpu chose for this process, for every shape; worked out once,
// as Auto.
var AutoConstantTime = sync.OnceValue(func() Plan { return Pin(Find(cpu.Host().BlockCT.Name)) })

// ConstantTime reports whether no kernel of p's ladders looks tables up.
func (p Plan) ConstantTime() bool {
	for _, k := range []*Kernel{p.Single, p.Short, p.Bulk} {
		for _, n := range k.ladder {
			if !n.ConstantTime {
				return false
			}
		}
	}
	return true
}

// A Cipher is an expanded key with the plan of kernels that read it. Its
// zero value has no plan: Keyed reports false, and EncryptBlocks and
// DecryptBlocks panic rather than pass data through unencrypted.
type Cipher struct {
	// ks is what the plan's kernels read, in one allocation with the
	// Cipher, but for the tables of a plan whose bulk kernel reads none,
	// which are built on use (New).
	ks *Schedule
	// t is the table kernels' tables: before ks, or built on use, nil
	// until then; noTables where the plan has no table kernel.
	t    atomic.Pointer[Tables]
	plan Plan
}

// noTables is the tables of a plan without table kernels, which none
// reads: a Cipher's nil tables mean only that they are yet to be built.
var noTables Tables

// ErrNoKey is the panic of every operation on a Cipher that was never
// given a key.
const ErrNoKey = "twofish: use of a Cipher without a key (make one with NewCipher)"

// New returns a new H with its Cipher, which c finds in it, keyed with key
// (16, 24 or 32 bytes) for the kernels of p: the H and the schedule, with
// room for exactly the layouts the kernels read, are one allocation, as
// x/crypto's Cipher is. A plan may mix table kernels with constant-time
// ones of one layout, not constant-time ones of two, which keep their key
// material in the same bytes.
//
// Where p's bulk kernel reads byte-sliced S-boxes and its single-block
// kernel tables, the tables are left out, and built from those S-boxes
// when first needed (warmLimit): they are four fifths of the schedule's
// bytes and of a new key's cost, which a key used for a few long messages
// need never pay.
func New[H any](p Plan, key []byte, c func(*H) *Cipher) *H {
	l := p.layouts()
	if n := bits.OnesCount8(uint8(l &^ (1 << tablesLayout))); n > 1 {
		panic("twofish: plan of " + p.Single.Name + ", " + p.Short.Name + " and " + p.Bulk.Name + " cannot share a schedule")
	}
	lazy := p.Single.layout() == tablesLayout && p.Bulk.layout() == slicedLayout
	if lazy {
		l &^= 1 << tablesLayout
	}
	h, ks := allocate[H](l)
	ks.expand(l, key)
	x := c(h)
	x.ks, x.plan = ks, p
	switch {
	case !l.has(tablesLayout) && !lazy:
		x.t.Store(&noTables)
	case !lazy:
		x.t.Store(ks.tables())
	}
	return h
}

// A Cipher whose tables are built on use builds them for its first single
// block, but lets the bulk kernel's ladder do the blocks of a mode's setup
// (Cipher.EncryptOnce: GCM's hash key, OCB's offsets and tag) and of short
// runs while their cost stays below what building the tables costs (0.6-0.9
// us with the allocation of 4,096 bytes): it counts setupWeight for each
// such block, as one takes 160-230 ns with avx512-gfni's single-block
// kernel or avx512-vbmi's narrowest against 60-68 ns with the table kernel,
// and 1 for each block of a short run, which costs 10-30 ns more (Zen 5,
// go test -run '^$' -bench 'Encrypt/impl=.*/key=256/size=16$' .). So a
// new key for one GCM or OCB message never builds them, and a key that
// keeps encrypting builds them within a few messages.
const (
	setupWeight = 4
	warmLimit   = 24
)

// tablesFor returns the table kernels' tables for work of weight w,
// building them once the weights c has counted pass warmLimit, or nil if
// the bulk kernel's ladder is to do the work instead.
func (c *Cipher) tablesFor(w int) *Tables {
	if t := c.t.Load(); t != nil {
		return t
	}
	if c.ks.warm().Add(uint32(w)) <= warmLimit {
		return nil
	}
	return c.buildTables()
}

// buildTables builds the tables that c's plan left out, and returns them,
// or the ones another goroutine built first (before this call, or while
// it built its own).
func (c *Cipher) buildTables() *Tables {
	if t := c.t.Load(); t != nil {
		return t
	}
	t := new(Tables)
	t.fromSliced(c.ks)
	if !c.t.CompareAndSwap(nil, t) {
		return c.t.Load()
	}
	return t
}

// EncryptOnce encrypts the first block of src into dst, one of a mode's
// setup, with the bulk kernel's ladder, and reports true, where c's
// single-block kernel waits for tables that c has yet to build and the
// ladder has not done too much of their work (setupWeight); it reports
// false where the caller is to use the single-block kernel.
func (c *Cipher) EncryptOnce(dst, src []byte) bool {
	if c.t.Load() != nil || c.plan.Bulk == nil || c.tablesFor(setupWeight) != nil {
		return false
	}
	c.plan.Bulk.cryptLadder(c.ks, nil, dst[:BlockSize], src[:BlockSize], false)
	return true
}

// Single returns the kernel of single blocks, the schedule it reads and
// the tables of table kernels. The tables are nil where c has no key, or
// has yet to build the tables the kernel reads: then WarmSingle says which
// kernel takes the block. Single is small enough to inline into the root
// package's Encrypt and Decrypt.
func (c *Cipher) Single() (*Kernel, *Schedule, *Tables) {
	return c.plan.Single, c.ks, c.t.Load()
}

// WarmSingle returns what Single does where Single's tables are nil:
// Single's kernel with the tables it builds, or nils if c has no key.
func (c *Cipher) WarmSingle() (*Kernel, *Schedule, *Tables) {
	if c.plan.Bulk == nil {
		return nil, nil, nil
	}
	return c.plan.Single, c.ks, c.buildTables()
}

// short returns the ladder for a run of n blocks that the plan gives its
// short kernel, and the tables it reads.
func (c *Cipher) short(n int) (*Kernel, *Tables) {
	k := c.plan.Short
	if k.layout() != tablesLayout {
		return k, c.t.Load()
	}
	if t := c.tablesFor(n); t != nil {
		return k, t
	}
	return c.plan.Bulk, nil
}

// expand computes the schedule of key for the layouts l into ks.
func (ks *Schedule) expand(l layoutSet, key []byte) {
	switch {
	case l.has(tablesLayout):
		// A table kernel looks the key's S-boxes up at secret indexes
		// anyway, so one pass of the table schedule fills every layout;
		// the vector schedule, where the CPU has it, fills both at once
		// too.
		if !expandVector(ks, true, l.has(slicedLayout), key) {
			ks.expandTables(key, l.has(slicedLayout))
		}
		if l.has(nibblesLayout) {
			ks.nibbles().setKey(splitKey(key))
		}
		if l.has(packedLayout) {
			ks.packed().setKey(splitKey(key))
		}
	// Constant-time kernels only: the schedule of their layout, which
	// looks nothing up at a secret index.
	case l.has(slicedLayout):
		if !expandVector(ks, false, true, key) {
			ks.expandSliced(key)
		}
	case l.has(nibblesLayout):
		ks.expandCT(key)
	default:
		ks.expandPacked(key)
	}
}

// The layouts of key material beside the subkeys of a Schedule: the
// MDS·S-box tables, the byte-sliced S-boxes, avx2-ct's nibble tables or
// generic-ct's packed ones.
const (
	tablesLayout = iota
	slicedLayout
	nibblesLayout
	packedLayout
)

// A layoutSet has bit l set for each layout l that a plan's kernels read.
type layoutSet uint8

func (s layoutSet) has(l int) bool { return s&(1<<l) != 0 }

// layouts returns the layouts that the kernels of p's ladders read.
func (p Plan) layouts() layoutSet {
	var l layoutSet
	for _, k := range [...]*Kernel{p.Single, p.Short, p.Bulk} {
		for _, n := range k.ladder {
			l |= 1 << n.layout()
		}
	}
	return l
}

func (k *Kernel) layout() int {
	switch {
	case k.sliced:
		return slicedLayout
	case k == GenericCT:
		return packedLayout
	case k.ConstantTime:
		return nibblesLayout
	}
	return tablesLayout
}

// Keyed reports whether c was given a key.
func (c *Cipher) Keyed() bool { return c.plan.Bulk != nil }

// Plan returns c's plan, the zero Plan if c has no key.
func (c *Cipher) Plan() Plan { return c.plan }

// Head returns the bulk kernel, nil if c has no key.
func (c *Cipher) Head() *Kernel { return c.plan.Bulk }

// ConstantTime reports whether every kernel of c's plan is constant-time,
// so that no block of c meets a table look-up; false if c has no key.
func (c *Cipher) ConstantTime() bool { return c.Keyed() && c.plan.ConstantTime() }

// EncryptBlocks encrypts the whole blocks of src into dst, which must be at
// least as long, as c's plan says. Callers check lengths and overlap; in
// place is allowed.
func (c *Cipher) EncryptBlocks(dst, src []byte) {
	p := &c.plan
	switch {
	case p.Bulk == nil:
		panic(ErrNoKey)
	case p.From == 0: // a pinned ladder
		p.Bulk.cryptLadder(c.ks, c.t.Load(), dst, src, false)
		return
	}
	if n := p.bulkBlocks(len(src)/BlockSize) * BlockSize; n > 0 {
		p.Bulk.encrypt(c.ks, c.t.Load(), dst[:n], src[:n])
		dst, src = dst[n:], src[n:]
	}
	if len(src) >= BlockSize {
		k, t := c.short(len(src) / BlockSize)
		k.cryptLadder(c.ks, t, dst, src, false)
	}
}

// DecryptBlocks is the inverse of EncryptBlocks.
func (c *Cipher) DecryptBlocks(dst, src []byte) {
	p := &c.plan
	switch {
	case p.Bulk == nil:
		panic(ErrNoKey)
	case p.From == 0:
		p.Bulk.cryptLadder(c.ks, c.t.Load(), dst, src, true)
		return
	}
	if n := p.bulkBlocks(len(src)/BlockSize) * BlockSize; n > 0 {
		p.Bulk.decrypt(c.ks, c.t.Load(), dst[:n], src[:n])
		dst, src = dst[n:], src[n:]
	}
	if len(src) >= BlockSize {
		k, t := c.short(len(src) / BlockSize)
		k.cryptLadder(c.ks, t, dst, src, true)
	}
}

// bulkBlocks returns how many of a run of n blocks the bulk kernel takes,
// for a plan with a crossover (From > 0): none of a run shorter than From,
// and of a longer one all but a remainder after its last whole group that
// is shorter than From. A remainder it takes, the kernel pads to a group,
// masks within one or gives to its narrower kernels.
func (p *Plan) bulkBlocks(n int) int {
	if n < p.From {
		return 0
	}
	if r := n % p.Bulk.Blocks; r < p.From {
		return n - r
	}
	return n
}

// cryptLadder encrypts the whole blocks of src through k's ladder, or
// decrypts them if dec: each kernel takes as many blocks as fit its width,
// and the last one the rest. Its table kernels read the tables t. A kernel
// that sends its own rest down its ladder (all but those that pad it,
// Kernel.pads) takes the whole run in one call, which saves 3-4% of a run
// of 1 to 5 blocks on the 3-way kernel against a loop over its ladder (Zen
// 5, BenchmarkRuns).
func (k *Kernel) cryptLadder(ks *Schedule, t *Tables, dst, src []byte, dec bool) {
	for {
		n := len(src)
		if k.pads {
			n -= n % (k.Blocks * BlockSize)
		}
		if n > 0 {
			if dec {
				k.decrypt(ks, t, dst[:n], src[:n])
			} else {
				k.encrypt(ks, t, dst[:n], src[:n])
			}
		}
		if !k.pads {
			return
		}
		dst, src = dst[n:], src[n:]
		k = k.ladder[1]
	}
}
