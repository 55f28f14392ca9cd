#!/bin/sh
# `make deb`: stages the project as an upstream source tree with Debian's packaging beside it and
# builds the source and binary packages with dpkg-buildpackage, all under .build-deb/.
# SwiftPM's build folder (.build-deb/swift) stays outside the staged tree, so rebuilds are
# incremental while the staged source is always fresh.
# ARCH=arm64 cross-builds the arm64 binary package instead, in the Debian sid root with Swift 6.2.3
# that packaging/arm64/setup.sh makes (and reuses): Swift 6 for arm64 exists in Debian only there.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/.build-deb"
version=$(dpkg-parsechangelog -l "$root/packaging/debian/changelog" -S Version)
upstream=${version%-*}
epoch=$(dpkg-parsechangelog -l "$root/packaging/debian/changelog" -S Timestamp)
stage="$out/folio-$upstream"
arch=${ARCH:-$(dpkg --print-architecture)}

# Runs a command as is, or in the sid root for a cross build.
run() { "$@"; }
cross=""
scratch="$out/swift"
build_options="--unsigned-source --unsigned-changes"
if [ "$arch" != "$(dpkg --print-architecture)" ]; then
    [ "$arch" = arm64 ] || { echo "make deb: ARCH=$arch: only arm64 is cross-built" >&2; exit 2; }
    sh "$root/packaging/arm64/setup.sh"
    . "$root/packaging/arm64/env.sh"
    run() { in_sid "$PWD" "$@"; }
    cross=yes
    scratch="$out/swift-arm64"
    # Binary only (the source package is the amd64 build's), without Build-Depends checks (the
    # sysroot, not the sid root, has the arm64 -dev packages); debian/rules names the Swift SDK.
    build_options="--host-arch arm64 -B -d --no-sign"
fi

mkdir -p "$out"
rm -rf "$stage"
# This architecture's packages go; the other architecture's stay, and the source package is the
# native build's.
for f in "$out"/folio_* "$out"/folio-dbgsym_*; do
    case "$f" in
        *_"$arch".*) rm -f "$f" ;;
        *_amd64.* | *_arm64.*) ;;
        *) [ -n "$cross" ] || rm -f "$f" ;;
    esac
done
mkdir "$stage"

# The upstream source: every file git knows of or would add, as it is in the work tree.
cd "$root"
git ls-files -z --cached --others --exclude-standard -- . ':(exclude)packaging/debian' |
    xargs -0 sh -c 'for f; do [ -f "$f" ] && printf "%s\0" "$f"; done' sh |
    tar --null --files-from=- -cf - | tar -xf - -C "$stage"

# Pin the Swift dependencies in the source, so the package build never resolves anything.
# Resolved by this machine's Swift, with its git settings, also for a cross build (which then
# finds every checkout in place).
(cd "$stage" && ${SWIFT:-swift} package resolve --scratch-path "$scratch" >/dev/null)

[ -n "$cross" ] || tar --sort=name --mtime="@$epoch" --owner=0 --group=0 --numeric-owner \
    -C "$out" -cJf "$out/folio_$upstream.orig.tar.xz" "folio-$upstream"
cp -a "$root/packaging/debian" "$stage/debian"

cd "$stage"
if [ -z "$cross" ]; then
    SWIFT_SCRATCH="$scratch" dpkg-buildpackage $build_options
else
    # qemu runs the binary's check; no debug-symbols package (its compression alone takes minutes).
    run env DEB_BUILD_OPTIONS="crossbuildcanrunhostbinaries noautodbgsym" SWIFT_SCRATCH="$scratch" FOLIO_SWIFT_SDKS="$arm64_sdks" FOLIO_HOST_RUN="$arm64_qemu -L $arm64_sysroot" \
        $arm64_pkg_config dpkg-buildpackage $build_options
fi
echo "make deb: $(ls "$out"/folio_"$version"_"$arch".deb)"
