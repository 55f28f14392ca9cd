#!/bin/sh
# Regenerates the C glue for the Wayland protocols Folio speaks, from Debian's
# wayland-protocols XML, with wayland-scanner. The output is committed so that a build
# needs neither the scanner nor a SwiftPM plugin (which cannot yet emit C sources reliably).
#   protocols/generate.sh          write Sources/CWaylandProtocols and Tests/CTestCompositor
#   protocols/generate.sh --check  fail if the committed glue differs from what would be generated
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
xml=$(pkg-config --variable=pkgdatadir wayland-protocols)
out="$root/Sources/CWaylandProtocols"
server_out="$root/Tests/CTestCompositor/include"
check=${1:-}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src" "$tmp/include" "$tmp/server"

while read -r name path; do
    case "$name" in ''|'#'*) continue ;; esac
    wayland-scanner private-code "$xml/$path" "$tmp/src/$name-protocol.c"
    wayland-scanner client-header "$xml/$path" "$tmp/include/$name-client-protocol.h"
    wayland-scanner server-header "$xml/$path" "$tmp/server/$name-server-protocol.h"
done < "$here/protocols.txt"

if [ "$check" = "--check" ]; then
    status=0
    for f in "$tmp"/src/*; do cmp -s "$f" "$out/$(basename "$f")" || { echo "stale: $out/$(basename "$f")"; status=1; }; done
    for f in "$tmp"/include/*; do cmp -s "$f" "$out/include/$(basename "$f")" || { echo "stale: $out/include/$(basename "$f")"; status=1; }; done
    for f in "$tmp"/server/*; do cmp -s "$f" "$server_out/$(basename "$f")" || { echo "stale: $server_out/$(basename "$f")"; status=1; }; done
    exit $status
fi

mkdir -p "$out/include" "$server_out"
cp "$tmp"/src/* "$out/"
cp "$tmp"/include/* "$out/include/"
cp "$tmp"/server/* "$server_out/"
echo "protocol glue written to $out and $server_out"
