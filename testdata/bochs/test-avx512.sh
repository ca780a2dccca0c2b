#!/bin/bash
# test-avx512.sh: run the avx512-vbmi kernels' tests on an emulated AVX-512
# CPU, for machines without AVX-512 (and for CI). It installs what it needs
# from Debian's packages, fetches Debian's kernel, builds the package's test
# binary of internal/kernel statically and runs, inside Bochs 2.7 (cpu
# model tigerlake), the known-answer tests, a prefix of the Monte Carlo
# tests (-short), the differential test against generic, the single-block
# entry points, the guard-page tests and the fused CTR, CBC, CFB, XTS (of
# one tweak a call and of a tweak a half-group) and OCB kernels against
# the modes in Go (trimmed by -short), their partial and short-output
# calls, the vector key schedule (against the Go one, and between guard
# pages) and OCB's zmm offsets pass, all for avx512-vbmi alone, and the
# plan that the policy makes for AVX-512 CPUs (avx512-vbmi for long runs,
# the table kernels for short runs and single blocks, their tables built
# on use by tablesFromSlicedAVX512, also from goroutines at once, and
# between guard pages), with
# TWOFISH_TEST_REQUIRE=avx512-vbmi so that a kernel that the guest cannot
# run fails instead of being skipped. In the same boot, internal/ghash's
# test binary runs the tests of the VPCLMULQDQ GHASH (ymm and zmm), which
# Zen 1 lacks and qemu-x86_64 7.2 does not emulate, with
# TWOFISH_TEST_REQUIRE_GHASH. It fails unless every one of those tests
# reports PASS.
#
# avx512-gfni is never run here: Bochs 2.7 computes VGF2P8AFFINEQB wrongly
# (see below), so the -run pattern selects avx512-vbmi's subtests alone
# (TestPlans/avx512-vbmi is the plan internal/kernel's policyCPUs make for
# a Zen 5 without GFNI), even though the guest CPU reports GFNI.
#
# With BOCHS_NATIVE=1, on a CPU that runs avx512-vbmi and VPCLMULQDQ itself
# (Zen 5), the same binaries run natively with the same selection,
# environment and checks, and no Bochs: what CI runs there, where the
# exhaustive tests ran these kernels in full already and the emulation took
# 6-8 minutes to repeat their prefix; the native run still checks that the
# lists name tests that run and pass.
#
# usage: testdata/bochs/test-avx512.sh   (from anywhere in the repository)
# env:   BOCHS_NATIVE  1: run natively, as above (the CPU must have the features)
#        BOCHS_KERNEL  a bzImage to boot instead of Debian's linux-image-amd64
#        TWOFISH_GUEST_CACHE  where the kernel is cached (testdata/guest/kernel.sh)
#        BOCHS_TIMEOUT wall-clock limit of the emulation in seconds (default 900)
#
# About 70 seconds go to booting (BIOS, GRUB and the kernel's decompression
# in a guest that runs about 7 million instructions a second), once for
# both binaries, the rest to the tests; see README.md.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
cd "$ROOT"
start=$(date +%s)
native=${BOCHS_NATIVE:-}
where="under Bochs"
if [ -n "$native" ]; then
  where="natively"
  for f in avx512f avx512bw avx512vl avx512vbmi vpclmulqdq; do
    grep -qw "$f" /proc/cpuinfo || { echo "BOCHS_NATIVE: this CPU has no $f"; exit 1; }
  done
fi

# The emulator and what builds the boot image, and the guest kernel
# (Debian's, the package that linux-image-amd64 depends on).
if [ -z "$native" ]; then
  pkgs=(bochs bochsbios vgabios grub-pc-bin grub-common xorriso mtools cpio)
  missing=()
  for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    echo "installing ${missing[*]}"
    $SUDO apt-get update -qq || true
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  kernel=${BOCHS_KERNEL:-$("$ROOT/testdata/guest/kernel.sh")}
  echo "guest kernel: $kernel"
fi

W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -o "$W/init.bin" ./testdata/guest/init
CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go test -c -o "$W/twofish.test" ./internal/kernel
CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go test -c -o "$W/ghash.test" ./internal/ghash
mkdir -p "$W/work"

tests='TestKnownAnswers|TestMonteCarlo|TestDifferential|TestSingleBlocks|TestGuardPages|TestRequiredKernels|TestPlans|TestPlanSingleBlocks|TestTablesOnUse'
tests=$tests'|TestFusedGroupsAssembly|TestCTRGroupsCarry|TestGCMGroupsCounter|TestXTSHalves|TestFusedGuardPages|TestWordKernelsGuardPages|TestOCBGroupsAssembly|TestAVX512WordKernels'
tests=$tests'|TestFusedPartial|TestFusedShortDst|TestScheduleAVX512|TestScheduleAVX512Guarded|TestOCBMaskAssembly|TestOCBMaskGuardPages|TestPlansGuardPages|TestTablesOnUseConcurrent|TestChainBuildsTables'
# OCB's offsets name their pass avx512; TestScheduleAVX512 runs a subtest
# per key size.
run="^($tests)\$/^(avx512-vbmi|avx512|key=[0-9]+|[A-Z]+_[DE]_M)\$/^(avx512-vbmi|key=[0-9]+)\$"
# Go's runtime uses AVX-512 with GFNI itself: since Go 1.26 its garbage
# collector scans spans with VGF2P8AFFINEQB where the CPU has GFNI,
# AVX512BW, VL, DQ, BITALG and VBMI (internal/runtime/gc/scan), and Bochs
# 2.7 computes that instruction wrongly, which corrupts the heap. So the
# runtime's AVX-512 is turned off through GODEBUG (internal/cpu honours it
# below GOAMD64=v4) with the two features that the kernels do not use: DQ,
# which the scan needs, and CD, which with DQ makes the runtime's "AVX512"
# (F, CD, BW, DQ and VL) false. internal/cpu honours GODEBUG's options for
# the features the kernels use (cpu.avx512f, bw, vl, ...), so those stay on.
godebug=cpu.avx512cd=off,cpu.avx512dq=off

# guest PROGRAM [--- PROGRAM]..., where PROGRAM is [-d DIR] [-e VAR=VALUE]...
# BIN ARG...: runs each BIN in DIR with the variables, in one boot of
# Bochs, or natively with BOCHS_NATIVE, and returns the first non-zero
# status.
guest() {
  if [ -z "$native" ]; then
    "$HERE/run-in-bochs.sh" -k "$kernel" -i "$W/init.bin" -t "${BOCHS_TIMEOUT:-900}" "$@"
    return
  fi
  local status=0 code dir vars cmd
  while [ $# -gt 0 ]; do
    dir=$W vars=() cmd=()
    while [ $# -gt 0 ]; do
      case $1 in
        -d) dir=$2; shift 2;;
        -e) vars+=("$2"); shift 2;;
        *) break;;
      esac
    done
    while [ $# -gt 0 ] && [ "$1" != --- ]; do cmd+=("$1"); shift; done
    [ $# -eq 0 ] || shift
    code=0
    (cd "$dir" && env "${vars[@]}" "${cmd[@]}") || code=$?
    [ "$status" != 0 ] || status=$code
  done
  return "$status"
}

ghashTests='TestGHASHImplementations|TestGHASHAgainstAESGCM|TestGHASHPowers|TestGHASHGuardPages|TestRequiredGHASH'
set +e
guest -d "$W/work" -e TWOFISH_TEST_REQUIRE=avx512-vbmi -e GODEBUG=$godebug \
  "$W/twofish.test" -test.v -test.short -test.run "$run" --- \
  -e TWOFISH_TEST_REQUIRE_GHASH=avx2-vpclmulqdq,avx512-vpclmulqdq -e GODEBUG=$godebug \
  "$W/ghash.test" -test.v -test.short -test.run "^($ghashTests)\$/^(avx2|avx512)-vpclmulqdq\$" 2>&1 | tee "$W/out.txt"
rc=${PIPESTATUS[0]}
set -e

fail=0
[ "$rc" = 0 ] || { echo "FAIL: a test binary exited with $rc $where"; fail=1; }
[ -n "$native" ] || grep -q '^\[bochs\] @@GUEST flags:.*avx512vbmi' "$W/out.txt" || { echo "FAIL: the guest CPU does not report avx512vbmi"; fail=1; }
for t in TestKnownAnswers/avx512-vbmi TestMonteCarlo/ECB_E_M/avx512-vbmi TestMonteCarlo/ECB_D_M/avx512-vbmi \
  TestMonteCarlo/CBC_E_M/avx512-vbmi TestMonteCarlo/CBC_D_M/avx512-vbmi TestDifferential/avx512-vbmi \
  TestSingleBlocks/avx512-vbmi TestGuardPages/avx512-vbmi TestPlans/avx512-vbmi TestPlanSingleBlocks/avx512-vbmi \
  TestFusedGroupsAssembly/avx512-vbmi TestCTRGroupsCarry/avx512-vbmi TestGCMGroupsCounter/avx512-vbmi TestXTSHalves/avx512-vbmi TestFusedGuardPages/avx512-vbmi TestWordKernelsGuardPages/avx512-vbmi \
  TestOCBGroupsAssembly/avx512-vbmi TestAVX512WordKernels/avx512-vbmi \
  TestFusedPartial/avx512-vbmi TestFusedShortDst/avx512-vbmi TestScheduleAVX512/key=128 TestScheduleAVX512/key=192 \
  TestScheduleAVX512/key=256 TestScheduleAVX512Guarded TestOCBMaskAssembly/avx512 TestOCBMaskGuardPages/avx512 \
  TestPlansGuardPages/avx512-vbmi TestTablesOnUseConcurrent/avx512-vbmi TestChainBuildsTables \
  TestRequiredKernels TestRequiredGHASH \
  TestGHASH{Implementations,AgainstAESGCM,Powers,GuardPages}/{avx2,avx512}-vpclmulqdq; do
  grep -q -- "--- PASS: $t " "$W/out.txt" || { echo "FAIL: no PASS line for $t"; fail=1; }
done
echo "avx512-vbmi and the VPCLMULQDQ GHASH $where: $(( $(date +%s) - start )) s in all"
[ "$fail" = 0 ] && echo "PASS: avx512-vbmi and the VPCLMULQDQ GHASH $where"
exit "$fail"
