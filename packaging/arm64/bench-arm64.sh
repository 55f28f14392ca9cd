#!/bin/sh
# `make bench-arm64`: the page kernels' instructions per fold and turn frame, portable and NEON, in
# the arm64 `folio` under qemu-user (kernel-instructions.py says how they are counted). Emulation
# cannot time NEON; it can count what it executes. The binary is test-arm64.sh's build (the same
# folder and options, so neither rebuilds the other's work).
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/packaging/arm64/env.sh"
scratch="$root/.build-arm64"

sh "$root/packaging/arm64/setup.sh"
(cd "$root" && ${SWIFT:-swift} package resolve --scratch-path "$scratch")
in_sid "$root" env $arm64_pkg_config swift build -c release -Xswiftc -enable-testing --product folio \
    --scratch-path "$scratch" --swift-sdks-path "$arm64_sdks" --swift-sdk folio-arm64 \
    -Xlinker -rpath -Xlinker /usr/lib/swift/linux
python3 "$root/packaging/arm64/kernel-instructions.py" "$arm64_qemu" "$arm64_sysroot" \
    "$scratch/$arm64_triple/release/folio"
