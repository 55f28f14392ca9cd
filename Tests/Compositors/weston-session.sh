#!/usr/bin/env bash
# A private headless Weston 10: its own XDG_RUNTIME_DIR and socket, pixman renderer
# (or nothing is drawn), desktop-shell with every animation off, --debug so that
# weston-screenshooter may take screenshots. Weston headless offers no wl_seat.
#
#   weston-session.sh start [WIDTH HEIGHT]   starts it; prints shell assignments to eval:
#                                            XDG_RUNTIME_DIR, WAYLAND_DISPLAY, WESTON_PID, WESTON_LOG
#   weston-session.sh stop RUNTIME_DIR       stops the Weston started with that directory, removes it
set -euo pipefail

start() {
    width=${1:-1600}
    height=${2:-1000}
    command -v weston >/dev/null 2>&1 || { echo "weston-session: weston is not installed (apt-get install weston)" >&2; exit 127; }
    dir=$(mktemp -d /tmp/folio-weston-XXXXXX)
    chmod 700 "$dir"
    socket=wayland-folio
    cat > "$dir/weston.ini" <<INI
[core]
idle-time=0

[shell]
animation=none
startup-animation=none
focus-animation=none
close-animation=none
panel-position=none
background-color=0xff808080
INI
    # Weston outlives this script: it must not inherit the caller's descriptors (a pipe it held
    # would never reach end of file, and a parent watching this script would never see it end).
    (
        for fd in /proc/$BASHPID/fd/*; do
            n=${fd##*/}
            if [ "$n" -gt 2 ]; then eval "exec $n>&-"; fi
        done
        XDG_RUNTIME_DIR=$dir exec weston --backend=headless-backend.so --use-pixman --width="$width" --height="$height" \
            --socket="$socket" --idle-time=0 --shell=desktop-shell.so --debug --config="$dir/weston.ini" \
            --log="$dir/weston.log" </dev/null >/dev/null 2>&1
    ) &
    pid=$!
    echo "$pid" > "$dir/weston.pid"
    tries=0
    until [ -S "$dir/$socket" ]; do
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "weston-session: weston exited during start-up; its log:" >&2
            cat "$dir/weston.log" >&2 2>/dev/null || true
            rm -rf "$dir"
            exit 1
        fi
        tries=$((tries + 1))
        if [ "$tries" -gt 200 ]; then
            echo "weston-session: no socket after 10 s; log in $dir/weston.log" >&2
            kill "$pid" 2>/dev/null || true
            exit 1
        fi
        sleep 0.05
    done
    echo "XDG_RUNTIME_DIR=$dir"
    echo "WAYLAND_DISPLAY=$socket"
    echo "WESTON_PID=$pid"
    echo "WESTON_LOG=$dir/weston.log"
}

stop() {
    dir=${1:?usage: weston-session.sh stop RUNTIME_DIR}
    case "$dir" in /tmp/folio-weston-*) ;; *) echo "weston-session: $dir is not a session directory" >&2; exit 2 ;; esac
    if [ -f "$dir/weston.pid" ]; then
        pid=$(cat "$dir/weston.pid")
        kill "$pid" 2>/dev/null || true
        tries=0
        while kill -0 "$pid" 2>/dev/null && [ "$tries" -lt 40 ]; do sleep 0.05; tries=$((tries + 1)); done
        kill -9 "$pid" 2>/dev/null || true
    fi
    rm -rf "$dir"
}

case "${1:-}" in
    start) shift; start "$@" ;;
    stop) shift; stop "$@" ;;
    *) echo "usage: weston-session.sh start [WIDTH HEIGHT] | stop RUNTIME_DIR" >&2; exit 2 ;;
esac
