#!/usr/bin/python3
"""Random starts (bench/random_starts.py), sampled: its rules on hand-made
summaries (a run that says "ok" with a law check beyond its tolerance is
counted apart and fails the script; a failure is classed by the check that
stopped it), its draws (the same seed, the same starts; a body's vertical
velocity kept), then a few starts of a box, a sphere and Kosenko's vehicle
through the script: no run may end "ok" with its law broken, every failed
run's message names its contact, and a failed run repeated by `nsed run`
with the overrides the CSV gives ends the same way at the same instant.
With --tighter: its comparison of two runs' files (events the same or not,
the largest event-time and final-state differences) on hand-made files,
and a sphere's slide-to-roll from three starts at rtol / 100: converged
(events within 1e-11 s, final states within 1e-9).

    test_random_starts.py SOURCE_ROOT BUILD_DIR
"""
import csv
import importlib.util
import json
import os
import random
import subprocess
import sys
import tempfile

failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)


def load_script(root):
    spec = importlib.util.spec_from_file_location("random_starts", os.path.join(root, "bench", "random_starts.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def rules(rs):
    ok_broken = {"status": "ok", "law_monitor": {"normal_force": {"count": 3, "worst": -2e-9, "tolerance": 1e-9},
                                                 "stick_friction": {"count": 3, "worst": 0.5, "tolerance": 1e-9}}}
    check(rs.law_broken(ok_broken) == ["normal_force"], "an ok run with a pulling normal force is counted apart")
    clean = {"status": "ok", "law_monitor": {"normal_force": {"count": 3, "worst": -5e-10, "tolerance": 1e-9}}}
    check(rs.law_broken(clean) == [], "a margin within its tolerance is no breach")
    spin = {"status": "ok", "law_monitor": {"spin_friction": {"count": 1, "worst": -3e-9, "tolerance": 1e-9}}}
    check(rs.law_broken(spin) == ["spin_friction"], "every check the monitor reports is read, the spin's too")
    check(rs.failure_class({"message": "t = 1: contact 'a' (slip) violates its law: the slip reversed "
                                       "(check slip_direction: margin -3.14, tolerance 2e-06)"}) == "slip_direction",
          "a law violation is classed by its check")
    check(rs.failure_class({"message": "t = 1: contact 'a' was closed by the contact problem but its normal "
                                       "force is -0.1 N < 0 in the smooth phase (inconsistent mode)"})
          == "inconsistent mode", "an inconsistent mode is named")
    check(rs.failure_class({"message": "t = 3.19: contact 'a' (stick): its friction root fired 50 times within "
                                       "0.001 s and no event in between changed a mode (the phase returns to the same boundary at once"}) == "stall", "a stall is named")
    # Passivity: positive contact work on a floor that does not move is energy created.
    check(rs.static_surfaces({"floor": {"normal": [0, 0, 1]}, "planes": [{"name": "w", "normal": [1, 0, 0]}]}),
          "a floor and a plane at rest are static")
    check(not rs.static_surfaces({"floor": {"velocity": [0.2, 0, 0]}}), "a belt is not static")
    check(not rs.static_surfaces({"floor": {"spin": 2.0}}), "a turntable is not static")
    check(not rs.static_surfaces({"planes": [{"name": "b", "velocity": [0, 0.1, 0]}]}), "a moving plane is not static")
    check(rs.energy_gained({"work_contacts": 1.003, "energy_initial": 8.51}, True) == 1.003,
          "the creeping car's +1.0 J (the settling on dependent rows before its mend) is energy gained")
    check(rs.energy_gained({"work_contacts": 5e-9, "energy_initial": 8.51}, True) == 0.0,
          "contact work within 1e-9 of 1 + E0 is the balance's accuracy, not a gain")
    check(rs.energy_gained({"work_contacts": 0.06, "energy_initial": 1.5}, False) == 0.0,
          "a belt feeds energy through its contacts: no passivity check there")
    check(rs.energy_gained({"work_contacts": -0.5, "energy_initial": 8.51}, True) == 0.0, "dissipation is no gain")
    # At a loose rtol the bound is 100 rtol of 1 + E(0): a creeping stick's work
    check(rs.energy_gained({"work_contacts": 2.8e-5, "energy_initial": 1.8}, True, 1e-6) == 0.0,
          "a loose tolerance's creep is no gain")
    check(rs.energy_gained({"work_contacts": 2.9e-4, "energy_initial": 0.0}, True, 1e-6) == 2.9e-4,
          "beyond 100 rtol it is")
    doc = {"solver": {"rtol": 1e-10}}
    check(rs.tolerances(doc) == (1e-10, 1e-13), "a run's tolerances: the file's, nsed's default atol")
    check(rs.tolerances(doc, ["solver.rtol=1e-6", "solver.atol=1e-8", "x=1"]) == (1e-6, 1e-8),
          "a run's tolerances: --set's over the file's")
    check(rs.crash_class(-6) == "crash (SIGABRT)" and rs.crash_class(-11) == "crash (SIGSEGV)",
          "a run ended by a signal is a crash, named by its signal")
    check(rs.crash_class(2) == "exit status 2", "a run nsed refused is its exit status")
    doc = {"bodies": [{"name": "b", "velocity": [1, 0, -2], "angular_velocity": [0, 0, 3]}]}
    a = rs.draw_start(doc, random.Random(7))
    b = rs.draw_start(doc, random.Random(7))
    check(a == b, "the same seed draws the same start")
    v = eval(a[0].split("=", 1)[1])
    reach = 5 ** 0.5 + 0.5  # its speed plus 0.5 m/s
    check(v[2] == -2 and abs(v[0] - 1) <= reach and abs(v[1]) <= reach and v != [1, 0, -2],
          f"a body's horizontal velocity drawn around its own, its vertical kept: {v}")
    # A superellipsoid on a flat coordinate plane of its axes keeps to that
    # plane: turned across it at t = 0 its contact point's rate is unbounded.
    block = {"name": "block", "shape": {"type": "superellipsoid", "semi_axes": [0.2, 0.15, 0.1], "exponent": 4},
             "orientation": {"axis": [1, 0, 0], "angle_rad": 0.3}}
    for seed in range(5):
        sets = rs.draw_start({"bodies": [block]}, random.Random(seed))
        v, w = (eval(x.split("=", 1)[1]) for x in sets)
        check(v[0] == 0 and w[1] == 0 and w[2] == 0 and w[0] != 0 and v[1] != 0,
              f"the rocking block's start stays in its y-z plane, exactly: v {v}, w {w}")
    box = dict(block, orientation={"axis": [1, 1, 0], "angle_deg": 20})
    v, w = (eval(x.split("=", 1)[1]) for x in rs.draw_start({"bodies": [box]}, random.Random(1)))
    check(all(x != 0 for x in w) and v[0] != 0 and v[1] != 0, f"off every flat plane, drawn freely: {v} {w}")
    egg = dict(block, shape={"type": "superellipsoid", "semi_axes": [0.2, 0.15, 0.1], "exponent": 2})
    v, w = (eval(x.split("=", 1)[1]) for x in rs.draw_start({"bodies": [egg]}, random.Random(1)))
    check(all(x != 0 for x in w), f"an ellipsoid (exponent 2) has no flat direction: {w}")
    check(rs.perturbable({"bodies": [{"name": "b"}], "joints": [{"name": "j"}]}) is None,
          "bodies held by joints are not drawn")
    check(rs.perturbable({"omni_vehicle": {}}) == "vehicle", "a vehicle's start is its platform's")


def write_run(d, events, last):
    os.makedirs(d)
    with open(os.path.join(d, "events.csv"), "w") as f:
        f.write("t,kind,contact,from,to,lcp_size\n" + "".join(e + "\n" for e in events))
    with open(os.path.join(d, "trajectory.csv"), "w") as f:
        f.write("t,b.x,b.y\n0,0,0\n" + last + "\n")


def comparison(rs):
    with tempfile.TemporaryDirectory() as tmp:
        a, b, c = (os.path.join(tmp, k) for k in "abc")
        write_run(a, ["0.5,stick,c,slip,stick,3"], "1,2.0,-4.0")
        write_run(b, ["0.5000001,stick,c,slip,stick,3"], "1,2.0,-4.5")
        write_run(c, ["0.5,open,c,slip,open,3"], "1,2.0,-4.0")
        same, dt, dx = rs.compare_runs(a, b)
        check(same and abs(dt - 1e-7) < 1e-15 and abs(dx - 0.5 / 5.5) < 1e-15,
              f"the same events 1e-7 s apart, states 0.5 / (1 + 4.5) apart: {same} {dt} {dx}")
        same, dt, dx = rs.compare_runs(a, c)
        check(not same and dt is None and dx == 0, f"another event: no time difference formed: {same} {dt} {dx}")


def converged(root, build):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "runs.csv")
        proc = subprocess.run([sys.executable, os.path.join(root, "bench", "random_starts.py"), "--build", build,
                               "--problems", "sphere_slide_roll", "--runs", "3", "--seed", "4", "--tighter", "100",
                               "--csv", out], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        print(proc.stdout)
        check(proc.returncode == 0, f"the tighter runs: exit {proc.returncode}: {proc.stderr}")
        with open(out, newline="") as f:
            rows = list(csv.DictReader(f))
        check(len(rows) == 3, f"three starts ({len(rows)})")
        for r in rows:
            check(r["status"] == "ok" and r["tight_status"] == "ok" and r["tight_events"] == "same",
                  f"a sphere's slide to rolling ends the same at rtol / 100: {r}")
            check(r["tight_event_dt"] != "" and float(r["tight_event_dt"]) < 1e-11 and
                  float(r["tight_state_diff"]) < 1e-9,
                  f"and converged: events {r['tight_event_dt']} s, state {r['tight_state_diff']} apart")


def sample(root, build):
    nsed = os.path.join(build, "src", "cli", "nsed")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "runs.csv")
        proc = subprocess.run([sys.executable, os.path.join(root, "bench", "random_starts.py"), "--build", build,
                               "--problems", "box_tipping", "sphere_slide_roll", "omni_vehicle_coast",
                               "--runs", "3", "--seed", "2", "--t-end", "1", "--timeout", "120", "--csv", out],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        print(proc.stdout)
        check(proc.returncode == 0, f"no run ends ok with its law broken, none gains energy (exit {proc.returncode}: {proc.stderr})")
        with open(out, newline="") as f:
            rows = list(csv.DictReader(f))
        check(len(rows) == 9, f"every run in the CSV ({len(rows)})")
        statuses = [r["status"] for r in rows]
        check(all(s in ("ok", "failed") for s in statuses), f"every run ends ok or failed: {statuses}")
        failed = [r for r in rows if r["status"] == "failed"]
        for r in failed:
            check("contact '" in r["message"] and r["failure"], f"a failure names its contact: {r['message'][:120]}")
        check(sum(s == "ok" for s in statuses) >= 6, f"most of the sample completes: {statuses}")
        for r in failed[:1]:
            d = os.path.join(tmp, "again")
            cmd = [nsed, "run", os.path.join(root, "problems", r["problem"] + ".yaml"), "-o", d, "--quiet",
                   "--set", "solver.t_end=1"]
            for s in r["overrides"].split("--set ")[1:]:
                cmd += ["--set", s.strip().strip("'")]
            subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
            with open(os.path.join(d, "summary.json")) as f:
                s = json.load(f)
            check(s["status"] == "failed" and repr(s["t_reached"]) == repr(float(r["t_reached"])),
                  f"the CSV's overrides repeat the run: {s['status']} at {s['t_reached']} against {r['t_reached']}")


def main():
    root, build = sys.argv[1], sys.argv[2]
    rs = load_script(root)
    rules(rs)
    comparison(rs)
    sample(root, build)
    converged(root, build)
    print("failures:", failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
