#!/usr/bin/python3
"""Plot the result directory written by `nsed run PROBLEM.yaml -o OUTDIR`.

Usage as a script:
    /usr/bin/python3 python/nsed_plot.py RESULTDIR [--out DIR] [--format png] [--dpi N]

Usage as a module:
    from nsed_plot import plot_results
    paths = plot_results("out/ball", out_dir=None)   # -> list of written files

Figures: trajectory, contact_forces, slip_speed, events, velocities
(see docs/plotting.md).  Exit status 2 on unreadable or malformed input.
"""

import argparse
import csv
import json
import os
import sys
import tempfile

import numpy as np
# Figure + the Agg canvas directly instead of pyplot: no display is ever
# touched, no global figure registry leaks memory, and importing this module
# does not change the backend of a caller that already uses pyplot.
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Patch

# Per-body columns of trajectory.csv, in the order nsed writes them.
BODY_FIELDS = ("x", "y", "z", "q0", "q1", "q2", "q3",
               "vx", "vy", "vz", "wx", "wy", "wz")
CONTACT_COLUMNS = ("t", "contact", "mode", "gap", "lambda_n",
                   "lambda_t1", "lambda_t2", "slip_speed")
EVENT_COLUMNS = ("t", "kind", "contact")   # the ones we plot; others ignored

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
}
DEFAULT_EVENT = ("o", "black")
GLOBAL_ROW = "(no contact)"   # events.csv rows with an empty contact column

FORMATS = ("png", "svg", "pdf")
DEFAULT_DPI = 120


class ResultError(Exception):
    """Unusable input; the message names the file (and line) at fault."""


# --------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------

def _to_float(text, path, line, column):
    """Parse one CSV cell; an empty cell is a missing value (NaN), not an error."""
    text = text.strip()
    if text == "":
        return float("nan")
    try:
        return float(text)   # also accepts nan / inf as written by printf
    except ValueError:
        raise ResultError(f"{path} line {line}, column '{column}': "
                          f"cannot parse {text!r} as a number") from None


def _read_csv(path, required, optional_file):
    """Return (header, rows) with rows as (line_number, fields).

    The csv module (not genfromtxt) is used so that every error can name the
    exact line; numeric conversion happens afterwards per column.
    An absent or zero-byte optional file reads as "header only".
    """
    if not os.path.exists(path):
        if optional_file:
            return list(required), []
        raise ResultError(f"{path}: file not found")
    try:
        with open(path, newline="", encoding="utf-8") as f:
            lines = list(csv.reader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise ResultError(f"{path}: cannot read: {e}") from None
    if not lines:
        if optional_file:
            return list(required), []
        raise ResultError(f"{path}: file is empty (no header line)")
    header = [h.strip() for h in lines[0]]
    missing = [c for c in required if c not in header]
    if missing:
        raise ResultError(f"{path} line 1: header lacks column(s) "
                          f"{', '.join(missing)}")
    rows = []
    for number, fields in enumerate(lines[1:], start=2):
        if not fields or all(not f.strip() for f in fields):
            continue   # tolerate blank lines, e.g. a trailing newline pair
        if len(fields) != len(header):
            raise ResultError(f"{path} line {number}: expected {len(header)} "
                              f"fields, found {len(fields)}")
        rows.append((number, fields))
    return header, rows


def _body_columns(header, path):
    """Map body name -> {field: column index}, checking every body is complete."""
    if not header or header[0] != "t":
        raise ResultError(f"{path} line 1: first column must be 't'")
    bodies = {}
    for index, name in enumerate(header[1:], start=1):
        body, _, field = name.rpartition(".")   # body names may contain dots
        if not body or field not in BODY_FIELDS:
            raise ResultError(f"{path} line 1: column '{name}' is not BODY.FIELD "
                              f"with FIELD one of {','.join(BODY_FIELDS)}")
        bodies.setdefault(body, {})[field] = index
    if not bodies:
        raise ResultError(f"{path} line 1: no body columns")
    for body, fields in bodies.items():
        lacking = [f for f in BODY_FIELDS if f not in fields]
        if lacking:
            raise ResultError(f"{path} line 1: body '{body}' lacks column(s) "
                              f"{', '.join(body + '.' + f for f in lacking)}")
    return bodies


def load_trajectory(path):
    """Return (t, {body: {field: array}}) from trajectory.csv."""
    header, rows = _read_csv(path, ("t",), optional_file=False)
    bodies = _body_columns(header, path)
    if not rows:
        raise ResultError(f"{path}: header only, no data rows")
    table = np.array([[_to_float(v, path, n, header[i]) for i, v in enumerate(f)]
                      for n, f in rows], dtype=float)
    data = {body: {field: table[:, col] for field, col in fields.items()}
            for body, fields in bodies.items()}
    return table[:, 0], data


def load_contacts(path):
    """Return {contact: {"t", "mode", "lambda_n", ...: array}} in file order."""
    header, rows = _read_csv(path, CONTACT_COLUMNS, optional_file=True)
    col = {name: header.index(name) for name in CONTACT_COLUMNS}
    grouped = {}
    for number, fields in rows:
        name = fields[col["contact"]].strip()
        rec = grouped.setdefault(name, {k: [] for k in CONTACT_COLUMNS})
        for key in CONTACT_COLUMNS:
            value = fields[col[key]]
            if key in ("contact", "mode"):
                rec[key].append(value.strip())
            else:
                rec[key].append(_to_float(value, path, number, key))
    return {name: {k: np.asarray(v) for k, v in rec.items()}
            for name, rec in grouped.items()}


def load_events(path):
    """Return a list of (t, kind, contact) tuples; contact '' for global events."""
    header, rows = _read_csv(path, EVENT_COLUMNS, optional_file=True)
    col = {name: header.index(name) for name in EVENT_COLUMNS}
    return [(_to_float(f[col["t"]], path, n, "t"), f[col["kind"]].strip(),
             f[col["contact"]].strip()) for n, f in rows]


def load_summary(path):
    """summary.json is only used for titles, so any problem just yields {}."""
    try:
        with open(path, encoding="utf-8") as f:
            summary = json.load(f)
    except (OSError, ValueError):
        return {}
    return summary if isinstance(summary, dict) else {}


# --------------------------------------------------------------------------
# Drawing helpers
# --------------------------------------------------------------------------

def _new_figure(width, height, title):
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    if title:
        fig.suptitle(title)
    return fig


def _mode_runs(t, modes):
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


def _point_style(n):
    """A one-sample line is invisible, so mark samples when there are few."""
    return {"marker": "o", "markersize": 4} if n < 3 else {}


def _shade_modes(ax, t, modes):
    for t0, t1, mode in _mode_runs(t, modes):
        colour = MODE_COLOURS.get(mode)
        if colour and np.isfinite(t0) and np.isfinite(t1) and t1 > t0:
            ax.axvspan(t0, t1, color=colour, alpha=0.6, linewidth=0, zorder=0)


def _mode_legend(ax):
    """Legend of the plotted lines plus the mode shading colours.

    Placed outside the axes: the curves often sit top right, where an inner
    legend would hide them.
    """
    shading = [Patch(color=c, alpha=0.6, label=m) for m, c in MODE_COLOURS.items()]
    shading.append(Patch(facecolor="white", edgecolor="0.6", label="open"))
    handles = ax.get_legend_handles_labels()[0] + shading
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1),
              fontsize="small")


def _empty_panel(ax, message, xlabel="t [s]"):
    """Keep the figure (so the set of outputs is fixed) but say why it is empty."""
    ax.text(0.5, 0.5, message, ha="center", va="center",
            transform=ax.transAxes, fontsize=12, color="0.4")
    ax.set_xlabel(xlabel)
    ax.grid(True, alpha=0.3)


def _contact_axes(fig, contacts):
    """One row of axes per contact sharing the time axis, or a single empty one."""
    n = max(len(contacts), 1)
    return fig.subplots(n, 1, sharex=True, squeeze=False)[:, 0]


def _title(summary, what):
    problem = summary.get("problem")
    status = summary.get("status")
    parts = [what] + [str(p) for p in (problem, status) if p not in (None, "")]
    return " - ".join(parts)


# --------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------

def fig_trajectory(t, bodies, summary):
    fig = _new_figure(12, 6.5, _title(summary, "Trajectory"))
    grid = fig.add_gridspec(3, 2, width_ratios=(1.1, 1))
    ax_xy = fig.add_subplot(grid[:, 0])
    ax_c = [fig.add_subplot(grid[i, 1]) for i in range(3)]
    for body, d in bodies.items():
        line, = ax_xy.plot(d["x"], d["y"], label=body, **_point_style(len(t)))
        # Start/end markers show direction of travel on the path.
        ax_xy.plot(d["x"][:1], d["y"][:1], "o", color=line.get_color())
        ax_xy.plot(d["x"][-1:], d["y"][-1:], "x", color=line.get_color())
        for ax, field in zip(ax_c, ("x", "y", "z")):
            ax.plot(t, d[field], color=line.get_color(), label=body,
                    **_point_style(len(t)))
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
    fig = _new_figure(10, 6, _title(summary, "Body speeds"))
    ax_v, ax_w = fig.subplots(2, 1, sharex=True)
    style = _point_style(len(t))
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


def fig_contact_forces(contacts, summary):
    fig = _new_figure(10, 1.0 + 2.2 * max(len(contacts), 1),
                      _title(summary, "Contact forces"))
    axes = _contact_axes(fig, contacts)
    if not contacts:
        _empty_panel(axes[0], "no contacts recorded")
        axes[0].set_ylabel("force [N]")
        return fig
    for ax, (name, c) in zip(axes, contacts.items()):
        _shade_modes(ax, c["t"], c["mode"])
        style = _point_style(len(c["t"]))
        ax.plot(c["t"], c["lambda_n"], color="tab:blue", label="lambda_n", **style)
        ax.plot(c["t"], np.hypot(c["lambda_t1"], c["lambda_t2"]),
                color="tab:red", label="|lambda_t|", **style)
        ax.set_ylabel(f"{name}\nforce [N]")
        ax.grid(True, alpha=0.3)
    axes[-1].set_xlabel("t [s]")
    _mode_legend(axes[0])
    return fig


def fig_slip_speed(contacts, summary):
    fig = _new_figure(10, 1.0 + 2.0 * max(len(contacts), 1),
                      _title(summary, "Slip speed"))
    axes = _contact_axes(fig, contacts)
    if not contacts:
        _empty_panel(axes[0], "no contacts recorded")
        axes[0].set_ylabel("slip speed [m/s]")
        return fig
    for ax, (name, c) in zip(axes, contacts.items()):
        _shade_modes(ax, c["t"], c["mode"])
        ax.plot(c["t"], c["slip_speed"], color="tab:purple", label="slip speed",
                **_point_style(len(c["t"])))
        ax.set_ylabel(f"{name}\n[m/s]")
        ax.grid(True, alpha=0.3)
    axes[-1].set_xlabel("t [s]")
    _mode_legend(axes[0])
    return fig


def _event_rows(contacts, events):
    """Row labels: every contact (even one without events), then global events."""
    rows = list(contacts)
    for _, _, contact in events:
        if contact and contact not in rows:
            rows.append(contact)   # an event for a contact with no samples
    if any(not contact for _, _, contact in events):
        rows.append(GLOBAL_ROW)
    return rows


def _span_run(ax, t):
    """Show the whole run on the time axis, so quiet stretches are visible too."""
    finite = t[np.isfinite(t)]
    if finite.size and finite.max() > finite.min():
        margin = 0.02 * (finite.max() - finite.min())
        ax.set_xlim(finite.min() - margin, finite.max() + margin)


def fig_events(contacts, events, t, summary):
    rows = _event_rows(contacts, events)
    fig = _new_figure(10, 1.5 + 0.5 * max(len(rows), 3),
                      _title(summary, f"Events ({len(events)})"))
    ax = fig.subplots()
    _span_run(ax, t)
    if not events:
        _empty_panel(ax, "no events recorded")
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
    failing one leaves the earlier ones in place); return the paths."""
    written = []
    for name, build in figures:
        path = os.path.join(out_dir, f"{name}.{fmt}")
        save_atomic(build(), path, fmt, dpi)
        written.append(path)
    return written


def plot_results(result_dir, out_dir=None, fmt="png", dpi=DEFAULT_DPI):
    """Plot an nsed result directory; return the list of written file paths.

    Raises ResultError when result_dir or its trajectory.csv is missing or
    malformed (or contacts.csv / events.csv are malformed; absent is fine).
    """
    if fmt not in FORMATS:
        raise ResultError(f"unsupported format {fmt!r} (use one of {', '.join(FORMATS)})")
    if not os.path.isdir(result_dir):
        raise ResultError(f"{result_dir}: result directory not found")
    t, bodies = load_trajectory(os.path.join(result_dir, "trajectory.csv"))
    contacts = load_contacts(os.path.join(result_dir, "contacts.csv"))
    events = load_events(os.path.join(result_dir, "events.csv"))
    summary = load_summary(os.path.join(result_dir, "summary.json"))

    out_dir = out_dir or os.path.join(result_dir, "plots")
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as e:
        raise ResultError(f"{out_dir}: cannot create output directory: {e}") from None

    figures = [
        ("trajectory", lambda: fig_trajectory(t, bodies, summary)),
        ("contact_forces", lambda: fig_contact_forces(contacts, summary)),
        ("slip_speed", lambda: fig_slip_speed(contacts, summary)),
        ("events", lambda: fig_events(contacts, events, t, summary)),
        ("velocities", lambda: fig_velocities(t, bodies, summary)),
    ]
    return save_figures(figures, out_dir, fmt, dpi)


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="nsed_plot.py",
        description="Plot the result directory written by `nsed run ... -o DIR`.")
    p.add_argument("result_dir", metavar="RESULTDIR")
    p.add_argument("--out", metavar="DIR",
                   help="output directory (default: RESULTDIR/plots)")
    p.add_argument("--format", default="png", choices=FORMATS,
                   help="image format (default: png)")
    p.add_argument("--dpi", type=int, default=DEFAULT_DPI,
                   help=f"raster resolution (default: {DEFAULT_DPI})")
    args = p.parse_args(argv)
    if args.dpi <= 0:
        p.error("--dpi must be positive")   # argparse exits with status 2
    return args


def main(argv=None):
    args = parse_args(argv)
    try:
        paths = plot_results(args.result_dir, args.out, args.format, args.dpi)
    except ResultError as e:
        print(f"nsed_plot: error: {e}", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
