package kernel

import "testing"

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
