#!/usr/bin/python3
"""Assemblies from Python (nsed.assemble, nsed.load_string).

Usage: test_assemble.py SOURCE_ROOT LIBNSED_SO [B_SANITIZE]

- nsed.assemble("disk_on_shaft") with case 2's settings gives, bit for bit,
  the run of problems/disk_on_shaft_case2.yaml, which is written with plain
  bodies, joints, forces and contacts (the builder and the hand-written
  file agree exactly, tests/io/test_assemblies.c);
- the omni-wheel testbench from its parameters rolls: the hub centre keeps
  v = spin R, and the events are the file's (written by
  scripts/make_omni_wheel.py) to 1e-9 s;
- the omni vehicle's rule across keys (a suspension for more than three
  wheels) comes back as InputError with the place and key; an unknown
  assembly is a ValueError;
- a model from text runs in memory and to a directory with the same arrays,
  its summary hashing the text.
Exit 77 (skipped) for a sanitizer build.
"""

import hashlib
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # also for harness: nothing written into the sources
from harness import Checks, binding_args  # noqa: E402

ROOT, LIB = binding_args(2)[:2]

import numpy as np  # noqa: E402

import nsed  # noqa: E402

check = Checks()


def problem(name):
    return os.path.join(ROOT, "problems", name)


# The disk on a shaft: the block's defaults are case 2.
settings = {"gravity": [0, 0, -9.81], "friction": {"model": "polygon", "form": "face", "sides": 32},
            "solver": {"t_end": 8, "baumgarte": {"eta": 25, "xi": 50, "gamma": 25}},
            "output": {"dt": 0.01}}
a = nsed.assemble("disk_on_shaft", settings=settings).run()
b = nsed.run(problem("disk_on_shaft_case2.yaml"), {"solver.t_end": 8})
check(a.trajectory.dtype.names == b.trajectory.dtype.names, "disk: the same columns")
check(len(a.trajectory) == len(b.trajectory) and all(
    np.array_equal(a.trajectory[c], b.trajectory[c]) for c in a.trajectory.dtype.names),
    "disk: the block's trajectory is the file's bit for bit")
check(np.array_equal(a.events["t"], b.events["t"]) and len(a.events) >= 3,
      f"disk: the same events ({len(a.events)})")
print(f"disk on shaft, 8 s: {len(a.trajectory)} rows, {len(a.events)} events, identical")

# The testbench from its parameters.
bench = {"gravity": [0, 0, -1], "friction": {"model": "polygon", "form": "face", "sides": 8},
         "solver": {"t_end": 2, "baumgarte": {"eta": 25, "xi": 50, "gamma": 25}}}
m = nsed.assemble("omni_wheel_testbench", {"rollers": 4, "contact": {"mu": 0.5}}, bench)
check(m.bodies == ("hub", "roller0", "roller1", "roller2", "roller3"), f"testbench bodies {m.bodies}")
check(m.forces == ("load",) and m.joints[-1] == "vertical", "testbench force and servo-constraint")
r = m.run()
f = nsed.run(problem("omni_wheel_testbench.yaml"), {"solver.t_end": 2})
worst = float(np.max(np.abs(r.events["t"] - f.events["t"]))) if len(r.events) == len(f.events) else 1.0
check(len(r.events) == len(f.events) and worst < 1e-9,
      f"testbench events as the generated file's ({len(r.events)} vs {len(f.events)}, {worst:.3g} s)")
vx = r.trajectory["hub.vx"]
check(np.max(np.abs(vx - 1.0)) < 0.05, f"testbench rolls near v = 1 (max |vx - 1| {np.max(np.abs(vx - 1)):.3g})")
print(f"testbench, 2 s: {len(r.events)} events, worst time difference to the file {worst:.3g} s")

# Rules across keys, and unknown blocks.
try:
    nsed.assemble("omni_vehicle", {"wheels": 4})
    check(False, "four rigid wheels accepted")
except nsed.InputError as e:
    msg = str(e)
    check(msg.startswith("<omni_vehicle>:1:") and "omni_vehicle.wheels:" in msg
          and "statically indeterminate" in msg, f"four wheels message: {msg}")
try:
    nsed.assemble("tricycle")
    check(False, "unknown assembly accepted")
except ValueError as e:
    check("omni_vehicle" in str(e), f"unknown assembly message: {e}")
four = nsed.assemble("omni_vehicle", {"wheels": 4, "suspension": {"stiffness": 1000}},
                     {"solver": {"t_end": 0.01}})
check(len(four.bodies) == 1 + 4 * 6, f"four sprung wheels: {len(four.bodies)} bodies")

# A model from text: in memory and to a directory alike; the summary hashes the text.
text = open(problem("sphere_slide_roll.yaml"), "rb").read()
t = nsed.load_string(text, {"solver.t_end": 0.5}, name="sphere.yaml")
mem = t.run()
with tempfile.TemporaryDirectory() as tmp:
    disk = t.run(outdir=os.path.join(tmp, "out"))
check(all(np.array_equal(mem.trajectory[c], disk.trajectory[c]) for c in mem.trajectory.dtype.names),
      "text model: in memory and to a directory alike")
sha = hashlib.sha256(text).hexdigest()
check(mem.summary["problem"] is None and mem.summary["problem_sha256"] == sha
      and disk.summary["problem_sha256"] == sha, "text model: summary hashes the text")
try:
    nsed.load_string("bodies: 3\n", name="bad.yaml")
    check(False, "bad text accepted")
except nsed.InputError as e:
    check(str(e).startswith("bad.yaml:1:"), f"text message names its name: {e}")

sys.exit(check.summary())
