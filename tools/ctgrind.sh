#!/usr/bin/env bash
# The constant-time check by taint tracking (tools/ctgrind): builds the
# program with -tags valgrind natively (avx2-ct, PCLMULQDQ GHASH, AVX2 OCB
# offsets: what valgrind's emulated CPU, which has no AVX-512, runs; then,
# with GODEBUG=cpu.avx=off, generic-ct with the SSE2 OCB offsets) and
# with -tags purego (generic-ct, portable GHASH), runs each under valgrind's
# memcheck with secrets marked undefined, and classifies every report by the
# rule of tools/ctgrind/classify.go. It fails on a report in the
# constant-time paths, if a negative control (the table kernels) goes
# unreported, if a build or run fails, or if valgrind is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "ctgrind.sh: FAIL: $*" >&2; exit 1; }

command -v valgrind >/dev/null || fail "valgrind is not installed (Debian: apt-get install valgrind); the check cannot run"
[ "$(go env GOOS)/$(go env GOARCH)" = linux/amd64 ] || fail "the check runs on linux/amd64 only, not $(go env GOOS)/$(go env GOARCH)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Valgrind 3.19 (Debian 12) reads no inlined frames from DWARF 5, Go's default
# since 1.25: build with DWARF 4 where the toolchain still offers it.
experiment=""
if GOEXPERIMENT=nodwarf5 go env GOEXPERIMENT >/dev/null 2>&1; then experiment=nodwarf5; fi

# GOGC=off: no collection while secrets are in the heap. asyncpreemptoff:
# no signal-injected calls on the goroutine stack. cpu.rdtscp=off: some
# valgrind versions (3.19) do not emulate the RDTSCP of runtime.cputicks
# (golang.org/x/sys/cpu, which does not know the name, warns about it).
export GOGC=off GODEBUG=cpu.rdtscp=off,asyncpreemptoff=1

failed=0
attempts=3
run() { # [godebug=OPTIONS] run NAME TAGS EXPECT...: EXPECT are patterns (grep -E) the program must print; OPTIONS are added to GODEBUG
  local name=$1 tags=$2; shift 2
  local GODEBUG=$GODEBUG${godebug:+,$godebug}
  export GODEBUG
  local bin=$tmp/ctgrind-$name xml=$tmp/$name.xml out=$tmp/$name.out
  echo "=== ctgrind ($name: go build -tags $tags${experiment:+, GOEXPERIMENT=$experiment}${godebug:+, GODEBUG $godebug})"
  GOEXPERIMENT=$experiment go build -tags "$tags" -o "$bin" ./tools/ctgrind || fail "$name: build"
  local attempt rc
  for ((attempt = 1; attempt <= attempts; attempt++)); do
    rc=0
    valgrind --tool=memcheck --track-origins=yes --error-limit=no --num-callers=64 \
      --leak-check=no --show-leak-kinds=none --errors-for-leak-kinds=none \
      --xml=yes --xml-file="$xml" --log-file="$tmp/$name.log" "$bin" >"$out" 2>&1 || rc=$?
    grep -E '^ctgrind: (CPU policy|constant-time Cipher|negative control:|controls run:|[0-9]+ paths)' "$out" || true
    if [ "$rc" != 0 ] || ! grep -qx 'ctgrind: done' "$out"; then
      echo "ctgrind: FAIL: $name: the program under valgrind exited with status $rc without finishing its checks:"
      tail -20 "$out"; tail -20 "$tmp/$name.log"
      failed=1
      return
    fi
    for want in "$@"; do
      grep -qE -- "$want" "$out" || { echo "ctgrind: FAIL: $name: no line matches \"$want\": not the kernels this check is for"; failed=1; }
    done
    rc=0
    # shellcheck disable=SC2046 # the control functions, one word each
    "$bin" classify "$xml" $(sed -n 's/^ctgrind: controls run: //p' "$out") || rc=$?
    case $rc in
    0) return ;;
    3) echo "ctgrind: $name: run $attempt of $attempts inconclusive" ;;
    *) failed=1; return ;;
    esac
  done
  echo "ctgrind: FAIL: $name: inconclusive $attempts times"
  failed=1
}

# Valgrind's CPU has the host's AVX2 and PCLMULQDQ, never AVX-512.
native=()
if grep -qw avx2 /proc/cpuinfo; then native+=("constant-time block avx2-ct," "bulk avx2-ct," "OCB offsets avx2," "key schedule avx2$"); fi
if grep -qw pclmulqdq /proc/cpuinfo; then native+=("GHASH (pclmulqdq|avx2-vpclmulqdq),"); fi
run native valgrind "${native[@]}"
# Without AVX (the CPUs that avx2-ct cannot serve): generic-ct, and OCB's
# SSE2 offsets, which no other run reaches.
sse=("constant-time block generic-ct," "OCB offsets sse2," "key schedule generic$")
if grep -qw pclmulqdq /proc/cpuinfo; then sse+=("GHASH pclmulqdq,"); fi
godebug=cpu.avx=off run sse valgrind "${sse[@]}"
run purego valgrind,purego "constant-time block generic-ct," "bulk generic-ct," "GHASH generic," "key schedule generic$"

if [ "$failed" != 0 ]; then
  echo "ctgrind.sh: FAIL"
  exit 1
fi
echo "ctgrind.sh: ok: no secret-dependent branch or address in the constant-time paths valgrind runs"
