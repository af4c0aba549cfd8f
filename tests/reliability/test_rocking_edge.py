#!/usr/bin/env python3
"""A wheel rocking on one sector edge, and the sliding mode it ends in
(docs/rollers.md, "Rocking on a sector edge", "The sector edge's sliding mode").

Usage: test_rocking_edge.py NSED SOURCE_ROOT

The mecanum drive (problems/omni_vehicle_drive_mecanum.yaml) with 16 rollers
a wheel coasts nearly at rest after its drive ends; at t = 17.2342 wheel 0
hands its contact from roller 0 to roller 1 and back every 1e-5 to 3e-5 s.
At t = 17.23513 the Zeno guard finds the storm and, since it is a rocking,
holds the wheel on the edge: both tips closed and slipping. This checks,
from the run's own files:

- the rocking before it, as the docs state it: the handovers alternate
  between the two rollers with shrinking intervals, the wheel's turn about
  its axle reverses at every handover, and the two tips' friction forces,
  each at mu lambda_n, point nearly opposite ways;
- the capture: a zeno event closing the reopened tip, both tips slipping at
  mu lambda_n after it, the wheel's turn removed;
- the sliding mode against the rocking it replaces (Filippov): with alpha_X
  the share of its lone load N_X that tip X carries on the edge
  (lambda_X / N_X, N_X from the rocking's own handovers), alpha_0 + alpha_1
  is 1 (the mode is a convex combination of the two sides' fields), and
  alpha_0 is the fraction of the rocking's time the wheel spent on roller 0
  (for a switching surface crossed at shrinking rates with constant
  accelerations a_0 < 0 < a_1 on either side, the dwell times are 2 v / |a|
  and the fraction on side 0 is a_1 / (a_1 - a_0), Filippov's weight);
- the run completes, its law monitor clean;
- the guard's cut of the rocking costs nothing: with the guard off the
  rocking ends by itself (its turn comes to rest inside the band and the
  wheel is held on the edge there, docs/rollers.md, "A handover the turn
  reverses"), and at t = 20 the two runs' platforms agree to 1e-8
  (measured 4e-11).

And where the mode does not hold, the storm stops the run with a message
that says why: a random start of the mecanum car (four sprung wheels) rocks
on a sector edge at t = 1.2228, and a tip there is not held on the floor by
its partner (a strut lets the wheel tilt: its normal row is not implied by
the others').
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
WEIGHT_TOL = 0.01  # alpha_0 against the dwell fraction: the rocking turn (R w up to 2.7e-5 m/s) turns the tips' 2.2e-3 m/s slip, and their friction, by up to 1.2%
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
        f.check(p.returncode == 0, f"exit status {p.returncode}: {p.stderr[-600:]}")
        s = result_complete(out, f)
        if not s:
            return f.done("rocking_edge")
        f.check(s.get("status") == "ok", f"status {s.get('status')}: {s.get('message')}")

        _, ev = rows(os.path.join(out, "events.csv"))
        captures = [(float(r[0]), r[2]) for r in ev if r[1] == "zeno" and r[3] == "open" and r[4] == "slip"]
        f.check(len(captures) >= 1 and captures[0][1] in (A, B), f"no capture onto the edge: {captures}")
        if not captures:
            return f.done("rocking_edge")
        t_cap = captures[0][0]
        f.check(17.2342 < t_cap < 17.236, f"captured at t = {t_cap}, expected the storm at 17.2351")

        # Handovers of wheel 0 before the capture: its closings, in time order.
        closings = [(float(r[0]), r[2]) for r in ev
                    if r[1] == "close" and r[2].startswith("wheel0_") and float(r[0]) <= t_cap]
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
        # Whole cycles (as many dwells on either roller), the latest ones.
        whole = list(zip(last, gaps))[len(gaps) % 2:]
        dwell_a = sum(g for (t, c), g in whole if c == A) / sum(g for _, g in whole)
        print(f"40 alternating handovers, intervals {early / 10:.3e} -> {late / 10:.3e} s, "
              f"{dwell_a:.4f} of the time on roller 0")

        # The wheel's turn about its axle (the hub's body z) just after each
        # handover reverses from one to the next; the capture removes it.
        head, traj = rows(os.path.join(out, "trajectory.csv"))
        iwz = head.index("wheel0.wz")
        after = {}
        for r in traj:
            after[float(r[0])] = float(r[iwz])  # the last row at an event time: after it
        turns = [after.get(t) for t, _ in last[:-1]]
        f.check(all(w is not None for w in turns), "an event time is missing from trajectory.csv")
        if all(w is not None for w in turns):
            f.check(all(turns[k] * turns[k + 1] < 0 for k in range(len(turns) - 1)),
                    "the wheel's turn does not reverse at every handover")
            f.check(all(1e-6 < abs(w) < 1e-4 for w in turns), f"turn rates outside 1e-6..1e-4 rad/s: {turns[:4]}")
            w_cap = after.get(t_cap)
            f.check(w_cap is not None and abs(w_cap) < 1e-12,
                    f"the wheel still turns at {w_cap} rad/s on the edge (rocking: {abs(turns[-1]):.3g})")
            print(f"turn after the handovers: {turns[-3:]}; on the edge: {w_cap}")

        # The closed roller's load and friction after each handover (the
        # contacts.csv row of a closed contact at an event time, after it),
        # and both tips' on the edge.
        head, con = rows(os.path.join(out, "contacts.csv"))
        ic, im, il = head.index("contact"), head.index("mode"), head.index("lambda_n")
        forces, edge = {}, {}
        for r in con:
            if r[ic] in (A, B) and r[im] == "slip":
                x = (r[ic], float(r[il]), float(r[il + 1]), float(r[il + 2]))
                if float(r[0]) < t_cap:
                    forces[float(r[0])] = x
                elif float(r[0]) == t_cap:
                    edge[r[ic]] = x
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

        f.check(set(edge) == {A, B}, f"not both tips slipping on the edge: {sorted(edge)}")
        if set(edge) == {A, B} and all(x is not None for x in seq):
            for _, ln, t1, t2 in edge.values():
                f.check(ln > 0 and abs(math.hypot(t1, t2) - MU * ln) < 1e-9 * ln,
                        f"a tip on the edge: friction {math.hypot(t1, t2)}, mu lambda_n {MU * ln}")
            alone = {c: ln for c, ln, _, _ in seq}  # the latest lone load of each roller
            alpha = {c: edge[c][1] / alone[c] for c in (A, B)}
            f.check(abs(alpha[A] + alpha[B] - 1) < 2e-3, f"the edge's shares {alpha} do not add up to 1")
            f.check(abs(alpha[A] - dwell_a) < WEIGHT_TOL,
                    f"share of roller 0 {alpha[A]:.4f}, the rocking's time on it {dwell_a:.4f}")
            print(f"on the edge: loads {edge[A][1]:.6f}, {edge[B][1]:.6f} N of lone loads "
                  f"{alone[A]:.6f}, {alone[B]:.6f}: shares {alpha[A]:.4f} + {alpha[B]:.4f}; "
                  f"time on roller 0 while rocking {dwell_a:.4f}")
        bal = s.get("energy_balance_error", 1.0)
        f.check(abs(bal) < 1e-10, f"energy balance {bal}")

        # The guard's cut of the rocking against the rocking left to end by
        # itself: with the guard off, the turn comes to rest inside the
        # band after about a thousand handovers and the wheel is held on the
        # edge there ("A handover the turn reverses"); both runs go on to
        # t = 20 and must end at the same state.
        ends = {}
        for name, extra in (("guard", []), ("alone", ["--set", "solver.zeno.events=1000000"])):
            o20 = os.path.join(work, name)
            p = run([nsed, "run", os.path.join(root, PROBLEM), "-o", o20, "--quiet", "--set", "omni_vehicle.rollers=16",
                     "--set", "solver.t_end=20"] + extra, timeout=1200)
            s20 = result_complete(o20, f)
            f.check(p.returncode == 0 and s20 is not None and s20.get("status") == "ok",
                    f"{name}: exit {p.returncode}, {s20 and s20.get('message')}")
            if not s20:
                continue
            h20, t20 = rows(os.path.join(o20, "trajectory.csv"))
            ends[name] = [float(t20[-1][h20.index(k)]) for k in
                          ("platform.x", "platform.y", "platform.q3", "platform.vx", "platform.vy", "platform.wz")]
            _, e20 = rows(os.path.join(o20, "events.csv"))
            if name == "alone":
                zeno = [r for r in e20 if r[1] == "zeno"]
                handovers = sum(1 for r in e20 if r[1] == "close" and r[2] in (A, B) and float(r[0]) < 17.3)
                f.check(not zeno and handovers > 500,
                        f"left alone: {len(zeno)} zeno events, {handovers} handovers before t = 17.3")
                print(f"left alone: {handovers} closings of rollers 0 and 1 before t = 17.3, "
                      f"{s20.get('events')} events in all")
        if len(ends) == 2:
            worst = max(abs(a - b) for a, b in zip(ends["guard"], ends["alone"]))
            f.check(worst < 1e-8, f"the guard's run and the rocking left alone end {worst:.3g} apart")
            print(f"at t = 20 the guard's run and the rocking left alone differ by {worst:.3g}")

        car = os.path.join(work, "car")
        p = run([nsed, "run", os.path.join(root, "problems/omni_vehicle_mecanum_car.yaml"), "-o", car, "--quiet",
                 "--set", "omni_vehicle.velocity=[-0.9106392735109856, -0.402472797353413]",
                 "--set", "omni_vehicle.spin=-0.4998218477273426", "--set", "solver.t_end=1.3"], timeout=1200)
        f.check(p.returncode == 1, f"the car: exit status {p.returncode}, expected 1 (the storm)")
        sc = result_complete(car, f)
        msg = sc.get("message", "") if sc else ""
        f.check(sc is not None and 1.2 < sc.get("t_reached", 0) < 1.25, f"the car stopped at {sc and sc.get('t_reached')}")
        for sub in ("event storm on contact 'wheel1_roller", "Wheel 'wheel1' hands its contact back and forth",
                    "its turn reverses at every handover", "Rocking on a sector edge",
                    "not held on the edge", "is not held on the floor by", "as on a sprung wheel"):
            f.check(sub in msg, f"the car's message lacks {sub!r}: {msg}")
    return f.done("rocking_edge")


if __name__ == "__main__":
    sys.exit(main())
