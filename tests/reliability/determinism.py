#!/usr/bin/env python3
"""Bit-identical outputs across runs and OpenBLAS thread counts.

Usage: determinism.py NSED SOURCE_ROOT

Runs disk_on_shaft_case2 to t = 6 s twice with OPENBLAS_NUM_THREADS=1 and
twice with 2, hashes events.csv (the event log: every mode change, its LCP
size, pivots, residual and path), trajectory.csv and contacts.csv, and
requires all four runs to agree byte for byte. The event log must hold at
least 5 events (a run that stopped early could agree trivially).
"""
import hashlib
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reltest import Failures, run  # noqa: E402

FILES = ("events.csv", "trajectory.csv", "contacts.csv")


def main():
    nsed, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    problem = os.path.join(root, "problems", "disk_on_shaft_case2.yaml")
    f = Failures()
    hashes = {}
    with tempfile.TemporaryDirectory() as work:
        for threads in ("1", "2"):
            for rep in (1, 2):
                out = os.path.join(work, f"t{threads}_r{rep}")
                env = dict(os.environ, OPENBLAS_NUM_THREADS=threads)
                p = run([nsed, "run", problem, "--set", "solver.t_end=6", "-o", out, "--quiet"], env=env)
                f.check(p.returncode == 0, f"threads={threads} run {rep}: exit {p.returncode}: {p.err}")
                if p.returncode:
                    continue
                h = {n: hashlib.sha256(open(os.path.join(out, n), "rb").read()).hexdigest() for n in FILES}
                hashes[(threads, rep)] = h
                nev = len(open(os.path.join(out, "events.csv")).read().splitlines()) - 1
                f.check(nev >= 5, f"only {nev} events: too short to compare")
                print(f"OPENBLAS_NUM_THREADS={threads} run {rep}: {nev} events, events.csv sha256 {h['events.csv']}")
    ref = hashes.get(("1", 1))
    for key, h in hashes.items():
        for n in FILES:
            f.check(ref is not None and h[n] == ref[n],
                    f"{n} differs: threads={key[0]} run {key[1]} {h[n][:16]} vs threads=1 run 1 {ref[n][:16] if ref else '-'}")
    f.check(len(hashes) == 4, f"only {len(hashes)} of 4 runs completed")
    return f.done("determinism")


if __name__ == "__main__":
    sys.exit(main())
