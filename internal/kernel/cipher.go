package kernel

import (
	"math/bits"

	"github.com/twofish-go/twofish/internal/cpu"
)

// A Plan says which kernel serves each shape of work on a Cipher: Single
// takes single blocks (the root package's Encrypt and Decrypt, and so the
// serial modes), the ladder of Short takes runs of fewer than From blocks,
// and Bulk longer runs, padding a remainder after its last whole group,
// unless that is shorter than From: then it goes to Short's ladder. A
// plan with From 0, a pinned one, runs Bulk's ladder for every run.
type Plan struct {
	Single, Short, Bulk *Kernel
	From                int
}

// Pin returns the plan of k's ladder for every shape, which NewCipherImpl
// uses: single blocks go to its narrowest kernel.
func Pin(k *Kernel) Plan { return Plan{Single: k.Narrowest(), Short: k, Bulk: k} }

// Auto returns the plan that new Ciphers use in this process, as
// internal/cpu chose it for each shape.
func Auto() Plan { return planFor(cpu.Host()) }

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
// internal/cpu chose for this process, for every shape.
func AutoConstantTime() Plan { return Pin(Find(cpu.Host().BlockCT.Name)) }

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
	// ks is what every kernel of the plan reads, in one allocation.
	ks   *Schedule
	plan Plan
}

// ErrNoKey is the panic of every operation on a Cipher that was never
// given a key.
const ErrNoKey = "twofish: use of a Cipher without a key (make one with NewCipher)"

// New returns a new H with its Cipher, which c finds in it, keyed with key
// (16, 24 or 32 bytes) for the kernels of p: the H and the schedule, with
// room for exactly the layouts the kernels read, are one allocation, as
// x/crypto's Cipher is. A plan may mix table kernels with constant-time
// ones of one layout, not constant-time ones of two, which keep their key
// material in the same bytes.
func New[H any](p Plan, key []byte, c func(*H) *Cipher) *H {
	l := p.layouts()
	if n := bits.OnesCount8(uint8(l &^ (1 << tablesLayout))); n > 1 {
		panic("twofish: plan of " + p.Single.Name + ", " + p.Short.Name + " and " + p.Bulk.Name + " cannot share a schedule")
	}
	h, ks := allocate[H](l)
	ks.expand(l, key)
	*c(h) = Cipher{ks: ks, plan: p}
	return h
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

// Single returns the kernel of single blocks, nil if c has no key; it
// reads Schedule.
func (c *Cipher) Single() *Kernel { return c.plan.Single }

// Schedule returns the expanded key that c's kernels read, nil if c has
// no key.
func (c *Cipher) Schedule() *Schedule { return c.ks }

// EncryptBlocks encrypts the whole blocks of src into dst, which must be at
// least as long, as c's plan says. Callers check lengths and overlap; in
// place is allowed.
func (c *Cipher) EncryptBlocks(dst, src []byte) {
	p := &c.plan
	switch {
	case p.Bulk == nil:
		panic(ErrNoKey)
	case p.From == 0: // a pinned ladder
		p.Bulk.encryptLadder(c.ks, dst, src)
		return
	}
	if n := p.bulkBlocks(len(src)/BlockSize) * BlockSize; n > 0 {
		p.Bulk.encrypt(c.ks, dst[:n], src[:n])
		dst, src = dst[n:], src[n:]
	}
	if len(src) >= BlockSize {
		p.Short.encryptLadder(c.ks, dst, src)
	}
}

// DecryptBlocks is the inverse of EncryptBlocks.
func (c *Cipher) DecryptBlocks(dst, src []byte) {
	p := &c.plan
	switch {
	case p.Bulk == nil:
		panic(ErrNoKey)
	case p.From == 0:
		p.Bulk.decryptLadder(c.ks, dst, src)
		return
	}
	if n := p.bulkBlocks(len(src)/BlockSize) * BlockSize; n > 0 {
		p.Bulk.decrypt(c.ks, dst[:n], src[:n])
		dst, src = dst[n:], src[n:]
	}
	if len(src) >= BlockSize {
		p.Short.decryptLadder(c.ks, dst, src)
	}
}

// bulkBlocks returns how many of a run of n blocks the bulk kernel takes,
// for a plan with a crossover (From > 0): none of a run shorter than From,
// and of a longer one all but a remainder after its last whole group that
// is shorter than From. A remainder it takes, the kernel pads to a group.
func (p *Plan) bulkBlocks(n int) int {
	if n < p.From {
		return 0
	}
	if r := n % p.Bulk.Blocks; r < p.From {
		return n - r
	}
	return n
}

// encryptLadder encrypts the whole blocks of src through k's ladder: each
// kernel takes as many blocks as fit its width, and the last one the rest.
func (k *Kernel) encryptLadder(ks *Schedule, dst, src []byte) {
	for i, step := range k.ladder {
		n := len(src)
		if i < len(k.ladder)-1 {
			n -= n % (step.Blocks * BlockSize)
		}
		if n > 0 {
			step.encrypt(ks, dst[:n], src[:n])
			dst, src = dst[n:], src[n:]
		}
	}
}

// decryptLadder is the inverse of encryptLadder.
func (k *Kernel) decryptLadder(ks *Schedule, dst, src []byte) {
	for i, step := range k.ladder {
		n := len(src)
		if i < len(k.ladder)-1 {
			n -= n % (step.Blocks * BlockSize)
		}
		if n > 0 {
			step.decrypt(ks, dst[:n], src[:n])
			dst, src = dst[n:], src[n:]
		}
	}
}
