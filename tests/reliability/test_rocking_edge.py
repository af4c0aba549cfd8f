#!/usr/bin/env python3
"""A wheel rocking on one sector edge (docs/rollers.md, "Rocking on a sector edge").

Usage: test_rocking_edge.py NSED SOURCE_ROOT

The mecanum drive (problems/omni_vehicle_drive_mecanum.yaml) with 16 rollers
a wheel coasts nearly at rest after its drive ends; at t = 17.2342 wheel 0
hands its contact from roller 0 to roller 1 and back every 1e-5 to 3e-5 s
until the Zeno guard stops the run (t = 17.23513). This checks the
mechanism the docs state, from the run's own files and not from its
message: the last handovers alternate between the two rollers with
shrinking intervals (an accumulation in finite time), the wheel's turn
about its axle reverses at every handover, and the two tips' friction
forces, each at mu lambda_n (slipping), point nearly opposite ways; then
that the failure message says so (the wheel, both roller contacts, the
docs' section).
"""
import math
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reltest import Failures, result_complete, run  # noqa: E402

PROBLEM = "problems/omni_vehicle_drive_mecanum.yaml"
ARGS = ["--set", "omni_vehicle.rollers=16", "--set", "solver.t_end=17.3"]
MU = 0.5
A, B = "wheel0_roller0_floor", "wheel0_roller1_floor"


def rows(path):
    lines = open(path).read().splitlines()
    head = lines[0].split(",")
    return head, [l.split(",") for l in lines[1:]]


def main():
    nsed, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    f = Failures()
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "out")
        p = run([nsed, "run", os.path.join(root, PROBLEM), "-o", out, "--quiet"] + ARGS, timeout=1200)
        f.check(p.returncode == 1, f"exit status {p.returncode}, expected 1 (the storm)")
        s = result_complete(out, f)
        if not s:
            return f.done("rocking_edge")
        f.check(s.get("status_code") == "NSED_ERR_EVENT", f"status_code {s.get('status_code')}")
        t_stop = s.get("t_reached", 0)
        f.check(17.2342 < t_stop < 17.236, f"stopped at t = {t_stop}, expected the storm at 17.2351")

        # Handovers of wheel 0: its closings, in time order.
        _, ev = rows(os.path.join(out, "events.csv"))
        closings = [(float(r[0]), r[2]) for r in ev if r[1] == "close" and r[2].startswith("wheel0_")]
        last = closings[-40:]
        f.check(len(last) == 40 and all(c in (A, B) for _, c in last),
                f"the last 40 closings of wheel 0 are not all rollers 0 and 1: {set(c for _, c in last)}")
        f.check(all(last[k][1] != last[k + 1][1] for k in range(len(last) - 1)),
                "the last closings do not alternate between rollers 0 and 1")
        gaps = [last[k + 1][0] - last[k][0] for k in range(len(last) - 1)]
        f.check(all(1e-6 < g < 5e-5 for g in gaps), f"intervals outside 1e-6..5e-5 s: {min(gaps)}, {max(gaps)}")
        # Shrinking: the last ten intervals against the first ten, pairwise
        # (the two sides' dwell times differ).
        early, late = sum(gaps[:10]), sum(gaps[-10:])
        f.check(late < 0.9 * early, f"the intervals do not shrink: {early:.3e} -> {late:.3e} s over 10")
        print(f"40 alternating handovers, intervals {early / 10:.3e} -> {late / 10:.3e} s")

        # The wheel's turn about its axle (the hub's body z) just after each
        # handover reverses from one to the next.
        head, traj = rows(os.path.join(out, "trajectory.csv"))
        iwz = head.index("wheel0.wz")
        after = {}
        for r in traj:
            after[float(r[0])] = float(r[iwz])  # the last row at an event time: after it
        turns = [after.get(t) for t, _ in last]
        f.check(all(w is not None for w in turns), "an event time is missing from trajectory.csv")
        if all(w is not None for w in turns):
            f.check(all(turns[k] * turns[k + 1] < 0 for k in range(len(turns) - 1)),
                    "the wheel's turn does not reverse at every handover")
            f.check(all(0 < abs(w) < 1e-4 for w in turns), f"turn rates beyond 1e-4 rad/s: {turns[:4]}")
            print(f"turn after the handovers: {turns[-4:]}")

        # After each of the last handovers the closed roller slips with mu
        # lambda_n, and consecutive closed rollers' friction points nearly the
        # opposite way.
        head, con = rows(os.path.join(out, "contacts.csv"))
        ic, im, il = head.index("contact"), head.index("mode"), head.index("lambda_n")
        forces = {}
        for r in con:
            if r[ic] in (A, B) and r[im] == "slip":
                forces[float(r[0])] = (r[ic], float(r[il]), float(r[il + 1]), float(r[il + 2]))
        # (The last handover is the one the guard stopped: no state after it.)
        done = last[-11:-1]
        seq = [forces.get(t) for t, _ in done]
        f.check(all(x is not None and x[0] == c for x, (_, c) in zip(seq, done)),
                "the contact closed at a handover is not the one slipping after it")
        if all(x is not None for x in seq):
            for _, ln, t1, t2 in seq:
                f.check(ln > 0 and abs(math.hypot(t1, t2) - MU * ln) < 1e-9 * ln,
                        f"friction {math.hypot(t1, t2)} is not mu lambda_n = {MU * ln}")
            cosines = [(a[2] * b[2] + a[3] * b[3]) / (math.hypot(a[2], a[3]) * math.hypot(b[2], b[3]))
                       for a, b in zip(seq, seq[1:])]
            f.check(all(c < -0.9 for c in cosines), f"friction not opposite across the edge: {cosines}")
            print(f"cosine between the tips' friction forces: {max(cosines):.4f} at most")

        msg = s.get("message", "")
        for sub in ("event storm on contact 'wheel0_roller", "Wheel 'wheel0' hands its contact back and forth",
                    f"'{A}' and '{B}'", "its turn reverses at every handover", "Rocking on a sector edge"):
            f.check(sub in msg, f"message lacks {sub!r}: {msg}")
    return f.done("rocking_edge")


if __name__ == "__main__":
    sys.exit(main())
