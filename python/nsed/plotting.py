"""Figures of nsed results, shared by nsed_plot.py (`nsed plot`) and the
figure scripts of python/ (docs/plotting.md).

    from nsed import plotting
    paths = plotting.plot_results("out/ball")       # -> list of written files

The five standard figures (trajectory, contact_forces, slip_speed, events,
velocities; steps too when the run wrote steps.csv) and the pieces the paper-figure scripts build on: reading a
result for plotting, mode shading, legends, titles, empty panels, plain
tick labels (no offset notation) and atomic saving. Results are read by
nsed.results (CSV or results.h5). Needs numpy and matplotlib (Agg backend:
no display), not libnsed.
"""

import os
import tempfile

import numpy as np
# Figure + the Agg canvas directly instead of pyplot: no display is ever
# touched, no global figure registry leaks memory, and importing this module
# does not change the backend of a caller that already uses pyplot.
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import ScalarFormatter
from matplotlib.transforms import offset_copy

from .results import BODY_FIELDS, ResultError, limit_group, read_result

__all__ = ["ResultError", "plot_results", "read_for_plotting", "bodies_of", "contacts_of",
           "event_tuples", "event_impulses", "new_figure", "mode_runs", "point_style",
           "shade_modes", "mode_legend", "empty_panel", "contact_axes", "run_title",
           "span_run", "event_rows", "plain_number_format", "fig_trajectory", "fig_velocities",
           "fig_contact_forces", "fig_slip_speed", "fig_events", "fig_steps", "limit_group",
           "save_atomic", "save_figures",
           "MODE_COLOURS", "EVENT_STYLES", "IMPULSE_STYLES", "FORMATS", "DEFAULT_DPI"]

# Background shading of contact modes; "open" (and anything unknown) stays white.
MODE_COLOURS = {"stick": "#b8e0b0", "slip": "#fdcf9e"}
# Marker and colour per event kind; unknown kinds fall back to DEFAULT_EVENT.
EVENT_STYLES = {
    "close":  ("v", "tab:blue"),
    "open":   ("^", "tab:cyan"),
    "impact": ("*", "tab:red"),
    "stick":  ("s", "tab:green"),
    "slip":   ("D", "tab:orange"),
    "zeno":   ("X", "tab:purple"),
    "time":   ("|", "tab:gray"),
    "failure": ("x", "black"),
    "spin_stick": ("P", "tab:olive"),
    "spin_slip": ("d", "tab:brown"),
    "kink": ("1", "tab:gray"),
}
DEFAULT_EVENT = ("o", "black")
# Impulses of events.csv on contact_forces.png (right axis, N s): marker, colour.
IMPULSE_STYLES = {"impulse_n": ("o", "navy"), "|impulse_t|": ("s", "darkred")}
RIGHT_AXIS_ROOM = 40   # points between a panel and its legend when it has a right axis
GLOBAL_ROW = "(no contact)"   # events without a contact

FORMATS = ("png", "svg", "pdf")
DEFAULT_DPI = 120


# --------------------------------------------------------------------------
# Drawing helpers
# --------------------------------------------------------------------------

def new_figure(width, height, title):
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    if title:
        fig.suptitle(title)
    return fig


def mode_runs(t, modes):
    """Yield (t_start, t_end, mode) for maximal runs of equal mode.

    A sample's mode is taken to hold until the next sample, so the last
    sample contributes no width (and a single sample shades nothing).
    """
    start = 0
    for i in range(1, len(t) + 1):
        if i == len(t) or modes[i] != modes[start]:
            end = t[i] if i < len(t) else t[-1]
            yield t[start], end, modes[start]
            start = i


def point_style(n):
    """A one-sample line is invisible, so mark samples when there are few."""
    return {"marker": "o", "markersize": 4} if n < 3 else {}


def shade_modes(ax, t, modes):
    for t0, t1, mode in mode_runs(t, modes):
        colour = MODE_COLOURS.get(mode)
        if colour and np.isfinite(t0) and np.isfinite(t1) and t1 > t0:
            ax.axvspan(t0, t1, color=colour, alpha=0.6, linewidth=0, zorder=0)


def mode_legend(ax, extra=(), right_axis=False):
    """Legend of the plotted lines (then the handles of extra) plus the mode
    shading colours.

    Placed outside the axes: the curves often sit top right, where an inner
    legend would hide them. right_axis: leave room for the tick labels and
    label of a secondary y axis on the right (twinx).
    """
    shading = [Patch(color=c, alpha=0.6, label=m) for m, c in MODE_COLOURS.items()]
    shading.append(Patch(facecolor="white", edgecolor="0.6", label="open"))
    handles = ax.get_legend_handles_labels()[0] + list(extra) + shading
    anchor = ax.transAxes
    if right_axis:
        anchor = offset_copy(ax.transAxes, fig=ax.figure, x=RIGHT_AXIS_ROOM, units="points")
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1),
              bbox_transform=anchor, fontsize="small")


def empty_panel(ax, message, xlabel="t [s]"):
    """Keep the figure (so the set of outputs is fixed) but say why it is empty."""
    ax.text(0.5, 0.5, message, ha="center", va="center",
            transform=ax.transAxes, fontsize=12, color="0.4")
    ax.set_xlabel(xlabel)
    ax.grid(True, alpha=0.3)


def contact_axes(fig, contacts):
    """One row of axes per contact sharing the time axis, or a single empty one."""
    n = max(len(contacts), 1)
    return fig.subplots(n, 1, sharex=True, squeeze=False)[:, 0]


def run_title(summary, what):
    problem = summary.get("problem")
    status = summary.get("status")
    parts = [what] + [str(p) for p in (problem, status) if p not in (None, "")]
    return " - ".join(parts)


# An axis whose autoscaled range is below this fraction of its values is a
# quantity constant to round-off (0.1 +- 1e-13 m, 9.81 +- 2e-15 N): shown as
# constant instead of magnifying the round-off.
CONSTANT_RELATIVE = 1e-9


def plain_number_format(fig):
    """No offset notation ("1e-13+1e-1") on any linear axis of fig.

    Every scalar tick formatter gets useOffset=False (a scale factor such as
    "1e-8" for small values stays). An autoscaled axis whose values are
    constant to round-off (range below CONSTANT_RELATIVE of their size) is
    given the limits matplotlib gives an exactly constant value (+-5 %) and a
    note "constant to round-off: VALUE (spread S)"; otherwise its tick labels
    would need 13 digits. Call it when the figure is complete (save_figures
    does, for every figure it writes); calling it again changes nothing (the
    limits it sets turn autoscaling off).
    """
    for ax in fig.axes:
        notes = []
        for name in ("x", "y"):
            axis = ax.xaxis if name == "x" else ax.yaxis
            if axis.get_scale() != "linear":
                continue
            formatter = axis.get_major_formatter()
            if not isinstance(formatter, ScalarFormatter):
                continue
            formatter.set_useOffset(False)
            autoscaled = ax.get_autoscalex_on() if name == "x" else ax.get_autoscaley_on()
            if not autoscaled:
                continue
            lo, hi = ax.get_xlim() if name == "x" else ax.get_ylim()
            centre, width = 0.5 * (lo + hi), abs(hi - lo)
            if not (np.isfinite(centre) and np.isfinite(width)) or width == 0 \
                    or width > CONSTANT_RELATIVE * abs(centre):
                continue
            d_lo, d_hi = ax.dataLim.intervalx if name == "x" else ax.dataLim.intervaly
            if not (np.isfinite(d_lo) and np.isfinite(d_hi) and d_hi >= d_lo):
                d_lo = d_hi = centre
            value = 0.5 * (d_lo + d_hi)
            half = 0.05 * abs(value)
            (ax.set_xlim if name == "x" else ax.set_ylim)(value - half, value + half)
            notes.append(f"{name + ': ' if name == 'x' else ''}constant to round-off: "
                         f"{value:.10g} (spread {d_hi - d_lo:.2g})")
        if notes:
            ax.text(0.01, 0.04, "\n".join(notes), transform=ax.transAxes,
                    fontsize="small", color="0.3", va="bottom")
    return fig


# --------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------

def fig_trajectory(t, bodies, summary):
    fig = new_figure(12, 6.5, run_title(summary, "Trajectory"))
    grid = fig.add_gridspec(3, 2, width_ratios=(1.1, 1))
    ax_xy = fig.add_subplot(grid[:, 0])
    ax_c = [fig.add_subplot(grid[i, 1]) for i in range(3)]
    for body, d in bodies.items():
        line, = ax_xy.plot(d["x"], d["y"], label=body, **point_style(len(t)))
        # Start/end markers show direction of travel on the path.
        ax_xy.plot(d["x"][:1], d["y"][:1], "o", color=line.get_color())
        ax_xy.plot(d["x"][-1:], d["y"][-1:], "x", color=line.get_color())
        for ax, field in zip(ax_c, ("x", "y", "z")):
            ax.plot(t, d[field], color=line.get_color(), label=body,
                    **point_style(len(t)))
    ax_xy.set_xlabel("x [m]")
    ax_xy.set_ylabel("y [m]")
    ax_xy.set_title("centre of mass in x-y (o start, x end)")
    ax_xy.set_aspect("equal", adjustable="datalim")
    ax_xy.legend(loc="best", fontsize="small")
    for ax, field in zip(ax_c, ("x", "y", "z")):
        ax.set_ylabel(f"{field} [m]")
        ax.grid(True, alpha=0.3)
    ax_xy.grid(True, alpha=0.3)
    ax_c[-1].set_xlabel("t [s]")
    return fig


def fig_velocities(t, bodies, summary):
    fig = new_figure(10, 6, run_title(summary, "Body speeds"))
    ax_v, ax_w = fig.subplots(2, 1, sharex=True)
    style = point_style(len(t))
    for body, d in bodies.items():
        # |w| is frame-independent, so body-axis components are fine here.
        ax_v.plot(t, np.sqrt(d["vx"]**2 + d["vy"]**2 + d["vz"]**2), label=body, **style)
        ax_w.plot(t, np.sqrt(d["wx"]**2 + d["wy"]**2 + d["wz"]**2), label=body, **style)
    ax_v.set_ylabel("|v| [m/s]")
    ax_w.set_ylabel("|w| [rad/s]")
    ax_w.set_xlabel("t [s]")
    for ax in (ax_v, ax_w):
        ax.grid(True, alpha=0.3)
    ax_v.legend(loc="best", fontsize="small")
    return fig


def _impulse_stems(ax, t, values, key):
    """Stems from 0 to each impulse with a marker on top (on ax, in N s)."""
    marker, colour = IMPULSE_STYLES[key]
    ax.vlines(t, 0, values, colors=colour, linewidth=1.2, zorder=3)
    ax.plot(t, values, marker, color=colour, markersize=5, linestyle="none", zorder=4)


def fig_contact_forces(contacts, summary, impulses=None):
    """One panel per contact: lambda_n and |lambda_t|; impulses (from
    event_impulses) as stems on a right axis in N s, where an event has one."""
    impulses = impulses or {}
    fig = new_figure(10, 1.0 + 2.2 * max(len(contacts), 1),
                     run_title(summary, "Contact forces"))
    axes = contact_axes(fig, contacts)
    if not contacts:
        empty_panel(axes[0], "no contacts recorded")
        axes[0].set_ylabel("force [N]")
        return fig
    drawn = set()
    for ax, (name, c) in zip(axes, contacts.items()):
        shade_modes(ax, c["t"], c["mode"])
        style = point_style(len(c["t"]))
        ax.plot(c["t"], c["lambda_n"], color="tab:blue", label="lambda_n", **style)
        ax.plot(c["t"], np.hypot(c["lambda_t1"], c["lambda_t2"]),
                color="tab:red", label="|lambda_t|", **style)
        ax.set_ylabel(f"{name}\nforce [N]")
        ax.grid(True, alpha=0.3)
        imp = impulses.get(name)
        if imp is not None and len(imp["t"]):
            # An impact's force is an impulse: no force sample shows it.
            twin = ax.twinx()
            top = 0.0
            for key in IMPULSE_STYLES:
                values = imp[key]
                show = np.isfinite(values) & (values != 0)
                if show.any():
                    _impulse_stems(twin, imp["t"][show], values[show], key)
                    top = max(top, float(np.max(values[show])))
                    drawn.add(key)
            top = 1.15 * top if top > 0 else 1.0
            # Put the impulses' 0 level with the forces' 0 when the force axis shows it.
            lo, hi = ax.get_ylim()
            below = -lo / (hi - lo) if lo < 0 < hi else 0.0
            twin.set_ylim(-below / (1 - below) * top, top)
            twin.set_ylabel("impulse [N s]")
    axes[-1].set_xlabel("t [s]")
    extra = [Line2D([], [], marker=IMPULSE_STYLES[k][0], color=IMPULSE_STYLES[k][1],
                    label=f"{k} [N s], right axis") for k in IMPULSE_STYLES if k in drawn]
    mode_legend(axes[0], extra, right_axis=bool(drawn))
    return fig


def fig_slip_speed(contacts, summary):
    fig = new_figure(10, 1.0 + 2.0 * max(len(contacts), 1),
                     run_title(summary, "Slip speed"))
    axes = contact_axes(fig, contacts)
    if not contacts:
        empty_panel(axes[0], "no contacts recorded")
        axes[0].set_ylabel("slip speed [m/s]")
        return fig
    for ax, (name, c) in zip(axes, contacts.items()):
        shade_modes(ax, c["t"], c["mode"])
        ax.plot(c["t"], c["slip_speed"], color="tab:purple", label="slip speed",
                **point_style(len(c["t"])))
        ax.set_ylabel(f"{name}\n[m/s]")
        ax.grid(True, alpha=0.3)
    axes[-1].set_xlabel("t [s]")
    mode_legend(axes[0])
    return fig


def event_rows(contacts, events):
    """Row labels: every contact (even one without events), then global events."""
    rows = list(contacts)
    for _, _, contact in events:
        if contact and contact not in rows:
            rows.append(contact)   # an event for a contact with no samples
    if any(not contact for _, _, contact in events):
        rows.append(GLOBAL_ROW)
    return rows


def span_run(ax, t):
    """Show the whole run on the time axis, so quiet stretches are visible too."""
    finite = t[np.isfinite(t)]
    if finite.size and finite.max() > finite.min():
        margin = 0.02 * (finite.max() - finite.min())
        ax.set_xlim(finite.min() - margin, finite.max() + margin)


def fig_events(contacts, events, t, summary):
    rows = event_rows(contacts, events)
    fig = new_figure(10, 1.5 + 0.5 * max(len(rows), 3),
                     run_title(summary, f"Events ({len(events)})"))
    ax = fig.subplots()
    span_run(ax, t)
    if not events:
        empty_panel(ax, "no events recorded")
        ax.set_yticks(range(len(rows)), rows)
        return fig
    y_of = {label: i for i, label in enumerate(rows)}
    # One scatter per kind so the legend lists each kind exactly once.
    for kind in sorted({k for _, k, _ in events}):
        marker, colour = EVENT_STYLES.get(kind, DEFAULT_EVENT)
        ts = [t for t, k, _ in events if k == kind]
        ys = [y_of[c or GLOBAL_ROW] for _, k, c in events if k == kind]
        ax.scatter(ts, ys, marker=marker, color=colour, s=60, label=kind, zorder=3)
    ax.set_yticks(range(len(rows)), rows)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.invert_yaxis()   # first contact on top, reading order
    ax.set_xlabel("t [s]")
    ax.grid(True, axis="x", alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small",
              title="kind")
    return fig


STEP_GROUPS = 7   # limiting-state groups with their own colour on steps.png; the rest "other"


def fig_steps(steps, events, t, summary):
    """The step log (output.steps): each accepted step's size against time,
    coloured by the group of its limiting state, rejected attempts marked,
    events as lines; below, the steps taken so far."""
    fig = new_figure(10, 7, run_title(summary, f"Steps ({len(steps)})"))
    ax, ax_n = fig.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    span_run(ax, t)
    if not len(steps):
        empty_panel(ax, "no steps recorded")
        ax.set_ylabel("step size h [s]")
        return fig
    for te, _, _ in events:
        for a in (ax, ax_n):
            a.axvline(te, color="0.85", lw=0.6, zorder=0)
    groups = np.array([limit_group(str(n)) for n in steps["limit"]])
    names, counts = np.unique(groups, return_counts=True)
    order = names[np.argsort(-counts, kind="stable")]
    shown = list(order[:STEP_GROUPS])
    colours = {g: f"C{i}" for i, g in enumerate(shown)}
    h = steps["h"]
    size = 4 if len(steps) < 2000 else 2
    for g in shown + ["other"]:
        rows = np.isin(groups, shown, invert=True) if g == "other" else groups == g
        if rows.any():
            share = 100.0 * rows.sum() / len(steps)
            ax.plot(steps["t"][rows], h[rows], linestyle="none", marker=".",
                    color=colours.get(g, "0.5"), markersize=size,
                    label=f"{g} ({share:.0f}%)")
    rejected = steps["rejected"] > 0
    if rejected.any():
        ax.plot(steps["t"][rejected], h[rejected], linestyle="none", marker="x", color="black",
                markersize=5, label=f"after rejections ({int(steps['rejected'].sum())})")
    ax.set_yscale("log")
    ax.set_ylabel("step size h [s]")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small",
              title="limited by")
    ax_n.plot(steps["t"], np.arange(1, len(steps) + 1), color="tab:blue", lw=1)
    ax_n.set_ylabel("steps so far")
    ax_n.set_xlabel("t [s]")
    ax_n.grid(True, alpha=0.3)
    return fig


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------

def _current_umask():
    mask = os.umask(0)   # the only portable way to read it is to set it
    os.umask(mask)
    return mask


def save_atomic(fig, path, fmt, dpi):
    """Write to a temp file in the target directory, then rename over `path`.

    A reader (or a crash mid-write) never sees a half-written image, and the
    rename is atomic because source and target share a filesystem.
    """
    directory = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(path),
                               suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            fig.savefig(f, format=fmt, dpi=dpi)
        # mkstemp creates mode 0600; give the image the usual umask-based mode.
        os.chmod(tmp, 0o666 & ~_current_umask())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def save_figures(figures, out_dir, fmt, dpi):
    """Build and save each (name, build) of figures as OUT_DIR/name.FMT,
    atomically, one at a time (a figure is built only when written, so a
    failing one leaves the earlier ones in place); return the paths. Tick
    labels are made plain first (plain_number_format)."""
    written = []
    for name, build in figures:
        path = os.path.join(out_dir, f"{name}.{fmt}")
        save_atomic(plain_number_format(build()), path, fmt, dpi)
        written.append(path)
    return written


def read_for_plotting(result_dir):
    """read_result for figures: also refuses a run without trajectory rows,
    and reads an unreadable summary.json (titles only) as {}."""
    result = read_result(result_dir, strict_summary=False)
    if not len(result.trajectory):
        raise ResultError(f"{result.files['trajectory']}: header only, no data rows")
    return result


def bodies_of(result):
    """{body: {field: array}} of a Result, bodies in column order."""
    return {b: {f: result.trajectory[f"{b}.{f}"] for f in BODY_FIELDS}
            for b in result.body_names}


def contacts_of(result):
    """{contact: its rows of result.contacts}, in order of first appearance."""
    return {name: result.contact(name) for name in result.contact_names}


def event_tuples(result):
    """result.events as a list of (t, kind, contact); contact '' for global events."""
    e = result.events
    return [(float(t), str(k), str(c)) for t, k, c in zip(e["t"], e["kind"], e["contact"])]


def event_impulses(result):
    """{contact: {"t", "impulse_n", "|impulse_t|": arrays}} of the events of
    result that carry an impulse (events.csv impulse_n, impulse_t1,
    impulse_t2 in N s: an impact problem ran there); contacts without one
    are absent."""
    e = result.events
    if not len(e):
        return {}
    n = np.asarray(e["impulse_n"], dtype=float)
    t_mag = np.hypot(np.asarray(e["impulse_t1"], dtype=float),
                     np.asarray(e["impulse_t2"], dtype=float))
    has = (np.isfinite(n) & (n != 0)) | (np.isfinite(t_mag) & (t_mag != 0))
    out = {}
    for name in dict.fromkeys(str(c) for c in e["contact"][has]):
        if not name:
            continue
        rows = has & (e["contact"] == name)
        out[name] = {"t": np.asarray(e["t"][rows], dtype=float),
                     "impulse_n": n[rows], "|impulse_t|": t_mag[rows]}
    return out


def plot_results(result_dir, out_dir=None, fmt="png", dpi=DEFAULT_DPI):
    """Plot an nsed result directory; return the list of written file paths.

    Raises ResultError when result_dir or its trajectory is missing or
    malformed (or contacts.csv / events.csv are malformed; absent is fine).
    """
    if fmt not in FORMATS:
        raise ResultError(f"unsupported format {fmt!r} (use one of {', '.join(FORMATS)})")
    result = read_for_plotting(result_dir)
    t = result.trajectory["t"]
    bodies = bodies_of(result)
    contacts = contacts_of(result)
    events = event_tuples(result)
    impulses = event_impulses(result)
    summary = result.summary

    out_dir = out_dir or os.path.join(result_dir, "plots")
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as e:
        raise ResultError(f"{out_dir}: cannot create output directory: {e}") from None

    figures = [
        ("trajectory", lambda: fig_trajectory(t, bodies, summary)),
        ("contact_forces", lambda: fig_contact_forces(contacts, summary, impulses)),
        ("slip_speed", lambda: fig_slip_speed(contacts, summary)),
        ("events", lambda: fig_events(contacts, events, t, summary)),
        ("velocities", lambda: fig_velocities(t, bodies, summary)),
    ]
    if result.steps is not None:
        figures.append(("steps", lambda: fig_steps(result.steps, events, t, summary)))
    return save_figures(figures, out_dir, fmt, dpi)
