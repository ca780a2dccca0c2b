// Package kernel holds the Twofish block function: the key schedules, the
// portable code and the assembly kernels with their Go sides, and a Cipher
// that hands runs of blocks to a ladder of kernels. It decides nothing
// about the CPU: which kernels this CPU runs, and which one a new Cipher
// uses, are the choices of internal/cpu.
package kernel

import "github.com/twofish-go/twofish/internal/cpu"

// BlockSize is the Twofish block size in bytes.
const BlockSize = 16

// A Kernel is one implementation of the block function. Its methods
// encrypt and decrypt (dispatch_*.go) process len(src)/BlockSize blocks,
// any number: those of a kernel that pads a last partial group (pads) get
// a multiple of Blocks from a ladder, the rest of the run going on down
// it, and the others the whole run, whose rest they send down their
// ladder themselves; a plan's bulk kernel also gets the remainder of a run
// that it takes itself (Plan), and EncryptOnce a single block. They
// dispatch with a switch rather than through function values so that the
// compiler sees every call, and buffers on the caller's stack do not
// escape.
type Kernel struct {
	Name         string // stable name, for NewCipherImpl and TWOFISH_IMPL
	Blocks       int    // blocks one kernel call processes
	ConstantTime bool   // no secret-dependent memory addresses or branches
	Supported    bool   // this CPU and OS can run it (internal/cpu)
	// sliced is whether it reads byte-sliced S-boxes where the table
	// kernels read their tables (Tables.s).
	sliced bool
	// pads is whether its methods pad a last partial group into one
	// more call, as a plan's bulk kernel does with a run's rest, so that
	// its ladder sends the rest to its narrower kernel; the others take
	// that rest down their ladder themselves.
	pads bool
	// narrower is the name of the kernel that takes the blocks left over,
	// "" for the last of its ladder.
	narrower string
	// ladder is this kernel followed by its narrower ones.
	ladder []*Kernel
}

// Narrowest returns the last kernel of k's ladder, which takes any number
// of blocks: the one for single blocks.
func (k *Kernel) Narrowest() *Kernel { return k.ladder[len(k.ladder)-1] }

// Generic is the portable kernel, present in every build
// (block_generic.go). It takes runs genericBlocks at a time, interleaved:
// two blocks left over padded to three, one alone.
var Generic = &Kernel{Name: "generic", Blocks: genericBlocks, Supported: true}

// GenericCT is the portable constant-time kernel (block_generic_ct.go),
// present in every build: slow, but without secret-dependent memory
// accesses or branches on any architecture. It takes runs bitslicedBlocks
// at a time and single blocks alone.
var GenericCT = &Kernel{Name: "generic-ct", Blocks: bitslicedBlocks, ConstantTime: true, Supported: true}

// kernels lists every kernel of this build in order of preference, as
// internal/cpu lists their names.
var kernels = append(archKernels(), Generic, GenericCT)

func init() {
	for _, k := range kernels {
		k.ladder = nil
		for n := k; n != nil; n = Find(n.narrower) {
			k.ladder = append(k.ladder, n)
		}
		k.Supported = cpu.Host().Block.Supported(k.Name)
		if k.pads && len(k.ladder) < 2 {
			panic("twofish: kernel " + k.Name + " pads its rest and has no narrower kernel to take it")
		}
	}
}

// All returns every kernel of this build, in order of preference.
func All() []*Kernel { return kernels }

// Find returns the kernel called name, or nil if this build has none.
func Find(name string) *Kernel {
	for _, k := range kernels {
		if name != "" && k.Name == name {
			return k
		}
	}
	return nil
}

// Lookup returns the kernel called name if this CPU runs it.
func Lookup(name string) (*Kernel, error) {
	if err := cpu.Host().Block.Check(name); err != nil {
		return nil, err
	}
	return Find(name), nil
}
