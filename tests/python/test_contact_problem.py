#!/usr/bin/python3
"""Event problems from Python (python/nsed/contact_problem.py): the binding
reads, writes and solves contact-problem files through libnsed.

Usage: test_contact_problem.py SOURCE_ROOT LIBNSED_SO NSED [B_SANITIZE]

- closed forms: a 2 kg point on the floor (G = I / m, b = (-g, 0, 0))
  sticks with lambda = (m g, 0, 0); pushed along t1 by a free acceleration
  of 0.5 g with mu0 = 0.3 it slides (lambda_t = -mu0 m g along the push,
  a_t = (0.5 - 0.3) g) in every friction model; the same point hitting the
  floor at 3 m/s with restitution 0.4 takes the impulse m (1 + e) v and
  leaves at e v;
- the stored exact-cone problem (tests/data/cone/coast_slip_3c.txt) solved
  under the cone: the same forces, modes and path as `nsed cp --model cone`
  prints (17 digits), and Coulomb's law checked here on them;
- a written problem reads back bit for bit (numbers, kinds, spins, level);
- lcps=True hands over every LCP the solve posed: for the pushed point in
  the vertex form with 4 sides, the LCP written out by hand (unknowns
  lambda_n, beta_0..3, sigma); for the mecanum car's impact problem, the
  face form's fallback to the same polygon in vertex form, bit for bit
  what `nsed cp --write-lcp` writes;
- a malformed file raises InputError naming file and line; a problem the
  solver refuses (mu < 0) raises InputError; an unsolved one is an answer
  (solved False, the status and nsed's message), as the face form with one
  Lemke pivot gives on the mecanum car's impact problem.
"""
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
from harness import Checks, binding_args  # noqa: E402

root, libnsed, nsed_exe = binding_args(3)
import numpy as np  # noqa: E402

import nsed  # noqa: E402

check = Checks()
m, g = 2.0, 9.81


def point(b, mu0=0.3, impact=False, restitution=0.0):
    return nsed.ContactProblem(np.eye(3) / m, b, [{"kind": "stick_candidate", "mu": mu0, "mu0": mu0,
                                                  "restitution": restitution}], impact=impact)


def closed_forms():
    r = nsed.solve_contact_problem(point([-g, 0, 0]))
    check(r["solved"] and r["modes"] == ["stick"] and np.allclose(r["lambda"], [m * g, 0, 0], rtol=1e-14),
          f"resting point: {r}")
    for model in ("face", "vertex", "cone"):
        r = nsed.solve_contact_problem(point([-g, 0.5 * g, 0]), model=model)
        ok = r["solved"] and r["modes"] == ["slip"]
        lam, a = r.get("lambda", np.zeros(3)), r.get("a", np.zeros(3))
        # the polygons' friction along a face normal or vertex is mu0 lambda_n here (t1 is one)
        check(ok and abs(lam[0] - m * g) < 1e-12 * m * g and abs(lam[1] + 0.3 * m * g) < 1e-9 * m * g
              and abs(lam[2]) < 1e-9 * m * g and abs(a[1] - 0.2 * g) < 1e-9 * g,
              f"pushed point, {model}: lambda {lam}, a {a}, {r['path']}")
    r = nsed.solve_contact_problem(point([-3.0, 0, 0], impact=True, restitution=0.4))
    check(r["solved"] and abs(r["lambda"][0] - m * 1.4 * 3.0) < 1e-12 and abs(r["a"][0] - 1.2) < 1e-12,
          f"impact: impulse {r.get('lambda')}, velocity after {r.get('a')}")


def stored_cone_problem():
    path = os.path.join(root, "tests", "data", "cone", "coast_slip_3c.txt")
    p = nsed.read_contact_problem(path)
    r = nsed.solve_contact_problem(p, model="cone")
    cli = subprocess.run([nsed_exe, "cp", "--model", "cone", path], stdout=subprocess.PIPE, text=True)
    rows = [l.split() for l in cli.stdout.splitlines() if l.startswith("  contact ")]
    same = r["solved"] and len(rows) == 3 and all(
        [float(x) for x in row[4:7]] == list(r["lambda"][3 * i:3 * i + 3]) and row[2] == r["modes"][i]
        for i, row in enumerate(rows))
    check(same and "path=" + r["path"] in cli.stdout, f"Python and nsed cp agree: {r['path']}, {rows}")
    lam, a = r["lambda"].reshape(3, 3), r["a"].reshape(3, 3)
    scale = np.abs(lam).max()
    law = 0.0
    for i, c in enumerate(p.contacts):
        law = max(law, -lam[i, 0] / scale, min(lam[i, 0] / scale, a[i, 0] / np.abs(p.b).max()))
        if c["kind"] == "slipping":
            law = max(law, np.hypot(*(lam[i, 1:] + c["mu"] * lam[i, 0] * np.array(c["slip_dir"]))) / scale)
        else:
            law = max(law, (np.hypot(*lam[i, 1:]) - c["mu0"] * lam[i, 0]) / scale)
    check(law < 1e-9, f"Coulomb's law on the stored problem's answer: off by {law:.2e}")


def round_trip():
    p = nsed.ContactProblem(np.arange(64.0).reshape(8, 8) / 7.0, np.linspace(-1, 1, 8) / 3.0,
                            [{"kind": "slipping", "mu": 0.4, "mu0": 0.6, "slip_dir": (0.6, -0.8)},
                             {"kind": "frictionless"}],
                            [{"contact": 0, "kind": "slipping", "mu": 1e-3, "sign": -1.0},
                             {"contact": 1, "kind": "stick_candidate", "mu": 2e-3}], impact=True)
    with tempfile.TemporaryDirectory() as work:
        f = os.path.join(work, "p.txt")
        nsed.write_contact_problem(f, p, comment="a comment\nof two lines")
        q = nsed.read_contact_problem(f)
        text = open(f).read()
    check(np.array_equal(q.G, p.G) and np.array_equal(q.b, p.b) and q.impact, "G, b and level read back")
    check(q.contacts[0] == {"kind": "slipping", "mu": 0.4, "mu0": 0.6, "slip_dir": (0.6, -0.8),
                            "restitution": 0.0} and q.contacts[1]["kind"] == "frictionless"
          and q.spins[0] == {"contact": 0, "kind": "slipping", "mu": 1e-3, "sign": -1.0}
          and q.spins[1]["kind"] == "stick_candidate", f"contacts and spins read back: {q.contacts} {q.spins}")
    check(text.startswith("# a comment\n# of two lines\nnsed-contact-problem 1\n"), "the comment heads the file")


def errors():
    bad = os.path.join(root, "tests", "data", "lcp", "bad", "short.dat")
    try:
        nsed.read_contact_problem(bad)
        check(False, "a malformed file raises")
    except nsed.InputError as e:
        check(bad + ":1: expected 'nsed-contact-problem'" in e.message, f"located: {e.message}")
    try:
        nsed.solve_contact_problem(point([-g, 0, 0], mu0=-0.1))
        check(False, "mu < 0 raises")
    except nsed.InputError as e:
        check("friction coefficients" in e.message, f"the solver's check: {e.message}")
    car = os.path.join(root, "tests", "data", "cp", "mecanum_sideways_impact_5c.txt")
    r = nsed.solve_contact_problem(car, path="nsed", max_pivots=1)
    check(not r["solved"] and r["status"] == "NSED_ERR_LCP" and "pivot limit" in r["message"]
          and "lambda" not in r, f"an unsolved problem is an answer: {r['status']}, {r['message'][:80]}")
    check(nsed.solve_contact_problem(car)["solved"], "and solved on the default path")
    try:
        nsed.ContactProblem(np.eye(2), [0, 0], [{}])
        check(False, "G of the wrong size raises")
    except ValueError as e:
        check("need G of 3 x 3" in str(e), f"G of the wrong size: {e}")


def posed_lcps():
    mu0, push = 0.3, 0.5 * g
    r = nsed.solve_contact_problem(point([-g, push, 0], mu0=mu0), model="vertex", sides=4, lcps=True)
    check(r["solved"] and [x["form"] for x in r["lcps"]] == ["vertex"], f"one vertex LCP: {r.get('lcps')}")
    d = [(np.cos(j * np.pi / 2), np.sin(j * np.pi / 2)) for j in range(4)]
    M = np.zeros((6, 6))
    q = np.zeros(6)
    M[0, 0], q[0] = 1 / m, -g
    for j, (c, s_) in enumerate(d):
        for k, (ck, sk) in enumerate(d):
            M[1 + j, 1 + k] = (c * ck + s_ * sk) / m
        M[1 + j, 5] = 1.0
        q[1 + j] = c * push
        M[5, 1 + j] = -1.0
    M[5, 0] = mu0
    if r["lcps"]:
        got = r["lcps"][0]
        check(np.allclose(got["M"], M, rtol=0, atol=1e-15) and np.allclose(got["q"], q, rtol=0, atol=1e-15),
              f"the pushed point's LCP by hand:\n{got['M']}\n{got['q']}")
    car = os.path.join(root, "tests", "data", "cp", "mecanum_car_impact_8c_t81934.txt")
    r = nsed.solve_contact_problem(car, lcps=True)
    forms = [x["form"] for x in r["lcps"]]
    check(r["solved"] and forms == ["face-as-vertex"], f"the car: {r['status']}, {forms}")
    with tempfile.TemporaryDirectory() as work:
        out = subprocess.run([nsed_exe, "cp", "--write-lcp", work, car], stdout=subprocess.PIPE, text=True)
        path = os.path.join(work, "mecanum_car_impact_8c_t81934.1.face-as-vertex.dat")
        check(out.returncode == 0 and os.path.isfile(path), f"nsed cp --write-lcp: {out.stdout[-200:]}")
        if os.path.isfile(path) and r["lcps"]:
            tok = open(path).read().split()
            n = int(tok[0])
            vals = np.array([float(t) for t in tok[6:6 + n * n + n]])
            check(np.array_equal(vals[:n * n].reshape(n, n).T, r["lcps"][0]["M"])
                  and np.array_equal(vals[n * n:], r["lcps"][0]["q"]),
                  "the posed LCP equals the file nsed cp writes, bit for bit")
    check("lcps" not in nsed.solve_contact_problem(car), "no lcps unless asked")


def failed_run():
    """A run stopped on an event problem hands it over: in memory and read
    from its result directory, the same numbers; solved on the default path
    it is the box sliding down the 20-degree incline (normal forces m g cos
    20, each friction mu lambda_n)."""
    box = os.path.join(root, "problems", "box_incline.yaml")
    forced = ["friction.max_pivots=1", "friction.path=nsed"]
    mem = nsed.run(box, forced, check=False)
    p = mem.failed_event_problem
    check(mem.summary["status"] == "failed" and isinstance(p, nsed.ContactProblem),
          f"an in-memory failed run holds its problem: {mem.summary['status']}, {p!r}")
    with tempfile.TemporaryDirectory() as work:
        disk = nsed.run(box, forced, outdir=os.path.join(work, "box"), check=False)
        q = disk.failed_event_problem
        check(isinstance(q, nsed.ContactProblem), f"a run with outdir reads its file: {q!r}")
        if p is not None and q is not None:
            check(np.array_equal(p.G, q.G) and np.array_equal(p.b, q.b) and p.contacts == q.contacts
                  and p.impact == q.impact, "in memory and from the file: the same problem, bit for bit")
    ok = nsed.run(box, ["solver.t_end=0.05"])
    check(ok.failed_event_problem is None, "an ok run has none")
    if p is None:
        return
    check(len(p.contacts) == 4 and not p.impact, f"four vertices, acceleration level: {p!r}")
    r = nsed.solve_contact_problem(p)
    check(r["solved"], f"solved on the default path: {r['message']}")
    if r["solved"]:
        lam = r["lambda"].reshape(4, 3)
        weight_n = 2 * g * np.cos(np.radians(20))
        check(abs(lam[:, 0].sum() - weight_n) < 1e-9 * weight_n,
              f"normal forces sum to m g cos 20: {lam[:, 0].sum()} vs {weight_n}")
        worst = np.max(np.abs(np.hypot(lam[:, 1], lam[:, 2]) - 0.5 * lam[:, 0]))
        check(worst < 1e-9 * weight_n, f"every slip's friction is mu lambda_n: off by {worst}")


closed_forms()
stored_cone_problem()
round_trip()
errors()
posed_lcps()
failed_run()
sys.exit(check.summary())
