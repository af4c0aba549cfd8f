#!/usr/bin/python3
"""Tests for python/nsed_plot.py on synthetic nsed result directories.

Usage: /usr/bin/python3 tests/plot/test_plot.py [SOURCE_ROOT]
(SOURCE_ROOT defaults to two levels above this file.)  The CSVs are written
exactly in the format of `nsed run -o` (two rows at each event, impulses in
events.csv), so the tests do not need the solver; some are written in an
older format (no contact point, no impulse columns) that must still plot.
"""

import csv
import json
import math
import os
import subprocess
import sys
import tempfile
import traceback

SOURCE_ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                              os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(SOURCE_ROOT, "python", "nsed_plot.py")
sys.path.insert(0, os.path.dirname(SCRIPT))
sys.dont_write_bytecode = True   # keep python/__pycache__ out of the source tree

import numpy as np                      # noqa: E402
from matplotlib import image as mpimg  # noqa: E402
from matplotlib.ticker import ScalarFormatter   # noqa: E402
import nsed_plot                        # noqa: E402
from nsed import plotting               # noqa: E402

FIGURES = ("trajectory", "contact_forces", "slip_speed", "events", "velocities")
BODY_FIELDS = ("x", "y", "z", "q0", "q1", "q2", "q3",
               "vx", "vy", "vz", "wx", "wy", "wz")
CONTACT_HEADER = ["t", "contact", "mode", "gap", "lambda_n",
                  "lambda_t1", "lambda_t2", "slip_speed"]
EVENT_HEADER = ["t", "kind", "contact", "from", "to",
                "lcp_size", "pivots", "residual", "path"]
# The current format of `nsed run -o`.
CONTACT_HEADER_NOW = CONTACT_HEADER + ["point_x", "point_y", "point_z"]
EVENT_HEADER_NOW = EVENT_HEADER + ["impulse_n", "impulse_t1", "impulse_t2"]
BLOCK_MASS = 2.0
MIN_BYTES = 10_000
MIN_PIXEL_STD = 0.02    # a white or single-colour image has std ~0
G = 9.81


# --------------------------------------------------------------------------
# Synthetic result directories
# --------------------------------------------------------------------------

def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def trajectory_header(bodies):
    return ["t"] + [f"{b}.{f}" for b in bodies for f in BODY_FIELDS]


def ball_state(t, v0=2.0, mu=0.1, radius=0.1, heading=math.radians(30)):
    """Sphere launched sliding on z=0: slips until v = R w, then rolls.

    Returns (state13, mode, slip_speed, friction magnitude) for contact ball_floor.
    """
    t_stick = 2 * v0 / (7 * mu * G)
    if t < t_stick:
        v = v0 - mu * G * t
        s = v0 * t - 0.5 * mu * G * t * t
        w = 2.5 * mu * G * t / radius
        mode, slip, ft = "slip", v - radius * w, mu * G
    else:
        v = 5 * v0 / 7
        s = v0 * t_stick - 0.5 * mu * G * t_stick**2 + v * (t - t_stick)
        w = v / radius
        mode, slip, ft = "stick", 0.0, 0.0
    c, sn = math.cos(heading), math.sin(heading)
    # Rolling axis is horizontal, perpendicular to the heading.
    state = [s * c, s * sn, radius, 1, 0, 0, 0, v * c, v * sn, 0, -w * sn, w * c, 0]
    return state, mode, slip, ft


def block_state(t, after_impact, z0=0.5, half=0.1):
    """Block dropped from z0, perfectly inelastic impact, then resting."""
    t_hit = math.sqrt(2 * (z0 - half) / G)
    if t < t_hit or (t == t_hit and not after_impact):
        z, vz, mode = z0 - 0.5 * G * t * t, -G * t, "open"
    else:
        z, vz, mode = half, 0.0, "stick"
    state = [1.0, -0.5, z, 1, 0, 0, 0, 0, 0, vz, 0, 0, 0]
    return state, mode, z - half


def make_sliding_sphere(directory):
    """Ball slip->stick, block open->impact->stick, plus periodic time events;
    returns the impact's time and impulse."""
    t_stick = 2 * 2.0 / (7 * 0.1 * G)
    t_hit = math.sqrt(2 * 0.4 / G)
    samples = [(round(0.05 * i, 10), False) for i in range(31)]
    # Event instants appear twice: pre- and post-event state (times repeat).
    samples += [(t_hit, False), (t_hit, True), (t_stick, False), (t_stick, True)]
    samples.sort()
    traj, contacts = [], []
    for t, after in samples:
        ball, bmode, slip, ft = ball_state(t)
        block, kmode, gap = block_state(t, after)
        traj.append([t] + ball + block)
        contacts.append([t, "ball_floor", bmode, 0.0, G, -ft, 0.0, slip,
                         ball[0], ball[1], 0.0])
        lam = BLOCK_MASS * G if kmode == "stick" else 0.0
        contacts.append([t, "block_floor", kmode, gap, lam, 0.0, 0.0, 0.0,
                         block[0], block[1], block[2] - 0.1])
    write_csv(os.path.join(directory, "trajectory.csv"),
              trajectory_header(["ball", "block"]), traj)
    write_csv(os.path.join(directory, "contacts.csv"), CONTACT_HEADER_NOW, contacts)
    impulse = BLOCK_MASS * G * t_hit      # stops the block: m v at the hit
    events = [
        [t_hit, "close", "block_floor", "open", "stick", 2, 3, 1e-14, "lemke", 0, 0, 0],
        [t_hit, "impact", "block_floor", "open", "stick", 2, 2, 2e-15, "lemke",
         impulse, 0.0, 0.0],
        [t_stick, "stick", "ball_floor", "slip", "stick", 3, 4, 5e-15, "lemke", 0, 0, 0],
    ] + [[t, "time", "", "", "", 0, 0, 0, "", "", "", ""] for t in (0.5, 1.0, 1.5)]
    events.sort(key=lambda e: e[0])
    write_csv(os.path.join(directory, "events.csv"), EVENT_HEADER_NOW, events)
    with open(os.path.join(directory, "summary.json"), "w") as f:
        json.dump({"problem": "sliding_sphere", "status": "ok", "t_end": 1.5,
                   "bodies": 2, "events": len(events), "energy_initial": 6.0,
                   "energy_final": 4.3, "wall_seconds": 0.01}, f)
    return t_hit, impulse


def make_rolling_sphere(directory, v=1.5, radius=0.1):
    """A sphere rolling at constant speed: height, speed and normal force are
    constant up to round-off (1e-13 m, 1e-13 m/s, 1e-14 N), as a run writes them."""
    traj, contacts = [], []
    for k in range(41):
        t = 0.025 * k
        z = radius + 1e-13 * math.sin(3.0 * k)
        vx = v + 1e-13 * math.cos(7.0 * k)
        traj.append([t, v * t, 0.0, z, 1, 0, 0, 0, vx, 0, 0, 0, vx / radius, 0])
        contacts.append([t, "ball_floor", "stick", 0.0, G + 1e-14 * math.cos(5.0 * k),
                         0.0, 0.0, 0.0, v * t, 0.0, 0.0])
    write_csv(os.path.join(directory, "trajectory.csv"), trajectory_header(["ball"]), traj)
    write_csv(os.path.join(directory, "contacts.csv"), CONTACT_HEADER_NOW, contacts)
    write_csv(os.path.join(directory, "events.csv"), EVENT_HEADER_NOW, [])


def make_free_flight(directory, write_empty_files=True):
    """A tossed body with no contacts: contacts/events are header-only or absent."""
    rows = []
    for i in range(41):
        t = 0.025 * i
        rows.append([t, 0.5 * t, 0.2 * t, 1 + 3 * t - 0.5 * G * t * t, 1, 0, 0, 0,
                     0.5, 0.2, 3 - G * t, 0.1, 2.0, 0.3])
    write_csv(os.path.join(directory, "trajectory.csv"),
              trajectory_header(["stone"]), rows)
    if write_empty_files:
        write_csv(os.path.join(directory, "contacts.csv"), CONTACT_HEADER, [])
        write_csv(os.path.join(directory, "events.csv"), EVENT_HEADER, [])


def make_single_row_nan(directory):
    """One sample only, with NaN values in both trajectory and contacts."""
    nan = float("nan")
    write_csv(os.path.join(directory, "trajectory.csv"), trajectory_header(["b"]),
              [[0.0, 0, 0, nan, 1, 0, 0, 0, nan, 0, 0, 0, 0, 0]])
    write_csv(os.path.join(directory, "contacts.csv"), CONTACT_HEADER,
              [[0.0, "b_floor", "slip", nan, 9.81, nan, 0, 0.3]])
    write_csv(os.path.join(directory, "events.csv"), EVENT_HEADER,
              [[0.0, "slip", "b_floor", "open", "slip", 1, 1, nan, "lemke"]])


# --------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------

def assert_figures(out_dir, written):
    expected = [os.path.join(out_dir, f + ".png") for f in FIGURES]
    assert sorted(written) == sorted(expected), f"written {written}"
    for path in expected:
        size = os.path.getsize(path)
        assert size > MIN_BYTES, f"{path}: only {size} bytes"
        std = float(np.std(mpimg.imread(path)[..., :3]))
        assert std > MIN_PIXEL_STD, f"{path}: looks blank (pixel std {std:.4f})"
    leftovers = [n for n in os.listdir(out_dir) if n.endswith(".tmp")]
    assert not leftovers, f"temporary files left behind: {leftovers}"


def drawn_figures(result_dir, out_dir=None):
    """{name: Figure} of the standard figures as plot_results writes them
    (captured at the save, then drawn instead of written)."""
    figs = {}
    original = plotting.save_atomic

    def keep(fig, path, fmt, dpi):
        fig.canvas.draw()
        figs[os.path.splitext(os.path.basename(path))[0]] = fig

    plotting.save_atomic = keep
    try:
        nsed_plot.plot_results(result_dir, out_dir)
    finally:
        plotting.save_atomic = original
    assert sorted(figs) == sorted(FIGURES), sorted(figs)
    return figs


def run_cli(*args):
    return subprocess.run([sys.executable, SCRIPT, *args],
                          capture_output=True, text=True, timeout=120)


def test_sliding_sphere(tmp):
    make_sliding_sphere(tmp)
    assert_figures(os.path.join(tmp, "plots"), nsed_plot.plot_results(tmp))


def assert_no_offset(figs, what):
    for name, fig in figs.items():
        for ax in fig.axes:
            for axis in (ax.xaxis, ax.yaxis):
                fmt = axis.get_major_formatter()
                if isinstance(fmt, ScalarFormatter):
                    assert fmt.offset == 0 and axis.get_offset_text().get_text() == "", \
                        f"{what} {name}: offset text {axis.get_offset_text().get_text()!r}"


def test_no_offset_notation(tmp):
    """No axis of a standard figure uses offset notation ("1e-13+1e-1" on the
    sphere's z): a value constant to round-off is drawn as a constant."""
    for make in (make_rolling_sphere, make_sliding_sphere, make_free_flight):
        directory = os.path.join(tmp, make.__name__)
        os.makedirs(directory)
        make(directory)
        figs = drawn_figures(directory)
        assert_no_offset(figs, make.__name__)
        if make is make_rolling_sphere:
            rolling = figs
    z_ax = [ax for ax in rolling["trajectory"].axes if ax.get_ylabel() == "z [m]"][0]
    lo, hi = z_ax.get_ylim()
    assert lo < 0.1 < hi and hi - lo > 1e-3, (lo, hi)
    notes = [t.get_text() for t in z_ax.texts]
    assert any(n.startswith("constant to round-off: 0.1 ") for n in notes), notes
    # A varying coordinate keeps matplotlib's limits and gets no note.
    x_ax = [ax for ax in rolling["trajectory"].axes if ax.get_ylabel() == "x [m]"][0]
    assert not x_ax.texts and x_ax.get_ylim()[1] < 1.6


def test_impulses_on_contact_forces(tmp):
    """contact_forces.png marks each impulse of events.csv (N s, right axis)
    on its contact's panel: an impact's force is an impulse, not a force."""
    t_hit, impulse = make_sliding_sphere(tmp)
    fig = drawn_figures(tmp)["contact_forces"]
    twins = [ax for ax in fig.axes if ax.get_ylabel() == "impulse [N s]"]
    assert len(twins) == 1, [ax.get_ylabel() for ax in fig.axes]
    block = [ax for ax in fig.axes if ax.get_ylabel().startswith("block_floor")][0]
    assert twins[0].get_position().bounds == block.get_position().bounds
    points = [(x, y) for line in twins[0].get_lines()
              for x, y in zip(line.get_xdata(), line.get_ydata())]
    assert any(abs(x - t_hit) < 1e-12 and abs(y - impulse) < 1e-12 for x, y in points), points
    lo, hi = twins[0].get_ylim()
    assert lo <= 0 and hi > impulse, (lo, hi)
    legend = [t.get_text() for ax in fig.axes if ax.get_legend()
              for t in ax.get_legend().get_texts()]
    assert any("impulse_n" in l and "N s" in l for l in legend), legend
    # Old-format events.csv (no impulse columns): no right axis, no error.
    make_free_flight(tmp)
    fig = drawn_figures(tmp)["contact_forces"]
    assert not [ax for ax in fig.axes if ax.get_ylabel() == "impulse [N s]"]


def test_no_contacts_header_only(tmp):
    make_free_flight(tmp)
    out = os.path.join(tmp, "figs")
    assert_figures(out, nsed_plot.plot_results(tmp, out))


def test_no_contacts_files_absent(tmp):
    make_free_flight(tmp, write_empty_files=False)
    assert_figures(os.path.join(tmp, "plots"), nsed_plot.plot_results(tmp))


def test_single_row_with_nan(tmp):
    make_single_row_nan(tmp)
    paths = nsed_plot.plot_results(tmp)
    for path in paths:   # too little data for the size bound; must still be drawn
        assert os.path.getsize(path) > 0, path
        assert float(np.std(mpimg.imread(path)[..., :3])) > MIN_PIXEL_STD, path


def test_rerun_overwrites(tmp):
    make_sliding_sphere(tmp)
    first = nsed_plot.plot_results(tmp)
    second = nsed_plot.plot_results(tmp)
    assert first == second
    assert_figures(os.path.join(tmp, "plots"), second)


def test_cli_options(tmp):
    make_sliding_sphere(tmp)
    out = os.path.join(tmp, "cli_out")
    r = run_cli(tmp, "--out", out, "--format", "png", "--dpi", "80")
    assert r.returncode == 0, r.stderr
    assert sorted(r.stdout.split()) == sorted(os.path.join(out, f + ".png")
                                              for f in FIGURES), r.stdout


def test_cli_missing_dir(tmp):
    missing = os.path.join(tmp, "does_not_exist")
    r = run_cli(missing)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert missing in r.stderr, r.stderr
    assert "Traceback" not in r.stderr, r.stderr


def test_cli_missing_trajectory(tmp):
    r = run_cli(tmp)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert os.path.join(tmp, "trajectory.csv") in r.stderr, r.stderr


def test_cli_malformed_trajectory(tmp):
    make_free_flight(tmp)
    path = os.path.join(tmp, "trajectory.csv")
    with open(path) as f:
        lines = f.readlines()
    lines[2] = lines[2].replace("0.5", "zero-point-five", 1)   # file line 3
    with open(path, "w") as f:
        f.writelines(lines)
    r = run_cli(tmp)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert path in r.stderr and "line 3" in r.stderr, r.stderr


def test_cli_short_row(tmp):
    make_free_flight(tmp)
    path = os.path.join(tmp, "trajectory.csv")
    with open(path, "a") as f:
        f.write("2.0,1,2\n")   # file line 43: truncated row
    r = run_cli(tmp)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "line 43" in r.stderr and "expected 14 fields" in r.stderr, r.stderr


def test_cli_bad_header(tmp):
    write_csv(os.path.join(tmp, "trajectory.csv"), ["t", "ball.x", "ball.y"],
              [[0, 0, 0]])
    r = run_cli(tmp)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "line 1" in r.stderr and "ball.z" in r.stderr, r.stderr


# --------------------------------------------------------------------------

def main():
    tests = [(name, fn) for name, fn in globals().items()
             if name.startswith("test_") and callable(fn)]
    passed = failed = 0
    for name, fn in tests:
        with tempfile.TemporaryDirectory(prefix="nsed_plot_") as tmp:
            try:
                fn(tmp)
            except Exception:   # report every failure, keep going
                failed += 1
                print(f"FAIL {name}")
                traceback.print_exc()
            else:
                passed += 1
                print(f"ok   {name}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
