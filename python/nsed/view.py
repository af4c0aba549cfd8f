"""The 3D viewer page of a result directory (`nsed view RESULT_DIR`).

    from nsed.view import write_view
    path = write_view("out/ball")                  # -> "out/ball/view.html"
    path = write_view("out/omni", "omni.html", follow="platform")

One self-contained HTML file: three.js r111 from Debian's package
libjs-three, embedded when the page is written (nothing is fetched when it
is opened, it works offline from file://), and the run's data as JSON.
The page draws every body with the shape summary.json's "geometry" gives
it, at the trajectory's position and orientation, the floor, and the
contact points coloured by mode with their normal force; a time slider,
play/pause, speed, an event timeline and list, and a camera that orbits or
follows a body. docs/viewer.md describes the page; tests/view/test_view.py
checks in headless Chromium that what it draws is what the files say.

Needs numpy (h5py for results.h5), not libnsed and not matplotlib.
"""

import json
import math
import os
import re
import tempfile

import numpy as np

from .results import ResultError, read_result

__all__ = ["write_view", "ViewError", "ResultError", "THREE_DIR", "MAX_ROWS", "MAX_VALUES",
           "SHAPES"]

# Debian's libjs-three (r111): the library and the orbit camera.
THREE_DIR = "/usr/share/javascript/three"
THREE_FILES = ("three.min.js", "examples/js/controls/OrbitControls.js")
THREE_PACKAGE = "libjs-three"

# Above this many trajectory rows, or above MAX_VALUES numbers in the rows
# (7 a body, 8 a contact: about 20 bytes each), the page keeps every k-th
# row and every row at an event time, so that the file stays below about
# 40 MB and opens in a few seconds.
MAX_ROWS = 20000
MAX_VALUES = 2_000_000

SHAPES = ("none", "sphere", "disk", "cylinder", "box", "point", "roller", "capsule", "ellipsoid",
          "superellipsoid")
POINT_COLUMNS = ("point_x", "point_y", "point_z")


class ViewError(Exception):
    """The page cannot be written (three.js missing, output not writable);
    the message says what to do."""


# ---------------------------------------------------------------------------
# Numbers as JSON text
# ---------------------------------------------------------------------------

def _num(x):
    """A float64 as JSON: repr (the shortest text that reads back as the
    same double), null for nan and infinities (JSON has neither)."""
    x = float(x)
    return repr(x) if math.isfinite(x) else "null"


def _num_list(values):
    values = np.asarray(values, dtype=float).ravel()
    if np.isfinite(values).all():
        return "[" + ",".join(map(repr, values.tolist())) + "]"
    return "[" + ",".join(_num(v) for v in values.tolist()) + "]"


def _json_text(obj):
    """obj as JSON; values of type _Raw (long number lists, written
    already) are spliced in as they are, in one pass."""
    raws = []

    def default(o):
        if isinstance(o, _Raw):
            raws.append(o.text)
            return f"\x00RAW{len(raws) - 1}\x00"
        if isinstance(o, np.generic):
            return o.item()
        raise TypeError(f"cannot write {type(o).__name__} as JSON")

    text = json.dumps(obj, default=default, allow_nan=False, separators=(",", ":"))
    return re.sub(r'"\\u0000RAW(\d+)\\u0000"', lambda m: raws[int(m.group(1))], text)


class _Raw:
    """Already-written JSON text (a long number list)."""

    def __init__(self, text):
        self.text = text


def _clean(value):
    """A summary value for JSON: non-finite floats become None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------

def _contact_points(result):
    """The contact points (rows of contacts, 3), or None when the result
    has none (contacts.csv without point_x/point_y/point_z, written by an
    nsed before 0.2, reads as NaN)."""
    names = result.contacts.dtype.names
    if not len(result.contacts) or not all(c in names for c in POINT_COLUMNS):
        return None
    points = np.stack([result.contacts[c] for c in POINT_COLUMNS], axis=-1)
    return None if np.isnan(points).all() else points


def _positive(body, key, where, allow_zero=False):
    value = body.get(key)
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) \
        and math.isfinite(value) and (value > 0 or (allow_zero and value == 0))
    if not ok:
        raise ResultError(f"{where}: body '{body.get('name')}' ({body.get('shape')}) needs "
                          f"a {'non-negative' if allow_zero else 'positive'} number "
                          f"'{key}', found {value!r}")
    return float(value)


def _shape_of(body, where):
    """The shape entry of one body, checked: {"shape": ..., parameters}."""
    shape = body.get("shape")
    if shape not in SHAPES:
        raise ResultError(f"{where}: body '{body.get('name')}' has shape {shape!r}, "
                          f"not one of {', '.join(SHAPES)}")
    out = {"shape": shape}
    if shape in ("sphere", "disk", "cylinder", "roller", "capsule"):
        out["radius"] = _positive(body, "radius", where)
    if shape in ("cylinder", "capsule"):
        out["length"] = _positive(body, "length", where)
    if shape in ("box", "ellipsoid", "superellipsoid"):
        half = body.get("half")
        if not (isinstance(half, list) and len(half) == 3 and
                all(isinstance(h, (int, float)) and math.isfinite(h) and h > 0 for h in half)):
            raise ResultError(f"{where}: body '{body.get('name')}' ({shape}) needs 'half': "
                              f"three positive half extents or semi-axes, found {half!r}")
        out["half"] = [float(h) for h in half]
    if shape == "superellipsoid":
        p = body.get("exponent")
        if not (isinstance(p, (int, float)) and math.isfinite(p) and p >= 2):
            raise ResultError(f"{where}: body '{body.get('name')}' (superellipsoid) needs "
                              f"'exponent' >= 2, found {p!r}")
        out["exponent"] = float(p)
    if shape == "roller":
        n = body.get("rollers")
        if not (isinstance(n, (int, float)) and n == int(n) and n >= 3):
            raise ResultError(f"{where}: body '{body.get('name')}' (roller) needs 'rollers' "
                              f">= 3, found {n!r}")
        out["rollers"] = int(n)
        psi = body.get("psi", 0.0)
        if not (isinstance(psi, (int, float)) and math.isfinite(psi) and abs(psi) < math.pi / 2):
            raise ResultError(f"{where}: body '{body.get('name')}' (roller) has psi {psi!r}, "
                              "not in (-pi/2, pi/2)")
        out["psi"] = float(psi)
    return out


def _vector(value, where, what):
    if not (isinstance(value, list) and len(value) == 3 and
            all(isinstance(v, (int, float)) and math.isfinite(v) for v in value)):
        raise ResultError(f"{where}: geometry floor '{what}' must be three numbers, "
                          f"found {value!r}")
    return [float(v) for v in value]


def _floor_of(geometry, where):
    floor = geometry.get("floor")
    if floor is None:
        return None
    if not isinstance(floor, dict):
        raise ResultError(f"{where}: geometry 'floor' is not an object")
    normal = _vector(floor.get("normal"), where, "normal")
    if math.hypot(*normal) == 0:
        raise ResultError(f"{where}: geometry floor 'normal' is zero")
    return {"point": _vector(floor.get("point", [0, 0, 0]), where, "point"),
            "normal": normal,
            "velocity": _vector(floor.get("velocity", [0, 0, 0]), where, "velocity")}


def _planes_of(geometry, where):
    """The model's planes besides the floor: [{name, point, normal}]."""
    planes = geometry.get("planes") or []
    if not isinstance(planes, list):
        raise ResultError(f"{where}: geometry 'planes' is not a list")
    out = []
    for p in planes:
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            raise ResultError(f"{where}: geometry 'planes' holds {p!r}, not a named plane")
        normal = _vector(p.get("normal"), where, "normal")
        if math.hypot(*normal) == 0:
            raise ResultError(f"{where}: plane '{p['name']}' has a zero normal")
        out.append({"name": p["name"], "point": _vector(p.get("point"), where, "point"),
                    "normal": normal})
    return out


def _read_three(three_dir):
    texts = []
    for name in THREE_FILES:
        path = os.path.join(three_dir, name)
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except FileNotFoundError:
            raise ViewError(f"{path} not found: the page embeds three.js from it, install the "
                            f"Debian package {THREE_PACKAGE}") from None
        except (OSError, UnicodeDecodeError) as e:
            raise ViewError(f"{path}: cannot read ({e}): the page embeds three.js from it, "
                            f"reinstall the Debian package {THREE_PACKAGE}") from None
        # Inside a <script> element only "</script" ends the script; the
        # library has none, but a backslash keeps it harmless in a string.
        texts.append(text.replace("</script", "<\\/script").replace("</SCRIPT", "<\\/SCRIPT"))
    return texts


def _kept_rows(t, event_times, max_rows):
    """Indices of the trajectory rows the page keeps, and the stride."""
    n = len(t)
    if n <= max_rows:
        return np.arange(n), 1
    stride = int(math.ceil(n / max_rows))
    keep = np.zeros(n, dtype=bool)
    keep[::stride] = True
    keep[-1] = True
    if len(event_times):
        keep |= np.isin(t, event_times)
    return np.flatnonzero(keep), stride


def _contact_rows(result, kept, t_kept):
    """{contact name: indices into result.contacts, one per kept trajectory
    row (-1 where the contact has no row at that time)}."""
    t_all = result.trajectory["t"]
    contacts = result.contacts
    out = {}
    for name in result.contact_names:
        rows = np.flatnonzero(contacts["contact"] == name)
        if len(rows) == len(t_all) and np.array_equal(contacts["t"][rows], t_all):
            out[name] = rows[kept]           # one row per trajectory row: the usual case
            continue
        # Otherwise match by time; the k-th row of a contact at time t goes
        # with the k-th trajectory row at time t.
        slots = {}
        for k, tk in enumerate(t_kept.tolist()):
            slots.setdefault(tk, []).append(k)
        index = np.full(len(t_kept), -1, dtype=np.int64)
        used = {}
        for r in rows.tolist():
            tr = float(contacts["t"][r])
            ks = slots.get(tr)
            if not ks:
                continue
            j = used.get(tr, 0)
            if j < len(ks):
                index[ks[j]] = r
                used[tr] = j + 1
        out[name] = index
    return out


# ---------------------------------------------------------------------------
# The page's data
# ---------------------------------------------------------------------------

def _page_data(result, follow, max_rows, source):
    summary = result.summary
    where = result.files["summary"]
    traj = result.trajectory
    t_all = traj["t"]
    events = result.events
    event_times = np.unique(events["t"]) if len(events) else np.zeros(0)
    per_row = 7 * len(result.body_names) + 8 * len(result.contact_names)
    max_rows = max(2, min(max_rows, MAX_VALUES // max(per_row, 1)))
    kept, stride = _kept_rows(t_all, event_times, max_rows)
    t = t_all[kept]

    geometry = summary["geometry"]
    shapes = {}
    for b in geometry["bodies"]:
        if isinstance(b, dict) and isinstance(b.get("name"), str):
            shapes[b["name"]] = b
    bodies = []
    for name in result.body_names:
        entry = {"name": name}
        entry.update(_shape_of(shapes[name], where))
        p = np.stack([traj[f"{name}.{c}"][kept] for c in ("x", "y", "z")], axis=-1)
        q = np.stack([traj[f"{name}.{c}"][kept] for c in ("q0", "q1", "q2", "q3")], axis=-1)
        entry["p"] = _Raw(_num_list(p))
        entry["q"] = _Raw(_num_list(q))
        bodies.append(entry)

    laws = {}
    for law in summary.get("contact_laws") or []:
        if isinstance(law, dict) and isinstance(law.get("name"), str):
            laws[law["name"]] = law
    points = _contact_points(result)
    rows_of = _contact_rows(result, kept, t)
    mode_names = ["open", "stick", "slip"]
    contacts = []
    c = result.contacts
    for name, rows in rows_of.items():
        law = laws.get(name, {})
        have = rows >= 0
        r = np.where(have, rows, 0)
        modes = []
        for ok, m in zip(have.tolist(), c["mode"][r].tolist()):
            if not ok:
                modes.append(-1)
                continue
            if m not in mode_names:
                mode_names.append(m)
            modes.append(mode_names.index(m))

        def column(values):
            return _Raw(_num_list(np.where(have, values[r], np.nan)))

        entry = {"name": name, "body": law.get("body"), "other": law.get("other"),
                 "law": law.get("law"), "friction": law.get("friction"),
                 "mu": _clean(law.get("mu")), "mu0": _clean(law.get("mu0")),
                 "mode": modes,
                 "gap": column(c["gap"]), "lambda_n": column(c["lambda_n"]),
                 "lambda_t": column(np.hypot(c["lambda_t1"], c["lambda_t2"])),
                 "slip": column(c["slip_speed"])}
        if points is not None:
            entry["point"] = _Raw(_num_list(np.where(have[:, None], points[r], np.nan)))
        contacts.append(entry)

    event_list = []
    for e in events:
        te = float(e["t"])
        k = int(np.searchsorted(t, te, side="right")) - 1
        event_list.append({"t": _Raw(_num(te)), "kind": str(e["kind"]),
                           "contact": str(e["contact"]), "from": str(e["from"]),
                           "to": str(e["to"]),
                           "row": k if k >= 0 and t[k] == te else None})

    meta = {key: _clean(summary.get(key)) for key in
            ("problem", "status", "message", "t_end", "t_reached", "integrator",
             "friction_model", "nsed_version", "events_by_kind")}
    meta.update({"source": os.path.abspath(source), "rows_total": int(len(t_all)),
                 "rows_kept": int(len(t)), "stride": stride, "max_rows": max_rows,
                 "points": points is not None, "contact_laws": bool(laws)})
    return {"meta": meta, "t": _Raw(_num_list(t)), "bodies": bodies,
            "floor": _floor_of(geometry, where), "planes": _planes_of(geometry, where),
            "contacts": contacts,
            "mode_names": mode_names, "events": event_list, "follow": follow}


def _check(result, follow):
    """Bad input as ResultError naming the file, before anything is written."""
    path = result.files.get("summary")
    outdir = result.outdir
    if path is None:
        raise ResultError(f"{os.path.join(outdir, 'summary.json')}: file not found; the viewer "
                          "takes the bodies' shapes from it (run the problem again with "
                          f"`nsed run PROBLEM -o {outdir}`)")
    if not result.summary:
        raise ResultError(f"{path}: not a readable JSON object")
    geometry = result.summary.get("geometry")
    if not isinstance(geometry, dict) or not isinstance(geometry.get("bodies"), list):
        raise ResultError(f"{path}: no \"geometry\" (the bodies' shapes): it was written by an "
                          "nsed older than the viewer; run the problem again")
    if not len(result.trajectory):
        raise ResultError(f"{result.files['trajectory']}: header only, no data rows")
    names = {b.get("name") for b in geometry["bodies"] if isinstance(b, dict)}
    missing = [n for n in result.body_names if n not in names]
    if missing:
        raise ResultError(f"{path}: \"geometry\" lacks the shape of "
                          f"{', '.join(repr(m) for m in missing[:5])}"
                          f"{' and others' if len(missing) > 5 else ''} "
                          f"(bodies of {result.files['trajectory']})")
    if follow is not None and follow not in result.body_names:
        listed = ", ".join(result.body_names[:20])
        more = ", ..." if len(result.body_names) > 20 else ""
        raise ResultError(f"--follow {follow}: no body of that name in "
                          f"{result.files['trajectory']} (bodies: {listed}{more})")
    t = result.trajectory["t"]
    if not np.isfinite(t).all() or (np.diff(t) < 0).any():
        raise ResultError(f"{result.files['trajectory']}: column 't' is not finite and "
                          "non-decreasing")


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------

def _current_umask():
    mask = os.umask(0)   # the only portable way to read it is to set it
    os.umask(mask)
    return mask


def _write_atomic(path, text):
    """Temp file in the target's directory, then rename over path: a
    reader never sees half a page, and nothing else is touched."""
    directory = os.path.dirname(path) or "."
    if not os.path.isdir(directory):
        raise ViewError(f"{path}: directory {directory} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(path),
                                   suffix=".tmp")
    except OSError as e:
        raise ViewError(f"{path}: cannot write in {directory}: {e.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o666 & ~_current_umask())   # mkstemp makes 0600
        os.replace(tmp, path)
    except OSError as e:
        os.unlink(tmp)
        raise ViewError(f"{path}: cannot write: {e.strerror}") from None
    except BaseException:
        os.unlink(tmp)
        raise


def _html_escape(text):
    return (str(text).replace("&", "&amp;").replace("<", "&lt;")
            .replace(">", "&gt;").replace('"', "&quot;"))


def write_view(result_dir, out_path=None, follow=None, *, max_rows=MAX_ROWS, three_dir=None):
    """Write the viewer page of result_dir (default RESULT_DIR/view.html)
    and return its path. follow: the body the camera follows at first.
    max_rows: above this many trajectory rows (or MAX_VALUES numbers) the
    page keeps every k-th row plus every row at an event time. three_dir:
    where three.js is (default $NSED_THREE_DIR, else Debian's THREE_DIR).
    Nothing is written unless everything was read. Raises ResultError for unusable result files (the message names the
    file) or an unknown follow body, ViewError when three.js is missing
    (Debian's libjs-three) or the page cannot be written."""
    result_dir = os.fspath(result_dir)
    if max_rows < 2:
        raise ValueError("max_rows must be at least 2")
    result = read_result(result_dir, strict_summary=False)
    _check(result, follow)
    data = _page_data(result, follow, max_rows, result_dir)
    if three_dir is None:
        three_dir = os.environ.get("NSED_THREE_DIR") or THREE_DIR
    three, orbit = _read_three(three_dir)
    out_path = os.fspath(out_path) if out_path is not None else \
        os.path.join(result_dir, "view.html")

    # JSON inside <script type="application/json">: "<" only occurs in
    # strings, where \u003c reads back the same, so no "</script>" can end it.
    data_text = _json_text(data).replace("<", "\\u003c").replace(">", "\\u003e") \
        .replace("&", "\\u0026")
    title = data["meta"].get("problem") or os.path.basename(os.path.abspath(result_dir))
    version = data["meta"].get("nsed_version") or ""
    # The template is cut at its placeholders first, so that nothing
    # inserted (a title, the library, the data) is taken for one.
    head, rest = _PAGE.split("@THREE@")
    mid, rest = rest.split("@ORBIT@")
    pre, post = rest.split("@DATA@")
    head = head.replace("@TITLE@", _html_escape(title)) \
        .replace("@GENERATOR@", _html_escape(f"nsed view {version}".strip()))
    post = post.replace("@APP@", _APP)
    _write_atomic(out_path, "".join((head, three, mid, orbit, pre, data_text, post)))
    return out_path


# ---------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------

_PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="generator" content="@GENERATOR@">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>nsed view: @TITLE@</title>
<style>
html, body { margin: 0; height: 100%; font: 13px/1.35 system-ui, sans-serif; color: #222; background: #f2f4f7; }
#app { display: flex; height: 100%; }
#main { flex: 1 1 auto; display: flex; flex-direction: column; min-width: 0; }
#view { flex: 1 1 auto; position: relative; min-height: 0; overflow: hidden; }
#view canvas { display: block; }
#tip { position: absolute; pointer-events: none; background: rgba(255,255,255,.9); border: 1px solid #aaa; padding: 1px 5px; border-radius: 3px; display: none; font-size: 12px; }
#overlay { position: absolute; left: 8px; top: 6px; font: 13px/1.3 ui-monospace, monospace; background: rgba(255,255,255,.75); padding: 3px 7px; border-radius: 4px; pointer-events: none; white-space: pre; }
#nowebgl { position: absolute; inset: 30% 10% auto 10%; background: #fff3cd; border: 1px solid #d39e00; padding: 12px; display: none; }
#bar { display: flex; align-items: center; gap: 8px; padding: 5px 8px; background: #e4e8ee; border-top: 1px solid #c8ced6; }
#bar button { min-width: 2.6em; }
#slider { flex: 1 1 auto; }
#time { font: 13px ui-monospace, monospace; min-width: 13em; text-align: right; }
#strip { display: block; width: 100%; height: 40px; background: #fff; cursor: pointer; border-top: 1px solid #c8ced6; }
#side { flex: 0 0 360px; overflow-y: auto; padding: 8px 10px; background: #fafbfc; border-left: 1px solid #c8ced6; }
#side h1 { font-size: 15px; margin: 2px 0 6px; }
#side h2 { font-size: 13px; margin: 12px 0 4px; border-bottom: 1px solid #ddd; }
#meta div { margin: 1px 0; word-break: break-all; }
#contacts { border-collapse: collapse; width: 100%; font: 11px ui-monospace, monospace; }
#contacts td, #contacts th { padding: 1px 3px; text-align: right; white-space: nowrap; }
#contacts td:first-child, #contacts th:first-child { text-align: left; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 155px; }
#contacts { table-layout: auto; }
.mode { display: inline-block; min-width: 3.2em; text-align: center; border-radius: 3px; color: #fff; }
#events { list-style: none; padding: 0; margin: 0; max-height: 16em; overflow-y: auto; font: 12px ui-monospace, monospace; }
#events li { padding: 1px 3px; cursor: pointer; border-left: 4px solid transparent; }
#events li:hover { background: #e8eef7; }
#events li.now { background: #ffe9a8; }
#events li.past { color: #555; }
.legend span { display: inline-block; margin-right: 8px; }
.sw { display: inline-block; width: 10px; height: 10px; border-radius: 5px; vertical-align: -1px; margin-right: 3px; }
.note { color: #444; margin: 3px 0; }
label { white-space: nowrap; }
kbd { font: 11px ui-monospace, monospace; border: 1px solid #bbb; border-radius: 3px; padding: 0 3px; background: #fff; }
</style>
</head>
<body>
<div id="app">
 <div id="main">
  <div id="view"><div id="overlay"></div><div id="tip"></div>
   <div id="nowebgl">This page draws with WebGL, which this browser does not offer (or has
   turned off). The panels still show the contacts and the events.</div></div>
  <div id="bar">
   <button id="play" title="play / pause (space)">&#9654;</button>
   <button id="prev" title="previous event ([)">&#8676;</button>
   <button id="next" title="next event (])">&#8677;</button>
   <input id="slider" type="range" step="any" title="time">
   <span id="time"></span>
   <label title="playback speed, times real time">speed <input id="speed" type="range" min="-1" max="1" step="0.01" value="0" style="width:90px"> <span id="speedval">1&#215;</span></label>
   <label title="playback pauses exactly at each event"><input id="stopev" type="checkbox"> stop at events</label>
  </div>
  <canvas id="strip" title="events and contact modes over time: click or drag to jump"></canvas>
 </div>
 <div id="side">
  <h1>nsed view</h1>
  <div id="meta"></div>
  <h2>camera</h2>
  <div><label>follow <select id="follow"></select></label> <button id="reset">reset view</button></div>
  <div><label><input id="paths" type="checkbox" checked> paths of the centres of mass (not the rollers')</label></div>
  <div class="note">Drag: orbit, right-drag: pan, wheel: zoom.</div>
  <h2>contacts</h2>
  <div class="legend" id="legend"></div>
  <table id="contacts"></table>
  <h2 id="events-title">events</h2>
  <ul id="events"></ul>
  <h2>notes</h2>
  <div id="notes"></div>
  <div class="note">Keys: <kbd>space</kbd> play/pause, <kbd>&#8592;</kbd> <kbd>&#8594;</kbd> previous/next row, <kbd>[</kbd> <kbd>]</kbd> previous/next event, <kbd>Home</kbd> <kbd>End</kbd>.</div>
 </div>
</div>
<pre id="nsed-probe" hidden></pre>
<script>
// First, so that everything later is caught: the probe reports these.
window.__nsedErrors = [];
window.__nsedWarnings = [];
window.addEventListener('error', function (e) {
  window.__nsedErrors.push(String(e.message || e) + (e.filename ? ' (' + e.filename + ':' + e.lineno + ')' : ''));
});
window.addEventListener('unhandledrejection', function (e) {
  window.__nsedErrors.push('unhandled rejection: ' + String(e.reason));
});
(function () {
  var error = console.error, warn = console.warn;
  function text(args) { return Array.prototype.map.call(args, String).join(' '); }
  console.error = function () { window.__nsedErrors.push(text(arguments)); return error.apply(console, arguments); };
  console.warn = function () { window.__nsedWarnings.push(text(arguments)); return warn.apply(console, arguments); };
})();
</script>
<script>
// three.js r111 (MIT licence), from Debian's libjs-three: three.min.js
@THREE@
</script>
<script>
// three.js r111 (MIT licence), from Debian's libjs-three: examples/js/controls/OrbitControls.js
@ORBIT@
</script>
<script type="application/json" id="nsed-data">@DATA@</script>
<script>
@APP@
</script>
</body>
</html>
"""

_APP = r"""
(function () {
'use strict';
var D = JSON.parse(document.getElementById('nsed-data').textContent);
var T = D.t, N = T.length, T0 = T[0], T1 = T[N - 1];
var SPAN = T1 > T0 ? T1 - T0 : 1;
var $ = function (id) { return document.getElementById(id); };

// ---- data: null (nan in the files) -> NaN ----------------------------------
function nums(a) { for (var i = 0; i < a.length; i++) if (a[i] === null) a[i] = NaN; return a; }
D.bodies.forEach(function (b) { nums(b.p); nums(b.q); });
D.contacts.forEach(function (c) {
  nums(c.gap); nums(c.lambda_n); nums(c.lambda_t); nums(c.slip);
  if (c.point) nums(c.point);
});
var EVENTS = D.events.slice().sort(function (a, b) { return a.t - b.t; });
var EVENT_TIMES = [];
EVENTS.forEach(function (e) { if (!EVENT_TIMES.length || EVENT_TIMES[EVENT_TIMES.length - 1] !== e.t) EVENT_TIMES.push(e.t); });

var MODE_COLOURS = { open: '#8f8f8f', stick: '#2ca02c', slip: '#f0620f' };
var OTHER_MODE = '#8c564b';
function modeColour(name) { return MODE_COLOURS[name] || OTHER_MODE; }
var KIND_COLOURS = { close: '#1f77b4', open: '#17becf', impact: '#d62728', stick: '#2ca02c',
  slip: '#ff7f0e', zeno: '#9467bd', time: '#7f7f7f', failure: '#000000' };
function kindColour(k) { return KIND_COLOURS[k] || '#000000'; }
// Colours by shape, alternating between bodies of the same shape.
var SHAPE_COLOURS = { sphere: [0x4c72b0, 0xdd8452, 0x55a868, 0xc44e52], disk: [0x8172b3, 0x937860],
  cylinder: [0x55a868, 0x64b5cd], box: [0xc44e52, 0xccb974], roller: [0x3f6fb5, 0x2a9d8f], point: [0x333333],
  capsule: [0x64b5cd, 0x8172b3], ellipsoid: [0xdd8452, 0x4c72b0],
  superellipsoid: [0x937860, 0x55a868] };
var CLEAR = 0xf2f4f7;

// ---- time lookup and interpolation ------------------------------------------
// Last row i with T[i] <= t (0 before the start, N-1 at and after the end).
function rowAt(t) {
  if (!(t > T0)) return 0;
  if (t >= T1) return N - 1;
  var lo = 0, hi = N - 1;
  while (hi - lo > 1) { var mid = (lo + hi) >> 1; if (T[mid] <= t) lo = mid; else hi = mid; }
  return lo;
}
// {i, a}: the state at t is row i when a == 0 (t is a row's time, e.g. an
// event), else a fraction a of the way to row i+1.
function where(t) {
  var i = rowAt(t);
  if (i >= N - 1 || !(t > T[i])) return { i: i, a: 0 };
  return { i: i, a: (t - T[i]) / (T[i + 1] - T[i]) };
}
// An event has two rows at its time, just before and just after it: the
// page shows the one after unless asked for the first (row keys, side=before).
function firstRowAt(t) { var i = rowAt(t); while (i > 0 && T[i - 1] === t) i--; return i; }
function rowsAtTime(i) { var a = i, b = i; while (a > 0 && T[a - 1] === T[i]) a--; while (b < N - 1 && T[b + 1] === T[i]) b++; return [a, b]; }
function lerp3(arr, w, out) {
  var k = 3 * w.i;
  if (w.a === 0) { out[0] = arr[k]; out[1] = arr[k + 1]; out[2] = arr[k + 2]; return out; }
  for (var j = 0; j < 3; j++) {
    var u = arr[k + j], v = arr[k + 3 + j];
    out[j] = isFinite(v) ? u + w.a * (v - u) : u;
  }
  return out;
}
function lerp1(arr, w) {
  if (w.a === 0) return arr[w.i];
  var u = arr[w.i], v = arr[w.i + 1];
  return isFinite(v) && isFinite(u) ? u + w.a * (v - u) : u;
}
// Quaternion [w,x,y,z] at w: the row's own at a row, else slerp along the
// shorter arc (angle by atan2, accurate for small and large steps).
function quatAt(q, w, out) {
  var m = 4 * w.i, j;
  if (w.a === 0) { for (j = 0; j < 4; j++) out[j] = q[m + j]; return out; }
  var a = [q[m], q[m + 1], q[m + 2], q[m + 3]], b = [q[m + 4], q[m + 5], q[m + 6], q[m + 7]];
  var dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  if (dot < 0) { for (j = 0; j < 4; j++) b[j] = -b[j]; }
  var dn = 0, sn = 0;
  for (j = 0; j < 4; j++) { var d = b[j] - a[j], s = b[j] + a[j]; dn += d * d; sn += s * s; }
  var th = 2 * Math.atan2(Math.sqrt(dn), Math.sqrt(sn)), st = Math.sin(th);
  var k0 = 1 - w.a, k1 = w.a;
  if (st > 0) { k0 = Math.sin((1 - w.a) * th) / st; k1 = Math.sin(w.a * th) / st; }
  var n = 0;
  for (j = 0; j < 4; j++) { out[j] = k0 * a[j] + k1 * b[j]; n += out[j] * out[j]; }
  n = Math.sqrt(n);
  for (j = 0; j < 4; j++) out[j] /= n;
  return out;
}

// ---- scene extent -------------------------------------------------------------
function roller(b) {   // the spindle's generatrix (docs/rollers.md): [x(q), r(q)]
  var R = b.radius, al = Math.PI / b.rollers, R1 = R * Math.cos(al), c = Math.cos(b.psi || 0), s = Math.sin(b.psi || 0);
  var pts = [], M = 48;
  for (var k = 0; k <= M; k++) {
    var q = -al + 2 * al * k / M, sq = Math.sin(q);
    var x = R * sq * c + R1 * Math.tan(q) * s * s / c;
    var r = (R - R1 / Math.cos(q)) * Math.sqrt(Math.max(0, 1 - sq * sq * c * c));
    if (k === 0 || k === M) r = 0;
    pts.push([x, Math.max(r, 0)]);
  }
  return pts;
}
function boundingRadius(b) {
  switch (b.shape) {
    case 'sphere': case 'disk': return b.radius;
    case 'cylinder': return Math.hypot(b.radius, b.length / 2);
    case 'capsule': return b.radius + b.length / 2;
    case 'ellipsoid': case 'superellipsoid': return Math.max(b.half[0], b.half[1], b.half[2]);
    case 'box': return Math.hypot(b.half[0], b.half[1], b.half[2]);
    case 'roller': return roller(b).reduce(function (m, p) { return Math.max(m, Math.hypot(p[0], p[1])); }, 0);
    default: return 0;
  }
}
var LO = [Infinity, Infinity, Infinity], HI = [-Infinity, -Infinity, -Infinity], BODY_SIZE = 0;
D.bodies.forEach(function (b) {
  var r = boundingRadius(b);
  BODY_SIZE = Math.max(BODY_SIZE, r);
  for (var i = 0; i < N; i++) for (var j = 0; j < 3; j++) {
    var v = b.p[3 * i + j];
    if (isFinite(v)) { LO[j] = Math.min(LO[j], v - r); HI[j] = Math.max(HI[j], v + r); }
  }
});
for (var j0 = 0; j0 < 3; j0++) if (!(LO[j0] <= HI[j0])) { LO[j0] = -0.5; HI[j0] = 0.5; }
var CENTRE = [(LO[0] + HI[0]) / 2, (LO[1] + HI[1]) / 2, (LO[2] + HI[2]) / 2];
var EXTENT = Math.max(Math.hypot(HI[0] - LO[0], HI[1] - LO[1], HI[2] - LO[2]), 1e-9);
if (!(BODY_SIZE > 0)) BODY_SIZE = 0.1 * EXTENT;
var MARK = Math.min(0.012 * EXTENT, 0.3 * BODY_SIZE) || 0.01 * EXTENT;   // small markers

// Forces: arrows of length lambda_n * FORCE_SCALE, where the 99th percentile
// of the positive normal forces gets 1.2 times the largest body's radius.
var FORCE_REF = (function () {
  var all = [];
  D.contacts.forEach(function (c) { c.lambda_n.forEach(function (v) { if (v > 0 && isFinite(v)) all.push(v); }); });
  if (!all.length) return 1;
  all.sort(function (a, b) { return a - b; });
  return all[Math.min(all.length - 1, Math.floor(0.99 * all.length))];
})();
var FORCE_SCALE = 1.2 * BODY_SIZE / FORCE_REF, FORCE_MAX = 3 * 1.2 * BODY_SIZE;

function fmt(x, n) {
  if (x === null || x === undefined || !isFinite(x)) return '\u2013';
  if (x === 0) return '0';
  var a = Math.abs(x);
  return (a >= 1e-3 && a < 1e5) ? Number(x.toPrecision(n || 4)).toString() : x.toExponential((n || 4) - 1);
}
function el(tag, attrs, text) {
  var e = document.createElement(tag);
  if (attrs) Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
  if (text !== undefined) e.textContent = text;
  return e;
}

// ---- renderer ---------------------------------------------------------------------
var view = $('view'), renderer = null, webgl = false;
var PROBING = /(^#|&)probe=/.test(location.hash);
try {
  // The probe reads the pixels back: only then keep the drawing buffer.
  renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: PROBING });
  webgl = !!renderer.getContext();
} catch (e) {
  renderer = null;
  window.__nsedWarnings.push('no WebGL: ' + e.message);
}
if (!webgl) $('nowebgl').style.display = 'block';
var scene = new THREE.Scene();
var UP = new THREE.Vector3(0, 0, 1);
if (D.floor) UP.fromArray(D.floor.normal).normalize();
var camera = new THREE.PerspectiveCamera(40, 1, EXTENT * 1e-3, EXTENT * 200);
camera.up.copy(UP);
if (renderer) {
  renderer.setClearColor(CLEAR, 1);
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  view.insertBefore(renderer.domElement, view.firstChild);
}
scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 0.75));
var sun = new THREE.DirectionalLight(0xffffff, 0.65);
sun.position.copy(UP).multiplyScalar(3).add(new THREE.Vector3(1, -1.5, 0)).multiplyScalar(EXTENT);
scene.add(sun);

// ---- bodies ---------------------------------------------------------------------------
// Two-tone colouring in the body's own axes, so that spin shows: the
// colour of each triangle from the signs of its centroid's coordinates.
function twoTone(geometry, colour, sign) {
  var g = geometry.index ? geometry.toNonIndexed() : geometry;
  var pos = g.attributes.position, n = pos.count, col = new Float32Array(3 * n);
  var c1 = new THREE.Color(colour), c2 = c1.clone().lerp(new THREE.Color(0xffffff), 0.55);
  for (var i = 0; i < n; i += 3) {
    var cx = 0, cy = 0, cz = 0;
    for (var k = 0; k < 3; k++) { cx += pos.getX(i + k); cy += pos.getY(i + k); cz += pos.getZ(i + k); }
    var c = sign(cx, cy, cz) >= 0 ? c1 : c2;
    for (k = 0; k < 3; k++) { col[3 * (i + k)] = c.r; col[3 * (i + k) + 1] = c.g; col[3 * (i + k) + 2] = c.b; }
  }
  g.setAttribute ? g.setAttribute('color', new THREE.BufferAttribute(col, 3))
                 : g.addAttribute('color', new THREE.BufferAttribute(col, 3));
  g.computeVertexNormals();
  return g;
}
function material() {
  return new THREE.MeshPhongMaterial({ vertexColors: THREE.VertexColors, shininess: 40, side: THREE.DoubleSide });
}
function shapeMesh(b, colour) {
  var g = null, sign = null;
  switch (b.shape) {
    case 'sphere':
      g = new THREE.SphereBufferGeometry(b.radius, 40, 24);
      sign = function (x, y, z) { return x * y * z; };
      break;
    case 'disk': case 'cylinder':
      var h = b.shape === 'disk' ? Math.max(0.06 * b.radius, 1e-6) : b.length;
      g = new THREE.CylinderBufferGeometry(b.radius, b.radius, h, 48, 1);
      g.rotateX(Math.PI / 2);                      // three's axis y -> body z
      sign = function (x, y) { return x * y; };
      break;
    case 'box':
      g = new THREE.BoxBufferGeometry(2 * b.half[0], 2 * b.half[1], 2 * b.half[2], 2, 2, 2);
      sign = function (x, y, z) { return x * y * z; };
      break;
    case 'point':   // around its contact's dot (MARK), which is drawn on top
      g = new THREE.SphereBufferGeometry(2.2 * MARK, 16, 10);
      sign = function () { return 1; };
      break;
    case 'ellipsoid':
      g = new THREE.SphereBufferGeometry(1, 40, 24);
      g.scale(b.half[0], b.half[1], b.half[2]);
      sign = function (x, y, z) { return x * y * z; };
      break;
    case 'superellipsoid':   // the unit sphere's points v mapped to v / |v|_p, scaled
      g = new THREE.SphereBufferGeometry(1, 48, 32);
      var sp = g.attributes.position;
      for (var k = 0; k < sp.count; k++) {
        var vx = sp.getX(k), vy = sp.getY(k), vz = sp.getZ(k);
        var nrm = Math.pow(Math.pow(Math.abs(vx), b.exponent) + Math.pow(Math.abs(vy), b.exponent) +
                           Math.pow(Math.abs(vz), b.exponent), 1 / b.exponent);
        sp.setXYZ(k, b.half[0] * vx / nrm, b.half[1] * vy / nrm, b.half[2] * vz / nrm);
      }
      g.computeVertexNormals();
      sign = function (x, y, z) { return x * y * z; };
      break;
    case 'capsule':   // a lathe of two quarter circles joined by the segment, axis body z
      var cp = [];
      for (var j = 0; j <= 16; j++) {
        var a = -Math.PI / 2 + j * Math.PI / 32;
        cp.push(new THREE.Vector2(b.radius * Math.cos(a), -b.length / 2 + b.radius * Math.sin(a)));
      }
      for (var j2 = 0; j2 <= 16; j2++) {
        var a2 = j2 * Math.PI / 32;
        cp.push(new THREE.Vector2(b.radius * Math.cos(a2), b.length / 2 + b.radius * Math.sin(a2)));
      }
      g = new THREE.LatheBufferGeometry(cp, 32);
      g.rotateX(Math.PI / 2);                      // lathe axis y -> body z
      sign = function (x, y) { return x * y; };
      break;
    case 'roller':
      var pts = roller(b).map(function (p) { return new THREE.Vector2(p[1], p[0]); });
      g = new THREE.LatheBufferGeometry(pts, 32);
      g.rotateZ(-Math.PI / 2);                     // lathe axis y -> body x
      sign = function (x, y, z) { return y * z; };
      break;
    default:
      return null;
  }
  var mesh = new THREE.Mesh(twoTone(g, colour, sign), material());
  return mesh;
}
var bodyObjects = [], pickable = [], shapeCount = {};
D.bodies.forEach(function (b, k) {
  var group = new THREE.Group();
  group.name = b.name;
  var colours = SHAPE_COLOURS[b.shape] || [0x777777], n = shapeCount[b.shape] || 0;
  shapeCount[b.shape] = n + 1;
  var mesh = shapeMesh(b, colours[n % colours.length]);
  if (mesh) {
    mesh.userData.body = b.name;
    group.add(mesh);
    pickable.push(mesh);
  } else {                                          // shape none: an axis triad
    var axes = new THREE.AxesHelper(0.06 * EXTENT);
    group.add(axes);
    var dot = new THREE.Mesh(new THREE.SphereBufferGeometry(0.25 * MARK + 0.004 * EXTENT, 12, 8),
                             new THREE.MeshPhongMaterial({ color: 0x333333 }));
    dot.userData.body = b.name;
    group.add(dot);
    pickable.push(dot);
  }
  scene.add(group);
  bodyObjects.push(group);
});

// Paths of the centres of mass (all rows of the page), rollers' left out.
var pathGroup = new THREE.Group();
D.bodies.forEach(function (b) {
  if (b.shape === 'roller') return;
  var pts = [];
  for (var i = 0; i < N; i++) {
    var x = b.p[3 * i], y = b.p[3 * i + 1], z = b.p[3 * i + 2];
    if (isFinite(x) && isFinite(y) && isFinite(z)) pts.push(new THREE.Vector3(x, y, z));
  }
  if (pts.length > 1)
    pathGroup.add(new THREE.Line(new THREE.BufferGeometry().setFromPoints(pts),
      new THREE.LineBasicMaterial({ color: 0x5a6270, transparent: true, opacity: 0.55 })));
});
scene.add(pathGroup);

// ---- floor ------------------------------------------------------------------------------
var floorGroup = null, grid = null, gridCell = 1, gridBase = null, gridE1 = null, gridE2 = null, beltTangent = null;
if (D.floor) {
  floorGroup = new THREE.Group();
  var P0 = new THREE.Vector3().fromArray(D.floor.point);
  var C = new THREE.Vector3().fromArray(CENTRE);
  var foot = C.clone().sub(UP.clone().multiplyScalar(C.clone().sub(P0).dot(UP)));
  var size = 3 * EXTENT;
  gridCell = Math.pow(10, Math.floor(Math.log10(size / 12)));
  if (size / gridCell > 60) gridCell *= 5; else if (size / gridCell > 30) gridCell *= 2;
  var divisions = Math.max(2, Math.round(size / gridCell));
  size = divisions * gridCell;
  var plane = new THREE.Mesh(new THREE.PlaneBufferGeometry(size, size),
    new THREE.MeshPhongMaterial({ color: 0xb9c6d6, transparent: true, opacity: 0.45, side: THREE.DoubleSide, depthWrite: false }));
  plane.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), UP);
  plane.position.copy(foot);
  plane.renderOrder = -1;
  floorGroup.add(plane);
  grid = new THREE.GridHelper(size, divisions, 0x55657a, 0x8a99ab);
  grid.material.transparent = true;
  grid.material.opacity = 0.6;
  grid.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), UP);
  gridBase = foot.clone().add(UP.clone().multiplyScalar(1e-4 * EXTENT));
  grid.position.copy(gridBase);
  gridE1 = new THREE.Vector3(1, 0, 0).applyQuaternion(grid.quaternion);
  gridE2 = new THREE.Vector3(0, 0, 1).applyQuaternion(grid.quaternion);
  var v = new THREE.Vector3().fromArray(D.floor.velocity);
  beltTangent = v.sub(UP.clone().multiplyScalar(v.dot(UP)));
  floorGroup.add(grid);
  scene.add(floorGroup);
}
// The model's other planes (walls, inclines): translucent squares about the
// bodies' centre's foot on each, the size of the floor's.
(D.planes || []).forEach(function (pl) {
  var n = new THREE.Vector3().fromArray(pl.normal).normalize();
  var P = new THREE.Vector3().fromArray(pl.point), C = new THREE.Vector3().fromArray(CENTRE);
  var foot = C.clone().sub(n.clone().multiplyScalar(C.clone().sub(P).dot(n)));
  var mesh = new THREE.Mesh(new THREE.PlaneBufferGeometry(3 * EXTENT, 3 * EXTENT),
    new THREE.MeshPhongMaterial({ color: 0xc9b99a, transparent: true, opacity: 0.4, side: THREE.DoubleSide, depthWrite: false }));
  mesh.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), n);
  mesh.position.copy(foot);
  mesh.renderOrder = -1;
  mesh.name = pl.name;
  scene.add(mesh);
});
function moveBelt(t) {   // the grid moves with the floor's (belt's) velocity
  if (!grid || !(beltTangent.lengthSq() > 0)) return;
  var s = beltTangent.clone().multiplyScalar(t - T0);
  var a = s.dot(gridE1), b = s.dot(gridE2);
  a -= gridCell * Math.floor(a / gridCell); b -= gridCell * Math.floor(b / gridCell);
  grid.position.copy(gridBase).add(gridE1.clone().multiplyScalar(a)).add(gridE2.clone().multiplyScalar(b));
}

// ---- contacts -------------------------------------------------------------------------------
var contactGroup = new THREE.Group();
scene.add(contactGroup);
function overlay(m) { m.depthTest = false; m.depthWrite = false; m.transparent = true; return m; }
var ringGeometry = (function () {
  var pts = [];
  for (var k = 0; k <= 64; k++) pts.push(new THREE.Vector3(Math.cos(2 * Math.PI * k / 64), Math.sin(2 * Math.PI * k / 64), 0));
  return new THREE.BufferGeometry().setFromPoints(pts);
})();
var contactObjects = D.contacts.map(function (c) {
  var o = { c: c, marker: null, arrow: null, ring: null, onFloor: c.other === 'floor' && !!D.floor };
  if (!c.point) return o;
  o.marker = new THREE.Mesh(new THREE.SphereBufferGeometry(MARK, 16, 10), overlay(new THREE.MeshBasicMaterial({ color: 0x888888 })));
  o.marker.renderOrder = 10;
  o.marker.name = c.name;
  contactGroup.add(o.marker);
  if (o.onFloor) {
    o.arrow = new THREE.ArrowHelper(UP, new THREE.Vector3(), 1, 0x1f4e9c, MARK * 3, MARK * 2);
    overlay(o.arrow.line.material); overlay(o.arrow.cone.material);
    o.arrow.line.renderOrder = o.arrow.cone.renderOrder = 9;
    contactGroup.add(o.arrow);
    o.ring = new THREE.Line(ringGeometry, overlay(new THREE.LineBasicMaterial({ color: 0xb8420a })));
    o.ring.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), UP);
    o.ring.renderOrder = 9;
    contactGroup.add(o.ring);
  }
  return o;
});

// ---- camera ---------------------------------------------------------------------------------
var controls = null;
if (renderer) {
  controls = new THREE.OrbitControls(camera, renderer.domElement);
  controls.enableDamping = false;
  controls.enableKeys = false;        // the arrow keys step through rows
  controls.addEventListener('change', function () { dirty = true; });
}
var followIndex = -1, followLast = new THREE.Vector3();
function homeCamera() {
  var target = new THREE.Vector3().fromArray(CENTRE);
  if (followIndex >= 0) target.copy(bodyObjects[followIndex].position);
  var e1 = new THREE.Vector3(1, 0, 0);
  if (Math.abs(e1.dot(UP)) > 0.9) e1.set(0, 1, 0);
  e1.sub(UP.clone().multiplyScalar(e1.dot(UP))).normalize();
  var e2 = UP.clone().cross(e1);
  var dist = 1.05 * EXTENT;
  if (followIndex >= 0) {   // frame what stays near the body: the bodies within EXTENT/4 of it at the start
    var f = D.bodies[followIndex], reach = boundingRadius(f);
    D.bodies.forEach(function (b) {
      var d = Math.hypot(b.p[0] - f.p[0], b.p[1] - f.p[1], b.p[2] - f.p[2]) + boundingRadius(b);
      if (d < 0.25 * EXTENT) reach = Math.max(reach, d);
    });
    dist = Math.max(3 * reach, 0.3 * EXTENT);
  }
  var dir = e1.multiplyScalar(0.55).add(e2.multiplyScalar(-0.95)).add(UP.clone().multiplyScalar(0.6)).normalize();
  camera.position.copy(target).add(dir.multiplyScalar(dist));
  camera.lookAt(target);
  if (controls) { controls.target.copy(target); controls.update(); }
  followLast.copy(target);
  dirty = true;
}
function setFollow(k) {
  followIndex = k;
  if (k >= 0) followLast.copy(bodyObjects[k].position);
  $('follow').value = String(k);
  homeCamera();
  updatePanels();
}

// ---- state at a time ----------------------------------------------------------------------------
var now = T0, playing = false, dirty = true, current = { i: 0, a: 0 };
var P3 = [0, 0, 0], Q4 = [1, 0, 0, 0];
function apply(t, row) {
  now = Math.min(Math.max(t, T0), T1);
  var w = current = (row !== undefined && T[row] === now) ? { i: row, a: 0 } : where(now);
  D.bodies.forEach(function (b, k) {
    var g = bodyObjects[k];
    lerp3(b.p, w, P3); quatAt(b.q, w, Q4);
    var ok = isFinite(P3[0]) && isFinite(P3[1]) && isFinite(P3[2]) && isFinite(Q4[0]);
    g.visible = ok;
    if (ok) { g.position.set(P3[0], P3[1], P3[2]); g.quaternion.set(Q4[1], Q4[2], Q4[3], Q4[0]); }
  });
  contactObjects.forEach(function (o) {
    var c = o.c, m = c.mode[w.i], name = m >= 0 ? D.mode_names[m] : null;
    o.mode = name;
    o.lambda_n = lerp1(c.lambda_n, w);
    o.lambda_t = lerp1(c.lambda_t, w);
    if (!o.marker) return;
    lerp3(c.point, w, P3);
    var ok = name !== null && isFinite(P3[0]) && isFinite(P3[1]) && isFinite(P3[2]);
    o.marker.visible = ok;
    if (!ok) { if (o.arrow) { o.arrow.visible = o.ring.visible = false; } return; }
    o.marker.position.set(P3[0], P3[1], P3[2]);
    o.marker.material.color.set(modeColour(name));
    var open = name === 'open';
    o.marker.scale.setScalar(open ? 0.6 : 1);
    o.marker.material.opacity = open ? 0.6 : 1;
    if (o.arrow) {
      var L = Math.min(o.lambda_n * FORCE_SCALE, FORCE_MAX);
      o.arrow.visible = L > 1e-6 * EXTENT;
      if (o.arrow.visible) {
        o.arrow.position.set(P3[0], P3[1], P3[2]);
        o.arrow.setLength(L, Math.min(3 * MARK, 0.4 * L), Math.min(2 * MARK, 0.3 * L));
      }
      var rr = Math.min(o.lambda_t * FORCE_SCALE, FORCE_MAX);
      o.ring.visible = rr > 1e-6 * EXTENT;
      if (o.ring.visible) { o.ring.position.set(P3[0], P3[1], P3[2]); o.ring.scale.set(rr, rr, rr); }
    }
  });
  moveBelt(now);
  if (followIndex >= 0 && bodyObjects[followIndex].visible) {
    var p = bodyObjects[followIndex].position, d = p.clone().sub(followLast);
    camera.position.add(d);
    if (controls) { controls.target.add(d); controls.update(); }
    followLast.copy(p);
  }
  dirty = true;
  updatePanels();
}

// ---- panels -----------------------------------------------------------------------------------
function addMeta(label, value) {
  if (value === null || value === undefined || value === '') return;
  var d = el('div'); d.appendChild(el('b', null, label + ': ')); d.appendChild(document.createTextNode(String(value)));
  $('meta').appendChild(d);
}
var M = D.meta;
addMeta('problem', M.problem);
addMeta('status', M.status + (M.message ? ' (' + M.message + ')' : ''));
addMeta('time', fmt(T0, 6) + ' to ' + fmt(T1, 6) + ' s' + (M.t_end !== null && M.t_end !== undefined && M.t_end !== T1 ? ' (t_end ' + fmt(M.t_end, 6) + ')' : ''));
addMeta('bodies', D.bodies.length + ' (' + D.bodies.map(function (b) { return b.name + ' ' + b.shape; }).slice(0, 6).join(', ') + (D.bodies.length > 6 ? ', ...' : '') + ')');
addMeta('contacts', D.contacts.length);
addMeta('events', D.events.length);
(D.planes || []).forEach(function (pl) {
  addMeta('plane ' + pl.name, 'through (' + pl.point.map(function (x) { return fmt(x); }).join(', ') + '), normal (' + pl.normal.map(function (x) { return fmt(x); }).join(', ') + ')');
});
if (D.floor) {
  addMeta('floor', 'through (' + D.floor.point.map(function (x) { return fmt(x); }).join(', ') + '), normal (' + D.floor.normal.map(function (x) { return fmt(x); }).join(', ') + ')');
  var vb = D.floor.velocity;
  addMeta('floor velocity', (vb[0] || vb[1] || vb[2]) ? '(' + vb.map(function (x) { return fmt(x); }).join(', ') + ') m/s (a belt: the grid moves with it)' : 'at rest');
}
addMeta('source', M.source);

var legend = $('legend');
['stick', 'slip', 'open'].forEach(function (m) {
  var s = el('span'); var sw = el('span', { 'class': 'sw' }); sw.style.background = modeColour(m);
  s.appendChild(sw); s.appendChild(document.createTextNode(m)); legend.appendChild(s);
});

var rowsEl = [];
(function () {
  var table = $('contacts');
  var head = el('tr');
  ['contact', 'mode', '\u03bb_n', '|\u03bb_t|', 'slip'].forEach(function (h) { head.appendChild(el('th', null, h)); });
  table.appendChild(head);
  contactObjects.forEach(function (o) {
    var tr = el('tr'), cells = [];
    for (var k = 0; k < 5; k++) { cells.push(el('td')); tr.appendChild(cells[k]); }
    cells[0].textContent = o.c.name;
    cells[0].title = (o.c.body || '?') + ' on ' + (o.c.other || '?') + (o.c.law ? ', ' + o.c.law : '') + (o.c.mu !== null && o.c.mu !== undefined ? ', mu ' + o.c.mu : '');
    var badge = el('span', { 'class': 'mode' });
    cells[1].appendChild(badge);
    table.appendChild(tr);
    rowsEl.push({ badge: badge, cells: cells });
  });
})();

var eventItems = [];
$('events-title').textContent = 'events (' + EVENTS.length + ')';
EVENTS.forEach(function (e) {
  var li = el('li', null, 't=' + fmt(e.t, 8) + ' ' + e.kind + (e.contact ? ' ' + e.contact : '') + (e.from || e.to ? ' ' + e.from + '\u2192' + e.to : ''));
  li.style.borderLeftColor = kindColour(e.kind);
  li.title = 't = ' + e.t + ' s: click to go there';
  li.addEventListener('click', function () { pause(); apply(e.t); });
  $('events').appendChild(li);
  eventItems.push(li);
});
if (!EVENTS.length) $('events').appendChild(el('li', null, '(none)'));

(function notes() {
  var n = $('notes');
  function add(text) { n.appendChild(el('div', { 'class': 'note' }, text)); }
  add('Bodies: shapes from summary.json "geometry", at the trajectory\'s centre of mass and orientation; shape "none" is drawn as an axis triad (red x, green y, blue z). Between rows: position linear, orientation slerp; at a row\'s time (every event has one) the row itself.');
  if (!M.points) add('This result has no contact points (contacts.csv without point_x, point_y, point_z): contacts appear only in the table.');
  else add('Contacts: a dot at the contact point, coloured by mode (of the row at or before the shown time). Floor contacts: the arrow along the floor normal is the normal force, ' + fmt(1 / FORCE_SCALE, 3) + ' N per m of arrow (longest ' + fmt(FORCE_MAX, 3) + ' m); the ring in the floor plane has radius |\u03bb_t| on the same scale (the friction force\'s direction is not in the output files, so it is not drawn). Other contacts: the dot only.');
  if (M.stride > 1) add('Subsampled: ' + M.rows_kept + ' of the ' + M.rows_total + ' trajectory rows are in this page (every ' + M.stride + 'th row, plus every row at an event time, which is kept exactly).');
  else add('All ' + M.rows_total + ' trajectory rows are in this page.');
  add('three.js r' + THREE.REVISION + ' (Debian libjs-three), embedded; works offline.');
})();

// ---- timeline strip -------------------------------------------------------------------------------------
var strip = $('strip'), stripBase = null;
var MAX_LANES = 24;
function stripX(t, w) { return (t - T0) / SPAN * (w - 8) + 4; }
function drawStripBase() {
  var dpr = window.devicePixelRatio || 1, w = strip.clientWidth, lanes = Math.min(D.contacts.length, MAX_LANES);
  var h = 18 + lanes * Math.max(2, Math.min(6, Math.floor(30 / Math.max(lanes, 1))));
  strip.style.height = h + 'px';
  strip.width = Math.max(1, Math.round(w * dpr)); strip.height = Math.round(h * dpr);
  stripBase = document.createElement('canvas');
  stripBase.width = strip.width; stripBase.height = strip.height;
  var g = stripBase.getContext('2d');
  g.scale(dpr, dpr);
  g.fillStyle = '#ffffff'; g.fillRect(0, 0, w, h);
  var lh = lanes ? (h - 18) / lanes : 0;
  for (var k = 0; k < lanes; k++) {
    var c = D.contacts[k], i = 0;
    while (i < N) {
      var m = c.mode[i], j = i + 1;
      while (j < N && c.mode[j] === m) j++;
      if (m >= 0 && D.mode_names[m] !== 'open') {
        g.fillStyle = modeColour(D.mode_names[m]);
        var x0 = stripX(T[i], w), x1 = stripX(j < N ? T[j] : T1, w);
        g.fillRect(x0, 16 + k * lh, Math.max(x1 - x0, 0.5), Math.max(lh - 0.5, 1));
      }
      i = j;
    }
  }
  EVENTS.forEach(function (e) {
    g.strokeStyle = kindColour(e.kind); g.lineWidth = 1.5;
    var x = stripX(e.t, w); g.beginPath(); g.moveTo(x, 1); g.lineTo(x, 14); g.stroke();
  });
  g.fillStyle = '#666'; g.font = '10px sans-serif';
  g.fillText(fmt(T0, 4), 6, 11);
  var endLabel = fmt(T1, 4); g.fillText(endLabel, w - 6 - g.measureText(endLabel).width, 11);
}
function drawStrip() {
  if (!stripBase) return;
  var g = strip.getContext('2d'), dpr = window.devicePixelRatio || 1, w = strip.clientWidth;
  g.setTransform(1, 0, 0, 1, 0, 0);
  g.drawImage(stripBase, 0, 0);
  g.scale(dpr, dpr);
  var x = stripX(now, w);
  g.strokeStyle = '#d00'; g.lineWidth = 2; g.beginPath(); g.moveTo(x, 0); g.lineTo(x, strip.height / dpr); g.stroke();
}
// A time picked on the slider or the strip snaps to an event within a few pixels.
function snap(t, pixels, width) {
  var tol = pixels * SPAN / Math.max(width, 1), best = t, bd = tol;
  EVENT_TIMES.forEach(function (te) { var d = Math.abs(te - t); if (d <= bd) { bd = d; best = te; } });
  return best;
}
function stripSeek(ev) {
  var r = strip.getBoundingClientRect(), w = r.width;
  var t = T0 + (ev.clientX - r.left - 4) / (w - 8) * SPAN;
  pause(); apply(snap(Math.min(Math.max(t, T0), T1), 5, w));
}
strip.addEventListener('pointerdown', function (ev) { strip.setPointerCapture(ev.pointerId); stripSeek(ev); });
strip.addEventListener('pointermove', function (ev) { if (ev.buttons & 1) stripSeek(ev); });

// ---- controls -----------------------------------------------------------------------------------------------
var slider = $('slider');
slider.min = String(T0); slider.max = String(T1 > T0 ? T1 : T0 + 1);
slider.addEventListener('input', function () {
  pause(); apply(snap(parseFloat(slider.value), 3, slider.clientWidth));
});
var speed = 1;
$('speed').addEventListener('input', function () {
  speed = Math.pow(10, parseFloat(this.value));
  $('speedval').textContent = fmt(speed, 2) + '\u00d7';
});
function pause() { playing = false; $('play').innerHTML = '&#9654;'; }
function play() {
  if (now >= T1) apply(T0);
  playing = true; lastFrame = null; $('play').innerHTML = '&#10074;&#10074;';
}
$('play').addEventListener('click', function () { if (playing) pause(); else play(); });
function nextEvent(dir) {
  var t = null;
  if (dir > 0) { for (var k = 0; k < EVENT_TIMES.length; k++) if (EVENT_TIMES[k] > now) { t = EVENT_TIMES[k]; break; } }
  else { for (var k2 = EVENT_TIMES.length - 1; k2 >= 0; k2--) if (EVENT_TIMES[k2] < now) { t = EVENT_TIMES[k2]; break; } }
  if (t !== null) { pause(); apply(t); }
}
$('prev').addEventListener('click', function () { nextEvent(-1); });
$('next').addEventListener('click', function () { nextEvent(1); });
var sel = $('follow');
sel.appendChild(el('option', { value: '-1' }, 'nothing (fixed camera)'));
D.bodies.forEach(function (b, k) { sel.appendChild(el('option', { value: String(k) }, b.name)); });
sel.addEventListener('change', function () { setFollow(parseInt(sel.value, 10)); });
$('reset').addEventListener('click', homeCamera);
$('paths').addEventListener('change', function () { pathGroup.visible = this.checked; dirty = true; });
document.addEventListener('keydown', function (ev) {
  if (ev.target && (ev.target.tagName === 'SELECT' || (ev.target.tagName === 'INPUT' && ev.target.type !== 'range' && ev.target.type !== 'checkbox'))) return;
  if (ev.key === ' ') { if (playing) pause(); else play(); ev.preventDefault(); }
  else if (ev.key === 'ArrowRight' || ev.key === 'ArrowLeft') {
    pause();
    var i = current.i;                       // the row shown, or the one before now
    if (ev.key === 'ArrowRight') i = Math.min(i + 1, N - 1);
    else if (current.a === 0) i = Math.max(i - 1, 0);
    apply(T[i], i); ev.preventDefault();
  }
  else if (ev.key === ']') nextEvent(1);
  else if (ev.key === '[') nextEvent(-1);
  else if (ev.key === 'Home') { pause(); apply(T0); }
  else if (ev.key === 'End') { pause(); apply(T1); }
});

// Hovering a body names it.
var raycaster = new THREE.Raycaster(), mouse = new THREE.Vector2(), tip = $('tip');
if (renderer) renderer.domElement.addEventListener('pointermove', function (ev) {
  var r = renderer.domElement.getBoundingClientRect();
  mouse.set((ev.clientX - r.left) / r.width * 2 - 1, -(ev.clientY - r.top) / r.height * 2 + 1);
  raycaster.setFromCamera(mouse, camera);
  var hit = raycaster.intersectObjects(pickable, false)[0];
  if (hit && !ev.buttons) {
    tip.textContent = hit.object.userData.body;
    tip.style.left = (ev.clientX - r.left + 12) + 'px'; tip.style.top = (ev.clientY - r.top + 8) + 'px';
    tip.style.display = 'block';
  } else tip.style.display = 'none';
});

function updatePanels() {
  var w = current, exact = w.a === 0, eventNow = false;
  eventItems.forEach(function (li, k) {
    var e = EVENTS[k], isNow = e.t === now;
    eventNow = eventNow || isNow;
    li.className = isNow ? 'now' : (e.t < now ? 'past' : '');
  });
  var text = 't = ' + (exact ? String(now) : now.toFixed(Math.max(3, 2 - Math.floor(Math.log10(SPAN)) + 3))) + ' s';
  $('time').textContent = text;
  var same = rowsAtTime(w.i), note = '';
  if (eventNow && same[1] === same[0] + 1) note = w.i === same[0] ? ' (event, just before)' : ' (event, just after)';
  else if (same[1] > same[0]) note = ' (' + (eventNow ? 'event, ' : '') + (w.i - same[0] + 1) + ' of ' + (same[1] - same[0] + 1) + ' rows at this time)';
  else if (eventNow) note = ' (event)';
  var rowText = exact ? 'row ' + (w.i + 1) + ' of ' + N + note
                    : 'between rows ' + (w.i + 1) + ' and ' + (w.i + 2) + ' of ' + N;
  var lines = [text + '   ' + rowText];
  var counts = {};
  contactObjects.forEach(function (o, k) {
    var r = rowsEl[k], m = o.mode || '?';
    counts[m] = (counts[m] || 0) + 1;
    r.badge.textContent = m; r.badge.style.background = modeColour(o.mode);
    r.cells[2].textContent = fmt(o.lambda_n); r.cells[3].textContent = fmt(o.lambda_t);
    r.cells[4].textContent = fmt(lerp1(o.c.slip, w), 3);
  });
  if (contactObjects.length) lines.push('contacts: ' + Object.keys(counts).map(function (m) { return counts[m] + ' ' + m; }).join(', '));
  if (followIndex >= 0) lines.push('following ' + D.bodies[followIndex].name);
  $('overlay').textContent = lines.join('\n');
  slider.value = String(now);
  drawStrip();
}

// ---- size and the frame loop ------------------------------------------------------------------------------
function resize() {
  var w = Math.max(view.clientWidth, 1), h = Math.max(view.clientHeight, 1);
  camera.aspect = w / h; camera.updateProjectionMatrix();
  if (renderer) renderer.setSize(w, h);
  drawStripBase(); drawStrip();
  dirty = true;
}
window.addEventListener('resize', resize);
function render() { if (renderer) renderer.render(scene, camera); dirty = false; }
var lastFrame = null, framesPlayed = 0;
function frame(ms) {
  if (playing) {
    // Counted where a test can read it: a page that got no frames from the
    // browser is told apart from a playback that does not advance.
    document.documentElement.dataset.framesPlayed = String(++framesPlayed);
    if (lastFrame !== null) {
      var t = now + Math.min((ms - lastFrame) / 1000, 0.25) * speed;
      if ($('stopev').checked) {
        for (var k = 0; k < EVENT_TIMES.length; k++)
          if (EVENT_TIMES[k] > now && EVENT_TIMES[k] <= t) { t = EVENT_TIMES[k]; pause(); break; }
      }
      if (t >= T1) { t = T1; pause(); }
      apply(t);
    }
    lastFrame = ms;
  }
  if (dirty) render();
  requestAnimationFrame(frame);
}

// ---- the probe (tests/view/test_view.py) -------------------------------------------------------------------
function countPixels() {
  var gl = renderer.getContext(), w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
  var buf = new Uint8Array(w * h * 4);
  gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, buf);
  var c = new THREE.Color(CLEAR), cr = Math.round(c.r * 255), cg = Math.round(c.g * 255), cb = Math.round(c.b * 255), n = 0;
  for (var i = 0; i < buf.length; i += 4)
    if (Math.abs(buf[i] - cr) > 2 || Math.abs(buf[i + 1] - cg) > 2 || Math.abs(buf[i + 2] - cb) > 2) n++;
  return { n: n, total: w * h };
}
function probe(t, before) {
  var out = { t: null, errors: null, warnings: null, webgl: webgl, three: THREE.REVISION, rows: N,
              row: null, between: null, follow: followIndex >= 0 ? D.bodies[followIndex].name : null,
              bodies: {}, contacts: {}, pixels: null };
  try {
    apply(t, before ? firstRowAt(t) : undefined);
    out.t = now; out.row = current.i; out.between = current.a > 0;
    render();
    var p = new THREE.Vector3(), q = new THREE.Quaternion(), s = new THREE.Vector3();
    bodyObjects.forEach(function (g) {
      g.matrixWorld.decompose(p, q, s);
      out.bodies[g.name] = { position: [p.x, p.y, p.z], quaternion: [q.w, q.x, q.y, q.z], visible: g.visible };
    });
    contactObjects.forEach(function (o) {
      var e = { mode: o.mode, lambda_n: o.lambda_n, position: null, arrow: null };
      if (o.marker && o.marker.visible) {
        o.marker.matrixWorld.decompose(p, q, s);
        e.position = [p.x, p.y, p.z];
        if (o.arrow && o.arrow.visible) e.arrow = o.arrow.line.scale.y + o.arrow.cone.scale.y;
      }
      out.contacts[o.c.name] = e;
    });
    if (webgl) {
      var all = countPixels();
      if (floorGroup) floorGroup.visible = false;
      contactGroup.visible = false;
      render();
      var bodiesOnly = countPixels();
      if (floorGroup) floorGroup.visible = true;
      contactGroup.visible = true;
      render();
      out.pixels = { nonbackground: all.n, bodies_only: bodiesOnly.n, total: all.total };
    }
  } catch (e) {
    window.__nsedErrors.push('probe: ' + e.message);
  }
  out.errors = window.__nsedErrors.slice();
  out.warnings = window.__nsedWarnings.slice();
  $('nsed-probe').textContent = JSON.stringify(out);
}

// ---- start -----------------------------------------------------------------------------------------------------
var hash = {};
location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
  var i = kv.indexOf('=');
  if (i > 0) hash[decodeURIComponent(kv.slice(0, i))] = decodeURIComponent(kv.slice(i + 1));
  else if (kv) hash[decodeURIComponent(kv)] = '';
});
var followName = hash.follow !== undefined ? hash.follow : D.follow;
var fk = -1;
D.bodies.forEach(function (b, k) { if (b.name === followName) fk = k; });
resize();
apply(T0);
setFollow(fk);
if (hash.probe !== undefined) {
  probe(parseFloat(hash.probe), hash.side === 'before');
} else {
  if (hash.t !== undefined && isFinite(parseFloat(hash.t))) apply(parseFloat(hash.t));
  if (hash.speed !== undefined && parseFloat(hash.speed) > 0) {
    $('speed').value = String(Math.max(-1, Math.min(1, Math.log10(parseFloat(hash.speed)))));
    $('speed').dispatchEvent(new Event('input'));
  }
  if (hash.play !== undefined) play();
  requestAnimationFrame(frame);
}
})();
"""
