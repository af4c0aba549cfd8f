#!/usr/bin/python3
"""Random starts: shipped problems run from random initial motions, each in
a random exact friction form, to find the event-step mechanisms that a
problem's own start does not reach (docs/reliability.md, "Random starts").

    bench/random_starts.py [--build DIR] [--problems NAME ...] [--runs N]
        [--seed S] [--t-end T] [--timeout S] [--csv FILE] [--tighter F]
        [--set KEY=VALUE ...]

For a problem with free bodies (a `bodies:` list and no joints) each body's
horizontal velocity and its angular velocity get uniform random additions
(up to its own speed plus 0.5 m/s, its own spin plus 5 rad/s; a
superellipsoid whose floor contact lies on a flat coordinate plane of its
axes keeps its start in that plane, since turned across it at t = 0 its
contact point's rate is unbounded, which nsed refuses); for an
`omni_vehicle:` problem the platform's velocity and yaw rate are drawn in
[-1, 1]. The friction form is drawn from the file's own, the vertex form of
8 sides and the exact cone (a problem whose contacts need the polygon, exact
torsional friction, keeps its own). Default: every such shipped problem,
10 runs each, seed 1, each problem's own t_end, 60 s of wall time a run.

One line per run (problem, form, status, time reached, events, wall time,
the message's first words) and a table per problem: completed, failed by the
check or error that stopped them, timed out. A run that ends "ok" with a law
monitor check beyond its tolerance would be a wrong answer reported as right:
it is counted apart (`ok, law broken`) and makes the exit status 1; so is a
run, whatever its status, on a problem whose floor and planes do not move
whose contacts did positive work beyond 1e-9 of 1 + its initial energy,
or 100 rtol where that is larger (`energy gained`: energy the event step
put in, which the energy balance books as contact work and so does not
show; at a loose rtol a stick creeping within the law monitor's allowance
does that much, docs/engine.md "Loose tolerances"); failures
with a message are what the tool is for, and exit 0. --csv writes every run
with its overrides, so that `nsed run PROBLEM --set ...` repeats it.

--set KEY=VALUE (repeatable) adds an override to every run, after its drawn
start (the drawn friction form comes last): `--set solver.rtol=1e-6 --set
solver.atol=1e-8 --set solver.drift_tol=1e-5` runs the starts at a loose
tolerance.

--tighter F runs each start again with the run's rtol and atol (the file's,
or --set's) divided by F
and compares the two: whether both end the same way with the same sequence
of events (kind, contact, modes), the largest difference of their event
times, and the largest difference of their final states (relative,
|a - b| / (1 + |b|) over trajectory.csv's last row). A run whose outcome or
events change with the tolerance, or whose answer moves by far more than
the tolerances, is a result the integration has not converged
(docs/reliability.md, "Random starts"). tests/reliability/test_random_starts.py
runs a sample.
"""
import argparse
import collections
import csv
import json
import math
import os
import random
import re
import signal
import shutil
import subprocess
import sys
import tempfile
import time

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FORMS = {
    "own": [],
    "vertex": ["friction={model: polygon, form: vertex, sides: 8}"],
    "cone": ["friction={model: exact_cone}"],
}
COLUMNS = ("problem", "form", "status", "t_end", "t_reached", "events", "wall_s", "failure",
           "message", "overrides", "energy_initial", "work_contacts", "tight_status", "tight_events",
           "tight_event_dt", "tight_state_diff")
DEFAULT_RTOL, DEFAULT_ATOL = 1e-11, 1e-13
# Positive contact work on a passive floor, relative to 1 + the initial
# energy, beyond which energy was created: two decades above the energy
# balance's own accuracy (1e-11 relative, docs/engine.md "Energy balance"),
# and at a looser rtol PASSIVE_PER_RTOL times it (a stick creeping within
# the law monitor's allowance works up to 10 rtol: the rolling coin at
# rtol 1e-6, docs/engine.md "Loose tolerances").
PASSIVE_TOL = 1e-9
PASSIVE_PER_RTOL = 100.0


def perturbable(doc):
    """'bodies', 'vehicle' or None: how a problem's start can be drawn."""
    if not isinstance(doc, dict):
        return None
    if "omni_vehicle" in doc:
        return "vehicle"
    if isinstance(doc.get("bodies"), list) and not doc.get("joints"):
        return "bodies"
    return None


def shipped_problems():
    found = []
    pdir = os.path.join(ROOT, "problems")
    for name in sorted(os.listdir(pdir)):
        if name.endswith(".yaml"):
            with open(os.path.join(pdir, name)) as f:
                if perturbable(yaml.safe_load(f)):
                    found.append(name[:-5])
    return found


def norm(v):
    return sum(x * x for x in v) ** 0.5


def body_rotation(orientation):
    """The rotation matrix (rows) of a problem file's `orientation`:
    a quaternion [q0, q1, q2, q3] (scalar first, normalised here) or
    {axis, angle_deg | angle_rad}; None is the identity."""
    if orientation is None:
        q = [1.0, 0.0, 0.0, 0.0]
    elif isinstance(orientation, dict):
        a = orientation["axis"]
        angle = (math.radians(orientation["angle_deg"]) if "angle_deg" in orientation
                 else orientation["angle_rad"])
        n = norm(a)
        q = [math.cos(angle / 2)] + [math.sin(angle / 2) * x / n for x in a]
    else:
        n = norm(orientation)
        q = [x / n for x in orientation]
    w, x, y, z = q
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]


def keep_off_flat_directions(body, v, w):
    """A superellipsoid of exponent above 2 is flat across its coordinate
    planes: where its floor contact lies on one (the rocking block's,
    tilted about its x axis) and is turned across it, the contact point's
    rate is unbounded at that instant, which nsed refuses ("degenerate
    geometry"). The floor's normal n (body axes) leaves plane k at the rate
    (w x n)_k, so the body-axis angular velocity w keeps only its
    component k, and the velocity v (world) loses its component along the
    plane's normal R e_k, whose friction would turn the body across it:
    the start stays a planar motion in that plane (exactly, not to
    round-off). Returns (v, w)."""
    shape = body.get("shape") or {}
    if shape.get("type") != "superellipsoid" or not shape.get("exponent", 2) > 2:
        return v, w
    r = body_rotation(body.get("orientation"))
    n = [r[2][k] for k in range(3)]  # the world's z in body axes
    v, w = list(v), list(w)
    for k in range(3):
        if abs(n[k]) > 1e-12:
            continue
        w[(k + 1) % 3] = w[(k + 2) % 3] = 0.0
        e = [r[i][k] for i in range(3)]  # horizontal, since n[k] = 0
        along = sum(x * y for x, y in zip(v, e))
        v = [x - along * y for x, y in zip(v, e)]
    return v, w


def draw_start(doc, rng):
    """The overrides of one random start."""
    if perturbable(doc) == "vehicle":
        vx, vy, spin = (rng.uniform(-1, 1) for _ in range(3))
        return [f"omni_vehicle.velocity=[{vx!r}, {vy!r}]", f"omni_vehicle.spin={spin!r}"]
    sets = []
    for b in doc["bodies"]:
        v = list(b.get("velocity") or [0.0, 0.0, 0.0])
        w = list(b.get("angular_velocity") or [0.0, 0.0, 0.0])
        sv, sw = norm(v) + 0.5, norm(w) + 5.0
        v = [v[0] + rng.uniform(-sv, sv), v[1] + rng.uniform(-sv, sv), v[2]]
        w = [x + rng.uniform(-sw, sw) for x in w]
        v, w = keep_off_flat_directions(b, v, w)
        sets += [f"bodies.{b['name']}.velocity={v!r}", f"bodies.{b['name']}.angular_velocity={w!r}"]
    return sets


def needs_polygon(doc):
    """Exact torsional friction is posed on the polygon forms only."""
    contacts = doc.get("contacts") or []
    return any(isinstance(c, dict) and c.get("torsion") for c in contacts)


def crash_class(returncode):
    """What ended a run that wrote no summary: a signal (an abort inside a
    library, a segfault) is a crash, a defect whatever the start; an exit
    status is nsed refusing the start (2: bad input)."""
    if returncode < 0:
        try:
            return f"crash ({signal.Signals(-returncode).name})"
        except ValueError:
            return f"crash (signal {-returncode})"
    return f"exit status {returncode}"


def failure_class(summary):
    """The check or error that stopped a run, in a word or two."""
    msg = summary.get("message", "")
    m = re.search(r"\(check (\w+):", msg)
    if m:
        return m.group(1)
    for key, word in (("inconsistent mode", "inconsistent mode"), ("event storm", "event storm"),
                      ("changed a mode (the phase returns to the same boundary", "stall"),
                      ("not solved", "event problem"), ("Painlev", "Painleve-like"),
                      ("no slip direction", "onset direction"), ("degenerate geometry", "degenerate geometry"),
                      ("inconsistent", "inconsistent equations")):
        if key in msg:
            return word
    return summary.get("status_code", "")


def law_broken(summary):
    """The checks of an "ok" run beyond their tolerance (a wrong answer):
    every check summary.json's law monitor reports, whatever its name."""
    out = []
    for name, c in sorted((summary.get("law_monitor") or {}).items()):
        if isinstance(c, dict) and c.get("count") and c.get("tolerance") and c["worst"] < -c["tolerance"]:
            out.append(name)
    return out


def static_surfaces(doc):
    """No floor or plane moves (a belt's velocity, a turntable's spin): then
    the contacts can only take energy away (plastic impacts, Coulomb
    friction), and settling impulses remove residual velocities only."""
    surfaces = [doc.get("floor") or {}] + list(doc.get("planes") or [])
    for s in surfaces:
        if not isinstance(s, dict):
            continue
        if any(float(x) != 0.0 for x in (s.get("velocity") or [])) or float(s.get("spin") or 0.0) != 0.0:
            return False
    return True


def energy_gained(summary, passive, rtol=DEFAULT_RTOL):
    """The contacts' work beyond the energy balance's own accuracy on a
    problem whose surfaces do not move (a passive floor): energy that the
    event step or the contact forces put in, an answer wrong however its
    laws check (docs/reliability.md, "Random starts"). 0 where none."""
    w = summary.get("work_contacts")
    if not passive or w is None:
        return 0.0
    bound = max(PASSIVE_TOL, PASSIVE_PER_RTOL * rtol) * (1.0 + abs(summary.get("energy_initial") or 0.0))
    return w if w > bound else 0.0


def tolerances(doc, sets=()):
    """A run's rtol and atol: the last `solver.rtol=` / `solver.atol=` of
    its overrides, else the file's, else nsed's defaults."""
    solver = doc.get("solver") if isinstance(doc.get("solver"), dict) else {}
    tol = {"rtol": float(solver.get("rtol", DEFAULT_RTOL)), "atol": float(solver.get("atol", DEFAULT_ATOL))}
    for s in sets:
        key, _, value = s.partition("=")
        if key.strip() in ("solver.rtol", "solver.atol"):
            tol[key.strip()[7:]] = float(value)
    return tol["rtol"], tol["atol"]


def read_rows(path):
    try:
        with open(path, newline="") as f:
            return list(csv.reader(f))
    except OSError:
        return []


def compare_runs(first, second):
    """Two runs' output directories: (same events, largest event-time
    difference, largest relative final-state difference); None where a
    figure cannot be formed (sequences differ, or no final row)."""
    ea, eb = read_rows(os.path.join(first, "events.csv"))[1:], read_rows(os.path.join(second, "events.csv"))[1:]
    same = len(ea) == len(eb) and all(a[1:5] == b[1:5] for a, b in zip(ea, eb))
    dt = max((abs(float(a[0]) - float(b[0])) for a, b in zip(ea, eb)), default=0.0) if same else None
    ta, tb = read_rows(os.path.join(first, "trajectory.csv")), read_rows(os.path.join(second, "trajectory.csv"))
    dx = None
    if len(ta) > 1 and len(tb) > 1 and ta[-1][0] == tb[-1][0]:
        dx = 0.0
        for x, y in zip(ta[-1][1:], tb[-1][1:]):
            try:
                dx = max(dx, abs(float(x) - float(y)) / (1 + abs(float(y))))
            except ValueError:
                pass
    return same, dt, dx


def run_one(nsed, problem, form, sets, t_end, timeout, out, passive=True, rtol=DEFAULT_RTOL):
    path = os.path.join(ROOT, "problems", problem + ".yaml")
    cmd = [nsed, "run", path, "-o", out, "--quiet"]
    for s in sets + FORMS[form] + ([f"solver.t_end={t_end:g}"] if t_end else []):
        cmd += ["--set", s]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    row = dict.fromkeys(COLUMNS, "")
    row.update(problem=problem, form=form, overrides=" ".join(f"--set '{s}'" for s in sets + FORMS[form]))
    t0 = time.monotonic()
    try:
        proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        row.update(status="timeout", wall_s=round(time.monotonic() - t0, 3))
        return row
    row["wall_s"] = round(time.monotonic() - t0, 3)
    summary = os.path.join(out, "summary.json")
    if not os.path.exists(summary):
        lines = proc.stderr.strip().splitlines()
        row.update(status="no summary", message=lines[-1] if lines else "",
                   failure=crash_class(proc.returncode))
        return row
    with open(summary) as f:
        s = json.load(f)
    row.update(status=s["status"], t_end=s.get("t_end"), t_reached=s.get("t_reached"),
               events=s.get("events"), message=s.get("message", ""),
               energy_initial=s.get("energy_initial"), work_contacts=s.get("work_contacts"))
    if s["status"] == "ok":
        broken = law_broken(s)
        if broken:
            row.update(status="ok, law broken", failure=",".join(broken))
    else:
        row["failure"] = failure_class(s)
    gained = energy_gained(s, passive, rtol)
    if gained > 0:
        row.update(status="energy gained", failure=f"contacts' work +{gained:.3g} J")
    return row


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="build directory (default build/)")
    ap.add_argument("--problems", nargs="+", metavar="NAME", help="shipped problems (default: every one with free bodies or an omni_vehicle block)")
    ap.add_argument("--runs", type=int, default=10, help="random starts per problem (default 10)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--t-end", type=float, default=0.0, help="simulated time of every run (default: each file's own)")
    ap.add_argument("--timeout", type=float, default=60.0, help="wall seconds a run may take (default 60)")
    ap.add_argument("--csv", metavar="FILE", help="also write every run as CSV")
    ap.add_argument("--tighter", type=float, metavar="F",
                    help="run each start again at the run's rtol and atol divided by F and compare")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="an override for every run, after its drawn start (repeatable)")
    args = ap.parse_args(argv)
    if args.runs < 1 or args.timeout <= 0 or args.t_end < 0:
        ap.error("--runs must be >= 1, --timeout > 0 and --t-end >= 0")
    for s in args.set:
        key, eq, value = s.partition("=")
        if not eq or not key.strip() or not value.strip():
            ap.error(f"--set {s!r}: expected KEY=VALUE")
    nsed = os.path.join(args.build, "src", "cli", "nsed")
    if not os.access(nsed, os.X_OK):
        ap.error(f"no nsed program at {nsed} (build first, or give --build)")
    names = args.problems or shipped_problems()
    docs = {}
    for name in names:
        path = os.path.join(ROOT, "problems", name + ".yaml")
        if not os.path.exists(path):
            ap.error(f"no shipped problem {name} ({path})")
        with open(path) as f:
            docs[name] = yaml.safe_load(f)
        if not perturbable(docs[name]):
            ap.error(f"{name}: no free bodies (or joints between them) and no omni_vehicle block: "
                     "its start cannot be drawn")
    rng = random.Random(args.seed)
    rows = []
    if args.tighter is not None and not args.tighter > 1:
        ap.error("--tighter must be > 1")
    tmp = tempfile.mkdtemp(prefix="nsed_random_starts_")
    try:
        for k in range(args.runs):
            for name in names:
                sets = draw_start(docs[name], rng)
                forms = ["own"] if needs_polygon(docs[name]) else list(FORMS)
                form = rng.choice(forms)
                out = os.path.join(tmp, "run")
                shutil.rmtree(out, ignore_errors=True)
                passive = static_surfaces(docs[name])
                rtol, atol = tolerances(docs[name], args.set)
                row = run_one(nsed, name, form, sets + args.set, args.t_end, args.timeout, out, passive, rtol)
                rows.append(row)
                tight = ""
                if args.tighter:
                    tsets = sets + args.set + [f"solver.rtol={rtol / args.tighter!r}",
                                               f"solver.atol={atol / args.tighter!r}"]
                    out2 = os.path.join(tmp, "tight")
                    shutil.rmtree(out2, ignore_errors=True)
                    trow = run_one(nsed, name, form, tsets, args.t_end, args.timeout, out2, passive,
                                   rtol / args.tighter)
                    same, dt, dx = compare_runs(out, out2)
                    row.update(tight_status=trow["status"], tight_events="same" if same else "differ",
                               tight_event_dt="" if dt is None else dt, tight_state_diff="" if dx is None else dx)
                    tight = (f"  tighter: {trow['status']}, events {row['tight_events']}, "
                             f"dt {'-' if dt is None else f'{dt:.1e}'}, state {'-' if dx is None else f'{dx:.1e}'}")
                print(f"{name:<28} {form:<7} {row['status']:<15} t {row['t_reached'] or '-':<22} "
                      f"events {row['events'] if row['events'] != '' else '-':<7} {row['wall_s']:>7} s  "
                      f"{row['failure']}{tight}", flush=True)
                if args.csv:
                    with open(args.csv, "w", newline="") as f:
                        wr = csv.DictWriter(f, fieldnames=COLUMNS)
                        wr.writeheader()
                        wr.writerows(rows)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print()
    wrong = ("ok, law broken", "energy gained")
    print("| problem | runs | completed | failed (by what stopped them) | timed out | ok, law broken | energy gained |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        mine = [r for r in rows if r["problem"] == name]
        fails = collections.Counter(r["failure"] for r in mine if r["status"] not in ("ok", "timeout") + wrong)
        text = ", ".join(f"{n} {w}" for w, n in fails.most_common()) or "0"
        print(f"| {name} | {len(mine)} | {sum(r['status'] == 'ok' for r in mine)} | {text} | "
              f"{sum(r['status'] == 'timeout' for r in mine)} | {sum(r['status'] == wrong[0] for r in mine)} | "
              f"{sum(r['status'] == wrong[1] for r in mine)} |")
    if args.tighter:
        print()
        print(f"| problem | both ok | events the same | largest event-time difference | largest final-state "
              f"difference | outcome changed at rtol / {args.tighter:g} |")
        print("|---|---|---|---|---|---|")
        for name in names:
            mine = [r for r in rows if r["problem"] == name]
            both = [r for r in mine if r["status"] == "ok" and r["tight_status"] == "ok"]
            same = [r for r in both if r["tight_events"] == "same"]
            dts = [r["tight_event_dt"] for r in same if r["tight_event_dt"] != ""]
            dxs = [r["tight_state_diff"] for r in both if r["tight_state_diff"] != ""]
            changed = sum((r["status"] == "ok") != (r["tight_status"] == "ok") for r in mine)
            print(f"| {name} | {len(both)} | {len(same)} | {max(dts):.1e} | " if dts else f"| {name} | {len(both)} | {len(same)} | - | ",
                  end="")
            print(f"{max(dxs):.1e} | {changed} |" if dxs else f"- | {changed} |")
    return 1 if any(w in (r["status"], r["tight_status"]) for r in rows for w in wrong) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
