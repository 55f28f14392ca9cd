# Sourced by the arm64 scripts: where the cross toolchain lives, and how to run a command in it.
# Everything is made by setup.sh from Debian's archive into one cache folder outside the
# repository (FOLIO_ARM64_CACHE, default /var/cache/folio-arm64), made again when its recipe changes:
#   sid/           an amd64 Debian sid root with Swift 6.2.3 (the only Swift in Debian that reads
#                  swift-tools-version 6.1; it needs sid's glibc), debhelper and the arm64 runtime
#                  libraries dpkg-shlibdeps reads
#   cross/sysroot  Debian 13 arm64 -dev packages and the arm64 Swift runtime, links made relative
#   cross/sdk      the Swift SDK bundle naming that sysroot (swift build --swift-sdk folio-arm64)
#   cross/qemu     qemu-user from Debian 13 (static binaries, extracted, never installed)

arm64_cache=${FOLIO_ARM64_CACHE:-/var/cache/folio-arm64}
arm64_sid="$arm64_cache/sid"
arm64_cross="$arm64_cache/cross"
arm64_sysroot="$arm64_cross/sysroot"
arm64_sdks="$arm64_cross/sdk"
arm64_qemu="$arm64_cross/qemu/usr/bin/qemu-aarch64"
arm64_triple=aarch64-unknown-linux-gnu

# The cross build's pkg-config view: the sysroot's .pc files, their paths inside the sysroot.
arm64_pkg_config="PKG_CONFIG_SYSROOT_DIR=$arm64_sysroot PKG_CONFIG_PATH=$arm64_sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:$arm64_sysroot/usr/share/pkgconfig"

# in_sid DIR COMMAND...: runs COMMAND in the sid root, in DIR, with DIR's repository (if any) and
# the cross folder at the same paths as outside. The mounts live in a mount namespace of their own,
# so they vanish with the command, whatever happens to it.
in_sid() {
    dir=$1
    shift
    repo=$(git -C "$dir" rev-parse --show-toplevel 2>/dev/null || true)
    unshare --mount --fork /bin/sh -eu -c '
        sid=$1 cross=$2 repo=$3 dir=$4
        shift 4
        mount --make-rprivate /
        mount -t proc proc "$sid/proc"
        if [ -n "$repo" ]; then mkdir -p "$sid$repo" && mount --bind "$repo" "$sid$repo"; fi
        mkdir -p "$sid$cross"
        mount --bind "$cross" "$sid$cross"
        cp /etc/resolv.conf "$sid/etc/resolv.conf"
        exec chroot "$sid" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
            /bin/sh -c "cd \"\$0\" && exec \"\$@\"" "$dir" "$@"
    ' in_sid "$arm64_sid" "$arm64_cross" "$repo" "$dir" "$@"
}
