#!/usr/bin/python3
"""The omni-vehicle campaign (bench/vehicle_campaign.py), sampled: how it
counts handovers, lift-offs and landings, on event lists made by hand; then
a subset of its configurations (10 units; 1 s for the SI vehicle) run
through the script, each row checked against what a clean run must show, and its handover count against
the wheels' own rotation, an independent count; and a campaign interrupted
after its first row keeps that row.

    test_vehicle_campaign.py SOURCE_ROOT BUILD_DIR

A roller wheel of n rollers hands its contact over each time it turns by
2 pi / n about its axle (the rollers' sectors, docs/rollers.md), so over a
run without lift-offs its handovers lie between |net turn| / sector - 1 and
total turn / sector + 1 + reversals: a wheel that reverses its spin can
cross the same sector edge again at no extra turn (a mecanum wheel rocking
on an edge, docs/omni-vehicle.md). The turn comes from trajectory.csv, the
wheel's angular velocity about its axle (body z) integrated by the
trapezoid rule, the reversals from its sign changes there (the file has a
row at every event, so each edge crossing's spin is seen): nothing of the
event list is used."""
import csv
import importlib.util
import json
import math
import os
import signal
import subprocess
import sys
import tempfile
import time

SPIN = "omni_vehicle.velocity=[0, 0]"

# (problem, tracking, form, horizon, overrides): every tracking and form
# once, both drives, both unit systems
SAMPLE = [
    ("omni_vehicle_coast", "differential", "face", 10.0, []),
    ("omni_vehicle_drive", "implicit", "vertex", 10.0, []),  # its rollers never saturate
    # the vertex form through its rollers' saturations: each starts slipping
    # on the inscribed polygon's boundary (docs/friction-models.md, "(c) The
    # vertex form slides on its polygon"); it stopped at the first, t = 0.357
    ("omni_vehicle_coast", "explicit", "vertex", 10.0, []),
    ("omni_vehicle_wander", "explicit", "face", 10.0, []),
    # Gerasimov and Zobova's vehicle: no wheel lifts off at its handovers
    # (docs/rollers.md, "Handovers are events"), and a roller slipped on
    # from a stick whose stabilisation took 27 times the round-off floor
    # (docs/engine.md, "Stick to slip")
    ("omni_vehicle_coast_gz", "explicit", "cone", 1.0, []),
    # and in the face form its 10 s: at t = 9.97089 an onset on the polygon's
    # force, with a stick the circle's force had posed as slipping left so,
    # could not be resolved (docs/engine.md, "Onsets the circle does not admit")
    ("omni_vehicle_coast_gz", "implicit", "face", 10.0, []),
    # the campaign's overrides reach the runs
    ("omni_vehicle_drive", "explicit", "face", 10.0, ["omni_vehicle.contact.mu=0.3"]),
    # spinning in place from rest: an onset's residual on dependent rows ran
    # it backwards at t = 3.927 (docs/engine-history.md); by symmetry its
    # centre stays put and its three wheels hand over together. Later it
    # stops at a Painleve-like indeterminacy on nearly dependent rows,
    # anywhere from t = 3.927 to 23 as round-off decides (docs/omni-vehicle.md,
    # "Spinning in place from rest"): the run must complete or stop there,
    # with that message and the law monitor clean
    ("omni_vehicle_coast", "explicit", "face", 10.0, [SPIN]),
    # differential tracking through the mecanum coast's slow rocking: its
    # integrated coordinates froze in the region band before a handover and
    # drifted off the profile at t = 3.33 and 4.56 (docs/rollers.md,
    # "Tracking across the band")
    ("omni_vehicle_coast_mecanum", "differential", "cone", 5.0, []),
]
failures = []
# the documented open problem a spinning-in-place run may stop at
INDETERMINATE = "a Painleve-like indeterminacy of the rigid model"


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def load_campaign(root):
    spec = importlib.util.spec_from_file_location("vehicle_campaign",
                                                  os.path.join(root, "bench", "vehicle_campaign.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def counting_rules(vc):
    """Handovers, lift-offs and landings on event lists whose answers are known."""
    start = {"w0_roller0_floor": "stick", "w0_roller1_floor": "open",
             "w1_roller0_floor": "slip", "w1_roller1_floor": "open", "other": "stick"}
    cases = [
        ("a handover", [(1.0, "w0_roller0_floor", "open"), (1.0, "w0_roller1_floor", "slip")], (1, 0, 0)),
        ("a lift-off, then a landing",
         [(1.0, "w1_roller0_floor", "open"), (2.0, "w1_roller1_floor", "stick")], (0, 1, 1)),
        ("a second contact closing is not a handover", [(1.0, "w0_roller1_floor", "slip")], (0, 0, 0)),
        ("stick-slip changes and other contacts count nothing",
         [(1.0, "w0_roller0_floor", "slip"), (1.5, "other", "open"), (2.0, "w0_roller0_floor", "stick")],
         (0, 0, 0)),
        ("two wheels handing over at one instant",
         [(1.0, "w0_roller0_floor", "open"), (1.0, "w0_roller1_floor", "slip"),
          (1.0, "w1_roller0_floor", "open"), (1.0, "w1_roller1_floor", "slip")], (2, 0, 0)),
        ("a lift-off and landing of the same wheel at different instants is no handover",
         [(1.0, "w0_roller0_floor", "open"), (1.2, "w0_roller1_floor", "slip")], (0, 1, 1)),
    ]
    for what, events, want in cases:
        got = vc.wheel_transitions(dict(start), events)
        check(got == want, f"counting: {what}: {got} (want {want})")


def wheel_turns(traj_csv, wheel):
    """(net turn, total turn, spin reversals) of a wheel about its axle (rad),
    from its body-z rate."""
    t_prev = w_prev = None
    net = total = 0.0
    reversals = 0
    with open(traj_csv, newline="") as f:
        for row in csv.DictReader(f):
            t, w = float(row["t"]), float(row[wheel + ".wz"])
            if t_prev is not None:
                net += 0.5 * (w + w_prev) * (t - t_prev)
                # |w| integrated: exact between samples of one sign
                if w * w_prev >= 0:
                    total += 0.5 * abs(w + w_prev) * (t - t_prev)
                else:
                    reversals += 1
                    total += 0.5 * (w * w + w_prev * w_prev) / abs(w - w_prev) * (t - t_prev)
            t_prev, w_prev = t, w
    return net, total, reversals


def sampled_runs(vc, root, build):
    with tempfile.TemporaryDirectory() as work:
        rows = []
        for k, (problem, tr, fo, horizon, sets) in enumerate(SAMPLE):
            keep, table = os.path.join(work, f"run{k}"), os.path.join(work, f"table{k}.csv")
            cmd = ["/usr/bin/python3", os.path.join(root, "bench", "vehicle_campaign.py"),
                   "--build", build, "--units", str(horizon), "--si-seconds", str(horizon),
                   "--problems", problem, "--tracking", tr, "--forms", fo, "--keep", keep,
                   "--csv", table]
            for s in sets:
                cmd += ["--set", s]
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            check(proc.returncode == 0 or SPIN in sets, f"campaign {problem} {tr} {fo} {sets}: exit "
                  f"{proc.returncode} {proc.stderr.strip()[-300:]}")
            check("| problem | tracking | form |" in proc.stdout, "the table is printed")
            with open(table, newline="") as f:
                for r in csv.DictReader(f):
                    r["dir"] = os.path.join(keep, f"{r['problem']}.{tr}.{fo}")
                    r["sets"] = sets
                    rows.append(r)
        check(len(rows) == len(SAMPLE), f"{len(rows)} rows for {len(SAMPLE)} configurations")
        for r in rows:
            name = f"{r['problem']} {r['tracking']} {r['form']} {' '.join(r['sets'])}"
            completed = r["status"] == "ok" and abs(float(r["t_reached"]) - float(r["t_end"])) < 1e-12
            if SPIN in r["sets"] and not completed:
                check(r["status"] == "failed" and INDETERMINATE in r["message"],
                      f"{name}: stops only at the documented indeterminacy (t = {r['t_reached']}: "
                      f"{r['message'][:200]})")
            else:
                check(completed, f"{name}: completes ({r['status']} at {r['t_reached']}) {r['message']}")
            check(float(r["law_margin"]) > -1.0,
                  f"{name}: law monitor clean (worst margin {float(r['law_margin']):.3g} of "
                  f"its tolerance, {r['law_check']})")
            check(float(r["penetration"]) < 1e-9, f"{name}: penetration {r['penetration']} < 1e-9")
            check(float(r["energy_balance_rel"]) < 1e-8,
                  f"{name}: energy balance {r['energy_balance_rel']} of the energy that flowed < 1e-8")
            check(int(r["liftoffs"]) == int(r["landings"]) or int(r["liftoffs"]) == int(r["landings"]) + 1,
                  f"{name}: lift-offs {r['liftoffs']}, landings {r['landings']}: each landing follows one")
            if r["tracking"] == "differential":
                # below the region band (1e-9), the residual the frozen states left
                check(r["track_residual"] != "" and float(r["track_residual"]) < 1e-10,
                      f"{name}: tangency residual of the tracked coordinates "
                      f"{r['track_residual']} < 1e-10")
            if r["problem"] == "omni_vehicle_coast_gz":
                check(int(r["liftoffs"]) == 0 and int(r["impacts"]) == 0,
                      f"{name}: no wheel lifts off ({r['liftoffs']}) and nothing strikes "
                      f"({r['impacts']} impacts)")
            if r["problem"] == "omni_vehicle_coast_gz" and r["form"] == "face":
                with open(os.path.join(r["dir"], "summary.json")) as f:
                    off = json.load(f).get("onsets_off_circle", 0)
                check(off >= 1, f"{name}: an onset started on the polygon's force ({off} events)")
            if r["sets"]:
                with open(os.path.join(r["dir"], "summary.json")) as f:
                    got = json.load(f).get("overrides", [])
                check(all(s in got for s in r["sets"]), f"{name}: the overrides {r['sets']} "
                      f"reach the run ({got})")
            handover_check(vc, r, name)
            if SPIN in r["sets"]:
                symmetry_check(vc, r, name, completed)


def symmetry_check(vc, r, name, completed):
    """Three identical wheels 120 degrees apart spinning the vehicle in place:
    the contact forces' horizontal resultant vanishes by symmetry, so the
    centre stays where it started (to what the events' round-off breaks of
    the symmetry), and the wheels hand over at the same instants (a run
    stopped at one wheel's event may have one handover fewer on the others)."""
    drift = 0.0
    with open(os.path.join(r["dir"], "trajectory.csv"), newline="") as f:
        for row in csv.DictReader(f):
            drift = max(drift, math.hypot(float(row["platform.x"]), float(row["platform.y"])))
    # The drift grows from round-off (1e-12 m at the first handover) through
    # the wheels' nearly simultaneous handover cascades, knife-edges whose
    # order round-off decides (a wheel sticking for 5e-9 s during another's
    # handover, or not): measured at 10 units, 3.7e-9 m with the
    # interpolant's event times and 8.7e-7 m with events landed on the
    # steps (docs/engine.md, "Landing on events"); a plain `nsed run` of the
    # file drifts 8.7e-7 m either way; 1e-5 m bounds that tenfold.
    check(drift < 1e-5, f"{name}: the centre stays put ({drift:.2e} m < 1e-5)")
    times = {}
    with open(os.path.join(r["dir"], "events.csv"), newline="") as f:
        for e in csv.DictReader(f):
            if e["kind"] == "close" and vc.wheel_of(e["contact"]):
                times.setdefault(vc.wheel_of(e["contact"]), []).append(float(e["t"]))
    counts = {w: len(v) for w, v in times.items()}
    same = len(counts) == 3 and max(counts.values()) - min(counts.values()) <= (0 if completed else 1)
    spread = max(max(v[k] for v in times.values()) - min(v[k] for v in times.values())
                 for k in range(min(counts.values()))) if same else math.inf
    # the centre's drift (R = 1, the wheels turning at ~1 rad/s) shifts
    # the wheels' angles, and so their handovers, by as much: 1e-7 s
    check(same and spread < 1e-7, f"{name}: the three wheels hand over together ({counts} "
          f"closings, at most {spread:.2e} s apart)")


def handover_check(vc, r, name):
    """Each wheel's handovers against its turn about the axle (no lift-offs only)."""
    modes = vc.initial_modes(os.path.join(r["dir"], "contacts.csv"))
    events = vc.read_events(os.path.join(r["dir"], "events.csv"))
    wheels = sorted({vc.wheel_of(c) for c in modes if vc.wheel_of(c)})
    n_rollers = sum(1 for c in modes if vc.wheel_of(c) == wheels[0])
    sector = 2 * math.pi / n_rollers
    total = 0
    for w in wheels:
        own = {c: m for c, m in modes.items() if vc.wheel_of(c) == w}
        h, lo, _ = vc.wheel_transitions(own, [e for e in events if vc.wheel_of(e[1]) == w])
        total += h
        if lo:
            continue
        net, turned, rev = wheel_turns(os.path.join(r["dir"], "trajectory.csv"), w)
        lo_b, hi_b = abs(net) / sector - 1, turned / sector + 1 + rev
        check(lo_b <= h <= hi_b, f"{name}: {w} hands over {h} times, turning {net:.3f} rad net, "
              f"{turned:.3f} in all (sector {sector:.4f}), reversing {rev} times: between "
              f"{lo_b:.2f} and {hi_b:.2f}")
    check(total == int(r["handovers"]), f"{name}: the wheels' handovers add up to the table's "
          f"({total} and {r['handovers']})")


def interrupted_campaign(root, build):
    """Ctrl-C after the first of two rows: the campaign exits 130, prints the
    row that ran, and its CSV (rewritten as each row finishes) keeps it."""
    with tempfile.TemporaryDirectory() as work:
        table = os.path.join(work, "table.csv")
        cmd = ["/usr/bin/python3", os.path.join(root, "bench", "vehicle_campaign.py"),
               "--build", build, "--units", "40", "--problems", "omni_vehicle_drive",
               "--tracking", "explicit", "implicit", "--forms", "face", "--csv", table]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 600
        rows = []
        while time.monotonic() < deadline and proc.poll() is None:
            if os.path.exists(table):
                with open(table, newline="") as f:
                    rows = list(csv.DictReader(f))
                if rows:
                    break
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        check(len(rows) == 1 and rows[0]["tracking"] == "explicit",
              f"the CSV holds the first row as soon as it ran ({len(rows)} rows)")
        check(proc.returncode == 130, f"interrupted campaign exits 130 (got {proc.returncode}: "
              f"{err.strip()[-300:]})")
        check("interrupted after 1 of 2 rows" in err, "it says how many rows ran")
        check("| omni_vehicle_drive | explicit | face | ok |" in out, "its table has the row that ran")
        with open(table, newline="") as f:
            final = list(csv.DictReader(f))
        check(len(final) == 1, f"the CSV keeps the row that ran ({len(final)} rows)")


def failed_problem_kept(root, build):
    """A row that stops on an event problem it cannot solve (forced: Lemke
    limited to one pivot on nsed's path) keeps that problem with --failed,
    names it in the CSV, and `nsed cp` solves it on the default path."""
    with tempfile.TemporaryDirectory() as work:
        table, kept = os.path.join(work, "table.csv"), os.path.join(work, "failed")
        cmd = ["/usr/bin/python3", os.path.join(root, "bench", "vehicle_campaign.py"),
               "--build", build, "--units", "1", "--problems", "omni_vehicle_drive",
               "--tracking", "explicit", "--forms", "face", "--csv", table, "--failed", kept,
               "--set", "friction.max_pivots=1", "--set", "friction.path=nsed"]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        path = os.path.join(kept, "omni_vehicle_drive.explicit.face.txt")
        check(p.returncode == 1 and os.path.isfile(path),
              f"the failed row exits 1 and keeps its event problem (exit {p.returncode})")
        with open(table, newline="") as f:
            rows = list(csv.DictReader(f))
        check(len(rows) == 1 and rows[0]["failed_problem"] == path,
              f"the CSV names the kept problem ({[r.get('failed_problem') for r in rows]})")
        if os.path.isfile(path):
            nsed = os.path.join(build, "src", "cli", "nsed")
            s = subprocess.run([nsed, "cp", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            check(s.returncode == 0 and "solved 1 of 1" in s.stdout,
                  f"nsed cp solves the kept problem (exit {s.returncode})")


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: test_vehicle_campaign.py SOURCE_ROOT BUILD_DIR")
    root, build = argv[1], argv[2]
    vc = load_campaign(root)
    counting_rules(vc)
    sampled_runs(vc, root, build)
    interrupted_campaign(root, build)
    failed_problem_kept(root, build)
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
