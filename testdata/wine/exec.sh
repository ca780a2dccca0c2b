#!/bin/bash
# exec.sh: go test's -exec program for GOOS=windows GOARCH=amd64. It runs
# the test binary under Wine 8 (Debian 12's wine64) in a Wine prefix of its
# own, made on first use, with bcryptprimitives.c built into it.
#
# usage, from the repository (the command built beforehand for the tests
# that run it, since the Windows test binary finds no go tool to build it):
#   GOTOOLCHAIN=go1.24.13 GOOS=windows go build -o /tmp/twofish.exe ./cmd/twofish
#   TWOFISH_TEST_TOOL=/tmp/twofish.exe GOTOOLCHAIN=go1.24.13 GOOS=windows \
#     go test -short -exec "$PWD/testdata/wine/exec.sh" ./...
#   WINEPREFIX=... wineserver -k   # when done
# Go 1.24 rather than a later Go: Go 1.26's os.RemoveAll deletes a file
# with a call Wine 8 does not implement ("Invalid function"), which fails
# every t.TempDir's clean-up.
# env: WINEPREFIX  the prefix (default: twofish-wine in the user's cache)
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,16p' "$0" >&2; exit 125; }
here=$(cd "$(dirname "$0")" && pwd)
export WINEDEBUG=-all WINEPREFIX=${WINEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/twofish-wine}
wine=/usr/lib/wine/wine64
[ -x "$wine" ] || wine=$(command -v wine64 || command -v wine) || { echo "exec.sh: no wine64" >&2; exit 125; }

# go test runs several packages' binaries at once: one of them makes the
# prefix while the others wait. The Wine server and Wine's services
# (winedevice.exe and others, which the server's first program starts) must
# hold none of go test's pipes, or go test waits for them after the binary
# exits: the server starts here, and stays up between the binaries
# (wineserver -p), and wineboot is its first program, all with none of
# go test's descriptors nor the lock's.
mkdir -p "$WINEPREFIX"
{
  flock 9
  dll=$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll
  # Refused, with status 2, while a server runs.
  if "$(dirname "$wine")/wineserver" -p </dev/null >/dev/null 2>&1 9>&- || [ ! -f "$dll" ]; then
    "$wine" wineboot -i </dev/null >/dev/null 2>&1 9>&-
  fi
  if [ ! -f "$dll" ]; then
    x86_64-w64-mingw32-gcc -shared -O2 -Wl,--kill-at -o "$dll" "$here/bcryptprimitives.c" -ladvapi32
  fi
} 9>"$WINEPREFIX.lock"
# A test binary that exits non-zero having printed nothing never reached
# its main (a Go program that fails says why): Wine failed to start it, as
# CI saw once under load (internal/cpu's binary, status 1 in 0.26 s, no
# output). It runs once more, that run deciding. The output, standard
# error with standard output as go test takes them, comes when it ends.
out=$(mktemp)
trap 'rm -f "$out"' EXIT
run() {
  status=0
  "$wine" "$@" >"$out" 2>&1 || status=$?
}
run "$@"
if [ "$status" != 0 ] && [ ! -s "$out" ]; then
  echo "exec.sh: the test binary exited with status $status and printed nothing; running it again" >&2
  run "$@"
fi
cat "$out"
exit "$status"
