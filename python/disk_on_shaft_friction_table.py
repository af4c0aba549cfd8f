#!/usr/bin/python3
"""Friction model table of the disk on a shaft: polygon n* = 1, 2, 4, 8 vs exact cone.

Usage:
    /usr/bin/python3 python/disk_on_shaft_friction_table.py [--nsed PATH]
        [--results DIR] [--out FILE.md] [--cases case2,case1]

Runs problems/disk_on_shaft_<case>.yaml with `--set friction.model=polygon
--set friction.form=face --set friction.sides=4 n*` for n* = 1, 2, 4, 8 and
with `--set friction.model=exact_cone`, into DIR/<case>_<model>/ (default
results/disk_on_shaft/friction/), and writes a markdown table per case
(default results/disk_on_shaft/friction_table.md, also printed):
the number of stick->slip events, the first six slip-onset times, L_OC1 at
five times (t_end/5 ... t_end: 5, 10, 15, 20, 25 s for case 2) and the
largest |L_OC1 - L_OC1(exact cone)| over the run.
Exit status 2 if nsed or a result file is missing or malformed.
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

if __name__ == "__main__":
    sys.dont_write_bytecode = True   # keep python/nsed/__pycache__ out of the tree
# The package nsed sits next to this script (python/ is first on sys.path).
from nsed.results import ResultError, read_result   # noqa: E402

PROG = "disk_on_shaft_friction_table"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PIVOT = np.array([0.0, 0.0, 0.4])
N_STARS = (1, 2, 4, 8)
N_ONSETS = 6
N_TIMES = 5


def models():
    """(label, n*, sides, overrides) per friction model, the cone last."""
    out = [(f"polygon n*={n}", str(n), str(4 * n),
            ["friction.model=polygon", "friction.form=face",
             f"friction.sides={4 * n}"]) for n in N_STARS]
    out.append(("exact cone", "-", "-", ["friction.model=exact_cone"]))
    return out


# The problem files stop turning 2D slips at 1e-8 m/s (for the comparison
# with the reduced model); coarse polygons (n* <= 2) need 1e-7 m/s to keep
# the integrator from stalling at such stops (docs/disk-on-shaft.md), and
# every model of the table uses the same value so that they compare alike.
SLIP_STOP = "solver.slip_stop_speed=1e-7"


def run_nsed(nsed, problem, overrides, out_dir):
    cmd = [nsed, "run", problem, "-o", out_dir, "--quiet", "--set", SLIP_STOP]
    for o in overrides:
        cmd += ["--set", o]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    if proc.returncode not in (0, 1):   # 1: failed run, partial results written
        raise ResultError(f"{' '.join(cmd)}: exit status {proc.returncode}: "
                          f"{proc.stderr.strip()}")
    return proc.returncode


def analyse(result_dir):
    """Return dict with t_end, status, onsets, (t, L) deduplicated."""
    r = read_result(result_dir, strict_summary=False)
    t = r.trajectory["t"]
    if not len(t):
        raise ResultError(f"{r.files['trajectory']}: header only, no data rows")
    if "disk" not in r.body_names:
        raise ResultError(f"{r.files['trajectory']} line 1: no body 'disk'")
    d = r.body("disk")
    L = np.sqrt((d["x"] - PIVOT[0]) ** 2 + (d["y"] - PIVOT[1]) ** 2
                + (d["z"] - PIVOT[2]) ** 2)
    # Event rows repeat their time; keep the last row of each time for interp.
    keep = np.append(t[1:] != t[:-1], True)
    summary = r.summary
    ev = r.events
    onsets = [float(te) for te in ev["t"][(ev["kind"] == "slip") & (ev["contact"] == "disk_floor")]]
    return {"t": t[keep], "L": L[keep], "onsets": onsets,
            "status": summary.get("status", "?"),
            "t_end": summary.get("t_end", t[-1]),
            "t_reached": summary.get("t_reached", t[-1]),
            "wall": summary.get("wall_seconds")}


def table(case, rows, cone):
    t_end = float(cone["t_end"])
    times = [t_end * (k + 1) / N_TIMES for k in range(N_TIMES)]
    head = (["model", "n*", "sides", "stick->slip", f"first {N_ONSETS} slip onsets [s]"]
            + [f"L_OC1({t:g} s) [m]" for t in times]
            + ["max abs(L_OC1 - cone) [m]"])
    lines = [f"**{case}** (t_end = {t_end:g} s)", "",
             "| " + " | ".join(head) + " |",
             "|" + "|".join("---" for _ in head) + "|"]
    grid = np.linspace(0.0, t_end, int(round(t_end / 0.01)) + 1)
    for label, nstar, sides, r in rows:
        onsets = ", ".join(f"{x:.4f}" for x in r["onsets"][:N_ONSETS]) or "none"
        L_at = [f"{np.interp(t, r['t'], r['L']):.5f}" if t <= r["t"][-1] + 1e-12
                else "-" for t in times]
        upto = min(r["t"][-1], cone["t"][-1])
        g = grid[grid <= upto]
        dev = np.max(np.abs(np.interp(g, r["t"], r["L"]) - np.interp(g, cone["t"], cone["L"])))
        name = label if r["status"] == "ok" else f"{label} ({r['status']} at {r['t_reached']:g} s)"
        lines.append("| " + " | ".join([name, nstar, sides, str(len(r["onsets"])), onsets]
                                       + L_at + [f"{dev:.3g}" if r is not cone else "0"]) + " |")
    return "\n".join(lines) + "\n"


def write_atomic(path, text):
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(path),
                               suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main(argv=None):
    p = argparse.ArgumentParser(prog="disk_on_shaft_friction_table.py",
                                description=__doc__.split("\n")[0])
    p.add_argument("--nsed", default=os.path.join(ROOT, "build", "src", "cli", "nsed"))
    p.add_argument("--results", default=os.path.join(ROOT, "results", "disk_on_shaft",
                                                      "friction"))
    p.add_argument("--out", default=os.path.join(ROOT, "results", "disk_on_shaft",
                                                  "friction_table.md"))
    p.add_argument("--cases", default="case2,case1")
    args = p.parse_args(argv)
    try:
        if not os.access(args.nsed, os.X_OK):
            raise ResultError(f"{args.nsed}: nsed executable not found "
                              "(meson setup build && ninja -C build)")
        parts = []
        for case in [c.strip() for c in args.cases.split(",") if c.strip()]:
            problem = os.path.join("problems", f"disk_on_shaft_{case}.yaml")
            if not os.path.isfile(os.path.join(ROOT, problem)):
                raise ResultError(f"{problem}: problem file not found")
            rows = []
            for label, nstar, sides, overrides in models():
                tag = "cone" if nstar == "-" else f"n{nstar}"
                out_dir = os.path.join(args.results, f"{case}_{tag}")
                run_nsed(args.nsed, problem, overrides, out_dir)
                rows.append((label, nstar, sides, analyse(out_dir)))
                print(f"{PROG}: {case} {label}: {rows[-1][3]['status']}, "
                      f"{len(rows[-1][3]['onsets'])} slip onsets", file=sys.stderr)
            parts.append(table(case, rows, rows[-1][3]))
        text = "\n".join(parts)
        write_atomic(args.out, text)
    except (ResultError, OSError) as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
