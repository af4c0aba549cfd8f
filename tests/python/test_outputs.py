#!/usr/bin/python3
"""One source of truth for a run's outputs, seen from Python.

Usage: test_outputs.py SOURCE_ROOT LIBNSED_SO NSED_EXE [B_SANITIZE [HAVE_HDF5]]

The same problem run in memory (nsed.run without outdir: libnsed's
recorder and nsed_summary_json), by `nsed run -o DIR` (CSV) and by
`nsed run --format hdf5` gives identical arrays, read by the one reader
(nsed.read_result), and identical summaries but for the wall times, with
the same keys in the same order. Neither the CSV nor the in-memory
trajectory has a duplicated row (the same instant and state twice). A
recording that outgrows its first buffers, a failed run, Ctrl-C during an
in-memory run without a progress callback, and the reader's messages on
malformed files are checked too. Exit 77 (skipped) for a sanitizer build.
"""

import math
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # also for harness: nothing written into the sources
from harness import Checks, binding_args  # noqa: E402

ROOT, LIB, EXE, *REST = binding_args(3)
HAVE_HDF5 = (REST[0] if REST else "false") == "true"

import numpy as np  # noqa: E402

import nsed  # noqa: E402

WALL = ("wall_seconds", "monitor_seconds")
check = Checks()


def cli(problem, outdir, sets=(), fmt="csv"):
    args = [EXE, "run", problem, "-o", outdir, "--quiet", "--format", fmt]
    for s in sets:
        args += ["--set", s]
    return subprocess.run(args, capture_output=True, text=True)


def same_array(a, b):
    """Field names, row count and every value equal (numbers bit for bit)."""
    if a.dtype.names != b.dtype.names or len(a) != len(b):
        return False
    for f in a.dtype.names:
        x, y = a[f], b[f]
        if x.dtype.kind in "fi":
            if x.dtype != y.dtype or x.tobytes() != y.tobytes():
                return False
        elif list(x) != list(y):
            return False
    return True


def duplicated_rows(result):
    """Consecutive rows with the same t, the same state and the same contact
    rows, bit for bit (a pre-event row and the row after a stick-slip event
    share t and state but not their contacts' modes and forces)."""
    trajectory = result.trajectory
    m = trajectory.view(np.float64).reshape(len(trajectory), -1)
    if len(m) < 2:
        return 0
    same = (m[1:, 0] == m[:-1, 0]) & np.all(m[1:, 1:].view(np.uint64) == m[:-1, 1:].view(np.uint64),
                                            axis=1)
    nc = len(result.contact_names)
    if nc:
        c = result.contacts
        numbers = np.stack([c[k] for k in ("gap", "lambda_n", "lambda_t1", "lambda_t2",
                                           "slip_speed")], axis=-1).reshape(len(m), nc, 5)
        modes = c["mode"].reshape(len(m), nc)
        same &= np.all(modes[1:] == modes[:-1], axis=1)
        same &= np.all(numbers[1:].view(np.uint64) == numbers[:-1].view(np.uint64), axis=(1, 2))
    return int(same.sum())


def static_limit_ratio(row, law):
    """How far lambda_t is along its way to the static friction set of
    mu0 lambda_n: 1 on its boundary. The set is the polygon or circle of
    docs/complementarity.md: face form, faces with outward normals at the
    angles 2 pi j / m at distance mu0 lambda_n; vertex form, the inscribed
    polygon with vertices there; cone, the circle."""
    lt = (row["lambda_t1"], row["lambda_t2"])
    limit = law["mu0"] * row["lambda_n"]
    if law["friction"] == "exact_cone":
        return math.hypot(*lt) / limit
    m = law["sides"]
    if law["friction"] == "polygon_face":
        phases, reach = [2 * math.pi * j / m for j in range(m)], limit
    else:
        phases = [(2 * j + 1) * math.pi / m for j in range(m)]
        reach = limit * math.cos(math.pi / m)
    return max(lt[0] * math.cos(a) + lt[1] * math.sin(a) for a in phases) / reach


def check_pre_event_rows(name, r, law=None):
    """Every event has a row just before it at its time and one after it;
    the modes change between them as the event says; at a stick-to-slip
    onset the pre-event row's friction is on the static limit (the friction
    model's polygon or circle of mu0 lambda_n). Returns (events checked, the
    worst onset's |ratio - 1|)."""
    t = r.trajectory["t"]
    nc = len(r.contact_names)
    c = r.contacts
    names = c["contact"].reshape(len(t), nc)[0] if nc else []
    checked, worst, impacts = 0, 0.0, [0]
    failed_at = [f["t"] for f in r.events if f["kind"] == "failure"]
    for e in r.events:
        if e["kind"] in ("failure", "time", "zeno") or not e["contact"] or e["t"] in failed_at:
            continue   # a failed event has no row after it
        rows = np.nonzero(t == e["t"])[0]
        if len(rows) < 2:
            check(False, f"{name}: event {e['kind']} at t = {e['t']!r} has {len(rows)} row(s)")
            continue
        k = list(names).index(e["contact"])
        before = c[rows[0] * nc + k]
        after = c[rows[-1] * nc + k]
        # A spin event's modes are the contact's spin modes (column spin).
        col = "spin" if e["kind"].startswith("spin_") else "mode"
        check(before[col] == e["from"] and after[col] == e["to"],
              f"{name}: {e['kind']} at t = {e['t']!r}: rows say {before[col]} -> "
              f"{after[col]}, events.csv {e['from']} -> {e['to']}")
        if e["kind"] == "impact" and law and r.contact_names == ("ball_floor",):
            # Newton's law on a sphere on z = 0: v_z+ = -e v_z-, the pre-impact
            # velocity in the row before, the post-impact one in the row after.
            # The impulse in events.csv is the momentum change m (v_z+ - v_z-).
            vb, va = r.trajectory["ball.vz"][rows[0]], r.trajectory["ball.vz"][rows[-1]]
            check(vb < 0 and abs(va + law["restitution"] * vb) <= 1e-12 * abs(vb) + 1e-15,
                  f"{name}: impact at t = {e['t']!r}: v_z {vb!r} -> {va!r}, "
                  f"e = {law['restitution']}")
            mass = r.summary["geometry"]["bodies"][0]["mass"]
            check(abs(e["impulse_n"] - mass * (va - vb)) <= 1e-12 * abs(vb) + 1e-15
                  and e["impulse_t1"] == 0 and e["impulse_t2"] == 0,
                  f"{name}: impact at t = {e['t']!r}: impulse {e['impulse_n']!r}, "
                  f"m (v+ - v-) = {mass * (va - vb)!r}")
            impacts[0] += 1
        if e["kind"] == "slip" and e["from"] == "stick" and law:
            ratio = static_limit_ratio(before, law)
            check(abs(ratio - 1) <= 1e-6,
                  f"{name}: onset at t = {e['t']!r}: friction / static limit = {ratio!r} "
                  "before it (must be on the limit)")
            worst = max(worst, abs(ratio - 1))
        checked += 1
    if impacts[0]:
        print(f"{name}: {impacts[0]} impacts: v_z after = -e v_z before in their rows")
    return checked, worst


def without_wall(summary):
    return {k: v for k, v in summary.items() if k not in WALL}


def compare(name, mem, disk):
    for table in ("trajectory", "contacts", "events"):
        check(same_array(getattr(mem, table), getattr(disk, table)),
              f"{name}: {table} differs between the in-memory run and {disk.outdir}")
    # the step log (output.steps): steps.csv beside either format
    if mem.steps is None or disk.steps is None:
        check(mem.steps is None and disk.steps is None,
              f"{name}: steps recorded {mem.steps is not None} in memory, {disk.steps is not None} on disk")
    else:
        check(same_array(mem.steps, disk.steps) and len(mem.steps) == mem.summary["steps"],
              f"{name}: steps differ between the in-memory run and {disk.outdir}")
    check(list(mem.summary) == list(disk.summary),
          f"{name}: summary keys {list(mem.summary)} vs {list(disk.summary)}")
    a, b = without_wall(mem.summary), without_wall(disk.summary)
    check(a == b, f"{name}: summaries differ in "
          + ", ".join(f"{k}: {a.get(k)!r} vs {b.get(k)!r}" for k in set(a) | set(b)
                      if a.get(k) != b.get(k)))


def test_runs(tmp):
    problems = os.path.join(ROOT, "problems")
    cases = [
        ("sphere", "sphere_slide_roll.yaml", {}),
        ("spin", "ball_spin_slide.yaml", {}),                   # torsional friction, spin events
        ("ball", "bouncing_ball.yaml", {}),                      # impacts, the Zeno guard
        ("dos2", "disk_on_shaft_case2.yaml", {"solver.t_end": 3}),  # joints, stick-slip
        ("belt", "block_on_belt.yaml", {}),                      # a moving floor, time laws
        ("vehicle", "omni_vehicle_coast.yaml", {"solver.t_end": 0.5}),  # many contacts
        # the step log: one row per accepted step, rotor states named
        ("steps", "omni_vehicle_coast.yaml", {"solver.t_end": 0.5, "output.steps": True}),
        # 100001 output instants: the recorder outgrows its first buffers
        ("dense", "sphere_slide_roll.yaml", {"output.dt": 1e-5}),
        # fails after three events: the partial run and the failure row
        ("failed", "disk_on_shaft_case2.yaml", {"solver.max_events": 3}),
    ]
    for name, problem, over in cases:
        path = os.path.join(problems, problem)
        sets = nsed.override_strings(over)
        out = os.path.join(tmp, name)
        p = cli(path, out, sets)
        check(p.returncode == (1 if name == "failed" else 0),
              f"{name}: nsed run exit {p.returncode}: {p.stderr}")
        disk = nsed.read_result(out)
        mem = nsed.run(path, overrides=over, check=False)
        check(mem.outdir is None and disk.outdir == out, f"{name}: outdir attributes")
        compare(name, mem, disk)
        check(duplicated_rows(disk) == 0, f"{name}: trajectory.csv repeats a row")
        check(duplicated_rows(mem) == 0, f"{name}: the in-memory trajectory repeats a row")
        law = (disk.summary.get("contact_laws") or [None])[0]
        n, worst = check_pre_event_rows(name, disk, law)
        print(f"{name}: {n} events with their pre-event rows checked, worst onset "
              f"|friction / static limit - 1| = {worst:.3g}")
        check(len(mem.contacts) == len(mem.trajectory) * mem.summary["contacts"],
              f"{name}: one contact row per contact per trajectory row")
        if name == "dense":
            check(len(mem.trajectory) > 100000, f"dense: {len(mem.trajectory)} rows")
        if name == "failed":
            check(mem.summary["status"] == "failed" and mem.events["kind"][-1] == "failure",
                  f"failed: status {mem.summary['status']}, last event {mem.events['kind'][-1:]}")
        if name == "steps":
            st = mem.steps
            check(len(st) > 100 and st["first"][0] == 1 and np.all(st["error"] <= 1)
                  and int(st["rejected"].sum()) == mem.summary["error_test_failures"]
                  and all(lim.split(".")[0] in mem.body_names or lim.startswith("work_") for lim in st["limit"]),
                  f"steps: {st[:3]}")
        if HAVE_HDF5 and name in ("ball", "dos2", "vehicle", "failed", "steps"):
            h5 = os.path.join(tmp, name + "_h5")
            p = cli(path, h5, sets, fmt="hdf5")
            check(p.returncode == (1 if name == "failed" else 0),
                  f"{name}: nsed run --format hdf5 exit {p.returncode}: {p.stderr}")
            r = nsed.read_result(h5)
            check(r.files["trajectory"] == os.path.join(h5, "results.h5"), f"{name}: read {r.files}")
            compare(name + " (hdf5)", mem, r)


def test_summary_text(tmp):
    """The in-memory summary is summary.json's text: same keys, same order,
    the versions included."""
    path = os.path.join(ROOT, "problems", "sphere_slide_roll.yaml")
    r = nsed.run(path)
    for k in ("sundials_version", "siconos_version", "nsed_version", "law_monitor"):
        check(k in r.summary, f"in-memory summary lacks {k}")
    check(r.summary["problem"] == path and r.summary["overrides"] == [],
          f"problem and overrides recorded: {r.summary['problem']} {r.summary['overrides']}")


def test_interrupt(tmp):
    """SIGINT during an in-memory run without a progress callback stops it
    (Python runs the relay about ten times a second)."""
    # A child of a shell that ignores SIGINT (a job started with &) inherits
    # that: Python's own handler is put back, as in an interactive session.
    code = ("import signal, sys; sys.dont_write_bytecode = True; sys.path.insert(0, %r)\n"
            "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "import nsed\n"
            "print('start', flush=True)\n"
            "try:\n"
            "    nsed.run(%r, overrides={'solver.t_end': 1e6, 'output.dt': 0.01})\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted', flush=True)\n"
            % (os.path.join(ROOT, "python"), os.path.join(ROOT, "tests", "io", "good", "sphere.yaml")))
    proc = subprocess.Popen(["/usr/bin/python3", "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdout.readline()
    time.sleep(1.0)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    check("interrupted" in out and time.monotonic() - t0 < 10,
          f"SIGINT: {proc.returncode} {out!r} {err[-500:]!r}")


def test_reader_errors(tmp):
    """The reader names the file and the line of what it cannot read."""
    good = os.path.join(tmp, "good")
    check(cli(os.path.join(ROOT, "problems", "sphere_slide_roll.yaml"), good).returncode == 0,
          "sphere run")
    for f, edit, expect in (
            ("trajectory.csv", lambda lines: lines.__setitem__(3, lines[3].replace(",", ",x", 1)),
             "trajectory.csv line 4, column 'ball.x': cannot parse"),
            ("contacts.csv", lambda lines: lines.__setitem__(2, "0,ball_floor\n"),
             "contacts.csv line 3: expected 13 fields, found 2"),
            ("events.csv", lambda lines: lines.__setitem__(0, "t,kind\n"),
             "events.csv line 1: header lacks column(s) contact"),
            ("summary.json", lambda lines: lines.__setitem__(0, "{{\n"), "summary.json: not JSON")):
        bad = os.path.join(tmp, "bad_" + f.split(".")[0])
        subprocess.run(["cp", "-r", good, bad], check=True)
        p = os.path.join(bad, f)
        lines = open(p).readlines()
        edit(lines)
        open(p, "w").writelines(lines)
        try:
            nsed.read_result(bad)
            check(False, f"{f}: malformed file read")
        except nsed.ResultError as e:
            check(p in str(e) and expect in str(e), f"{f}: message {e}")
    # the lenient summary for figures, and a missing directory
    r = nsed.read_result(os.path.join(tmp, "bad_summary"), strict_summary=False)
    check(r.summary == {} and len(r.trajectory) > 10, "strict_summary=False")
    try:
        nsed.read_result(os.path.join(tmp, "nowhere"))
        check(False, "missing directory read")
    except nsed.ResultError as e:
        check("result directory not found" in str(e), f"missing directory: {e}")


def main():
    for test in (test_runs, test_summary_text, test_interrupt, test_reader_errors):
        with tempfile.TemporaryDirectory(prefix="nsed-outputs-") as tmp:
            test(tmp)
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
