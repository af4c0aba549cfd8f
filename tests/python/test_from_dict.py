#!/usr/bin/python3
"""Problems as Python data (nsed.from_dict, nsed.load / nsed.run given a dict).

Usage: test_from_dict.py SOURCE_ROOT LIBNSED_SO [B_SANITIZE]

- the dict yaml.safe_load reads from problems/sphere_slide_roll.yaml runs
  bit for bit as nsed.run on the file (trajectory, contacts and events
  arrays; summary but for problem, problem_sha256 and the wall times), in
  memory and to a directory, and its stick event is at t* = 2 v0 / (7 mu g);
  the same for disk_on_shaft_case2.yaml (joints, a spring, a sine torque)
  for 4 s;
- every shipped problem file, read by PyYAML into a dict, loads into a model
  with the file's bodies, joints, forces, contacts, states, t_end and
  friction settings;
- a dict's mistakes raise InputError whose message is the C loader's for the
  same mistake in a problem file, key path and text alike, with "<dict>"
  (or the name given) for FILE:LINE:COL; overrides apply to dicts as to
  files;
- the summary of a dict's run says problem null and hashes the text
  nsed.dict_text gives.
Exit 77 (skipped) for a sanitizer build.
"""

import copy
import hashlib
import json
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True  # also for harness: nothing written into the sources
from harness import Checks, binding_args  # noqa: E402

ROOT, LIB = binding_args(2)[:2]

import yaml  # noqa: E402

import nsed  # noqa: E402

WALL = ("wall_seconds", "monitor_seconds")
check = Checks()


def problem(name):
    return os.path.join(ROOT, "problems", name)


def same_run(a, b, what, skip=("problem", "problem_sha256") + WALL):
    """Every array bit for bit, and the summaries but for the keys skipped."""
    check(a.trajectory.dtype == b.trajectory.dtype and len(a.trajectory) > 10
          and a.trajectory.tobytes() == b.trajectory.tobytes(),
          f"{what}: trajectory bit for bit ({len(a.trajectory)} vs {len(b.trajectory)} rows)")
    for table in ("contacts", "events"):
        x, y = getattr(a, table), getattr(b, table)
        ok = x.dtype.names == y.dtype.names and len(x) == len(y) and all(
            (x[c].tobytes() == y[c].tobytes()) if x[c].dtype.kind in "fi" else list(x[c]) == list(y[c])
            for c in x.dtype.names)
        check(ok, f"{what}: {table} identical")
    diff = [k for k in set(a.summary) | set(b.summary)
            if k not in skip and a.summary.get(k) != b.summary.get(k)]
    check(not diff, f"{what}: summaries differ in {diff}")


class _Dumper(yaml.SafeDumper):
    """PyYAML's block style, floats as Python writes them (nan, not .nan)
    and no aliases: a problem file as a person would write it."""

    def ignore_aliases(self, data):
        return True


_Dumper.add_representer(float, lambda d, v: d.represent_scalar("tag:yaml.org,2002:float", repr(v)))


def file_message(tmp, doc, name="bad.yaml"):
    """The C loader's message for doc written as a problem file (by PyYAML,
    block style), with its FILE:LINE:COL heads cut to FILE (what a dict's
    messages are compared with)."""
    path = os.path.join(tmp, name)
    text = yaml.dump(doc, Dumper=_Dumper, sort_keys=False)
    with open(path, "w") as f:
        f.write(text.replace("'nan'", "nan"))      # PyYAML quotes a float it cannot resolve
    try:
        nsed.load(path)
    except nsed.InputError as e:
        msg = re.sub("^" + re.escape(path) + r":\d+:\d+: ", "FILE: ", e.message, flags=re.M)
        return re.sub(r" \(also (\S+), line \d+\)$", r" (also \1)", msg, flags=re.M)
    return None


def test_sphere(tmp):
    path = problem("sphere_slide_roll.yaml")
    with open(path) as f:
        doc = yaml.safe_load(f)
    check(isinstance(doc, dict) and doc["bodies"][0]["name"] == "ball", "the file read as a dict")
    f_run = nsed.run(path)
    d_run = nsed.run(doc)
    same_run(d_run, f_run, "sphere: nsed.run(dict) vs nsed.run(file)")
    m = nsed.from_dict(doc, name="sphere-dict")
    check(m.name == "sphere-dict" and m.bodies == ("ball",) and m.contacts == ("ball_floor",)
          and m.path is None and m.text == nsed.dict_text(doc).encode(), f"from_dict model {m}")
    same_run(nsed.load(doc).run(), f_run, "sphere: nsed.load(dict).run()")
    # t* = 2 v0 / (7 mu g), v0 = 2 m/s, mu = 0.3, g = 9.81: the stick event
    tstar = 2 * 2.0 / (7 * 0.3 * 9.81)
    stick = d_run.events[d_run.events["kind"] == "stick"]["t"]
    check(len(stick) == 1 and abs(stick[0] - tstar) < 1e-9,
          f"sphere dict: stick at {stick} vs t* = {tstar!r}")
    print(f"sphere dict: {len(d_run.trajectory)} rows bit for bit as the file's; "
          f"stick at {stick[0]!r}, t* = {tstar!r}, |diff| = {abs(stick[0] - tstar):.3g} s")

    # to a directory: the files are the file run's but for summary.json's
    # problem and hash, which say null and the hash of the dict's text
    out_d, out_f = os.path.join(tmp, "dict"), os.path.join(tmp, "file")
    r = nsed.run(doc, outdir=out_d)
    nsed.run(path, outdir=out_f)
    for name in ("trajectory.csv", "contacts.csv", "events.csv"):
        with open(os.path.join(out_d, name), "rb") as a, open(os.path.join(out_f, name), "rb") as b:
            check(a.read() == b.read(), f"sphere dict to a directory: {name} as the file's")
    with open(os.path.join(out_d, "summary.json")) as f:
        summary = json.load(f)
    sha = hashlib.sha256(nsed.dict_text(doc).encode()).hexdigest()
    check(summary["problem"] is None and summary["problem_sha256"] == sha
          and d_run.summary["problem"] is None and d_run.summary["problem_sha256"] == sha
          and r.summary["status"] == "ok", f"dict summary: problem {summary['problem']!r}, "
          f"sha {summary['problem_sha256']} vs {sha}")

    # overrides apply to a dict as to a file
    over = {"contacts.ball_floor.mu": 0.2, "solver.t_end": 0.5}
    a, b = nsed.run(doc, over), nsed.run(path, over)
    same_run(a, b, "sphere dict with overrides")
    check(a.summary["overrides"] == ["contacts.ball_floor.mu=0.2", "solver.t_end=0.5"],
          f"dict overrides recorded {a.summary['overrides']}")


def test_disk(tmp):
    path = problem("disk_on_shaft_case2.yaml")
    with open(path) as f:
        doc = yaml.safe_load(f)
    doc["solver"]["t_end"] = 4
    a = nsed.run(doc)
    b = nsed.run(path, {"solver.t_end": 4})
    same_run(a, b, "disk on shaft, 4 s, dict vs file",
             skip=("problem", "problem_sha256", "overrides") + WALL)
    check(len(a.events) >= 3, f"disk on shaft: {len(a.events)} events")
    print(f"disk on shaft dict, 4 s: {len(a.trajectory)} rows, {len(a.events)} events, identical")


def test_all_problems(tmp):
    names = sorted(n for n in os.listdir(os.path.join(ROOT, "problems")) if n.endswith(".yaml"))
    for n in names:
        with open(problem(n)) as f:
            doc = yaml.safe_load(f)
        try:
            d = nsed.load(doc)
        except nsed.NsedError as e:
            check(False, f"{n} as a dict: {e}")
            continue
        m = nsed.load(problem(n))
        same = all(getattr(d, k) == getattr(m, k) for k in (
            "bodies", "joints", "forces", "contacts", "nstate", "t_end", "output_dt",
            "integrator", "friction_model", "friction_sides"))
        check(same, f"{n}: the dict's model differs from the file's: {d} vs {m}")
    print(f"{len(names)} problem files load as dicts into the files' models")


def test_errors(tmp):
    with open(problem("sphere_slide_roll.yaml")) as f:
        base = yaml.safe_load(f)

    def mutated(edit):
        d = copy.deepcopy(base)
        edit(d)
        return d

    cases = (
        ("mass -1", lambda d: d["bodies"][0].update(mass=-1),
         "<dict>: bodies[0].mass: expected a positive number, got -1"),
        ("typo", lambda d: d["bodies"][0].update(veloctiy=[1, 0, 0]),
         "<dict>: bodies[0].veloctiy: unknown key 'veloctiy' (did you mean 'velocity'?)"),
        ("unknown body", lambda d: d["contacts"][0].update(body="bal"),
         "<dict>: contacts[0].body: no body named 'bal' (did you mean 'ball'?)"),
        ("nan", lambda d: d["solver"].update(t_end=float("nan")),
         "<dict>: solver.t_end: expected a positive number, got nan "
         "(NaN and infinity are not allowed)"),
        ("not a list", lambda d: d.update(bodies=3),
         "<dict>: bodies: expected a list of items"),
        ("duplicate", lambda d: d["bodies"].append(dict(copy.deepcopy(d["bodies"][0]),
                                                        position=[1, 0, 0.1])),
         "<dict>: bodies[1].name: duplicate body name 'ball' (also bodies[0])"),
        ("sides", lambda d: d["friction"].update(sides=6),
         "<dict>: friction.sides: the friction polygon has 4n* sides"),
        ("interpenetrating", lambda d: d["bodies"][0].update(position=[0, 0, 0.05]),
         "<dict>: bodies[0].position: contact 'ball_floor' starts interpenetrating"),
    )
    for what, edit, expect in cases:
        doc = mutated(edit)
        try:
            nsed.load(doc)
            check(False, f"{what}: accepted")
            continue
        except nsed.InputError as e:
            msg = e.message
            check(msg.startswith(expect) and e.status == -1,
                  f"{what}: message {msg!r}, expected {expect!r}")
        # the same text as the C loader's for the mistake in a problem file
        ref = file_message(tmp, doc)
        check(ref is not None and re.sub("^<dict>: ", "FILE: ", msg, flags=re.M) == ref,
              f"{what}: dict message {msg!r} vs file message {ref!r}")
    # the name given is what messages call the dict
    try:
        nsed.from_dict(mutated(lambda d: d["bodies"][0].update(mass=0)), name="params")
        check(False, "mass 0 accepted")
    except nsed.InputError as e:
        check(e.message == "params: bodies[0].mass: expected a positive number, got 0",
              f"named dict message {e.message!r}")
    # an override's message keeps its --set origin
    try:
        nsed.load(base, {"bodies.ball.mass": -2})
        check(False, "override mass -2 accepted")
    except nsed.InputError as e:
        check(e.message == "--set bodies.ball.mass=-2: bodies[0].mass: expected a positive number, got -2",
              f"override message {e.message!r}")
    # strings are a problem file's scalars: quoted when they would not read
    # back as written, plain otherwise ("1.0e-6" is a number as in a file)
    d = mutated(lambda d: d["bodies"][0].update(name="a: b, [c]"))
    d["contacts"][0]["body"] = "a: b, [c]"
    try:
        nsed.load(d)
        check(False, "a name with a comma accepted")
    except nsed.InputError as e:
        check(e.message.startswith("<dict>: bodies[0].name: names may not contain commas, quotes "
                                   "or control characters (they become CSV column headers)"),
              f"quoted name: {e.message!r}")
    d = mutated(lambda d: (d["bodies"][0].update(name="ball: one"),
                           d["contacts"][0].update(body="ball: one")))
    check(nsed.load(d).bodies == ("ball: one",), "a name with a colon survives quoting")
    check(nsed.load(mutated(lambda d: d["solver"].update(t_end="5.0e-1"))).t_end == 0.5,
          "a number PyYAML left a string reads as in a file")
    # what YAML cannot say
    for bad, kind in ((mutated(lambda d: d["bodies"][0].update(mass=object())), TypeError),
                      (mutated(lambda d: d["bodies"][0].update({1: 2})), TypeError),
                      ([1, 2], TypeError)):
        try:
            nsed.from_dict(bad)
            check(False, f"{bad!r} accepted")
        except kind as e:
            check("bodies[0]" in str(e) or "dict" in str(e), f"{kind.__name__}: {e}")


def main():
    for test in (test_sphere, test_disk, test_all_problems, test_errors):
        with tempfile.TemporaryDirectory(prefix="nsed-dict-") as tmp:
            test(tmp)
    return check.summary()


if __name__ == "__main__":
    sys.exit(main())
