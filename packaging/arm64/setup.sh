#!/bin/sh
# Makes the arm64 cross toolchain (env.sh says what and where) from Debian's archive, once: it is
# reused while this file is unchanged and made again from scratch when it changes. Nothing on the
# host is installed or configured: mmdebstrap fetches with apt options of its own, and the sid
# root is only ever entered through a private mount namespace. Needs root, mmdebstrap and unshare.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"

mirror=${FOLIO_DEBIAN_MIRROR:-http://deb.debian.org/debian}
recipe=$(cat "$here/setup.sh" "$here/env.sh" | sha256sum | cut -d' ' -f1)
if [ "$(cat "$arm64_cache/recipe" 2>/dev/null)" = "$recipe" ]; then
    echo "arm64 toolchain: reusing $arm64_cache"
    sh "$here/sdk.sh"
    exit 0
fi

step() { printf '== arm64 toolchain: %s (%s)\n' "$*" "$(date +%T)"; }

rm -rf "$arm64_cache"
mkdir -p "$arm64_cross"

step "the sid root with Swift 6.2.3"
# The arm64 libraries are there for dpkg-shlibdeps, which computes the package's Depends from them.
# They must be the sonames the Debian 13 sysroot links against: FFmpeg's are trixie's (sid has
# moved on and its leftover libavcodec61 cannot be installed), so trixie is a second source.
# Debian's sid is frozen on this archive: its Release file has expired.
mmdebstrap --variant=apt --mode=root --architectures=amd64,arm64 --aptopt='Acquire::Retries "3"' \
    --aptopt='Acquire::Check-Valid-Until "false"' --aptopt='Acquire::Check-Date "false"' \
    --include=swiftlang,ca-certificates,pkgconf,file,git,debhelper,dpkg-dev,binutils-aarch64-linux-gnu,librsvg2-bin,lintian,libc6:arm64,libstdc++6:arm64,libgcc-s1:arm64,libpixman-1-0:arm64,libwayland-client0:arm64,libxkbcommon0:arm64,libpng16-16t64:arm64,libcairo2:arm64,libavcodec61:arm64,libavformat61:arm64,libavutil59:arm64 \
    sid "$arm64_sid" "deb $mirror sid main" "deb $mirror trixie main"

step "the Debian 13 arm64 sysroot"
# Extracted, not installed: headers, .pc files and libraries to link against (with every
# dependency), and the runtime that qemu-user loads the test binaries with.
mmdebstrap --variant=extract --mode=root --architectures=arm64 --skip=check/qemu --aptopt='Acquire::Retries "3"' \
    --include=libc6-dev,linux-libc-dev,libgcc-14-dev,libstdc++-14-dev,libwayland-dev,libxkbcommon-dev,libpixman-1-dev,libpng-dev,zlib1g-dev,libcairo2-dev,libavcodec-dev,libavformat-dev,libavutil-dev,libswscale-dev \
    trixie "$arm64_sysroot" "deb $mirror trixie main"

step "the arm64 Swift 6.2.3 runtime, from sid"
# swiftlang has the modules and static libraries, libswiftlang the shared ones.
in_sid / sh -eu -c 'apt-get update -qq && mkdir /tmp/swift-arm64 && cd /tmp/swift-arm64 && apt-get download -qq swiftlang:arm64 libswiftlang:arm64 2>/dev/null'
for deb in "$arm64_sid"/tmp/swift-arm64/*.deb; do dpkg-deb -x "$deb" "$arm64_sysroot"; done
rm -rf "$arm64_sid/tmp/swift-arm64"
ln -sfn ../libexec/swift/lib/swift "$arm64_sysroot/usr/lib/swift"
ln -sfn ../libexec/swift/lib/swift_static "$arm64_sysroot/usr/lib/swift_static"
# Debian's 6.2.3 declares a Testing/Foundation cross-import overlay but ships no library for it:
# every test build would fail to link -l_Testing_Foundation.
rm -rf "$arm64_sid/usr/libexec/swift/lib/swift/linux/Testing.swiftcrossimport" \
       "$arm64_sysroot/usr/libexec/swift/lib/swift/linux/Testing.swiftcrossimport"

step "relative links in the sysroot"
# The packages' absolute links (libm.so -> /lib/...) would otherwise lead the linker to the
# build root's own amd64 libraries. The loader the binaries name is /lib/ld-linux-aarch64.so.1.
ln -s usr/lib "$arm64_sysroot/lib"
find "$arm64_sysroot" -type l -lname '/*' | while read -r link; do
    target=$(readlink "$link")
    ln -sfn "$(realpath -ms --relative-to="$(dirname "$link")" "$arm64_sysroot$target")" "$link"
done

step "qemu-user from Debian 13"
mmdebstrap --variant=extract --mode=root --architectures=amd64 --aptopt='Acquire::Retries "3"' \
    --include=qemu-user trixie "$arm64_cross/qemu" "deb $mirror trixie main"
"$arm64_qemu" --version | head -n 1

sh "$here/sdk.sh"
echo "$recipe" > "$arm64_cache/recipe"
step "ready in $arm64_cache ($(du -sh "$arm64_cache" | cut -f1))"
