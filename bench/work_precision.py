#!/usr/bin/python3
"""Work against precision for one problem: the cost of a run (steps, rejected
steps, right-hand sides, wall time) and its accuracy (event times and the
final state against a reference run at tight tolerances), over tolerances and
over variants of the settings, with what limited the steps (the step log,
docs/engine.md "The step log").

    bench/work_precision.py PROBLEM [--build DIR] [--rtol R ...] [--atol-ratio A]
        [--ref-rtol R] [--ref-atol A] [--set KEY=VALUE ...]
        [--variant NAME [KEY=VALUE ...]] ... [--csv FILE] [--keep DIR]

Every run gets the --set overrides; a variant adds its own (`--variant pi
solver.step_controller=pi`, `--variant verner solver.integrator=arkode_verner`;
without --variant one variant "default" with none). Each variant runs at
each --rtol (default 1e-9 1e-10 1e-11 1e-12) with atol = rtol * A (default
A = 1e-2); the reference runs once with the --set overrides alone at
--ref-rtol / --ref-atol (default 1e-13, 1e-15). Runs go one at a time, so
the wall times compare.

Accuracy: the events of a run are compared with the reference's in order,
by kind and contact; "sequence" says "same" or the index of the first event
that differs, and the event time errors are taken over the common prefix
(worst and median). The final state error is the largest difference of the
trajectories' last rows (every body's position, quaternion and velocities),
meaningful when both reached t_end.

Prints a markdown table; --csv FILE writes it as CSV (atomically); --keep
DIR keeps every run's result directory (DIR must be new or empty). Exit
status 0, 1 if the reference run does not end ok, 2 on bad usage.
"""
import argparse
import collections
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
from nsed.results import limit_group  # noqa: E402  (numpy only, no libnsed)
COLUMNS = ("variant", "rtol", "atol", "status", "t_reached", "events", "sequence",
           "worst_event_dt", "median_event_dt", "final_state_diff", "steps", "rejected",
           "rhs_evaluations", "wall_s", "limited_by")


def parse_args(argv):
    p = argparse.ArgumentParser(prog="work_precision.py", description=__doc__.split("\n\n")[0])
    p.add_argument("problem")
    p.add_argument("--build", default=os.path.join(ROOT, "build"),
                   help="build directory holding src/cli/nsed (default: build)")
    p.add_argument("--rtol", nargs="+", type=float, default=[1e-9, 1e-10, 1e-11, 1e-12])
    p.add_argument("--atol-ratio", type=float, default=1e-2)
    p.add_argument("--ref-rtol", type=float, default=1e-13)
    p.add_argument("--ref-atol", type=float, default=1e-15)
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--variant", action="append", nargs="+", default=[],
                   metavar=("NAME", "KEY=VALUE"))
    p.add_argument("--csv", metavar="FILE")
    p.add_argument("--keep", metavar="DIR")
    a = p.parse_args(argv)
    for s in a.set + [o for v in a.variant for o in v[1:]]:
        if "=" not in s:
            p.error(f"override {s!r}: expected KEY=VALUE")
    for x in a.rtol + [a.atol_ratio, a.ref_rtol, a.ref_atol]:
        if not x > 0:
            p.error(f"tolerances must be positive, got {x}")
    if a.keep and os.path.isdir(a.keep) and os.listdir(a.keep):
        p.error(f"--keep {a.keep}: not empty")
    names = [v[0] for v in a.variant]
    if len(set(names)) != len(names):
        p.error("variant names must differ")
    if not os.path.exists(a.problem):
        p.error(f"{a.problem}: not found")
    return a


def run(nsed, problem, out, overrides, steps=True):
    """One run with the step log; a CVODE integrator refuses it (its steps have
    no hook), so such a run goes again without ("limited_by" then empty)."""
    args = [nsed, "run", problem, "-o", out, "--quiet"] + (["--set", "output.steps=true"] if steps else [])
    for o in overrides:
        args += ["--set", o]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    t0 = time.monotonic()
    p = subprocess.run(args, env=env, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if steps and p.returncode == 2 and "output.steps: the step log needs an arkode integrator" in p.stderr:
        return run(nsed, problem, out, overrides, steps=False)
    path = os.path.join(out, "summary.json")
    if not os.path.exists(path):
        return {"status": "no result", "message": p.stderr.strip()}, wall
    with open(path) as f:
        return json.load(f), wall


def events(out):
    with open(os.path.join(out, "events.csv"), newline="") as f:
        return [(float(r["t"]), r["kind"], r["contact"]) for r in csv.DictReader(f)
                if r["kind"] != "failure"]


def last_row(out):
    with open(os.path.join(out, "trajectory.csv"), newline="") as f:
        rows = list(csv.reader(f))
    return [float(x) for x in rows[-1][1:]] if len(rows) > 1 else []


def limited_by(out):
    path = os.path.join(out, "steps.csv")
    if not os.path.exists(path):
        return ""
    with open(path, newline="") as f:
        groups = collections.Counter(limit_group(r["limit"]) for r in csv.DictReader(f))
    n = sum(groups.values())
    return "; ".join(f"{g} {100 * c / n:.0f}%" for g, c in groups.most_common(2)) if n else ""


def compare(ref_events, ref_last, out):
    ev = events(out)
    common = min(len(ev), len(ref_events))
    first_diff = next((i for i in range(common) if ev[i][1:] != ref_events[i][1:]), None)
    prefix = common if first_diff is None else first_diff
    dts = [abs(ev[i][0] - ref_events[i][0]) for i in range(prefix)]
    same = first_diff is None and len(ev) == len(ref_events)
    last = last_row(out)
    final = (max(abs(a - b) for a, b in zip(last, ref_last))
             if len(last) == len(ref_last) and last else float("nan"))
    return {"events": len(ev), "sequence": "same" if same else f"differs at {prefix}",
            "worst_event_dt": max(dts) if dts else 0.0,
            "median_event_dt": statistics.median(dts) if dts else 0.0,
            "final_state_diff": final}


def fmt(v):
    if isinstance(v, float):
        return f"{v:.3g}" if v == v else "-"
    return str(v)


def write_csv(path, rows):
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".work_precision-", suffix=".csv", dir=d)
    with os.fdopen(fd, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        for r in rows:
            w.writerow([r[c] for c in COLUMNS])
    os.replace(tmp, path)


def main(argv=None):
    a = parse_args(argv)
    nsed = os.path.join(a.build, "src", "cli", "nsed")
    if not os.access(nsed, os.X_OK):
        print(f"work_precision.py: {nsed}: no nsed executable (build first, or --build DIR)",
              file=sys.stderr)
        return 2
    variants = [(v[0], v[1:]) for v in a.variant] or [("default", [])]
    work = a.keep or tempfile.mkdtemp(prefix="nsed-wp-")
    os.makedirs(work, exist_ok=True)
    try:
        ref_out = os.path.join(work, "reference")
        ref, wall = run(nsed, a.problem, ref_out,
                        a.set + [f"solver.rtol={a.ref_rtol!r}", f"solver.atol={a.ref_atol!r}"])
        if ref.get("status") != "ok":
            print(f"work_precision.py: the reference run did not end ok: {ref.get('status')}: "
                  f"{ref.get('message', '')}", file=sys.stderr)
            return 1
        ref_events, ref_last = events(ref_out), last_row(ref_out)
        print(f"# {a.problem}: reference rtol {a.ref_rtol:g}, atol {a.ref_atol:g}: "
              f"{len(ref_events)} events, {ref['steps']} steps, {ref['rhs_evaluations']} right-hand "
              f"sides, {wall:.2f} s\n")
        rows = []
        print("| " + " | ".join(COLUMNS) + " |")
        print("|" + "---|" * len(COLUMNS))
        for name, extra in variants:
            for rtol in a.rtol:
                atol = rtol * a.atol_ratio
                out = os.path.join(work, f"{name}.rtol{rtol:g}")
                s, wall = run(nsed, a.problem, out,
                              a.set + extra + [f"solver.rtol={rtol!r}", f"solver.atol={atol!r}"])
                row = {"variant": name, "rtol": rtol, "atol": atol, "status": s.get("status"),
                       "t_reached": s.get("t_reached", float("nan")), "steps": s.get("steps", 0),
                       "rejected": s.get("error_test_failures", 0),
                       "rhs_evaluations": s.get("rhs_evaluations", 0), "wall_s": wall,
                       "limited_by": limited_by(out)}
                if os.path.exists(os.path.join(out, "events.csv")):
                    row.update(compare(ref_events, ref_last, out))
                else:
                    row.update({"events": 0, "sequence": "-", "worst_event_dt": float("nan"),
                                "median_event_dt": float("nan"), "final_state_diff": float("nan")})
                rows.append(row)
                print("| " + " | ".join(fmt(row[c]) for c in COLUMNS) + " |", flush=True)
                if a.csv:
                    write_csv(a.csv, rows)
        return 0
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
