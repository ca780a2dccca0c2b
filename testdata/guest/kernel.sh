#!/bin/bash
# kernel.sh: print the path of the kernel that the emulated test machines
# boot (testdata/bochs, testdata/qemu386): Debian's, the package that
# linux-image-amd64 depends on, downloaded once into a cache. Its
# IA32_EMULATION runs 386 binaries, which QEMU's guests need.
#
# usage: testdata/guest/kernel.sh
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
echo "$kernel"
