package main

import (
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/reg"

	"github.com/twofish-go/twofish/_asm/internal/checktest"
)

// TestRefuseEVEX: the avx2 kernels' VEX instructions can name X0-X15 and
// Y0-Y15 only, and refuseEVEX stops a kernel that names another.
func TestRefuseEVEX(t *testing.T) {
	for _, tc := range []struct {
		name string
		body func(b *build.Context)
		want string // in refuseEVEX's panic; "" for none
	}{
		{"Y0-Y15", func(b *build.Context) { b.VPXOR(reg.Y0, reg.Y15, reg.Y15) }, ""},
		{"Y16", func(b *build.Context) { b.VPXOR(reg.Y16, reg.Y2, reg.Y2) }, "uses Y16, which needs EVEX"},
		{"X31", func(b *build.Context) { b.VPXOR(reg.X1, reg.X2, reg.X31) }, "uses X31, which needs EVEX"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checktest.Expect(t, refuseEVEX, "func()", tc.body, tc.want)
		})
	}
}
