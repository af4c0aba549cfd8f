#!/usr/bin/python3
"""Figures of the disk-on-shaft experiment (Xu, Wang & Wang 2017, section 5).

Usage as a script:
    /usr/bin/python3 python/disk_on_shaft_figures.py RESULTDIR [--out DIR]
        [--nostab RESULTDIR_NOSTAB] [--mu0 MU0] [--dpi N]

Usage as a module:
    from disk_on_shaft_figures import make_figures
    paths = make_figures("results/disk_on_shaft/case2", out_dir=None)

RESULTDIR is a directory written by `nsed run problems/disk_on_shaft_caseN.yaml
-o RESULTDIR`.  One PNG per paper figure (docs/disk-on-shaft.md, "Figures"):

    c1_trajectory.png  path of the disk centre C1 in x-y and its radius
                       deviation L_OC1 - 1.5 m          (Figs. 10, 14, 21, 22)
    L_OC1.png          L_OC1(t) = |C1 - O|              (Figs. 11, 16)
    slip_speed.png     |v_K|(t) of the contact point K  (Figs. 12, 18)
    friction.png       mu0 |F_N| and |F_T| over time    (Figs. 13, 19)
    phase.png          dL_OC1/dt against L_OC1          (Fig. 15)
    drift.png          constraint drift, Baumgarte vs unstabilised (Fig. 20)

Time plots are shaded green where the contact sticks and orange where it
slips (contacts.csv mode), and every stick->slip event of events.csv is
marked by an orange triangle on the top edge, so that slips too short to
shade are still visible.  Reading (CSV or results.h5), shading and atomic
writing come from the package nsed (nsed.results, nsed.plotting), found
next to this script.  Exit status 2 on unreadable or malformed input, with
the file (and line) named.
"""

import argparse
import os
import re
import sys

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.lines import Line2D

if __name__ == "__main__":
    sys.dont_write_bytecode = True   # keep python/nsed/__pycache__ out of the tree
from nsed import plotting as NP               # noqa: E402
from nsed.results import ResultError          # noqa: E402

PROG = "disk_on_shaft_figures"
FIGURES = ("c1_trajectory", "L_OC1", "slip_speed", "friction", "phase", "drift")
DEFAULT_MU0 = 0.33
PIVOT = (0.0, 0.0, 0.4)     # cardan joint O
RADIUS = 1.5                # L_OC1 at rest (s0 of the problem files)
SHAFT_HALF = 1.1            # O is the shaft's end: shaft centre - 1.1 body z
# Darker versions of nsed_plot's shading colours, for lines coloured by mode.
LINE_COLOURS = {"stick": "tab:green", "slip": "tab:orange"}
FLOOR = 1e-18               # log plots: exact zeros drawn at this level


# --------------------------------------------------------------------------
# Reading and derived quantities
# --------------------------------------------------------------------------

class Run:
    """One nsed result directory of the disk on a shaft, with derived series."""

    def __init__(self, result_dir, body="disk", shaft="shaft",
                 contact="disk_floor"):
        result = NP.read_for_plotting(result_dir)
        self.dir = result_dir
        self.t = result.trajectory["t"]
        bodies = NP.bodies_of(result)
        if body not in bodies:
            raise ResultError(f"{result.files['trajectory']} line 1: no body '{body}' "
                              f"(bodies: {', '.join(bodies)})")
        self.disk = bodies[body]
        self.shaft = bodies.get(shaft)
        contacts = NP.contacts_of(result)
        if contact in contacts:
            self.contact = contacts[contact]
        elif len(contacts) == 1:
            self.contact = next(iter(contacts.values()))
        elif not contacts:
            self.contact = None
        else:
            raise ResultError(f"{result.files['contacts']}: no contact '{contact}' "
                              f"(contacts: {', '.join(contacts)})")
        self.contact_name = contact
        self.events = NP.event_tuples(result)
        self.summary = result.summary

        d = self.disk
        rel = np.stack([d["x"] - PIVOT[0], d["y"] - PIVOT[1], d["z"] - PIVOT[2]])
        self.L = np.sqrt((rel ** 2).sum(axis=0))
        vel = np.stack([d["vx"], d["vy"], d["vz"]])
        with np.errstate(invalid="ignore", divide="ignore"):
            self.Ldot = (rel * vel).sum(axis=0) / self.L
        self.height_drift = d["z"] - PIVOT[2]

    def slip_onsets(self):
        """Times of stick->slip events on this contact (events.csv)."""
        return np.array([t for t, kind, c in self.events
                         if kind == "slip" and c in (self.contact_name, "")])

    def joint_drift(self):
        """Largest violation of the cardan and cylindrical joints [m], or None.

        Cardan: the shaft's end (centre - 1.1 m along body z) must stay at O.
        Cylinder: the disk centre must stay on the shaft's axis.
        """
        s = self.shaft
        if s is None:
            return None
        axis = _body_z(s["q0"], s["q1"], s["q2"], s["q3"])
        centre = np.stack([s["x"], s["y"], s["z"]])
        end = centre - SHAFT_HALF * axis
        cardan = np.sqrt(((end - np.array(PIVOT)[:, None]) ** 2).sum(axis=0))
        disk = np.stack([self.disk["x"], self.disk["y"], self.disk["z"]])
        rel = disk - centre
        off_axis = rel - (rel * axis).sum(axis=0) * axis
        cylinder = np.sqrt((off_axis ** 2).sum(axis=0))
        return np.fmax(cardan, cylinder)


def _body_z(q0, q1, q2, q3):
    """Third column of the rotation matrix of unit quaternion (q0 scalar)."""
    return np.stack([2 * (q1 * q3 + q0 * q2),
                     2 * (q2 * q3 - q0 * q1),
                     q0 * q0 - q1 * q1 - q2 * q2 + q3 * q3])


_MU0_RE = re.compile(r"\bmu0\s*:\s*([-+0-9.eE]+)")
_MU0_SET_RE = re.compile(r"\bmu0=([-+0-9.eE]+)$")


def find_mu0(summary, result_dir):
    """mu0 from a `--set ...mu0=` override or the problem file named in
    summary.json (tried relative to the cwd, the result directory and the
    repository); None if not found."""
    for item in summary.get("overrides") or []:
        m = _MU0_SET_RE.search(str(item))
        if m:
            return float(m.group(1))
    problem = summary.get("problem")
    if not isinstance(problem, str) or not problem:
        return None
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for base in ("", result_dir, repo):
        path = os.path.join(base, problem) if base else problem
        try:
            with open(path, encoding="utf-8") as f:
                m = _MU0_RE.search(f.read())
        except OSError:
            continue
        if m:
            try:
                return float(m.group(1))
            except ValueError:
                return None
    return None


# --------------------------------------------------------------------------
# Drawing helpers
# --------------------------------------------------------------------------

def _title(run, what):
    return NP.run_title(run.summary, what)


def _shade(ax, run):
    if run.contact is not None:
        NP.shade_modes(ax, run.contact["t"], run.contact["mode"])


def _mark_onsets(ax, run):
    """Orange triangles on the top edge at every stick->slip event."""
    onsets = run.slip_onsets()
    if onsets.size:
        ax.plot(onsets, np.ones_like(onsets), "v", color="tab:orange",
                markersize=7, transform=ax.get_xaxis_transform(), clip_on=False,
                label=f"stick->slip ({onsets.size})", zorder=4)


def _finish_time_axes(ax, run, ylabel):
    _shade(ax, run)
    _mark_onsets(ax, run)
    NP.span_run(ax, run.t)
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)


def _mode_at(run, t):
    """Contact mode holding at each time t (sample-and-hold, like the shading)."""
    c = run.contact
    if c is None or not len(c["t"]):
        return np.full(len(t), "", dtype=object)
    idx = np.searchsorted(c["t"], t, side="right") - 1
    return np.asarray(c["mode"], dtype=object)[np.clip(idx, 0, len(c["t"]) - 1)]


def _mode_coloured_path(ax, run, x, y, width=1.4):
    """Line through (x, y), each segment coloured by the mode at its start."""
    points = np.column_stack([x, y])
    segments = np.stack([points[:-1], points[1:]], axis=1)
    modes = _mode_at(run, run.t[:-1])
    colours = [LINE_COLOURS.get(m, "0.3") for m in modes]
    ax.add_collection(LineCollection(segments, colors=colours, linewidths=width))
    ax.autoscale_view()


def _mode_line_legend(ax, extra=()):
    handles = list(extra) + [Line2D([], [], color=c, label=m)
                             for m, c in LINE_COLOURS.items()]
    ax.legend(handles=handles, loc="best", fontsize="small")


def _positive(values):
    """|values| with zeros lifted to FLOOR and non-finite left as gaps."""
    out = np.abs(np.asarray(values, dtype=float))
    out[out < FLOOR] = FLOOR
    return out


# --------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------

def fig_c1_trajectory(run, nostab):
    fig = NP.new_figure(13, 6, _title(run, "Path of the disk centre C1"))
    ax_xy, ax_r = fig.subplots(1, 2, width_ratios=(1, 1.25))
    d = run.disk
    _mode_coloured_path(ax_xy, run, d["x"], d["y"])
    ax_xy.plot(d["x"][:1], d["y"][:1], "ko", label="start")
    ax_xy.plot(d["x"][-1:], d["y"][-1:], "kx", label="end")
    ax_xy.plot([PIVOT[0]], [PIVOT[1]], "k+", markersize=10, label="pillar O")
    extra = [Line2D([], [], color="k", marker="o", ls="", label="start"),
             Line2D([], [], color="k", marker="x", ls="", label="end"),
             Line2D([], [], color="k", marker="+", ls="", label="pillar O")]
    if nostab is not None:
        ax_xy.plot(nostab.disk["x"], nostab.disk["y"], "--", color="tab:blue",
                   linewidth=0.8, label="unstabilised")
        extra.append(Line2D([], [], color="tab:blue", ls="--",
                            label="unstabilised"))
    ax_xy.set_aspect("equal", adjustable="datalim")
    ax_xy.set_xlabel("x [m]")
    ax_xy.set_ylabel("y [m]")
    ax_xy.set_title("C1 in the x-y plane (Figs. 10, 14, 21)")
    ax_xy.grid(True, alpha=0.3)
    _mode_line_legend(ax_xy, extra)

    # Fig. 22 zoom: the radius of the path, magnified as a deviation from 1.5 m.
    ax_r.plot(run.t, run.L - RADIUS, color="k", linewidth=1.2,
              label="Baumgarte" if nostab is not None else "L_OC1 - 1.5 m")
    if nostab is not None:
        ax_r.plot(nostab.t, nostab.L - RADIUS, "--", color="tab:blue",
                  linewidth=1.2, label="unstabilised")
    _finish_time_axes(ax_r, run, "L_OC1 - 1.5 [m]")
    ax_r.set_xlabel("t [s]")
    dev = np.nanmax(np.abs(run.L - RADIUS))
    text = f"max |L_OC1 - 1.5| = {dev:.3g} m"
    if nostab is not None:
        text += f"\nunstabilised: {np.nanmax(np.abs(nostab.L - RADIUS)):.3g} m"
    ax_r.set_title("radius of the path, zoomed (Fig. 22)")
    ax_r.text(0.02, 0.04, text, transform=ax_r.transAxes, fontsize="small",
              bbox={"facecolor": "white", "alpha": 0.8, "edgecolor": "0.7"})
    NP.mode_legend(ax_r)
    return fig


def fig_L(run):
    fig = NP.new_figure(10, 4.5, _title(run, "L_OC1 = |C1 - O| (Figs. 11, 16)"))
    ax = fig.subplots()
    ax.plot(run.t, run.L, color="k", label="L_OC1")
    _finish_time_axes(ax, run, "L_OC1 [m]")
    ax.set_xlabel("t [s]")
    NP.mode_legend(ax)
    return fig


def fig_slip_speed(run):
    fig = NP.new_figure(10, 4.5,
                         _title(run, "Speed of the contact point |v_K| (Figs. 12, 18)"))
    ax = fig.subplots()
    if run.contact is None:
        NP.empty_panel(ax, "no contacts recorded")
        ax.set_ylabel("|v_K| [m/s]")
        return fig
    c = run.contact
    ax.plot(c["t"], c["slip_speed"], color="tab:purple", label="|v_K|")
    _finish_time_axes(ax, run, "|v_K| [m/s]")
    ax.set_xlabel("t [s]")
    NP.mode_legend(ax)
    return fig


def fig_friction(run, mu0, mu0_source):
    fig = NP.new_figure(10, 4.5, _title(
        run, "Maximum static friction mu0|F_N| and friction |F_T| (Figs. 13, 19)"))
    ax = fig.subplots()
    if run.contact is None:
        NP.empty_panel(ax, "no contacts recorded")
        ax.set_ylabel("force [N]")
        return fig
    c = run.contact
    ax.plot(c["t"], mu0 * np.abs(c["lambda_n"]), color="tab:blue",
            label=f"mu0 |F_N| (mu0 = {mu0:g}, {mu0_source})")
    ax.plot(c["t"], np.hypot(c["lambda_t1"], c["lambda_t2"]), color="tab:red",
            label="|F_T|")
    _finish_time_axes(ax, run, "force [N]")
    ax.set_xlabel("t [s]")
    # A sticking contact must keep |F_T| <= mu0 |F_N| (up to the corners of a
    # circumscribed polygon, 1/cos(pi/sides)); say so if it does not.
    slack = _stick_slack(run.summary)
    stick = np.asarray(c["mode"]) == "stick"
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.hypot(c["lambda_t1"], c["lambda_t2"]) / (mu0 * np.abs(c["lambda_n"]))
    over = stick & (ratio > slack)
    if over.any():
        ax.text(0.02, 0.96, f"sticking with |F_T| > {slack:.4g} mu0|F_N|: "
                f"{over.sum()} of {stick.sum()} stick samples, "
                f"max ratio {np.nanmax(ratio[over]):.3g}",
                transform=ax.transAxes, va="top", fontsize="small", color="tab:red",
                bbox={"facecolor": "white", "alpha": 0.85, "edgecolor": "tab:red"})
    NP.mode_legend(ax)
    return fig


def _stick_slack(summary):
    """Largest |F_T| / (mu0 |F_N|) a sticking contact may show (+0.1 %)."""
    model = str(summary.get("friction_model", ""))
    sides = summary.get("friction_sides")
    if model.startswith("polygon") and "vertex" not in model \
            and isinstance(sides, int) and sides >= 3:
        return 1.001 / np.cos(np.pi / sides)
    return 1.001


def fig_phase(run):
    fig = NP.new_figure(9, 6.5, _title(run, "Phase portrait of L_OC1 (Fig. 15)"))
    ax = fig.subplots()
    points = np.column_stack([run.L, run.Ldot])
    segments = np.stack([points[:-1], points[1:]], axis=1)
    lc = LineCollection(segments, cmap="viridis", linewidths=1.2)
    lc.set_array(run.t[:-1])
    ax.add_collection(lc)
    ax.autoscale_view()
    fig.colorbar(lc, ax=ax, label="t [s]")
    onsets = run.slip_onsets()
    if onsets.size:
        idx = np.clip(np.searchsorted(run.t, onsets), 0, len(run.t) - 1)
        ax.plot(run.L[idx], run.Ldot[idx], "v", color="tab:orange",
                markeredgecolor="k", label=f"stick->slip ({onsets.size})")
    ax.plot(run.L[:1], run.Ldot[:1], "ko", label="start")
    ax.set_xlabel("L_OC1 [m]")
    ax.set_ylabel("dL_OC1/dt [m/s]")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best", fontsize="small")
    return fig


def fig_drift(run, nostab):
    title = "Constraint drift: Baumgarte (solid) vs unstabilised (dashed) (Fig. 20)"
    fig = NP.new_figure(10, 8, _title(run, title))
    axes = fig.subplots(3, 1, sharex=True)
    series = [
        ("|z_C1 - 0.4| [m]\n(rim on ground)", lambda r: r.height_drift),
        ("|L_OC1 - 1.5| [m]\n(radius of path)", lambda r: r.L - RADIUS),
        ("joint drift [m]\n(cardan, cylinder)", lambda r: r.joint_drift()),
    ]
    for ax, (label, get) in zip(axes, series):
        for r, style, name in ((run, "-", "Baumgarte"), (nostab, "--", "unstabilised")):
            if r is None:
                continue
            values = get(r)
            if values is None:
                continue
            ax.semilogy(r.t, _positive(values), style, color="k" if r is run
                        else "tab:blue", label=f"{name} (max {np.nanmax(np.abs(values)):.2g})")
        ax.set_ylabel(label)
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(loc="upper left", fontsize="small")
    if nostab is None:
        axes[0].text(0.5, 0.5, "no --nostab run given", transform=axes[0].transAxes,
                     ha="center", va="center", color="0.4")
    NP.span_run(axes[-1], run.t)
    axes[-1].set_xlabel("t [s]")
    return fig


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------

def make_figures(result_dir, out_dir=None, nostab_dir=None, mu0=None,
                 dpi=NP.DEFAULT_DPI):
    """Write the six figures; return the list of written paths.

    Raises ResultError on a missing or malformed result directory.
    """
    run = Run(result_dir)
    nostab = Run(nostab_dir) if nostab_dir else None
    if mu0 is not None:
        mu0_source = "--mu0"
    else:
        mu0 = find_mu0(run.summary, result_dir)
        mu0_source = "problem file"
        if mu0 is None:
            mu0, mu0_source = DEFAULT_MU0, "default"

    out_dir = out_dir or os.path.join(result_dir, "plots")
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as e:
        raise ResultError(f"{out_dir}: cannot create output directory: {e}") from None

    builders = {
        "c1_trajectory": lambda: fig_c1_trajectory(run, nostab),
        "L_OC1": lambda: fig_L(run),
        "slip_speed": lambda: fig_slip_speed(run),
        "friction": lambda: fig_friction(run, mu0, mu0_source),
        "phase": lambda: fig_phase(run),
        "drift": lambda: fig_drift(run, nostab),
    }
    return NP.save_figures([(name, builders[name]) for name in FIGURES], out_dir, "png", dpi)


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="disk_on_shaft_figures.py",
        description="Paper figures (Xu et al. 2017, Figs. 10-22) of a "
                    "disk-on-shaft run written by `nsed run ... -o DIR`.")
    p.add_argument("result_dir", metavar="RESULTDIR")
    p.add_argument("--out", metavar="DIR",
                   help="output directory (default: RESULTDIR/plots)")
    p.add_argument("--nostab", metavar="RESULTDIR_NOSTAB",
                   help="the same problem run without stabilisation "
                        "(dashed lines in c1_trajectory.png and drift.png)")
    p.add_argument("--mu0", type=float, default=None,
                   help="static friction coefficient for mu0|F_N| (default: "
                        f"from the problem file named in summary.json, else {DEFAULT_MU0})")
    p.add_argument("--dpi", type=int, default=NP.DEFAULT_DPI,
                   help=f"raster resolution (default: {NP.DEFAULT_DPI})")
    args = p.parse_args(argv)
    if args.dpi <= 0:
        p.error("--dpi must be positive")
    if args.mu0 is not None and not (args.mu0 >= 0 and np.isfinite(args.mu0)):
        p.error("--mu0 must be a finite number >= 0")
    return args


def main(argv=None):
    args = parse_args(argv)
    try:
        paths = make_figures(args.result_dir, args.out, args.nostab, args.mu0,
                             args.dpi)
    except ResultError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
