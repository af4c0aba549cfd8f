#!/usr/bin/python3
"""bench/work_precision.py, run as a user would: the block on a belt (events
in closed form, tests/engine/test_block_on_belt.c) at three tolerances in
two variants. Its event time errors against the reference must fall with
the tolerance and stay within 100 rtol of the run's 20 s; its printed table,
its CSV and its kept result directories (with their step logs) must agree;
a CVODE variant runs without the step log its integrator refuses; bad
usage exits 2, a reference that fails exits 1 naming it.

    test_work_precision.py SOURCE_ROOT BUILD_DIR
"""
import csv
import os
import subprocess
import sys
import tempfile

ROOT, BUILD = sys.argv[1], sys.argv[2]
SCRIPT = os.path.join(ROOT, "bench", "work_precision.py")
BELT = os.path.join(ROOT, "problems", "block_on_belt.yaml")
failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)


def wp(*args):
    return subprocess.run([sys.executable, SCRIPT, BELT, "--build", BUILD] + list(args),
                          capture_output=True, text=True)


with tempfile.TemporaryDirectory(prefix="nsed-wp-test-") as tmp:
    out_csv, keep = os.path.join(tmp, "wp.csv"), os.path.join(tmp, "runs")
    p = wp("--rtol", "1e-8", "1e-10", "1e-12", "--variant", "default",
           "--variant", "pi", "solver.step_controller=pi", "--csv", out_csv, "--keep", keep)
    print(p.stdout)
    check(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    rows = list(csv.DictReader(open(out_csv))) if os.path.exists(out_csv) else []
    check(len(rows) == 6, f"{len(rows)} CSV rows")
    table = [line for line in p.stdout.splitlines() if line.startswith("| default") or line.startswith("| pi")]
    check(len(table) == 6, f"{len(table)} table rows")
    for variant in ("default", "pi"):
        mine = [r for r in rows if r["variant"] == variant]
        worst = [float(r["worst_event_dt"]) for r in mine]
        rtols = [float(r["rtol"]) for r in mine]
        check(all(r["status"] == "ok" and r["sequence"] == "same" and int(r["events"]) == 12
                  for r in mine), f"{variant}: rows {mine}")
        check(all(b < a for a, b in zip(worst, worst[1:])), f"{variant}: errors {worst} do not fall")
        check(all(w < 100 * 20 * rt for w, rt in zip(worst, rtols)), f"{variant}: errors {worst}")
        check(all(int(r["steps"]) > 0 and int(r["rhs_evaluations"]) > int(r["steps"]) and
                  r["limited_by"].startswith("block.") for r in mine), f"{variant}: costs {mine}")
    for name in ("reference", "default.rtol1e-08", "pi.rtol1e-12"):
        check(os.path.exists(os.path.join(keep, name, "steps.csv")), f"--keep: {name}/steps.csv")
    # a CVODE variant runs without the step log its integrator refuses
    p = wp("--rtol", "1e-10", "--variant", "adams", "solver.integrator=cvode_adams", "--csv", out_csv)
    rows = list(csv.DictReader(open(out_csv))) if os.path.exists(out_csv) else []
    check(p.returncode == 0 and len(rows) == 1 and rows[0]["status"] == "ok" and rows[0]["sequence"] == "same"
          and rows[0]["limited_by"] == "", f"a CVODE variant: {p.returncode} {rows} {p.stderr}")
    p = wp("--set", "solver.rtol")
    check(p.returncode == 2 and "expected KEY=VALUE" in p.stderr, f"bad override: {p.returncode} {p.stderr}")
    p = wp("--rtol", "1e-10", "--set", "solver.max_events=1")
    check(p.returncode == 1 and "reference run did not end ok" in p.stderr,
          f"failing reference: {p.returncode} {p.stderr}")

print(f"{'FAILED' if failures else 'passed'}: {failures} failure(s)")
sys.exit(1 if failures else 0)
