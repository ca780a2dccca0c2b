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
// (tools/arm64mca.py). For long runs they predict arm64-2way at 1.84x
// generic on Neoverse N1 (its own model), but 1.35x on Cortex-A76 (which
// LLVM models with its Cortex-A57 tables) and 1.41x on Apple M1; for a
// single block alone, arm64-1way at 1.25x, 1.21x and 1.29x. A kernel
// becomes a default only where every one of those models predicts at
// least 1.5x, so generic keeps every shape; the Neoverse V1 model (2-way
// 2.2x), the in-order Cortex-A55 (3.0x) and LLVM's Exynos M5 (2.0x) show
// what measurements may change. TWOFISH_IMPL=arm64-2way, or NewCipherImpl,
// runs the assembly.
//
// The constant-time choice is not this rule's: Decide takes the first
// constant-time kernel the CPU runs, arm64-neon wherever there is ASIMD.
// generic-ct, the alternative, takes 28x generic's time per block
// (measured on x86-64, where both are the same Go code), while arm64-neon
// is estimated at 0.98x (Cortex-A76) to 4.6x (Apple M1) generic's speed on
// long runs (1.53x on Neoverse N1), and a single block padded to its
// 16-block group at a 16th of that: every shape is estimated at least 1.7x
// generic-ct on every model.
func arm64Policy() (name, reason string, s shape) {
	const why = "estimated (llvm-mca 19: Neoverse N1, Cortex-A76, Apple M1) at "
	return "generic", why + "1.35x to 1.84x generic for arm64-2way, below the 1.5x on every model that makes a default",
		shape{
			single:    "generic",
			singleWhy: why + "1.21x to 1.29x generic for arm64-1way on a single block, below the 1.5x that makes a default",
			short:     "generic",
			shortWhy:  "the block kernel's own ladder takes every run",
		}
}
