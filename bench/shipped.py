#!/usr/bin/python3
"""Every shipped problem (problems/*.yaml) run to its own t_end: status, events,
steps, wall time and the law monitor's worst margin of each check.

A run that ends "ok" has passed the law monitor at every sample and event (a
violation ends it with NSED_ERR_LAW); the margins say how far inside each law
the run stayed: the worst margin of each check, positive where the law holds
(a run stops when one falls below minus its tolerance; docs/engine.md,
"The law monitor").

    bench/shipped.py [BUILD_DIR] [PROBLEM ...]   defaults: build, every problem

Exits 1 if any run does not end ok. Not in CI: the whole set takes about
two minutes on the project's 2-core machine, mostly the vehicles;
tests/io/run_cli.py validates every problem, and the reference tests run
each system's physics. Last table: docs/engine.md, "The law monitor".
"""
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECKS = ("normal_force", "stick_friction", "slip_friction", "slip_direction",
          "open_gap", "closed_gap", "joint_drift", "spin_friction", "stick_velocity")


def margin(check):
    """The check's worst margin over the run, None if it never applied."""
    if not check or not check.get("count"):
        return None
    return check["worst"]


def run(nsed, problem, work):
    out = os.path.join(work, os.path.basename(problem)[:-5])
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    t0 = time.monotonic()
    proc = subprocess.run([nsed, "run", problem, "-o", out, "--quiet"], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    summary_path = os.path.join(out, "summary.json")
    if not os.path.exists(summary_path):
        return {"status": "no summary", "message": proc.stderr.strip()}, wall
    with open(summary_path) as f:
        return json.load(f), wall


def main(argv):
    build = argv[1] if len(argv) > 1 else os.path.join(ROOT, "build")
    nsed = os.path.join(build, "src", "cli", "nsed")
    if not os.access(nsed, os.X_OK):
        sys.exit(f"shipped.py: {nsed} not found (build first: meson setup {build} && ninja -C {build})")
    problems = argv[2:] or sorted(
        os.path.join(ROOT, "problems", p) for p in os.listdir(os.path.join(ROOT, "problems"))
        if p.endswith(".yaml"))
    print("| problem | status | t_end | events | steps | wall s | " +
          " | ".join(CHECKS) + " |")
    print("|" + "---|" * (6 + len(CHECKS)))
    failed = 0
    with tempfile.TemporaryDirectory() as work:
        for problem in problems:
            s, wall = run(nsed, problem, work)
            monitor = s.get("law_monitor", {})
            margins = []
            for c in CHECKS:
                m = margin(monitor.get(c))
                margins.append("-" if m is None else f"{m:.2e}")
            if s.get("status") != "ok":
                failed += 1
            print(f"| {os.path.basename(problem)} | {s.get('status')} | {s.get('t_reached', '-')} | "
                  f"{s.get('events', '-')} | {s.get('steps', '-')} | {wall:.1f} | " + " | ".join(margins) + " |")
            if s.get("status") != "ok":
                print(f"    {s.get('message', '')}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
