#!/usr/bin/python3
"""Figures of the disk-on-shaft experiment (Xu, Wang & Wang 2017, section 5).

Usage as a script:
    /usr/bin/python3 python/disk_on_shaft_figures.py RESULTDIR [--out DIR]
        [--nostab RESULTDIR_NOSTAB] [--case N] [--mu0 MU0] [--mu MU] [--dpi N]

Usage as a module:
    from disk_on_shaft_figures import make_figures
    paths = make_figures("results/disk_on_shaft/case2", out_dir=None)

RESULTDIR is a directory written by `nsed run problems/disk_on_shaft_caseN.yaml
-o RESULTDIR`.  One PNG per paper figure (docs/disk-on-shaft.md, "Figures");
the paper's figure number for case 1 / 2 / 3:

    c1_trajectory.png  path of the disk centre C1 in x-y     (10 / 14 / 21)
                       and its radius deviation L_OC1 - 1.5 m (- / - / 22)
    L_OC1.png          L_OC1(t) = |C1 - O|                    (11 / 16 / -)
    slip_speed.png     |v_K|(t) of the contact point K        (12 / 18 / -)
    friction.png       |F_T| with mu0 |F_N| and mu |F_N|      (13 / 19 / -)
    phase.png          dL_OC1/dt against L_OC1                (- / 15 / -)
    drift.png          constraint drift, Baumgarte vs unstabilised (- / - / 20)

The case comes from the problem file named in summary.json
(disk_on_shaft_caseN*.yaml) or --case; titles carry the figure number of
that case, and none when the case is unknown or the paper has no such
figure for it.  Time plots are shaded green where the contact sticks and
orange where it slips (contacts.csv mode), and every stick->slip event of
events.csv is marked by an orange triangle on the top edge, so that slips
too short to shade are still visible.  Reading (CSV or results.h5), shading and atomic
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
DEFAULT_MU0 = 0.33          # the problem files' static and kinetic coefficients
DEFAULT_MU = 0.18
PIVOT = (0.0, 0.0, 0.4)     # cardan joint O
RADIUS = 1.5                # L_OC1 at rest (s0 of the problem files)
SHAFT_HALF = 1.1            # O is the shaft's end: shaft centre - 1.1 body z
# Darker versions of nsed_plot's shading colours, for lines coloured by mode.
LINE_COLOURS = {"stick": "tab:green", "slip": "tab:orange"}
# Drift samples no larger than this many ulps of the coordinates they are
# made from are round-off: drawn as dots (no line), exact zeros left out.
ROUNDOFF_ULPS = 16
# Paper figure numbers (Xu, Wang & Wang 2017) per case and panel
# (docs/disk-on-shaft.md); a panel absent here has no figure in that case.
PAPER_FIGURES = {
    1: {"xy": 10, "L_OC1": 11, "slip_speed": 12, "friction": 13},
    2: {"xy": 14, "phase": 15, "L_OC1": 16, "slip_speed": 18, "friction": 19},
    3: {"drift": 20, "xy": 21, "radius": 22},
}
_CASE_RE = re.compile(r"disk_on_shaft_case([0-9]+)")


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
        self.case = case_of(self.summary)

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


def case_of(summary):
    """The paper's case (1, 2, 3) of the problem file named in summary.json
    (disk_on_shaft_caseN.yaml, also caseN_nostab), or None."""
    m = _CASE_RE.search(os.path.basename(str(summary.get("problem") or "")))
    case = int(m.group(1)) if m else None
    return case if case in PAPER_FIGURES else None


def paper_figure(case, panel):
    """" (Fig. N)" for the panel in that case, or "" when there is none."""
    number = PAPER_FIGURES.get(case, {}).get(panel)
    return f" (Fig. {number})" if number else ""


def _body_z(q0, q1, q2, q3):
    """Third column of the rotation matrix of unit quaternion (q0 scalar)."""
    return np.stack([2 * (q1 * q3 + q0 * q2),
                     2 * (q2 * q3 - q0 * q1),
                     q0 * q0 - q1 * q1 - q2 * q2 + q3 * q3])


def _find_coefficient(key, summary, result_dir):
    """(KEY, source) for KEY mu0 or mu: from a `--set ...KEY=` override
    ("--set") or the problem file named in summary.json ("problem file",
    tried relative to the cwd, the result directory and the repository);
    (None, None) if not found."""
    set_re = re.compile(rf"\b{key}=([-+0-9.eE]+)$")
    file_re = re.compile(rf"\b{key}\s*:\s*([-+0-9.eE]+)")
    for item in summary.get("overrides") or []:
        m = set_re.search(str(item))
        if m:
            try:
                return float(m.group(1)), "--set"
            except ValueError:
                return None, None
    problem = summary.get("problem")
    if not isinstance(problem, str) or not problem:
        return None, None
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for base in ("", result_dir, repo):
        path = os.path.join(base, problem) if base else problem
        try:
            with open(path, encoding="utf-8") as f:
                m = file_re.search(f.read())
        except OSError:
            continue
        if m:
            try:
                return float(m.group(1)), "problem file"
            except ValueError:
                return None, None
    return None, None


def find_mu0(summary, result_dir):
    """mu0 from a `--set ...mu0=` override or the problem file; None if not found."""
    return _find_coefficient("mu0", summary, result_dir)[0]


def find_mu(summary, result_dir):
    """mu (kinetic) from a `--set ...mu=` override or the problem file; None if not found."""
    return _find_coefficient("mu", summary, result_dir)[0]


def contact_law(summary, contact):
    """The summary.json contact_laws entry of the contact (or the only
    entry), or {}."""
    laws = [law for law in summary.get("contact_laws") or [] if isinstance(law, dict)]
    named = [law for law in laws if law.get("name") == contact]
    if named:
        return named[0]
    return laws[0] if len(laws) == 1 else {}


def _coefficient(value):
    """value as a float if it is a usable friction coefficient, else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if np.isfinite(value) and value >= 0 else None


def friction_coefficients(run, mu0=None, mu=None):
    """{"mu0": (value, source), "mu": (value, source)}: the given value
    ("--mu0" / "--mu"), else the contact's entry in summary.json
    contact_laws, else a --set override or the problem file, else the
    problem files' value (DEFAULT_MU0, DEFAULT_MU: "default")."""
    law = contact_law(run.summary, run.contact_name)
    out = {}
    for key, given, default in (("mu0", mu0, DEFAULT_MU0), ("mu", mu, DEFAULT_MU)):
        if given is not None:
            out[key] = (float(given), f"--{key}")
        elif _coefficient(law.get(key)) is not None:
            out[key] = (_coefficient(law.get(key)), "summary.json")
        else:
            value, source = _find_coefficient(key, run.summary, run.dir)
            out[key] = (value, source) if value is not None else (default, "default")
    return out


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


# How the path of C1 is drawn per mode: stick thick and on top, slip thin
# and pale underneath, so that the slip arcs of later laps do not hide the
# stick arcs of earlier ones.
PATH_STYLES = {
    "slip": {"linewidths": 0.9, "alpha": 0.55, "zorder": 2.0},
    "open": {"linewidths": 0.9, "alpha": 0.8, "zorder": 2.5},
    "stick": {"linewidths": 2.2, "alpha": 1.0, "zorder": 3.0},
}
PATH_LABELS = {"stick": "stick (thick, on top)", "slip": "slip (thin, underneath)"}


def _mode_coloured_path(ax, run, x, y):
    """Line through (x, y), each segment coloured by the mode at its start:
    one LineCollection per mode (gid "path:MODE"), stick above slip."""
    points = np.column_stack([x, y])
    segments = np.stack([points[:-1], points[1:]], axis=1)
    modes = _mode_at(run, run.t[:-1])
    def style_of(mode):
        return PATH_STYLES.get(mode, PATH_STYLES["open"])

    for mode in sorted(set(modes), key=lambda m: style_of(m)["zorder"]):
        style = style_of(mode)
        ax.add_collection(LineCollection(segments[modes == mode],
                                         colors=LINE_COLOURS.get(mode, "0.3"),
                                         gid=f"path:{mode}", **style))
    ax.autoscale_view()


def _mode_line_legend(ax, extra=()):
    handles = list(extra) + [
        Line2D([], [], color=c, label=PATH_LABELS[m],
               linewidth=PATH_STYLES[m]["linewidths"], alpha=PATH_STYLES[m]["alpha"])
        for m, c in LINE_COLOURS.items()]
    # Below the panel: inside, it would hide part of the path.
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.1),
              ncol=3, fontsize="small")


# --------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------

def fig_c1_trajectory(run, nostab):
    fig = NP.new_figure(13, 6, _title(run, "Path of the disk centre C1"))
    ax_xy, ax_r = fig.subplots(1, 2, width_ratios=(1, 1.25))
    d = run.disk
    _mode_coloured_path(ax_xy, run, d["x"], d["y"])
    ax_xy.plot(d["x"][:1], d["y"][:1], "ko", label="start", zorder=5)
    ax_xy.plot(d["x"][-1:], d["y"][-1:], "kx", label="end", zorder=5)
    ax_xy.plot([PIVOT[0]], [PIVOT[1]], "k+", markersize=10, label="pillar O")
    extra = [Line2D([], [], color="k", marker="o", ls="", label="start"),
             Line2D([], [], color="k", marker="x", ls="", label="end"),
             Line2D([], [], color="k", marker="+", ls="", label="pillar O")]
    if nostab is not None:
        ax_xy.plot(nostab.disk["x"], nostab.disk["y"], "--", color="tab:blue",
                   linewidth=0.8, label="unstabilised", zorder=4)
        extra.append(Line2D([], [], color="tab:blue", ls="--",
                            label="unstabilised"))
    ax_xy.set_aspect("equal", adjustable="datalim")
    ax_xy.set_xlabel("x [m]")
    ax_xy.set_ylabel("y [m]")
    ax_xy.set_title("C1 in the x-y plane" + paper_figure(run.case, "xy"))
    ax_xy.grid(True, alpha=0.3)
    _mode_line_legend(ax_xy, extra)

    # The radius of the path, magnified as a deviation from 1.5 m (case 3: Fig. 22).
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
    ax_r.set_title("radius of the path, zoomed" + paper_figure(run.case, "radius"))
    ax_r.text(0.02, 0.04, text, transform=ax_r.transAxes, fontsize="small",
              bbox={"facecolor": "white", "alpha": 0.8, "edgecolor": "0.7"})
    NP.mode_legend(ax_r)
    return fig


def fig_L(run):
    fig = NP.new_figure(10, 4.5, _title(run, "L_OC1 = |C1 - O|"
                                        + paper_figure(run.case, "L_OC1")))
    ax = fig.subplots()
    ax.plot(run.t, run.L, color="k", label="L_OC1")
    _finish_time_axes(ax, run, "L_OC1 [m]")
    ax.set_xlabel("t [s]")
    NP.mode_legend(ax)
    return fig


def fig_slip_speed(run):
    fig = NP.new_figure(10, 4.5, _title(run, "Speed of the contact point |v_K|"
                                        + paper_figure(run.case, "slip_speed")))
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


def _pre_event_rows(t, times):
    """Index of the first row at each of times (the row written just before
    the event, old mode and forces), or none where no row has that time."""
    idx = np.searchsorted(t, times, side="left")
    ok = idx < len(t)
    ok[ok] = np.abs(t[idx[ok]] - times[ok]) <= 1e-12 * np.maximum(1.0, np.abs(times[ok]))
    return idx[ok]


def fig_friction(run, coefficients):
    """|F_T| against mu0 |F_N| (static limit) and mu |F_N| (kinetic); every
    slip onset marked on |F_T| at its pre-event row.  coefficients: as
    returned by friction_coefficients."""
    (mu0, mu0_source), (mu, mu_source) = coefficients["mu0"], coefficients["mu"]
    fig = NP.new_figure(10, 4.8, _title(
        run, "Friction |F_T| against mu0 |F_N| and mu |F_N|"
        + paper_figure(run.case, "friction")))
    ax = fig.subplots()
    if run.contact is None:
        NP.empty_panel(ax, "no contacts recorded")
        ax.set_ylabel("force [N]")
        return fig
    c = run.contact
    fn = np.abs(c["lambda_n"])
    ft = np.hypot(c["lambda_t1"], c["lambda_t2"])
    ax.plot(c["t"], mu0 * fn, color="tab:blue", linewidth=1.5,
            label=f"mu0 |F_N| (mu0 = {mu0:g}, {mu0_source}):\nstatic limit, slip starts")
    ax.plot(c["t"], mu * fn, "--", color="tab:blue", linewidth=1.3,
            label=f"mu |F_N| (mu = {mu:g}, {mu_source}):\nkinetic, |F_T| while slipping")
    ax.plot(c["t"], ft, color="tab:red", linewidth=1.2, label="|F_T|", zorder=3)
    onsets = _pre_event_rows(np.asarray(c["t"]), run.slip_onsets())
    if onsets.size:
        ax.plot(c["t"][onsets], ft[onsets], "o", markerfacecolor="none",
                markeredgecolor="k", markersize=7, zorder=4,
                label="|F_T| just before\nstick->slip")
    _finish_time_axes(ax, run, "force [N]")
    ax.set_xlabel("t [s]")
    # A sticking contact must keep |F_T| <= mu0 |F_N| (up to the corners of a
    # circumscribed polygon, 1/cos(pi/sides)); say so if it does not.
    slack = _stick_slack(run.summary, contact_law(run.summary, run.contact_name))
    stick = np.asarray(c["mode"]) == "stick"
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = ft / (mu0 * fn)
    over = stick & (ratio > slack)
    if over.any():
        ax.text(0.02, 0.96, f"sticking with |F_T| > {slack:.4g} mu0|F_N|: "
                f"{over.sum()} of {stick.sum()} stick samples, "
                f"max ratio {np.nanmax(ratio[over]):.3g}",
                transform=ax.transAxes, va="top", fontsize="small", color="tab:red",
                bbox={"facecolor": "white", "alpha": 0.85, "edgecolor": "tab:red"})
    NP.mode_legend(ax)
    return fig


def _stick_slack(summary, law=None):
    """Largest |F_T| / (mu0 |F_N|) a sticking contact may show (+0.1 %)."""
    law = law or {}
    model = str(law.get("friction") or summary.get("friction_model", ""))
    sides = law.get("sides", summary.get("friction_sides"))
    if model.startswith("polygon") and "vertex" not in model \
            and isinstance(sides, int) and sides >= 3:
        return 1.001 / np.cos(np.pi / sides)
    return 1.001


def fig_phase(run):
    fig = NP.new_figure(9, 6.5, _title(run, "Phase portrait of L_OC1"
                                       + paper_figure(run.case, "phase")))
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


def _position_scale(run):
    """Largest coordinate of the disk centre [m]: the size round-off is relative to."""
    d = run.disk
    return float(np.nanmax(np.abs(np.concatenate([d["x"], d["y"], d["z"]]))))


def _draw_drift(ax, t, values, scale, style, colour, name):
    """|values| on a log axis.  Samples within ROUNDOFF_ULPS ulps of scale are
    round-off: drawn as dots, not joined by the line (a line jumping between
    0 and a few ulps fills a band), exact zeros left out.  Returns the ulp if
    any sample is round-off, else None."""
    t = np.asarray(t, dtype=float)
    mag = np.abs(np.asarray(values, dtype=float))
    finite = np.isfinite(mag)
    biggest = float(np.nanmax(mag)) if finite.any() else np.nan
    ulp = float(np.spacing(scale)) if np.isfinite(scale) and scale > 0 else np.nan
    roundoff = finite & (mag <= ROUNDOFF_ULPS * ulp) if np.isfinite(ulp) \
        else np.zeros(len(mag), dtype=bool)
    ax.set_yscale("log")
    if (finite & ~roundoff).any():
        line = np.where(roundoff, np.nan, mag)
        ax.plot(t, line, style, color=colour, label=f"{name} (max {biggest:.2g})")
        label = None
    else:
        zeros = int((mag == 0).sum())
        label = (f"{name}: round-off, max {biggest:.2g} = {biggest / ulp:.0f} ulp "
                 f"of {scale:.2g} m\n({zeros} of {len(mag)} samples exactly 0, not drawn)")
    dots = roundoff & (mag > 0)
    if dots.any() or label:
        ax.plot(t[dots], mag[dots], ".", color=colour, markersize=2.5,
                linestyle="none", label=label)
    return ulp if roundoff.any() else None


def fig_drift(run, nostab):
    title = "Constraint drift: Baumgarte (black) vs unstabilised (blue, dashed)"
    fig = NP.new_figure(13, 8, _title(run, title + paper_figure(run.case, "drift")))
    axes = fig.subplots(3, 1, sharex=True)
    series = [
        ("|z_C1 - 0.4| [m]\n(rim on ground)", lambda r: r.height_drift,
         lambda r: float(np.nanmax(np.abs(r.disk["z"])))),
        ("|L_OC1 - 1.5| [m]\n(radius of path)", lambda r: r.L - RADIUS,
         lambda r: float(np.nanmax(r.L))),
        ("joint drift [m]\n(cardan, cylinder)", lambda r: r.joint_drift(), _position_scale),
    ]
    for ax, (label, get, scale_of) in zip(axes, series):
        ulps = set()
        for r, style, name in ((run, "-", "Baumgarte"), (nostab, "--", "unstabilised")):
            if r is None:
                continue
            values = get(r)
            if values is None:
                continue
            ulp = _draw_drift(ax, r.t, values, scale_of(r), style,
                              "k" if r is run else "tab:blue", name)
            if ulp:
                ulps.add(ulp)
        for ulp in sorted(ulps):
            ax.axhline(ulp, linestyle=":", color="0.45", linewidth=1,
                       label=f"1 ulp = {ulp:.2g} m\n(dots: within {ROUNDOFF_ULPS} ulp, "
                             "round-off;\nexact zeros not drawn)")
        ax.set_ylabel(label)
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")
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
                 dpi=NP.DEFAULT_DPI, mu=None, case=None):
    """Write the six figures; return the list of written paths.

    mu0, mu: friction coefficients for the friction figure (default:
    summary.json contact_laws, else the problem file, else 0.33 / 0.18).
    case: the paper's case (1, 2, 3) for the figure numbers in the titles
    (default: from the problem file name in summary.json).
    Raises ResultError on a missing or malformed result directory.
    """
    run = Run(result_dir)
    nostab = Run(nostab_dir) if nostab_dir else None
    if case is not None:
        run.case = case
    coefficients = friction_coefficients(run, mu0, mu)

    out_dir = out_dir or os.path.join(result_dir, "plots")
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as e:
        raise ResultError(f"{out_dir}: cannot create output directory: {e}") from None

    builders = {
        "c1_trajectory": lambda: fig_c1_trajectory(run, nostab),
        "L_OC1": lambda: fig_L(run),
        "slip_speed": lambda: fig_slip_speed(run),
        "friction": lambda: fig_friction(run, coefficients),
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
    p.add_argument("--case", type=int, choices=sorted(PAPER_FIGURES), default=None,
                   help="the paper's case, for the figure numbers in the titles "
                        "(default: from the problem file named in summary.json; "
                        "no numbers if unknown)")
    p.add_argument("--mu0", type=float, default=None,
                   help="static friction coefficient for mu0|F_N| (default: "
                        "summary.json contact_laws, else the problem file, "
                        f"else {DEFAULT_MU0})")
    p.add_argument("--mu", type=float, default=None,
                   help="kinetic friction coefficient for mu|F_N| (default: "
                        "summary.json contact_laws, else the problem file, "
                        f"else {DEFAULT_MU})")
    p.add_argument("--dpi", type=int, default=NP.DEFAULT_DPI,
                   help=f"raster resolution (default: {NP.DEFAULT_DPI})")
    args = p.parse_args(argv)
    if args.dpi <= 0:
        p.error("--dpi must be positive")
    for name in ("mu0", "mu"):
        value = getattr(args, name)
        if value is not None and not (value >= 0 and np.isfinite(value)):
            p.error(f"--{name} must be a finite number >= 0")
    return args


def main(argv=None):
    args = parse_args(argv)
    try:
        paths = make_figures(args.result_dir, args.out, args.nostab, args.mu0,
                             args.dpi, mu=args.mu, case=args.case)
    except ResultError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
