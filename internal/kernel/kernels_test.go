package kernel

import (
	"slices"
	"testing"

	"github.com/twofish-go/twofish/internal/cpu"
)

// TestLadders checks that a pinned implementation hands leftover blocks only
// to narrower kernels of its own kind, ending in a one-block kernel, and
// that a constant-time kernel never hands work to a table kernel.
func TestLadders(t *testing.T) {
	for _, k := range All() {
		if k.ladder[0] != k {
			t.Errorf("%s: ladder starts with %s", k.Name, k.ladder[0].Name)
		}
		for i, n := range k.ladder {
			if i > 0 && n.Blocks >= k.ladder[i-1].Blocks {
				t.Errorf("%s: ladder is not narrowing at %s", k.Name, n.Name)
			}
			if k.ConstantTime && !n.ConstantTime {
				t.Errorf("constant-time %s hands blocks to table kernel %s", k.Name, n.Name)
			}
			if n.Supported != k.Supported && k.Supported {
				t.Errorf("%s is supported but its narrower %s is not", k.Name, n.Name)
			}
		}
	}
}

// TestKernelsAreThePolicyOptions checks that this package's kernels are
// internal/cpu's block options, name for name and in order: a name in one
// list and not the other would give Lookup a nil kernel, or mark a kernel
// unsupported so that its tests skip.
func TestKernelsAreThePolicyOptions(t *testing.T) {
	var names, options []string
	for _, k := range All() {
		names = append(names, k.Name)
	}
	for _, o := range cpu.Host().Block.Options {
		options = append(options, o.Name)
		if Find(o.Name) == nil {
			t.Errorf("internal/cpu's option %q is no kernel of this build", o.Name)
		}
	}
	if !slices.Equal(names, options) {
		t.Errorf("kernels %v, internal/cpu's options %v", names, options)
	}
	for _, c := range []cpu.Choice{cpu.Host().BlockCT, cpu.Host().Short, cpu.Host().Single} {
		for _, o := range c.Options {
			if Find(o.Name) == nil {
				t.Errorf("%s: option %q is no kernel of this build", c.Part, o.Name)
			}
		}
	}
}
