package cpu

import "strings"

// blockPolicy is the rule for the x86-64 block kernels: which one heads
// the ladder that NewCipher uses, from the facts of a CPU. It is a pure
// function, built and tested on every architecture; Decide applies it where
// the build has the x86-64 kernels, and TWOFISH_IMPL overrides it.
//
// The rules, and what they rest on:
//
//   - AVX-512 F, BW, VL and VBMI, GFNI and VPCLMULQDQ with an operating
//     system that saves the zmm registers: avx512-gfni, avx512-vbmi's
//     kernels with the MDS products in VGF2P8AFFINEQB and transposes by
//     byte unpacks (and XTS's tweaks stepped by VPCLMULQDQ, which every CPU
//     with AVX-512 and GFNI has):
//     measured on Zen 5 at 0.91-0.94 c/B against avx512-vbmi's 1.20-1.23
//     (ECB, 8 KiB, 256-bit key, `twofish bench -impl
//     avx512-gfni,avx512-vbmi`, alternating in one process), 1.3x.
//     Zen 4, Ice Lake, Tiger Lake and Sapphire Rapids have GFNI too and are
//     expected to gain (unmeasured).
//   - AVX-512 F, BW, VL and VBMI without GFNI (Cannon Lake), or GFNI or
//     VPCLMULQDQ off:
//     avx512-vbmi, which is constant-time and the fastest
//     kernel wherever it runs: measured on Zen 5 at 1.16 and 1.22 c/B for
//     128- and 256-bit keys, 4.0x avx2-gather and 6.2-6.6x amd64-3way
//     (ECB, 8 KiB, `twofish bench`; the README's table). Zen 4, Ice Lake,
//     Tiger Lake and Sapphire Rapids have VBMI too and are expected to
//     gain as much; Skylake-X and Cascade Lake have AVX-512 without VBMI
//     and follow the AVX2 rules.
//   - No AVX2, or an operating system that does not save the ymm
//     registers: amd64-3way.
//   - Intel family 6 except Haswell (models 0x3C, 0x3F, 0x45, 0x46):
//     VPGATHERDD is fast (libgcrypt's hwf-x86.c), unless the
//     model is one that Gather Data Sampling ("Downfall") affects and the
//     operating system does not say it is unmitigated: the microcode
//     that mitigates GDS makes VPGATHERDD about 3x slower than the manual
//     gather (libgcrypt's "replace VPGATHER with manual gather" patch of
//     2023 measured 28.6 against 9.0 c/B on Tiger Lake).
//     Unknown GDS ("Unknown: …", common in virtual machines; no file; not
//     Linux) counts as mitigated. Then avx2-vpgather, else avx2-gather.
//   - AMD: see amdPolicy, measured.
//   - Any other vendor: avx2-gather; VPGATHERDD is untested there, and
//     libgcrypt never uses it.
func blockPolicy(f Facts) (name, reason string) {
	switch {
	// The AVX-512 kernels where this CPU runs them: supports checks AVX2 and
	// the ymm state too, which GODEBUG's cpu.avx and cpu.avx2 may turn off
	// while the AVX-512 facts stay.
	case supports(f, Block, "avx512-gfni"):
		return "avx512-gfni", f.Vendor + " " + f.FamilyModel() + " with AVX-512 VBMI, GFNI and VPCLMULQDQ: the constant-time 64-way kernel with its MDS products in VGF2P8AFFINEQB is the fastest (Zen 5: 0.91-0.94 c/B against 1.20-1.23 for avx512-vbmi, 256-bit key, measured alternating in one process)"
	case supports(f, Block, "avx512-vbmi"):
		return "avx512-vbmi", f.Vendor + " " + f.FamilyModel() + " with AVX-512 VBMI: the constant-time 64-way kernel, with no table look-ups, is also the fastest (Zen 5: 1.16-1.22 c/B, 4x the AVX2 table kernel)"
	case !f.AVX2:
		return "amd64-3way", "no AVX2: the 3-way scalar kernel, three blocks interleaved, is the fastest here"
	case !f.OSYMM:
		return "amd64-3way", "the CPU has AVX2 but the operating system does not save the ymm registers: the 3-way scalar kernel"
	}
	switch f.Vendor {
	case "GenuineIntel":
		return intelPolicy(f)
	case "AuthenticAMD":
		return amdPolicy(f)
	}
	vendor := f.Vendor
	if vendor == "" {
		vendor = "unknown vendor"
	}
	return "avx2-gather", vendor + " " + f.FamilyModel() + " with AVX2: the manual gather, since VPGATHERDD is fast only where it has been measured"
}

// intelPolicy is the policy for Intel CPUs with AVX2.
func intelPolicy(f Facts) (name, reason string) {
	cpu := "Intel " + f.FamilyModel()
	switch {
	case f.Family != 6:
		return "avx2-gather", cpu + ": VPGATHERDD is measured fast only on family 6 (libgcrypt hwf-x86), so the manual gather"
	case haswell[f.Model]:
		return "avx2-gather", cpu + " (Haswell): VPGATHERDD is slow on Haswell (libgcrypt hwf-x86), so the manual gather"
	case !gdsAffected[f.Model]:
		return "avx2-vpgather", cpu + ": VPGATHERDD is fast after Haswell (libgcrypt hwf-x86) and this model is not affected by Gather Data Sampling"
	case gdsUnmitigated(f.GDS):
		return "avx2-vpgather", cpu + ": VPGATHERDD is fast after Haswell (libgcrypt hwf-x86) and the OS reports GDS as " + quote(f.GDS)
	case f.GDS == "":
		return "avx2-gather", cpu + ": a model affected by Gather Data Sampling with no GDS status from the OS; its mitigation makes VPGATHERDD about 3x slower, so the manual gather"
	}
	return "avx2-gather", cpu + ": the OS reports GDS as " + quote(f.GDS) + "; mitigated (or possibly mitigated) VPGATHERDD is about 3x slower than the manual gather (libgcrypt, Tiger Lake)"
}

// amdPolicy is the policy for AMD CPUs with AVX2: always the manual gather.
//
// Measured on this project's AMD Zen 5 (family 0x1A model 0x2, a KVM
// guest), 8 KiB, 256-bit key, ratios of medians in one process
// (`go test -bench 'ECB|Modes'`, tools/benchratio.py): avx2-gather runs ECB 1.51x and CTR 1.38-1.49x as fast
// as amd64-3way, avx2-vpgather only 1.02-1.07x and 1.02-1.03x (medians of 5 in two sessions' runs). libgcrypt 1.11's AVX2
// code (its manual gather) ran 1.00x our 3-way kernel before the current
// one (which runs ECB 1.07x as fast) and 0.90x its own 3-way code there, close to the 0.84x measured on Zen 3 (12 c/B
// against 10.1 c/B); avx2-gather is 1.62x libgcrypt's AVX2 code. Zen 4:
// libgcrypt's manual gather beat its VPGATHERDD by 6% (its 2023 manual-gather patch), and ours
// beats libgcrypt's. Zen 3 and Zen 2 have the same look-up resources as
// far as the kernels go (three loads and four ALU operations a cycle), and
// the manual gather needs fewer ALU operations per look-up than the 3-way
// kernel, so the manual gather is chosen there too, by that estimate
// (libgcrypt's 3-way beating libgcrypt's AVX2 on Zen 3 says nothing of
// ours, which does per block a quarter of its vector inserts). Zen 1 and
// Hygon execute ymm instructions in two halves, but the manual gather's
// rounds use xmm only: measured on Zen 1 (family 0x17 model 0x1, a KVM
// guest; BenchmarkShapes, ECB, 8 KiB, 256-bit key), avx2-gather runs 1.42x
// the 3-way kernel (the one before the current, which llvm-mca estimates
// at 0.95x the current there) and avx2-vpgather 0.51x. VPGATHERDD is never chosen on
// AMD: slower than the manual gather on Zen 4 (libgcrypt) and Zen 5
// (measured), and slower than the 3-way kernel before Zen 4 (libgcrypt
// hwf-x86.c, and measured on Zen 1).
func amdPolicy(f Facts) (name, reason string) {
	cpu := "AMD " + f.FamilyModel()
	switch gen := amdGeneration(f); gen {
	case "Zen 5":
		return "avx2-gather", cpu + " (Zen 5): measured on Zen 5, the manual gather runs ECB 1.5x and CTR 1.4x as fast as the 3-way kernel and 1.5x as fast as VPGATHERDD"
	case "Zen 4":
		return "avx2-gather", cpu + " (Zen 4): the manual gather beats VPGATHERDD here (libgcrypt) and on Zen 5 (measured: 1.5x)"
	case "Zen 1":
		return "avx2-gather", cpu + " (Zen 1): measured on Zen 1, the manual gather runs ECB 1.4x as fast as the 3-way kernel and 2.8x as fast as VPGATHERDD"
	case "Zen 3", "Zen 2":
		return "avx2-gather", cpu + " (" + gen + "): the manual gather, estimated from Zen 1 and Zen 5 at about 1.4x to 1.5x the 3-way kernel; VPGATHERDD is slow before Zen 4"
	}
	return "avx2-gather", cpu + ": the manual gather, since VPGATHERDD is slow on AMD before Zen 4 and slower than the manual gather after"
}

// amdGeneration names the Zen generation of an AMD CPU from its family and
// model, as Linux's arch/x86/kernel/cpu/amd.c does, or "" if it is not one
// of the Zen cores this policy knows. The model, not a feature, tells Zen
// 3 from Zen 4: a hypervisor or GODEBUG may hide Zen 4's AVX-512, and
// family 0x1A holds Zen 6 beside Zen 5.
func amdGeneration(f Facts) string {
	m := f.Model
	switch {
	case f.Family == 0x17 && (m <= 0x2F || m >= 0x50 && m <= 0x5F):
		return "Zen 1" // Zen and Zen+
	case f.Family == 0x17 && (m >= 0x30 && m <= 0x4F || m >= 0x60 && m <= 0x7F || m == 0x90 || m == 0x91 || m >= 0xA0 && m <= 0xAF):
		return "Zen 2"
	case f.Family == 0x19 && (m <= 0x0F || m >= 0x20 && m <= 0x5F):
		return "Zen 3"
	case f.Family == 0x19 && (m >= 0x10 && m <= 0x1F || m >= 0x60 && m <= 0xAF):
		return "Zen 4"
	case f.Family == 0x1A && (m <= 0x2F || m >= 0x40 && m <= 0x4F || m >= 0x60 && m <= 0x7F):
		return "Zen 5"
	}
	return ""
}

// gdsUnmitigated reports whether the Linux GDS status says that no
// microcode mitigation slows VPGATHERDD down: "Not affected", or
// "Vulnerable" with or without a detail ("Vulnerable: No microcode").
func gdsUnmitigated(status string) bool {
	return status == "Not affected" || status == "Vulnerable" || strings.HasPrefix(status, "Vulnerable:")
}

func quote(s string) string { return `"` + s + `"` }

// haswell are the Intel family 6 models of Haswell, whose VPGATHERDD is slow
// (libgcrypt hwf-x86.c).
var haswell = map[int]bool{0x3C: true, 0x3F: true, 0x45: true, 0x46: true}

// consultsGDS reports whether blockPolicy's choice for f can depend on
// f.GDS: an Intel family 6 model that Gather Data Sampling affects.
func consultsGDS(f Facts) bool {
	return f.Vendor == "GenuineIntel" && f.Family == 6 && gdsAffected[f.Model]
}

// gdsAffected are the Intel family 6 models with AVX2 that Gather Data
// Sampling affects (Intel's list, as Linux's cpu_vuln_blacklist has it):
// Skylake, Kaby Lake, Coffee Lake, Comet Lake, Ice Lake, Tiger Lake and
// Rocket Lake cores, client and server. Later cores (Alder Lake and on,
// Sapphire Rapids and on) and earlier ones (Broadwell) are not affected.
var gdsAffected = map[int]bool{
	0x4E: true, 0x5E: true, // Skylake client
	0x55: true,             // Skylake, Cascade Lake, Cooper Lake server
	0x8E: true, 0x9E: true, // Kaby Lake, Coffee Lake, Whiskey Lake, Amber Lake
	0xA5: true, 0xA6: true, // Comet Lake
	0x7D: true, 0x7E: true, // Ice Lake client
	0x6A: true, 0x6C: true, // Ice Lake server
	0x8C: true, 0x8D: true, // Tiger Lake
	0xA7: true, // Rocket Lake
}

// shape is the policy's choice of kernels for single blocks and for short
// runs, which a Cipher runs beside the block kernel of its long runs.
type shape struct {
	single, short       string
	below               int // runs of fewer blocks take the short kernel
	singleWhy, shortWhy string
}

// shapePolicy is the rule for single blocks and short runs on x86-64,
// given the block kernel that blockPolicy chose for long runs. The cost of
// a single block is its latency, and of a short run the kernel call and
// its padding, which a wide kernel pays whole for one block: so the
// narrow table kernels serve both wherever no constant-time kernel comes
// within 10% of them, which none does today. Measured
// (`go test -bench Runs ./internal/kernel`, and BenchmarkShapes in the root
// package beside x/crypto/twofish):
//
//   - Single blocks, chained (each output the next input): on a quiet
//     Zen 5, amd64-1way takes 68 ns against 134 ns for x/crypto and 181 ns
//     for avx512-gfni's single-block kernel (227 ns for the 4-block call it
//     replaced; 162 ns since its MDS step multiplies before it shuffles,
//     x/crypto 124 ns in those runs; go test -run '^$' -bench
//     'Encrypt/impl=(avx512-gfni|xcrypto|amd64-1way)/key=256/size=16$' .,
//     medians of 5 runs); on Zen 1, 110 ns against 311 ns for x/crypto and
//     907 ns for avx2-ct when its narrowest call padded a block to 8
//     (BenchmarkShapes, 128-bit key; avx2-ct's single-block kernel, which
//     replaced that call, is estimated at a sixth to a third of that
//     there, 500-1,030 cycles a block; unmeasured).
//   - Short runs with avx512-gfni, since its 4-block kernels run the
//     single-block kernels' rounds on zmm registers (_asm/avx512single)
//     and its word kernels multiply before they shuffle: 4 blocks take
//     161-172 ns in its 4-block kernel against 167-185 ns on the 3-way
//     ladder, 5 and 6 blocks 197-212 ns in its 16-block kernel against
//     206-222 ns, and 2 and 3 blocks 110-120 ns on the ladder against
//     160-174 ns (BenchmarkRuns, quiet Zen 5, medians of 5); CTR of 64
//     bytes, four blocks, took 265 ns with avx512-gfni pinned against 320
//     with the ladder (BenchmarkShapes). The 3-way ladder takes runs below
//     4 blocks.
//   - Short runs with avx512-vbmi: up to 16 blocks take one call of its
//     16-block kernel, 236 ns on Zen 5 whatever the number of blocks in it
//     (a chain of 16 rounds in word layout), and 17 to 32 the 32-block
//     kernel, 287 ns; a padded group of 64 costs 404 ns, the 4-block
//     kernel 214 ns for up to four (BenchmarkAVX512Tail, medians of 5),
//     while the 3-way ladder, which pads a rest of two blocks to a group of
//     three, takes 205 ns for 5 blocks, 200 ns for 6, 260 ns for 7 and 300
//     ns for 8 (BenchmarkRuns, Zen 5, medians of 5). Inside a
//     mode the 3-way ladder is 1.03-1.09x the 16-block kernel for 5 and 6
//     blocks and 0.80-0.90x for 7 (GCM sealing 64, 80 and 96 bytes, whose
//     key streams are 5 to 7 blocks with the tag mask's; CTR and CBC
//     decryption of 80, 96 and 112 bytes; 256-bit key, both pinned in one
//     process, medians of 400 alternating rounds). The 3-way ladder takes
//     runs below 7 blocks, and the remainder of a long run below 7. (The
//     modes whose work the word layout's mode kernels do, CTR, CBC and CFB
//     decryption, XTS and OCB, have since taken runs from 5 blocks in
//     those, 1.03-1.14x the 3-way ladder with the work in Go around it:
//     internal/kernel's fused_amd64.go.)
//   - Short runs with the 16-way AVX2 kernels: avx2-gather pads a run, or
//     the rest of a long one, to a group from 13 blocks, where the group
//     costs less than the 3-way ladder. Measured on Zen 1: 16 blocks take
//     860 ns with avx2-gather against 1250 ns with the 3-way ladder, 13
//     to 15 blocks padded 890 ns against 1020 to 1120 ns, and 12 blocks
//     take 880 ns on the 3-way ladder; the 3-way kernel is 1.4x the 1-way
//     from 3 blocks. avx2-vpgather, not measured padded on a CPU that it
//     suits, takes whole groups only.
func shapePolicy(block string) shape {
	s := shape{
		single:    "amd64-1way",
		singleWhy: "a block's latency is its cost: the 1-way table kernel takes 68 ns on Zen 5 (x/crypto 134 ns, avx512-gfni's constant-time single-block kernel 181 ns, in the same runs of BenchmarkEncrypt, 256-bit key; 162 ns against x/crypto's 124 ns since) and 110 ns on Zen 1 (x/crypto 311 ns, avx2-ct 907 ns padded to 8 blocks, its single-block kernel estimated at a sixth to a third of that); no constant-time kernel comes within 10%",
		short:     "amd64-3way",
	}
	switch block {
	case "avx512-gfni":
		s.below = 4
		s.shortWhy = "avx512-gfni's 4-block kernel, the single-block rounds on zmm registers, takes up to four blocks in the time of one (Zen 5, measured run by run: 161-172 ns for 4 blocks against 167-185 ns on the 3-way ladder, 197-212 ns for 5 and 6 in the 16-block kernel against 206-222 ns, and 110-120 ns for 2 and 3 on the ladder against 160-174 ns; inside CTR of 64 bytes 1.03-1.04x the ladder)"
	case "avx512-vbmi":
		s.below = 7
		s.shortWhy = "one call of the 16-block AVX-512 kernel costs about as much as 7 blocks of the 3-way kernel (Zen 5, measured run by run: 236 ns for up to 16 blocks, 260 ns for 7 blocks of the 3-way ladder, 200-205 ns for 5 and 6), and inside a mode the 3-way ladder is 1.03-1.09x the 16-block kernel for 5 and 6 blocks, 0.80-0.90x for 7 (GCM, CTR, CBC decryption; the modes with fused kernels now take 5 and 6 blocks in the 16-block kernel's mode variants)"
	case "avx2-gather":
		s.below = 13
		s.shortWhy = "from 13 blocks one 16-block group of avx2-gather, padded, beats the 3-way kernel's ladder (Zen 1: 13 to 15 blocks take 890 ns padded, 1020 to 1120 ns on the 3-way ladder; 12 blocks 880 ns there)"
	case "avx2-vpgather":
		s.below = 16
		s.shortWhy = "below one whole group of 16 blocks the 3-way kernel's ladder runs: VPGATHERDD's padded group is unmeasured"
	default:
		s.short = block
		s.shortWhy = "the block kernel's own ladder takes every run"
	}
	return s
}
