"""What the compositor drivers (kwin_touch.py, mutter_session.py) share: a private headless
compositor on its own runtime dir and socket, and the checks of Folio's book at the end."""

import os
import signal
import subprocess
import sys
import time


class HeadlessCompositor:
    """Starts `argv` with XDG_RUNTIME_DIR inside `workdir` and waits (up to 30 s) for its Wayland
    socket `socket`. `tag` starts every line printed ("kwin_touch"); its log is workdir/`log_name`."""

    def __init__(self, workdir, tag, argv, socket, log_name, extra_env=None):
        self.runtime = os.path.join(workdir, "runtime")
        os.mkdir(self.runtime, 0o700)
        self.socket = socket
        self.env = dict(os.environ, XDG_RUNTIME_DIR=self.runtime, XDG_SESSION_TYPE="wayland", **(extra_env or {}))
        self.env.pop("WAYLAND_DISPLAY", None)
        self.env.pop("DISPLAY", None)
        self.log = open(os.path.join(workdir, log_name), "w")
        self.process = subprocess.Popen(argv, env=self.env, stdout=self.log, stderr=subprocess.STDOUT)
        path = os.path.join(self.runtime, socket)
        deadline = time.monotonic() + 30
        while not os.path.exists(path):
            if self.process.poll() is not None or time.monotonic() > deadline:
                print(f"{tag}: {argv[0]} did not start (see {self.log.name})")
                sys.exit(1)
            time.sleep(0.05)

    def kill(self):
        """SIGKILL, as a compositor crash or an OOM kill ends it: no goodbye on any connection."""
        self.process.kill()
        self.process.wait()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()


def check_book(folio, book, expected, when, failures):
    """`folio info` of `book` must print `expected` (white space aside)."""
    info = subprocess.run([folio, "info", "--book", book], capture_output=True, text=True)
    if info.returncode != 0 or "".join(info.stdout.split()) != expected:
        failures.append(f"the book {when} is not {expected}: {info.stdout.strip()} {info.stderr.strip()}")


def check_saved_on_sigterm(client, folio, book, expected, failures):
    """SIGTERM ends the app cleanly, and the book is what the scenario drew (`expected`, as
    `folio info` prints it)."""
    client.send_signal(signal.SIGTERM)
    try:
        status = client.wait(10)
    except subprocess.TimeoutExpired:
        failures.append("the client ignored SIGTERM for 10 s")
        return
    if status != 0:
        failures.append(f"after SIGTERM the client exited with status {status}")
    check_book(folio, book, expected, "after SIGTERM", failures)
