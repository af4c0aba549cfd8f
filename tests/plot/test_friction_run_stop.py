#!/usr/bin/python3
"""The friction benchmark's runs past their time limit (bench/friction/run.py,
run_nsed): stopped with SIGTERM, nsed writes its files up to that instant
and the row says "timeout" with the time reached; a run that ignores SIGTERM
is killed after the grace period and its temporary folder
(OUTDIR.tmp-XXXXXX) is removed, nothing else.

Usage: /usr/bin/python3 tests/plot/test_friction_run_stop.py SOURCE_ROOT NSED
"""

import importlib.util
import json
import os
import shutil
import stat
import sys
import tempfile

SOURCE_ROOT = os.path.abspath(sys.argv[1])
NSED = os.path.abspath(sys.argv[2])
sys.dont_write_bytecode = True
spec = importlib.util.spec_from_file_location("friction_run", os.path.join(SOURCE_ROOT, "bench", "friction", "run.py"))
run = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run)

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def stopped_run(tmp):
    out = os.path.join(tmp, "case2")
    yaml = os.path.join(SOURCE_ROOT, "problems", "disk_on_shaft_case2.yaml")
    summ = run.run_nsed(NSED, yaml, out, ["solver.t_end=1e6"], timeout=1.0)
    check(summ["status"] == "timeout" and "terminated" in summ["message"], f"status {summ['status']}: {summ['message']}")
    check(0 < summ["t_reached"] < 1e6, f"t_reached {summ['t_reached']} kept")
    with open(os.path.join(out, "summary.json")) as f:
        check(json.load(f)["status"] == "interrupted", "nsed's own summary written, status interrupted")
    check(os.path.exists(os.path.join(out, "trajectory.csv")), "trajectory up to the stop kept")
    check(not os.path.exists(os.path.join(out, "overrides.txt")), "not marked finished (a resumed suite runs it again)")
    check(run.leftover_tmp_dirs(out) == [], "no temporary folder left")


def killed_run(tmp):
    out = os.path.join(tmp, "stubborn")
    fake = os.path.join(tmp, "fake_nsed.sh")
    with open(fake, "w") as f:
        # as nsed creates its temporary sibling; ignores SIGTERM
        f.write('#!/bin/sh\ntrap "" TERM\nmkdir "$4.tmp-Ab12Cd"\nexec sleep 60\n')
    os.chmod(fake, os.stat(fake).st_mode | stat.S_IXUSR)
    keep = [os.path.join(tmp, "stubborn.tmp-keep-me"), os.path.join(tmp, "stubborn2.tmp-Ab12Cd")]
    for k in keep:
        os.makedirs(k)
    summ = run.run_nsed(fake, "problem.yaml", out, [], timeout=0.5, grace=0.5)
    check(summ["status"] == "timeout" and "killed" in summ["message"], f"status {summ['status']}: {summ['message']}")
    check(not os.path.exists(out + ".tmp-Ab12Cd"), "the killed run's temporary folder removed")
    check(all(os.path.isdir(k) for k in keep), "folders that are not its own kept")


def main():
    tmp = tempfile.mkdtemp(prefix="friction_run_stop_")
    try:
        stopped_run(tmp)
        killed_run(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
