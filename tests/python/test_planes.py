#!/usr/bin/python3
"""Planes, box vertices and cylinder rims from Python (ModelBuilder.plane,
contact's feature and other naming a plane, a dict's planes).

Usage: test_planes.py SOURCE_ROOT LIBNSED_SO [B_SANITIZE]

- a box (half extents 0.2 0.1 0.05, mass 2) lying on its face on an incline
  plane of theta = 20 deg (through the origin, normal (-sin th, 0, cos th)),
  launched down the slope at v0 = 1 m/s, exact Coulomb mu = mu0 = 0.5: its
  contact expands into the eight vertex contacts c.v0 .. c.v7, the four of
  the bottom face slip and stop together at t* = v0 / (g (mu cos th -
  sin th)) (to 1e-8 s) after v0^2 / (2 g (mu cos th - sin th)) down the
  slope (to 1e-8 m), the normal forces add up to m g cos th while it
  slides, the top four stay open, the box stays on the plane and does not
  turn; the same problem as a dict (planes:, with: a plane, a box contact
  without feature) runs bit for bit as the built one;
- a solid cylinder (radius 0.1, length 0.3, mass 2, axis along world y)
  released at rest on its side on the same incline, both rims touching,
  exact Coulomb mu = 0.5 (> tan th / 3: it rolls): its contact expands into
  the two rim contacts c.rim0 and c.rim1 (features 0 and 1), both stick,
  and its centre travels a t^2 / 2 down the slope in 0.5 s (to 1e-8 m),
  a = g sin th / (1 + I / (m r^2)) = (2/3) g sin th;
- plane mistakes: a zero normal (the library's message, naming the plane,
  from build(); a dict's from the loader), a normal velocity, a plane named
  as a body, Python-side types and unknown fields at the call; feature on
  a sphere, feature out of range, a box contact's name too long for ".v0";
- nsed_model_plane_def round trip: the fields given (the normal normalised),
  the defaults of nsed_plane_def_default, Model.planes, the same planes
  read from a dict byte for byte; a contact's other and feature as given
  (feature -1 on a sphere, 3 on a box given one); a box contact given before
  its box and plane expands all the same; an nsed.Capsule (shape type 7)
  standing on the floor: its contact expands into c.end0 and c.end1, one
  given feature 1 stays itself, the bodies and contacts byte for byte
  those of the same dict (shape {type: capsule}, feature:).
Exit 77 (skipped) for a sanitizer build.
"""

import math
import sys

sys.dont_write_bytecode = True  # also for harness: nothing written into the sources
from harness import Checks, binding_args  # noqa: E402

ROOT, LIB = binding_args(2)[:2]

import numpy as np  # noqa: E402

import nsed  # noqa: E402
from nsed._core import lib  # noqa: E402
from nsed._ffi import ffi  # noqa: E402

G = 9.81
check = Checks()

TH = math.radians(20.0)
V0, MU, MASS = 1.0, 0.5, 2.0
HALF = [0.2, 0.1, 0.05]
NORMAL = [-math.sin(TH), 0.0, math.cos(TH)]
DOWN = [-math.cos(TH), 0.0, -math.sin(TH)]     # down the slope (the plane rises along +x)
START = [HALF[2] * x for x in NORMAL]           # the bottom face on the plane
VEL = [V0 * x for x in DOWN]


def incline_builder(t_end=1.2):
    m = nsed.ModelBuilder("box on an incline")
    m.plane(name="incline", point=[0, 0, 0], normal=NORMAL)
    m.body(name="box", mass=MASS, shape=nsed.Box(HALF),
           quat=nsed.quat_from_axis_angle([0, 1, 0], angle_rad=-TH),   # body z along NORMAL
           position=START, velocity=VEL)
    m.contact(name="c", body="box", other="incline", mu=MU, mu0=MU, law="coulomb")
    m.options(t_end=t_end, output_dt=0.01)
    return m


def incline_dict(t_end=1.2):
    return {
        "name": "box on an incline",
        "planes": [{"name": "incline", "point": [0.0, 0.0, 0.0], "normal": NORMAL,
                    "velocity": [0.0, 0.0, 0.0]}],
        "bodies": [{"name": "box", "mass": MASS, "shape": {"type": "box", "half_extents": HALF},
                    "orientation": {"axis": [0, 1, 0], "angle_rad": -TH},
                    "position": START, "velocity": VEL}],
        "contacts": [{"name": "c", "body": "box", "with": "incline", "mu": MU, "mu0": MU,
                      "law": "coulomb"}],
        "solver": {"t_end": t_end},
        "output": {"dt": 0.01},
    }


def test_incline():
    model = incline_builder().build()
    names = tuple(f"c.v{v}" for v in range(8))
    check(model.contacts == names and model.planes == ("incline",),
          f"box contact expanded: {model.contacts}, planes {model.planes}")
    defs = [lib.nsed_model_contact_def(model._m, i) for i in range(8)]
    check([d.feature for d in defs] == list(range(8))
          and all(ffi.string(d.other) == b"incline" and d.mu == MU and d.mu0 == MU for d in defs),
          f"vertex contacts: feature {[d.feature for d in defs]}, other "
          f"{[ffi.string(d.other) for d in defs]}")
    r = model.run()
    check(r.summary["status"] == "ok", f"status {r.summary['status']}")

    a = G * (MU * math.cos(TH) - math.sin(TH))     # deceleration while sliding
    tstar, dstar = V0 / a, V0 * V0 / (2 * a)
    ev = r.events
    bottom = {f"c.v{v}" for v in range(4)}          # bit 2 clear: -half[2], the face on the plane
    check(len(ev) == 4 and set(ev["contact"]) == bottom and all(ev["kind"] == "stick")
          and all(ev["from"] == "slip") and all(ev["to"] == "stick"),
          f"events: {list(zip(ev['t'], ev['kind'], ev['contact'], ev['from'], ev['to']))}")
    dt = np.max(np.abs(ev["t"] - tstar)) if len(ev) else math.inf
    check(dt < 1e-8, f"stop at {list(ev['t'])} vs t* = {tstar!r}: |diff| {dt:.3g} s")

    box = r.body("box")
    pos = np.stack([box["x"], box["y"], box["z"]], axis=1) - np.array(START)
    along = pos @ np.array(DOWN)
    off = pos @ np.array(NORMAL)
    dd = abs(along[-1] - dstar)
    check(box["t"][-1] == 1.2 and dd < 1e-8,
          f"distance {along[-1]!r} vs {dstar!r}: |diff| {dd:.3g} m")
    # before the stop: s(t) = v0 t - a t^2 / 2; after it: at rest
    sliding = box["t"] < tstar
    ts = box["t"][sliding]
    ds = np.max(np.abs(along[sliding] - (V0 * ts - 0.5 * a * ts ** 2)))
    still = box["t"] > tstar
    speed = np.max(np.abs([box[k][still] for k in ("vx", "vy", "vz", "wx", "wy", "wz")]))
    check(ds < 1e-8 and speed < 1e-12,
          f"s(t) max error {ds:.3g} m; speed after the stop {speed:.3g}")
    q = np.stack([box[k] for k in ("q0", "q1", "q2", "q3")], axis=1)
    dq = np.max(np.abs(q - q[0]))
    check(np.max(np.abs(off)) < 1e-12 and np.max(np.abs(box["y"])) < 1e-12 and dq < 1e-12,
          f"on the plane: |off| {np.max(np.abs(off)):.3g} m, |y| {np.max(np.abs(box['y'])):.3g} m, "
          f"quaternion change {dq:.3g}")

    c = r.contacts
    top = np.isin(c["contact"], [f"c.v{v}" for v in range(4, 8)])
    check(np.all(c["mode"][top] == "open") and
          np.all(np.isin(c["mode"][~top], ["slip", "stick"])),
          f"modes: top {set(c['mode'][top])}, bottom {set(c['mode'][~top])}")
    # one row per contact and trajectory row (several rows may share an instant)
    rows = c.reshape(-1, 8)
    check(len(rows) == len(r.trajectory) and np.all(rows["t"] == r.trajectory["t"][:, None])
          and np.all(rows["contact"] == np.array(names)), "contacts: 8 rows per sample")
    sliding = np.all(rows["mode"][:, :4] == "slip", axis=1)
    ln = np.sum(rows["lambda_n"][sliding], axis=1)
    worst = np.max(np.abs(ln - MASS * G * math.cos(TH)))
    check(np.sum(sliding) > 10 and worst < 1e-8,
          f"sum of the normal forces while sliding vs m g cos th: max |diff| {worst:.3g} N "
          f"over {np.sum(sliding)} samples")

    # the same problem as a dict (planes:, with: a plane, the box contact expanded by the loader)
    f = nsed.run(incline_dict())
    same = (f.trajectory.tobytes() == r.trajectory.tobytes()
            and f.events["t"].tobytes() == r.events["t"].tobytes()
            and list(f.events["contact"]) == list(r.events["contact"])
            and f.contacts.tobytes() == r.contacts.tobytes())
    check(same and nsed.from_dict(incline_dict()).planes == ("incline",),
          "the dict runs bit for bit as the built model")
    print(f"box on an incline (theta 20 deg, mu 0.5, v0 1): stop at {ev['t'][0]!r} s, closed form "
          f"{tstar!r} s, |diff| {dt:.3g} s; distance {along[-1]!r} m, closed form {dstar!r} m, "
          f"|diff| {dd:.3g} m; s(t) max error {ds:.3g} m; sum lambda_n max error {worst:.3g} N")


def test_cylinder():
    """A solid cylinder rolling without slip down the incline from rest."""
    radius, length, t_end = 0.1, 0.3, 0.5
    start = [radius * x for x in NORMAL]        # both rims touching the plane
    m = nsed.ModelBuilder("cylinder rolling down an incline")
    m.plane(name="incline", point=[0, 0, 0], normal=NORMAL)
    m.body(name="roll", mass=MASS, shape=nsed.Cylinder(radius, length),
           quat=nsed.quat_from_axis_angle([1, 0, 0], angle_deg=-90),   # body z onto world y
           position=start)
    m.contact(name="c", body="roll", other="incline", mu=MU, mu0=MU, law="coulomb")
    m.options(t_end=t_end, output_dt=0.01)
    model = m.build()
    defs = [lib.nsed_model_contact_def(model._m, i) for i in range(len(model.contacts))]
    check(model.contacts == ("c.rim0", "c.rim1") and [d.feature for d in defs] == [0, 1]
          and m.names("contact") == ["c"],
          f"cylinder contact expanded: {model.contacts}, features {[d.feature for d in defs]}")
    r = model.run()
    check(r.summary["status"] == "ok" and len(r.events) == 0,
          f"status {r.summary['status']}, {len(r.events)} events")
    check(set(r.contacts["mode"]) == {"stick"}, f"rim modes {set(r.contacts['mode'])}")

    inertia = 0.5 * MASS * radius ** 2                 # about the cylinder's axis
    a = G * math.sin(TH) / (1 + inertia / (MASS * radius ** 2))
    roll = r.body("roll")
    pos = np.stack([roll["x"], roll["y"], roll["z"]], axis=1) - np.array(start)
    along = pos @ np.array(DOWN)
    want = 0.5 * a * t_end ** 2
    err = abs(along[-1] - want)
    check(roll["t"][-1] == t_end and err < 1e-8,
          f"cylinder distance after {t_end} s {along[-1]!r} vs a t^2/2 = {want!r}: "
          f"|diff| {err:.3g} m")
    print(f"cylinder rolling down an incline (theta 20 deg, r 0.1, mu 0.5): distance after "
          f"{t_end} s {along[-1]!r} m, closed form {want!r} m, |diff| {err:.3g} m")


def test_ellipsoid():
    """nsed.Ellipsoid from the builder is the file's {type: ellipsoid,
    semi_axes}: the same model byte for byte, the library's inertia
    m (b^2 + c^2) / 5 ..., and resting on its shortest axis it stays."""
    axes = [0.3, 0.2, 0.1]
    m = nsed.ModelBuilder("an egg at rest")
    m.body(name="egg", mass=2.0, shape=nsed.Ellipsoid(axes), position=[0, 0, axes[2]])
    m.contact(name="egg_floor", body="egg", mu=0.5)
    m.options(t_end=1.0, output_dt=0.1)
    model = m.build()
    loaded = nsed.from_dict({"bodies": [{"name": "egg", "mass": 2.0,
                                         "shape": {"type": "ellipsoid", "semi_axes": axes},
                                         "position": [0, 0, axes[2]]}],
                             "contacts": [{"name": "egg_floor", "body": "egg", "mu": 0.5}]})
    a, b = lib.nsed_model_body_def(model._m, 0), lib.nsed_model_body_def(loaded._m, 0)
    check(ffi.buffer(a)[:] == ffi.buffer(b)[:], "ellipsoid: built and dict bodies differ")
    want = [0.4 * (axes[1] ** 2 + axes[2] ** 2), 0.4 * (axes[0] ** 2 + axes[2] ** 2),
            0.4 * (axes[0] ** 2 + axes[1] ** 2)]
    check(all(abs(a.inertia[i] - want[i]) < 1e-15 for i in range(3)),
          f"ellipsoid inertia {list(a.inertia)} vs {want}")
    r = model.run()
    egg = r.body("egg")
    drift = max(abs(egg["x"][-1]), abs(egg["y"][-1]), abs(egg["z"][-1] - axes[2]))
    check(r.summary["status"] == "ok" and len(r.events) == 0 and drift < 1e-12,
          f"ellipsoid at rest: status {r.summary['status']}, {len(r.events)} events, "
          f"drift {drift:.3g} m")


def test_superellipsoid():
    """nsed.Superellipsoid from the builder is the file's {type:
    superellipsoid, semi_axes, exponent}, byte for byte; with p = 2 its
    inertia is the ellipsoid's; resting on its face's flat centre with
    differential tracking it stays, and summary.json says the tracking."""
    axes = [0.3, 0.2, 0.1]
    m = nsed.ModelBuilder("a rounded box at rest")
    m.body(name="block", mass=2.0, shape=nsed.Superellipsoid(axes, 4), position=[0, 0, axes[2]])
    m.contact(name="block_floor", body="block", mu=0.5, tracking="differential")
    m.options(t_end=1.0, output_dt=0.1)
    model = m.build()
    loaded = nsed.from_dict({"bodies": [{"name": "block", "mass": 2.0,
                                         "shape": {"type": "superellipsoid", "semi_axes": axes,
                                                   "exponent": 4},
                                         "position": [0, 0, axes[2]]}],
                             "contacts": [{"name": "block_floor", "body": "block", "mu": 0.5,
                                           "tracking": "differential"}]})
    a, b = lib.nsed_model_body_def(model._m, 0), lib.nsed_model_body_def(loaded._m, 0)
    check(ffi.buffer(a)[:] == ffi.buffer(b)[:], "superellipsoid: built and dict bodies differ")
    e = nsed.ModelBuilder("p = 2")
    e.body(name="egg", mass=2.0, shape=nsed.Superellipsoid(axes, 2), position=[0, 0, axes[2]])
    egg_model = e.build()
    egg = lib.nsed_model_body_def(egg_model._m, 0)
    want = [0.4 * (axes[1] ** 2 + axes[2] ** 2), 0.4 * (axes[0] ** 2 + axes[2] ** 2),
            0.4 * (axes[0] ** 2 + axes[1] ** 2)]
    check(all(abs(egg.inertia[i] - want[i]) < 1e-15 for i in range(3)),
          f"superellipsoid p = 2 inertia {list(egg.inertia)} vs {want}")
    r = model.run()
    blk = r.body("block")
    drift = max(abs(blk["x"][-1]), abs(blk["y"][-1]), abs(blk["z"][-1] - axes[2]))
    laws = r.summary["contact_laws"]
    check(r.summary["status"] == "ok" and len(r.events) == 0 and drift < 1e-12,
          f"superellipsoid at rest: status {r.summary['status']}, {len(r.events)} events, "
          f"drift {drift:.3g} m")
    check(laws[0].get("tracking") == "differential" and laws[0].get("ignored") is None,
          f"summary's contact_laws (differential tracking is used, not ignored): {laws}")


def expect_input_error(make, expect, what):
    try:
        make()
        check(False, f"{what}: accepted")
    except nsed.InputError as e:
        check(e.message == expect and e.status_name == "NSED_ERR_INPUT",
              f"{what}: {e.message!r}, expected {expect!r}")
    except Exception as e:    # noqa: BLE001 (a wrong exception type is a failure)
        check(False, f"{what}: {type(e).__name__} {e}, expected InputError")


def test_errors():
    def with_plane(**plane):
        def make():
            m = nsed.ModelBuilder()
            m.body(name="ball", shape=nsed.Sphere(0.1), position=[0, 0, 0.1])
            m.plane(**plane)
            m.contact(name="c", body="ball", other=plane.get("name", ""))
            return m.build()
        return make

    expect_input_error(with_plane(name="wall", normal=[0, 0, 0]),
                       "plane 'wall': normal must be a non-zero vector", "zero normal")
    expect_input_error(with_plane(name="belt", velocity=[0, 0, 1]),
                       "plane 'belt': velocity must be tangential (perpendicular to its normal)",
                       "normal velocity")
    try:
        with_plane(name="ball")()
        check(False, "a plane named as a body: accepted")
    except nsed.InputError as e:
        check(e.message.startswith("plane 'ball': duplicate or reserved name"),
              f"a plane named as a body: {e.message!r}")
    doc = incline_dict()
    doc["planes"][0]["normal"] = [0, 0, 0]
    expect_input_error(lambda: nsed.from_dict(doc),
                       "<dict>: planes[0].normal: expected a non-zero direction, got [0, 0, 0]",
                       "a dict's zero normal")
    # Python-side, at the call
    expect_input_error(lambda: nsed.ModelBuilder().plane(name="wall", normal=[0, 1]),
                       "plane 'wall': normal: expected 3 numbers, got [0, 1]", "normal of 2")
    expect_input_error(lambda: nsed.ModelBuilder().plane(name="wall", point="origin"),
                       "plane 'wall': point: expected 3 numbers, got 'origin'", "point a string")
    expect_input_error(lambda: nsed.ModelBuilder().contact(name="c", body="b", feature=1.5),
                       "contact 'c': feature: expected an integer, got 1.5", "feature 1.5")
    try:
        nsed.ModelBuilder().plane(name="wall", normale=[0, 0, 1])
        check(False, "plane field typo accepted")
    except TypeError as e:
        check(str(e) == "plane 'wall': unknown field 'normale' (did you mean 'normal'?); the "
              "fields are name, point, normal, velocity", f"plane field typo: {e}")

    def feature_on(shape, feature):
        def make():
            m = nsed.ModelBuilder()
            m.body(name="b", shape=shape, position=[0, 0, 1])
            m.contact(name="c", body="b", feature=feature)
            return m.build()
        return make

    def long_box_contact():
        m = nsed.ModelBuilder()
        m.body(name="b", shape=nsed.Box([0.1, 0.1, 0.1]), position=[0, 0, 1])
        m.contact(name="x" * 61, body="b")      # NAME.v0 would have 64 bytes
        return m.build()
    for make, head, what in (
            (long_box_contact, f"contact '{'x' * 61}': the name of its feature contacts",
             "a box contact's name too long for .v0"),
            (feature_on(nsed.Sphere(0.1), 2), "contact 'c': feature", "feature on a sphere"),
            (feature_on(nsed.Box([0.1, 0.1, 0.1]), 8), "contact 'c': box 'b'",
             "feature 8 on a box")):
        try:
            make()
            check(False, f"{what}: accepted")
        except nsed.InputError as e:
            check(e.message.startswith(head), f"{what}: {e.message!r}")
            print(f"{what}: {e.message}")


def test_round_trip():
    m = nsed.ModelBuilder()
    m.body(name="ball", shape=nsed.Sphere(0.1), position=[0, 0, 0.1])
    m.body(name="brick", shape=nsed.Box([0.1, 0.2, 0.3]), position=[2, 0, 0.3])
    m.plane(name="belt", point=[1, 2, -0.5], normal=[0, 0, 2], velocity=[0.25, -0.5, 0])
    m.plane(name="wall", point=[5, 0, 0], normal=[-3, 0, 4])
    m.plane(name="flat")
    m.contact(name="ball_belt", body="ball", other="belt")
    m.contact(name="corner", body="brick", other="wall", feature=3)
    check(m.names("plane") == ["belt", "wall", "flat"], f"names('plane') {m.names('plane')}")
    check(repr(m) == "<nsed.ModelBuilder '<built>': 2 bodies, 3 planes, 0 joints, 0 forces, "
          "2 contacts>", f"repr {m!r}")
    model = m.build()
    check(model.planes == ("belt", "wall", "flat") and lib.nsed_model_nplane(model._m) == 3
          and model.contacts == ("ball_belt", "corner"),
          f"Model.planes {model.planes}, contacts {model.contacts}")
    got = [lib.nsed_model_plane_def(model._m, i) for i in range(3)]
    want = [(b"belt", [1, 2, -0.5], [0, 0, 1], [0.25, -0.5, 0]),
            (b"wall", [5, 0, 0], [-0.6, 0, 0.8], [0, 0, 0]),
            (b"flat", [0, 0, 0], [0, 0, 1], [0, 0, 0])]     # nsed_plane_def_default
    for p, (name, point, normal, velocity) in zip(got, want):
        ok = (ffi.string(p.name) == name and list(p.point) == point
              and np.max(np.abs(np.array(list(p.normal)) - normal)) < 1e-15
              and list(p.velocity) == velocity)
        check(ok, f"plane {name}: point {list(p.point)}, normal {list(p.normal)}, "
              f"velocity {list(p.velocity)}")
    c0, c1 = (lib.nsed_model_contact_def(model._m, i) for i in range(2))
    check(ffi.string(c0.other) == b"belt" and c0.feature == -1
          and ffi.string(c1.other) == b"wall" and c1.feature == 3,
          f"contacts: other {ffi.string(c0.other)} feature {c0.feature}, "
          f"other {ffi.string(c1.other)} feature {c1.feature}")
    # the calls in any order: the contact on the box before the box and its plane
    m = nsed.ModelBuilder()
    m.contact(name="c", body="brick", other="floor2", mu=0.4)
    m.body(name="brick", shape=nsed.Box([0.1, 0.2, 0.3]), position=[0, 0, 0.3])
    m.plane(name="floor2", normal=[0, 0, 1])
    late = m.build()
    cd = [lib.nsed_model_contact_def(late._m, i) for i in range(8)]
    check(late.contacts == tuple(f"c.v{v}" for v in range(8)) and m.names("contact") == ["c"]
          and [d.feature for d in cd] == list(range(8))
          and all(d.mu == 0.4 and d.mu0 == 0.4 and ffi.string(d.other) == b"floor2" for d in cd),
          f"box contact given first: {late.contacts}")
    # a capsule: its two end caps, or the one given by feature; the dict's the same
    m = nsed.ModelBuilder()
    m.body(name="pill", shape=nsed.Capsule(0.05, 0.2), position=[0, 0, 0.15])   # on end cap 0
    m.body(name="pill2", shape=nsed.Capsule(0.05, 0.2), position=[1, 0, 0.15])
    m.contact(name="c", body="pill", mu=0.4)
    m.contact(name="d", body="pill2", mu=0.4, feature=1)
    caps = m.build()
    cd = [lib.nsed_model_contact_def(caps._m, i) for i in range(3)]
    check(caps.contacts == ("c.end0", "c.end1", "d") and [d.feature for d in cd] == [0, 1, 1]
          and lib.nsed_model_body_def(caps._m, 0).shape.type == 7,
          f"capsule contacts {caps.contacts}, features {[d.feature for d in cd]}")
    shape = {"type": "capsule", "radius": 0.05, "length": 0.2}
    doc = {"bodies": [{"name": "pill", "mass": 1, "shape": shape, "position": [0, 0, 0.15]},
                      {"name": "pill2", "mass": 1, "shape": shape, "position": [1, 0, 0.15]}],
           "contacts": [{"name": "c", "body": "pill", "mu": 0.4},
                        {"name": "d", "body": "pill2", "mu": 0.4, "feature": 1}]}
    loaded = nsed.from_dict(doc)
    same = (loaded.contacts == caps.contacts
            and all(ffi.buffer(lib.nsed_model_contact_def(caps._m, i))[:]
                    == ffi.buffer(lib.nsed_model_contact_def(loaded._m, i))[:] for i in range(3))
            and all(ffi.buffer(lib.nsed_model_body_def(caps._m, i))[:]
                    == ffi.buffer(lib.nsed_model_body_def(loaded._m, i))[:] for i in range(2)))
    check(same, f"capsules: built and dict differ ({loaded.contacts})")
    # a capsule against a capsule: one contact (the segments' nearest points), no features
    m = nsed.ModelBuilder()
    m.body(name="rod", shape=nsed.Capsule(0.05, 1.0), position=[0, 0, 0.5])
    m.body(name="bar", shape=nsed.Capsule(0.08, 1.2), position=[0, 0, 0],
           quat=[0.7071067811865476, -0.7071067811865476, 0, 0])
    m.contact(name="cross", body="rod", other="bar")
    cross = m.build()
    doc = {"bodies": [{"name": "rod", "mass": 1, "shape": {"type": "capsule", "radius": 0.05, "length": 1.0},
                       "position": [0, 0, 0.5]},
                      {"name": "bar", "mass": 1, "shape": {"type": "capsule", "radius": 0.08, "length": 1.2},
                       "orientation": {"axis": [1, 0, 0], "angle_deg": -90}}],
           "contacts": [{"name": "cross", "body": "rod", "with": "bar"}]}
    loaded = nsed.from_dict(doc)
    check(cross.contacts == ("cross",) and loaded.contacts == ("cross",)
          and lib.nsed_model_contact_def(cross._m, 0).feature == -1,
          f"capsule against capsule: built {cross.contacts}, loaded {loaded.contacts}")
    # the loader's reading of the same planes
    doc = {"planes": [{"name": "belt", "point": [1, 2, -0.5], "normal": [0, 0, 2],
                       "velocity": [0.25, -0.5, 0]},
                      {"name": "wall", "point": [5, 0, 0], "normal": [-3, 0, 4]}],
           "bodies": [{"name": "ball", "mass": 1, "shape": {"type": "sphere", "radius": 0.1},
                       "position": [0, 0, 0.1]}],
           "contacts": [{"name": "ball_belt", "body": "ball", "with": "belt"}]}
    loaded = nsed.from_dict(doc)
    for i in range(2):
        a, b = lib.nsed_model_plane_def(model._m, i), lib.nsed_model_plane_def(loaded._m, i)
        check(ffi.buffer(a)[:] == ffi.buffer(b)[:], f"plane {i}: built and dict differ")


def main():
    for test in (test_incline, test_cylinder, test_ellipsoid, test_superellipsoid, test_errors,
                 test_round_trip):
        test()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
