#!/usr/bin/python3
"""Plot the result directory written by `nsed run PROBLEM.yaml -o OUTDIR`.

Usage as a script:
    /usr/bin/python3 python/nsed_plot.py RESULTDIR [--out DIR] [--format png] [--dpi N]

Usage as a module:
    from nsed_plot import plot_results        # = nsed.plotting.plot_results
    paths = plot_results("out/ball", out_dir=None)   # -> list of written files

Figures: trajectory, contact_forces, slip_speed, events, velocities
(see docs/plotting.md), drawn by the package nsed (nsed.plotting, results
read by nsed.results: CSV or results.h5). `nsed plot` runs this script.
Exit status 2 on unreadable or malformed input.
"""

import argparse
import sys

if __name__ == "__main__":
    sys.dont_write_bytecode = True   # keep python/nsed/__pycache__ out of the tree
# The package sits next to this script in the source tree (python/), which
# Python puts first on sys.path; once installed it is in python3's site
# directory, and `nsed plot` adds that directory too (src/cli/cmd_plot.c).
from nsed.plotting import DEFAULT_DPI, FORMATS, ResultError, plot_results  # noqa: E402

__all__ = ["plot_results", "ResultError", "main"]


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="nsed_plot.py",
        description="Plot the result directory written by `nsed run ... -o DIR`.")
    p.add_argument("result_dir", metavar="RESULTDIR")
    p.add_argument("--out", metavar="DIR",
                   help="output directory (default: RESULTDIR/plots)")
    p.add_argument("--format", default="png", choices=FORMATS,
                   help="image format (default: png)")
    p.add_argument("--dpi", type=int, default=DEFAULT_DPI,
                   help=f"raster resolution (default: {DEFAULT_DPI})")
    args = p.parse_args(argv)
    if args.dpi <= 0:
        p.error("--dpi must be positive")   # argparse exits with status 2
    return args


def main(argv=None):
    args = parse_args(argv)
    try:
        paths = plot_results(args.result_dir, args.out, args.format, args.dpi)
    except ResultError as e:
        print(f"nsed_plot: error: {e}", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
