"""Helpers of the reliability drivers: run nsed, check a result directory.

A result directory is *complete* when every CSV has its header, ends with a
newline and every row has the header's column count, and summary.json
parses. That is what "the results up to that point are kept" means.
"""
import glob
import json
import os
import subprocess
import sys


class Failures:
    def __init__(self):
        self.items = []

    def check(self, cond, what):
        if not cond:
            self.items.append(what)
            print("FAIL:", what, file=sys.stderr)
        return cond

    def done(self, name):
        if self.items:
            print(f"{name}: {len(self.items)} failure(s)", file=sys.stderr)
            return 1
        print(f"{name}: ok")
        return 0


def run(cmd, **kw):
    kw.setdefault("capture_output", True)
    kw.setdefault("timeout", 300)
    p = subprocess.run(cmd, **kw)
    p.err = p.stderr.decode("utf-8", "replace") if isinstance(p.stderr, bytes) else (p.stderr or "")
    return p


def csv_complete(path, f: Failures):
    """Header, newline-terminated, constant column count; returns the rows."""
    name = os.path.basename(path)
    if not f.check(os.path.isfile(path), f"{path} missing"):
        return []
    data = open(path, "rb").read()
    f.check(data.endswith(b"\n"), f"{name} does not end with a newline (truncated)")
    lines = data.decode().splitlines()
    f.check(len(lines) >= 1, f"{name} has no header")
    if not lines:
        return []
    ncol = len(lines[0].split(","))
    bad = [i + 1 for i, l in enumerate(lines) if len(l.split(",")) != ncol]
    f.check(not bad, f"{name}: rows with the wrong column count: {bad[:5]}")
    return [l.split(",") for l in lines[1:]]


def result_complete(outdir, f: Failures):
    """Checks the four files; returns summary.json as a dict (or {})."""
    rows = {}
    for n in ("trajectory.csv", "contacts.csv", "events.csv"):
        rows[n] = csv_complete(os.path.join(outdir, n), f)
    s = {}
    sp = os.path.join(outdir, "summary.json")
    if f.check(os.path.isfile(sp), f"{sp} missing"):
        try:
            s = json.load(open(sp))
        except ValueError as e:
            f.check(False, f"summary.json does not parse: {e}")
    if s and rows["trajectory.csv"]:
        t_last = float(rows["trajectory.csv"][-1][0])
        f.check(t_last <= s.get("t_reached", -1) + 1e-12,
                f"trajectory goes past t_reached: {t_last} > {s.get('t_reached')}")
    return s


def no_leftovers(parent, base, f: Failures):
    left = glob.glob(os.path.join(parent, base + ".tmp-*"))
    f.check(not left, f"temporary directories left behind: {left}")
