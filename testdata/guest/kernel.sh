#!/bin/bash
# kernel.sh: print the path of the kernel that the emulated test machines
# boot (testdata/bochs, testdata/qemu386): Debian's, the package that
# linux-image-amd64 depends on, downloaded once into a cache. Its
# IA32_EMULATION runs 386 binaries, which QEMU's guests need.
#
# With -elf it prints instead the kernel's ELF image, decompressed from the
# bzImage once into the cache: QEMU boots it through its PVH entry point
# (Debian's kernel has CONFIG_PVH), without the BIOS and the decompression
# in the emulated CPU, which took 2.6 of a boot's 6.0 seconds
# (testdata/qemu386, Zen 5). Bochs boots through GRUB, which needs the
# bzImage. A bzImage whose payload is not xz, Debian's compression, is
# printed as it is: QEMU boots either.
#
# usage: testdata/guest/kernel.sh [-elf]
# env:   TWOFISH_GUEST_CACHE  the cache (default ${XDG_CACHE_HOME:-$HOME/.cache}/twofish-guest)
set -euo pipefail
cache=${TWOFISH_GUEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/twofish-guest}
pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -1)
[ -n "$pkg" ] || { echo "kernel.sh: no linux-image-amd64 in the apt sources" >&2; exit 1; }
kernel=$cache/$pkg.vmlinuz
mkdir -p "$cache"
# One download, however many harnesses ask at once (go test -exec runs
# packages in parallel).
exec 9>"$cache/.lock"
flock 9
if [ ! -s "$kernel" ]; then
  dl=$(mktemp -d)
  (cd "$dl" && apt-get download "$pkg" >/dev/null)
  dpkg-deb -x "$dl"/"$pkg"_*.deb "$dl/x"
  cp "$dl"/x/boot/vmlinuz-* "$kernel.tmp" && mv "$kernel.tmp" "$kernel"
  rm -rf "$dl"
fi
if [ "${1:-}" = -elf ]; then
  if [ ! -s "$kernel.elf" ]; then
    off=$(LC_ALL=C grep -obUaP -m1 '\xfd7zXZ\x00' "$kernel" | head -1 | cut -d: -f1)
    # xz reads one stream and stops: tail, which would die of SIGPIPE
    # under pipefail, feeds it through a process substitution.
    if [ -n "$off" ] && xz -dc --single-stream < <(tail -c +$((off + 1)) "$kernel") > "$kernel.elf.tmp" 2>/dev/null &&
      [ "$(head -c 4 "$kernel.elf.tmp")" = $'\x7fELF' ]; then
      mv "$kernel.elf.tmp" "$kernel.elf"
    else
      rm -f "$kernel.elf.tmp"
      echo "$kernel"
      exit 0
    fi
  fi
  kernel=$kernel.elf
fi
echo "$kernel"
