#!/usr/bin/python3
"""Joint drives from Python (nsed.Feedback, nsed.Table, ModelBuilder.joint's
drive=, axial_drive=, servo_level=; a problem dict's torque/force drives;
Result.joint_coordinates) against closed forms computed here, as
tests/engine/test_joint_drives.c does in C.

Usage: test_joint_drives.py SOURCE_ROOT LIBNSED_SO [B_SANITIZE]

- a PD controller with feedforward on a revolute joint about z (rotor of
  mass 2, inertia [0.03, 0.03, 0.04]; k = 4, c = 0.3, reference
  0.8 sin 3t, feedforward 0.2, from rest): J q'' + c q' + k q = ff +
  k A sin(wt) + c A w cos(wt), q(0) = q'(0) = 0, solved in closed form;
  the angle from the joint coordinates and from the quaternion, and the
  rate, to 1e-9 rad (1e-8 rad/s);
- the same system as a problem dict (torque: {type: feedback, ...}) gives
  the built model's angles to 1e-12 and the closed form to 1e-9;
- a prismatic joint along x with force {type: table, of: rate, at:
  [-0.5, 0.5], values: [1, -1]} (mass 2, v0 = 2): v = 2 - t/2 until
  v = 0.5 at t = 3, then 0.5 exp(-(t - 3)), to 1e-8, built (nsed.Table) and
  from a dict; the acceleration-level servo's fields reach the C struct;
- refusals: a drive on a spherical joint (the library's message names the
  joint), and the Python-side mistakes name the joint and the field.
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

check = Checks()

MASS, INERTIA = 2.0, [0.03, 0.03, 0.04]
J = INERTIA[2]
K, C, A, W, FF = 4.0, 0.3, 0.8, 3.0, 0.2
TOL = {"rtol": 1e-12, "atol": 1e-14}


def damped(t, wn, z, e0, e1):
    """e'' + 2 z wn e' + wn^2 e = 0, e(0) = e0, e'(0) = e1 (z < 1): (e, e')."""
    wd, s = wn * math.sqrt(1 - z * z), z * wn
    B = (e1 + s * e0) / wd
    x, cw, sw = np.exp(-s * t), np.cos(wd * t), np.sin(wd * t)
    return x * (e0 * cw + B * sw), x * (-s * (e0 * cw + B * sw) + wd * (-e0 * sw + B * cw))


def pd_track(t, k=K, c=C):
    """J q'' + c q' + k q = FF + k A sin(W t) + c A W cos(W t), q(0) = q'(0)
    = 0: the particular solution FF/k + Im(H e^{iWt}) plus the homogeneous
    one matching the initial conditions. (q, q')."""
    H = A * (k + 1j * c * W) / (k - J * W * W + 1j * c * W)
    qp0, qp1 = FF / k + H.imag, (1j * W * H).imag
    h, hr = damped(t, math.sqrt(k / J), c / (2 * math.sqrt(k * J)), -qp0, -qp1)
    ph = H * np.exp(1j * W * t)
    return FF / k + ph.imag + h, (1j * W * ph).imag + hr


def quat_angle(r, body):
    """The body's rotation about z from its quaternion, unwrapped."""
    return np.unwrap(2 * np.arctan2(r.trajectory[f"{body}.q3"], r.trajectory[f"{body}.q0"]))


def pd_builder():
    m = nsed.ModelBuilder("pd")
    m.body(name="rotor", mass=MASS, inertia=INERTIA)
    m.joint(name="motor", type="revolute", body_b="rotor",
            drive=nsed.Feedback(k=K, c=C, reference=nsed.Sine(amplitude=A, omega=W),
                                feedforward=FF))
    m.options(t_end=10, output_dt=0.01, **TOL)
    return m


PD_DICT = {
    "name": "pd",
    "bodies": [{"name": "rotor", "mass": MASS, "inertia": INERTIA}],
    "joints": [{"name": "motor", "type": "revolute", "body_b": "rotor",
                "torque": {"type": "feedback", "k": K, "c": C,
                           "reference": {"type": "sine", "amplitude": A, "omega": W},
                           "feedforward": FF}}],
    "solver": dict(TOL, t_end=10),
    "output": {"dt": 0.01},
}


def test_pd():
    r = pd_builder().build().run(joints=True)
    jc = r.joint_coordinates("motor")
    t = jc["t"]
    q, qd = pd_track(t)
    e_q = np.max(np.abs(jc["angle"] - q))
    e_quat = np.max(np.abs(quat_angle(r, "rotor") - q))
    e_qd = np.max(np.abs(jc["rate"] - qd))
    e_wz = np.max(np.abs(r.trajectory["rotor.wz"] - qd))
    check(len(t) == len(r.trajectory) and len(t) >= 1001 and t[-1] == 10.0
          and np.array_equal(t, r.trajectory["t"]), f"joint rows: {len(t)}, last t {t[-1]}")
    check(e_q < 1e-9 and e_quat < 1e-9, f"PD built: angle {e_q:.3g}, quaternion {e_quat:.3g} rad")
    check(e_qd < 1e-8 and e_wz < 1e-8, f"PD built: rate {e_qd:.3g}, wz {e_wz:.3g} rad/s")
    check(np.max(np.abs(jc["axial"])) < 1e-12 and np.max(np.abs(jc["axial_rate"])) < 1e-12,
          "a revolute joint's axial coordinate stays 0")
    # by index too, and the same array
    check(np.array_equal(r.joint_coordinates(0)["angle"], jc["angle"])
          and r.joint_names == ("motor",), f"joint_coordinates(0), joint_names {r.joint_names}")
    # the closed form is not trivially satisfied: other gains miss it by far
    q_off, _ = pd_track(t, k=K * 1.001)
    check(np.max(np.abs(jc["angle"] - q_off)) > 1e-6, "a 0.1 % stiffer closed form is rejected")
    print(f"PD built: max |angle - closed form| {e_q:.3g} rad (quaternion {e_quat:.3g}), "
          f"rate {e_qd:.3g} rad/s (wz {e_wz:.3g}); q(10) = {jc['angle'][-1]!r}")

    d = nsed.from_dict(PD_DICT).run(joints=True)
    jd = d.joint_coordinates("motor")
    same = np.max(np.abs(jd["angle"] - jc["angle"]))
    e_dq = np.max(np.abs(jd["angle"] - q))
    e_dquat = np.max(np.abs(quat_angle(d, "rotor") - q))
    check(len(jd["t"]) == len(t) and same <= 1e-12,
          f"PD dict vs built: max |angle difference| {same:.3g} rad")
    check(e_dq < 1e-9 and e_dquat < 1e-9, f"PD dict: angle {e_dq:.3g}, quaternion {e_dquat:.3g}")
    print(f"PD dict: max |angle - built| {same:.3g} rad, |angle - closed form| {e_dq:.3g} rad "
          f"(quaternion {e_dquat:.3g})")
    # the drive is a torque of the library: work_external = kinetic energy at the end
    _, qd_end = pd_track(np.array([10.0]))
    T = 0.5 * J * qd_end[0] ** 2
    work = r.summary["work_external"] + r.summary["work_joints"]
    check(abs(work - T) < 1e-8, f"PD: work {work!r} vs kinetic energy {T!r}")


V0, RC, RF = 2.0, 2.0, 1.0     # f = table(v) = -RC v, |f| <= RF


def table_rate(t):
    """m v' = table(v): constant deceleration RF/m until v = RF/RC, then
    v' = -(RC/m) v."""
    vs, acc, r = RF / RC, RF / MASS, RC / MASS
    t1 = (V0 - vs) / acc
    return np.where(t <= t1, V0 - acc * t, vs * np.exp(-r * (t - t1)))


def check_table(r, what):
    t, vx = r.trajectory["t"], r.trajectory["slider.vx"]
    v = table_rate(t)
    e_v = np.max(np.abs(vx - v))
    jc = r.joint_coordinates("rail")
    e_rate = np.max(np.abs(jc["axial_rate"] - v))
    s = r.trajectory["slider.x"]
    e_s = np.max(np.abs(jc["axial"] - s))
    check(e_v < 1e-8 and e_rate < 1e-8, f"table of the rate, {what}: v {e_v:.3g}, "
          f"axial rate {e_rate:.3g} m/s")
    check(e_s < 1e-12, f"table of the rate, {what}: axial coordinate vs x {e_s:.3g} m")
    check(abs(table_rate(np.array([3.0]))[0] - 0.5) < 1e-15 and t[-1] == 10.0,
          "the kink is at t = 3")
    print(f"table of the rate, {what}: max |v - closed form| {e_v:.3g} m/s (joint rate "
          f"{e_rate:.3g}); v(10) = {vx[-1]!r} vs {0.5 * math.exp(-7)!r}")
    return vx


def test_table():
    m = nsed.ModelBuilder("table")
    m.body(name="slider", mass=MASS, inertia=INERTIA, velocity=[V0, 0, 0])
    m.joint(name="rail", type="prismatic", body_b="slider", axis_a=[1, 0, 0], axis_b=[1, 0, 0],
            axial_drive=nsed.Table(of="rate", at=[-0.5, 0.5], values=[1, -1]))
    m.options(t_end=10, output_dt=0.01, **TOL)
    model = m.build()
    jd = lib.nsed_model_joint_def(model._m, 0)
    check(jd.axial_drive.type == lib.NSED_DRIVE_TABLE
          and jd.axial_drive.input == lib.NSED_DRIVE_OF_RATE
          and jd.axial_drive.table.type == lib.NSED_LAW_PIECEWISE
          and jd.axial_drive.table.npoints == 2
          and list(jd.axial_drive.table.times)[:2] == [-0.5, 0.5]
          and list(jd.axial_drive.table.values)[:2] == [1, -1]
          and jd.drive.type == lib.NSED_DRIVE_NONE, "Table reaches nsed_joint_def.axial_drive")
    built = check_table(model.run(joints=True), "built")
    doc = {"bodies": [{"name": "slider", "mass": MASS, "inertia": INERTIA,
                       "velocity": [V0, 0, 0]}],
           "joints": [{"name": "rail", "type": "prismatic", "body_b": "slider",
                       "axis_a": [1, 0, 0], "axis_b": [1, 0, 0],
                       "force": {"type": "table", "of": "rate", "at": [-0.5, 0.5],
                                 "values": [1, -1]}}],
           "solver": dict(TOL, t_end=10), "output": {"dt": 0.01}}
    from_dict = check_table(nsed.from_dict(doc).run(joints=True), "dict")
    check(np.max(np.abs(built - from_dict)) <= 1e-12, "table: built and dict agree")
    # the same drive given as a dict with a file's keys
    m2 = nsed.ModelBuilder("table")
    m2.body(name="slider", mass=MASS, inertia=INERTIA, velocity=[V0, 0, 0])
    m2.joint(name="rail", type="prismatic", body_b="slider", axis_a=[1, 0, 0], axis_b=[1, 0, 0],
             axial_drive=doc["joints"][0]["force"])
    m2.options(t_end=10, output_dt=0.01, **TOL)
    check(m2.build().run().trajectory.tobytes() == model.run().trajectory.tobytes(),
          "a drive dict builds the same model as nsed.Table")


def test_servo_fields():
    m = nsed.ModelBuilder("servo")
    m.body(name="rotor", mass=MASS, inertia=INERTIA)
    m.joint(name="s", type="servo", body_b="rotor", servo_angle=nsed.Sine(0.5, 2.0, phase=0.6),
            servo_level="acceleration", servo_kp=25, servo_kd=6)
    model = m.build()
    jd = lib.nsed_model_joint_def(model._m, 0)
    check(jd.servo_level == lib.NSED_SERVO_ACCELERATION and jd.servo_kp == 25
          and jd.servo_kd == 6, "servo_level, servo_kp, servo_kd reach nsed_joint_def")
    m = nsed.ModelBuilder()
    m.body(name="rotor", mass=MASS, inertia=INERTIA)
    m.joint(name="j", body_b="rotor")
    model = m.build()   # kept alive: the definition lives in its C model
    jd = lib.nsed_model_joint_def(model._m, 0)
    check(jd.servo_level == lib.NSED_SERVO_POSITION and jd.drive.type == lib.NSED_DRIVE_NONE
          and jd.axial_drive.type == lib.NSED_DRIVE_NONE, "defaults: no drives, position servo")


def expect_error(make, kind, expect, what):
    try:
        make()
        check(False, f"{what}: accepted")
    except kind as e:
        msg = str(e)
        check(all(x in msg for x in expect), f"{what}: {type(e).__name__} {msg!r}, "
              f"expected {expect!r}")
        print(f"{what}: {msg}")
    except Exception as e:    # noqa: BLE001 (a wrong exception type is a failure)
        check(False, f"{what}: {type(e).__name__} {e}, expected {kind.__name__}")


def joint(**fields):
    m = nsed.ModelBuilder()
    m.body(name="rotor", mass=MASS, inertia=INERTIA)
    return m.joint(name="bad", body_b="rotor", **fields)


def test_errors():
    fb = nsed.Feedback(k=1)
    # the library's refusals, from build()
    expect_error(lambda: joint(type="spherical", drive=fb).build(), nsed.InputError,
                 ("joint 'bad'", "revolute or cylindrical", "spherical"), "drive on a spherical joint")
    expect_error(lambda: joint(type="revolute", axial_drive=fb).build(), nsed.InputError,
                 ("joint 'bad'", "cylindrical or prismatic"), "axial drive on a revolute joint")
    expect_error(lambda: joint(drive=nsed.Feedback(k=-1)).build(), nsed.InputError,
                 ("joint 'bad'", "drive", "non-negative"), "negative gain")
    expect_error(lambda: joint(servo_level="acceleration").build(), nsed.InputError,
                 ("joint 'bad'", "servo joint"), "acceleration level on a revolute joint")
    # Python-side mistakes, at the call: the joint and the field named
    expect_error(lambda: joint(drive=nsed.Feedback(k="stiff")), nsed.InputError,
                 ("joint 'bad': drive.k: expected a number, got 'stiff'",), "gain a string")
    expect_error(lambda: joint(drive=nsed.Table("angle", [0, 1], [1, 0])), nsed.InputError,
                 ("joint 'bad': drive.of: expected one of coordinate, rate, got 'angle'",),
                 "table input")
    expect_error(lambda: joint(drive=nsed.Table("rate", [1, 0], [1, 0])), nsed.InputError,
                 ("joint 'bad': drive.at: must increase strictly",), "table not increasing")
    expect_error(lambda: joint(drive=nsed.Table("rate", [0, 1, 2], [1, 0])), nsed.InputError,
                 ("joint 'bad': drive: 3 points in at but 2 values",), "table lengths")
    expect_error(lambda: joint(drive=nsed.Table("rate", [0], [1])), nsed.InputError,
                 ("joint 'bad': drive.at: expected 2 to 64 points, got 1",), "one point")
    expect_error(lambda: joint(drive={"type": "feedback", "kp": 1}), nsed.InputError,
                 ("joint 'bad': drive: unknown key 'kp' (did you mean 'k'?)",), "drive dict key")
    expect_error(lambda: joint(drive={"type": "feedback", "of": "rate"}), nsed.InputError,
                 ("joint 'bad': drive.of: not a field of a 'feedback' drive",), "mixed fields")
    expect_error(lambda: joint(drive={"k": 1}), nsed.InputError,
                 ("joint 'bad': drive.type: a drive needs a type",), "drive dict without type")
    expect_error(lambda: joint(drive=3.0), nsed.InputError,
                 ("joint 'bad': drive: expected a drive",), "a number as a drive")
    expect_error(lambda: joint(torque=fb), nsed.InputError,
                 ("joint 'bad': torque: expected a time law, got a drive", "drive="),
                 "a drive as the torque law")
    expect_error(lambda: joint(drive=nsed.Feedback(reference=nsed.Sine("big", 1))),
                 nsed.InputError, ("joint 'bad': drive.reference.amplitude: expected a number",),
                 "reference law")
    expect_error(lambda: joint(servo_level="velocity"), nsed.InputError,
                 ("joint 'bad': servo_level: expected one of position, acceleration",),
                 "servo level")
    expect_error(lambda: joint(axial_drve=fb), TypeError,
                 ("joint 'bad': unknown field 'axial_drve' (did you mean 'axial_drive'?)",),
                 "field typo")
    # joint coordinates are an in-memory, opt-in record
    model = pd_builder().build()
    expect_error(lambda: model.run().joint_coordinates("motor"), ValueError,
                 ("joints=True",), "no joint coordinates recorded")
    expect_error(lambda: model.run(outdir="/nonexistent", joints=True), ValueError,
                 ("in-memory",), "joints with outdir")


def main():
    for test in (test_pd, test_table, test_servo_fields, test_errors):
        test()
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
