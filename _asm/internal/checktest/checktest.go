// Package checktest runs the generators' checks of allocated code on
// functions that tests build: the checks panic on what they refuse, as a
// generator should stop, and a test wants their message.
package checktest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/pass"
)

// Expect builds the function kernel with the signature sig and the
// instructions body writes before its RET, compiles it as the generators
// do (avo's register allocation included), and runs check on it: with
// want "", check must pass it; else check must refuse it with a message
// that contains want.
func Expect(t *testing.T, check func(*ir.File) error, sig string, body func(b *build.Context), want string) {
	t.Helper()
	got := refusal(t, check, sig, body)
	switch {
	case want == "" && got != "":
		t.Errorf("the check refused a function that keeps its rules: %s", got)
	case want != "" && got == "":
		t.Errorf("the check passed a function it should refuse with %q", want)
	case want != "" && !strings.Contains(got, want):
		t.Errorf("the check said %q, want it to say %q", got, want)
	}
}

// refusal returns what check refused the function with, or "" if it
// passed.
func refusal(t *testing.T, check func(*ir.File) error, sig string, body func(b *build.Context)) (refusal string) {
	t.Helper()
	b := build.NewContext()
	b.Function("kernel")
	b.SignatureExpr(sig)
	body(b)
	b.RET()
	f, err := b.Result()
	if err != nil {
		t.Fatal(err)
	}
	if err := pass.Compile.Execute(f); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if r := recover(); r != nil {
			refusal = fmt.Sprint(r)
		}
	}()
	if err := check(f); err != nil {
		return err.Error()
	}
	return ""
}
