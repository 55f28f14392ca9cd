#!/usr/bin/env python3
"""Real touch on a real compositor: headless KWin injects wl_touch events into Folio.

Starts a private KWin (virtual backend, its own runtime dir and D-Bus session), binds
org_kde_kwin_fake_input first (KWin gives the seat touch only once an injector exists), starts
the client fullscreen, then plays a scenario of touches and takes screenshots through
org.kde.KWin.ScreenShot2. Screenshots are written as PNG files into --out.

    kwin_touch.py --client /path/to/folio --out DIR [--scenario fold|turn|toolbar|lasso|tap-undo|hold-shape|scale|vanish-stroke|vanish-pinch|latency] [--scale S]

fold: one finger draws, two fingers pinch and hold, the book opens again; one stroke is saved.
turn: one finger draws, a finger dragged from the right edge turns to a new sheet (a screenshot
mid-turn), one finger draws on it; two sheets of one stroke each are saved.
toolbar: the handle shows; one finger draws; a tap on the handle shows the bar (laid out as
`folio controls` prints it), a tap on undo takes the stroke away; an empty sheet is saved.
tap-undo: one finger draws; two fingers tap (down together, up 80 ms later, unmoved): the stroke
is undone, the pages are never seen folding, the tap leaves no ink; an empty sheet is saved.
hold-shape: one finger draws a wobbly circle and rests, sending nothing, for 0.8 s: the ink on
screen becomes a true circle (Folio's own clock fires the hold); lifting keeps it; one stroke saved.
lasso: one finger draws; taps on the handle and `lasso`; a finger's loop selects the stroke (its
highlight shows, no ink); a finger drags it 200 px down and it follows; a tap elsewhere ends the
selection; the book's one stroke is saved where it went.
scale (with KWin at --scale S, e.g. 1.25 or 1.5, which sends wp_fractional_scale_v1's
preferred_scale): Folio's buffers are the logical size times S (rounded as the protocol says),
its viewport destination is the logical size (both read from the client's WAYLAND_DEBUG log),
and a stroke's ink on the screenshot is 6 × S screen pixels wide; one stroke is saved.
vanish-stroke: one finger draws a stroke, a second stroke is half drawn (its ink on screen) when
KWin is killed (SIGKILL): Folio prints one line, exits 0, and both strokes are saved.
vanish-pinch: one finger draws, two fingers pinch and hold (the fold on screen) when KWin is
killed: Folio prints one line, exits 0, and the stroke is saved.
latency: late commits against frames drawn at each callback, in one run: one finger draws two
strokes of 1.2 s (a touch frame every 8 ms, 120 Hz) in this Folio, which then quits; a second
Folio with `ink.late_commits = false` takes four, and quits; a third (late commits on) takes two
and is checked as usual. Each is the only window. From their WAYLAND_DEBUG logs, each touch
sample's time to the return of the frame callback of the first commit after it (the frame
carrying it): with late commits its p50 must be a fifth (LATE_COMMIT_GAIN), and at least 4 ms,
under the p50 without; the clients log (FOLIO_LOG=debug) a "callback returned" line per frame,
and once KWin's cycle is first known (within the first tenth of them) at least CYCLE_SHARE of
the late-commit frames are drawn with it known. Prints the figures.

Exit status 0 when every check of the scenario holds; 1 with one line per failed check;
77 when KWin or a Python module is missing (the caller decides whether that fails).
"""

import argparse
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

from headless_compositor import HeadlessCompositor, check_book, check_saved_on_sigterm

WIDTH, HEIGHT = 1280, 800
SKIP = 77
# KWin's output scale (--scale); screenshots are in screen pixels, WIDTH × SCALE wide.
SCALE = 1.0


def need_modules():
    try:
        import jeepney  # noqa: F401
        import pywayland  # noqa: F401
    except ImportError as error:
        print(f"kwin_touch: missing Python module: {error.name} (pip install pywayland jeepney)")
        sys.exit(SKIP)


def generate_fake_input_bindings(workdir):
    """pywayland bindings for KWin's fake-input protocol, from Debian's plasma-wayland-protocols."""
    xml = "/usr/share/plasma-wayland-protocols/fake-input.xml"
    if not os.path.exists(xml):
        print(f"kwin_touch: {xml} is missing (apt-get install plasma-wayland-protocols)")
        sys.exit(SKIP)
    out = os.path.join(workdir, "bindings")
    scanner = shutil.which("pywayland-scanner") or os.path.join(os.path.dirname(sys.executable), "pywayland-scanner")
    subprocess.run([scanner, "-i", xml, "-o", out], check=True, capture_output=True)
    sys.path.insert(0, out)


class KWin(HeadlessCompositor):
    """A private headless KWin. Debian's binary carries a file capability that containers
    refuse ("Operation not permitted"), so a plain copy is run."""

    def __init__(self, workdir):
        installed = shutil.which("kwin_wayland")
        if not installed:
            print("kwin_touch: kwin_wayland is not installed (apt-get install kwin-wayland)")
            sys.exit(SKIP)
        binary = os.path.join(workdir, "kwin_wayland")
        shutil.copy(installed, binary)
        socket = "folio-kwin"
        super().__init__(workdir, "kwin_touch",
                         [binary, "--virtual", "--width", str(WIDTH), "--height", str(HEIGHT), "--scale", str(SCALE),
                          "--socket", socket, "--no-lockscreen", "--no-global-shortcuts", "--no-kactivities"],
                         socket, "kwin.log",
                         {"KWIN_WAYLAND_NO_PERMISSION_CHECKS": "1", "KWIN_SCREENSHOT_NO_PERMISSION_CHECKS": "1",
                          "QT_QPA_PLATFORM": "wayland"})
        # The socket exists before KWin serves D-Bus screenshots; wait until one works.
        deadline = time.monotonic() + 30
        while True:
            try:
                screenshot()
                break
            except Exception as error:  # D-Bus name not yet owned
                if time.monotonic() > deadline:
                    print(f"kwin_touch: KWin's ScreenShot2 never answered: {error}")
                    sys.exit(1)
                time.sleep(0.2)


class Injector:
    """A Wayland client that binds org_kde_kwin_fake_input and sends real touch events."""

    def __init__(self, kwin):
        from pywayland.client import Display
        from fake_input import OrgKdeKwinFakeInput

        os.environ["XDG_RUNTIME_DIR"] = kwin.runtime
        self.display = Display(kwin.socket)
        self.display.connect()
        registry = self.display.get_registry()
        self.fake = None

        def on_global(registry, name, interface, version):
            if interface == "org_kde_kwin_fake_input":
                self.fake = registry.bind(name, OrgKdeKwinFakeInput, min(version, 4))

        registry.dispatcher["global"] = on_global
        self.display.roundtrip()
        if self.fake is None:
            print("kwin_touch: KWin offers no org_kde_kwin_fake_input")
            sys.exit(1)
        self.fake.authenticate("folio tests", "inject touch to test Folio")
        self.display.roundtrip()

    def frame(self, downs=(), motions=(), ups=()):
        for touch_id, x, y in downs:
            self.fake.touch_down(touch_id, x, y)
        for touch_id, x, y in motions:
            self.fake.touch_motion(touch_id, x, y)
        for touch_id in ups:
            self.fake.touch_up(touch_id)
        self.fake.touch_frame()
        self.display.flush()
        self.display.roundtrip()

    def key(self, code, pressed):
        self.fake.keyboard_key(code, 1 if pressed else 0)
        self.display.roundtrip()


def screenshot():
    """The whole screen as (width, height, rows of (r, g, b)) through ScreenShot2.CaptureArea."""
    from jeepney import DBusAddress, new_method_call
    from jeepney.io.blocking import open_dbus_connection

    read_end, write_end = os.pipe()
    address = DBusAddress("/org/kde/KWin/ScreenShot2", bus_name="org.kde.KWin", interface="org.kde.KWin.ScreenShot2")
    message = new_method_call(address, "CaptureArea", "iiuua{sv}h",
                              (0, 0, WIDTH, HEIGHT, {"native-resolution": ("b", True)}, write_end))
    with open_dbus_connection(bus="SESSION", enable_fds=True) as connection:
        reply = connection.send_and_get_reply(message, timeout=10)
    os.close(write_end)
    if reply.header.message_type.name == "error":
        os.close(read_end)
        raise RuntimeError(f"screenshot failed: {reply.body}")
    info = {key: value for key, (_, value) in reply.body[0].items()}
    data = bytearray()
    with os.fdopen(read_end, "rb") as pipe:
        while chunk := pipe.read(1 << 20):
            data += chunk
    width, height, stride = info["width"], info["height"], info["stride"]
    return Image(width, height, stride, bytes(data))


class Image:
    """A QImage ARGB32 / RGB32 buffer: little-endian BGRA bytes per pixel."""

    def __init__(self, width, height, stride, data):
        self.width, self.height, self.stride, self.data = width, height, stride, data

    def rgb(self, x, y):
        offset = y * self.stride + x * 4
        b, g, r = self.data[offset], self.data[offset + 1], self.data[offset + 2]
        return r, g, b

    def save_png(self, path):
        rows = bytearray()
        for y in range(self.height):
            rows.append(0)
            line = self.data[y * self.stride:y * self.stride + self.width * 4]
            for x in range(0, len(line), 4):
                rows += bytes((line[x + 2], line[x + 1], line[x]))

        def chunk(kind, body):
            return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        with open(path, "wb") as out:
            out.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows), 6))
                      + chunk(b"IEND", b""))


def is_white(rgb):
    return all(channel >= 240 for channel in rgb)


def is_paper(rgb):
    """White or shaded page: grey and light, unlike the dark backdrop."""
    r, g, b = rgb
    return min(rgb) >= 120 and max(rgb) - min(rgb) <= 12


def is_ink(rgb):
    r, g, b = rgb
    return b >= 200 and r <= 60 and g <= 60


def is_shaded_ink(rgb):
    """Ink on a leaf darkened toward the spine: clearly bluer than it is red or green."""
    r, g, b = rgb
    return b >= r + 60 and b >= g + 60


def wait_for(predicate, seconds, out, name):
    """Screenshots until one satisfies `predicate`; None (the last one saved as NAME) on time-out."""
    deadline = time.monotonic() + seconds
    while True:
        image = screenshot()
        if predicate(image):
            return image
        if time.monotonic() > deadline:
            image.save_png(os.path.join(out, name))
            return None
        time.sleep(0.1)


def draw_stroke(injector, y, x_from, x_to, steps=20):
    """One finger draws a horizontal stroke at row `y`, at about a finger's pace."""
    injector.frame(downs=[(0, x_from, y)])
    for step in range(1, steps + 1):
        time.sleep(0.016)
        injector.frame(motions=[(0, x_from + (x_to - x_from) * step // steps, y)])
    injector.frame(ups=[0])


def draw_and_see(injector, y, x_from, x_to, along, out, name, failures, what="the stroke"):
    """Draws a stroke and waits until its ink shows at the points `along` it (NAME-stroke.png);
    the screenshot, or None with a failure noted (NAME-no-stroke.png) if it never shows."""
    draw_stroke(injector, y, x_from, x_to)
    drawn = wait_for(lambda im: all(is_ink(im.rgb(x, y)) for x in along), 15, out, f"{name}-no-stroke.png")
    if drawn is None:
        failures.append(f"{what} never showed along y={y}")
        return None
    drawn.save_png(os.path.join(out, f"{name}-stroke.png"))
    return drawn


def scenario_fold(kwin, injector, client, out, failures):
    """One finger draws; two fingers pinch to 0.75 and hold; release; the flat canvas returns."""
    centre_y = HEIGHT // 2
    canvas = wait_for(lambda im: is_white(im.rgb(WIDTH // 2, centre_y)) and is_white(im.rgb(40, 40)), 15, out,
                      "0-no-canvas.png")
    if canvas is None:
        failures.append("the white canvas never filled the screen")
        return
    canvas.save_png(os.path.join(out, "0-canvas.png"))

    # One finger draws a horizontal stroke in the upper part of the screen.
    stroke_y = 200
    along = range(320, 880, 40)
    if draw_and_see(injector, stroke_y, 300, 900, along, out, "1", failures) is None:
        return

    # Two fingers 400 px apart pinch to 300 px apart (scale 0.75) and hold.
    left, right = WIDTH // 2 - 200, WIDTH // 2 + 200
    time.sleep(0.4)
    injector.frame(downs=[(1, left, centre_y), (2, right, centre_y)])
    for step in range(1, 11):
        time.sleep(0.016)
        injector.frame(motions=[(1, left + step * 5, centre_y), (2, right - step * 5, centre_y)])
    # The frame shows the newest scale once the client has drawn it: wait for it, not for a fixed time.
    def shows_fold(image):
        return not is_white(image.rgb(60, centre_y)) and not is_white(image.rgb(WIDTH - 60, centre_y))

    folded = wait_for(shows_fold, 15, out, "2-no-fold.png")
    if folded is None:
        failures.append("no fold on screen while the pinch is held (the screen edges are still paper)")
        injector.frame(ups=[1, 2])
        return
    folded.save_png(os.path.join(out, "2-folded.png"))
    if not (is_paper(folded.rgb(WIDTH // 2 - 200, centre_y)) and is_paper(folded.rgb(WIDTH // 2 + 200, centre_y))):
        failures.append("the folded pages are not visible beside the spine")

    injector.frame(ups=[1, 2])
    # The unfold lasts 0.5 / 0.75 s; then the flat canvas with the ink is back.
    # The rounded page corners leave the screen's corner pixels to the backdrop while the
    # curtain is up, even when a page is nearly open; paper there means the canvas is back.
    opened = wait_for(lambda im: all(is_white(im.rgb(x, y)) for x in (2, WIDTH - 3) for y in (2, HEIGHT - 3)), 15, out,
                      "3-not-opened.png")
    if opened is None:
        failures.append("after the unfold the canvas does not fill the screen again")
        return
    opened.save_png(os.path.join(out, "3-opened.png"))
    inked = [x for x in along if is_ink(opened.rgb(x, stroke_y))]
    if len(inked) < len(along):
        failures.append(f"after the unfold the stroke is gone: ink at {len(inked)} of {len(along)} points")
    stray = [x for x in range(left - 20, right + 20, 10) if is_ink(opened.rgb(x, centre_y))]
    if stray:
        failures.append(f"the pinch left stray ink at y={centre_y}, x in {stray[:5]}")


def scenario_turn(kwin, injector, client, out, failures):
    """One finger draws on the right half; a finger from the right edge turns the page to a new
    blank sheet (a screenshot mid-turn, the leaf carrying the ink); one finger draws on sheet 2."""
    canvas = wait_for(lambda im: is_white(im.rgb(WIDTH // 2, HEIGHT // 2)) and is_white(im.rgb(2, 2)), 15, out,
                      "0-no-canvas.png")
    if canvas is None:
        failures.append("the white canvas never filled the screen")
        return

    # The stroke lies on the half that turns, its far end well inside the edge zone's left.
    stroke_y = 200
    along = range(720, 1090, 40)
    if draw_and_see(injector, stroke_y, 700, 1100, along, out, "1", failures) is None:
        return

    # A finger lands 10 px inside the right edge and drags left to 800 px: θ = −π·470/1270, before 90°.
    finger_y, x0 = HEIGHT // 2, WIDTH - 10
    injector.frame(downs=[(1, x0, finger_y)])
    x = x0
    while x > 800:
        time.sleep(0.016)
        x = max(800, x - 40)
        injector.frame(motions=[(1, x, finger_y)])

    # Mid-turn: the curtain is up (the pages' rounded corners leave the screen's corners dark),
    # the leaf has carried the ink off the stroke's far end, and the ink is still on screen.
    def mid_turn(image):
        corners_dark = not is_white(image.rgb(2, 2)) and not is_white(image.rgb(WIDTH - 3, HEIGHT - 3))
        far_end_clear = not any(is_ink(image.rgb(x, y)) for x in range(1040, 1090, 10) for y in range(150, 260, 4))
        inked = any(is_ink(image.rgb(x, y)) or is_shaded_ink(image.rgb(x, y))
                    for x in range(WIDTH // 2, 1040, 4) for y in range(100, 300, 4))
        return corners_dark and far_end_clear and inked

    turning = wait_for(mid_turn, 15, out, "2-no-turn.png")
    if turning is None:
        failures.append("no turning leaf on screen while the finger holds it before 90°")
        injector.frame(ups=[1])
        return
    turning.save_png(os.path.join(out, "2-mid-turn.png"))
    stray = [x for x in range(WIDTH // 2, x0, 20) if is_ink(turning.rgb(x, finger_y))]
    if stray:
        failures.append(f"the turning finger drew ink at y={finger_y}, x in {stray[:5]}")

    # On past 90° to a quarter of the width, and let go: the leaf settles on a new blank sheet.
    while x > WIDTH // 4:
        time.sleep(0.016)
        x = max(WIDTH // 4, x - 40)
        injector.frame(motions=[(1, x, finger_y)])
    injector.frame(ups=[1])

    def blank_sheet(image):
        corners = all(is_white(image.rgb(x, y)) for x in (2, WIDTH - 3) for y in (2, HEIGHT - 3))
        return corners and all(is_white(image.rgb(x, stroke_y)) for x in along)

    turned = wait_for(blank_sheet, 15, out, "3-not-turned.png")
    if turned is None:
        failures.append("after the turn the screen is not a blank sheet")
        return
    turned.save_png(os.path.join(out, "3-turned.png"))

    draw_and_see(injector, 600, 300, 900, range(320, 880, 40), out, "4-second", failures,
                 what="the stroke on the new sheet")


def tap(injector, rect):
    """A finger taps the middle of `rect` ([x, y, w, h] in logical px; the screen is at scale 1)."""
    x, y = int(rect[0] + rect[2] / 2), int(rect[1] + rect[3] / 2)
    injector.frame(downs=[(3, x, y)])
    time.sleep(0.05)
    injector.frame(ups=[3])


def scenario_toolbar(kwin, injector, client, out, failures):
    """The handle is on screen; a stroke; tap the handle, the bar shows; tap undo, the stroke is gone."""
    import json

    layout = json.loads(subprocess.run([client.args[0], "controls", "--size", f"{WIDTH}x{HEIGHT}"],
                                       capture_output=True, text=True, check=True).stdout)
    handle = layout["handle"]
    controls = {entry["name"]: entry["rect"] for entry in layout["controls"]}
    tab = (int(handle[0] + handle[2] / 2) - 30, int(handle[1] + handle[3]) - 4)

    # The handle is drawn on its own surface over the white canvas.
    canvas = wait_for(lambda im: is_white(im.rgb(WIDTH // 2, HEIGHT // 2)) and not is_white(im.rgb(*tab)), 15, out,
                      "0-no-handle.png")
    if canvas is None:
        failures.append("the toolbar's handle never showed at the bottom edge")
        return
    canvas.save_png(os.path.join(out, "0-handle.png"))

    stroke_y = 300
    along = range(320, 880, 40)
    if draw_and_see(injector, stroke_y, 300, 900, along, out, "1", failures) is None:
        return

    undo = controls["undo"]
    undo_inside = (int(undo[0]) + 4, int(undo[1]) + 4)
    tap(injector, handle)
    shown = wait_for(lambda im: not is_white(im.rgb(*undo_inside)), 15, out, "2-no-toolbar.png")
    if shown is None:
        failures.append("a tap on the handle did not show the toolbar")
        return
    shown.save_png(os.path.join(out, "2-toolbar.png"))
    if not all(is_ink(shown.rgb(x, stroke_y)) for x in along):
        failures.append("showing the toolbar changed the canvas")
    blue = controls["color.1"]
    if not is_ink(shown.rgb(int(blue[0] + blue[2] / 2), int(blue[1] + blue[3] / 2))):
        failures.append("the first colour swatch is not the default blue")

    tap(injector, undo)
    undone = wait_for(lambda im: not any(is_ink(im.rgb(x, stroke_y)) for x in along), 15, out, "3-not-undone.png")
    if undone is None:
        failures.append("a tap on undo did not take the stroke away")
        return
    undone.save_png(os.path.join(out, "3-undone.png"))
    stray = [name for name, r in controls.items() if is_ink(undone.rgb(int(r[0] + 2), int(r[1] + 2)))]
    if stray:
        failures.append(f"taps on the toolbar left ink at {stray}")


def scenario_tap_undo(kwin, injector, client, out, failures):
    """One finger draws; a two-finger tap undoes it without a fold on screen or ink of its own."""
    if not blank_canvas(out, failures):
        return
    stroke_y = 200
    along = range(320, 880, 40)
    if draw_and_see(injector, stroke_y, 300, 900, along, out, "1", failures) is None:
        return
    time.sleep(0.4)
    centre_y = HEIGHT // 2
    fingers = [(1, WIDTH // 2 - 100, centre_y), (2, WIDTH // 2 + 100, centre_y)]
    injector.frame(downs=fingers)
    time.sleep(0.08)
    injector.frame(ups=[1, 2])
    # The tap's pinch is withdrawn as its first finger lifts, and the pages close at once: from
    # 0.1 s after the lift, for a second and a half, the curtain is down (a fold, or the unfold
    # animation a pinch ends with, shows the backdrop at the screen's corners and edges), and the
    # stroke goes.
    time.sleep(0.1)
    deadline = time.monotonic() + 1.5
    undone = None
    flat = [(2, 2), (WIDTH - 3, HEIGHT - 3), (60, centre_y), (WIDTH - 60, centre_y)]
    while time.monotonic() < deadline:
        image = screenshot()
        if not all(is_white(image.rgb(x, y)) for x, y in flat):
            image.save_png(os.path.join(out, "2-folded.png"))
            failures.append("after the two-finger tap the pages folded or unfolded on screen")
            return
        if not any(is_ink(image.rgb(x, stroke_y)) for x in along):
            undone = image
        time.sleep(0.05)
    undone = undone or wait_for(lambda im: not any(is_ink(im.rgb(x, stroke_y)) for x in along), 15, out, "2-not-undone.png")
    if undone is None:
        failures.append("the two-finger tap did not undo the stroke")
        return
    undone.save_png(os.path.join(out, "2-undone.png"))
    stray = [(x, y) for _, x, y in fingers if any(is_ink(undone.rgb(x + dx, y)) for dx in range(-8, 9, 4))]
    if stray:
        failures.append(f"the tap left ink at {stray}")


def scenario_hold_shape(kwin, injector, client, out, failures):
    """A wobbly circle held still at its end snaps to a circle while the finger rests."""
    import math
    if not blank_canvas(out, failures):
        return
    cx, cy, radius = WIDTH // 2, HEIGHT // 2, 200

    def on_circle(r, degrees):
        return int(cx + r * math.cos(math.radians(degrees))), int(cy + r * math.sin(math.radians(degrees)))

    # Once round and a little past, bulging ±12 px three times; then the finger rests.
    steps = 90
    points = []
    for k in range(steps + 1):
        phi = 2.1 * math.pi * k / steps
        r = radius + 12 * math.sin(3 * phi + 0.4)
        points.append((int(cx + r * math.cos(phi)), int(cy + r * math.sin(phi))))
    injector.frame(downs=[(0, *points[0])])
    for x, y in points[1:]:
        time.sleep(0.008)
        injector.frame(motions=[(0, x, y)])
    time.sleep(0.8)
    true_circle = [on_circle(radius, d) for d in range(0, 360, 10)]
    snapped = wait_for(lambda im: all(is_ink(im.rgb(x, y)) for x, y in true_circle), 5, out, "1-not-snapped.png")
    if snapped is None:
        failures.append("the held circle did not snap: the ink is not on the true circle all round")
        injector.frame(ups=[0])
        return
    snapped.save_png(os.path.join(out, "1-snapped.png"))
    off = [(d, o) for d in range(0, 360, 30) for o in (-18, 18) if is_ink(snapped.rgb(*on_circle(radius + o, d)))]
    if off:
        failures.append(f"ink remains off the circle (degrees, offset): {off[:5]}")
    injector.frame(ups=[0])

def is_highlight(rgb):
    """The pale blue under selected strokes (#A8CCFF)."""
    r, g, b = rgb
    return 150 <= r <= 190 and 190 <= g <= 220 and b >= 240


def scenario_lasso(kwin, injector, client, out, failures):
    """A stroke; tap the handle and `lasso`; a finger draws a loop round the stroke (no ink), which
    selects it (the highlight shows); a finger drags it 200 px down, and it follows; a tap
    elsewhere ends the selection; the saved stroke is where it went (the SVG export says)."""
    import json

    layout = json.loads(subprocess.run([client.args[0], "controls", "--size", f"{WIDTH}x{HEIGHT}"],
                                       capture_output=True, text=True, check=True).stdout)
    controls = {entry["name"]: entry["rect"] for entry in layout["controls"]}
    canvas = wait_for(lambda im: is_white(im.rgb(WIDTH // 2, HEIGHT // 2)), 15, out, "0-no-canvas.png")
    if canvas is None:
        failures.append("the white canvas never filled the screen")
        return
    stroke_y, moved_y = 300, 500
    along = range(420, 780, 40)
    if draw_and_see(injector, stroke_y, 400, 800, along, out, "1", failures) is None:
        return

    lasso = controls["lasso"]
    tap(injector, layout["handle"])
    shown = wait_for(lambda im: not is_white(im.rgb(int(lasso[0]) + 4, int(lasso[1]) + 4)), 15, out, "2-no-toolbar.png")
    if shown is None:
        failures.append("a tap on the handle did not show the toolbar")
        return
    tap(injector, lasso)
    time.sleep(0.3)

    # The loop: a rectangle round the stroke, corner to corner, at a finger's pace.
    corners = [(360, 240), (840, 240), (840, 360), (360, 360), (360, 240)]
    injector.frame(downs=[(0, *corners[0])])
    for (x0, y0), (x1, y1) in zip(corners, corners[1:]):
        for step in range(1, 11):
            time.sleep(0.016)
            injector.frame(motions=[(0, x0 + (x1 - x0) * step // 10, y0 + (y1 - y0) * step // 10)])
    injector.frame(ups=[0])
    selected = wait_for(lambda im: is_highlight(im.rgb(600, stroke_y + 5)), 15, out, "3-not-selected.png")
    if selected is None:
        failures.append("the loop selected nothing (no highlight under the stroke)")
        return
    selected.save_png(os.path.join(out, "3-selected.png"))
    # The loop's lower and left sides (the bar now covers its upper side) are paper again.
    if any(not is_white(selected.rgb(x, 360)) for x in range(380, 820, 20)) or \
            any(not is_white(selected.rgb(360, y)) for y in range(250, 350, 10)):
        failures.append("the loop left ink")

    # A finger on the stroke drags it 200 px down.
    injector.frame(downs=[(0, 600, stroke_y)])
    for step in range(1, 21):
        time.sleep(0.016)
        injector.frame(motions=[(0, 600, stroke_y + step * (moved_y - stroke_y) // 20)])
    injector.frame(ups=[0])

    def moved(image):
        return all(is_ink(image.rgb(x, moved_y)) for x in along) and not any(is_ink(image.rgb(x, stroke_y)) for x in along)

    dropped = wait_for(moved, 15, out, "4-not-moved.png")
    if dropped is None:
        failures.append(f"the stroke did not move from y={stroke_y} to y={moved_y}")
        return
    dropped.save_png(os.path.join(out, "4-moved.png"))

    tap(injector, [1000, 680, 1, 1])
    ended = wait_for(lambda im: not is_highlight(im.rgb(600, moved_y + 5)) and moved(im), 15, out, "5-not-ended.png")
    if ended is None:
        failures.append("a tap elsewhere did not end the selection (or the stroke left its place)")
        return
    ended.save_png(os.path.join(out, "5-ended.png"))

    # Saved as it is on screen: the export of the book (read beside the app) starts the path there.
    book = client.args[client.args.index("--book") + 1]
    svg = os.path.join(out, "sheet.svg")
    deadline = time.monotonic() + 10
    while True:
        subprocess.run([client.args[0], "export", "--book", book, "--sheet", "1", "--svg", svg], capture_output=True)
        text = open(svg).read() if os.path.exists(svg) else ""
        if f'<path d="M400 {moved_y} ' in text:
            break
        if time.monotonic() > deadline:
            failures.append(f"the saved stroke does not start at (400, {moved_y}): {text[-300:]}")
            break
        time.sleep(0.2)


def protocol_round(logical, scale120):
    """wp_fractional_scale_v1's buffer size: logical × N/120, rounded halfway away from zero."""
    return (logical * scale120 + 60) // 120


def client_requests(log_path):
    """The sizes of the buffers Folio attached to its window's surface and the destinations it set
    on that surface's viewport, from its WAYLAND_DEBUG log (the toolbar's subsurface and the
    cursor have surfaces, buffers and viewports of their own)."""
    buffers, destinations = [], []
    sizes, viewports, window = {}, {}, None
    with open(log_path, errors="replace") as log:
        for line in log:
            if " -> " not in line:
                continue
            call = line.split(" -> ", 1)[1]
            target = call.split(".", 1)[0]
            args = [arg.strip().split(" ")[-1] for arg in call[call.find("(") + 1:call.rfind(")")].split(",")]
            if ".create_buffer(" in call and call.startswith("wl_shm_pool@"):
                sizes[args[0]] = (int(args[2]), int(args[3]))
            elif ".get_xdg_surface(" in call and window is None:
                window = args[1]
            elif ".get_viewport(" in call:
                viewports[args[0]] = args[1]
            elif ".attach(" in call and target == window and args[0] in sizes:
                buffers.append(sizes[args[0]])
            elif ".set_destination(" in call and viewports.get(target) == window:
                destinations.append((int(args[0]), int(args[1])))
    return buffers, destinations


def scenario_scale(kwin, injector, client, out, failures):
    """KWin at a fractional scale: exact buffers through a viewport, and ink 6 × scale screen px wide."""
    scale120 = round(SCALE * 120)
    screen = lambda logical: int(logical * SCALE)
    canvas = wait_for(lambda im: is_white(im.rgb(screen(WIDTH // 2), screen(HEIGHT // 2))), 15, out, "0-no-canvas.png")
    if canvas is None:
        failures.append("the white canvas never filled the screen")
        return
    if (canvas.width, canvas.height) != (screen(WIDTH), screen(HEIGHT)):
        failures.append(f"the screenshot is {canvas.width}x{canvas.height}, not the screen's {screen(WIDTH)}x{screen(HEIGHT)}")
        return
    stroke_y = 200
    draw_stroke(injector, stroke_y, 300, 900)
    along = range(320, 880, 40)
    drawn = wait_for(lambda im: all(is_ink(im.rgb(screen(x), screen(stroke_y))) for x in along), 15, out, "1-no-stroke.png")
    if drawn is None:
        failures.append(f"the stroke never showed along y={stroke_y}")
        return
    drawn.save_png(os.path.join(out, "1-stroke.png"))
    # Blue ink on white: red is 255 × (1 − coverage). Summed down a column, the ink's width in screen px.
    widths = []
    for x in (400, 600, 800):
        column = range(screen(stroke_y - 20), screen(stroke_y + 20))
        widths.append(sum(1 - drawn.rgb(screen(x), y)[0] / 255 for y in column))
    expected = 6 * scale120 / 120
    print(f"kwin_touch: ink across the stroke: {', '.join(f'{w:.2f}' for w in widths)} screen px (expected {expected:g})")
    if any(abs(w - expected) > 0.5 for w in widths):
        failures.append(f"the ink is {widths} screen px wide, not {expected:g}")

    buffers, destinations = client_requests(os.path.join(out, "client.log"))
    want = (protocol_round(WIDTH, scale120), protocol_round(HEIGHT, scale120))
    print(f"kwin_touch: buffers {sorted(set(buffers))}, viewport destinations {sorted(set(destinations))}")
    window = buffers
    if not window or any(size != want for size in window):
        failures.append(f"the window's buffers are {sorted(set(window))}, not {want[0]}x{want[1]}")
    if not destinations or destinations[-1] != (WIDTH, HEIGHT):
        failures.append(f"the viewport destination is {destinations[-1:] or 'never set'}, not {WIDTH}x{HEIGHT}")


def blank_canvas(out, failures):
    """Waits for the white canvas to fill the screen; False (noted) if it never does."""
    canvas = wait_for(lambda im: is_white(im.rgb(WIDTH // 2, HEIGHT // 2)) and is_white(im.rgb(40, 40)), 15, out,
                      "0-no-canvas.png")
    if canvas is None:
        failures.append("the white canvas never filled the screen")
    return canvas is not None


# Sample to shown under KWin 5.27 at 60 Hz with frames drawn at each callback: p50 23.5-24.4 ms
# on a quiet machine, 26-64 ms on a loaded one. With late commits, which follow the grid of
# KWin's callback stamps, in the same runs: 13.3-17.5 ms quiet, 18-32 ms loaded. How far KWin
# falls behind depends on the load, so no fixed limit holds everywhere: late commits must beat
# frames drawn at each callback in the same run by a fifth of that figure, and at least 4 ms.
LATE_COMMIT_GAIN = 0.2
LATE_COMMIT_GAIN_MS = 4.0
# The share of frames drawn while Folio knows KWin's cycle (late commits on) once it first knew
# it, whatever the load: KWin's stamps keep their grid when it falls behind. Losing the grid at
# each repeated stamp left 84-86% of them on it (lost 5-8 times a run); kept through them, 100%.
CYCLE_SHARE = 0.95


def protocol_timeline(log_path):
    """From a WAYLAND_DEBUG log: the times (ms, the log's clock) touch motions arrived, and for
    each commit of the window's surface that attached a buffer, when it was sent and when the
    frame callback asked with it returned."""
    motions, commits = [], []
    window, pending_attach, pending_callback = None, False, None
    waiting = {}  # callback id -> the commit record waiting for its done
    with open(log_path, errors="replace") as log:
        for line in log:
            if not line.startswith("[") or "]" not in line:
                continue
            try:
                stamp = float(line[1:line.index("]")])
            except ValueError:
                continue
            body = line[line.index("]") + 1:].strip()
            if body.startswith("{") and "}" in body:  # libwayland 1.22 names the event queue
                body = body[body.index("}") + 1:].strip()
            request = body.startswith("-> ")
            call = body[3:] if request else body
            target = call.split(".", 1)[0]
            args = [arg.strip().split(" ")[-1] for arg in call[call.find("(") + 1:call.rfind(")")].split(",")]
            if request:
                if ".get_xdg_surface(" in call and window is None:
                    window = args[1]
                elif target == window and ".attach(" in call:
                    pending_attach = args[0] != "nil"
                elif target == window and ".frame(" in call:
                    pending_callback = args[0]
                elif target == window and call.startswith(f"{window}.commit("):
                    if pending_attach:
                        record = {"sent": stamp, "done": None}
                        commits.append(record)
                        if pending_callback:
                            waiting[pending_callback] = record
                    pending_attach, pending_callback = False, None
            elif call.startswith("wl_touch@") and ".motion(" in call:
                motions.append(stamp)
            elif call.startswith("wl_callback@") and ".done(" in call and target in waiting:
                waiting.pop(target)["done"] = stamp
    return motions, commits


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(q * len(ordered) + 0.999999) - 1))]


def draw_latency_strokes(injector, rows):
    """Strokes of 1.2 s at each of `rows` (y), a touch frame every 8 ms on the clock."""
    for y in rows:
        injector.frame(downs=[(0, 100, y)])
        start = time.monotonic()
        for step in range(1, 151):
            # On the clock, not after each round trip: the samples keep a 120 Hz pace.
            delay = start + step * 0.008 - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            injector.frame(motions=[(0, 100 + step * 7, y + int(40 * ((step // 15) % 2)))])
        injector.frame(ups=[0])
        time.sleep(0.3)


def sample_to_shown(log_paths):
    """For each touch sample in the clients' protocol logs, the time (ms) until the frame
    callback of the first commit after it (the frame carrying it) returned; and the frames shown."""
    latencies, shown_count = [], 0
    for log_path in log_paths:
        motions, commits = protocol_timeline(log_path)
        shown = [c for c in commits if c["done"] is not None]
        shown_count += len(shown)
        for sample in motions:
            carrier = next((c for c in shown if c["sent"] > sample), None)
            if carrier is not None:
                latencies.append(carrier["done"] - sample)
    return latencies, shown_count


def launch_folio(folio, kwin, book, config_home, log, extra_env):
    """`folio` fullscreen on KWin with `book`, its settings under `config_home` (never the user's),
    its output into `log`."""
    return subprocess.Popen([folio, "--fullscreen", "--book", book], stdout=log, stderr=subprocess.STDOUT,
                            env=dict(kwin.env, WAYLAND_DISPLAY=kwin.socket, XDG_CONFIG_HOME=config_home, **extra_env))


def start_folio(client, kwin, workdir, config, log_path):
    """Another Folio like `client`, fullscreen, with a book and `config` of its own and the same
    logs; `client` has exited, so it is the only window."""
    os.makedirs(os.path.join(workdir, "config", "folio"))
    with open(os.path.join(workdir, "config", "folio", "config.toml"), "w") as file:
        file.write(config)
    with open(log_path, "w") as log:
        return launch_folio(client.args[0], kwin, os.path.join(workdir, "book"), os.path.join(workdir, "config"), log,
                            {"WAYLAND_DEBUG": "1", "FOLIO_LOG": "debug"})


def scenario_latency(kwin, injector, client, out, failures):
    """Sample-to-shown from the clients' protocol logs: strokes with late commits on (this
    Folio), then off (a second Folio, `ink.late_commits = false`), then on (a third), each the
    only window, so the load of the machine weighs on both alike. Returns the third Folio and its
    book (two strokes), left running for the usual SIGTERM check."""
    if not blank_canvas(out, failures):
        return None
    draw_latency_strokes(injector, [150, 300])
    time.sleep(0.5)
    check_saved_on_sigterm(client, client.args[0], client.args[-1], '{"sheets":[{"strokes":2,"paper":"plain"}]}', failures)
    logs = {True: [os.path.join(out, "client.log")], False: []}
    folio = None
    for phase, late in ((2, False), (3, True)):
        # Inside KWin's own folder, which the run removes whatever happens.
        workdir = tempfile.mkdtemp(prefix=f"latency-{phase}-", dir=os.path.dirname(kwin.runtime))
        log_path = os.path.join(out, f"client-{phase}-late-commits-{'on' if late else 'off'}.log")
        logs[late].append(log_path)
        folio = start_folio(client, kwin, workdir, f"[ink]\nlate_commits = {'true' if late else 'false'}\n", log_path)
        if not blank_canvas(out, failures):
            return folio, os.path.join(workdir, "book")
        if late:
            draw_latency_strokes(injector, [450, 600])
            time.sleep(0.5)
            break
        draw_latency_strokes(injector, [150, 300, 450, 600])
        time.sleep(0.5)
        check_saved_on_sigterm(folio, client.args[0], os.path.join(workdir, "book"),
                               '{"sheets":[{"strokes":4,"paper":"plain"}]}', failures)
    check_latencies(logs[True], logs[False], failures)
    return folio, os.path.join(workdir, "book")


def check_latencies(late_logs, callback_logs, failures):
    """Judges the figures: late commits clearly sooner than frames drawn at each callback in the
    same run, and nearly every late-commit frame drawn on KWin's cycle."""
    late, shown = sample_to_shown(late_logs)
    at_callback, shown_off = sample_to_shown(callback_logs)
    for latencies, what in ((late, "with late commits"), (at_callback, "with late commits off")):
        if len(latencies) < 400:
            failures.append(f"only {len(latencies)} touch samples {what} were followed by a frame")
    if failures:
        return
    # Each frame line counts as drawn on KWin's cycle when the latest cycle line before it said
    # so; those before the cycle was first known (learning it takes six callbacks) are not judged.
    frame_lines, on_cycle, learning = 0, 0, 0
    callback_lines = False
    for log_path in late_logs:
        known = None
        with open(log_path, errors="replace") as log:
            for line in log:
                if line.startswith("folio: debug: frame: the compositor's cycle is "):
                    known = line.startswith("folio: debug: frame: the compositor's cycle is known")
                elif line.startswith("folio: debug: frame: newest input"):
                    frame_lines += 1
                    on_cycle += known is True
                    learning += known is None
                    callback_lines |= "callback returned at" in line
    p50, p99 = percentile(late, 0.5), percentile(late, 0.99)
    p50_off, p99_off = percentile(at_callback, 0.5), percentile(at_callback, 0.99)
    print(f"kwin_touch: sample to shown (frame callback returned), late commits on: {len(late)} samples, "
          f"p50 {p50:.1f} ms, p99 {p99:.1f} ms, {shown} frames; off (drawn at each callback): {len(at_callback)} samples, "
          f"p50 {p50_off:.1f} ms, p99 {p99_off:.1f} ms, {shown_off} frames; {frame_lines} frame log lines, "
          f"{on_cycle} on KWin's cycle, {learning} before it was known")
    gain = max(LATE_COMMIT_GAIN_MS, LATE_COMMIT_GAIN * p50_off)
    if p50 > p50_off - gain:
        failures.append(f"sample to shown p50 is {p50:.1f} ms with late commits and {p50_off:.1f} ms without: "
                        f"not {gain:.1f} ms less")
    if on_cycle < CYCLE_SHARE * (frame_lines - learning) or learning > frame_lines // 10:
        failures.append(f"{on_cycle} of {frame_lines - learning} frames after the first {learning} were drawn "
                        f"with KWin's cycle known, not {CYCLE_SHARE:.0%}")
    if not callback_lines or frame_lines < shown // 2:
        failures.append(f"{frame_lines} 'frame:' debug lines for {shown} frames")


def scenario_vanish_stroke(kwin, injector, client, out, failures):
    """A stroke drawn, a second one half drawn and on screen, then KWin is killed (SIGKILL)."""
    if not blank_canvas(out, failures) or draw_and_see(injector, 200, 300, 900, range(320, 880, 40), out, "1", failures) is None:
        return
    y, x_from = 500, 300
    injector.frame(downs=[(0, x_from, y)])
    for step in range(1, 11):
        time.sleep(0.016)
        injector.frame(motions=[(0, x_from + step * 30, y)])
    if wait_for(lambda im: all(is_ink(im.rgb(x, y)) for x in range(x_from + 20, x_from + 240, 40)), 15, out,
                "2-no-half-stroke.png") is None:
        failures.append("the half-drawn stroke never showed")
        return
    kwin.kill()


def scenario_vanish_pinch(kwin, injector, client, out, failures):
    """A stroke drawn, then two fingers pinch to 0.75 and hold; KWin is killed with the fold on screen."""
    if not blank_canvas(out, failures) or draw_and_see(injector, 200, 300, 900, range(320, 880, 40), out, "1", failures) is None:
        return
    centre_y = HEIGHT // 2
    left, right = WIDTH // 2 - 200, WIDTH // 2 + 200
    time.sleep(0.4)
    injector.frame(downs=[(1, left, centre_y), (2, right, centre_y)])
    for step in range(1, 11):
        time.sleep(0.016)
        injector.frame(motions=[(1, left + step * 5, centre_y), (2, right - step * 5, centre_y)])
    if wait_for(lambda im: not is_white(im.rgb(60, centre_y)) and not is_white(im.rgb(WIDTH - 60, centre_y)), 15, out,
                "2-no-fold.png") is None:
        failures.append("no fold on screen while the pinch is held")
        return
    kwin.kill()


# name: (scenario, the book `folio info` must then print, whether the scenario kills KWin)
SCENARIOS = {
    "fold": (scenario_fold, '{"sheets":[{"strokes":1,"paper":"plain"}]}', False),
    "turn": (scenario_turn, '{"sheets":[{"strokes":1,"paper":"plain"},{"strokes":1,"paper":"plain"}]}', False),
    "toolbar": (scenario_toolbar, '{"sheets":[{"strokes":0,"paper":"plain"}]}', False),
    "tap-undo": (scenario_tap_undo, '{"sheets":[{"strokes":0,"paper":"plain"}]}', False),
    "hold-shape": (scenario_hold_shape, '{"sheets":[{"strokes":1,"paper":"plain"}]}', False),
    "lasso": (scenario_lasso, '{"sheets":[{"strokes":1,"paper":"plain"}]}', False),
    "scale": (scenario_scale, '{"sheets":[{"strokes":1,"paper":"plain"}]}', False),
    "vanish-stroke": (scenario_vanish_stroke, '{"sheets":[{"strokes":2,"paper":"plain"}]}', True),
    "vanish-pinch": (scenario_vanish_pinch, '{"sheets":[{"strokes":1,"paper":"plain"}]}', True),
    "latency": (scenario_latency, '{"sheets":[{"strokes":2,"paper":"plain"}]}', False),
}


def check_saved_after_vanishing(client, folio, book, expected, log_path, failures):
    """With KWin gone, the app says so in one line, exits 0, and the book holds the strokes."""
    try:
        status = client.wait(20)
    except subprocess.TimeoutExpired:
        failures.append("the client still runs 20 s after KWin was killed")
        return
    with open(log_path) as log:
        lines = [line for line in log.read().splitlines() if line.strip()]
    if status != 0:
        failures.append(f"after KWin was killed the client exited with status {status}: {lines}")
    if len(lines) != 1 or not lines[0].startswith("folio: ") or book not in lines[0]:
        failures.append(f"after KWin was killed the client printed {len(lines)} lines, not one naming the book: {lines}")
    check_book(folio, book, expected, "after KWin was killed", failures)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--client", required=True, help="the folio binary")
    parser.add_argument("--out", required=True, help="folder for screenshots and logs")
    parser.add_argument("--scenario", default="fold", choices=sorted(SCENARIOS))
    parser.add_argument("--scale", type=float, default=1.0, help="KWin's output scale (1–3)")
    args = parser.parse_args()
    global SCALE
    SCALE = args.scale
    need_modules()
    os.makedirs(args.out, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="folio-kwin-")
    generate_fake_input_bindings(workdir)
    kwin = KWin(workdir)
    client = None
    injector = None
    failures = []
    try:
        injector = Injector(kwin)
        client_log = open(os.path.join(args.out, "client.log"), "w")
        # A book of its own: a test never touches the sketchbook of whoever runs it.
        book = os.path.join(workdir, "book")
        # The scale and latency scenarios read what Folio asked for from its protocol log.
        debug = {"WAYLAND_DEBUG": "1"} if args.scenario in ("scale", "latency") else {}
        if args.scenario == "latency":
            debug["FOLIO_LOG"] = "debug"
        # Settings of its own too: the toolbar's choices are written there, not into the user's.
        client = launch_folio(args.client, kwin, book, os.path.join(workdir, "config"), client_log, debug)
        scenario, expected_book, vanishes = SCENARIOS[args.scenario]
        replaced = scenario(kwin, injector, client, args.out, failures)
        if replaced is not None:  # the scenario ended the client and left another running
            client, book = replaced
        if vanishes:
            if not failures:
                check_saved_after_vanishing(client, args.client, book, expected_book, client_log.name, failures)
        elif client.poll() is not None:
            failures.append(f"the client exited early with status {client.returncode}")
        else:
            check_saved_on_sigterm(client, args.client, book, expected_book, failures)
    finally:
        # Disconnect while KWin still runs: libwayland must not tear down a dead connection at exit.
        if injector is not None and kwin.process.poll() is None:
            injector.display.disconnect()
        if client is not None and client.poll() is None:
            client.send_signal(signal.SIGTERM)
            try:
                client.wait(5)
            except subprocess.TimeoutExpired:
                client.kill()
        kwin.stop()
        shutil.copy(kwin.log.name, os.path.join(args.out, "kwin.log"))
        shutil.rmtree(workdir, ignore_errors=True)
    for failure in failures:
        print(f"kwin_touch: {failure}")
    print(f"kwin_touch: {'FAILED' if failures else 'passed'}; screenshots in {args.out}")
    if injector is not None and kwin.process.returncode == -signal.SIGKILL:
        # The injector's connection died with KWin; pywayland's finaliser would tear it down and crash.
        sys.stdout.flush()
        os._exit(1 if failures else 0)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
