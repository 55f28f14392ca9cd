#!/bin/sh
# `make deb-check`: checks the package that `make deb` built — lintian on the whole upload; the
# desktop entry, AppStream metainfo and icons as shipped; piuparts (install and purge) in a clean
# Debian 12 root; then dpkg -i and apt-get -f install in another copy of that root, and the smoke
# test run there as an ordinary user (last, as it is the only step that needs folio's features).
# The clean root is made once with mmdebstrap and cached as a tarball (FOLIO_DEB_ROOT_CACHE,
# default /var/cache/folio-deb-root); it is made again when missing or older than a week.
# ARCH=arm64 checks the arm64 package (for Debian 13 and newer) in a clean Debian 13 arm64 root,
# whose programs run under qemu-user (packaging/arm64/with-qemu.sh); piuparts is left out there,
# and the package is purged by hand instead.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/.build-deb"
version=$(dpkg-parsechangelog -l "$root/packaging/debian/changelog" -S Version)
arch=${ARCH:-$(dpkg --print-architecture)}
deb="$out/folio_${version}_$arch.deb"
changes="$out/folio_${version}_$arch.changes"
cache=${FOLIO_DEB_ROOT_CACHE:-/var/cache/folio-deb-root}
suite=bookworm
if [ "$arch" != "$(dpkg --print-architecture)" ]; then
    [ "$arch" = arm64 ] || { echo "deb-check: ARCH=$arch: only arm64 is cross-built" >&2; exit 2; }
    suite=trixie
    # Everything from here on runs where arm64 programs run when executed.
    [ -n "${FOLIO_QEMU_NAMESPACE:-}" ] ||
        exec sh "$root/packaging/arm64/with-qemu.sh" env FOLIO_QEMU_NAMESPACE=1 ARCH="$arch" sh "$0" "$@"
fi
rootfs_tar="$cache/$suite-$arch-minbase.tar.gz"
[ "$arch" != amd64 ] || rootfs_tar="$cache/bookworm-minbase.tar.gz"

[ -f "$deb" ] && [ -f "$changes" ] || { echo "deb-check: no $deb: run make deb first" >&2; exit 1; }

step() { printf '\n== deb-check: %s\n' "$*"; }

shipped=""
chroot_dir=""
cleanup() {
    if [ -n "$chroot_dir" ]; then
        umount -l "$chroot_dir/proc" 2>/dev/null || true
        umount -l "$chroot_dir/dev" 2>/dev/null || true
        rm -rf --one-file-system "$chroot_dir"
    fi
    [ -z "$shipped" ] || rm -rf "$shipped"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

step "lintian $(basename "$changes")"
# lintian advises against running as root: as root, run it as nobody when nobody can read the files.
as_user=""
if [ "$(id -u)" = 0 ] && runuser -u nobody -- test -r "$changes"; then as_user="runuser -u nobody --"; fi
$as_user lintian --info --display-info --fail-on error,warning "$changes"

step "desktop entry, AppStream metainfo and icons, as shipped in $(basename "$deb")"
shipped=$(mktemp -d)
dpkg-deb -x "$deb" "$shipped"
desktop-file-validate "$shipped/usr/share/applications/io.folio.Folio.desktop"
appstreamcli validate --no-net --explain "$shipped/usr/share/metainfo/io.folio.Folio.metainfo.xml"
appstreamcli validate-tree --no-net "$shipped"
for size in 48 64 128 256; do
    icon="$shipped/usr/share/icons/hicolor/${size}x$size/apps/io.folio.Folio.png"
    # Width and height, from the PNG's IHDR chunk.
    set -- $(od -An -tu1 -j16 -N8 "$icon")
    [ "$(( ($3 << 8) | $4 ))x$(( ($7 << 8) | $8 ))" = "${size}x$size" ] ||
        { echo "deb-check: $icon is not ${size}x$size" >&2; exit 1; }
done
[ -f "$shipped/usr/share/icons/hicolor/scalable/apps/io.folio.Folio.svg" ]
echo "desktop entry, metainfo and icons (scalable, 48, 64, 128, 256) are valid"

step "a clean Debian $suite $arch root"
mkdir -p "$cache"
if [ -z "$(find "$rootfs_tar" -mtime -7 2>/dev/null)" ]; then
    echo "making $rootfs_tar with mmdebstrap"
    # --skip=check/qemu: foreign programs run through with-qemu.sh's own binfmt_misc, not the
    # machine-wide one that mmdebstrap's check looks for.
    mmdebstrap --variant=minbase --mode=root --architectures="$arch" --skip=check/qemu \
        --aptopt='Acquire::Retries "3"' --skip=cleanup/apt/lists "$suite" "$cache/new.tar.gz" \
        "deb http://deb.debian.org/debian $suite main" \
        "deb http://deb.debian.org/debian $suite-updates main" \
        "deb http://deb.debian.org/debian-security $suite-security main"
    mv "$cache/new.tar.gz" "$rootfs_tar"
else
    echo "reusing $rootfs_tar"
fi

if [ "$suite" = bookworm ]; then
step "piuparts: install and purge in the clean root"
# piuparts installs the package with its dependencies, purges it, and fails on files left behind or
# changed; there is no earlier version in the archive to upgrade from.
if piuparts --distribution=bookworm --mirror=http://deb.debian.org/debian --basetgz="$rootfs_tar" \
        --no-upgrade-test "$deb" >"$out/piuparts.log" 2>&1; then
    grep -E 'PASS:' "$out/piuparts.log"
else
    tail -n 40 "$out/piuparts.log" >&2
    echo "deb-check: piuparts failed; the whole log is $out/piuparts.log" >&2
    exit 1
fi
fi

step "dpkg -i and apt-get -f install in a clean root"
chroot_dir=$(mktemp -d "$cache/root.XXXXXX")
if [ -n "${FOLIO_QEMU_NAMESPACE:-}" ]; then
    # A user namespace may not make device nodes: the root gets the host's /dev, bound.
    tar --exclude='./dev/*' -xf "$rootfs_tar" -C "$chroot_dir"
    mount --rbind /dev "$chroot_dir/dev"
else
    tar -xf "$rootfs_tar" -C "$chroot_dir"
fi
cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
# In with-qemu.sh's user namespace a new proc cannot be mounted: the host's is bound instead.
mount -t proc proc "$chroot_dir/proc" 2>/dev/null || mount --rbind /proc "$chroot_dir/proc"
mkdir "$chroot_dir/tmp/folio-check"
cp "$deb" "$root/packaging/debian/tests/smoke" "$root/packaging/debian/tests/pinch.trace" "$chroot_dir/tmp/folio-check/"
chmod -R a+rX "$chroot_dir/tmp/folio-check"

in_root() {
    chroot "$chroot_dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
        DEBIAN_FRONTEND=noninteractive "$@"
}

echo "dpkg -i $(basename "$deb")"
# A clean root lacks the libraries folio needs, so dpkg leaves it unconfigured for apt to finish.
in_root dpkg -i "/tmp/folio-check/$(basename "$deb")" || echo "(dpkg -i stopped at missing dependencies)"

echo "apt-get -f install"
in_root apt-get update -qq -o Acquire::Retries=3
in_root apt-get -f install -y -qq -o Acquire::Retries=3 -o Dpkg::Use-Pty=0
status=$(in_root dpkg-query -W -f='${Package} ${Version}: ${Status}' folio)
echo "$status"
case "$status" in *" install ok installed") ;; *) echo "deb-check: folio is not installed" >&2; exit 1;; esac

step "folio in the clean root, as user nobody"
chroot --userspec=nobody:nogroup "$chroot_dir" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/nonexistent \
    LC_ALL=C.UTF-8 /tmp/folio-check/smoke

if [ "$suite" != bookworm ]; then
    step "purge in the clean root"
    in_root apt-get purge -y -qq -o Dpkg::Use-Pty=0 folio
    left=$(in_root dpkg-query -W -f='${Status}' folio 2>/dev/null || true)
    case "$left" in "" | *not-installed) ;; *) echo "deb-check: folio is still $left" >&2; exit 1;; esac
    for f in /usr/bin/folio /usr/share/applications/io.folio.Folio.desktop /usr/share/man/man1/folio.1.gz; do
        [ ! -e "$chroot_dir$f" ] || { echo "deb-check: $f is left after purge" >&2; exit 1; }
    done
    echo "purged: nothing of folio is left"
fi

step "all checks passed"
