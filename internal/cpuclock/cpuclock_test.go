package cpuclock

import "testing"

// TestMHz checks that the measured clock is plausible for a CPU of this
// century.
func TestMHz(t *testing.T) {
	if !Available() {
		if got := MHz(); got != 0 {
			t.Errorf("MHz() = %v without a measurement, want 0", got)
		}
		t.Skip("cpuclock: no clock measurement in this build (needs amd64 assembly)")
	}
	mhz := MHz()
	t.Logf("MHz() = %.0f", mhz)
	if mhz < 100 || mhz > 10000 {
		t.Errorf("MHz() = %.0f, want between 100 and 10000", mhz)
	}
}
