#!/usr/bin/python3
"""Models without a file: nsed.ModelBuilder over libnsed's C API.

Usage: test_builder.py SOURCE_ROOT LIBNSED_SO NSED_EXE [B_SANITIZE]

- the sphere of problems/sphere_slide_roll.yaml built by calls runs bit for
  bit as the file (trajectory, contacts, events; summary but for problem,
  problem_sha256 and wall times); it sticks at t* = 2 v0 / (7 mu g) and
  rolls at 5/7 v0 (closed forms, to 1e-9), also for v0 = 3, mu = 0.15;
- the disk on a shaft (two joints, a spring, a sine torque, 32 friction
  sides, Baumgarte settings, orientations by quat_from_axis_angle) built by
  calls runs bit for bit as problems/disk_on_shaft_case2.yaml for 4 s;
- laws and forces against closed forms: a free body pushed by a sine force
  has v(t) = A (1 - cos w t) / (m w), a sphere turned by a piecewise torque
  2t has wz(1) = 1 / J;
- a built model runs to a directory: the CSV files are those `nsed run`
  writes for the problem file, byte for byte, summary.json says problem
  null and problem_sha256 null, and reading it back gives the in-memory
  arrays;
- defaults are the C library's: a minimal built model has the options, body
  and contact definitions of the same minimal problem file (every field);
  mu without mu0 sets mu0 = mu as in a file;
- the library's refusals (bad mass, unknown body, bad options, bodies
  starting interpenetrating) raise InputError with its message; Python-side
  mistakes (vector lengths, unknown words and fields, names) name the item
  and the field.
Exit 77 (skipped) for a sanitizer build.
"""

import json
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # also for harness: nothing written into the sources
from harness import Checks, binding_args  # noqa: E402

ROOT, LIB, EXE = binding_args(3)[:3]

import numpy as np  # noqa: E402

import nsed  # noqa: E402
from nsed._core import lib  # noqa: E402
from nsed._ffi import ffi  # noqa: E402

WALL = ("wall_seconds", "monitor_seconds")
G = 9.81
check = Checks()


def problem(name):
    return os.path.join(ROOT, "problems", name)


def same_run(a, b, what, skip=("problem", "problem_sha256", "overrides") + WALL):
    check(a.trajectory.dtype == b.trajectory.dtype and len(a.trajectory) > 10
          and a.trajectory.tobytes() == b.trajectory.tobytes(),
          f"{what}: trajectory bit for bit ({len(a.trajectory)} vs {len(b.trajectory)} rows)")
    for table in ("contacts", "events"):
        x, y = getattr(a, table), getattr(b, table)
        ok = x.dtype.names == y.dtype.names and len(x) == len(y) and all(
            (x[c].tobytes() == y[c].tobytes()) if x[c].dtype.kind in "fi" else list(x[c]) == list(y[c])
            for c in x.dtype.names)
        check(ok, f"{what}: {table} identical")
    diff = [k for k in set(a.summary) | set(b.summary)
            if k not in skip and a.summary.get(k) != b.summary.get(k)]
    check(not diff, f"{what}: summaries differ in {diff}")


def sphere(v0=2.0, mu=0.3, t_end=1):
    m = nsed.ModelBuilder("sphere")
    m.body(name="ball", mass=1, shape=nsed.Sphere(0.1), position=[0, 0, 0.1], velocity=[v0, 0, 0])
    m.contact(name="ball_floor", body="ball", mu=mu)
    m.options(t_end=t_end, output_dt=0.01)
    return m


def test_sphere(tmp):
    built = sphere().build()
    check(isinstance(built, nsed.Model) and built.bodies == ("ball",)
          and built.contacts == ("ball_floor",) and built.path is None and built.text is None,
          f"built model {built}")
    r = built.run()
    f = nsed.run(problem("sphere_slide_roll.yaml"))
    same_run(r, f, "built sphere vs the file")
    check(r.summary["problem"] is None and r.summary["problem_sha256"] is None,
          f"built summary problem {r.summary['problem']!r} {r.summary['problem_sha256']!r}")
    # slide to roll, closed forms: t* = 2 v0 / (7 mu g), then v = 5/7 v0, w = v / r
    for v0, mu in ((2.0, 0.3), (3.0, 0.15)):
        run = sphere(v0, mu).build().run() if (v0, mu) != (2.0, 0.3) else r
        tstar = 2 * v0 / (7 * mu * G)
        stick = run.events[run.events["kind"] == "stick"]["t"]
        ball = run.body("ball")
        check(len(stick) == 1 and abs(stick[0] - tstar) < 1e-9,
              f"v0 {v0}, mu {mu}: stick at {stick} vs t* = {tstar!r}")
        after = ball["t"] > tstar + 1e-6
        check(np.max(np.abs(ball["vx"][after] - 5 / 7 * v0)) < 1e-9
              and np.max(np.abs(ball["wy"][after] - 5 / 7 * v0 / 0.1)) < 1e-9,
              f"v0 {v0}, mu {mu}: rolls at 5/7 v0")
        print(f"built sphere v0 = {v0}, mu = {mu}: stick at {stick[0]!r} s, closed form "
              f"{tstar!r} s, |diff| {abs(stick[0] - tstar):.3g} s; final vx "
              f"{ball['vx'][-1]!r} vs 5/7 v0 = {5 / 7 * v0!r}")
    # the step log: the built model's option reaches the run, which takes the
    # file's steps (the same run, so the same steps bit for bit)
    m = sphere()
    m.options(output_steps=True)
    st = m.build().run().steps
    f = nsed.run(problem("sphere_slide_roll.yaml"), overrides={"output.steps": True}).steps
    check(st is not None and r.steps is None and len(st) == r.summary["steps"]
          and st.tobytes() == f.tobytes(), f"built steps {None if st is None else len(st)}")
    # a builder builds again, and each model runs alike
    b = sphere()
    check(b.build().run().trajectory.tobytes() == b.build().run().trajectory.tobytes(),
          "two builds run alike")


def test_disk(tmp):
    q = nsed.quat_from_axis_angle([0, 1, 0], angle_deg=90)
    m = nsed.ModelBuilder("disk on shaft")
    # calls in any order: the bodies are added first at build()
    m.contact(name="disk_floor", body="disk", mu=0.18, mu0=0.33)
    m.body(name="shaft", mass=1.2, shape=nsed.Cylinder(0.025, 2.2), quat=q, position=[1.1, 0, 0.4])
    m.body(name="disk", mass=0.9, shape=nsed.Disk(0.4), quat=q, position=[1.5, 0, 0.4], rotor="z")
    m.joint(name="cardan", type="universal", body_b="shaft", anchor_a=[0, 0, 0.4],
            axis_a=[0, 0, 1], anchor_b=[0, 0, -1.1], axis_b=[0, 1, 0])
    m.joint(name="tube", type="cylindrical", body_a="shaft", anchor_a=[0, 0, -1.1],
            axis_a=[0, 0, 1], body_b="disk", axis_b=[0, 0, 1], spring_k=230, spring_c=0,
            rest_length=1.51)
    m.force(name="drive", type="torque", body="shaft", direction=[0, 0, 1],
            magnitude=nsed.Sine(amplitude=25, omega=1))
    m.options(friction={"model": "polygon_face", "sides": 32}, t_end=4)
    m.options(baumgarte_eta=25, baumgarte_xi=50, baumgarte_gamma=25)
    model = m.build()
    check(model.joints == ("cardan", "tube") and model.forces == ("drive",)
          and model.friction_sides == 32, f"built disk model {model}")
    a = model.run()
    b = nsed.run(problem("disk_on_shaft_case2.yaml"), {"solver.t_end": 4})
    same_run(a, b, "built disk on shaft vs the file, 4 s")
    print(f"built disk on shaft, 4 s: {len(a.trajectory)} rows, {len(a.events)} events, "
          "bit for bit as the file")


def test_laws(tmp):
    # A free body (no gravity, no contact) pushed along x by A sin(w t):
    # v(t) = A (1 - cos w t) / (m w).
    A, w, mass = 3.0, 2.0, 1.5
    m = nsed.ModelBuilder()
    m.body(name="b", mass=mass, shape=nsed.Box([0.1, 0.2, 0.3]))
    m.force(name="push", type="force", body="b", direction=[1, 0, 0],
            magnitude=nsed.Sine(amplitude=A, omega=w))
    m.options(gravity=[0, 0, 0], t_end=2, output_dt=0.1)
    r = m.build().run()
    t, vx = r.trajectory["t"], r.trajectory["b.vx"]
    err = np.max(np.abs(vx - A * (1 - np.cos(w * t)) / (mass * w)))
    check(len(t) >= 21 and err < 1e-9, f"sine force: max |vx - closed form| {err:.3g}")
    # A sphere turned about z by a piecewise torque 2t on [0, 1]: wz(1) = 1 / J,
    # J = 2/5 m r^2; constant 2 after: wz(2) = 1/J + 2/J.
    m = nsed.ModelBuilder()
    m.body(name="s", mass=2, shape=nsed.Sphere(0.5), position=[0, 0, 3])
    m.force(name="twist", type="torque", body="s", direction=[0, 0, 1],
            magnitude=nsed.Piecewise([0, 1], [0, 2]))
    m.options(gravity=[0, 0, 0], t_end=2, output_dt=0.5)
    r = m.build().run()
    J = 0.4 * 2 * 0.5 ** 2
    wz = dict(zip(r.trajectory["t"], r.trajectory["s.wz"]))
    check(abs(wz[1.0] - 1 / J) < 1e-9 and abs(wz[2.0] - 3 / J) < 1e-9,
          f"piecewise torque: wz(1) {wz.get(1.0)!r} vs {1 / J!r}, wz(2) {wz.get(2.0)!r} vs {3 / J!r}")
    print(f"laws: sine force max error {err:.3g} m/s; piecewise torque wz(1) = {wz[1.0]!r} "
          f"(1/J = {1 / J!r})")


def test_outdir(tmp):
    model = sphere().build()
    out = os.path.join(tmp, "built")
    r = model.run(outdir=out)
    mem = model.run()
    check(r.outdir == out and r.trajectory.tobytes() == mem.trajectory.tobytes()
          and np.array_equal(r.events["t"], mem.events["t"]), "outdir run reads back the in-memory arrays")
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    check(summary["problem"] is None and summary["problem_sha256"] is None
          and summary["status"] == "ok" and summary["body_names"] == ["ball"],
          f"built summary.json: problem {summary['problem']!r}, sha {summary['problem_sha256']!r}")
    cli = os.path.join(tmp, "cli")
    p = subprocess.run([EXE, "run", problem("sphere_slide_roll.yaml"), "-o", cli, "--quiet"],
                       capture_output=True, text=True)
    check(p.returncode == 0, f"nsed run: {p.stderr}")
    for name in ("trajectory.csv", "contacts.csv", "events.csv"):
        with open(os.path.join(out, name), "rb") as a, open(os.path.join(cli, name), "rb") as b:
            check(a.read() == b.read(), f"built model's {name} is nsed run's for the file")


def fields(struct, ctype):
    """Every field of a C struct as Python values (arrays as lists)."""
    out = {}
    for name, _ in ffi.typeof(ctype).fields:
        v = getattr(struct, name)
        t = ffi.typeof(v) if isinstance(v, ffi.CData) else None
        if t is not None and t.kind == "array":
            out[name] = ffi.string(v) if t.item.cname == "char" else list(v)
        elif t is not None and t.kind == "struct":
            out[name] = fields(v, t.cname)
        else:
            out[name] = v
    return out


def test_defaults(tmp):
    m = nsed.ModelBuilder()
    m.body(name="ball", shape=nsed.Sphere(0.1), position=[0, 0, 0.1])
    m.contact(name="c", body="ball")
    built = m.build()
    path = os.path.join(tmp, "minimal.yaml")
    with open(path, "w") as f:
        f.write("bodies:\n  - {name: ball, mass: 1, shape: {type: sphere, radius: 0.1}, "
                "position: [0, 0, 0.1]}\ncontacts:\n  - {name: c, body: ball}\n")
    loaded = nsed.load(path)
    for what, get, ctype in (
            ("options", lambda m: lib.nsed_model_options(m._m)[0], "nsed_options"),
            ("body", lambda m: lib.nsed_model_body_def(m._m, 0)[0], "nsed_body_def"),
            ("contact", lambda m: lib.nsed_model_contact_def(m._m, 0)[0], "nsed_contact_def")):
        a, b = fields(get(built), ctype), fields(get(loaded), ctype)
        diff = [k for k in a if a[k] != b[k]]
        check(not diff, f"default {what}: built and file differ in {diff}")
    o = fields(lib.nsed_model_options(built._m)[0], "nsed_options")
    c = lib.nsed_model_contact_def(built._m, 0)
    body = lib.nsed_model_body_def(built._m, 0)
    check(o["t_end"] == 1 and o["rtol"] == 1e-11 and o["output_dt"] == 0.01
          and o["gravity"] == [0, 0, -9.81] and o["friction"]["sides"] == 8
          and c.mu == 0.3 and c.mu0 == 0.3 and body.mass == 1 and list(body.quat) == [1, 0, 0, 0]
          and abs(body.inertia[0] - 0.4 * 0.01) < 1e-18,
          f"C defaults: t_end {o['t_end']}, mu {c.mu}, mass {body.mass}, inertia {list(body.inertia)}")
    m = nsed.ModelBuilder()
    m.body(name="ball", shape=nsed.Sphere(0.1), position=[0, 0, 0.1])
    m.contact(name="c", body="ball", mu=0.7)
    model = m.build()   # kept alive: the definition lives in its C model
    c = lib.nsed_model_contact_def(model._m, 0)
    check(c.mu == 0.7 and c.mu0 == 0.7, f"mu without mu0: mu0 {c.mu0}")


def expect_error(make, kind, expect, what):
    try:
        make()
        check(False, f"{what}: accepted")
    except kind as e:
        msg = str(e)
        check(msg == expect if kind is nsed.InputError else expect in msg,
              f"{what}: {type(e).__name__} {msg!r}, expected {expect!r}")
        if kind is nsed.InputError:
            check(e.status == -1 and e.status_name == "NSED_ERR_INPUT", f"{what}: status {e.status}")
    except Exception as e:    # noqa: BLE001 (a wrong exception type is a failure)
        check(False, f"{what}: {type(e).__name__} {e}, expected {kind.__name__}")


def test_errors(tmp):
    def build(edit):
        def make():
            m = sphere()
            edit(m)
            return m.build()
        return make

    # the library's messages (nsed_model_add_*, nsed_model_finalize, the initial state)
    def bad_mass():
        m = nsed.ModelBuilder()
        m.body(name="ball", mass=-1, shape=nsed.Sphere(0.1))
        return m.build()
    expect_error(bad_mass, nsed.InputError,
                 "body 'ball': mass must be a positive number, got -1", "mass -1")
    expect_error(build(lambda m: m.contact(name="c2", body="bal")), nsed.InputError,
                 "contact 'c2': body 'bal' is not a body of this model", "unknown body in a contact")
    expect_error(build(lambda m: m.joint(name="j", body_b="wheel")), nsed.InputError,
                 "joint 'j': body_b 'wheel' is not a body of this model", "unknown body in a joint")
    expect_error(build(lambda m: m.body(name="ball")), nsed.InputError,
                 "body 'ball': duplicate or reserved name", "duplicate body")
    expect_error(build(lambda m: m.options(t_end=-1)), nsed.InputError,
                 "solver.t_end must be a positive number, got -1", "t_end -1")
    expect_error(build(lambda m: m.options(output_steps=True, integrator="cvode_bdf")), nsed.InputError,
                 "output_steps: the step log needs an ARKODE integrator, not cvode_bdf",
                 "a step log under CVODE")
    expect_error(build(lambda m: m.options(friction={"sides": 6})), nsed.InputError,
                 "friction.sides must be a multiple of 4 (4n*), >= 4; got 6", "6 sides")
    expect_error(build(lambda m: m.contact(name="c3", body="ball", mu=0.5, mu0=0.2)),
                 nsed.InputError,
                 "contact 'c3': static friction mu0 (0.2) must be >= kinetic friction mu (0.5)",
                 "mu0 < mu")

    def sunk():
        m = nsed.ModelBuilder()
        m.body(name="ball", shape=nsed.Sphere(0.1), position=[0, 0, 0.05])
        m.contact(name="c", body="ball")
        return m.build()
    try:
        sunk()
        check(False, "interpenetrating start accepted")
    except nsed.InputError as e:
        check("contact 'c' starts interpenetrating" in e.message, f"initial state: {e.message}")

    # Python-side mistakes, at the call
    expect_error(lambda: nsed.ModelBuilder().body(name="ball", position=[0, 0]), nsed.InputError,
                 "body 'ball': position: expected 3 numbers, got [0, 0]", "position of 2")
    expect_error(lambda: nsed.ModelBuilder().body(name="ball", mass="heavy"), nsed.InputError,
                 "body 'ball': mass: expected a number, got 'heavy'", "mass a string")
    expect_error(lambda: nsed.ModelBuilder().body(name="ball", shape=nsed.Shape("sphear", 0.1)),
                 nsed.InputError, "body 'ball': shape.type: expected one of none, sphere, disk, "
                 "cylinder, box, point, roller, capsule, ellipsoid, superellipsoid, got 'sphear' "
                 "(did you mean 'sphere'?)",
                 "shape typo")
    expect_error(lambda: nsed.ModelBuilder().body(name="ball", veloctiy=[1, 0, 0]), TypeError,
                 "body 'ball': unknown field 'veloctiy' (did you mean 'velocity'?)", "field typo")
    expect_error(lambda: nsed.ModelBuilder().options(tend=3), TypeError,
                 "options: unknown field 'tend' (did you mean 't_end'?)", "options typo")
    expect_error(lambda: nsed.ModelBuilder().joint(name="j", type="hinge"), nsed.InputError,
                 "joint 'j': type: expected one of spherical, revolute, cylindrical, prismatic, "
                 "universal, weld, servo, align, got 'hinge'", "joint type")
    expect_error(lambda: nsed.ModelBuilder().body(name="a,b"), nsed.InputError,
                 "body 'a,b': name: names may not contain commas, quotes or control characters "
                 "(they become CSV column headers), got 'a,b'", "comma in a name")
    expect_error(lambda: nsed.ModelBuilder().body(name="x" * 64), nsed.InputError,
                 f"body {'x' * 64!r}: name: names are at most 63 bytes; this one has 64", "long name")
    expect_error(lambda: nsed.ModelBuilder().force(name="f", magnitude=nsed.Piecewise([0, 1], [1])),
                 nsed.InputError, "force 'f': magnitude: 2 times but 1 values", "piecewise lengths")


FLYWHEEL = """bodies:
  - {name: frame, mass: 2, inertia: [0.02, 0.02, 0.03], position: [0, 0, 1]}
  - {name: flywheel, mass: 1, shape: {type: disk, radius: 0.2}, rotor: z,
     position: [0, 0, 1], angular_velocity: [0, 0, 300]}
joints:
  - {name: hold, type: spherical, body_b: frame, anchor_a: [0, 0, 1]}
  - {name: axle, type: revolute, body_a: frame, body_b: flywheel}
"""


def flywheel(rotor):
    m = nsed.ModelBuilder("flywheel")
    m.body(name="frame", mass=2, inertia=[0.02, 0.02, 0.03], position=[0, 0, 1])
    m.body(name="flywheel", mass=1, shape=nsed.Disk(0.2), rotor=rotor, position=[0, 0, 1],
           angular_velocity=[0, 0, 300])
    m.joint(name="hold", type="spherical", body_b="frame", anchor_a=[0, 0, 1])
    m.joint(name="axle", type="revolute", body_a="frame", body_b="flywheel")
    return m


def test_rotor(tmp):
    """The flywheel of docs/problem-format.md as a rotor: built and loaded
    alike; the same material motion as the body-frame flywheel."""
    path = os.path.join(tmp, "flywheel.yaml")
    with open(path, "w") as f:
        f.write(FLYWHEEL)
    built = flywheel("z").build()
    check(lib.nsed_model_body_def(built._m, 1).rotor == lib.NSED_ROTOR_Z, "rotor z built")
    r, f = built.run(), nsed.run(path)
    same_run(r, f, "built rotor flywheel vs the file")
    b = flywheel("none").build().run()
    fw_r, fw_b = r.body("flywheel"), b.body("flywheel")
    n = min(len(fw_r), len(fw_b))
    dq = max(np.max(np.abs(fw_r[f"q{k}"][:n] - fw_b[f"q{k}"][:n])) for k in range(4))
    dw = np.max(np.abs(fw_r["wz"][:n] - fw_b["wz"][:n]))
    check(np.all(fw_r["t"][:n] == fw_b["t"][:n]) and dq < 1e-9 and dw < 1e-9,
          f"rotor vs body frame: quaternion {dq:.3g}, spin {dw:.3g}")
    check(r.summary["steps"] * 100 < b.summary["steps"],
          f"steps: rotor {r.summary['steps']}, body frame {b.summary['steps']}")
    print(f"flywheel at 300 rad/s: rotor {r.summary['steps']} steps, body frame "
          f"{b.summary['steps']}; material quaternions agree to {dq:.2g}")
    expect_error(lambda: nsed.ModelBuilder().body(name="w", rotor="w"), nsed.InputError,
                 "body 'w': rotor: expected one of none, x, y, z, got 'w'", "rotor axis typo")

    def lopsided():
        m = nsed.ModelBuilder()
        m.body(name="lump", inertia=[0.2, 0.3, 0.4], rotor="x")
        return m.build()
    expect_error(lopsided, nsed.InputError,
                 "body 'lump': a rotor about body x needs equal moments about body y and z (a "
                 "body symmetric about its axis), got 0.3 and 0.4", "rotor on an asymmetric body")


ATTACHED = """bodies:
  - {name: frame, mass: 2, inertia: [0.02, 0.02, 0.03], position: [0, 0, 1]}
  - {name: flywheel, mass: 1, shape: {type: disk, radius: 0.2}, rotor: z,
     attached_to: frame, position: [0, 0, 1], angular_velocity: [0, 0, 300]}
joints:
  - {name: hold, type: spherical, body_b: frame, anchor_a: [0, 0, 1]}
"""


def test_attached(tmp):
    """The attached flywheel of docs/problem-format.md: built and loaded
    alike, two states for the flywheel (its turn and rate) instead of 14,
    and the same material motion as the rotor on its revolute axle."""
    path = os.path.join(tmp, "attached.yaml")
    with open(path, "w") as f:
        f.write(ATTACHED)
    m = nsed.ModelBuilder("attached flywheel")
    m.body(name="frame", mass=2, inertia=[0.02, 0.02, 0.03], position=[0, 0, 1],
           angular_velocity=[0.3, -0.2, 0.1])
    m.body(name="flywheel", mass=1, shape=nsed.Disk(0.2), rotor="z", attached_to="frame",
           position=[0, 0, 1], angular_velocity=[0.3, -0.2, 300])
    m.joint(name="hold", type="spherical", body_b="frame", anchor_a=[0, 0, 1])
    built = m.build()
    check(lib.nsed_model_nstate(built._m) == 13 + 2, "13 states for the frame, 2 for the flywheel")
    a = built.run()
    r = nsed.ModelBuilder("flywheel on its axle")
    r.body(name="frame", mass=2, inertia=[0.02, 0.02, 0.03], position=[0, 0, 1],
           angular_velocity=[0.3, -0.2, 0.1])
    r.body(name="flywheel", mass=1, shape=nsed.Disk(0.2), rotor="z", position=[0, 0, 1],
           angular_velocity=[0.3, -0.2, 300])
    r.joint(name="hold", type="spherical", body_b="frame", anchor_a=[0, 0, 1])
    r.joint(name="axle", type="revolute", body_a="frame", body_b="flywheel")
    j = r.build().run()
    fa, fj = a.body("flywheel"), j.body("flywheel")
    n = min(len(fa), len(fj))
    dq = max(np.max(np.abs(fa[f"q{k}"][:n] - fj[f"q{k}"][:n])) for k in range(4))
    dw = max(np.max(np.abs(fa[f"w{c}"][:n] - fj[f"w{c}"][:n])) for c in "xyz")
    check(np.all(fa["t"][:n] == fj["t"][:n]) and dq < 1e-9 and dw < 1e-9,
          f"attached vs on its axle: quaternion {dq:.3g}, angular velocity {dw:.3g}")
    print(f"tumbling attached flywheel: {a.summary['steps']} steps, on its axle "
          f"{j.summary['steps']}; material quaternions agree to {dq:.2g}")
    f = nsed.run(path)
    check(f.summary["status"] == "ok" and f.summary["states"] == 15, "the docs' attached flywheel runs")

    def unbalanced():
        b = nsed.ModelBuilder()
        b.body(name="frame", inertia=[0.2, 0.2, 0.3])
        b.body(name="w", mass=0.1, shape=nsed.Disk(0.1), rotor="z", attached_to="frame",
               position=[0.5, 0, 0])
        return b.build()
    expect_error(unbalanced, nsed.InputError,
                 "body 'frame': its attached rotors' centres are not balanced about its centre "
                 "(mass moment (0.05, 0, 0) in its axes, against 0.05): the solve keeps a "
                 "parent's centre of mass at its own", "an off-centre attached rotor")


def main():
    for test in (test_sphere, test_disk, test_laws, test_outdir, test_defaults, test_errors,
                 test_rotor, test_attached):
        with tempfile.TemporaryDirectory(prefix="nsed-builder-") as tmp:
            test(tmp)
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
