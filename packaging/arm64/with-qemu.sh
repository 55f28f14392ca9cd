#!/bin/sh
# with-qemu.sh COMMAND...: runs COMMAND (as root) where arm64 programs run when executed, as the
# tests and a Debian arm64 root need: qemu-aarch64 (from setup.sh) is registered with binfmt_misc,
# but only in a user namespace of COMMAND's own, with uids and gids 0-65535 mapped to themselves
# and its own mounts. Linux 6.7 and newer give each user namespace its own binfmt_misc, so the
# registration is invisible to the rest of the machine and ends with COMMAND. QEMU_LD_PREFIX, when
# set, names the root that arm64 programs find their libraries in.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"

# Inside the namespace, as its root: binfmt_misc, then COMMAND.
if [ "${1:-}" = --in-namespace ]; then
    work=$2
    shift 2
    mount --make-rprivate /
    mkdir "$work/binfmt"
    mount -t binfmt_misc binfmt_misc "$work/binfmt"
    # The ELF header of a little-endian 64-bit aarch64 program, as qemu registers it; F: the
    # kernel opens qemu now, so a chroot does not hide it later.
    magic='\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
    mask='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
    printf '%s' ":folio-aarch64:M::$magic:$mask:$arm64_qemu:F" > "$work/binfmt/register"
    exec "$@"
fi

[ -x "$arm64_qemu" ] || { echo "with-qemu: no $arm64_qemu: run packaging/arm64/setup.sh" >&2; exit 1; }
work=$(mktemp -d /tmp/folio-qemu-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkfifo "$work/maps-written"

# The first shell has no uid yet (its namespace has no maps): it waits for them, then starts
# this script again, which is root in the namespace once started.
unshare --user --mount --fork /bin/sh -c 'read -r _ < "$0"; exec "$@"' "$work/maps-written" \
    /bin/sh "$here/with-qemu.sh" --in-namespace "$work" "$@" &
pid=$!
while [ "$(readlink "/proc/$pid/ns/user")" = "$(readlink /proc/self/ns/user)" ]; do sleep 0.01; done
echo "0 0 65536" > "/proc/$pid/uid_map"
echo "0 0 65536" > "/proc/$pid/gid_map"
echo go > "$work/maps-written"
wait "$pid"
