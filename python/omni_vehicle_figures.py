#!/usr/bin/python3
"""Figures of an omni-vehicle run (Kosenko and Gerasimov, "Implementation of the omni vehicle dynamics on Modelica", §4, Figs. 7-8).

Usage as a script:
    /usr/bin/python3 python/omni_vehicle_figures.py RESULTDIR [--out DIR]
        [--arrows N] [--units auto|nondim|si] [--dpi N]

Usage as a module:
    from omni_vehicle_figures import make_figures
    paths = make_figures("out/omni_coast", out_dir=None)

RESULTDIR is a directory written by `nsed run problems/omni_vehicle_coast.yaml
-o RESULTDIR` (or any problem with an `omni_vehicle:` block; CSV or HDF5
output, read by the package nsed found next to this script).  The PNGs are
written into RESULTDIR itself unless --out is given:

    vehicle_path.png      the platform centre in the floor plane (x, y), with
                          arrows along the platform's heading (its body x
                          axis) at regular intervals and the wheel hubs drawn
                          at the start and at the end
    mutual_approach.png   per wheel, the gap ("mutual approach", Kosenko's
                          .h) of every roller to the floor over time, one
                          colour per roller, thick while the roller's contact
                          is closed; handovers marked; y clipped so that the
                          touching roller is seen near 0 (Fig. 7), with a
                          zoom on the wheel's first handover
    contact_accuracy.png  |gap| of the closed (touching) roller of each wheel
                          over time on a log scale, coloured by roller: the
                          accuracy of the unilateral constraint (Fig. 8)
    angular_velocity.png  each wheel's spin about its axle (the hub's body z
                          component of the angular velocity, column
                          wheel{i}.wz) and the platform's yaw rate (world z
                          component of its angular velocity)

A handover is counted when a roller contact of a wheel closes (events.csv:
kind close, impact or zeno with a new mode other than open) and that roller
is not the last roller of the wheel that touched; a closing of the same
roller again after a lift-off is a re-contact (marked separately).  The
touching rollers at t = 0 are those closed in the first contacts.csv sample.

Units: Kosenko's non-dimensional set (wheel radius R = 1, g = 1) is labelled
non-dimensionally (lengths / R, time / sqrt(R/g)); other runs in SI.  R is
the platform's initial height (the loader puts the platform centre at R), g
is read from the problem file named in summary.json (or a gravity override).
Exit status 2, with a one-line message, if the directory lacks the result
files or is not an omni-vehicle run.
"""

import argparse
import math
import os
import re
import sys

import numpy as np
from matplotlib.lines import Line2D

if __name__ == "__main__":
    sys.dont_write_bytecode = True   # keep python/nsed/__pycache__ out of the tree
from nsed import plotting as NP               # noqa: E402
from nsed.results import ResultError          # noqa: E402

PROG = "omni_vehicle_figures"
FIGURES = ("vehicle_path", "mutual_approach", "contact_accuracy", "angular_velocity")
FLOOR = 1e-18               # log plots: exact zeros drawn at this level
DEFAULT_ARROWS = 20
_HUB_RE = re.compile(r"^wheel(\d+)$")
_ROLLER_CONTACT_RE = re.compile(r"^wheel(\d+)_roller(\d+)_floor$")
CLOSING_KINDS = ("close", "impact", "zeno")


# --------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------

def _quat_rows(b):
    """Rotation matrix rows of each sample's unit quaternion (q0 scalar)."""
    q0, q1, q2, q3 = b["q0"], b["q1"], b["q2"], b["q3"]
    r00 = 1 - 2 * (q2 * q2 + q3 * q3)
    r10 = 2 * (q1 * q2 + q0 * q3)
    r20 = 2 * (q1 * q3 - q0 * q2)
    r21 = 2 * (q2 * q3 + q0 * q1)
    r22 = 1 - 2 * (q1 * q1 + q2 * q2)
    return r00, r10, r20, r21, r22


def _event_dicts(result):
    """The events as a list of dicts with t, kind, contact and to."""
    e = result.events
    return [{"t": float(t), "kind": str(k), "contact": str(c), "to": str(to)}
            for t, k, c, to in zip(e["t"], e["kind"], e["contact"], e["to"])]


_GRAVITY_RE = re.compile(r"^gravity\s*:\s*\[([^\]]*)\]", re.MULTILINE)
_GRAVITY_SET_RE = re.compile(r"^gravity=\[([^\]]*)\]$")


def _norm3(text):
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        return None
    return math.sqrt(sum(v * v for v in values)) if len(values) == 3 else None


def find_gravity(summary, result_dir):
    """|g| from a gravity override or the problem file named in summary.json;
    9.81 (the format's default) if the file says nothing, None if unreadable."""
    for item in summary.get("overrides") or []:
        m = _GRAVITY_SET_RE.search(str(item).replace(" ", ""))
        if m:
            return _norm3(m.group(1))
    problem = summary.get("problem")
    if not isinstance(problem, str) or not problem:
        return None
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for base in ("", result_dir, repo):
        path = os.path.join(base, problem) if base else problem
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError:
            continue
        m = _GRAVITY_RE.search(text)
        return _norm3(m.group(1)) if m else 9.81
    return None


class Units:
    """Scales and axis labels: Kosenko's non-dimensional set or SI."""

    def __init__(self, mode, R, g):
        if mode == "auto":
            mode = "nondim" if (g is not None and abs(R - 1) < 1e-9
                                and abs(g - 1) < 1e-9) else "si"
        if mode == "nondim" and g is None:
            raise ResultError("--units nondim needs g, and the problem file named in "
                              "summary.json could not be read")
        self.nondim = mode == "nondim"
        self.L = R if self.nondim else 1.0
        self.T = math.sqrt(R / g) if self.nondim else 1.0
        if self.nondim:
            self.t = "t / sqrt(R/g)"
            self.len = "/ R"
            self.rate = "/ sqrt(g/R)"
        else:
            self.t = "t [s]"
            self.len = "[m]"
            self.rate = "[rad/s]"
        self.note = ("non-dimensional: R = 1, g = 1 (Kosenko's set)" if self.nondim
                     and abs(R - 1) < 1e-9 and g is not None and abs(g - 1) < 1e-9
                     else f"non-dimensional by R = {R:g} m, g = {g:g} m/s^2"
                     if self.nondim else "SI units")


class Run:
    """One nsed result directory of an omni vehicle, with derived series."""

    def __init__(self, result_dir, units="auto"):
        if not os.path.isdir(result_dir):
            raise ResultError(f"{result_dir}: result directory not found")
        csv_files = ("trajectory.csv", "contacts.csv", "events.csv")
        missing = [f for f in csv_files if not os.path.isfile(os.path.join(result_dir, f))]
        if missing and not os.path.isfile(os.path.join(result_dir, "results.h5")):
            raise ResultError(f"{result_dir}: not an nsed result directory: "
                              f"{', '.join(missing)} missing (and no results.h5)")
        result = NP.read_for_plotting(result_dir)
        self.dir = result_dir
        traj = result.files["trajectory"]
        self.t = result.trajectory["t"]
        bodies = NP.bodies_of(result)
        hubs = sorted((int(m.group(1)), name) for name in bodies
                      for m in [_HUB_RE.match(name)] if m)
        if "platform" not in bodies or not hubs:
            what = ("no body 'platform'" if "platform" not in bodies
                    else "no hubs wheel0, wheel1, ...")
            listed = ", ".join(list(bodies)[:6]) + (", ..." if len(bodies) > 6 else "")
            raise ResultError(f"{result_dir}: not an omni-vehicle run: the trajectory has "
                              f"{what} (bodies: {listed})")
        self.platform = bodies["platform"]
        self.hubs = [bodies[name] for _, name in hubs]
        self.nwheel = len(hubs)
        if [i for i, _ in hubs] != list(range(self.nwheel)):
            raise ResultError(f"{traj}: the hubs are not wheel0..wheel{self.nwheel - 1}")

        contacts = NP.contacts_of(result)
        # rollers[i] = list of (k, name) sorted by k
        self.rollers = [[] for _ in range(self.nwheel)]
        for name in contacts:
            m = _ROLLER_CONTACT_RE.match(name)
            if m and int(m.group(1)) < self.nwheel:
                self.rollers[int(m.group(1))].append((int(m.group(2)), name))
        if any(not r for r in self.rollers):
            raise ResultError(f"{result_dir}: not an omni-vehicle run: the contacts have no "
                              f"contacts wheel{{i}}_roller{{k}}_floor for every hub "
                              f"(contacts: {', '.join(list(contacts)[:4])}"
                              f"{', ...' if len(contacts) > 4 else ''})")
        for r in self.rollers:
            r.sort()
        self.contacts = contacts
        self.nroller = max(len(r) for r in self.rollers)
        self.events = _event_dicts(result)
        self.summary = result.summary

        self.R = float(self.platform["z"][0])
        if not (self.R > 0 and np.isfinite(self.R)):
            raise ResultError(f"{traj}: platform height {self.R} at t = {self.t[0]} is not "
                              "a wheel radius")
        self.units = Units(units, self.R, find_gravity(self.summary, result_dir))
        r00, r10, r20, r21, r22 = _quat_rows(self.platform)
        self.heading = np.arctan2(r10, r00)
        p = self.platform
        self.yaw_rate = r20 * p["wx"] + r21 * p["wy"] + r22 * p["wz"]
        self._find_handovers()

    def _find_handovers(self):
        """Handovers and re-contacts per wheel from the event log."""
        last = [None] * self.nwheel
        for i, rollers in enumerate(self.rollers):
            for k, name in rollers:
                c = self.contacts[name]
                if len(c["mode"]) and c["mode"][0] != "open":
                    last[i] = k
        self.initial_roller = list(last)
        self.handovers = [[] for _ in range(self.nwheel)]   # (t, from_k, to_k, kind)
        self.recontacts = [[] for _ in range(self.nwheel)]  # (t, k, kind)
        for ev in self.events:
            # Events at the first sample's instant decided the starting modes
            # (the first sample is taken after them): not handovers.
            if ev["t"] <= self.t[0]:
                continue
            if ev["kind"] not in CLOSING_KINDS or ev["to"] == "open":
                continue
            m = _ROLLER_CONTACT_RE.match(ev["contact"])
            if not m or int(m.group(1)) >= self.nwheel:
                continue
            i, k = int(m.group(1)), int(m.group(2))
            if last[i] == k:
                self.recontacts[i].append((ev["t"], k, ev["kind"]))
            else:
                self.handovers[i].append((ev["t"], last[i], k, ev["kind"]))
                last[i] = k

    def n_handovers(self):
        return sum(len(h) for h in self.handovers)

    def closed_gap(self, i):
        """(t, |gap|, roller) of the closed roller contacts of wheel i, merged."""
        ts, gaps, ks = [], [], []
        for k, name in self.rollers[i]:
            c = self.contacts[name]
            closed = c["mode"] != "open"
            ts.append(c["t"][closed])
            gaps.append(np.abs(c["gap"][closed]))
            ks.append(np.full(closed.sum(), k))
        if not ts:
            return np.array([]), np.array([]), np.array([], dtype=int)
        t, g, k = np.concatenate(ts), np.concatenate(gaps), np.concatenate(ks)
        order = np.argsort(t, kind="stable")
        return t[order], g[order], k[order]


# --------------------------------------------------------------------------
# Drawing helpers
# --------------------------------------------------------------------------

def _title(run, what):
    return NP.run_title(run.summary, what)


def _roller_colours(n):
    from matplotlib import colormaps
    if n <= 10:
        cmap = colormaps["tab10"]
        return [cmap(k) for k in range(n)]
    if n <= 20:
        cmap = colormaps["tab20"]
        return [cmap(k) for k in range(n)]
    cmap = colormaps["twilight"]
    return [cmap(k / n) for k in range(n)]


def _mark_handovers(ax, run, i, T, label=True, markers=True):
    """Dashed grey lines at wheel i's handovers, red stars at impacts among
    them, and purple ticks at re-contacts of the same roller (the markers
    sit on the top edge, unclipped: only for axes that show the whole run)."""
    first = label
    for t, _, _, kind in run.handovers[i]:
        ax.axvline(t / T, color="0.45", linestyle="--", linewidth=0.8, zorder=1,
                   label="handover" if first else None)
        first = False
        if kind == "impact" and markers:
            ax.plot([t / T], [1.0], "*", color="tab:red", markersize=9,
                    transform=ax.get_xaxis_transform(), clip_on=False, zorder=4)
    if markers and run.recontacts[i]:
        ts = np.array([t for t, _, _ in run.recontacts[i]]) / T
        ax.plot(ts, np.ones_like(ts), "v", color="tab:purple", markersize=6,
                transform=ax.get_xaxis_transform(), clip_on=False, zorder=4,
                label=f"re-contact, same roller ({ts.size})" if label else None)


def _span(ax, run):
    NP.span_run(ax, run.t / run.units.T)


# --------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------

def fig_path(run, arrows):
    u = run.units
    fig = NP.new_figure(9, 8, _title(run, "Omni vehicle: path of the platform centre"))
    ax = fig.subplots()
    p = run.platform
    x, y = p["x"] / u.L, p["y"] / u.L
    ax.plot(x, y, color="k", linewidth=1.3, label="platform centre")
    span = max(np.ptp(x), np.ptp(y), 1e-12)
    # Wheel hubs (x, y) at the start and at the end: the vehicle's footprint.
    for idx, style, name in ((0, "o", "start"), (-1, "s", "end")):
        hx = np.array([h["x"][idx] for h in run.hubs] + [run.hubs[0]["x"][idx]]) / u.L
        hy = np.array([h["y"][idx] for h in run.hubs] + [run.hubs[0]["y"][idx]]) / u.L
        ax.plot(hx, hy, "-", color="0.6", linewidth=0.8)
        ax.plot(hx[:-1], hy[:-1], style, color="tab:blue" if idx == 0 else "tab:red",
                markersize=7, label=f"wheel hubs at the {name}")
        ax.plot([x[idx]], [y[idx]], style, color="k", markersize=7,
                label=f"platform centre at the {name}")
        for i in range(run.nwheel):
            ax.annotate(str(i), (hx[i], hy[i]), textcoords="offset points", xytext=(5, 5),
                        fontsize="small", color="0.3")
    if arrows > 0:
        idx = np.unique(np.linspace(0, len(run.t) - 1, arrows + 1).round().astype(int))
        length = 0.06 * max(span, np.ptp(np.array([h["x"][0] for h in run.hubs]) / u.L))
        ax.quiver(x[idx], y[idx], np.cos(run.heading[idx]), np.sin(run.heading[idx]),
                  angles="xy", scale_units="xy", scale=1 / length, width=0.004,
                  color="tab:green", zorder=3,
                  label=f"heading (platform x axis), every {np.diff(run.t[idx]).mean() / u.T:.3g}"
                        f" {'time units' if u.nondim else 's'}")
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_xlabel(f"x {u.len}")
    ax.set_ylabel(f"y {u.len}")
    turn = (np.unwrap(run.heading)[-1] - run.heading[0])
    dist = np.sum(np.hypot(np.diff(x), np.diff(y)))
    ax.set_title(f"{u.note}; t = {run.t[0] / u.T:g} to {run.t[-1] / u.T:g}; path length "
                 f"{dist:.4g}, heading turned {math.degrees(turn):.1f} deg", fontsize="medium")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    return fig


def fig_mutual_approach(run):
    u = run.units
    n = run.nroller
    colours = _roller_colours(n)
    fig = NP.new_figure(14, 2.6 + 2.4 * run.nwheel, _title(
        run, f"Mutual approaches (roller gaps) per wheel, {run.n_handovers()} "
             f"handover{'' if run.n_handovers() == 1 else 's'} (Kosenko Fig. 7)"))
    grid = fig.subplots(run.nwheel, 3, squeeze=False, width_ratios=(3, 1, 0.75))
    axes = grid[:, :2]
    for a in grid[:, 2]:
        a.axis("off")   # the legend's column
    # Neighbour of the touching roller at mid-contact: gap R (1 - cos(pi/n)).
    top = 1.6 * run.R * (1 - math.cos(math.pi / max(n, 3))) / u.L
    for i in range(run.nwheel):
        ax, az = axes[i]
        first_ho = run.handovers[i][0][0] if run.handovers[i] else None
        for k, name in run.rollers[i]:
            c = run.contacts[name]
            t, g = c["t"] / u.T, c["gap"] / u.L
            closed = np.where(c["mode"] != "open", g, np.nan)
            for a in (ax, az):
                a.plot(t, g, color=colours[k % len(colours)], linewidth=0.9,
                       label=f"roller {k}" if a is ax else None)
                a.plot(t, closed, color=colours[k % len(colours)], linewidth=3.2,
                       alpha=0.6, solid_capstyle="butt")
        ax.axhline(0, color="k", linewidth=0.6)
        _mark_handovers(ax, run, i, u.T, label=(i == 0))
        ax.set_ylim(-0.08 * top, top)
        _span(ax, run)
        ax.set_ylabel(f"wheel {i}: gap {u.len}")
        ax.grid(True, alpha=0.3)
        # Zoom on the first handover: +-1/8 of a roller's passage.
        az.axhline(0, color="k", linewidth=0.6)
        if first_ho is not None:
            _mark_handovers(az, run, i, u.T, label=False, markers=False)
            speed = _hub_speed(run, i, first_ho)
            half = (0.125 * 2 * math.pi * run.R / n / speed) if speed > 1e-9 else 0.1
            az.set_xlim((first_ho - half) / u.T, (first_ho + half) / u.T)
            zt = 0.12 * top
            az.set_ylim(-0.15 * zt, zt)
            az.set_title(f"zoom: first handover, t = {first_ho / u.T:.6g}", fontsize="small")
        else:
            az.cla()
            az.set_xticks([])
            az.set_yticks([])
            NP.empty_panel(az, "no handover\non this wheel", xlabel="")
        az.grid(True, alpha=0.3)
    handles = [Line2D([], [], color=colours[k], label=f"roller {k}") for k in range(n)]
    handles += [Line2D([], [], color="0.3", linewidth=3.2, alpha=0.6, label="contact closed"),
                Line2D([], [], color="0.45", linestyle="--", label="handover"),
                Line2D([], [], color="tab:red", marker="*", ls="", label="handover by impact"),
                Line2D([], [], color="tab:purple", marker="v", ls="",
                       label="re-contact, same roller")]
    legend = grid[0, 2].legend(handles=handles, loc="upper left", fontsize="small",
                               borderaxespad=0)
    legend.set_in_layout(False)   # its column is reserved for it
    axes[-1, 0].set_xlabel(u.t)
    axes[-1, 1].set_xlabel(u.t)
    return fig


def _hub_speed(run, i, t):
    h = run.hubs[i]
    j = min(np.searchsorted(run.t, t), len(run.t) - 1)
    return float(np.hypot(h["vx"][j], h["vy"][j]))


def fig_contact_accuracy(run):
    u = run.units
    colours = _roller_colours(run.nroller)
    fig = NP.new_figure(12, 1.8 + 2.3 * run.nwheel, _title(
        run, "Accuracy of the unilateral constraint: |gap| of the touching roller "
             "(Kosenko Fig. 8)"))
    axes = fig.subplots(run.nwheel, 1, sharex=True, squeeze=False)[:, 0]
    worst = 0.0
    for i, ax in enumerate(axes):
        t, g, k = run.closed_gap(i)
        if t.size == 0:
            NP.empty_panel(ax, "no closed roller contact recorded", xlabel="")
            ax.set_ylabel(f"wheel {i}")
            continue
        for kk in np.unique(k):
            sel = k == kk
            ax.semilogy(t[sel] / u.T, np.maximum(g[sel] / u.L, FLOOR), ".", markersize=2.5,
                        color=colours[kk % len(colours)], label=f"roller {kk}")
        _mark_handovers(ax, run, i, u.T, label=False)
        gmax = float(np.max(g))
        worst = max(worst, gmax)
        zeros = int(np.sum(g < FLOOR))
        ax.text(0.01, 0.04, f"max |gap| = {gmax / u.L:.2g}{' ' + u.len if not u.nondim else ' R'}"
                f"; {t.size} closed samples" + (f" ({zeros} exactly 0, drawn at {FLOOR:g})"
                                                if zeros else ""),
                transform=ax.transAxes, fontsize="small",
                bbox={"facecolor": "white", "alpha": 0.85, "edgecolor": "0.7"})
        ax.set_ylabel(f"wheel {i}: |gap| {u.len}")
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small",
                  markerscale=4)
    _span(axes[-1], run)
    axes[-1].set_xlabel(u.t)
    return fig


def fig_angular_velocity(run):
    u = run.units
    fig = NP.new_figure(12, 7.5, _title(run, "Wheel spins and platform yaw rate"))
    ax_w, ax_p = fig.subplots(2, 1, sharex=True, height_ratios=(2, 1))
    colours = [_wheel_colour(i) for i in range(run.nwheel)]
    t = run.t / u.T
    for i, h in enumerate(run.hubs):
        ax_w.plot(t, h["wz"] * u.T, color=colours[i], linewidth=1.1,
                  label=f"wheel {i} ({len(run.handovers[i])} handovers)")
        for th, _, _, _ in run.handovers[i]:
            j = min(np.searchsorted(run.t, th), len(run.t) - 1)
            ax_w.plot([th / u.T], [h["wz"][j] * u.T], "|", color=colours[i], markersize=9)
    ax_w.set_ylabel(f"spin about the axle {u.rate}\n(wheel{{i}}.wz, hub body z)")
    ax_w.grid(True, alpha=0.3)
    ax_w.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small",
                title="ticks: handovers")
    ax_p.plot(t, run.yaw_rate * u.T, color="k", linewidth=1.2, label="platform yaw rate")
    ax_p.set_ylabel(f"yaw rate {u.rate}\n(world z)")
    ax_p.grid(True, alpha=0.3)
    w = run.yaw_rate * u.T
    ax_p.set_title(f"platform yaw rate: start {w[0]:.6g}, end {w[-1]:.6g}, "
                   f"min {np.min(w):.6g}, max {np.max(w):.6g}", fontsize="small")
    imp = [ev["t"] for ev in run.events if ev["kind"] == "impact"]
    if imp:
        ax_p.plot(np.array(imp) / u.T, np.ones(len(imp)), "*", color="tab:red", markersize=8,
                  transform=ax_p.get_xaxis_transform(), clip_on=False,
                  label=f"impacts ({len(imp)})")
    ax_p.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")
    _span(ax_p, run)
    ax_p.set_xlabel(u.t)
    return fig


def _wheel_colour(i):
    from matplotlib import colormaps
    return colormaps["tab10"](i % 10)


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------

def make_figures(result_dir, out_dir=None, arrows=DEFAULT_ARROWS, units="auto",
                 dpi=NP.DEFAULT_DPI):
    """Write the four figures; return the list of written paths.

    Raises ResultError on a missing, malformed or non-vehicle result directory.
    """
    run = Run(result_dir, units)
    out_dir = out_dir or result_dir
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as e:
        raise ResultError(f"{out_dir}: cannot create output directory: {e}") from None
    builders = {
        "vehicle_path": lambda: fig_path(run, arrows),
        "mutual_approach": lambda: fig_mutual_approach(run),
        "contact_accuracy": lambda: fig_contact_accuracy(run),
        "angular_velocity": lambda: fig_angular_velocity(run),
    }
    return NP.save_figures([(name, builders[name]) for name in FIGURES], out_dir, "png", dpi)


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="omni_vehicle_figures.py",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="""\
Figures of an omni-vehicle run written by
  nsed run problems/omni_vehicle_coast.yaml -o RESULTDIR
(any problem with an omni_vehicle block, CSV output), as PNGs:
  vehicle_path.png      platform centre in the (x, y) plane, heading arrows,
                        wheel hubs at the start and the end
  mutual_approach.png   per wheel, every roller's gap to the floor over time
                        (one colour per roller, thick while closed), handovers
                        marked, zoom on the first handover (Kosenko Fig. 7)
  contact_accuracy.png  |gap| of the touching roller, log scale (Fig. 8)
  angular_velocity.png  wheel spins about the axles (wheel{i}.wz) and the
                        platform yaw rate
A handover: a roller contact closes (close/impact event) that is not the last
roller of its wheel to have touched.""",
        epilog="Exit status 2 with a one-line message if RESULTDIR lacks "
               "trajectory.csv, contacts.csv or events.csv (and holds no results.h5), or is "
               "not an omni-vehicle run (no body 'platform', hubs wheel0.., contacts "
               "wheel{i}_roller{k}_floor).")
    p.add_argument("result_dir", metavar="RESULTDIR",
                   help="result directory of the run")
    p.add_argument("--out", metavar="DIR",
                   help="output directory for the PNGs (default: RESULTDIR itself)")
    p.add_argument("--arrows", type=int, default=DEFAULT_ARROWS, metavar="N",
                   help="number of heading arrows along the path, evenly spaced in "
                        f"time; 0 for none (default: {DEFAULT_ARROWS})")
    p.add_argument("--units", choices=("auto", "nondim", "si"), default="auto",
                   help="axis units: 'nondim' divides lengths by R and times by "
                        "sqrt(R/g); 'si' plots m, s, rad/s; 'auto' (default) is nondim "
                        "when the run is already in Kosenko's set (R = 1, g = 1)")
    p.add_argument("--dpi", type=int, default=NP.DEFAULT_DPI,
                   help=f"raster resolution (default: {NP.DEFAULT_DPI})")
    args = p.parse_args(argv)
    if args.dpi <= 0:
        p.error("--dpi must be positive")
    if args.arrows < 0:
        p.error("--arrows must be >= 0")
    return args


def main(argv=None):
    args = parse_args(argv)
    try:
        paths = make_figures(args.result_dir, args.out, args.arrows, args.units, args.dpi)
    except ResultError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
