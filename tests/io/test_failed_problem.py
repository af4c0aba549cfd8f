#!/usr/bin/python3
"""A run that stops on an event problem it cannot solve leaves that problem
in its result directory (failed_event_problem.txt, named in summary.json and
on stderr); `nsed cp` with the options the file's header gives fails on it
the same way, and with the default path solves it to the physics. Forced
here: the box sliding on the 20-degree incline (problems/box_incline.yaml)
with Lemke limited to one pivot on nsed's path, so its first event problem
(four slipping vertices) is not solved at t = 0. And a failure's message
names what each attempt found.

Usage: test_failed_problem.py NSED SOURCE_ROOT
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def main():
    nsed, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    problem = os.path.join(root, "problems", "box_incline.yaml")
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "box")
        p = run([nsed, "run", problem, "-o", out, "--quiet",
                 "--set", "friction.max_pivots=1", "--set", "friction.path=nsed"])
        check(p.returncode == 1, f"the forced run exits 1, not {p.returncode}")
        path = os.path.join(out, "failed_event_problem.txt")
        check(path in p.stderr, "stderr names the failed problem's file")
        check(os.path.isfile(path), "failed_event_problem.txt written")
        with open(os.path.join(out, "summary.json")) as f:
            s = json.load(f)
        check(s["status"] == "failed" and s["failed_event_problem"] == "failed_event_problem.txt",
              f"summary: status {s['status']}, failed_event_problem {s.get('failed_event_problem')}")
        if not os.path.isfile(path):
            return
        text = open(path).read()
        check("base.v0, base.v1, base.v2, base.v3" in text, "the header names the contacts")
        m = re.search(r"^# (nsed cp .*) FILE$", text, re.M)
        check(m is not None, "the header gives the nsed cp command with the run's settings")
        if m:
            args = m.group(1).split()[1:]
            check("--max-pivots" in args and args[args.index("--max-pivots") + 1] == "1"
                  and args[args.index("--path") + 1] == "nsed", f"the run's settings: {args}")
            again = run([nsed] + args + [path])
            check(again.returncode == 1 and " failed " in again.stdout,
                  f"the run's settings fail again: exit {again.returncode}, {again.stdout!r}")
        solved = run([nsed, "cp", path])
        check(solved.returncode == 0 and "solved 1 of 1" in solved.stdout,
              f"the default path solves it: exit {solved.returncode}")
        lam = [list(map(float, l.split()[4:7])) for l in solved.stdout.splitlines()
               if l.startswith("  contact ")]
        check(len(lam) == 4, f"four contacts reported, got {len(lam)}")
        if len(lam) == 4:
            # the box slides down: its weight's normal part on the slope, each
            # vertex's friction mu lambda_n against the sliding
            weight_n = 2 * 9.81 * math.cos(math.radians(20))
            total_n = sum(l[0] for l in lam)
            check(abs(total_n - weight_n) < 1e-9 * weight_n,
                  f"normal forces sum to m g cos 20: {total_n} vs {weight_n}")
            worst = max(abs(math.hypot(l[1], l[2]) - 0.5 * l[0]) for l in lam)
            check(worst < 1e-9 * weight_n, f"every slip's friction is mu lambda_n: off by {worst}")
        # a later clean run into the same directory leaves no stale problem
        p = run([nsed, "run", problem, "-o", out, "--quiet", "--set", "solver.t_end=0.1"])
        check(p.returncode == 0, f"the clean rerun exits 0, not {p.returncode}: {p.stderr}")
        check(not os.path.exists(path), "the clean rerun leaves no failed_event_problem.txt")
        with open(os.path.join(out, "summary.json")) as f:
            check(json.load(f)["failed_event_problem"] is None, "an ok run's summary says null")
    # on Siconos' path the mecanum car's impact problem gets an answer in the
    # face form that breaks the laws; nsed's Lemke alone then solves it (until
    # its LCP was scaled symmetrically, its answer broke them too and the
    # vertex form failed: docs/complementarity.md, section 7)
    car = os.path.join(root, "tests", "data", "cp", "mecanum_sideways_impact_5c.txt")
    p = run([nsed, "cp", "--path", "siconos", car])
    check(p.returncode == 0 and "solved" in p.stdout and "path=face/nsed-lemke" in p.stdout,
          f"the law check's retry by nsed's Lemke: exit {p.returncode}, {p.stdout!r} {p.stderr!r}")
    # a message keeps what every attempt found: with three pivots Siconos'
    # Lemke fails both forms, and the message names each with its residual
    p = run([nsed, "cp", "--path", "siconos", "--max-pivots", "3", car])
    check(p.returncode == 1 and all(w in p.stderr for w in (
        "face form: LCP of size 45 not solved", "siconos-lemke: pivot limit, residual",
        "the same polygon in vertex form: LCP of size 50 not solved")),
        f"the failure names each attempt: exit {p.returncode}, {p.stderr!r}")
    if failures:
        sys.exit(1)
    print("failed event problem: written, named, reproduced and solved again")


main()
