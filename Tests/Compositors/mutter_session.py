#!/usr/bin/env python3
"""GNOME's compositor: Folio under a private headless Mutter, driven through its D-Bus
remote-desktop interface.

Starts `mutter --wayland --headless --no-x11 --virtual-monitor 1280x800` (its own runtime dir; run
this inside its own `dbus-run-session`), starts the client with its own book and its protocol log
(WAYLAND_DEBUG), and checks that it maps (a buffer attached and committed after the configure).
Then, through org.gnome.Mutter.RemoteDesktop (a session without a screen-cast stream), the virtual
pointer draws two strokes in the middle of the window and the virtual keyboard presses Ctrl+Z;
SIGTERM must end the client with status 0 and its book must hold the one stroke left.

Touch is not injected: Mutter 43's NotifyTouchDown takes a screen-cast stream, and starting a
session with a stream needs PipeWire ("Failed to create pipewire context" without it).

    mutter_session.py --client /path/to/folio --out DIR

Exit status 0 when every check holds; 1 with one line per failed check; 77 when Mutter or jeepney
is missing (the caller decides whether that fails).
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

from headless_compositor import HeadlessCompositor, check_saved_on_sigterm

WIDTH, HEIGHT = 1280, 800
SKIP = 77
BTN_LEFT = 272
KEY_LEFTCTRL, KEY_LEFTSHIFT, KEY_Z = 29, 42, 44


class Mutter(HeadlessCompositor):
    """A private headless Mutter with one virtual monitor."""

    def __init__(self, workdir):
        if not shutil.which("mutter"):
            print("mutter_session: mutter is not installed (apt-get install mutter)")
            sys.exit(SKIP)
        socket = "folio-mutter"
        super().__init__(workdir, "mutter_session",
                         ["mutter", "--wayland", "--headless", "--no-x11", "--virtual-monitor", f"{WIDTH}x{HEIGHT}",
                          "--wayland-display", socket],
                         socket, "mutter.log")


class RemoteDesktop:
    """One org.gnome.Mutter.RemoteDesktop session: a virtual pointer and keyboard. The session
    lives as long as this D-Bus connection."""

    BUS = "org.gnome.Mutter.RemoteDesktop"

    def __init__(self):
        from jeepney import DBusAddress
        from jeepney.io.blocking import open_dbus_connection

        self.connection = open_dbus_connection(bus="SESSION")
        manager = DBusAddress("/org/gnome/Mutter/RemoteDesktop", bus_name=self.BUS, interface=self.BUS)
        # Mutter owns its D-Bus names shortly after its socket appears.
        deadline = time.monotonic() + 30
        while True:
            reply = self._send(manager, "CreateSession", None, ())
            if reply.header.message_type.name != "error":
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"CreateSession failed: {reply.body}")
            time.sleep(0.2)
        self.session = DBusAddress(reply.body[0], bus_name=self.BUS, interface=self.BUS + ".Session")
        self.call("Start")

    def _send(self, address, method, signature, arguments):
        from jeepney import new_method_call

        return self.connection.send_and_get_reply(new_method_call(address, method, signature, arguments), timeout=10)

    def call(self, method, signature=None, *arguments):
        reply = self._send(self.session, method, signature, arguments)
        if reply.header.message_type.name == "error":
            raise RuntimeError(f"{method} failed: {reply.body}")

    def move(self, dx, dy):
        self.call("NotifyPointerMotionRelative", "dd", float(dx), float(dy))

    def button(self, pressed):
        self.call("NotifyPointerButton", "ib", BTN_LEFT, pressed)

    def key(self, code, pressed):
        self.call("NotifyKeyboardKeycode", "ub", code, pressed)

    def close(self):
        self.connection.close()


def protocol_log(path):
    """(attached and committed buffers, commits) Folio's WAYLAND_DEBUG log shows so far."""
    attached = commits = 0
    pending = False
    with open(path, errors="replace") as log:
        for line in log:
            if " -> wl_surface@" not in line:
                continue
            if ".attach(wl_buffer@" in line:
                pending = True
            elif ".commit()" in line:
                commits += 1
                attached += pending
                pending = False
    return attached, commits


def wait_for_commits(log_path, at_least, seconds):
    """Waits until Folio has committed `at_least` buffers; the count reached."""
    deadline = time.monotonic() + seconds
    while True:
        attached, _ = protocol_log(log_path)
        if attached >= at_least or time.monotonic() > deadline:
            return attached
        time.sleep(0.05)


def draw_stroke(remote, steps=20):
    """The left button held down while the pointer moves 200 px right and 40 down."""
    remote.button(True)
    for _ in range(steps):
        time.sleep(0.016)
        remote.move(200 / steps, 40 / steps)
    remote.button(False)


def scenario(mutter, processes, book, client_log_path, failures):
    """Maps the client, draws two strokes with the virtual pointer, presses Ctrl+Z, ends it with
    SIGTERM and reads its book. `processes` collects what `main` must clean up."""
    client = subprocess.Popen([processes["folio"], "--book", book], stdout=open(client_log_path, "w"),
                              stderr=subprocess.STDOUT, env=dict(mutter.env, WAYLAND_DISPLAY=mutter.socket, WAYLAND_DEBUG="1"))
    processes["client"] = client
    if wait_for_commits(client_log_path, 1, 20) < 1:
        failures.append("the client never committed a buffer (it did not map)")
        return
    remote = processes["remote"] = RemoteDesktop()
    # The pointer starts at the screen's corner, where a press would turn a page: to the middle first.
    remote.move(WIDTH / 2 - 200, HEIGHT / 2 - 100)
    time.sleep(0.3)
    before = protocol_log(client_log_path)[0]
    for _ in range(2):
        draw_stroke(remote)
        remote.move(-200, 60)
        time.sleep(0.3)
    drawn = wait_for_commits(client_log_path, before + 2, 10) - before
    if drawn < 2:
        failures.append(f"drawing with the virtual pointer committed {drawn} frames")
    # The seat gains its keyboard with the first key: a Shift tap, then Ctrl+Z.
    remote.key(KEY_LEFTSHIFT, True)
    remote.key(KEY_LEFTSHIFT, False)
    time.sleep(0.5)
    remote.key(KEY_LEFTCTRL, True)
    remote.key(KEY_Z, True)
    remote.key(KEY_Z, False)
    remote.key(KEY_LEFTCTRL, False)
    time.sleep(0.5)
    if client.poll() is not None:
        failures.append(f"the client exited early with status {client.returncode}")
        return
    check_saved_on_sigterm(client, processes["folio"], book, '{"sheets":[{"strokes":1,"paper":"plain"}]}', failures)

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--client", required=True, help="the folio binary")
    parser.add_argument("--out", required=True, help="folder for logs")
    args = parser.parse_args()
    try:
        import jeepney  # noqa: F401
    except ImportError:
        print("mutter_session: missing Python module: jeepney (pip install jeepney)")
        sys.exit(SKIP)
    os.makedirs(args.out, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="folio-mutter-")
    mutter = Mutter(workdir)
    processes = {"folio": args.client}
    failures = []
    try:
        scenario(mutter, processes, os.path.join(workdir, "book"), os.path.join(args.out, "client.log"), failures)
    except RuntimeError as error:  # a remote-desktop call Mutter refused
        failures.append(str(error))
    finally:
        if "remote" in processes:
            processes["remote"].close()
        client = processes.get("client")
        if client is not None and client.poll() is None:
            client.kill()
            client.wait()
        mutter.stop()
        shutil.copy(mutter.log.name, os.path.join(args.out, "mutter.log"))
        shutil.rmtree(workdir, ignore_errors=True)
    for failure in failures:
        print(f"mutter_session: {failure}")
    print(f"mutter_session: {'FAILED' if failures else 'passed'}; logs in {args.out}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
