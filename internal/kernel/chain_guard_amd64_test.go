//go:build (linux || darwin) && gc && !purego

package kernel

import (
	"fmt"
	"testing"
)

// TestChainBodiesGuarded runs TestChainGuarded with both bodies of the
// 1-way kernels, of which TestChainGuarded meets only this CPU's.
func TestChainBodiesGuarded(t *testing.T) {
	for _, k := range []*Kernel{AMD64x1, AMD64x1BMI} {
		t.Run(fmt.Sprintf("bmi=%v", k == AMD64x1BMI), func(t *testing.T) {
			if !k.Supported {
				t.Skip(noBMI)
			}
			checkChainGuarded(t, k)
		})
	}
}
