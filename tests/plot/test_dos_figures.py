#!/usr/bin/python3
"""Tests for python/disk_on_shaft_figures.py (paper Figs. 10-22 of the disk on a shaft).

Usage: /usr/bin/python3 tests/plot/test_dos_figures.py [SOURCE_ROOT [NSED]]
SOURCE_ROOT defaults to two levels above this file.  Synthetic result
directories (written in the exact format of `nsed run -o`: two rows at each
event, the one just before it and the one after it) are always tested; with
NSED (the nsed executable, as meson passes it) case 1 and case 3 without
stabilisation are also run for 3 s and plotted.
"""

import csv
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import traceback

SOURCE_ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                              os.path.join(os.path.dirname(__file__), "..", ".."))
NSED = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
SCRIPT = os.path.join(SOURCE_ROOT, "python", "disk_on_shaft_figures.py")
sys.path.insert(0, os.path.dirname(SCRIPT))
sys.dont_write_bytecode = True   # keep python/__pycache__ out of the source tree

import numpy as np                      # noqa: E402
from matplotlib import image as mpimg  # noqa: E402
from matplotlib import colors as mcolors   # noqa: E402
from matplotlib.collections import LineCollection   # noqa: E402
from matplotlib.ticker import ScalarFormatter          # noqa: E402
import disk_on_shaft_figures as dos    # noqa: E402
from nsed import plotting              # noqa: E402

FIGURES = ("c1_trajectory", "L_OC1", "slip_speed", "friction", "phase", "drift")
BODY_FIELDS = ("x", "y", "z", "q0", "q1", "q2", "q3",
               "vx", "vy", "vz", "wx", "wy", "wz")
CONTACT_HEADER = ["t", "contact", "mode", "gap", "lambda_n", "lambda_t1",
                  "lambda_t2", "slip_speed", "point_x", "point_y", "point_z"]
EVENT_HEADER = ["t", "kind", "contact", "from", "to", "lcp_size", "pivots",
                "residual", "path", "impulse_n", "impulse_t1", "impulse_t2"]
# The paper's figures per case (docs/disk-on-shaft.md), written out again
# here rather than taken from the script.
PAPER = {1: {10, 11, 12, 13}, 2: {14, 15, 16, 18, 19}, 3: {20, 21, 22}}
MIN_BYTES = 10_000
MIN_PIXEL_STD = 0.02    # a white or single-colour image has std ~0


# --------------------------------------------------------------------------
# Synthetic disk on a shaft
# --------------------------------------------------------------------------

def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def pose(theta, s, z_err=0.0):
    """Shaft and disk states for shaft angle theta and L_OC1 = s.

    Body z lies along the shaft: q = qz(theta) * qy(90 deg).
    """
    a, d = math.cos(theta / 2), math.sin(theta / 2)
    e = g = math.sqrt(0.5)
    q = [a * e, -d * g, a * g, e * d]
    c, sn = math.cos(theta), math.sin(theta)
    shaft = [1.1 * c, 1.1 * sn, 0.4] + q
    disk = [s * c, s * sn, 0.4 + z_err] + q
    return shaft, disk


def synthetic_run(directory, slip=True, drift=0.0, mu0=0.33, mu=0.18,
                  problem="synthetic disk on a shaft", laws=True, z_roundoff=False,
                  radius_noise=0.0):
    """A disk whirling round the pillar: sticks, slips outwards (if slip), sticks.

    drift > 0 adds a slowly growing constraint violation (the unstabilised run).
    At each event two rows, before and after it; |F_T| reaches mu0 F_N
    just before the slip and is mu F_N while slipping.  problem: summary.json
    "problem"; laws: write contact_laws (mu, mu0) into summary.json, else only
    a --set override of mu0.  z_roundoff: the disk height 0.4 m plus 0 to 3
    ulps, as a stabilised run writes it.  radius_noise: L_OC1 = 1.5 m plus
    this much (m) of a rapidly varying error.
    Returns the directory.
    """
    os.makedirs(directory, exist_ok=True)
    dt, t_end = 0.01, 6.0
    t_slip, t_stick = (2.0, 3.5) if slip else (1e9, 1e9)
    samples = [(round(k * dt, 10), True) for k in range(int(t_end / dt) + 1)
               if not slip or round(k * dt, 10) not in (t_slip, t_stick)]
    if slip:   # the row just before each event, then the one after it
        samples += [(t_slip, False), (t_slip, True), (t_stick, False), (t_stick, True)]
    samples.sort()
    ulp = math.ulp(0.4)
    traj, contacts = [], []
    for k, (t, after) in enumerate(samples):
        theta = 0.5 * t * t / (1 + 0.1 * t)
        omega = (t + 0.05 * t * t) / (1 + 0.1 * t) ** 2
        sliding = (t_slip < t < t_stick) or (t == t_slip and after) \
            or (t == t_stick and not after)
        if t < t_slip:
            s, sdot = 1.5, 0.0
        elif t <= t_stick and (t < t_stick or not after):
            u = (t - t_slip) / (t_stick - t_slip)
            s, sdot = 1.5 + 0.2 * u * u, 0.4 * u / (t_stick - t_slip)
        else:
            s, sdot = 1.7, 0.0
        s += drift * t * t + radius_noise * math.sin(37.0 * k)
        z_err = drift * t + (((k * 7) % 5) % 4) * ulp * z_roundoff
        shaft, disk = pose(theta, s, z_err)
        c, sn = math.cos(theta), math.sin(theta)
        v_disk = [sdot * c - s * omega * sn, sdot * sn + s * omega * c, 0.0]
        v_shaft = [-1.1 * omega * sn, 1.1 * omega * c, 0.0]
        w = [0.0, 0.0, omega]
        traj.append([t] + shaft + v_shaft + w + disk + v_disk + w)
        fn = 9.81 * 1.2 + 3 * math.sin(t)
        if sliding:
            ft = mu * fn
        elif t == t_slip:
            ft = mu0 * fn          # the static limit, reached just before the slip
        else:
            ft = 0.9 * mu0 * fn * abs(math.sin(1.3 * t))
        contacts.append([t, "disk_floor", "slip" if sliding else "stick", 0.0, fn,
                         -ft * 0.6, ft * 0.8, sdot if sliding else 0.0,
                         disk[0], disk[1], 0.0])
    write_csv(os.path.join(directory, "trajectory.csv"),
              ["t"] + [f"{b}.{f}" for b in ("shaft", "disk") for f in BODY_FIELDS], traj)
    write_csv(os.path.join(directory, "contacts.csv"), CONTACT_HEADER, contacts)
    events = []
    if slip:
        events = [[t_slip, "slip", "disk_floor", "stick", "slip", 33, 2, 1e-16, "face/nsed",
                   0, 0, 0],
                  [t_stick, "stick", "disk_floor", "slip", "stick", 33, 2, 1e-16, "face/nsed",
                   0, 0, 0]]
    write_csv(os.path.join(directory, "events.csv"), EVENT_HEADER, events)
    summary = {"problem": problem, "status": "ok",
               "overrides": [f"contacts.disk_floor.mu0={mu0}"],
               "friction_model": "polygon_face", "friction_sides": 32}
    if laws:
        summary["contact_laws"] = [{"name": "disk_floor", "body": "disk", "other": "floor",
                                    "law": "coulomb", "friction": "polygon_face",
                                    "sides": 32, "mu": mu, "mu0": mu0}]
    with open(os.path.join(directory, "summary.json"), "w") as f:
        json.dump(summary, f)
    return directory


def build_figures(run, nostab=None):
    """{name: Figure} of the six figures, drawn (as make_figures writes them)."""
    figs = {
        "c1_trajectory": dos.fig_c1_trajectory(run, nostab),
        "L_OC1": dos.fig_L(run),
        "slip_speed": dos.fig_slip_speed(run),
        "friction": dos.fig_friction(run, dos.friction_coefficients(run)),
        "phase": dos.fig_phase(run),
        "drift": dos.fig_drift(run, nostab),
    }
    for fig in figs.values():
        plotting.plain_number_format(fig)
        fig.canvas.draw()
    return figs


def titles(fig):
    """The figure's title and its panels' titles."""
    out = [fig._suptitle.get_text() if fig._suptitle else ""]
    return out + [ax.get_title() for ax in fig.axes]


# --------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------

def check_pngs(out_dir):
    for name in FIGURES:
        path = os.path.join(out_dir, f"{name}.png")
        assert os.path.isfile(path), f"{path} missing"
        size = os.path.getsize(path)
        assert size > MIN_BYTES, f"{path}: only {size} bytes"
        img = mpimg.imread(path)
        rgb = img[..., :3] if img.ndim == 3 else img
        std = float(np.std(rgb))
        assert std > MIN_PIXEL_STD, f"{path}: looks blank (pixel std {std:.4f})"
    leftovers = [f for f in os.listdir(out_dir) if f.endswith(".tmp")]
    assert not leftovers, f"temporary files left behind: {leftovers}"


def run_script(*args):
    return subprocess.run([sys.executable, SCRIPT, *args],
                          capture_output=True, text=True)


def test_synthetic_with_nostab(tmp):
    stab = synthetic_run(os.path.join(tmp, "stab"))
    nostab = synthetic_run(os.path.join(tmp, "nostab"), drift=1e-6)
    out = os.path.join(tmp, "figs")
    proc = run_script(stab, "--out", out, "--nostab", nostab)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [os.path.join(out, f"{n}.png") for n in FIGURES], proc.stdout
    check_pngs(out)


def test_synthetic_module_default_out(tmp):
    run = synthetic_run(os.path.join(tmp, "rolling"), slip=False)
    paths = dos.make_figures(run)
    assert [os.path.basename(p) for p in paths] == [f"{n}.png" for n in FIGURES]
    check_pngs(os.path.join(run, "plots"))


def test_derived_quantities(tmp):
    run = dos.Run(synthetic_run(os.path.join(tmp, "derived")))
    # L_OC1 = 1.5 while sticking before the slip, 1.7 after it.
    before, after = run.t < 2.0, run.t > 3.5
    assert np.allclose(run.L[before], 1.5, atol=1e-12)
    assert np.allclose(run.L[after], 1.7, atol=1e-12)
    # dL/dt equals the imposed radial speed while slipping.
    mid = np.argmin(abs(run.t - 2.75))
    assert abs(run.Ldot[mid] - 0.4 * 0.5 / 1.5) < 1e-9, run.Ldot[mid]
    # The synthetic shaft satisfies both joints exactly.
    assert np.nanmax(run.joint_drift()) < 1e-12
    assert list(run.slip_onsets()) == [2.0]
    assert dos.find_mu0(run.summary, run.dir) == 0.33


def test_mu0_from_problem_file(tmp):
    problem = os.path.join(tmp, "p.yaml")
    with open(problem, "w") as f:
        f.write("contacts:\n  - {name: disk_floor, body: disk, mu: 0.1, mu0: 0.27}\n")
    assert dos.find_mu0({"problem": problem}, tmp) == 0.27
    assert dos.find_mu0({"problem": os.path.join(tmp, "absent.yaml")}, tmp) is None


def test_bad_input_exit_2(tmp):
    run = synthetic_run(os.path.join(tmp, "bad"))
    path = os.path.join(run, "trajectory.csv")
    with open(path) as f:
        lines = f.read().splitlines()
    fields = lines[3].split(",")
    fields[14] = "abc"                       # disk.x on line 4
    lines[3] = ",".join(fields)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    proc = run_script(run, "--out", os.path.join(tmp, "badfigs"))
    assert proc.returncode == 2, proc.returncode
    assert "trajectory.csv line 4" in proc.stderr and "disk.x" in proc.stderr, proc.stderr
    proc = run_script(os.path.join(tmp, "missing"))
    assert proc.returncode == 2 and "result directory not found" in proc.stderr, proc.stderr
    nodisk = os.path.join(tmp, "nodisk")
    os.makedirs(nodisk)
    write_csv(os.path.join(nodisk, "trajectory.csv"),
              ["t"] + [f"ball.{f}" for f in BODY_FIELDS], [[0] + [0] * 13])
    proc = run_script(nodisk)
    assert proc.returncode == 2 and "no body 'disk'" in proc.stderr, proc.stderr


def test_figure_numbers(tmp):
    """Titles name the paper's figure of the case drawn, and none when the
    case is unknown (case 2's radius panel once said Fig. 22, case 3's)."""
    for case, problem in ((1, "problems/disk_on_shaft_case1.yaml"),
                          (2, "problems/disk_on_shaft_case2.yaml"),
                          (3, "/abs/problems/disk_on_shaft_case3_nostab.yaml"),
                          (None, "synthetic disk on a shaft"),
                          (None, "problems/disk_on_shaft_case7.yaml")):
        run = dos.Run(synthetic_run(os.path.join(tmp, f"c{case}"), problem=problem))
        assert run.case == case, (problem, run.case)
        figs = build_figures(run)
        numbers = set()
        for name, fig in figs.items():
            for title in titles(fig):
                numbers |= {int(n) for n in re.findall(r"Figs?\. ([0-9]+)", title)}
                assert "Figs." not in title, f"{problem} {name}: {title!r} lists several"
        assert numbers <= PAPER.get(case, set()), (problem, sorted(numbers))
        xy, radius = figs["c1_trajectory"].axes[:2]
        expected_xy = {1: " (Fig. 10)", 2: " (Fig. 14)", 3: " (Fig. 21)"}.get(case, "")
        assert xy.get_title() == "C1 in the x-y plane" + expected_xy, xy.get_title()
        assert radius.get_title() == ("radius of the path, zoomed"
                                      + (" (Fig. 22)" if case == 3 else "")), radius.get_title()
    # --case overrides the problem file's name; only the paper's cases exist.
    assert dos.parse_args(["dir", "--case", "3"]).case == 3
    proc = run_script(os.path.join(tmp, "cNone"), "--case", "5")
    assert proc.returncode == 2 and "--case" in proc.stderr, proc.stderr


def test_stick_drawn_over_slip(tmp):
    """The x-y path: stick segments in their own collection above the slip
    ones, so later slip laps cannot hide earlier stick arcs."""
    run = dos.Run(synthetic_run(os.path.join(tmp, "laps")))
    ax = build_figures(run)["c1_trajectory"].axes[0]
    green = mcolors.to_rgba(dos.LINE_COLOURS["stick"])[:3]
    orange = mcolors.to_rgba(dos.LINE_COLOURS["slip"])[:3]
    stick, slip = [], []
    for coll in ax.collections:
        if not isinstance(coll, LineCollection) or not len(coll.get_segments()):
            continue
        colours = {tuple(np.round(c[:3], 6)) for c in coll.get_colors()}
        kinds = {"stick" if np.allclose(c, green) else
                 "slip" if np.allclose(c, orange) else "other" for c in colours}
        assert len(kinds) == 1, f"a path collection mixes {kinds}"
        (stick if kinds == {"stick"} else slip if kinds == {"slip"} else []).append(coll)
    assert stick and slip, (len(stick), len(slip))
    assert min(c.get_zorder() for c in stick) > max(c.get_zorder() for c in slip)
    assert max(c.get_linewidth()[0] for c in slip) < min(c.get_linewidth()[0] for c in stick)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(l.startswith("stick") and "top" in l for l in labels), labels


def test_friction_limits(tmp):
    """friction.png: |F_T| with mu0 F_N and mu F_N from summary.json
    contact_laws (else --set / problem file / defaults), and the slip onset
    marked at the pre-event row, where |F_T| = mu0 F_N."""
    run = dos.Run(synthetic_run(os.path.join(tmp, "fr"), mu0=0.3, mu=0.2))
    coeffs = dos.friction_coefficients(run)
    assert coeffs == {"mu0": (0.3, "summary.json"), "mu": (0.2, "summary.json")}, coeffs
    fig = build_figures(run)["friction"]
    lines = {line.get_label(): line for line in fig.axes[0].get_lines()}
    c = run.contact
    fn = np.abs(c["lambda_n"])
    ft = np.hypot(c["lambda_t1"], c["lambda_t2"])
    static = [l for k, l in lines.items() if k.startswith("mu0 |F_N|")]
    kinetic = [l for k, l in lines.items() if k.startswith("mu |F_N|")]
    assert len(static) == 1 and len(kinetic) == 1, list(lines)
    assert np.allclose(static[0].get_ydata(), 0.3 * fn)
    assert np.allclose(kinetic[0].get_ydata(), 0.2 * fn)
    assert "|F_T|" in lines and np.allclose(lines["|F_T|"].get_ydata(), ft)
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert any("mu0 = 0.3" in l for l in legend) and any("mu = 0.2" in l for l in legend), legend
    # While slipping |F_T| runs at mu F_N; the onset marker sits on mu0 F_N.
    sliding = np.asarray(c["mode"]) == "slip"
    assert np.allclose(ft[sliding], 0.2 * fn[sliding])
    onset = [l for k, l in lines.items() if "just before" in k]
    assert len(onset) == 1, list(lines)
    assert list(onset[0].get_xdata()) == [2.0]
    assert np.allclose(onset[0].get_ydata(), 0.3 * (9.81 * 1.2 + 3 * math.sin(2.0)))
    # Without contact_laws: the --set override for mu0, the default for mu.
    run = dos.Run(synthetic_run(os.path.join(tmp, "old"), mu0=0.27, laws=False))
    assert dos.friction_coefficients(run) == {"mu0": (0.27, "--set"),
                                              "mu": (dos.DEFAULT_MU, "default")}
    assert dos.friction_coefficients(run, mu0=0.5, mu=0.1) == {"mu0": (0.5, "--mu0"),
                                                               "mu": (0.1, "--mu")}


def test_drift_roundoff_readable(tmp):
    """drift.png: a series at round-off (0 to 3 ulps of 0.4 m) is dots, not a
    line jumping between the zero floor and 1 ulp (a black band)."""
    run = dos.Run(synthetic_run(os.path.join(tmp, "stab"), slip=False, z_roundoff=True))
    nostab = dos.Run(synthetic_run(os.path.join(tmp, "nostab"), slip=False, drift=1e-6))
    assert 0 < np.nanmax(np.abs(run.height_drift)) <= 4 * math.ulp(0.4)
    ax = build_figures(run, nostab)["drift"].axes[0]
    level = dos.ROUNDOFF_ULPS * math.ulp(0.4)
    dots = 0
    for line in ax.get_lines():
        if line.get_label().startswith("1 ulp"):
            continue
        y = np.asarray(line.get_ydata(), dtype=float)
        if line.get_linestyle() in ("None", "none", " ", ""):
            dots += int(np.isfinite(y).sum())
            assert line.get_marker() not in (None, "None", "none", ""), line.get_label()
        else:
            low = np.isfinite(y) & (y <= level)
            assert not low.any(), (f"{line.get_label()}: a line through {low.sum()} "
                                   "round-off samples")
    assert dots == int((run.height_drift != 0).sum()), dots
    legend = " ".join(t.get_text() for t in ax.get_legend().get_texts())
    assert "round-off" in legend and "exactly 0" in legend, legend


def test_no_offset_notation(tmp):
    """No axis of the six figures uses offset notation ("1e-13+1.5"): L_OC1
    constant to round-off is shown as a constant."""
    run = dos.Run(synthetic_run(os.path.join(tmp, "flat"), slip=False, radius_noise=3e-14))
    figs = build_figures(run)
    for name, fig in figs.items():
        for ax in fig.axes:
            for axis in (ax.xaxis, ax.yaxis):
                fmt = axis.get_major_formatter()
                if isinstance(fmt, ScalarFormatter):
                    assert fmt.offset == 0, \
                        f"{name}: offset {axis.get_offset_text().get_text()!r}"
    ax = figs["L_OC1"].axes[0]
    lo, hi = ax.get_ylim()
    assert lo < 1.5 < hi and hi - lo > 1e-3, (lo, hi)
    assert ax.yaxis.get_offset_text().get_text() == ""


def test_nsed_case1(tmp):
    """Case 1 (slips once near t = 2.46 s) and case 3 unstabilised, 3 s each."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    runs = {}
    for case in ("case1", "case3_nostab"):
        out = os.path.join(tmp, case)
        proc = subprocess.run([NSED, "run", os.path.join(SOURCE_ROOT, "problems",
                                                         f"disk_on_shaft_{case}.yaml"),
                               "-o", out, "--set", "solver.t_end=3", "--quiet"],
                              capture_output=True, text=True, env=env)
        assert proc.returncode == 0, f"nsed {case}: {proc.returncode} {proc.stderr}"
        runs[case] = out
    figs = os.path.join(tmp, "nsedfigs")
    proc = run_script(runs["case1"], "--out", figs, "--nostab", runs["case3_nostab"])
    assert proc.returncode == 0, proc.stderr
    check_pngs(figs)
    run = dos.Run(runs["case1"])
    assert len(run.slip_onsets()) >= 1, "case 1 should slip within 3 s"
    assert abs(run.L[0] - 1.5) < 1e-12


TESTS = [test_synthetic_with_nostab, test_synthetic_module_default_out,
         test_derived_quantities, test_mu0_from_problem_file, test_bad_input_exit_2,
         test_figure_numbers, test_stick_drawn_over_slip, test_friction_limits,
         test_drift_roundoff_readable, test_no_offset_notation]


def main():
    tests = list(TESTS)
    if NSED:
        tests.append(test_nsed_case1)
    passed = failed = 0
    for test in tests:
        with tempfile.TemporaryDirectory() as tmp:
            try:
                test(tmp)
            except Exception:
                failed += 1
                print(f"FAIL {test.__name__}")
                traceback.print_exc()
            else:
                passed += 1
                print(f"ok   {test.__name__}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
