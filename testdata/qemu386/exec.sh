#!/bin/bash
# exec.sh: go test's -exec program for GOARCH=386 on an x86-64 host whose
# kernel runs no 32-bit binaries (no IA32 emulation, as on the Zen 5
# machines; qemu-i386 7.2 crashes in Go 1.26's 386 runtime). It boots
# Debian's kernel, which has IA32 emulation, in qemu-system-x86_64 (TCG) with
# an initramfs of the repository's tracked files, the test binary and
# testdata/guest/init, which runs the binary (as /run/1) in the package's
# directory with its arguments and the TWOFISH_* environment, prints its
# output and powers off; it exits with the binary's status, 125 if it got
# none. The guest has no go tool to build the command with for
# cmd/twofish's tests, so the command built beforehand that
# TWOFISH_TEST_TOOL names goes in with them, and the variable names it
# there.
#
# usage, from the repository:
#   GOARCH=386 CGO_ENABLED=0 go build -o /tmp/twofish386 ./cmd/twofish
#   TWOFISH_TEST_TOOL=/tmp/twofish386 GOARCH=386 CGO_ENABLED=0 go test -short \
#     -exec "$PWD/testdata/qemu386/exec.sh" ./...
# A package's tests take about 4.5 seconds more than under a native kernel
# (3 of them the boot of the kernel's ELF image: kernel.sh -elf), and run
# 5-20x slower.
# env: QEMU386_TIMEOUT  wall-clock limit of one run in seconds (default 1200)
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,22p' "$0" >&2; exit 125; }
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN=$1; shift
rel=$(realpath --relative-to="$ROOT" "$PWD")
case $rel in ..*) echo "exec.sh: $PWD is outside $ROOT" >&2; exit 125;; esac

# qemu-system-x86_64 runs the guest, cpio packs its initramfs.
command -v qemu-system-x86_64 >/dev/null && command -v cpio >/dev/null || {
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends qemu-system-x86 cpio >/dev/null
}
kernel=$("$ROOT/testdata/guest/kernel.sh" -elf)

W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
R=$W/rootfs
P=$R/run/1
mkdir -p "$R"/{dev,proc,sys,tmp,work} "$P"
(cd "$ROOT" && CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -o "$R/init" ./testdata/guest/init)
install -m 0755 "$BIN" "$P/bin"
(cd "$ROOT" && git ls-files -z | cpio -0 -pdm --quiet "$R/work")
echo "/work/$rel" > "$P/dir"
: > "$P/args"; for a in "$@"; do printf '%s\n' "$a" >> "$P/args"; done
env | grep '^TWOFISH_' | grep -v '^TWOFISH_TEST_TOOL=' > "$P/env" || true
if [ -n "${TWOFISH_TEST_TOOL:-}" ]; then
  install -m 0755 "$TWOFISH_TEST_TOOL" "$R/tool"
  echo "TWOFISH_TEST_TOOL=/tool" >> "$P/env"
fi
(cd "$R" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) > "$W/initrd.cpio"

# Guest memory: the 386 address space and the tests' buffers fit in 1 GiB.
# guest runs the binary once: its output in $W/out, its exit status in
# $W/code ("" if the guest gave none).
guest() {
  set +e
  timeout -k 10 "${QEMU386_TIMEOUT:-1200}" qemu-system-x86_64 -accel tcg,thread=multi -smp 2 -cpu max -m 1024 \
    -nographic -no-reboot -kernel "$kernel" -initrd "$W/initrd.cpio" \
    -append "console=ttyS0 rdinit=/init panic=-1 quiet" </dev/null >"$W/serial.out" 2>&1
  qrc=$?
  set -e
  # The program's output is between @@START 1 and @@EXIT 1=n@@ (the
  # serial line adds \r).
  S=$W/serial.out
  tr -d '\r' < "$S" | sed -n '/^@@START 1$/,/^@@EXIT 1=[0-9]*@@$/p' | sed '1d;$d' > "$W/out"
  tr -d '\r' < "$S" | sed -n 's/^@@EXIT 1=\([0-9]*\)@@$/\1/p' | tail -1 > "$W/code"
}
guest
# A test binary that fails prints why. Two deaths are the emulator's doing,
# not the test's, and the binary runs once more, that run deciding: one
# that exits non-zero having printed nothing but the guest's timing line
# died before its main ran (seen once in CI: 50 ms, no output, where the
# run takes 250 ms); one that the Go runtime reports killed by SIGTRAP, a
# trace trap, took a single-step or breakpoint exception that nothing in
# it asks for (seen once in CI, 2026-12-07: in the runtime's background
# sweeper during the root package's tests, with EFLAGS 0xfffcffff, every
# flag set, the trap flag among them: the emulator's registers, not the
# program's).
code=$(cat "$W/code")
if [ -n "$code" ] && [ "$code" != 0 ]; then
  why=""
  if ! grep -qv '^@@GUEST_ELAPSED' "$W/out"; then
    why="printed nothing"
  elif grep -qx 'SIGTRAP: trace trap' "$W/out"; then
    why="died of SIGTRAP ($(grep -m1 '^PC=' "$W/out"))"
  fi
  if [ -n "$why" ]; then
    echo "exec.sh: the test binary exited with status $code and $why; running it again" >&2
    guest
    code=$(cat "$W/code")
  fi
fi
cat "$W/out"
if [ -z "$code" ]; then
  echo "exec.sh: no exit marker from the guest (qemu exit status $qrc: timeout or boot failure); serial tail:" >&2
  tr -d '\r' < "$W/serial.out" | tail -40 >&2
  exit 125
fi
[ "$code" = 0 ] || echo "exec.sh: the test binary exited with status $code" >&2
exit "$code"
