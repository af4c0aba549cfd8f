#!/usr/bin/python3
"""Reproducibility: the same problem and overrides give byte-identical
trajectory.csv, contacts.csv and events.csv, run after run and with
OpenBLAS on one thread or two; summary.json differs only in wall_seconds.

Usage: test_repro.py NSED SOURCE_ROOT
"""
import json
import os
import subprocess
import sys
import tempfile

failures = []
CSVS = ("trajectory.csv", "contacts.csv", "events.csv")


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def main():
    nsed, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    cases = [
        # stick-slip with LCP solves (dense OpenBLAS work at every event)
        ("dos2", os.path.join(root, "problems", "disk_on_shaft_case2.yaml"),
         ["solver.t_end=7", "output.dt=0.01"]),
        # impacts and the Zeno guard
        ("ball", os.path.join(root, "problems", "bouncing_ball.yaml"), []),
        # the polygon path forced to nsed's own Lemke
        ("sphere", os.path.join(root, "tests", "io", "good", "sphere.yaml"),
         ["friction.sides=8", "friction.path=nsed"]),
    ]
    with tempfile.TemporaryDirectory() as work:
        for tag, problem, overrides in cases:
            sets = [a for o in overrides for a in ("--set", o)]
            outs = []
            for i, threads in enumerate(("1", "1", "2")):
                env = dict(os.environ, OPENBLAS_NUM_THREADS=threads)
                out = os.path.join(work, "%s_%d" % (tag, i))
                p = subprocess.run([nsed, "run", problem, "-o", out, "--quiet"] + sets,
                                   capture_output=True, text=True, env=env, cwd=work)
                check(p.returncode == 0, "%s run %d: exit %d %s" % (tag, i, p.returncode, p.stderr))
                outs.append(out)
            ref = outs[0]
            s0 = json.load(open(os.path.join(ref, "summary.json")))
            check(s0["events"] > 0, "%s: no events, a weak test" % tag)
            for out in outs[1:]:
                for name in CSVS:
                    a = open(os.path.join(ref, name), "rb").read()
                    b = open(os.path.join(out, name), "rb").read()
                    check(a == b, "%s: %s differs between %s and %s" % (tag, name, ref, out))
                s = json.load(open(os.path.join(out, "summary.json")))
                check(set(s) == set(s0), "%s: summary keys differ" % tag)
                diff = sorted(k for k in s0 if k not in ("wall_seconds", "monitor_seconds") and s0[k] != s.get(k))
                check(not diff, "%s: summary.json differs in %s (%s)" % (tag, diff, out))
    if failures:
        print("%d failure(s)" % len(failures), file=sys.stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
