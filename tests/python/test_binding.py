#!/usr/bin/python3
"""The Python binding (python/nsed) against the nsed program.

Usage: test_binding.py SOURCE_ROOT LIBNSED_SO NSED_EXE [B_SANITIZE]

Round trip: the same problem run in-process from Python and by `nsed run`
gives identical arrays, compared bit for bit against the CSVs (which print
%.17g, so parsing them recovers every double exactly); errors raise with
nsed's message; overrides act. Exit 77 (skipped) for a sanitizer build: its
libnsed.so cannot be loaded into a Python that was not started with the
sanitizer runtime."""

import json
import os
import subprocess
import sys
import tempfile
import threading

sys.dont_write_bytecode = True  # also for harness: nothing written into the sources
from harness import Checks, binding_args  # noqa: E402

ROOT, LIB, EXE = binding_args(3)[:3]

import numpy as np  # noqa: E402

import nsed  # noqa: E402

check = Checks()


def same_bits(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return a.shape == b.shape and a.tobytes() == b.tobytes()


def cli(problem, outdir, sets=()):
    args = [EXE, "run", problem, "-o", outdir, "--quiet"]
    for s in sets:
        args += ["--set", s]
    p = subprocess.run(args, capture_output=True, text=True)
    return p.returncode, p.stderr


def compare(name, py, disk, skip_summary=("wall_seconds", "monitor_seconds")):
    """py: in-process Result; disk: Result read from the CLI's directory."""
    for f in disk.trajectory.dtype.names:
        if not same_bits(py.trajectory[f], disk.trajectory[f]):
            check(False, f"{name}: trajectory column {f} differs")
            break
    else:
        check(py.trajectory.dtype.names == disk.trajectory.dtype.names
              and len(py.trajectory) > 10, f"{name}: trajectory columns and rows")
    for f in nsed.CONTACT_COLUMNS:
        a, b = py.contacts[f], disk.contacts[f]
        ok = (same_bits(a, b) if a.dtype.kind == "f" else list(a) == list(b))
        check(ok, f"{name}: contacts column {f}")
    for f in nsed.EVENT_COLUMNS:
        a, b = py.events[f], disk.events[f]
        ok = (same_bits(a, b) if a.dtype.kind in "fi" else list(a) == list(b))
        check(ok and len(a) > 0, f"{name}: events column {f}")
    diff = [k for k in py.summary if k not in skip_summary
            and (k not in disk.summary or py.summary[k] != disk.summary[k])]
    check(not diff, f"{name}: summary keys differ from summary.json: "
          + ", ".join(f"{k}: {py.summary[k]!r} vs {disk.summary.get(k)!r}" for k in diff))


def main():
    tmp = tempfile.mkdtemp(prefix="nsed-py-")
    sphere = os.path.join(ROOT, "problems", "sphere_slide_roll.yaml")
    dos = os.path.join(ROOT, "problems", "disk_on_shaft_case2.yaml")

    # 1. round trip: sphere (one contact, a stick event), disk on a shaft
    #    (joints, forces, stick-slip) for 4 s.
    for name, problem, over in (("sphere", sphere, {}),
                                ("disk_on_shaft", dos, {"solver.t_end": 4})):
        out = os.path.join(tmp, name)
        rc, err = cli(problem, out, nsed.override_strings(over))
        check(rc == 0, f"{name}: nsed run exit {rc}: {err}")
        disk = nsed.read_result(out)
        py = nsed.run(problem, overrides=over)
        compare(name, py, disk)
        # the directory written through the binding is the CLI's, byte for byte
        out2 = os.path.join(tmp, name + "_py")
        via = nsed.run(problem, overrides=over, outdir=out2)
        for f in ("trajectory.csv", "contacts.csv", "events.csv"):
            with open(os.path.join(out, f), "rb") as a, open(os.path.join(out2, f), "rb") as b:
                check(a.read() == b.read(), f"{name}: {f} written via Python differs")
        compare(name + " (outdir)", via, disk)

    # 2. sphere physics through the arrays: slip stops at t* = 2 v0 / (7 mu g)
    r = nsed.run(sphere, overrides={"contacts.ball_floor.mu": 0.2, "solver.t_end": 0.5})
    tstar = 2 * 2.0 / (7 * 0.2 * 9.81)
    stick = r.events[r.events["kind"] == "stick"]
    check(len(stick) == 1 and abs(stick["t"][0] - tstar) < 1e-9,
          f"override mu = 0.2: stick at {stick['t']} vs t* = {tstar}")
    check(r.summary["overrides"] == ["contacts.ball_floor.mu=0.2", "solver.t_end=0.5"],
          f"overrides recorded: {r.summary['overrides']}")
    check(r.trajectory["t"][-1] == 0.5, "override solver.t_end=0.5")
    b = r.body("ball")
    check(abs(b["vx"][-1] - 5 / 7 * 2) < 1e-9, "rolls at 5/7 v0")
    r2 = nsed.run(sphere, overrides=["bodies.ball.velocity=[1,0,0]", ("solver.t_end", 0.3)])
    check(r2.trajectory["ball.vx"][0] == 1.0 and r2.summary["t_reached"] == 0.3,
          "overrides as KEY=VALUE strings and pairs")

    # 3. errors carry nsed's message
    try:
        nsed.run(sphere, overrides={"bodies.ball.mass": -1})
        check(False, "negative mass accepted")
    except nsed.InputError as e:
        check("bodies[0].mass: expected a positive number, got -1" in str(e)
              and e.status == -1 and e.status_name == "NSED_ERR_INPUT",
              f"input error message: {e}")
    try:
        nsed.load(sphere, {"bodies.ball.veloctiy": [1, 0, 0]})
        check(False, "typo accepted")
    except nsed.NsedError as e:
        check("did you mean 'velocity'" in e.message, f"typo message: {e.message}")
    try:
        nsed.load(os.path.join(tmp, "missing.yaml"))
        check(False, "missing file accepted")
    except nsed.NsedError as e:
        check("missing.yaml" in e.message, f"missing file message: {e.message}")
    # a failed simulation: SimulationError with the partial result, which
    # equals what the CLI writes for the same failure
    over = {"solver.max_events": 3}
    try:
        nsed.run(dos, overrides=over)
        check(False, "max_events = 3 did not fail")
    except nsed.SimulationError as e:
        check(e.status_name == "NSED_ERR_EVENT" and "the limit of 3 events is reached" in e.message
              and e.result.summary["status"] == "failed", f"simulation error: {e}")
        out = os.path.join(tmp, "failed")
        rc, _ = cli(dos, out, nsed.override_strings(over))
        check(rc == 1, f"nsed run of a failing problem: exit {rc}")
        compare("failed run", e.result, nsed.read_result(out))
    r4 = nsed.run(dos, overrides=over, check=False)
    # three events, then the row recording the failure
    check(r4.summary["status"] == "failed" and len(r4.events) == 4, "check=False returns")
    class Boom(Exception):
        pass

    def progress(*a):
        raise Boom()
    try:
        nsed.run(dos, overrides={"solver.t_end": 25}, progress=progress)
        check(False, "exception in the progress callback swallowed")
    except Boom:
        check(True, "")

    # 4. the model: names, reuse, and two threads running one model at once
    m = nsed.load(dos, {"solver.t_end": 2})
    check(m.bodies == ("shaft", "disk") and m.contacts == ("disk_floor",)
          and m.joints == ("cardan", "tube") and m.forces == ("drive",),
          f"model names {m}")
    results = [None, None]

    def work(k):
        results[k] = m.run()
    th = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in th:
        t.start()
    for t in th:
        t.join()
    check(results[0] is not None and same_bits(results[0].trajectory.view(float),
                                                results[1].trajectory.view(float)),
          "two threads, one model: identical runs")

    # 5. version agrees with the program's
    out = subprocess.run([EXE, "--version"], capture_output=True, text=True).stdout.split()
    check(out[-1] == nsed.version(), f"version {nsed.version()} vs nsed --version {out}")
    with open(os.path.join(tmp, "sphere", "summary.json")) as f:
        check(json.load(f)["nsed_version"] == nsed.version(), "summary nsed_version")

    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
