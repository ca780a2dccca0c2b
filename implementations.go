package twofish

import (
	"github.com/twofish-go/twofish/internal/cpu"
	"github.com/twofish-go/twofish/internal/kernel"
)

// Implementation describes one kernel compiled into this build.
type Implementation struct {
	Name         string // stable name, for NewCipherImpl and TWOFISH_IMPL
	Blocks       int    // blocks one kernel call processes
	ConstantTime bool   // no secret-dependent memory addresses or branches
	Supported    bool   // this CPU and OS can run it
}

// Implementations returns every kernel compiled into this build, in order of
// preference, and whether this CPU can run each.
func Implementations() []Implementation {
	var impls []Implementation
	for _, k := range kernel.All() {
		impls = append(impls, Implementation{k.Name, k.Blocks, k.ConstantTime, k.Supported})
	}
	return impls
}

// AutoImplementation returns the name of the implementation that NewCipher
// uses for long runs in this process (see Cipher.Paths for the others) and
// a one-line reason for the choice.
func AutoImplementation() (name, reason string) {
	b := cpu.Host().Block
	return b.Name, b.Reason
}
