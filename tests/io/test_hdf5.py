#!/usr/bin/python3
"""`nsed run --format hdf5`: results.h5 has the layout docs/cli.md
describes (checked with h5py: groups, `columns` attributes, dataset types)
and holds the CSV files of the same run bit for bit (every double, every
name: both directories read by the package's one reader, nsed.read_result),
and its /metadata holds the problem text, hash, overrides, versions, status
and summary.json's text. Also: an interrupted HDF5 run, a 200 kB problem
text (beyond HDF5's 64 kB header-attribute limit), the --plot/--format
clash. Without HDF5 in the build: --format hdf5 is refused with exit 2 and
nothing is created. Skips (77) if python3-h5py is not installed.

Usage: test_hdf5.py NSED SOURCE_ROOT HAVE_HDF5(true|false)
"""
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(sys.argv[2], "python"))
from nsed.results import read_result  # noqa: E402  (numpy only: no libnsed needed)

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def run(nsed, args, cwd):
    return subprocess.run([nsed, "run"] + args, capture_output=True, text=True, cwd=cwd)


def compare_table(h5, name, csv_table, kinds):
    """Group /name's layout (columns attribute, datasets in order, types),
    against the columns of the CSV table as the reader gives them."""
    header = list(csv_table.dtype.names)
    g = h5[name]
    check(list(g.attrs["columns"]) == header, "%s columns %s vs %s" % (name, list(g.attrs["columns"]), header))
    check(list(g) == header, "%s datasets listed as %s" % (name, list(g)))
    for col in header:
        ds = g[col]
        check(ds.shape == (len(csv_table),), "%s/%s shape %s, csv rows %d" % (name, col, ds.shape, len(csv_table)))
        want = {"i": "int32", "f": "float64"}.get(kinds[col])
        if want:
            check(ds.dtype == want, "%s/%s dtype %s" % (name, col, ds.dtype))


def same_table(tag, name, a, b):
    """Every column equal: numbers bit for bit (NaN and -0 included), names exactly."""
    check(a.dtype.names == b.dtype.names and len(a) == len(b),
          "%s %s: columns %s vs %s, rows %d vs %d" % (tag, name, a.dtype.names, b.dtype.names, len(a), len(b)))
    if a.dtype.names != b.dtype.names or len(a) != len(b):
        return
    for col in a.dtype.names:
        x, y = a[col], b[col]
        if x.dtype.kind in "fi":
            differ = [i for i in range(len(x)) if x[i:i + 1].tobytes() != y[i:i + 1].tobytes()]
        else:
            differ = [i for i in range(len(x)) if x[i] != y[i]]
        check(not differ, "%s %s/%s differs from the CSV in %d rows, first row %s" %
              (tag, name, col, len(differ), differ[:1]))


CONTACT_KINDS = {"t": "f", "contact": "s", "mode": "s", "gap": "f", "lambda_n": "f",
                 "lambda_t1": "f", "lambda_t2": "f", "slip_speed": "f", "point_x": "f",
                 "point_y": "f", "point_z": "f", "moment": "f", "spin": "s"}
EVENT_KINDS = {"t": "f", "kind": "s", "contact": "s", "from": "s", "to": "s",
               "lcp_size": "i", "pivots": "i", "residual": "f", "path": "s", "impulse_n": "f",
               "impulse_t1": "f", "impulse_t2": "f"}


def compare(h5py, nsed, problem, overrides, work, tag):
    """Run problem once as CSV and once as HDF5; compare everything."""
    sets = []
    for o in overrides:
        sets += ["--set", o]
    csv_dir, h5_dir = os.path.join(work, tag + "_csv"), os.path.join(work, tag + "_h5")
    p = run(nsed, [problem, "-o", csv_dir, "--quiet"] + sets, work)
    check(p.returncode == 0, "%s csv run: %d %s" % (tag, p.returncode, p.stderr))
    p = run(nsed, [problem, "-o", h5_dir, "--format", "hdf5"] + sets, work)
    check(p.returncode == 0, "%s hdf5 run: %d %s" % (tag, p.returncode, p.stderr))
    check("results.h5" in p.stdout, "%s: run does not say where results.h5 is: %s" % (tag, p.stdout))
    if p.returncode:
        return
    check(sorted(os.listdir(h5_dir)) == ["results.h5", "summary.json"],
          "%s: hdf5 outdir holds %s" % (tag, sorted(os.listdir(h5_dir))))
    from_csv = read_result(csv_dir)
    from_h5 = read_result(h5_dir)
    check(from_csv.files["trajectory"].endswith("trajectory.csv")
          and from_h5.files["trajectory"].endswith("results.h5"), "%s: read %s, %s" % (tag, from_csv.files, from_h5.files))
    for name in ("trajectory", "contacts", "events"):
        same_table(tag, name, getattr(from_csv, name), getattr(from_h5, name))
    with h5py.File(os.path.join(h5_dir, "results.h5"), "r") as f:
        check(sorted(f) == ["contacts", "events", "metadata", "trajectory"], "%s groups %s" % (tag, list(f)))
        header = list(from_csv.trajectory.dtype.names)
        traj = f["trajectory"]
        check(list(traj.attrs["columns"]) == header, "%s trajectory columns" % tag)
        check(traj.dtype == "float64" and traj.shape == (len(from_csv.trajectory), len(header)),
              "%s trajectory %s %s vs %d x %d" % (tag, traj.dtype, traj.shape, len(from_csv.trajectory), len(header)))
        compare_table(f, "contacts", from_csv.contacts, CONTACT_KINDS)
        compare_table(f, "events", from_csv.events, EVENT_KINDS)

        meta = f["metadata"].attrs
        with open(problem, "rb") as pf:
            text = pf.read()
        summary_text = open(os.path.join(h5_dir, "summary.json")).read()
        summary = json.loads(summary_text)
        check(meta["problem_text"] == text.decode(), "%s problem_text differs from the file" % tag)
        check(meta["problem_sha256"] == hashlib.sha256(text).hexdigest() == summary["problem_sha256"],
              "%s problem_sha256 %s" % (tag, meta["problem_sha256"]))
        check(list(meta["overrides"]) == overrides, "%s overrides %s" % (tag, list(meta["overrides"])))
        check(meta["problem"] == problem, "%s problem %s" % (tag, meta["problem"]))
        check(meta["status"] == "ok", "%s status %s" % (tag, meta["status"]))
        check(meta["summary_json"] == summary_text, "%s summary_json differs from summary.json" % tag)
        for k in ("nsed_version", "sundials_version", "siconos_version"):
            check(meta[k] == summary[k], "%s %s %s vs %s" % (tag, k, meta[k], summary[k]))
        check(meta["hdf5_version"].count(".") == 2, "%s hdf5_version %r" % (tag, meta["hdf5_version"]))
    # summary.json is the same for both formats but for the wall time.
    a = json.load(open(os.path.join(csv_dir, "summary.json")))
    a.pop("wall_seconds"), summary.pop("wall_seconds")
    a.pop("monitor_seconds"), summary.pop("monitor_seconds")
    check(a == summary, "%s summary.json of the CSV and HDF5 runs differ" % tag)


def main():
    nsed, root, have = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3] == "true"
    sphere = os.path.join(root, "tests", "io", "good", "sphere.yaml")
    with tempfile.TemporaryDirectory() as work:
        if not have:
            p = run(nsed, [sphere, "-o", "h5", "--format", "hdf5"], work)
            check(p.returncode == 2 and "built without HDF5" in p.stderr and "libhdf5-dev" in p.stderr,
                  "no-HDF5 build: %d %s" % (p.returncode, p.stderr))
            check(os.listdir(work) == [], "no-HDF5 build created %s" % os.listdir(work))
            return finish()
        try:
            import h5py
        except ImportError:
            print("SKIP: python3-h5py is not installed (apt-get install python3-h5py)")
            return 77

        # Several trajectory and contact buffers (5001 rows), one event.
        compare(h5py, nsed, sphere, ["output.dt=1e-4"], work, "sphere")
        # Many events (impacts, the Zeno guard) and no overrides.
        compare(h5py, nsed, os.path.join(root, "problems", "bouncing_ball.yaml"), [], work, "ball")
        # Two overrides, stick-slip events with LCP data.
        compare(h5py, nsed, os.path.join(root, "problems", "disk_on_shaft_case2.yaml"),
                ["solver.t_end=4", "output.dt=0.05"], work, "dos2")
        # A 200 kB problem text.
        big = os.path.join(work, "big.yaml")
        with open(sphere) as f, open(big, "w") as g:
            g.write(f.read() + "".join("# padding line %06d %s\n" % (i, "x" * 40) for i in range(3500)))
        check(os.path.getsize(big) > 200000, "big problem is small")
        compare(h5py, nsed, big, ["solver.t_end=0.3"], work, "big")

        # Interrupted: a valid file with status "interrupted" and the rows so far.
        out = os.path.join(work, "intr")
        proc = subprocess.Popen([nsed, "run", sphere, "-o", out, "--format", "hdf5", "--set",
                                 "solver.t_end=1e6", "--set", "output.dt=0.01"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=work)
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        check(proc.returncode == 1 and "interrupted" in err, "SIGINT: %d %s" % (proc.returncode, err))
        if os.path.exists(os.path.join(out, "results.h5")):
            with h5py.File(os.path.join(out, "results.h5"), "r") as f:
                check(f["metadata"].attrs["status"] == "interrupted", "interrupted status")
                s = json.loads(f["metadata"].attrs["summary_json"])
                n = f["trajectory"].shape[0]
                check(n > 10 and f["trajectory"][n - 1, 0] == s["t_reached"],
                      "interrupted: %d rows, last t %s, t_reached %s" %
                      (n, f["trajectory"][n - 1, 0] if n else None, s["t_reached"]))
        else:
            check(False, "interrupted HDF5 run left no results.h5")
        check(not [d for d in os.listdir(work) if ".tmp-" in d], "temporary directory left behind")

        p = run(nsed, [sphere, "-o", "hp", "--format", "hdf5", "--plot", "--quiet"], work)
        check(p.returncode == 0 and os.path.getsize(os.path.join(work, "hp", "plots",
                                                                 "trajectory.png")) > 10000,
              "--plot with hdf5: %d %s" % (p.returncode, p.stderr))
        p = run(nsed, [sphere, "-o", "x", "--format", "xml"], work)
        check(p.returncode == 2 and "csv or hdf5" in p.stderr, "--format xml: %s" % p.stderr)
        check(not os.path.exists(os.path.join(work, "x")), "a refused run created its directory")
    return finish()


def finish():
    if failures:
        print("%d failure(s)" % len(failures), file=sys.stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
