#!/bin/sh
# `make deb`: stages the project as an upstream source tree with Debian's packaging beside it and
# builds the source and binary packages with dpkg-buildpackage, all under .build-deb/.
# SwiftPM's build folder (.build-deb/swift) stays outside the staged tree, so rebuilds are
# incremental while the staged source is always fresh.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/.build-deb"
version=$(dpkg-parsechangelog -l "$root/packaging/debian/changelog" -S Version)
upstream=${version%-*}
epoch=$(dpkg-parsechangelog -l "$root/packaging/debian/changelog" -S Timestamp)
stage="$out/folio-$upstream"

mkdir -p "$out"
rm -rf "$stage" "$out"/folio_* "$out"/folio-dbgsym_*
mkdir "$stage"

# The upstream source: every file git knows of or would add, as it is in the work tree.
cd "$root"
git ls-files -z --cached --others --exclude-standard -- . ':(exclude)packaging/debian' |
    xargs -0 sh -c 'for f; do [ -f "$f" ] && printf "%s\0" "$f"; done' sh |
    tar --null --files-from=- -cf - | tar -xf - -C "$stage"

# Pin the Swift dependencies in the source, so the package build never resolves anything.
(cd "$stage" && ${SWIFT:-swift} package resolve --scratch-path "$out/swift" >/dev/null)

tar --sort=name --mtime="@$epoch" --owner=0 --group=0 --numeric-owner \
    -C "$out" -cJf "$out/folio_$upstream.orig.tar.xz" "folio-$upstream"
cp -a "$root/packaging/debian" "$stage/debian"

cd "$stage"
SWIFT_SCRATCH="$out/swift" dpkg-buildpackage --unsigned-source --unsigned-changes
echo "make deb: $(ls "$out"/folio_"$version"_*.deb)"
