#!/usr/bin/python3
"""Ctrl-C during nsed.run, with a real SIGINT.

Usage: test_interrupt.py SOURCE_ROOT LIBNSED_SO [B_SANITIZE]

A script runs problems/sphere_slide_roll.yaml with solver.t_end = 1e6 (in
memory, and to a directory with check=False) in a subprocess; one second
after it said it started, os.kill sends it SIGINT. nsed.run must stop the
simulation within a fraction of a second and raise KeyboardInterrupt
carrying the run up to then as .result. The script prints what it read from
that partial result, which is checked here:

- the exception is KeyboardInterrupt itself and its text nsed's message,
  "interrupted at t = T" with T the last row's time and summary t_reached;
- summary status "interrupted" (NSED_ERR_INTERRUPTED); for the directory,
  summary.json says so too and .result.outdir is that directory;
- the rows are those of the run up to T: one per 0.01 s plus the stick
  event's (as many as the uninterrupted 1 s run has), the stick at
  t* = 2 v0 / (7 mu g) (closed form, 1e-9 s) and rolling at 5/7 v0 at the
  end (1e-9);
- the simulation stopped promptly: its wall time (summary wall_seconds) is
  at most 2 s more than the time from the script's start to the signal
  (measured: within the relay's 0.1 s; the margin is for a loaded machine).

Without a handler the script dies of SIGINT (exit status -2 seen from
Python, 130 in a shell) with the traceback's last line "KeyboardInterrupt:
interrupted at t = ...", as any Python program interrupted by Ctrl-C.
Exit 77 (skipped) for a sanitizer build.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # also for harness: nothing written into the sources
from harness import Checks, binding_args  # noqa: E402

ROOT, LIB = binding_args(2, load=False)[:2]

V0, MU, G = 2.0, 0.3, 9.81
EVENT_ROWS = None
check = Checks()


SCRIPT = r'''
import json, signal, sys, time
sys.dont_write_bytecode = True
# Python's Ctrl-C handler even if this process was started with SIGINT
# ignored (as by `cmd &` in a non-interactive shell, which children inherit)
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.path.insert(0, sys.argv[1])
import nsed
problem, outdir, catch = sys.argv[2], sys.argv[3] or None, sys.argv[4] == "catch"
model = nsed.load(problem, {"solver.t_end": 1e6})
print("start", flush=True)
t0 = time.monotonic()
if not catch:
    nsed.run(problem, {"solver.t_end": 1e6}, outdir=outdir)
    sys.exit(0)
try:
    nsed.run(problem, {"solver.t_end": 1e6}, outdir=outdir, check=outdir is None)
    print(json.dumps({"returned": True}))
except KeyboardInterrupt as e:
    r = e.result
    ball = r.body("ball")
    stick = r.events[r.events["kind"] == "stick"]["t"]
    print(json.dumps({
        "type": type(e).__name__, "text": str(e), "elapsed": time.monotonic() - t0,
        "status": r.summary["status"], "status_code": r.summary["status_code"],
        "message": r.summary["message"], "t_reached": r.summary["t_reached"],
        "wall_seconds": r.summary["wall_seconds"], "rows": len(r.trajectory),
        "first_t": ball["t"][0], "last_t": ball["t"][-1], "last_vx": ball["vx"][-1],
        "last_wy": ball["wy"][-1], "stick": [float(t) for t in stick], "events": len(r.events),
        "outdir": r.outdir}), flush=True)
'''


def interrupt(tmp, outdir, catch):
    """Run the script, SIGINT it one second after it started; its exit
    status, stdout, stderr, and the seconds from start to signal and from
    signal to exit."""
    script = os.path.join(tmp, "run_long.py")
    with open(script, "w") as f:
        f.write(SCRIPT)
    env = dict(os.environ, NSED_LIBRARY=LIB, OPENBLAS_NUM_THREADS="1")
    proc = subprocess.Popen(
        ["/usr/bin/python3", script, os.path.join(ROOT, "python"),
         os.path.join(ROOT, "problems", "sphere_slide_roll.yaml"), outdir or "",
         "catch" if catch else "nocatch"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline()
    started = time.monotonic()
    time.sleep(1.0)
    before = time.monotonic() - started
    sent = time.monotonic()
    os.kill(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    after = time.monotonic() - sent
    check(line.strip() == "start", f"script started: {line!r} {err[-300:]!r}")
    return proc.returncode, out, err, before, after


def check_partial(what, rc, out, err, before, after, outdir):
    check(rc == 0, f"{what}: exit {rc}, stderr {err[-500:]!r}")
    try:
        got = json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        check(False, f"{what}: no result printed: {out!r} {err[-500:]!r}")
        return
    if got.get("returned"):
        check(False, f"{what}: nsed.run returned instead of raising")
        return
    tstar = 2 * V0 / (7 * MU * G)
    check(got["type"] == "KeyboardInterrupt", f"{what}: raised {got['type']}")
    check(got["status"] == "interrupted" and got["status_code"] == "NSED_ERR_INTERRUPTED",
          f"{what}: summary status {got['status']} {got['status_code']}")
    check(got["text"].startswith("interrupted at t = ") and got["text"] == got["message"]
          and float(got["text"].split("= ")[1]) == got["t_reached"] == got["last_t"],
          f"{what}: message {got['text']!r}, t_reached {got['t_reached']!r}, last row {got['last_t']!r}")
    # one row per 0.01 s from 0, plus the stick event's rows (as many as in
    # the uninterrupted run of 1 s)
    expect_rows = round(got["last_t"] / 0.01) + 1 + EVENT_ROWS
    check(got["last_t"] > 1 and got["first_t"] == 0 and got["rows"] == expect_rows,
          f"{what}: {got['rows']} rows up to t = {got['last_t']}, expected {expect_rows}")
    check(len(got["stick"]) == 1 and abs(got["stick"][0] - tstar) < 1e-9 and got["events"] == 1,
          f"{what}: stick at {got['stick']} vs t* = {tstar!r}")
    check(abs(got["last_vx"] - 5 / 7 * V0) < 1e-9 and abs(got["last_wy"] - 5 / 7 * V0 / 0.1) < 1e-9,
          f"{what}: rolling at the end: vx {got['last_vx']!r}, wy {got['last_wy']!r}")
    check(got["wall_seconds"] < before + 2.0,
          f"{what}: simulated for {got['wall_seconds']:.3f} s of wall time, signalled after "
          f"{before:.3f} s")
    check(after < 10, f"{what}: exited {after:.3f} s after the signal")
    check(got["outdir"] == outdir, f"{what}: result outdir {got['outdir']!r}")
    if outdir:
        with open(os.path.join(outdir, "summary.json")) as f:
            s = json.load(f)
        check(s["status"] == "interrupted" and s["t_reached"] == got["t_reached"],
              f"{what}: summary.json status {s['status']} t_reached {s['t_reached']}")
    print(f"{what}: SIGINT {before:.2f} s after start; simulation wall time "
          f"{got['wall_seconds']:.3f} s; KeyboardInterrupt {got['text']!r}, {got['rows']} rows, "
          f"stick at {got['stick'][0]!r} (t* {tstar!r}), last vx {got['last_vx']!r}; exited "
          f"{after:.3f} s after the signal")


def main():
    global EVENT_ROWS
    # The uninterrupted run of 1 s: 101 output rows and the stick event's.
    os.environ["NSED_LIBRARY"] = LIB
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import nsed
    full = nsed.run(os.path.join(ROOT, "problems", "sphere_slide_roll.yaml"))
    EVENT_ROWS = len(full.trajectory) - 101
    check(EVENT_ROWS > 0 and len(full.events) == 1, f"the 1 s run: {len(full.trajectory)} rows")
    with tempfile.TemporaryDirectory(prefix="nsed-interrupt-") as tmp:
        rc, out, err, before, after = interrupt(tmp, None, True)
        check_partial("in memory", rc, out, err, before, after, None)
        outdir = os.path.join(tmp, "out")
        rc, out, err, before, after = interrupt(tmp, outdir, True)
        check_partial("to a directory (check=False)", rc, out, err, before, after, outdir)
        for what, od in (("in memory", None), ("to a directory", os.path.join(tmp, "out2"))):
            rc, out, err, before, after = interrupt(tmp, od, False)
            last = err.strip().splitlines()[-1] if err.strip() else ""
            check(rc == -signal.SIGINT and last.startswith("KeyboardInterrupt: interrupted at t = ")
                  and after < 10,
                  f"uncaught, {what}: exit {rc}, last line {last!r}, {after:.3f} s")
            print(f"uncaught, {what}: exit {rc} (killed by SIGINT), {last!r}, "
                  f"{after:.3f} s after the signal")
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
