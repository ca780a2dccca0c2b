#!/bin/bash
# run-in-bochs.sh: run static linux/amd64 executables, one after another in
# one boot, inside Bochs, whose cpu model tigerlake has AVX-512
# F/BW/VL/VBMI, and exit with the first non-zero status among them.
#
# usage: run-in-bochs.sh -k KERNEL -i INIT [-t SECS] [-K] PROGRAM [--- PROGRAM]...
#   where PROGRAM is [-e KEY=VAL]... [-d DIR] BINARY [ARGS...]
#   -k KERNEL    the guest kernel (a bzImage, e.g. Debian's vmlinuz)
#   -i INIT      the static init program (testdata/guest/init, built)
#   -t SECONDS   wall-clock limit for the whole emulation (default 900)
#   -K           keep the work directory (its name goes to stderr)
#   -e KEY=VAL   environment variable for the binary (repeatable)
#   -d DIR       copy DIR into the guest as the binary's working directory
# env: BOCHS_CPU (default tigerlake), BOCHS_MEGS (guest RAM, default 512),
#      BOCHS_WORKROOT (where work directories go, default $TMPDIR or /tmp)
# Output: each binary's stdout and stderr on stdout, in turn; the exit status
# is the first non-zero one of the binaries', or 125 if the harness could
# not get one of them (boot failure, timeout), or 0. A boot takes about 70
# seconds of Bochs on Zen 5 (BIOS, GRUB, the kernel's decompression), so
# the programs share one.
#
# Adapted from the shared tools/bochs-avx512 harness; its REPORT.md explains
# the kernel command line (Bochs 2.7's XSAVE and Tiger Lake quirks) and the
# bochsrc (no nogui in Debian's build, the ALSA mixer crash, the built-in
# debugger that wants "c" on stdin).
set -euo pipefail
CPU=${BOCHS_CPU:-tigerlake}
MEGS=${BOCHS_MEGS:-512}
TIMEOUT=900
KEEP=0
KERNEL= INIT=
usage() { sed -n '2,20p' "$0" >&2; exit 125; }
# The options up to the first PROGRAM's (not getopts, which would take a
# PROGRAM's -e and -d for its own).
while [ $# -gt 0 ]; do
  case $1 in
    -k) [ $# -ge 2 ] || usage; KERNEL=$2; shift 2;;
    -i) [ $# -ge 2 ] || usage; INIT=$2; shift 2;;
    -t) [ $# -ge 2 ] || usage; TIMEOUT=$2; shift 2;;
    -K) KEEP=1; shift;;
    *) break;;
  esac
done
[ $# -ge 1 ] && [ -n "$KERNEL" ] && [ -n "$INIT" ] || usage

W=$(mktemp -d "${BOCHS_WORKROOT:-${TMPDIR:-/tmp}}/bochs.XXXXXX")
cleanup() { if [ "$KEEP" = 1 ]; then echo "workdir: $W" >&2; else rm -rf "$W"; fi; }
trap cleanup EXIT

# The initramfs: an uncompressed newc cpio, so that the slow guest spends no
# time decompressing it.
R=$W/rootfs
mkdir -p "$R"/{dev,proc,sys,tmp} "$W/iso/boot/grub"
install -m 0755 "$INIT" "$R/init"
# Each PROGRAM goes to /run/N, as testdata/guest/init runs them.
n=0 names=()
while [ $# -gt 0 ]; do
  n=$((n + 1))
  P=$R/run/$n
  mkdir -p "$P"
  : > "$P/args"; : > "$P/env"
  while [ $# -gt 0 ]; do
    case $1 in
      -e) [ $# -ge 2 ] || usage; printf '%s\n' "$2" >> "$P/env"; shift 2;;
      -d) [ $# -ge 2 ] || usage; cp -r "$2" "$P/work"; echo "/run/$n/work" > "$P/dir"; shift 2;;
      *) break;;
    esac
  done
  [ $# -ge 1 ] && [ "$1" != --- ] || usage
  install -m 0755 "$1" "$P/bin"
  names+=("$(basename "$1")")
  shift
  while [ $# -gt 0 ] && [ "$1" != --- ]; do printf '%s\n' "$1" >> "$P/args"; shift; done
  [ $# -eq 0 ] || shift
done
# /dev/console is also in the kernel's built-in initramfs; add it if we may.
mknod "$R/dev/console" c 5 1 2>/dev/null || true
(cd "$R" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) > "$W/iso/boot/initrd.cpio"
cp "$KERNEL" "$W/iso/boot/vmlinuz"

# A GRUB El Torito ISO (no loop mounts). The kernel command line works
# around Bochs 2.7: clearcpuid=pku,xsaves,xsavec because its CPUID leaf 0xD
# is wrong (the kernel would turn XSAVE, and so AVX-512, off); rdpid, fsrm,
# umip and clwb because the tigerlake model otherwise hangs while booting.
cat > "$W/iso/boot/grub/grub.cfg" <<GRUB
set timeout=0
set default=0
menuentry "run" {
  linux /boot/vmlinuz console=ttyS0,115200 rdinit=/init panic=-1 quiet clearcpuid=pku,xsaves,xsavec,rdpid,fsrm,umip,clwb mitigations=off tsc=reliable no_timer_check
  initrd /boot/initrd.cpio
}
GRUB
grub-mkrescue -o "$W/boot.iso" "$W/iso" >"$W/grub-mkrescue.log" 2>&1 \
  || { cat "$W/grub-mkrescue.log" >&2; exit 125; }

cat > "$W/bochsrc" <<RC
memory: guest=$MEGS, host=$MEGS
cpu: model=$CPU, count=1, ips=200000000, reset_on_triple_fault=0
romimage: file=/usr/share/bochs/BIOS-bochs-latest
vgaromimage: file=/usr/share/vgabios/vgabios.bin
ata0: enabled=1, ioaddr1=0x1f0, ioaddr2=0x3f0, irq=14
ata0-slave: type=cdrom, path=$W/boot.iso, status=inserted
boot: cdrom
floppy_bootsig_check: disabled=1
display_library: rfb, options="timeout=0"
clock: sync=none, time0=946684800
com1: enabled=1, mode=file, dev=$W/serial.out
mouse: enabled=0
sound: driver=dummy
speaker: enabled=0
pci: enabled=1, chipset=i440fx
log: $W/bochs.log
panic: action=fatal
error: action=report
info: action=report
debug: action=ignore
RC

# Debian's Bochs has the internal debugger, which stops at the first
# instruction and reads commands from stdin: tell it to continue.
printf 'c\nquit\n' > "$W/dbg.rc"
t0=$(date +%s)
set +e
timeout -k 10 "$TIMEOUT" bochs -q -f "$W/bochsrc" -rc "$W/dbg.rc" </dev/null >"$W/bochs.stdout" 2>&1
brc=$?
set -e
t1=$(date +%s)

S=$W/serial.out
touch "$S"
tr -d '\r' < "$S" > "$W/serial.txt" # the serial line adds \r
echo "[bochs] $((t1 - t0)) s in the emulator, bochs exit status $brc" >&2
grep '^@@GUEST' "$W/serial.txt" | sed 's/^/[bochs] /' >&2 || true
# Program i's output is between @@START i and @@EXIT i=status@@.
status=0
for i in $(seq "$n"); do
  sed -n "/^@@START $i\$/,/^@@EXIT $i=[0-9]*@@\$/p" "$W/serial.txt" | sed '1d;$d'
  code=$(sed -n "s/^@@EXIT $i=\([0-9]*\)@@\$/\1/p" "$W/serial.txt" | tail -1)
  if [ -z "$code" ]; then
    echo "[bochs] no exit marker of program $i, ${names[i-1]} (timeout or boot failure); serial tail:" >&2
    tail -40 "$W/serial.txt" >&2
    tail -20 "$W/bochs.log" >&2
    exit 125
  fi
  echo "[bochs] program $i, ${names[i-1]}, exited with status $code" >&2
  [ "$status" != 0 ] || status=$code
done
exit "$status"
