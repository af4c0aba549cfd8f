#!/usr/bin/python3
"""Every shipped problem at loose tolerances (docs/engine.md, "Loose
tolerances"): rtol 1e-6 and 1e-8, atol rtol / 100, drift_tol 1e-5 (the
law monitor's bound on joints and closed gaps is the user's; at rtol 1e-6
positions hold to about 1e-6 of their size, so the default 1e-6 is
below what such a run can keep). Each run must end ok, its law monitor
clean, and on a problem whose floor and planes do not move its contacts
must not have done positive work beyond the energy balance's accuracy.
The exceptions are two problems without stabilisation (no baumgarte:
the disk on a shaft's case 3 without it, which is there to show that,
and the tippe top's weld), whose joints' drift grows without bound and at
rtol 1e-6 passes 1e-5 within their runs (t = 22.2 and 13.5; the other
unstabilised ones, the rolling coin and the turntable, stay within it):
they must stop on that, naming the joint and saying why. Before the
monitor's checks and the slow hold followed the integration's noise, 28
of the 37 problems stopped at rtol 1e-6 and
10 at rtol 1e-8 where they must not (checks finer than the integration
resolves, a slow hold inside the noise, a closed contact opened on its
drift).

    test_loose_tolerances.py SOURCE_ROOT BUILD_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT, BUILD = sys.argv[1], sys.argv[2]
NSED = os.path.join(BUILD, "src", "cli", "nsed")
RTOLS = (1e-6, 1e-8)
# Contact work on a passive floor beyond this many rtol of 1 + E(0): the
# integration's error, not energy an event put in (measured: at most 10
# rtol, the rolling coin's sticking rim creeping within what the monitor
# allows for 10 s at rtol 1e-6, 2.4 rtol at 1e-8; the snakeboards 4.3e-2).
PASSIVE_PER_RTOL = 100.0
# Stops that are the problem's point at a tolerance: (problem, rtol) -> the
# check and the words the message must hold.
EXPECTED_STOPS = {
    ("disk_on_shaft_case3_nostab", 1e-6): ("joint_drift", ["joint '", "drifted", "solver.drift_tol = 1e-05",
                                                          "not stabilised", "without bound"]),
    ("tippe_top", 1e-6): ("joint_drift", ["joint 'glue' drifted", "solver.drift_tol = 1e-05", "not stabilised"]),
}
failures = 0


def check(cond, what):
    global failures
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures += 1


def passive(summary):
    geo = summary.get("geometry") or {}
    for s in [geo.get("floor") or {}] + list(geo.get("planes") or []):
        if any(float(x) != 0.0 for x in (s.get("velocity") or [])) or float(s.get("spin") or 0.0) != 0.0:
            return False
    return True


def run(problem, rtol, out):
    sets = [f"solver.rtol={rtol:g}", f"solver.atol={rtol * 1e-2:g}", "solver.drift_tol=1e-5"]
    args = [NSED, "run", problem, "-o", out, "--quiet"]
    for s in sets:
        args += ["--set", s]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    proc = subprocess.run(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
    path = os.path.join(out, "summary.json")
    if not os.path.exists(path):
        return None, proc.stderr.strip()
    with open(path) as f:
        return json.load(f), proc.stderr.strip()


def main():
    problems = sorted(p[:-5] for p in os.listdir(os.path.join(ROOT, "problems")) if p.endswith(".yaml"))
    check(len(problems) >= 30, f"{len(problems)} shipped problems")
    with tempfile.TemporaryDirectory(prefix="nsed-loose-") as tmp:
        for rtol in RTOLS:
            for name in problems:
                out = os.path.join(tmp, f"{name}-{rtol:g}")
                s, err = run(os.path.join(ROOT, "problems", name + ".yaml"), rtol, out)
                what = f"{name} at rtol {rtol:g}"
                if s is None:
                    check(False, f"{what}: no summary ({err})")
                    continue
                expected = EXPECTED_STOPS.get((name, rtol))
                if expected:
                    law, words = expected
                    msg = s.get("message", "")
                    check(s["status"] == "failed" and f"check {law}" in msg and all(w in msg for w in words),
                          f"{what}: stops on {law} ({msg[:120]})")
                    continue
                check(s["status"] == "ok", f"{what}: {s['status']} at t = {s['t_reached']}, {s['events']} events "
                      f"{s.get('message', '')[:200]}")
                broken = [k for k, c in (s.get("law_monitor") or {}).items()
                          if isinstance(c, dict) and c.get("count") and c["worst"] < -c["tolerance"]]
                check(not broken, f"{what}: law monitor clean {broken}")
                if passive(s):
                    w, e0 = s.get("work_contacts") or 0.0, abs(s.get("energy_initial") or 0.0)
                    check(w <= PASSIVE_PER_RTOL * rtol * (1 + e0),
                          f"{what}: contact work {w:.3g} J on a passive floor (bound {PASSIVE_PER_RTOL * rtol * (1 + e0):.3g})")
    print(f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
