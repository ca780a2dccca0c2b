package kernel

import "github.com/twofish-go/twofish/internal/cpu"

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
	// ks is what the single and short kernels read, and the bulk kernel
	// too unless bulk is set.
	ks Schedule
	// bulk is the bulk kernel's own schedule where it cannot share ks:
	// avx512-vbmi keeps its byte-sliced S-boxes where the table kernels
	// keep their tables.
	bulk *Schedule
	plan Plan
}

// ErrNoKey is the panic of every operation on a Cipher that was never
// given a key.
const ErrNoKey = "twofish: use of a Cipher without a key (make one with NewCipher)"

// Init expands key (16, 24 or 32 bytes) for the kernels of p. The single
// and short kernels must be able to share one schedule.
func (c *Cipher) Init(p Plan, key []byte) {
	c.plan, c.bulk = p, nil
	if conflict(p.Short, p.Single) {
		panic("twofish: plan of " + p.Single.Name + " and " + p.Short.Name + " cannot share a schedule")
	}
	bulk := &c.ks
	if conflict(p.Bulk, p.Single) || conflict(p.Bulk, p.Short) {
		c.bulk = new(Schedule)
		bulk = c.bulk
	}
	// to[l] is the schedule that the kernels of layout l read, by[l] one
	// of those kernels.
	var to [3]*Schedule
	var by [3]*Kernel
	for i, k := range [...]*Kernel{p.Single, p.Short, p.Bulk} {
		ks := &c.ks
		if i == 2 {
			ks = bulk
		}
		to[k.layout()], by[k.layout()] = ks, k
	}
	tables := to[tablesLayout]
	if tables == nil {
		// Constant-time kernels only: each layout from its own schedule,
		// which looks nothing up at a secret index.
		for l, k := range by {
			if k != nil {
				k.expandKey(to[l], key)
			}
		}
		return
	}
	// A table kernel looks the key's S-boxes up at secret indexes anyway,
	// so one pass of the table schedule fills every layout; the vector
	// schedule, where the CPU has it, fills both at once too.
	if !expandVector(tables, to[slicedLayout], key) {
		tables.expandTables(key, to[slicedLayout])
	}
	if ks := to[nibblesLayout]; ks != nil {
		ks.k = tables.k
		ks.ct.setKey(splitKey(key))
	}
}

// The layouts of key material in a Schedule: the MDS·S-box tables in s,
// the byte-sliced S-boxes at slicedOffset, or the nibble tables in ct;
// all three read the subkeys in k.
const (
	tablesLayout = iota
	slicedLayout
	nibblesLayout
)

func (k *Kernel) layout() int {
	switch {
	case k.sliced:
		return slicedLayout
	case k.ConstantTime:
		return nibblesLayout
	}
	return tablesLayout
}

// conflict reports whether a and b need different contents of the same
// part of a Schedule: the byte-sliced S-boxes and the nibble tables share
// ct's bytes; the tables have s to themselves.
func conflict(a, b *Kernel) bool {
	return a.layout() != b.layout() && a.layout() != tablesLayout && b.layout() != tablesLayout
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

// Schedule returns the expanded key of c's single and short kernels.
func (c *Cipher) Schedule() *Schedule { return &c.ks }

// bulkSchedule returns the expanded key of c's bulk kernel.
func (c *Cipher) bulkSchedule() *Schedule {
	if c.bulk != nil {
		return c.bulk
	}
	return &c.ks
}

// EncryptBlocks encrypts the whole blocks of src into dst, which must be at
// least as long, as c's plan says. Callers check lengths and overlap; in
// place is allowed.
func (c *Cipher) EncryptBlocks(dst, src []byte) {
	p := &c.plan
	switch {
	case p.Bulk == nil:
		panic(ErrNoKey)
	case p.From == 0: // a pinned ladder
		p.Bulk.encryptLadder(c.bulkSchedule(), dst, src)
		return
	}
	if n := p.bulkBlocks(len(src)/BlockSize) * BlockSize; n > 0 {
		p.Bulk.encrypt(c.bulkSchedule(), dst[:n], src[:n])
		dst, src = dst[n:], src[n:]
	}
	if len(src) >= BlockSize {
		p.Short.encryptLadder(&c.ks, dst, src)
	}
}

// DecryptBlocks is the inverse of EncryptBlocks.
func (c *Cipher) DecryptBlocks(dst, src []byte) {
	p := &c.plan
	switch {
	case p.Bulk == nil:
		panic(ErrNoKey)
	case p.From == 0:
		p.Bulk.decryptLadder(c.bulkSchedule(), dst, src)
		return
	}
	if n := p.bulkBlocks(len(src)/BlockSize) * BlockSize; n > 0 {
		p.Bulk.decrypt(c.bulkSchedule(), dst[:n], src[:n])
		dst, src = dst[n:], src[n:]
	}
	if len(src) >= BlockSize {
		p.Short.decryptLadder(&c.ks, dst, src)
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
