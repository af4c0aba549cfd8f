#!/usr/bin/python3
"""Friction-model benchmark suite (issue 9, part 3): one command.

Usage:
  /usr/bin/python3 bench/friction/run.py [--nsed PATH] [--out DIR] [--quick]
        [--problems sphere,belt,...] [--models exact_cone,poly_face_n1,...]
        [--jobs N] [--timeout S]

For every problem x friction model it runs `nsed run`, measures the error
against a reference (closed form where one exists, else the exact-cone
event-driven run at rtol 1e-12 / atol 1e-14), and writes
  DIR/friction_bench.csv     one row per problem x model
  DIR/friction_bench.md      the same as a markdown table (for docs)
  DIR/friction_<problem>.png error vs wall time, log-log, per problem
  DIR/friction_sphere45.png  + sphere45.json: the 45-degree polygon artefact
  DIR/friction_vehicle_path.png the coasting vehicle's path and heading
                             against the reference, per model
  DIR/friction_vehicle_drive_path.png the same for the driven vehicle
  DIR/creep.json             regularised creep on an incline
All outputs are written atomically (temp file + rename).  Per-run result
folders are kept under DIR/runs/ for inspection.

Definitions (documented in docs/friction-models.md):
  * stick time of a model without stick events (regularised, compliant):
    the first time the slip speed falls below V_STICK = 1e-6 m/s;
  * slip onset without slip events: the first up-crossing of the slip speed
    through max(delta, V_STICK), i.e. where the regularised law saturates
    to its kinetic branch (below that it "creeps");
  * trajectory error: max over the output times common to both runs (the
    output.dt grid, up to the time both reached) of the Euclidean distance
    between the main body's positions.
"""

import argparse
import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
if __name__ == "__main__":
    sys.dont_write_bytecode = True   # keep python/nsed/__pycache__ out of the tree
sys.path.insert(0, os.path.join(ROOT, "python"))   # the package nsed, uninstalled
from nsed.results import ResultError, read_result  # noqa: E402
DEFAULT_NSED = os.path.join(ROOT, "build", "src", "cli", "nsed")

V_STICK = 1e-6          # m/s: "stuck" for models that have no stick event
ERR_FLOOR = 1e-16       # zero errors are drawn at this level on log plots
TIGHT = ["solver.rtol=1e-12", "solver.atol=1e-14"]
# Stiff laws (regularised friction with small delta, penalty normal) need an
# implicit integrator: the explicit DP5 takes ~1e6 steps/s below delta.
STIFF = ["solver.integrator=cvode_bdf", "solver.rtol=1e-8", "solver.atol=1e-10"]
COMPLIANT_K = 1e6       # N/m; damping 2 sqrt(k m) with m = 1 kg (critical-ish)
COMPLIANT_C = 2 * math.sqrt(COMPLIANT_K * 1.0)

# Problems: file, t_end (quick t_end), main body, closed form (if any), and
# extra overrides given to every run of it (finer output for crossing times).
PROBLEMS = {
    "sphere": dict(file="sphere_slide_roll.yaml", t_end=1, body="ball",
                   closed="sphere", extra=["output.dt=1e-4"]),
    "belt": dict(file="block_on_belt.yaml", t_end=20, body="block",
                 closed="belt", extra=["output.dt=1e-3"]),
    "disk1": dict(file="disk_on_shaft_case1.yaml", t_end=10, body="disk"),
    "disk2": dict(file="disk_on_shaft_case2.yaml", t_end=25, body="disk"),
    "disk3": dict(file="disk_on_shaft_case3.yaml", t_end=50, quick_t_end=20,
                  body="disk"),
    "omni": dict(file="omni_wheel_testbench.yaml", t_end=10, body="hub"),
    "box": dict(file="box_incline.yaml", t_end=2, body="box", closed="box",
                contact_suffix=".v0", extra=["output.dt=1e-4"]),
    "capsule": dict(file="capsule_incline.yaml", t_end=1, body="pill", closed="capsule",
                    contact_suffix=".end0"),
    # The tippe top at mu = 0.3 (the file glides at 0.01): under exact
    # Coulomb friction its slip stops at once and it rolls upright; a law
    # whose friction vanishes with the slip keeps it gliding until it has
    # turned over. Its weld gets Baumgarte terms: at the stiff laws' rtol
    # 1e-8 the unstabilised joint drifts past drift_tol within seconds.
    "tippe": dict(file="tippe_top.yaml", t_end=10, quick_t_end=5, body="ballast",
                  closed="tippe", extra=["contacts.shell_floor.mu=0.3",
                                         "contacts.shell_floor.mu0=0.3",
                                         "solver.baumgarte.eta=20", "solver.baumgarte.xi=20"]),
    # Kosenko's omni vehicle coasting (Kosenko and Gerasimov, section 5: how
    # the friction model changes the vehicle's motion). Its twelve roller
    # contacts come from one mapping, omni_vehicle.contact, which every
    # model's law overrides; the slip series is wheel 0's first roller's.
    # Torsional friction: a sphere sliding and spinning about the vertical
    # (the spin's stop time in closed form). The exact cone has no torsional
    # row (refused: a failed row), so the reference is the tight face
    # octagon, exact for the interval.
    "spin": dict(file="ball_spin_slide.yaml", t_end=0.5, body="ball", closed="spin",
                 reference=["friction.model=polygon", "friction.form=face", "friction.sides=8"],
                 extra=["output.dt=1e-4"]),
    "vehicle": dict(file="omni_vehicle_coast.yaml", t_end=10, quick_t_end=2, body="platform",
                    closed="vehicle", contact_keys=["omni_vehicle.contact"],
                    slip_contact="wheel0_roller0_floor", extra=["output.dt=0.01"]),
    # The same vehicle driven (problems/omni_vehicle_drive.yaml: ahead,
    # braked, turned in place, coasting): traction instead of a free coast.
    "vehicle_drive": dict(file="omni_vehicle_drive.yaml", t_end=10, quick_t_end=2,
                          body="platform", closed="vehicle",
                          contact_keys=["omni_vehicle.contact"],
                          slip_contact="wheel0_roller0_floor", extra=["output.dt=0.01"]),
}

# Closed forms (problem headers).
SPHERE_MU, SPHERE_G = 0.3, 9.81
# problems/ball_spin_slide.yaml: spin w0 about the vertical, torsion d (m),
# I = 2/5 m r^2: the spin stops at I w0 / (d m g).
SPIN_W0, SPIN_TORSION, SPIN_R = 5.0, 0.01, 0.1
SPIN_STOP = 0.4 * SPIN_R ** 2 * SPIN_W0 / (SPIN_TORSION * SPHERE_G)
# The regularised and compliant moments saturate at torsion_rate (nsed's
# default 1e-6 rad/s, not overridden here) and decay exponentially below
# it; their "stop" is where the spin falls below W_STICK, a decade lower.
TORSION_RATE = 1e-6
W_STICK = 1e-7
BOX_V0, BOX_MU, BOX_THETA = 1.0, 0.5, math.radians(20)
# The capsule rolling down its incline (problems/capsule_incline.yaml header).
CAPSULE_A, CAPSULE_THETA = 1.713445592454786, math.radians(15)
BELT_FIRST_SLIP, BELT_PERIOD = 2.4525, 3.1526808705


def model_list():
    """All models, in table order: dicts with name, family, n_star, form, delta."""
    models = []
    for form in ("face", "vertex"):
        for n in (1, 2, 4, 8, 16):
            models.append(dict(name=f"poly_{form}_n{n}", family="polygon",
                               n_star=n, form=form, delta=None))
    models.append(dict(name="exact_cone", family="exact_cone", n_star=None,
                       form=None, delta=None))
    for d in ("1e-2", "1e-4", "1e-6", "1e-8"):
        models.append(dict(name=f"reg_{d}", family="regularized", n_star=None,
                           form=None, delta=float(d)))
    models.append(dict(name="compliant", family="compliant", n_star=None,
                       form=None, delta=1e-4))
    return models


def contact_keys(problem):
    """The override prefixes that set the contacts' law in a problem:
    contacts.NAME for each contact of its `contacts:` block, or the
    problem's own (an assembly's contact mapping)."""
    p = PROBLEMS[problem]
    if "contact_keys" in p:
        return list(p["contact_keys"])
    return [f"contacts.{c}" for c in contact_names(os.path.join(ROOT, "problems", p["file"]))]


def contact_names(yaml_path):
    """Contact names from the `contacts:` block of a problem file.

    A minimal regex parse (no PyYAML on the target): the block runs from the
    top-level `contacts:` line to the next top-level key."""
    names, inside = [], False
    with open(yaml_path) as f:
        for line in f:
            if re.match(r"^contacts\s*:", line):
                inside = True
                continue
            if inside and re.match(r"^[A-Za-z_]", line):
                break
            m = re.search(r"\bname\s*:\s*([A-Za-z0-9_.\-]+)", line) if inside else None
            if m:
                names.append(m.group(1))
    if not names:
        raise SystemExit(f"run.py: no contacts found in {yaml_path}")
    return names


def model_overrides(model, problem, keys):
    """--set overrides that switch a problem to `model`; keys: the contacts'
    override prefixes (contact_keys)."""
    fam = model["family"]
    if fam == "polygon":
        sides = 4 * model["n_star"]
        sets = ["friction.model=polygon", f"friction.form={model['form']}",
                f"friction.sides={sides}"]
        # Coarse polygons on the disk stall at 2D slip stops (problem headers).
        if problem.startswith("disk") and sides <= 8:
            sets.append("solver.slip_stop_speed=1e-7")
        return sets
    if fam == "exact_cone":
        return ["friction.model=exact_cone"]
    sets = list(STIFF)
    for k in keys:
        sets += [f"{k}.law={fam}", f"{k}.delta={model['delta']:g}"]
        if fam == "compliant":
            sets += [f"{k}.stiffness={COMPLIANT_K:g}", f"{k}.damping={COMPLIANT_C:g}"]
    return sets


# ---------------------------------------------------------------- running nsed

STOP_GRACE = 30.0  # s a run told to stop (SIGTERM) may take to write its files before it is killed


def leftover_tmp_dirs(outdir):
    """nsed's own temporary siblings of outdir (OUTDIR.tmp-XXXXXX): a killed
    run leaves one behind."""
    parent, name = os.path.split(os.path.abspath(outdir))
    pat = re.compile(re.escape(name) + r"\.tmp-[A-Za-z0-9]{6}$")
    return [os.path.join(parent, e) for e in os.listdir(parent) if pat.match(e)]


def run_until(cmd, timeout, grace=STOP_GRACE):
    """Run cmd; past `timeout` s stop it with SIGTERM, on which nsed writes
    its files up to that instant (status "interrupted") and removes its
    temporary folder, and kill it if it has not ended `grace` s later.
    Returns (returncode, stderr, stopped: None, "terminated" or "killed")."""
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as p:
        try:
            _, err = p.communicate(timeout=timeout)
            return p.returncode, err, None
        except subprocess.TimeoutExpired:
            p.terminate()
        try:
            _, err = p.communicate(timeout=grace)
            return p.returncode, err, "terminated"
        except subprocess.TimeoutExpired:
            p.kill()
            _, err = p.communicate()
            return p.returncode, err, "killed"


def run_nsed(nsed, yaml_path, outdir, sets, timeout, grace=STOP_GRACE):
    """Run nsed; return its summary dict (status 'timeout', 'refused' or
    'crashed' made up when nsed did not write one).  A finished result folder is reused so an
    interrupted suite resumes cheaply.  A run past `timeout` is stopped
    with its files up to then kept (status 'timeout', t_reached where it
    stopped; not marked finished, so a resumed suite runs it again); one
    that had to be killed leaves no temporary folder behind."""
    summ_path = os.path.join(outdir, "summary.json")
    stamp = os.path.join(outdir, "overrides.txt")
    if os.path.exists(summ_path) and os.path.exists(stamp):
        with open(stamp) as f:
            if f.read() == "\n".join(sets):
                with open(summ_path) as g:
                    return json.load(g)
    os.makedirs(outdir, exist_ok=True)
    cmd = [nsed, "run", yaml_path, "-o", outdir, "--quiet"]
    for s in sets:
        cmd += ["--set", s]
    returncode, stderr, stopped = run_until(cmd, timeout, grace)
    if stopped:
        for leftover in leftover_tmp_dirs(outdir):
            shutil.rmtree(leftover, ignore_errors=True)
        summ = dict(wall_seconds=float(timeout), t_reached=float("nan"),
                    events=0, rhs_evaluations=0, steps=0)
        if stopped == "terminated" and os.path.exists(summ_path):
            with open(summ_path) as g:
                written = json.load(g)
            if written.get("status") == "interrupted":   # this run's, not an older one's
                summ = written
        summ.update(status="timeout", message=f"stopped after {timeout} s ({stopped})")
        return summ
    if not os.path.exists(summ_path):
        # exit status 2: the problem with these overrides is refused as input
        # (the exact cone with torsional friction); anything else crashed.
        return dict(status="refused" if returncode == 2 else "crashed",
                    message=stderr.strip()[-300:],
                    wall_seconds=float("nan"), t_reached=float("nan"),
                    events=0, rhs_evaluations=0, steps=0)
    with open(summ_path) as g:
        summ = json.load(g)
    with open(stamp, "w") as f:       # written last: marks the folder complete
        f.write("\n".join(sets))
    return summ


def load_run(outdir, body, contact):
    """Arrays of one run: t, pos (n x 3), vel (n x 3), slip (t, speed), events;
    empty when the run left no readable result (a timeout, a crash)."""
    run = dict(t=np.zeros(0), pos=np.zeros((0, 3)), vel=np.zeros((0, 3)), quat=np.zeros((0, 4)),
               w=np.zeros((0, 3)), slip_t=np.zeros(0), slip=np.zeros(0), events=[])
    try:
        r = read_result(outdir, strict_summary=False)
    except ResultError:
        return run
    if len(r.trajectory):
        tr = r.trajectory
        run["t"] = tr["t"].copy()
        run["pos"] = np.column_stack([tr[f"{body}.{k}"] for k in "xyz"])
        run["vel"] = np.column_stack([tr[f"{body}.v{k}"] for k in "xyz"])
        run["quat"] = np.column_stack([tr[f"{body}.q{k}"] for k in "0123"])
        run["w"] = np.column_stack([tr[f"{body}.w{k}"] for k in "xyz"])
    mine = r.contact(contact)
    run["slip_t"] = mine["t"].copy()
    run["slip"] = mine["slip_speed"].copy()
    e = r.events
    run["events"] = [(float(t), str(k), str(c)) for t, k, c in zip(e["t"], e["kind"], e["contact"])]
    return run


# ------------------------------------------------------------------ metrics

def crossings(t, s, thr, upward):
    """Times where s crosses thr (up or down), interpolated linearly in t."""
    out = []
    for i in range(1, len(s)):
        a, b = s[i - 1], s[i]
        hit = (a < thr <= b) if upward else (a >= thr > b)
        if hit:
            out.append(t[i - 1] + (thr - a) / (b - a) * (t[i] - t[i - 1]))
    return out


def stick_crossing(t, s, thr, delta):
    """First time the slip speed falls below thr, for the regularised law.

    Plain interpolation between output samples is wrong by up to a sample
    interval here: the slip falls linearly while the law is saturated
    (|v| > delta) and then decays exponentially, at the rate |slope| / delta
    (the linear branch mu N v / delta matches the saturated slope at v =
    delta).  So within the crossing interval: extrapolate the previous
    sample slope down to delta (the kink), then add the exponential time
    from delta to thr.  Exact for the regularised law, whatever the output
    step."""
    c = crossings(t, s, thr, upward=False)
    if not c or delta is None:
        return c[0] if c else float("nan")
    i = int(np.searchsorted(t, c[0]))            # s[i-1] >= thr > s[i]
    if i < 2 or s[i - 1] <= 0:
        return c[0]
    if s[i - 1] <= delta:                         # already exponential: log-linear
        if s[i] <= 0:
            return c[0]
        f = math.log(s[i - 1] / thr) / math.log(s[i - 1] / s[i])
        return t[i - 1] + f * (t[i] - t[i - 1])
    slope = (s[i - 1] - s[i - 2]) / (t[i - 1] - t[i - 2])
    if slope >= 0:
        return c[0]
    t_kink = t[i - 1] + (delta - s[i - 1]) / slope
    return t_kink + math.log(delta / thr) * delta / (-slope)


def event_times(run, kind):
    return [e[0] for e in run["events"] if e[1] == kind]


def sphere_metrics(run, model, v0=2.0):
    """|t_stick - t*| and |v_final - 5/7 v0| (closed form, header)."""
    t_star = 2 * v0 / (7 * SPHERE_MU * SPHERE_G)
    sticks = event_times(run, "stick")
    if sticks:
        t_stick = sticks[0]
    else:   # no stick event (regularised, compliant): slip speed < V_STICK
        t_stick = stick_crossing(run["slip_t"], run["slip"], V_STICK, model["delta"])
    v_fin = float(np.hypot(*run["vel"][-1, :2])) if len(run["t"]) else float("nan")
    return dict(t_stick=t_stick, t_stick_err=abs(t_stick - t_star),
                v_final_err=abs(v_fin - 5 / 7 * v0))


def spin_metrics(run, model):
    """|t_spin - t_spin*|, the spin's stop against the closed form, and the
    slide's stick error as for the sphere. Without spin events (regularised,
    compliant moments) the stop is where the spin about the vertical (world
    z of the body-axis rates) first falls below W_STICK, located as the
    slide's stick is (stick_crossing: the linear fall extrapolated to the
    kink at TORSION_RATE, then the exponential decay)."""
    out = sphere_metrics(run, model)
    stops = event_times(run, "spin_stick")
    if stops:
        t_spin = stops[0]
    elif len(run["t"]):
        q, w = run["quat"], run["w"]
        wz = (2 * (q[:, 1] * q[:, 3] - q[:, 0] * q[:, 2]) * w[:, 0]
              + 2 * (q[:, 2] * q[:, 3] + q[:, 0] * q[:, 1]) * w[:, 1]
              + (1 - 2 * (q[:, 1] ** 2 + q[:, 2] ** 2)) * w[:, 2])
        t_spin = stick_crossing(run["t"], np.abs(wz), W_STICK, TORSION_RATE)
    else:
        t_spin = float("nan")
    out.update(t_spin=t_spin, t_spin_err=abs(t_spin - SPIN_STOP))
    return out


def box_metrics(run, model):
    """The box down the incline: |t_stop - t*| with t* = v0 / a, a = g (mu cos
    th - sin th) (the header), and the speed it is left with at the end
    (exact: 0; regularised: it creeps at delta tan th / mu).  Without stick
    events the stop is where the slip speed reaches delta, plus delta / a:
    exact on the regularised law's saturated branch, where the box
    decelerates at a (below delta the law's linear branch takes over)."""
    a = SPHERE_G * (BOX_MU * math.cos(BOX_THETA) - math.sin(BOX_THETA))
    t_star = BOX_V0 / a
    sticks = event_times(run, "stick")
    if sticks:
        t_stop = sticks[0]
    elif model["delta"]:
        c = crossings(run["slip_t"], run["slip"], model["delta"], upward=False)
        t_stop = c[0] + model["delta"] / a if c else float("nan")
    else:
        t_stop = float("nan")
    v_end = float(np.linalg.norm(run["vel"][-1])) if len(run["t"]) else float("nan")
    creep = model["delta"] * math.tan(BOX_THETA) / BOX_MU if model["delta"] else 0.0
    return dict(t_stop=t_stop, t_stop_err=abs(t_stop - t_star), v_end=v_end,
                v_end_err=abs(v_end - creep))


def capsule_metrics(run, model):
    """The capsule rolling down the incline: the distance along the slope at
    the end against a t^2 / 2 (rolling without slip, the header); a law
    without stick lets it slip a little and it runs ahead."""
    if not len(run["t"]):
        return dict(roll_err=float("nan"))
    t = run["t"][-1]
    d = run["pos"][-1] - run["pos"][0]
    along = -(d[0] * math.cos(CAPSULE_THETA) + d[2] * math.sin(CAPSULE_THETA))
    return dict(roll_err=abs(along - 0.5 * CAPSULE_A * t * t))


def inclination(quat):
    """Angle of the body z axis from the world z (rad), per row."""
    q = quat / np.linalg.norm(quat, axis=1)[:, None]
    return np.arccos(np.clip(1 - 2 * (q[:, 1] ** 2 + q[:, 2] ** 2), -1, 1))


def tippe_metrics(run, ref, model):
    """The tippe top: its inclination at the end against the reference's
    (exact cone, tight: it rolls upright), and when its glide ends (the
    stick event, or the slip speed below V_STICK for a law without one)."""
    if not len(run["t"]) or not len(ref["t"]):
        return dict(theta_end=float("nan"), theta_end_err=float("nan"), glide_end=float("nan"))
    th, th_ref = inclination(run["quat"])[-1], inclination(ref["quat"])[-1]
    sticks = event_times(run, "stick")
    glide = sticks[0] if sticks else stick_crossing(run["slip_t"], run["slip"], V_STICK,
                                                    model["delta"])
    return dict(theta_end=float(th), theta_end_err=float(abs(th - th_ref)), glide_end=glide)


def heading(quat):
    """Yaw of a body (rad) about the world z, per row, unwrapped."""
    q = quat / np.linalg.norm(quat, axis=1)[:, None]
    w, x, y, z = q.T
    return np.unwrap(np.arctan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z)))


def vehicle_metrics(run, ref, summ, ref_summ):
    """The vehicle against the exact cone at tight tolerances: the platform's
    path (traj_max_diff), its heading and the energy at the end, and how far
    it got (the reference coasts a path of path_ref)."""
    nan = float("nan")
    if not len(run["t"]) or not len(ref["t"]):
        return dict(yaw_end_err=nan, energy_end_err=nan, path_end_err=nan)
    common = min(run["t"][-1], ref["t"][-1])
    ia = np.searchsorted(run["t"], common)
    ib = np.searchsorted(ref["t"], common)
    ia, ib = min(ia, len(run["t"]) - 1), min(ib, len(ref["t"]) - 1)
    e, e_ref = summ.get("energy_final", nan), ref_summ.get("energy_final", nan)
    return dict(yaw_end_err=float(abs(heading(run["quat"])[ia] - heading(ref["quat"])[ib])),
                path_end_err=float(np.linalg.norm(run["pos"][ia, :2] - ref["pos"][ib, :2])),
                energy_end_err=float(abs(e - e_ref)) if summ.get("status") == "ok" else nan)


def belt_metrics(run, model):
    """First slip time and period errors against the closed form."""
    onsets = event_times(run, "slip")
    if not onsets and model["delta"]:   # no events: saturation crossings
        onsets = crossings(run["slip_t"], run["slip"],
                           max(model["delta"], V_STICK), upward=True)
    first = onsets[0] if onsets else float("nan")
    period = float(np.mean(np.diff(onsets))) if len(onsets) >= 2 else float("nan")
    return dict(first_slip=first, first_slip_err=abs(first - BELT_FIRST_SLIP),
                period=period, period_err=abs(period - BELT_PERIOD),
                slip_onsets=len(onsets))


def compare_events(run, ref):
    """Event-time errors matched by order, if the (kind, contact) sequences
    agree; otherwise over the common prefix, flagged as a mismatch."""
    a = [(k, c) for _, k, c in run["events"]]
    b = [(k, c) for _, k, c in ref["events"]]
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    errs = [abs(run["events"][i][0] - ref["events"][i][0]) for i in range(n)]
    return dict(event_time_err_max=max(errs) if errs else float("nan"),
                events_matched=n, events_ref=len(b),
                event_seq_match=(a == b))


def traj_diff(run, ref):
    """Max position distance of the main body over the common time grid.

    Only times present in both outputs (the output.dt grid) are compared:
    interpolating a 0.01 s grid onto the extra rows one run has (events,
    slip-stop rows) would add an interpolation error of ~1e-3 m that is no
    model error.  Event rows repeat a time; the first row is taken (the
    position is continuous through events)."""
    if len(run["t"]) < 2 or len(ref["t"]) < 2:
        return float("nan")
    common = np.intersect1d(run["t"], ref["t"])
    if len(common) == 0:
        return float("nan")
    ia = np.searchsorted(run["t"], common)
    ib = np.searchsorted(ref["t"], common)
    d = run["pos"][ia] - ref["pos"][ib]
    return float(np.max(np.linalg.norm(d, axis=1)))


def primary_error(pinfo, m):
    """The error plotted against cost: closed-form event error, else the
    trajectory error against the tight exact-cone reference."""
    if pinfo.get("closed") == "sphere":
        return m["t_stick_err"], "abs(t_stick - t*) [s]"
    if pinfo.get("closed") == "spin":
        return m["t_spin_err"], "abs(t_spin - t_spin*) [s]"
    if pinfo.get("closed") == "box":
        return m["t_stop_err"], "abs(t_stop - t*) [s]"
    if pinfo.get("closed") == "capsule":
        return m["roll_err"], "abs(distance - a t^2 / 2) [m]"
    if pinfo.get("closed") == "tippe":
        return m["theta_end_err"], "abs(theta_end - theta_end of the exact cone) [rad]"
    if pinfo.get("closed") == "belt":
        return np.nanmax([m["first_slip_err"], m["period_err"]]) \
            if not (math.isnan(m["first_slip_err"]) and math.isnan(m["period_err"])) \
            else float("nan"), "max(first slip, period) error [s]"
    return m["traj_max_diff"], "max |x - x_ref| of main body [m]"


# ------------------------------------------------------------ atomic output

def atomic_write(path, write):
    """Call write(fileobj) on a temp file beside path, then rename over it."""
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp_", suffix=os.path.splitext(path)[1])
    try:
        with os.fdopen(fd, "w", newline="") as f:
            write(f)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def atomic_savefig(fig, path):
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp_", suffix=".png")
    os.close(fd)
    try:
        fig.savefig(tmp, dpi=110)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


COLUMNS = ["problem", "model", "family", "n_star", "form", "delta", "status",
           "t_reached", "events", "rhs_evaluations", "steps", "wall_seconds",
           "error", "error_kind", "t_stick_err", "v_final_err", "t_spin", "t_spin_err", "t_stop_err", "v_end",
           "v_end_err", "roll_err", "theta_end", "theta_end_err", "glide_end", "first_slip_err",
           "period_err", "yaw_end_err", "path_end_err", "energy_end_err", "event_time_err_max", "events_matched", "events_ref",
           "event_seq_match", "traj_max_diff", "message"]


def fmt(v):
    if v is None:
        return ""
    if isinstance(v, float):
        return "" if math.isnan(v) else f"{v:.6g}"
    return str(v)


def write_csv(path, rows):
    def w(f):
        wr = csv.writer(f)
        wr.writerow(COLUMNS)
        for r in rows:
            wr.writerow([fmt(r.get(c)) for c in COLUMNS])
    atomic_write(path, w)


def write_markdown(path, rows):
    cols = ["problem", "model", "status", "error", "wall_seconds",
            "rhs_evaluations", "events", "event_seq_match", "traj_max_diff"]

    def w(f):
        f.write("| " + " | ".join(cols) + " |\n")
        f.write("|" + "---|" * len(cols) + "\n")
        for r in rows:
            vals = [fmt(r.get(c)) for c in cols]
            vals = [f"{float(v):.3g}" if c in ("error", "wall_seconds", "traj_max_diff")
                    and v else v for c, v in zip(cols, vals)]
            f.write("| " + " | ".join(vals) + " |\n")
    atomic_write(path, w)


# --------------------------------------------------------------------- plots

FAMILY_STYLE = {"polygon": ("tab:blue", "o"), "exact_cone": ("tab:green", "s"),
                "regularized": ("tab:orange", "^"), "compliant": ("tab:red", "D")}


def plot_problem(path, problem, rows):
    """Error vs wall time, log-log, each point labelled by its model."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7.5, 5.5))
    for r in rows:
        err, wall = r["error"], r["wall_seconds"]
        if not (isinstance(wall, float) and wall > 0) or err is None or math.isnan(err):
            continue
        colour, marker = FAMILY_STYLE[r["family"]]
        ok = r["status"] == "ok"
        ax.loglog(wall, max(err, ERR_FLOOR), marker if ok else "x", color=colour,
                  ms=7, mfc=colour if ok else "none")
        ax.annotate(r["model"] + ("" if ok else f" ({r['status']})"),
                    (wall, max(err, ERR_FLOOR)), fontsize=7,
                    xytext=(4, 2), textcoords="offset points")
    for fam, (colour, marker) in FAMILY_STYLE.items():
        ax.plot([], [], marker, color=colour, label=fam)
    ax.plot([], [], "x", color="k", label="not ok (partial run)")
    ax.set_xlabel("wall time [s]")
    kinds = {r["error_kind"] for r in rows}
    ax.set_ylabel(kinds.pop() if len(kinds) == 1 else "error")
    ax.set_title(f"friction models: {problem} (errors < {ERR_FLOOR:g} drawn at it)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    atomic_savefig(fig, path)
    plt.close(fig)


VEHICLE_CURVES = ("poly_face_n1", "poly_face_n8", "poly_vertex_n1", "exact_cone", "reg_1e-2",
                  "reg_1e-4", "reg_1e-6", "compliant")


def plot_vehicle(path, out, problem="vehicle", what="coasting"):
    """The vehicle problem: the reference's platform path, and each model's
    distance from it and heading difference over time (log scale)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rdir = os.path.join(out, "runs", problem)
    ref = load_run(os.path.join(rdir, "reference"), "platform", "wheel0_roller0_floor")
    if len(ref["t"]) < 2:
        return
    fig, (ax0, ax1, ax2) = plt.subplots(1, 3, figsize=(14, 4.5))
    ax0.plot(ref["pos"][:, 0], ref["pos"][:, 1], "k-", lw=1.5)
    ax0.plot(ref["pos"][0, 0], ref["pos"][0, 1], "ko")
    ax0.set_aspect("equal", adjustable="datalim")
    ax0.set_xlabel("x")
    ax0.set_ylabel("y")
    ax0.set_title("platform path (exact cone, rtol 1e-12)")
    yaw_ref = heading(ref["quat"])
    for name in VEHICLE_CURVES:
        run = load_run(os.path.join(rdir, name), "platform", "wheel0_roller0_floor")
        if len(run["t"]) < 2:
            continue
        common = np.intersect1d(run["t"], ref["t"])
        ia, ib = np.searchsorted(run["t"], common), np.searchsorted(ref["t"], common)
        dist = np.linalg.norm(run["pos"][ia, :2] - ref["pos"][ib, :2], axis=1)
        dyaw = np.abs(heading(run["quat"])[ia] - yaw_ref[ib])
        ax1.semilogy(common, np.maximum(dist, ERR_FLOOR), lw=1, label=name)
        ax2.semilogy(common, np.maximum(dyaw, ERR_FLOOR), lw=1, label=name)
    ax1.set_xlabel("t")
    ax1.set_ylabel("|platform position - reference|")
    ax2.set_xlabel("t")
    ax2.set_ylabel("|heading - reference| [rad]")
    for ax in (ax1, ax2):
        ax.grid(True, which="both", alpha=0.3)
    ax2.legend(fontsize=7, loc="lower right")
    fig.suptitle(f"friction models: the omni vehicle {what} (Kosenko's units)")
    fig.tight_layout()
    atomic_savefig(fig, path)
    plt.close(fig)


# ------------------------------------------------------------ the benchmark

def submit_problem(args, problem, models, pool):
    """Queue the reference and all model runs of one problem (all problems
    are queued before any is collected, so slow runs overlap)."""
    p = PROBLEMS[problem]
    yaml_path = os.path.join(ROOT, "problems", p["file"])
    keys = contact_keys(problem)
    t_end = p.get("quick_t_end", p["t_end"]) if args.quick else p["t_end"]
    base = p.get("extra", []) + [f"solver.t_end={t_end}"]
    rdir = os.path.join(args.out, "runs", problem)

    jobs = {"reference": pool.submit(run_nsed, args.nsed, yaml_path,
                                     os.path.join(rdir, "reference"),
                                     base + p.get("reference", ["friction.model=exact_cone"]) + TIGHT,
                                     args.timeout)}
    for m in models:
        jobs[m["name"]] = pool.submit(run_nsed, args.nsed, yaml_path,
                                      os.path.join(rdir, m["name"]),
                                      base + model_overrides(m, problem, keys),
                                      args.timeout)
    return jobs


def collect_problem(problem, models, jobs, args):
    """Wait for one problem's runs and turn them into table rows."""
    p = PROBLEMS[problem]
    rdir = os.path.join(args.out, "runs", problem)
    ref_summ = jobs["reference"].result()
    if ref_summ.get("status") != "ok":
        print(f"run.py: warning: {problem} reference run status "
              f"{ref_summ.get('status')}: {ref_summ.get('message')}", file=sys.stderr)
    contact = p.get("slip_contact") or \
        contact_names(os.path.join(ROOT, "problems", p["file"]))[0] + \
        p.get("contact_suffix", "")   # a box's first vertex contact
    ref = load_run(os.path.join(rdir, "reference"), p["body"], contact)
    rows = []
    for m in models:
        summ = jobs[m["name"]].result()
        run = load_run(os.path.join(rdir, m["name"]), p["body"], contact)
        row = dict(problem=problem, model=m["name"], family=m["family"],
                   n_star=m["n_star"], form=m["form"], delta=m["delta"],
                   status=summ.get("status"), t_reached=summ.get("t_reached"),
                   events=summ.get("events"), rhs_evaluations=summ.get("rhs_evaluations"),
                   steps=summ.get("steps"), wall_seconds=summ.get("wall_seconds"),
                   message=(summ.get("message") or "").replace("\n", " ")[:120])
        row.update(compare_events(run, ref))
        row["traj_max_diff"] = traj_diff(run, ref)
        if p.get("closed") == "sphere":
            row.update(sphere_metrics(run, m))
        elif p.get("closed") == "belt":
            row.update(belt_metrics(run, m))
        elif p.get("closed") == "spin":
            row.update(spin_metrics(run, m))
        elif p.get("closed") == "box":
            row.update(box_metrics(run, m))
        elif p.get("closed") == "capsule":
            row.update(capsule_metrics(run, m))
        elif p.get("closed") == "tippe":
            row.update(tippe_metrics(run, ref, m))
        elif p.get("closed") == "vehicle":
            row.update(vehicle_metrics(run, ref, summ, ref_summ))
        row["error"], row["error_kind"] = primary_error(p, row)
        rows.append(row)
        print(f"  {problem:7s} {m['name']:16s} {row['status']:8s} "
              f"err {fmt(row['error']):>12s}  wall {fmt(row['wall_seconds'])} s",
              flush=True)
    return rows


# ---------------------------------------------------- artefact: 45-degree sphere

def sliding_with_set(shape, v0=2.0, mu=SPHERE_MU, g=SPHERE_G, dt=1e-6):
    """Independent integration of the sphere's slip when the friction force
    during sliding is taken from a polygon instead of the circle.

    For a uniform sphere the slip velocity u = v + w x (r n) obeys
    du/dt = (1/m + r^2/I) F = (7/2) F / m, so only the friction set matters.
    'box'     : F = -mu m g (sign ux, sign uy)  (box |Fx|,|Fy| <= mu N: each
                component decelerates on its own);
    'pyramid' : MuJoCo's pyramidal cone (4 edges n +- mu t_i): tangential set
                |Fx| + |Fy| <= mu N, maximal dissipation picks the vertex on
                the axis of larger |u_i| (half each on a tie).
    'circle'  : F = -mu m g u/|u| (exact Coulomb).
    Returns the time the slip stops."""
    u = np.array([v0, v0]) / math.sqrt(2.0)
    rate = 3.5 * mu * g * dt          # |du| per step for |F| = mu m g
    t = 0.0
    while np.any(np.abs(u) > 0):
        if shape == "box":
            f = np.sign(u)
        elif shape == "pyramid":
            ax, ay = abs(u[0]), abs(u[1])
            if abs(ax - ay) <= rate:
                f = 0.5 * np.sign(u)
            else:
                f = np.array([np.sign(u[0]), 0.0]) if ax > ay else np.array([0.0, np.sign(u[1])])
        else:
            f = u / np.linalg.norm(u)
        step = rate * f
        # A component that would reverse sticks: friction can hold it (no
        # other tangential force acts), so it stays at zero.
        u = np.where(np.abs(u) <= np.abs(step) + 1e-15, 0.0, u - step)
        t += dt
    return t


def sphere45(args, pool):
    """nsed at 45 degrees with n* = 1 (face = box, vertex = diamond) and the
    exact cone, against the circle, box and pyramid during sliding. The face
    form and the cone slide on the circle, the vertex form on its diamond
    (the pyramid's force along the diagonal)."""
    yaml_path = os.path.join(ROOT, "problems", PROBLEMS["sphere"]["file"])
    base = ["output.dt=1e-4", "bodies.ball.velocity=[1.41421356,1.41421356,0]"]
    v0 = math.hypot(1.41421356, 1.41421356)
    t_star = 2 * v0 / (7 * SPHERE_MU * SPHERE_G)
    runs = {"nsed_poly_face_n1": ["friction.model=polygon", "friction.form=face",
                                  "friction.sides=4"],
            "nsed_poly_vertex_n1": ["friction.model=polygon", "friction.form=vertex",
                                    "friction.sides=4"],
            "nsed_exact_cone": ["friction.model=exact_cone"]}
    fut = {k: pool.submit(run_nsed, args.nsed, yaml_path,
                          os.path.join(args.out, "runs", "sphere45", k), base + s,
                          args.timeout) for k, s in runs.items()}
    out = dict(t_star=t_star)
    curves = {}
    for k in runs:
        summ = fut[k].result()
        run = load_run(os.path.join(args.out, "runs", "sphere45", k), "ball", "ball_floor")
        st = event_times(run, "stick")
        out[k] = dict(status=summ.get("status"), t_stick=st[0] if st else float("nan"),
                      t_stick_over_t_star=(st[0] / t_star) if st else float("nan"))
        curves[k] = (run["slip_t"], run["slip"])
    for shape in ("circle", "box", "pyramid"):
        ts = sliding_with_set(shape, v0=v0)
        out[f"python_{shape}"] = dict(t_stop=ts, ratio=ts / t_star,
                                      percent=100 * (ts / t_star - 1))
    atomic_write(os.path.join(args.out, "sphere45.json"),
                 lambda f: json.dump(out, f, indent=2))
    plot_sphere45(os.path.join(args.out, "friction_sphere45.png"), out, curves, v0)
    return out


def plot_sphere45(path, out, curves, v0):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for k, (t, s) in curves.items():
        on = "its inscribed square" if "vertex" in k else "the circle"
        ax.plot(t, s, label=k.replace("nsed_", "nsed ") + f" (sliding on {on})",
                lw=2 if "cone" in k else 1, ls="-" if "cone" in k else "--")
    rate = 3.5 * SPHERE_MU * SPHERE_G
    tt = np.linspace(0, 0.4, 400)
    # Slip speed with the box: both components fall at `rate`; with the pyramid
    # the magnitude falls at rate/sqrt(2) (force mu N / sqrt 2 along -u).
    box = np.sqrt(2) * np.maximum(v0 / np.sqrt(2) - rate * tt, 0)
    pyr = np.maximum(v0 - rate / np.sqrt(2) * tt, 0)
    ax.plot(tt, box, ":", color="k", label=f"box set during sliding "
            f"({out['python_box']['percent']:+.1f}% t*)")
    ax.plot(tt, pyr, "-.", color="grey", label=f"pyramid during sliding "
            f"({out['python_pyramid']['percent']:+.1f}% t*)")
    ax.axvline(out["t_star"], color="g", lw=0.8)
    ax.set_xlim(0, 0.4)
    ax.set_xlabel("t [s]")
    ax.set_ylabel("slip speed [m/s]")
    ax.set_title("sphere launched at 45 degrees: polygon during sliding vs nsed")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    atomic_savefig(fig, path)
    plt.close(fig)


# --------------------------------------------------- artefact: regularised creep

def creep(args, pool):
    """Block on a 10-degree incline (the belt problem with the belt stopped,
    the spring off, gravity tilted): exact Coulomb sticks, the regularised
    law creeps at v = delta tan(alpha) / mu (docs/engine.md)."""
    yaml_path = os.path.join(ROOT, "problems", PROBLEMS["belt"]["file"])
    a = math.radians(10.0)
    g = [-SPHERE_G * math.sin(a), 0.0, -SPHERE_G * math.cos(a)]
    base = ["floor.velocity=[0,0,0]", "forces.spring.k=0", "solver.t_end=2",
            f"gravity=[{g[0]:.10g},0,{g[2]:.10g}]", "bodies.block.velocity=[0,0,0]"]
    models = {"coulomb": []}
    for d in ("1e-2", "1e-4", "1e-6"):
        models[f"reg_{d}"] = STIFF + ["contacts.block_belt.law=regularized",
                                      f"contacts.block_belt.delta={d}"]
    fut = {k: pool.submit(run_nsed, args.nsed, yaml_path,
                          os.path.join(args.out, "runs", "creep", k), base + s,
                          args.timeout) for k, s in models.items()}
    out = {"alpha_deg": 10.0, "mu": 0.3}
    for k in models:
        summ = fut[k].result()
        run = load_run(os.path.join(args.out, "runs", "creep", k), "block", "block_belt")
        late = run["t"] >= 1.0        # past the initial transient
        v = float(np.mean(np.abs(run["vel"][late, 0]))) if np.any(late) else float("nan")
        delta = float(k[4:]) if k.startswith("reg_") else 0.0
        out[k] = dict(status=summ.get("status"), creep_speed=v,
                      predicted=delta * math.tan(a) / 0.3)
    atomic_write(os.path.join(args.out, "creep.json"),
                 lambda f: json.dump(out, f, indent=2))
    return out


# ---------------------------------------------------------------------- main

def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nsed", default=DEFAULT_NSED, help="nsed executable")
    ap.add_argument("--out", default=os.path.join("results", "friction_bench"))
    ap.add_argument("--quick", action="store_true",
                    help="shorten disk case 3 to 20 s and cap each run at 60 s (default 120 s)")
    ap.add_argument("--problems", default=",".join(PROBLEMS),
                    help="comma list of " + ",".join(PROBLEMS))
    ap.add_argument("--models", default="",
                    help="comma list of model names (default: all): "
                    + ",".join(m["name"] for m in model_list()))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds per run (default 120, 60 with --quick)")
    args = ap.parse_args(argv)
    if args.timeout is None:
        args.timeout = 60.0 if args.quick else 120.0
    if not (os.path.isfile(args.nsed) and os.access(args.nsed, os.X_OK)):
        ap.error(f"nsed executable not found: {args.nsed} (build with "
                 "`ninja -C build` or pass --nsed)")
    args.problems = [p for p in args.problems.split(",") if p]
    bad = [p for p in args.problems if p not in PROBLEMS]
    if bad:
        ap.error(f"unknown problem(s) {bad}; known: {list(PROBLEMS)}")
    known = {m["name"]: m for m in model_list()}
    names = [m for m in args.models.split(",") if m] or list(known)
    bad = [m for m in names if m not in known]
    if bad:
        ap.error(f"unknown model(s) {bad}; known: {list(known)}")
    args.models = [known[n] for n in names]
    args.out = os.path.abspath(args.out)
    args.nsed = os.path.abspath(args.nsed)
    return args


def main(argv=None):
    args = parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    rows = []
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        extras = {}
        if "sphere" in args.problems:
            extras["sphere45"] = sphere45(args, pool)
        if "belt" in args.problems:
            extras["creep"] = creep(args, pool)
        queued = {pr: submit_problem(args, pr, args.models, pool)
                  for pr in args.problems}
        for problem in args.problems:
            prow = collect_problem(problem, args.models, queued[problem], args)
            rows += prow
            plot_problem(os.path.join(args.out, f"friction_{problem}.png"), problem, prow)
            if problem == "vehicle":
                plot_vehicle(os.path.join(args.out, "friction_vehicle_path.png"), args.out)
            if problem == "vehicle_drive":
                plot_vehicle(os.path.join(args.out, "friction_vehicle_drive_path.png"), args.out,
                             "vehicle_drive", "driven")
    write_csv(os.path.join(args.out, "friction_bench.csv"), rows)
    write_markdown(os.path.join(args.out, "friction_bench.md"), rows)
    if "sphere45" in extras:
        s = extras["sphere45"]
        print(f"sphere at 45 deg: t* = {s['t_star']:.10f}; nsed n*=1 face "
              f"{s['nsed_poly_face_n1']['t_stick']:.10f}, vertex "
              f"{s['nsed_poly_vertex_n1']['t_stick']:.10f}; box during sliding "
              f"{s['python_box']['percent']:+.1f}%, pyramid "
              f"{s['python_pyramid']['percent']:+.1f}%")
    if "creep" in extras:
        for k, v in extras["creep"].items():
            if isinstance(v, dict):
                print(f"incline creep {k}: {v['creep_speed']:.3g} m/s "
                      f"(predicted {v['predicted']:.3g})")
    print(f"wrote {os.path.join(args.out, 'friction_bench.csv')} ({len(rows)} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
