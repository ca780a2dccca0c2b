package twofish

import (
	"errors"
	"os"
	"sync"
)

// Implementation describes one kernel compiled into this build.
type Implementation struct {
	Name         string // stable name, for NewCipherImpl and TWOFISH_IMPL
	Blocks       int    // blocks one kernel call processes
	ConstantTime bool   // no secret-dependent memory addresses or branches
	Supported    bool   // this CPU and OS can run it
}

// kernel is an implementation. Its methods encrypt and decrypt, defined
// with the kernels of each architecture (dispatch_*.go), process
// len(src)/BlockSize blocks; the ladder passes them a multiple of Blocks
// unless the kernel is the last (narrowest) of its ladder. They dispatch
// with a switch rather than through function values so that the compiler
// sees every call, and buffers on the caller's stack do not escape.
type kernel struct {
	Implementation
	// narrower is the name of the kernel that takes the blocks left over,
	// "" for the last of its ladder.
	narrower string
	// ladder is this kernel followed by its narrower ones.
	ladder []*kernel
}

// generic is the portable kernel, present in every build.
var generic = &kernel{
	Implementation: Implementation{Name: "generic", Blocks: 1, Supported: true},
}

// genericCT is the portable constant-time kernel (block_generic_ct.go),
// present in every build: slow, but without secret-dependent memory
// accesses or branches on any architecture.
var genericCT = &kernel{
	Implementation: Implementation{Name: "generic-ct", Blocks: 1, ConstantTime: true, Supported: true},
}

// kernels lists every kernel of this build in order of preference.
var kernels = append(archKernels(), generic, genericCT)

func init() {
	for _, k := range kernels {
		for n := k; n != nil; n = find(n.narrower) {
			k.ladder = append(k.ladder, n)
		}
	}
}

// Implementations returns every kernel compiled into this build, in order of
// preference, and whether this CPU can run each.
func Implementations() []Implementation {
	impls := make([]Implementation, len(kernels))
	for i, k := range kernels {
		impls[i] = k.Implementation
	}
	return impls
}

func find(name string) *kernel {
	for _, k := range kernels {
		if name != "" && k.Name == name {
			return k
		}
	}
	return nil
}

// lookup returns the kernel called name if this CPU supports it.
func lookup(name string) (*kernel, error) {
	k := find(name)
	switch {
	case k == nil:
		return nil, errors.New("twofish: unknown implementation " + `"` + name + `"`)
	case !k.Supported:
		return nil, errors.New("twofish: implementation " + `"` + name + `"` + " is not supported on this CPU")
	}
	return k, nil
}

// choice is the kernel NewCipher uses in this process, and why.
type choice struct {
	kernel *kernel
	reason string
}

// selection makes the choice once per process.
var selection = sync.OnceValue(func() choice {
	env, set := os.LookupEnv("TWOFISH_IMPL")
	return choose(env, set)
})

// choose returns the CPU policy's answer, unless the TWOFISH_IMPL value env
// is set and names a supported implementation.
func choose(env string, set bool) choice {
	name, reason := policy()
	auto := choice{find(name), reason}
	if !set {
		return auto
	}
	k, err := lookup(env)
	if err != nil {
		auto.reason += "; TWOFISH_IMPL ignored: " + err.Error()
		return auto
	}
	return choice{k, "TWOFISH_IMPL=" + env + " overrides the CPU policy (" + name + ": " + reason + ")"}
}

// AutoImplementation returns the name of the implementation that NewCipher
// uses in this process and a one-line reason for the choice.
func AutoImplementation() (name, reason string) {
	c := selection()
	return c.kernel.Name, c.reason
}
