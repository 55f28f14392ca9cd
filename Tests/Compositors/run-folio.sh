#!/bin/sh
# `make run`: starts Folio in the Wayland session when there is one; otherwise plays
# `folio --demo` in a private headless Weston, saving screenshots to ./demo-out/.
#   run-folio.sh FOLIO_BINARY
set -eu
folio=${1:?usage: run-folio.sh FOLIO_BINARY}
here=$(cd "$(dirname "$0")" && pwd)

live_socket() {
    [ -n "${WAYLAND_DISPLAY:-}" ] || return 1
    case "$WAYLAND_DISPLAY" in
        /*) socket=$WAYLAND_DISPLAY ;;
        *) socket=${XDG_RUNTIME_DIR:-/nonexistent}/$WAYLAND_DISPLAY ;;
    esac
    [ -S "$socket" ]
}

if live_socket; then
    echo "run: starting Folio in the session at WAYLAND_DISPLAY=$WAYLAND_DISPLAY"
    exec "$folio"
fi

echo "run: no Wayland session (WAYLAND_DISPLAY=${WAYLAND_DISPLAY:-unset}); playing the demo in a private headless Weston"
session=$(bash "$here/weston-session.sh" start 1600 1000)
eval "$session"
export XDG_RUNTIME_DIR WAYLAND_DISPLAY
trap 'bash "$here/weston-session.sh" stop "$XDG_RUNTIME_DIR"' EXIT INT TERM

out=$(pwd)/demo-out
mkdir -p "$out"
rm -f "$out"/demo-*.png "$out"/wayland-screenshot-*.png "$out"/*.log
"$folio" --demo > "$out/folio.log" 2>&1 &
pid=$!

# A screenshot every 0.75 s while the demo plays (at most 16).
shot=0
while kill -0 "$pid" 2>/dev/null && [ "$shot" -lt 16 ]; do
    sleep 0.75
    kill -0 "$pid" 2>/dev/null || break
    if (cd "$out" && weston-screenshooter >/dev/null 2>&1); then
        for f in "$out"/wayland-screenshot-*.png; do
            [ -e "$f" ] || continue
            shot=$((shot + 1))
            mv "$f" "$out/demo-$shot.png"
        done
    fi
done
status=0
wait "$pid" || status=$?
cp "$WESTON_LOG" "$out/weston.log" 2>/dev/null || true

if [ "$status" -ne 0 ]; then
    echo "run: folio --demo failed (exit $status); its output:" >&2
    cat "$out/folio.log" >&2
    exit "$status"
fi
if [ "$shot" -eq 0 ]; then
    echo "run: the demo ran, but no screenshot was taken (logs: $out/folio.log, $out/weston.log)" >&2
    exit 1
fi
echo "run: the demo played in a headless Weston; $shot screenshots are in $out/ (demo-1.png ... demo-$shot.png)"
