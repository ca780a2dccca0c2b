package cpuclock

import (
	"math"
	"testing"
)

// TestMHz checks that a measurement is a positive, finite rate, or 0 where
// none can be made. Its size depends on the machine, its load and its
// power state, so the test asserts nothing about it.
func TestMHz(t *testing.T) {
	mhz := MHz()
	if !Available() {
		if mhz != 0 {
			t.Errorf("MHz() = %v without a measurement, want 0", mhz)
		}
		t.Skip("cpuclock: no clock measurement in this build (needs amd64 assembly)")
	}
	t.Logf("MHz() = %.0f", mhz)
	if !(mhz > 0) || math.IsInf(mhz, 0) {
		t.Errorf("MHz() = %v, want a positive, finite rate", mhz)
	}
}
