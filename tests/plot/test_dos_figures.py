#!/usr/bin/python3
"""Tests for python/disk_on_shaft_figures.py (paper Figs. 10-22 of the disk on a shaft).

Usage: /usr/bin/python3 tests/plot/test_dos_figures.py [SOURCE_ROOT [NSED]]
SOURCE_ROOT defaults to two levels above this file.  Synthetic result
directories (written in the exact format of `nsed run -o`) are always
tested; with NSED (the nsed executable, as meson passes it) case 1 and case 3
without stabilisation are also run for 3 s and plotted.
"""

import csv
import json
import math
import os
import subprocess
import sys
import tempfile
import traceback

SOURCE_ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                              os.path.join(os.path.dirname(__file__), "..", ".."))
NSED = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
SCRIPT = os.path.join(SOURCE_ROOT, "python", "disk_on_shaft_figures.py")
sys.path.insert(0, os.path.dirname(SCRIPT))
sys.dont_write_bytecode = True   # keep python/__pycache__ out of the source tree

import numpy as np                      # noqa: E402
from matplotlib import image as mpimg  # noqa: E402
import disk_on_shaft_figures as dos    # noqa: E402

FIGURES = ("c1_trajectory", "L_OC1", "slip_speed", "friction", "phase", "drift")
BODY_FIELDS = ("x", "y", "z", "q0", "q1", "q2", "q3",
               "vx", "vy", "vz", "wx", "wy", "wz")
CONTACT_HEADER = ["t", "contact", "mode", "gap", "lambda_n",
                  "lambda_t1", "lambda_t2", "slip_speed"]
EVENT_HEADER = ["t", "kind", "contact", "from", "to",
                "lcp_size", "pivots", "residual", "path"]
MIN_BYTES = 10_000
MIN_PIXEL_STD = 0.02    # a white or single-colour image has std ~0


# --------------------------------------------------------------------------
# Synthetic disk on a shaft
# --------------------------------------------------------------------------

def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def pose(theta, s, z_err=0.0):
    """Shaft and disk states for shaft angle theta and L_OC1 = s.

    Body z lies along the shaft: q = qz(theta) * qy(90 deg).
    """
    a, d = math.cos(theta / 2), math.sin(theta / 2)
    e = g = math.sqrt(0.5)
    q = [a * e, -d * g, a * g, e * d]
    c, sn = math.cos(theta), math.sin(theta)
    shaft = [1.1 * c, 1.1 * sn, 0.4] + q
    disk = [s * c, s * sn, 0.4 + z_err] + q
    return shaft, disk


def synthetic_run(directory, slip=True, drift=0.0, mu0=0.33):
    """A disk whirling round the pillar: sticks, slips outwards (if slip), sticks.

    drift > 0 adds a slowly growing constraint violation (the unstabilised run).
    Returns the directory.
    """
    os.makedirs(directory, exist_ok=True)
    dt, t_end = 0.01, 6.0
    t_slip, t_stick = (2.0, 3.5) if slip else (1e9, 1e9)
    times = sorted(set([round(k * dt, 10) for k in range(int(t_end / dt) + 1)]
                       + ([t_slip, t_stick] if slip else [])))
    traj, contacts = [], []
    for t in times:
        theta = 0.5 * t * t / (1 + 0.1 * t)
        omega = (t + 0.05 * t * t) / (1 + 0.1 * t) ** 2
        if t < t_slip:
            s, sdot = 1.5, 0.0
        elif t < t_stick:
            u = (t - t_slip) / (t_stick - t_slip)
            s, sdot = 1.5 + 0.2 * u * u, 0.4 * u / (t_stick - t_slip)
        else:
            s, sdot = 1.7, 0.0
        s += drift * t * t
        shaft, disk = pose(theta, s, drift * t)
        c, sn = math.cos(theta), math.sin(theta)
        v_disk = [sdot * c - s * omega * sn, sdot * sn + s * omega * c, 0.0]
        v_shaft = [-1.1 * omega * sn, 1.1 * omega * c, 0.0]
        w = [0.0, 0.0, omega]
        traj.append([t] + shaft + v_shaft + w + disk + v_disk + w)
        sliding = t_slip <= t < t_stick
        fn = 9.81 * 1.2 + 3 * math.sin(t)
        ft = 0.18 * fn if sliding else 0.9 * mu0 * fn * abs(math.sin(1.3 * t))
        contacts.append([t, "disk_floor", "slip" if sliding else "stick", 0.0, fn,
                         -ft * 0.6, ft * 0.8, sdot if sliding else 0.0])
    write_csv(os.path.join(directory, "trajectory.csv"),
              ["t"] + [f"{b}.{f}" for b in ("shaft", "disk") for f in BODY_FIELDS], traj)
    write_csv(os.path.join(directory, "contacts.csv"), CONTACT_HEADER, contacts)
    events = []
    if slip:
        events = [[t_slip, "slip", "disk_floor", "stick", "slip", 33, 2, 1e-16, "face/nsed"],
                  [t_stick, "stick", "disk_floor", "slip", "stick", 33, 2, 1e-16, "face/nsed"]]
    write_csv(os.path.join(directory, "events.csv"), EVENT_HEADER, events)
    with open(os.path.join(directory, "summary.json"), "w") as f:
        json.dump({"problem": "synthetic disk on a shaft", "status": "ok",
                   "overrides": [f"contacts.disk_floor.mu0={mu0}"],
                   "friction_model": "polygon_face", "friction_sides": 32}, f)
    return directory


# --------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------

def check_pngs(out_dir):
    for name in FIGURES:
        path = os.path.join(out_dir, f"{name}.png")
        assert os.path.isfile(path), f"{path} missing"
        size = os.path.getsize(path)
        assert size > MIN_BYTES, f"{path}: only {size} bytes"
        img = mpimg.imread(path)
        rgb = img[..., :3] if img.ndim == 3 else img
        std = float(np.std(rgb))
        assert std > MIN_PIXEL_STD, f"{path}: looks blank (pixel std {std:.4f})"
    leftovers = [f for f in os.listdir(out_dir) if f.endswith(".tmp")]
    assert not leftovers, f"temporary files left behind: {leftovers}"


def run_script(*args):
    return subprocess.run([sys.executable, SCRIPT, *args],
                          capture_output=True, text=True)


def test_synthetic_with_nostab(tmp):
    stab = synthetic_run(os.path.join(tmp, "stab"))
    nostab = synthetic_run(os.path.join(tmp, "nostab"), drift=1e-6)
    out = os.path.join(tmp, "figs")
    proc = run_script(stab, "--out", out, "--nostab", nostab)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [os.path.join(out, f"{n}.png") for n in FIGURES], proc.stdout
    check_pngs(out)


def test_synthetic_module_default_out(tmp):
    run = synthetic_run(os.path.join(tmp, "rolling"), slip=False)
    paths = dos.make_figures(run)
    assert [os.path.basename(p) for p in paths] == [f"{n}.png" for n in FIGURES]
    check_pngs(os.path.join(run, "plots"))


def test_derived_quantities(tmp):
    run = dos.Run(synthetic_run(os.path.join(tmp, "derived")))
    # L_OC1 = 1.5 while sticking before the slip, 1.7 after it.
    before, after = run.t < 2.0, run.t > 3.5
    assert np.allclose(run.L[before], 1.5, atol=1e-12)
    assert np.allclose(run.L[after], 1.7, atol=1e-12)
    # dL/dt equals the imposed radial speed while slipping.
    mid = np.argmin(abs(run.t - 2.75))
    assert abs(run.Ldot[mid] - 0.4 * 0.5 / 1.5) < 1e-9, run.Ldot[mid]
    # The synthetic shaft satisfies both joints exactly.
    assert np.nanmax(run.joint_drift()) < 1e-12
    assert list(run.slip_onsets()) == [2.0]
    assert dos.find_mu0(run.summary, run.dir) == 0.33


def test_mu0_from_problem_file(tmp):
    problem = os.path.join(tmp, "p.yaml")
    with open(problem, "w") as f:
        f.write("contacts:\n  - {name: disk_floor, body: disk, mu: 0.1, mu0: 0.27}\n")
    assert dos.find_mu0({"problem": problem}, tmp) == 0.27
    assert dos.find_mu0({"problem": os.path.join(tmp, "absent.yaml")}, tmp) is None


def test_bad_input_exit_2(tmp):
    run = synthetic_run(os.path.join(tmp, "bad"))
    path = os.path.join(run, "trajectory.csv")
    with open(path) as f:
        lines = f.read().splitlines()
    fields = lines[3].split(",")
    fields[14] = "abc"                       # disk.x on line 4
    lines[3] = ",".join(fields)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    proc = run_script(run, "--out", os.path.join(tmp, "badfigs"))
    assert proc.returncode == 2, proc.returncode
    assert "trajectory.csv line 4" in proc.stderr and "disk.x" in proc.stderr, proc.stderr
    proc = run_script(os.path.join(tmp, "missing"))
    assert proc.returncode == 2 and "result directory not found" in proc.stderr, proc.stderr
    nodisk = os.path.join(tmp, "nodisk")
    os.makedirs(nodisk)
    write_csv(os.path.join(nodisk, "trajectory.csv"),
              ["t"] + [f"ball.{f}" for f in BODY_FIELDS], [[0] + [0] * 13])
    proc = run_script(nodisk)
    assert proc.returncode == 2 and "no body 'disk'" in proc.stderr, proc.stderr


def test_nsed_case1(tmp):
    """Case 1 (slips once near t = 2.46 s) and case 3 unstabilised, 3 s each."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    runs = {}
    for case in ("case1", "case3_nostab"):
        out = os.path.join(tmp, case)
        proc = subprocess.run([NSED, "run", os.path.join(SOURCE_ROOT, "problems",
                                                         f"disk_on_shaft_{case}.yaml"),
                               "-o", out, "--set", "solver.t_end=3", "--quiet"],
                              capture_output=True, text=True, env=env)
        assert proc.returncode == 0, f"nsed {case}: {proc.returncode} {proc.stderr}"
        runs[case] = out
    figs = os.path.join(tmp, "nsedfigs")
    proc = run_script(runs["case1"], "--out", figs, "--nostab", runs["case3_nostab"])
    assert proc.returncode == 0, proc.stderr
    check_pngs(figs)
    run = dos.Run(runs["case1"])
    assert len(run.slip_onsets()) >= 1, "case 1 should slip within 3 s"
    assert abs(run.L[0] - 1.5) < 1e-12


TESTS = [test_synthetic_with_nostab, test_synthetic_module_default_out,
         test_derived_quantities, test_mu0_from_problem_file, test_bad_input_exit_2]


def main():
    tests = list(TESTS)
    if NSED:
        tests.append(test_nsed_case1)
    passed = failed = 0
    for test in tests:
        with tempfile.TemporaryDirectory() as tmp:
            try:
                test(tmp)
            except Exception:
                failed += 1
                print(f"FAIL {test.__name__}")
                traceback.print_exc()
            else:
                passed += 1
                print(f"ok   {test.__name__}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
