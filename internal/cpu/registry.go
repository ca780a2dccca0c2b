// Package cpu is the one place that decides what runs on this processor.
// From the facts of a CPU alone (CPUID, through klauspost/cpuid, less what
// the operating system does not keep safe and what GODEBUG's cpu.* options
// turn off, and Linux's Gather Data Sampling status) it makes every
// CPU-dependent choice of the module: the kernels a new Cipher runs for
// each shape of work (long runs, short runs, single blocks), the
// constant-time one, the body of the 1-way kernels, GHASH's kernel, OCB's
// offset passes and the key schedule. Decide
// is a pure function, so each rule is tested on the facts of any CPU; Host
// applies it to this machine once per process, with the TWOFISH_IMPL
// override. The packages that hold the code (internal/kernel,
// internal/ghash) only look their choice up here; tests reach every other
// implementation by name, never by changing what was chosen.
package cpu

import (
	"errors"
	"os"
	"slices"
	"sync"
)

// The parts that have implementations to choose from.
const (
	Block    = "block"               // the kernel of NewCipher's long runs, which heads its ladder
	Short    = "short runs"          // the one of runs of fewer than Choice.Below blocks
	Single   = "single blocks"       // the one of Encrypt, Decrypt and the serial modes
	BlockCT  = "constant-time block" // the one of every shape of NewCipherConstantTime
	Scalar   = "scalar body"         // the body of the 1-way kernels
	GHASH    = "ghash"               // GCM's hash
	OCBMask  = "ocb offsets"         // OCB's passes that apply the offsets
	KeySched = "key schedule"        // the S-boxes and subkeys of a new key
)

// A Choice is the decision for one part: the implementations this build
// has, in order of preference, whether this CPU runs each, and the one
// chosen with the reason.
type Choice struct {
	Part    string
	Name    string // the implementation chosen
	Reason  string // why, in one line
	Options []Option
	// Below is, for short runs, the run length in blocks from which the
	// block kernel takes over; 0 where it takes every run.
	Below int
}

// An Option is one implementation of a part in this build.
type Option struct {
	Name      string
	Supported bool // the CPU of the facts runs it
}

// Supported reports whether name is an option of c that the CPU runs.
func (c Choice) Supported(name string) bool {
	i := slices.IndexFunc(c.Options, func(o Option) bool { return o.Name == name })
	return i >= 0 && c.Options[i].Supported
}

// Has reports whether name is an option of c in this build.
func (c Choice) Has(name string) bool {
	return slices.ContainsFunc(c.Options, func(o Option) bool { return o.Name == name })
}

// Choices are every CPU-dependent decision, one Choice per part.
type Choices struct {
	Block, Short, Single, BlockCT, Scalar, GHASH, OCBMask, KeySched Choice
}

// All returns the choices in a fixed order, for reports.
func (c Choices) All() []Choice {
	return []Choice{c.Block, c.Short, c.Single, c.BlockCT, c.Scalar, c.GHASH, c.OCBMask, c.KeySched}
}

// Decide makes every choice for a CPU with the facts f, from this build's
// implementations (build_*.go).
func Decide(f Facts) Choices {
	options := func(part string, names []string) []Option {
		opts := make([]Option, len(names))
		for i, name := range names {
			opts[i] = Option{name, supports(f, part, name)}
		}
		return opts
	}
	first := func(part string, names []string, why string) Choice {
		c := Choice{Part: part, Options: options(part, names)}
		for _, o := range c.Options {
			if o.Supported {
				c.Name, c.Reason = o.Name, why
				break
			}
		}
		return c
	}
	c := Choices{
		Block:  Choice{Part: Block, Options: options(Block, blockImpls)},
		Short:  Choice{Part: Short, Options: options(Short, blockImpls)},
		Single: Choice{Part: Single, Options: options(Single, blockImpls)},
		BlockCT: first(BlockCT, blockCTImpls,
			"the fastest constant-time kernel this CPU runs: no secret-dependent memory access or branch, and TWOFISH_IMPL does not apply"),
		Scalar:   first(Scalar, scalarImpls, scalarWhy),
		GHASH:    first(GHASH, ghashImpls, "the widest carry-less multiplication this CPU runs"),
		OCBMask:  ocbMaskPolicy(f, first(OCBMask, ocbMaskImpls, "the widest vectors this CPU runs")),
		KeySched: first(KeySched, keySchedImpls, ""),
	}
	c.KeySched.Reason = keySchedReason(c.KeySched.Name)
	var s shape
	switch {
	case c.Block.Has("amd64-3way"):
		c.Block.Name, c.Block.Reason = blockPolicy(f)
		s = shapePolicy(c.Block.Name)
	case c.Block.Has("arm64-1way"):
		c.Block.Name, c.Block.Reason, s = arm64Policy()
	default:
		const why = "no assembly kernels in this build"
		c.Block.Name, c.Block.Reason = "generic", why
		s = shape{single: "generic", singleWhy: why, short: "generic", shortWhy: why}
	}
	c.Short.Name, c.Short.Below, c.Short.Reason = s.short, s.below, s.shortWhy
	c.Single.Name, c.Single.Reason = s.single, s.singleWhy
	return c
}

// ocbMaskPolicy returns c, the first OCB offset pass the CPU runs, unless
// that is the zmm one on a CPU with AVX-512 but without VBMI (Skylake-SP to
// Cooper Lake, Knights Landing): there no block kernel uses zmm registers,
// and zmm instructions lower those cores' clock for all the code they run
// for a while after, so the AVX2 passes take OCB's offsets. libgcrypt's
// hwf-x86.c enables none of its AVX-512 code on those CPUs for that reason
// (it asks for VBMI, VBMI2, VNNI, BITALG and more).
func ocbMaskPolicy(f Facts, c Choice) Choice {
	if c.Name == "avx512" && !f.AVX512VBMI && c.Supported("avx2") {
		c.Name, c.Reason = "avx2", "AVX-512 without VBMI (Skylake-SP to Cooper Lake): no zmm instructions, which lower those cores' clock"
	}
	return c
}

// keySchedReason is the reason of the key schedule name's choice: the
// first of keySchedImpls that the CPU runs.
func keySchedReason(name string) string {
	switch name {
	case "avx512-vbmi":
		return "the first this CPU runs, with no secret-indexed access: the S-boxes 64 entries at a time in zmm registers, 8.5-9.4x the Go table pass on Zen 5 (BenchmarkExpand)"
	case "avx2":
		return "the first this CPU runs, with no secret-indexed access: the table kernels' S-boxes 32 entries at a time from q0's and q1's t-boxes with VPSHUFB, 4.7-6.5x the Go table pass on Zen 5 (BenchmarkExpand, rows avx2 and tables), and the constant-time layouts' subkeys the same way"
	}
	return "no vector schedule for this CPU in this build: Go code, which looks the table kernels' S-boxes up by key bytes (those kernels index key-dependent tables anyway) and builds the constant-time kernels' layouts with no secret-indexed access"
}

// supports reports whether a CPU with the facts f runs the implementation
// name of part: exactly the features of the "Requires" line of its
// assembly. Portable implementations run everywhere.
func supports(f Facts, part, name string) bool {
	avx2 := f.AVX2 && f.OSYMM
	avx512 := avx2 && f.AVX512F && f.OSZMM
	if part == BlockCT || part == Short || part == Single {
		part = Block
	}
	switch part + "/" + name {
	case Block + "/avx512-vbmi":
		return avx512 && f.AVX512BW && f.AVX512VL && f.AVX512VBMI
	case Block + "/avx512-gfni":
		return avx512 && f.AVX512BW && f.AVX512VL && f.AVX512VBMI && f.GFNI && f.VPCLMULQDQ
	case Block + "/avx2-ct", Block + "/avx2-gather", Block + "/avx2-vpgather":
		return avx2
	case Scalar + "/bmi":
		return f.BMI1 && f.BMI2
	case GHASH + "/avx512-vpclmulqdq":
		return avx512 && f.AVX512BW && f.CLMUL && f.VPCLMULQDQ
	case GHASH + "/avx2-vpclmulqdq":
		return avx2 && f.CLMUL && f.VPCLMULQDQ
	case GHASH + "/pclmulqdq":
		return f.CLMUL && f.SSSE3
	case KeySched + "/avx512-vbmi":
		return avx512 && f.AVX512BW && f.AVX512VBMI
	case KeySched + "/avx2":
		return avx2
	case OCBMask + "/avx512":
		return avx512
	case OCBMask + "/avx2":
		return avx2
	case GHASH + "/pmull":
		return f.ASIMD && f.PMULL
	case Block + "/arm64-neon":
		return f.ASIMD
	}
	return true // baseline x86-64 or arm64 (the table kernels), or portable Go
}

// Host returns the choices for this machine, made once per process. The
// TWOFISH_IMPL environment variable, if set to an implementation of the
// block part that this CPU runs, pins every shape to that kernel and the
// narrower ones of its family, as NewCipherImpl does; if set to anything
// else but the empty string, which counts as unset (TWOFISH_IMPL= clears
// it in a shell, as GOFLAGS= does), the reason says that it was ignored,
// and why.
var Host = sync.OnceValue(func() Choices {
	env, set := os.LookupEnv("TWOFISH_IMPL")
	return override(Decide(HostFacts()), env, set)
})

// override applies a TWOFISH_IMPL value env, if set and not empty, to the
// choices of every shape: the short runs and single blocks name env too,
// whose ladder serves them (internal/kernel takes its narrowest kernel for
// single blocks).
func override(c Choices, env string, set bool) Choices {
	if !set || env == "" {
		return c
	}
	if err := c.Block.Check(env); err != nil {
		c.Block.Reason += "; TWOFISH_IMPL ignored: " + err.Error()
		return c
	}
	for _, s := range []*Choice{&c.Block, &c.Short, &c.Single} {
		s.Reason = "TWOFISH_IMPL=" + env + " overrides the CPU policy (" + s.Name + ": " + s.Reason + ")"
		s.Name = env
	}
	c.Short.Below = 0
	return c
}

// Check returns an error if name is not an option of c or the CPU does not
// run it.
func (c Choice) Check(name string) error {
	switch {
	case !c.Has(name):
		return errors.New("twofish: unknown implementation " + `"` + name + `"`)
	case !c.Supported(name):
		return errors.New("twofish: implementation " + `"` + name + `"` + " is not supported on this CPU")
	}
	return nil
}
