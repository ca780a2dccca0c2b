// Package asmgen is what the kernel generators share: avo's flags, the
// package that holds the stubs, and the register checks that run after
// register allocation and before anything is printed.
package asmgen

import (
	"flag"
	"fmt"
	"os"

	"github.com/mmcloughlin/avo/attr"
	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/reg"
)

// Main generates the assembly of the package pkg (an import path) with
// ctx: it parses avo's flags (-out, -stubs, -pkg) under the generator's
// name, loads the package as amd64 whatever the host (go generate passes its own GOARCH),
// sets the gc,!purego constraint, runs emit to build the functions, checks
// the allocated code with RefuseBP and then checks, and writes the output.
// It does not return.
func Main(ctx *build.Context, name, pkg string, emit func(), checks ...func(*ir.File) error) {
	// avo's build package registers its flags on flag.CommandLine; use a
	// set of our own to reach its configuration.
	fs := flag.NewFlagSet(name, flag.ExitOnError)
	flags := build.NewFlags(fs)
	fs.Parse(os.Args[1:])

	os.Setenv("GOARCH", "amd64")
	ctx.Package(pkg)
	ctx.ConstraintExpr("gc,!purego")
	emit()

	cfg := flags.Config()
	// Check the allocation before anything is printed.
	passes := []pass.Interface{cfg.Passes[0], pass.Func(RefuseBP)}
	for _, check := range checks {
		passes = append(passes, pass.Func(check))
	}
	cfg.Passes = append(passes, cfg.Passes[1:]...)
	os.Exit(build.Main(cfg, ctx))
}

// RefuseBP panics if any instruction of any function names BP (in any
// width) or the hardware SP: the kernels keep the frame-pointer convention,
// so that a profiler can unwind through them at any instruction, and never
// realign or otherwise move the stack pointer. avo marks K0, which cannot be
// a write mask, as restricted too, so this also keeps it out of the masks.
func RefuseBP(f *ir.File) error {
	for _, fn := range f.Functions() {
		for _, inst := range fn.Instructions() {
			for _, op := range inst.Operands {
				for _, r := range operand.Registers(op) {
					p := reg.ToPhysical(r)
					if p == nil {
						panic(fmt.Sprintf("%s: %s has an unallocated register", fn.Name, inst.Opcode))
					}
					if p.Info()&(reg.BasePointer|reg.Restricted) != 0 {
						panic(fmt.Sprintf("%s: %s uses %s; the kernels must not touch BP or SP",
							fn.Name, inst.Opcode, p.Asm()))
					}
				}
			}
		}
	}
	return nil
}

// Words emits a read-only constant of the 64-bit words w, called name, and
// returns it.
func Words(ctx *build.Context, name string, w ...uint64) operand.Mem {
	m := ctx.StaticGlobal(name)
	ctx.DataAttributes(attr.RODATA | attr.NOPTR)
	for _, x := range w {
		ctx.AppendDatum(operand.U64(x))
	}
	return m
}

// Bytes emits a read-only constant of n bytes (a multiple of 8), byte i
// f(i), called name, and returns it.
func Bytes(ctx *build.Context, name string, n int, f func(i int) byte) operand.Mem {
	w := make([]uint64, n/8)
	for i := range n {
		w[i/8] |= uint64(f(i)) << (8 * (i % 8))
	}
	return Words(ctx, name, w...)
}
