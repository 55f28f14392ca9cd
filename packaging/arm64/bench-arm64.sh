#!/bin/sh
# `make bench-arm64`: the page kernels' instructions per fold and turn frame, portable and NEON, in
# the arm64 `folio` under qemu-user (kernel-instructions.py says how they are counted). Emulation
# cannot time NEON; it can count what it executes. The binary is swift-build.sh's, which
# test-arm64.sh builds the tests with.
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/packaging/arm64/env.sh"
scratch="$root/.build-arm64"

sh "$root/packaging/arm64/setup.sh"
sh "$root/packaging/arm64/swift-build.sh" --product folio
python3 "$root/packaging/arm64/kernel-instructions.py" "$arm64_qemu" "$arm64_sysroot" \
    "$scratch/$arm64_triple/release/folio"
