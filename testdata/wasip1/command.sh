#!/usr/bin/env bash
# The command under wazero (wasip1/wasm) with standard input and output,
# which go test's in-process tests cannot reach: a regular file as standard
# input, a pipe whose reader waits as standard output, then a pipe whose
# writer waits as standard input, 200 KB each way (more than a pipe holds).
# The output must equal the native command's; a hang fails after 120 s.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
GOOS=wasip1 GOARCH=wasm go build -o "$work/twofish.wasm" ./cmd/twofish
go build -o "$work/twofish" ./cmd/twofish
head -c 200000 /dev/urandom > "$work/msg"
key=000102030405060708090a0b0c0d0e0f
iv=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
wasm() { timeout 120 wazero run -mount "$work:/w" "$work/twofish.wasm" "$@"; }

"$work/twofish" enc -mode ctr -key $key -iv $iv < "$work/msg" > "$work/want"
wasm enc -mode ctr -key $key -iv $iv < "$work/msg" | { sleep 1; cat; } > "$work/ct"
cmp "$work/want" "$work/ct"
{ sleep 1; cat "$work/ct"; } | wasm dec -mode ctr -key $key -iv $iv -out /w/back
cmp "$work/msg" "$work/back"
echo "wasip1: enc from a file to a slow pipe and dec from a slow pipe to a file: ok"
