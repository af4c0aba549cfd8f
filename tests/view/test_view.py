#!/usr/bin/python3
"""Browser test of `nsed view` (docs/viewer.md): what the page draws is what
the result files say.

Usage: /usr/bin/python3 tests/view/test_view.py NSED_EXE SOURCE_ROOT

Runs NSED_EXE on problems/sphere_slide_roll.yaml (CSV and --format hdf5)
and problems/omni_vehicle_coast.yaml (t_end = 1, 16 bodies), writes each
page with `NSED_EXE view`, and loads it in Debian's headless Chromium
(WebGL through SwiftShader) with URL hash #probe=T: the page seeks to T,
renders, and writes into <pre id="nsed-probe"> the poses read back from
the three.js objects' matrixWorld, the contact markers' positions and
modes, the errors caught since load and the count of drawn pixels. Those
are compared with trajectory.csv / contacts.csv (or results.h5), read here
with csv / h5py, independently of the page and of nsed.results:

- at a trajectory row's time: every body's position and orientation equal
  the row's (1e-9 relative; quaternions up to sign), every contact marker
  is at the row's point_x/y/z with the row's mode;
- at an event time: the row after the event (the last at that time), and
  with side=before the row before it (the first at that time);
- half-way between two rows: positions and contact points the linear
  interpolation, orientations the slerp of the two rows' quaternions
  (1e-9; computed here as q0 * exp(s log(q0^-1 q1))), contact modes the
  earlier row's;
- no errors, WebGL on, the canvas drawn (pixels other than the background
  colour, also with the floor hidden), no console messages while playing;
- the page is offline (no http(s):// or // script/link/src/href, three.js
  inline), bad input exits 2 with one sentence, a failing call leaves an
  existing page alone and no temporary file behind, and `nsed run` can
  rerun into a result directory holding view.html.

Exits 1 listing the failures. Without /usr/bin/chromium it fails (the
check is not optional): install the Debian package chromium.
"""

import bisect
import csv
import html
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

CHROMIUM = "/usr/bin/chromium"
# Flags that give WebGL in headless Chromium 156 without a GPU: ANGLE on
# SwiftShader (software Vulkan), which --enable-unsafe-swiftshader allows.
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--use-angle=swiftshader",
                  "--enable-unsafe-swiftshader", "--window-size=1280,800", "--hide-scrollbars",
                  "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                  "--disable-background-networking", "--disable-sync", "--mute-audio",
                  "--enable-logging=stderr", "--v=0")
VIRTUAL_TIME_MS = 5000
PLAY_LAUNCHES = 3         # launches allowed to get the page two animation frames
POS_REL_TOL = 1e-9       # positions, relative to the largest coordinate (at least 1)
QUAT_TOL = 1e-9          # unit quaternions, absolute, up to sign
MIN_DRAWN = 0.20         # share of the canvas not the background colour
MIN_BODIES_DRAWN = 0.001 # the same with the floor and the contact markers hidden

failures = []
notes = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg, flush=True)


def say(msg):
    print(msg, flush=True)


# ---------------------------------------------------------------------------
# The result files, read here (not with nsed.results, not with the page)
# ---------------------------------------------------------------------------

class Expected:
    """Trajectory and contacts of one result: t, {body: [(x,y,z,q0..q3)]},
    {contact: [(mode, (px,py,pz), lambda_n)]} row by row, events."""

    def __init__(self, t, bodies, contacts, events):
        self.t, self.bodies, self.contacts, self.events = t, bodies, contacts, events
        self.scale = max([1.0] + [abs(v) for rows in bodies.values() for r in rows
                                  for v in r[:3] if math.isfinite(v)])


def body_columns(header):
    names = []
    for c in header[1:]:
        b = c.rpartition(".")[0]
        if b not in names:
            names.append(b)
    return names


def _build(header, matrix, contact_rows, events):
    t = [row[0] for row in matrix]
    bodies = {}
    for b in body_columns(header):
        idx = [header.index(f"{b}.{f}") for f in ("x", "y", "z", "q0", "q1", "q2", "q3")]
        bodies[b] = [tuple(row[i] for i in idx) for row in matrix]
    contacts = {}
    for (tc, name, mode, point, lam) in contact_rows:
        contacts.setdefault(name, []).append((tc, mode, point, lam))
    for name, rows in contacts.items():
        if [r[0] for r in rows] != t:
            raise RuntimeError(f"contact {name}: its rows' times are not the trajectory's")
        contacts[name] = [r[1:] for r in rows]
    return Expected(t, bodies, contacts, events)


def read_csv_result(d):
    with open(os.path.join(d, "trajectory.csv"), newline="") as f:
        r = csv.reader(f)
        header = next(r)
        matrix = [[float(x) for x in row] for row in r if row]
    crow = []
    with open(os.path.join(d, "contacts.csv"), newline="") as f:
        for row in csv.DictReader(f):
            crow.append((float(row["t"]), row["contact"], row["mode"],
                         tuple(float(row[k]) for k in ("point_x", "point_y", "point_z")),
                         float(row["lambda_n"])))
    with open(os.path.join(d, "events.csv"), newline="") as f:
        events = [(float(row["t"]), row["kind"], row["contact"], row["from"], row["to"])
                  for row in csv.DictReader(f)]
    return _build(header, matrix, crow, events)


def read_h5_result(d):
    import h5py
    with h5py.File(os.path.join(d, "results.h5"), "r") as f:
        header = [str(c.decode() if isinstance(c, bytes) else c)
                  for c in f["trajectory"].attrs["columns"]]
        matrix = [[float(v) for v in row] for row in f["trajectory"][()]]
        g = f["contacts"]
        crow = list(zip((float(v) for v in g["t"][()]), g["contact"].asstr()[()],
                        g["mode"].asstr()[()],
                        zip(*(map(float, g[k][()]) for k in ("point_x", "point_y", "point_z"))),
                        (float(v) for v in g["lambda_n"][()])))
        e = f["events"]
        events = list(zip((float(v) for v in e["t"][()]), e["kind"].asstr()[()],
                          e["contact"].asstr()[()], e["from"].asstr()[()], e["to"].asstr()[()]))
    return _build(header, matrix, crow, events)


# ---------------------------------------------------------------------------
# Interpolation, written independently of the page's
# ---------------------------------------------------------------------------

def qmul(a, b):
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return (w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
            w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2)


def qnorm(q):
    n = math.sqrt(sum(v * v for v in q))
    return tuple(v / n for v in q)


def slerp(q0, q1, s):
    """q0 * exp(s * log(q0^-1 q1)) along the shorter arc."""
    q0, q1 = qnorm(q0), qnorm(q1)
    d = qmul((q0[0], -q0[1], -q0[2], -q0[3]), q1)
    if d[0] < 0:
        d = tuple(-v for v in d)
    v = math.sqrt(d[1] ** 2 + d[2] ** 2 + d[3] ** 2)
    half = math.atan2(v, d[0])               # half the rotation angle
    if v == 0:
        return q0
    k = math.sin(s * half) / v
    return qnorm(qmul(q0, (math.cos(s * half), k * d[1], k * d[2], k * d[3])))


def nlerp(q0, q1, s):
    if sum(a * b for a, b in zip(q0, q1)) < 0:
        q1 = tuple(-v for v in q1)
    return qnorm(tuple(a + s * (b - a) for a, b in zip(q0, q1)))


def qdist(a, b):
    """Distance of unit quaternions up to sign."""
    return min(math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b))),
               math.sqrt(sum((x + y) ** 2 for x, y in zip(a, b))))


def vdist(a, b):
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))


def lerp(a, b, s):
    return tuple(u + s * (v - u) for u, v in zip(a, b))


def expected_at(ex, T, before=False):
    """(i, s, bodies {name: (p, q)}, contacts {name: (mode, point, lambda_n)})
    at time T: row i when s == 0, else s of the way from row i to i+1."""
    t = ex.t
    i = max(bisect.bisect_right(t, T) - 1, 0)
    if before:
        while i > 0 and t[i - 1] == T:
            i -= 1
    s = 0.0 if (t[i] == T or i == len(t) - 1) else (T - t[i]) / (t[i + 1] - t[i])
    bodies, contacts = {}, {}
    for b, rows in ex.bodies.items():
        r0 = rows[i]
        if s == 0:
            bodies[b] = (r0[:3], r0[3:])
        else:
            r1 = rows[i + 1]
            bodies[b] = (lerp(r0[:3], r1[:3], s), slerp(r0[3:], r1[3:], s), nlerp(r0[3:], r1[3:], s),
                         r0, r1)
    for c, rows in ex.contacts.items():
        mode, p0, lam = rows[i]
        if s == 0:
            contacts[c] = (mode, p0, lam)
        else:
            contacts[c] = (mode, lerp(p0, rows[i + 1][1], s), lam)
    return i, s, bodies, contacts


# ---------------------------------------------------------------------------
# Running things
# ---------------------------------------------------------------------------

def run(cmd, env=None, timeout=120):
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


class Browser:
    def __init__(self, tmp):
        self.profile = os.path.join(tmp, "chromium-profile")
        self.home = os.path.join(tmp, "home")
        os.makedirs(self.home, exist_ok=True)
        self.env = dict(os.environ, HOME=self.home, XDG_CONFIG_HOME=self.home,
                        XDG_CACHE_HOME=self.home)
        self.seconds = 0.0
        self.launches = 0
        self.perf_notes = 0

    def dump(self, url, extra=()):
        """(dom, page console lines) of url after VIRTUAL_TIME_MS of page time."""
        cmd = [CHROMIUM, *CHROMIUM_FLAGS, f"--user-data-dir={self.profile}",
               f"--virtual-time-budget={VIRTUAL_TIME_MS}", *extra, "--dump-dom", url]
        t0 = time.monotonic()
        p = subprocess.run(cmd, capture_output=True, text=True, env=self.env, timeout=90)
        self.seconds += time.monotonic() - t0
        self.launches += 1
        console = [line for line in p.stderr.splitlines() if ":CONSOLE" in line]
        # SwiftShader's performance notes on reading pixels back (the probe
        # does) are not the page's: counted, not failed.
        perf = [line for line in console if "GL Driver Message (OpenGL, Performance" in line]
        self.perf_notes += len(perf)
        console = [line for line in console if line not in perf]
        if p.returncode != 0:
            raise RuntimeError(f"chromium exited with {p.returncode}: {p.stderr[-800:]}")
        return p.stdout, console

    def probe(self, page, T, before=False):
        url = "file://" + os.path.abspath(page) + f"#probe={T!r}" + ("&side=before" if before else "")
        dom, console = self.dump(url)
        m = re.search(r'<pre id="nsed-probe"[^>]*>(.*?)</pre>', dom, re.S)
        if not m or not m.group(1).strip():
            raise RuntimeError(f"{url}: no probe output in the page (console: {console[:5]})")
        return json.loads(html.unescape(m.group(1))), console


# ---------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------

def check_probe(label, ex, pr, console, T, before=False, rows_of_file=True):
    """Compare one probe with the files; returns (max position error,
    max quaternion error) relative/absolute as used in the assertions."""
    if pr.get("errors"):
        fail(f"{label}: errors in the page: {pr['errors'][:5]}")
    if console:
        fail(f"{label}: console messages: {console[:5]}")
    if pr.get("webgl") is not True:
        fail(f"{label}: no WebGL (webgl = {pr.get('webgl')})")
    if pr.get("t") != T:
        fail(f"{label}: shown time {pr.get('t')!r}, asked for {T!r}")
    i, s, bodies, contacts = expected_at(ex, T, before)
    if (rows_of_file and pr.get("row") != i) or pr.get("between") != (s > 0):
        fail(f"{label}: the page shows row {pr.get('row')} (between {pr.get('between')}), "
             f"expected row {i} (between {s > 0})")
    perr = qerr = cerr = 0.0
    moved = turned = 0.0
    slerp_nlerp = 0.0
    for b, e in bodies.items():
        got = pr["bodies"].get(b)
        if got is None:
            fail(f"{label}: body {b} not in the page")
            continue
        dp = vdist(got["position"], e[0]) / ex.scale
        dq = qdist(got["quaternion"], e[1])
        perr, qerr = max(perr, dp), max(qerr, dq)
        if dp > POS_REL_TOL:
            fail(f"{label}: body {b} drawn at {got['position']}, file says {list(e[0])} "
                 f"(error {dp:.3g} relative)")
        if dq > QUAT_TOL:
            fail(f"{label}: body {b} drawn with quaternion {got['quaternion']}, expected "
                 f"{list(e[1])} (error {dq:.3g})")
        if s > 0:
            r0, r1 = e[3], e[4]
            moved = max(moved, min(vdist(got["position"], r0[:3]),
                                   vdist(got["position"], r1[:3])) / ex.scale)
            turned = max(turned, min(qdist(got["quaternion"], r0[3:]),
                                     qdist(got["quaternion"], r1[3:])))
            slerp_nlerp = max(slerp_nlerp, qdist(e[1], e[2]))
    modes = {}
    for c, (mode, point, lam) in contacts.items():
        got = pr["contacts"].get(c)
        if got is None:
            fail(f"{label}: contact {c} not in the page")
            continue
        modes[mode] = modes.get(mode, 0) + 1
        if got["mode"] != mode:
            fail(f"{label}: contact {c} drawn as {got['mode']}, the file says {mode}")
        if got["position"] is None:
            fail(f"{label}: contact {c} has no marker")
            continue
        dc = vdist(got["position"], point) / ex.scale
        cerr = max(cerr, dc)
        if dc > POS_REL_TOL:
            fail(f"{label}: contact {c} marker at {got['position']}, file says {list(point)} "
                 f"(error {dc:.3g} relative)")
        if s == 0 and got["lambda_n"] != lam:
            fail(f"{label}: contact {c} lambda_n {got['lambda_n']!r}, file says {lam!r}")
    px = pr.get("pixels") or {}
    total = px.get("total") or 1
    drawn, bodies_drawn = px.get("nonbackground", 0) / total, px.get("bodies_only", 0) / total
    if drawn < MIN_DRAWN:
        fail(f"{label}: only {drawn:.1%} of the canvas drawn (want > {MIN_DRAWN:.0%})")
    if bodies_drawn < MIN_BODIES_DRAWN:
        fail(f"{label}: the bodies cover only {bodies_drawn:.2%} of the canvas "
             f"(want > {MIN_BODIES_DRAWN:.1%})")
    where = f"row {i}" if s == 0 else f"{s:.3f} of rows {i}..{i + 1}"
    say(f"  {label}: t={T!r} ({where}{', first row at t' if before else ''}): "
        f"{len(bodies)} bodies, max position error {perr:.2e} (rel), quaternion {qerr:.2e}; "
        f"{len(contacts)} contacts {modes}, marker error {cerr:.2e}; "
        f"drawn {drawn:.1%}, bodies only {bodies_drawn:.2%}")
    if s > 0:
        say(f"    (mid-way: the drawn poses are {moved:.2e} (position, rel) / {turned:.2e} "
            f"(quaternion) from the nearer row; slerp and nlerp differ by {slerp_nlerp:.2e})")
    return perr, qerr


def check_offline(label, page):
    with open(page, encoding="utf-8") as f:
        text = f.read()
    bad = re.findall(r'<(?:script|link|img|iframe|source|embed)\b[^>]*\b(?:src|href)\s*=[^>]*>',
                     text, re.I)
    bad += re.findall(r'\b(?:src|href)\s*=\s*["\']?\s*(?:https?:)?//[^\s"\'>]*', text, re.I)
    bad += re.findall(r'@import|url\(\s*["\']?\s*(?:https?:)?//', text, re.I)
    if bad:
        fail(f"{label}: not offline, references {bad[:5]}")
    if 'REVISION="111"' not in text.replace(" ", ""):
        fail(f"{label}: three.js r111 is not embedded")
    size = len(text.encode())
    say(f"  {label}: {size / 1e6:.2f} MB, no external script/src/href references")


def pick_times(ex):
    """(an ordinary row's time, a mid-way time, an event time or None)."""
    t = ex.t
    ev = {e[0] for e in ex.events}
    n = len(t)

    def ordinary(k):
        return t[k] not in ev and (k == 0 or t[k - 1] != t[k]) and (k == n - 1 or t[k + 1] != t[k])

    k = next(k for k in list(range(n // 2, n)) + list(range(n // 2)) if ordinary(k))
    j = next(j for j in list(range(n // 3, n - 1)) + list(range(n // 3)) if
             ordinary(j) and ordinary(j + 1) and t[j + 1] > t[j])
    mid = t[j] + 0.5 * (t[j + 1] - t[j])
    # The event whose kind changes a contact's mode, preferably.
    event = None
    for e in ex.events:
        if e[1] in ("stick", "slip", "open", "close", "impact"):
            event = e[0]
            break
    return t[k], mid, event


def main():
    if len(sys.argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    nsed = os.path.abspath(sys.argv[1])
    root = os.path.abspath(sys.argv[2])
    start = time.monotonic()
    if not os.access(CHROMIUM, os.X_OK):
        fail(f"{CHROMIUM} not found: install the Debian package chromium "
             "(the viewer test needs a browser with WebGL)")
        return 1
    tmp = tempfile.mkdtemp(prefix="nsed-view-test-")
    browser = Browser(tmp)
    try:
        results = {}
        runs = (("sphere", "sphere_slide_roll.yaml", "1", ()),
                ("omni", "omni_vehicle_coast.yaml", "1", ()),
                ("sphere_h5", "sphere_slide_roll.yaml", "0.5", ("--format", "hdf5")))
        for name, problem, t_end, extra in runs:
            out = os.path.join(tmp, name)
            rc, so, se = run([nsed, "run", os.path.join(root, "problems", problem), "-o", out,
                              "--set", f"solver.t_end={t_end}", *extra])
            if rc != 0:
                fail(f"nsed run {problem} {' '.join(extra)}: exit {rc}: {se.strip()[-500:]}")
                continue
            rc, so, se = run([nsed, "view", out])
            page = os.path.join(out, "view.html")
            if rc != 0 or so.strip() != page or not os.path.isfile(page):
                fail(f"nsed view {out}: exit {rc}, printed {so.strip()!r}, {se.strip()[-500:]}")
                continue
            ex = read_h5_result(out) if extra else read_csv_result(out)
            results[name] = (out, page, ex)
            say(f"{name}: {problem} to t={t_end}{' ' + ' '.join(extra) if extra else ''}: "
                f"{len(ex.t)} rows, {len(ex.bodies)} bodies, {len(ex.contacts)} contacts, "
                f"{len(ex.events)} events")

        worst_p = worst_q = 0.0
        for name, (out, page, ex) in results.items():
            check_offline(name, page)
            row_t, mid_t, event_t = pick_times(ex)
            probes = [("row", row_t, False), ("mid", mid_t, False)]
            if event_t is not None and name != "sphere_h5":
                probes += [("event", event_t, False), ("event before", event_t, True)]
            for label, T, before in probes:
                pr, console = browser.probe(page, T, before)
                p, q = check_probe(f"{name} {label}", ex, pr, console, T, before)
                worst_p, worst_q = max(worst_p, p), max(worst_q, q)
            if event_t is not None and name == "omni":
                n_at = sum(1 for v in ex.t if v == event_t)
                say(f"  omni: {n_at} trajectory row(s) at the event time {event_t!r}")

        if "omni" in results:
            out, page, ex = results["omni"]
            # Playing from the start at 10x: no console message, and the end
            # reached. The page's clock is requestAnimationFrame's, which runs
            # in real time while --virtual-time-budget ends the page by
            # virtual time: a launch may end before the browser gave the page
            # two frames (then nothing has played). The page counts its
            # played frames, so such a launch is told apart from a playback
            # that does not advance, and tried again (at most PLAY_LAUNCHES).
            tries = []
            for _ in range(PLAY_LAUNCHES):
                dom, console = browser.dump("file://" + page + "#play&speed=10")
                m = re.search(r'<span id="time">t = ([^ <]+) s</span>', dom)
                shown = float(m.group(1)) if m else None
                f = re.search(r'data-frames-played="(\d+)"', dom)
                frames = int(f.group(1)) if f else 0
                tries.append((shown, frames))
                if console or shown == ex.t[-1] or frames >= 2 and (shown or 0.0) <= ex.t[0]:
                    break
            if console:
                fail(f"omni playing: console messages {console[:5]}")
            if shown != ex.t[-1]:
                fail(f"omni playing at 10x: the page shows t = {shown}, expected the end "
                     f"{ex.t[-1]!r}; (t shown, frames played) per launch: {tries}")
            if not console and shown == ex.t[-1]:
                say(f"  omni playing at 10x: reached the end t = {shown}, no console messages "
                    f"((t shown, frames played) per launch: {tries})")
            # --out and --follow.
            other = os.path.join(tmp, "omni-follow.html")
            rc, so, se = run([nsed, "view", out, "--out", other, "--follow", "platform"])
            if rc != 0 or so.strip() != other:
                fail(f"nsed view --out --follow: exit {rc}, {so.strip()!r} {se.strip()}")
            else:
                pr, console = browser.probe(other, ex.t[len(ex.t) // 2])
                p, q = check_probe("omni --follow platform", ex, pr, console, ex.t[len(ex.t) // 2])
                if pr.get("follow") != "platform":
                    fail(f"--follow platform: the page follows {pr.get('follow')!r}")
                worst_p, worst_q = max(worst_p, p), max(worst_q, q)

        if "omni" in results:
            check_subsampled(root, tmp, browser, *results["omni"])

        check_bad_input(nsed, tmp, results)

        if "sphere" in results:
            out = results["sphere"][0]
            rc, so, se = run([nsed, "run", os.path.join(root, "problems", "sphere_slide_roll.yaml"),
                              "-o", out])
            if rc != 0:
                fail(f"nsed run into a result directory holding view.html: exit {rc}: "
                     f"{se.strip()[-300:]}")
            else:
                say("rerun into a result directory holding view.html: ok")

        say(f"worst errors over all probes: position {worst_p:.2e} (relative), "
            f"quaternion {worst_q:.2e}; tolerances {POS_REL_TOL:g} / {QUAT_TOL:g}")
        say(f"chromium: {browser.launches} launches, {browser.seconds:.1f} s, "
            f"{browser.perf_notes} 'GPU stall due to ReadPixels' performance notes ignored; "
            f"total {time.monotonic() - start:.1f} s")
    except Exception as e:   # noqa: BLE001 - report, do not hide
        import traceback
        traceback.print_exc()
        fail(f"test aborted: {e}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f"\n{len(failures)} failure(s):", file=sys.stderr)
        for f in failures:
            print("  " + f, file=sys.stderr)
        return 1
    print("ok")
    return 0


def check_subsampled(root, tmp, browser, out, page, ex):
    """A page limited to a few rows keeps every row at an event time."""
    sys.path.insert(0, os.path.join(root, "python"))
    from nsed.view import write_view
    max_rows = 40
    small = write_view(out, os.path.join(tmp, "omni-subsampled.html"), max_rows=max_rows)
    with open(small, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r'<script type="application/json" id="nsed-data">(.*?)</script>', text, re.S)
    data = json.loads(m.group(1))
    kept = data["t"]
    event_times = sorted({e[0] for e in ex.events})
    lost = [te for te in event_times if kept.count(te) != ex.t.count(te)]
    if lost:
        fail(f"subsampled page: event rows lost at t = {lost[:5]}")
    if not (len(kept) < len(ex.t) and len(kept) <= max_rows + 2 * len(ex.events) + 1):
        fail(f"subsampled page: {len(kept)} of {len(ex.t)} rows kept with max_rows {max_rows}")
    if "Subsampled" not in text:
        fail("subsampled page: the page does not say it is subsampled")
    say(f"  subsampled (max_rows {max_rows}): {len(kept)} of {len(ex.t)} rows kept, "
        f"all {sum(ex.t.count(te) for te in event_times)} rows at the {len(event_times)} "
        "event times among them")
    for label, T, before in (("event", event_times[-1], False), ("event before", event_times[-1], True)):
        pr, console = browser.probe(small, T, before)
        check_probe(f"subsampled {label}", ex, pr, console, T, before, rows_of_file=False)


def one_sentence(label, rc, se, must_name):
    se = se.strip()
    if rc != 2:
        fail(f"{label}: exit {rc}, expected 2 ({se[-300:]!r})")
    elif "Traceback" in se or not se or len(se.splitlines()) != 1:
        fail(f"{label}: stderr is not one sentence: {se[-500:]!r}")
    elif must_name not in se:
        fail(f"{label}: the message does not name {must_name!r}: {se!r}")
    else:
        say(f"  {label}: exit 2: {se}")


def check_bad_input(nsed, tmp, results):
    say("bad input:")
    missing = os.path.join(tmp, "no-such-dir")
    rc, so, se = run([nsed, "view", missing])
    one_sentence("missing directory", rc, se, missing)
    if "sphere" not in results:
        return
    out, page, ex = results["sphere"]
    # A directory without summary.json, and one whose summary has no geometry.
    nosum = os.path.join(tmp, "no-summary")
    os.makedirs(nosum)
    for f in ("trajectory.csv", "contacts.csv", "events.csv"):
        shutil.copy(os.path.join(out, f), nosum)
    rc, so, se = run([nsed, "view", nosum])
    one_sentence("no summary.json", rc, se, "summary.json")
    nogeo = os.path.join(tmp, "no-geometry")
    shutil.copytree(nosum, nogeo)
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    summary.pop("geometry", None)
    with open(os.path.join(nogeo, "summary.json"), "w") as f:
        json.dump(summary, f)
    rc, so, se = run([nsed, "view", nogeo])
    one_sentence("summary.json without geometry", rc, se, "geometry")
    # A failing call leaves the existing page as it was, and no temporary file.
    with open(page, "rb") as f:
        before = f.read()
    rc, so, se = run([nsed, "view", out, "--follow", "no_such_body"])
    one_sentence("unknown --follow body", rc, se, "no_such_body")
    env = dict(os.environ, NSED_THREE_DIR=os.path.join(tmp, "no-three"))
    rc, so, se = run([nsed, "view", out], env=env)
    one_sentence("three.js missing (NSED_THREE_DIR)", rc, se, "libjs-three")
    with open(page, "rb") as f:
        if f.read() != before:
            fail("a failing nsed view changed the existing view.html")
    left = [f for f in os.listdir(out) if f.endswith(".tmp")]
    if left:
        fail(f"temporary files left in {out}: {left}")


if __name__ == "__main__":
    sys.dont_write_bytecode = True
    sys.exit(main())
