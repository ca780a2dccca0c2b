package main

import (
	"testing"

	"github.com/twofish-go/twofish"
)

// TestBenchCipherOfImpl checks the ciphers bench measures for -impl auto
// and ct: NewCipher's and NewCipherConstantTime's, with their paths, and
// for XTS the constant-time one where ct asks for it.
func TestBenchCipherOfImpl(t *testing.T) {
	key := benchKey(128)
	def, _ := twofish.NewCipher(key)
	ct, _ := twofish.NewCipherConstantTime(key)
	for impl, want := range map[string]*twofish.Cipher{"auto": def, "ct": ct} {
		c, err := newCipher(impl, key)
		if err != nil {
			t.Fatal(err)
		}
		if c.Paths() != want.Paths() || c.ConstantTime() != want.ConstantTime() {
			t.Errorf("-impl %s: paths %+v, want %+v", impl, c.Paths(), want.Paths())
		}
	}
	xDef, _ := twofish.NewXTS(benchKey(256))
	for impl, want := range map[string]bool{"auto": xDef.ConstantTime(), "ct": true} {
		x, err := newXTS(impl, benchKey(256))
		if err != nil {
			t.Fatal(err)
		}
		if x.ConstantTime() != want {
			t.Errorf("-impl %s: XTS constant-time %v, want %v", impl, x.ConstantTime(), want)
		}
	}
}
