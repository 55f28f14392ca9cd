#!/bin/sh
# swift-build.sh ARGUMENT...: `swift build` of the package for arm64 in the sid root (setup.sh,
# which must have run), optimised and testable, into .build-arm64, with ARGUMENT... added
# (--build-tests, --product folio). test-arm64.sh and bench-arm64.sh share this one build, so
# neither rebuilds the other's work.
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/packaging/arm64/env.sh"
scratch="$root/.build-arm64"

# Dependencies are fetched by this machine's Swift, with its git settings; the sid root finds them.
(cd "$root" && ${SWIFT:-swift} package resolve --scratch-path "$scratch")
# Optimised, as the package ships it: emulated, a debug build's renderer is too slow for the tests
# to fit CI's time. The Swift runtime is found where the target system has it, which qemu maps
# into the sysroot.
in_sid "$root" env $arm64_pkg_config swift build -c release -Xswiftc -enable-testing "$@" \
    --scratch-path "$scratch" --swift-sdks-path "$arm64_sdks" --swift-sdk folio-arm64 \
    -Xlinker -rpath -Xlinker /usr/lib/swift/linux
