#!/usr/bin/python3
"""Light test of the friction benchmark suite (bench/friction/run.py).

Usage: /usr/bin/python3 tests/plot/test_friction_bench.py [SOURCE_ROOT [NSED]]
Runs `run.py --quick` on the sphere only, with three models (exact cone,
polygon n* = 1 face, regularised delta = 1e-4), in a temp dir, and checks the
table, the closed-form stick times, the 45-degree artefact and the plot; then
the tippe top with the exact cone and regularised delta = 1e-2 (it rolls
upright under the one, turns over under the other); then the omni vehicle
coasting 2 units under the exact cone, the 32-sided face polygon and
regularised delta = 1e-2, against the tight exact-cone reference.
"""

import csv
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import traceback

SOURCE_ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                              os.path.join(os.path.dirname(__file__), "..", ".."))
NSED = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else \
    os.path.join(SOURCE_ROOT, "build", "src", "cli", "nsed")
SCRIPT = os.path.join(SOURCE_ROOT, "bench", "friction", "run.py")
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(SOURCE_ROOT, "python"))
from nsed.results import read_result  # noqa: E402
MODELS = ("exact_cone", "poly_face_n1", "reg_1e-4")
T_STAR = 2 * 2.0 / (7 * 0.3 * 9.81)     # sphere_slide_roll.yaml header
OUT = tempfile.mkdtemp(prefix="friction_bench_test_")
TIPPE_MODELS = ("exact_cone", "reg_1e-2")
VEHICLE_MODELS = ("exact_cone", "poly_face_n8", "reg_1e-2")
SPIN_MODELS = ("exact_cone", "poly_vertex_n1", "reg_1e-4")
SPIN_STOP = 0.4 * 0.1 ** 2 * 5.0 / (0.01 * 9.81)  # ball_spin_slide.yaml header


def run_suite():
    for problem, models in (("sphere", MODELS), ("tippe", TIPPE_MODELS),
                            ("vehicle", VEHICLE_MODELS), ("spin", SPIN_MODELS)):
        cmd = ["/usr/bin/python3", SCRIPT, "--nsed", NSED, "--out", os.path.join(OUT, problem),
               "--quick", "--problems", problem, "--models", ",".join(models),
               # a run's cap: the vehicle's tight reference takes 3 s here and
               # over a minute under the sanitizers
               "--timeout", "900"]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1500)
        assert proc.returncode == 0, f"run.py failed:\n{proc.stdout}\n{proc.stderr}"


def rows(problem="sphere"):
    with open(os.path.join(OUT, problem, "friction_bench.csv"), newline="") as f:
        return {r["model"]: r for r in csv.DictReader(f)}


def test_tippe_top_turns_over_only_under_vanishing_friction():
    r = rows("tippe")
    assert sorted(r) == sorted(TIPPE_MODELS), sorted(r)
    exact, reg = r["exact_cone"], r["reg_1e-2"]
    assert exact["status"] == "ok" and reg["status"] == "ok", (exact, reg)
    # Exact Coulomb: the slip stops at once (a stick event), it rolls upright.
    assert 0.03 < float(exact["glide_end"]) < 0.05, exact["glide_end"]
    assert float(exact["theta_end"]) < 0.1 and float(exact["theta_end_err"]) < 1e-9, exact
    # Friction vanishing with the slip: it never stops gliding and turns over.
    assert reg["glide_end"] == "" and float(reg["theta_end"]) > 2.5, reg


def test_vehicle_models_ordered_by_their_law():
    r = rows("vehicle")
    assert sorted(r) == sorted(VEHICLE_MODELS), sorted(r)
    assert all(x["status"] == "ok" and float(x["t_reached"]) == 2 for x in r.values()), r
    path = {m: float(r[m]["traj_max_diff"]) for m in VEHICLE_MODELS}
    # The exact cone at the problem's tolerance is the reference to the
    # integration's accuracy; the polygon decides the onsets' directions
    # only (its slips are on the circle); the regularised law slips where
    # the others stick, and drifts from the path by orders of magnitude more.
    assert path["exact_cone"] < 1e-9, path
    assert path["exact_cone"] < path["poly_face_n8"] < 1e-6, path
    assert 1e-4 < path["reg_1e-2"] < 1e-2, path
    for m in VEHICLE_MODELS:
        assert float(r[m]["path_end_err"]) <= path[m] * (1 + 1e-12), (m, r[m])
    assert float(r["exact_cone"]["energy_end_err"]) < 1e-9, r["exact_cone"]
    assert float(r["reg_1e-2"]["energy_end_err"]) > 1e-4, r["reg_1e-2"]
    assert float(r["reg_1e-2"]["yaw_end_err"]) > float(r["exact_cone"]["yaw_end_err"]), r


def test_torsional_friction_spin_stop():
    r = rows("spin")
    assert sorted(r) == sorted(SPIN_MODELS), sorted(r)
    # The exact cone has no torsional row: refused as input, not run.
    assert r["exact_cone"]["status"] == "refused", r["exact_cone"]
    exact, reg = r["poly_vertex_n1"], r["reg_1e-4"]
    assert exact["status"] == "ok" and reg["status"] == "ok", (exact, reg)
    # The set-valued moment stops the spin at the closed-form time (an
    # event); the regularised one within its exponential tail (~1e-7 s).
    assert abs(float(exact["t_spin"]) - SPIN_STOP) < 1e-5, exact   # printed to 6 digits
    assert float(exact["t_spin_err"]) < 1e-9 and int(exact["events"]) == 2, exact
    assert 1e-9 < float(reg["t_spin_err"]) < 1e-6 and int(reg["events"]) == 0, reg


def test_csv_has_rows():
    r = rows()
    assert sorted(r) == sorted(MODELS), sorted(r)
    assert all(x["problem"] == "sphere" and x["status"] == "ok" for x in r.values())


def test_event_driven_stick_times():
    # Exact cone and polygon n* = 1: sliding uses the circle, so t* is exact.
    for m in ("exact_cone", "poly_face_n1"):
        err = float(rows()[m]["t_stick_err"])
        assert err < 1e-8, (m, err)


def test_regularised_never_sticks():
    r = rows()["reg_1e-4"]
    kinds = list(read_result(os.path.join(OUT, "sphere", "runs", "sphere", "reg_1e-4")).events["kind"])
    assert "stick" not in kinds, kinds
    assert float(r["t_stick_err"]) > 1e-6     # creeps to rest after t*


def test_sphere45_slides_on_its_law():
    with open(os.path.join(OUT, "sphere", "sphere45.json")) as f:
        s = json.load(f)
    # The face form and the cone slide on the circle; the vertex form on its
    # inscribed square, whose radius along the diagonal is 1/sqrt(2).
    for k in ("nsed_poly_face_n1", "nsed_exact_cone"):
        assert abs(s[k]["t_stick"] - s["t_star"]) < 1e-8, (k, s[k], s["t_star"])
    k = "nsed_poly_vertex_n1"
    assert abs(s[k]["t_stick"] - math.sqrt(2) * s["t_star"]) < 1e-8, (k, s[k], s["t_star"])
    # The box / pyramid during sliding: t*/sqrt(2) and sqrt(2) t*.
    assert abs(s["python_box"]["ratio"] - 1 / math.sqrt(2)) < 1e-4, s["python_box"]
    assert abs(s["python_pyramid"]["ratio"] - math.sqrt(2)) < 1e-4, s["python_pyramid"]


def test_png_nonblank():
    from matplotlib import image as mpimg
    for problem, name in (("sphere", "friction_sphere.png"), ("sphere", "friction_sphere45.png"),
                          ("vehicle", "friction_vehicle_path.png")):
        path = os.path.join(OUT, problem, name)
        assert os.path.getsize(path) > 10_000, path
        img = mpimg.imread(path)
        assert img[..., :3].std() > 0.02, f"{path} looks blank"


def main():
    passed = failed = 0
    try:
        run_suite()
    except Exception:
        traceback.print_exc()
        print("0 passed, 1 failed")
        return 1
    for name, fn in sorted(globals().items()):
        if name.startswith("test_") and callable(fn):
            try:
                fn()
                passed += 1
                print(f"ok   {name}")
            except Exception:
                failed += 1
                print(f"FAIL {name}")
                traceback.print_exc()
    print(f"{passed} passed, {failed} failed")
    if not failed:
        shutil.rmtree(OUT, ignore_errors=True)   # keep it for inspection on failure
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
