#!/usr/bin/python3
"""Result.to_pandas: the three tables as pandas DataFrames.

Usage: test_to_pandas.py SOURCE_ROOT LIBNSED_SO NSED_EXE [B_SANITIZE]

- without pandas (always checked: pandas is hidden from the import system
  for the call) to_pandas raises ImportError naming Debian's python3-pandas;
- with pandas importable (otherwise these checks are skipped, and the test
  says so on its output and in its closing line): for an in-memory run and
  for the directory `nsed run` wrote, the DataFrames {"trajectory",
  "contacts", "events"} have the arrays' columns in order and their values
  bit for bit, and equal pandas.read_csv of the CSV files (which print
  %.17g, so every double reads back exactly).
Exit 77 (skipped) for a sanitizer build.
"""

import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # also for harness: nothing written into the sources
from harness import Checks, binding_args  # noqa: E402

ROOT, LIB, EXE = binding_args(3)[:3]

import numpy as np  # noqa: E402

import nsed  # noqa: E402

check = Checks()
skipped = 0


def without_pandas(fn):
    """fn() while `import pandas` fails (as on a machine without it)."""
    saved = sys.modules.get("pandas", False)
    sys.modules["pandas"] = None          # makes `import pandas` raise ImportError
    try:
        return fn()
    finally:
        if saved is False:
            del sys.modules["pandas"]
        else:
            sys.modules["pandas"] = saved


def same_frame(df, array, what):
    names = list(array.dtype.names)
    check(list(df.columns) == names and len(df) == len(array), f"{what}: columns and rows")
    for c in names:
        col = df[c].to_numpy()
        if array[c].dtype.kind in "fi":
            ok = col.dtype == array[c].dtype and col.tobytes() == array[c].tobytes()
        else:
            ok = [str(x) for x in col] == [str(x) for x in array[c]]
        if not ok:
            check(False, f"{what}: column {c} differs")
            return
    check(True, "")


def main():
    global skipped
    problem = os.path.join(ROOT, "problems", "disk_on_shaft_case2.yaml")
    r = nsed.run(problem, {"solver.t_end": 4, "output.steps": True})

    # without pandas: an ImportError that says what to install
    try:
        without_pandas(r.to_pandas)
        check(False, "to_pandas without pandas did not raise")
    except ImportError as e:
        check("python3-pandas" in str(e) and "to_pandas" in str(e), f"ImportError text: {e}")
        print(f"without pandas: ImportError: {e}")

    try:
        import pandas
    except ImportError as e:
        skipped += 1
        print(f"SKIPPED: the DataFrame checks: pandas cannot be imported ({e}); "
              "install python3-pandas to run them")
        return check.summary(f", {skipped} skipped")

    frames = r.to_pandas()
    check(sorted(frames) == ["contacts", "events", "steps", "trajectory"], f"keys {sorted(frames)}")
    for key in ("trajectory", "contacts", "events", "steps"):
        check(isinstance(frames[key], pandas.DataFrame), f"{key} is a DataFrame")
        same_frame(frames[key], getattr(r, key), f"in memory {key}")
    with tempfile.TemporaryDirectory(prefix="nsed-pandas-") as tmp:
        out = os.path.join(tmp, "out")
        p = subprocess.run([EXE, "run", problem, "-o", out, "--quiet", "--set", "solver.t_end=4",
                            "--set", "output.steps=true"], capture_output=True, text=True)
        check(p.returncode == 0, f"nsed run: {p.stderr}")
        disk = nsed.read_result(out).to_pandas()
        for key in ("trajectory", "contacts", "events", "steps"):
            same_frame(disk[key], getattr(r, key), f"from the directory {key}")
            csv = pandas.read_csv(os.path.join(out, key + ".csv"), keep_default_na=False,
                                  float_precision="round_trip")
            ok = list(csv.columns) == list(disk[key].columns) and len(csv) == len(disk[key])
            for c in csv.columns if ok else ():
                a, b = csv[c].to_numpy(), disk[key][c].to_numpy()
                if a.dtype.kind == "f" or b.dtype.kind == "f":
                    ok &= np.array_equal(a.astype(float), b.astype(float), equal_nan=True)
                else:
                    ok &= [str(x) for x in a] == [str(x) for x in b]
            check(ok, f"{key}: to_pandas equals pandas.read_csv of {key}.csv")
    print(f"with pandas {pandas.__version__}: {len(frames['trajectory'])} trajectory rows, "
          f"{len(frames['contacts'])} contact rows, {len(frames['events'])} events as DataFrames")
    return check.summary(f", {skipped} skipped")


if __name__ == "__main__":
    sys.exit(main())
