package cpu

// arm64Policy is the rule for the arm64 build: the kernels of long runs,
// short runs and single blocks. It is a pure function, built and tested on
// every architecture; Decide applies it where the build has the arm64
// kernels, and TWOFISH_IMPL overrides it. It reads no facts: nothing in
// them tells the cores apart, and no core is known to need another rule.
//
// No arm64 machine was at hand to measure, so the rule rests on
// estimates: llvm-mca's pipeline models (LLVM 19) of the generic kernel as
// gc compiles it and of the assembly kernels, an L1 hit for every look-up
// (tools/arm64mca.py). For long runs, against generic's three blocks
// interleaved, they predict arm64-2way at 1.13x generic on Neoverse N1 (its
// own model), 1.13x on Cortex-A76 (which LLVM models with its Cortex-A57
// tables) and 1.24x on Apple M1; for a single block alone, arm64-1way at
// 1.17x, 1.19x and 1.27x. A kernel becomes a default only where every one
// of those models predicts at least 1.5x, so generic keeps every shape;
// the Neoverse V1 model (2-way 1.09x), LLVM's Exynos M5 (0.87x) and the
// in-order Cortex-A55 (2.66x) show what measurements may change.
// TWOFISH_IMPL=arm64-2way, or NewCipherImpl, runs the assembly.
//
// The constant-time choice is not this rule's: Decide takes the first
// constant-time kernel the CPU runs, arm64-neon wherever there is ASIMD.
// generic-ct, the alternative, takes 7x to 9x generic's time on long runs
// and 18x to 28x on a single block (128- and 256-bit keys, measured on
// x86-64, where both are the same Go code: twofish bench -impl
// generic,generic-ct -modes block,ecb on Zen 5), while arm64-neon is estimated
// at 0.81x (Cortex-A76) to 4.0x (Apple M1) generic's speed on long runs
// (0.94x on Neoverse N1), and its single-block kernel at 1.6x (Apple M1)
// to 7.6x (Cortex-A76) generic's time: every shape is estimated at 2.4x
// generic-ct's speed or more on every model (long runs: 0.81x · 7 = 5.7x;
// a single block: 18 / 7.6 = 2.4x).
func arm64Policy() (name, reason string, s shape) {
	const why = "estimated (llvm-mca 19: Neoverse N1, Cortex-A76, Apple M1) at "
	return "generic", why + "1.13x to 1.24x generic for arm64-2way, below the 1.5x on every model that makes a default",
		shape{
			single:    "generic",
			singleWhy: why + "1.17x to 1.27x generic for arm64-1way on a single block, below the 1.5x that makes a default",
			short:     "generic",
			shortWhy:  "the block kernel's own ladder takes every run",
		}
}
