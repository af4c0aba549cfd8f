#!/usr/bin/python3
"""`nsed plot` and `nsed run --plot`: the PNGs exist and are not blank
(size, more than one colour), --out and --format svg work, and a missing
python3 or matplotlib gives exit 2 with one sentence naming the Debian
package. Usage: test_plot_cmd.py NSED SPHERE.yaml
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from matplotlib.image import imread

failures = []
FIGURES = ("trajectory", "contact_forces", "slip_speed", "events", "velocities")


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def nsed_cmd(nsed, args, cwd, env=None):
    return subprocess.run([nsed] + args, capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ, **(env or {})))


def check_pngs(d, tag, figures=FIGURES):
    for name in figures:
        path = os.path.join(d, name + ".png")
        if not os.path.exists(path):
            check(False, "%s: %s missing" % (tag, path))
            continue
        img = imread(path)
        check(os.path.getsize(path) > 10000 and img.shape[0] > 300 and img.shape[1] > 300,
              "%s: %s is small (%d bytes, %s)" % (tag, name, os.path.getsize(path), img.shape))
        flat = img.reshape(-1, img.shape[-1])
        check(len(np.unique(flat[::7], axis=0)) > 5, "%s: %s is blank" % (tag, name))


def main():
    nsed, sphere = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory() as work:
        p = nsed_cmd(nsed, ["run", sphere, "-o", "r", "--plot"], work)
        check(p.returncode == 0, "run --plot: exit %d %s" % (p.returncode, p.stderr))
        check("r/plots/trajectory.png" in p.stdout, "run --plot lists no figures: %s" % p.stdout)
        check_pngs(os.path.join(work, "r", "plots"), "run --plot")

        check(not os.path.exists(os.path.join(work, "r", "plots", "steps.png")),
              "steps.png without a step log")
        # with the step log (output.steps), steps.png too
        p = nsed_cmd(nsed, ["run", sphere, "-o", "rs", "--plot", "--quiet", "--set", "output.steps=true"], work)
        check(p.returncode == 0, "run --plot with output.steps: exit %d %s" % (p.returncode, p.stderr))
        check_pngs(os.path.join(work, "rs", "plots"), "run --plot with steps", FIGURES + ("steps",))

        p = nsed_cmd(nsed, ["plot", "r", "--out", "figs", "--quiet"], work)
        check(p.returncode == 0 and p.stdout == "", "plot --out --quiet: %d %r %s" % (p.returncode, p.stdout, p.stderr))
        check_pngs(os.path.join(work, "figs"), "plot --out")
        p = nsed_cmd(nsed, ["plot", "r", "--format", "svg", "--out", "svg"], work)
        check(p.returncode == 0 and all(os.path.getsize(os.path.join(work, "svg", f + ".svg")) > 5000
                                        for f in FIGURES), "plot --format svg: %s" % p.stderr)

        # --plot after a failed run: the figures of what was written, the run's exit status.
        p = nsed_cmd(nsed, ["run", sphere, "-o", "failed", "--set", "solver.max_events=1",
                            "--plot", "--quiet"], work)
        check(p.returncode == 1 and "simulation failed" in p.stderr,
              "run --plot of a failing run: %d %s" % (p.returncode, p.stderr))
        check_pngs(os.path.join(work, "failed", "plots"), "run --plot after a failure")

        # An HDF5 result (no CSV files) gives the same figures, pixel for pixel.
        p = nsed_cmd(nsed, ["run", sphere, "-o", "h", "--format", "hdf5", "--quiet"], work)
        check(p.returncode == 0, "run --format hdf5: %d %s" % (p.returncode, p.stderr))
        p = nsed_cmd(nsed, ["plot", "h", "--quiet"], work)
        check(p.returncode == 0, "plot of an HDF5 result: %d %s" % (p.returncode, p.stderr))
        for name in FIGURES:
            a, b = (os.path.join(work, d, name + ".png") for d in ("figs", "h/plots"))
            check(os.path.exists(b) and np.array_equal(imread(a), imread(b)),
                  "plot of an HDF5 result: %s differs from the CSV result's" % name)

        # Usage and input errors: exit 2.
        for args, msg in ((["plot"], "no result directory"),
                          (["plot", "r", "--format", "gif"], "png, svg or pdf"),
                          (["plot", "r", "--dpi", "0"], "positive integer"),
                          (["plot", "r", "--frob"], "unknown option"),
                          (["plot", "nowhere"], "nowhere")):
            p = nsed_cmd(nsed, args, work)
            check(p.returncode == 2 and msg in p.stderr, "%s: %d %s" % (args, p.returncode, p.stderr))
        p = nsed_cmd(nsed, ["plot", "--help"], work)
        check(p.returncode == 0 and "usage: nsed plot" in p.stdout, "plot --help")

        # python3 missing, matplotlib missing (python -S: no dist-packages).
        p = nsed_cmd(nsed, ["plot", "r"], work, {"NSED_PYTHON": "/nonexistent/python3"})
        check(p.returncode == 2 and "install the Debian package python3." in p.stderr
              and p.stderr.count("\n") == 1, "no python3: %d %s" % (p.returncode, p.stderr))
        fake = os.path.join(work, "python-bare")
        with open(fake, "w") as f:
            f.write("#!/bin/sh\nexec /usr/bin/python3 -S \"$@\"\n")
        os.chmod(fake, 0o755)
        p = nsed_cmd(nsed, ["plot", "r"], work, {"NSED_PYTHON": fake})
        check(p.returncode == 2 and "install the Debian package python3-matplotlib." in p.stderr
              and p.stderr.count("\n") == 1, "no matplotlib: %d %s" % (p.returncode, p.stderr))
        p = nsed_cmd(nsed, ["run", sphere, "-o", "r2", "--plot"], work, {"NSED_PYTHON": fake})
        check(p.returncode == 2 and "python3-matplotlib" in p.stderr
              and os.path.exists(os.path.join(work, "r2", "trajectory.csv")),
              "run --plot without matplotlib: %d %s" % (p.returncode, p.stderr))
    if failures:
        print("%d failure(s)" % len(failures), file=sys.stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
