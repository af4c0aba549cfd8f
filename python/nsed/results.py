"""The arrays of a run, and the one reader of result directories.

A result directory written by `nsed run -o DIR` (or nsed.run(outdir=DIR))
holds trajectory.csv, contacts.csv, events.csv and summary.json, or
results.h5 and summary.json (--format hdf5, read with h5py). read_result
turns either into a Result whose arrays are those of an in-memory run
(nsed.run without outdir), field for field and bit for bit.

This module needs numpy only (h5py for results.h5): the plotting scripts
use it without loading libnsed.
"""

import csv
import json
import operator
import os
import re

import numpy as np

BODY_FIELDS = ("x", "y", "z", "q0", "q1", "q2", "q3",
               "vx", "vy", "vz", "wx", "wy", "wz")
CONTACT_COLUMNS = ("t", "contact", "mode", "gap", "lambda_n", "lambda_t1",
                   "lambda_t2", "slip_speed")
# The contact point on the body (world), written since nsed 0.2; a result
# of an earlier nsed lacks these columns and reads them as NaN.
CONTACT_POINT_COLUMNS = ("point_x", "point_y", "point_z")
# The torsional moment about the normal (N m), written since nsed 0.3; an
# earlier result lacks it and reads it as NaN.
CONTACT_MOMENT_COLUMNS = ("moment",)
CONTACT_NUMBERS = CONTACT_COLUMNS[3:] + CONTACT_POINT_COLUMNS + CONTACT_MOMENT_COLUMNS
EVENT_COLUMNS = ("t", "kind", "contact", "from", "to", "lcp_size", "pivots",
                 "residual", "path", "impulse_n", "impulse_t1", "impulse_t2")
MODE_NAMES = ("open", "stick", "slip")
# A joint's coordinates (nsed_data_joint_coordinates), recorded by in-memory
# runs with joints=True: the angle of body_b about the axis (rad) and its
# rate, the coordinate of anchor_b along axis_a from anchor_a (m) and its rate.
JOINT_FIELDS = ("angle", "rate", "axial", "axial_rate")

# steps.csv (output.steps): one row per step the integrator accepted
# (docs/engine.md, "The step log").
STEP_COLUMNS = ("t", "h", "rejected", "rhs", "error", "limit", "limit_share", "events", "first")
_STEP_INTS = ("rejected", "rhs", "events", "first")
_STEP_FLOATS = ("t", "h", "error", "limit_share")

# events.csv columns a reader cannot do without; the others default to
# "" / 0 / NaN when a hand-made file lacks them.
_EVENT_REQUIRED = ("t", "kind", "contact")
_EVENT_DEFAULTS = {"from": "", "to": "", "lcp_size": 0, "pivots": 0,
                   "residual": float("nan"), "path": "", "impulse_n": float("nan"),
                   "impulse_t1": float("nan"), "impulse_t2": float("nan")}
_EVENT_INTS = ("lcp_size", "pivots")
_EVENT_FLOATS = ("t", "residual", "impulse_n", "impulse_t1", "impulse_t2")


class ResultError(Exception):
    """Unusable result files; the message names the file (and the line)."""


class Result:
    """A run's arrays and summary.

    trajectory: structured array with fields "t" and "BODY.x" ... "BODY.wz"
        (the columns of trajectory.csv), one row per output instant and two
        per event (just before it and after it, at its time).
    contacts: structured array with the columns of contacts.csv (contact and
        mode as strings), one row per contact per trajectory row.
    events: structured array with the columns of events.csv.
    summary: dict with the keys of summary.json.
    outdir: the directory read (None for an in-memory run).
    files: {"trajectory", "contacts", "events", "summary", "steps": path read or None}.
    joints: structured array with fields "t" and "JOINT.angle",
        "JOINT.rate", "JOINT.axial", "JOINT.axial_rate" per joint
        (nsed_data_joint_coordinates), one row per trajectory row; only an
        in-memory run with joints=True records it, else None.
    failed_event_problem: the event problem the run stopped on, unsolved
        (a ContactProblem: in memory, or read from the result directory's
        failed_event_problem.txt), else None.
    steps: structured array with the columns of steps.csv (t, h, rejected,
        rhs, error, limit as the state's name, limit_share, events, first),
        one row per step the integrator accepted, when the model's
        output.steps was set (steps.csv or in memory), else None.
    """

    def __init__(self, trajectory, contacts, events, summary, outdir=None, files=None,
                 joints=None, steps=None):
        self.trajectory = trajectory
        self.contacts = contacts
        self.events = events
        self.summary = summary
        self.outdir = outdir
        self.files = files or {k: None for k in ("trajectory", "contacts", "events", "summary", "steps")}
        self.joints = joints
        self.steps = steps
        self.failed_event_problem = None

    @property
    def body_names(self):
        """The bodies, in the order of the trajectory's columns."""
        names = []
        for column in self.trajectory.dtype.names[1:]:
            body = column.rpartition(".")[0]    # body names may contain dots
            if body not in names:
                names.append(body)
        return tuple(names)

    @property
    def contact_names(self):
        """The contacts, in the order they first appear in contacts."""
        names, first = np.unique(self.contacts["contact"], return_index=True)
        return tuple(str(n) for n in names[np.argsort(first)])

    def body(self, name):
        """{field: array} of one body's 13 columns plus "t"."""
        out = {"t": self.trajectory["t"]}
        for f in BODY_FIELDS:
            out[f] = self.trajectory[f"{name}.{f}"]
        return out

    def contact(self, name):
        """The rows of contacts for one contact."""
        return self.contacts[self.contacts["contact"] == name]

    @property
    def joint_names(self):
        """The joints of the joints array, in model order (() without it)."""
        if self.joints is None:
            return ()
        columns = self.joints.dtype.names[1::len(JOINT_FIELDS)]
        return tuple(c[:-len(".angle")] for c in columns)

    def joint_coordinates(self, joint):
        """{"t", "angle", "rate", "axial", "axial_rate": array} of one joint
        (a name, or its index in the model), one entry per trajectory row:
        the angle of body_b about the joint axis (rad, from the initial
        configuration; continuous over turns for a joint with a drive
        about its axis, else in (-pi, pi]) and its rate (rad/s), the
        coordinate of anchor_b along axis_a from anchor_a (m) and its rate
        (m/s). Recorded by in-memory runs with joints=True
        (Model.run(joints=True), nsed.run(..., joints=True)) only."""
        if self.joints is None:
            raise ValueError("this result holds no joint coordinates: they are recorded by "
                             "in-memory runs with joints=True (Model.run(joints=True), "
                             "nsed.run(..., joints=True)); result files do not hold them")
        names = self.joint_names
        if isinstance(joint, str):
            if joint not in names:
                raise KeyError(f"no joint named {joint!r}; the joints are "
                               f"{', '.join(names) or 'none'}")
            name = joint
        else:
            try:
                i = operator.index(joint)
            except TypeError:
                raise TypeError(f"a joint is a name or an index, got {joint!r}") from None
            if not -len(names) <= i < len(names):
                raise IndexError(f"joint index {i} out of range: the model has "
                                 f"{len(names)} joints")
            name = names[i]
        out = {"t": self.joints["t"]}
        for f in JOINT_FIELDS:
            out[f] = self.joints[f"{name}.{f}"]
        return out

    def to_pandas(self):
        """The three tables as pandas DataFrames: {"trajectory", "contacts",
        "events"}, and "steps" when the run has a step log (.steps), columns
        named and ordered as the arrays' fields (the CSV
        columns; strings as object columns), one row per array row, a
        default RangeIndex. Needs pandas (Debian: python3-pandas); raises
        ImportError saying so when it cannot be imported."""
        try:
            import pandas
        except ImportError as e:
            raise ImportError("nsed.Result.to_pandas needs pandas, which cannot be imported "
                              f"({e}); on Debian install python3-pandas "
                              "(apt-get install python3-pandas)") from e
        out = {}
        for key in ("trajectory", "contacts", "events") + (("steps",) if self.steps is not None else ()):
            a = getattr(self, key)
            columns = {}
            for name in a.dtype.names:
                col = a[name]
                columns[name] = col.astype(object) if col.dtype.kind == "U" else col.copy()
            out[key] = pandas.DataFrame(columns, columns=list(a.dtype.names))
        return out

    def __repr__(self):
        return (f"<nsed.Result status={self.summary.get('status')!r} "
                f"rows={len(self.trajectory)} events={len(self.events)}>")


# ---------------------------------------------------------------------------
# Building the arrays (also used by in-memory runs, nsed._core)
# ---------------------------------------------------------------------------

def _str_dtype(values, minimum=1):
    """The narrowest numpy string type that holds every value."""
    values = np.asarray(values, dtype=str)
    longest = int(np.char.str_len(values).max()) if values.size else 0
    return f"U{max(minimum, longest)}"


def trajectory_array(matrix, names):
    """A (rows, len(names)) float array as the structured trajectory array."""
    dt = np.dtype([(c, "f8") for c in names])
    data = np.ascontiguousarray(matrix, dtype=float).reshape(-1, len(names))
    if not len(data):
        return np.zeros(0, dtype=dt)
    return data.view(dt).reshape(len(data))


def contacts_array(t, names, mode, numbers, spin=None):
    """The contacts array from its columns; numbers: (rows, 9) floats of
    CONTACT_NUMBERS (gap, lambda_n, lambda_t1, lambda_t2, slip_speed,
    point_x, point_y, point_z, moment); spin: the spin modes (exact torsional
    friction; "" where a result lacks them)."""
    dt = [("t", "f8"), ("contact", _str_dtype(names)), ("mode", "U5")] + \
        [(c, "f8") for c in CONTACT_NUMBERS] + [("spin", "U5")]
    a = np.zeros(len(t), dtype=dt)
    a["t"] = t
    a["contact"] = names
    a["mode"] = mode
    a["spin"] = "" if spin is None else spin
    numbers = np.asarray(numbers, dtype=float).reshape(len(t), len(CONTACT_NUMBERS))
    for k, c in enumerate(CONTACT_NUMBERS):
        a[c] = numbers[:, k]
    return a


def events_array(columns):
    """The events array from {column: sequence} with every EVENT_COLUMNS key."""
    n = len(columns["t"])
    dt = [("t", "f8"), ("kind", _str_dtype(columns["kind"])),
          ("contact", _str_dtype(columns["contact"])), ("from", "U5"), ("to", "U5"),
          ("lcp_size", "i4"), ("pivots", "i4"), ("residual", "f8"),
          ("path", _str_dtype(columns["path"])), ("impulse_n", "f8"), ("impulse_t1", "f8"),
          ("impulse_t2", "f8")]
    a = np.zeros(n, dtype=dt)
    for name in EVENT_COLUMNS:
        a[name] = columns[name]
    return a


def limit_group(name):
    """A step log's limiting state grouped as steps.png and
    bench/work_precision.py count it: its body's name with digit runs as
    '*' (the rollers of every wheel together), and its field."""
    body, dot, field = name.rpartition(".")
    if not dot:
        return name or "(none)"
    return re.sub(r"[0-9]+", "*", body) + "." + field


def steps_array(columns):
    """The steps array from {column: sequence} with every STEP_COLUMNS key
    (limit: the state's name, "" where the estimate was zero)."""
    n = len(columns["t"])
    dt = [("t", "f8"), ("h", "f8"), ("rejected", "i8"), ("rhs", "i8"), ("error", "f8"),
          ("limit", _str_dtype(columns["limit"])), ("limit_share", "f8"), ("events", "i8"),
          ("first", "i4")]
    a = np.zeros(n, dtype=dt)
    for name in STEP_COLUMNS:
        a[name] = columns[name]
    return a


# ---------------------------------------------------------------------------
# CSV
# ---------------------------------------------------------------------------

def _to_float(text, path, line, column):
    """One CSV cell; an empty cell is a missing value (NaN), not an error."""
    text = text.strip()
    if text == "":
        return float("nan")
    try:
        return float(text)   # also nan / inf as printf writes them
    except ValueError:
        raise ResultError(f"{path} line {line}, column '{column}': "
                          f"cannot parse {text!r} as a number") from None


def _to_int(text, path, line, column):
    try:
        return int(text.strip())
    except ValueError:
        raise ResultError(f"{path} line {line}, column '{column}': "
                          f"cannot parse {text!r} as an integer") from None


def _read_table(path, required, optional_file):
    """(header, rows) with rows as (line number, fields), checking the header
    and every row's length. The csv module (not genfromtxt) so that each
    error names its line. An absent or empty optional file reads as a
    header of the required columns and no rows."""
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
        raise ResultError(f"{path} line 1: header lacks column(s) {', '.join(missing)}")
    twice = sorted({c for c in header if header.count(c) > 1})
    if twice:
        raise ResultError(f"{path} line 1: column(s) {', '.join(twice)} appear more than once")
    rows = []
    for number, fields in enumerate(lines[1:], start=2):
        if not fields or all(not f.strip() for f in fields):
            continue   # blank lines, e.g. a trailing newline pair
        if len(fields) != len(header):
            raise ResultError(f"{path} line {number}: expected {len(header)} "
                              f"fields, found {len(fields)}")
        rows.append((number, fields))
    return header, rows


def _floats(path, header, rows, columns):
    """The named columns as a (rows, len(columns)) float array."""
    idx = [header.index(c) for c in columns]
    try:
        # Fast path; numpy parses each cell to the same double as float().
        cells = np.array([[f[i] for i in idx] for _, f in rows], dtype=str)
        return cells.reshape(len(rows), len(idx)).astype(float)
    except ValueError:
        pass   # an empty or malformed cell: find it and say where
    return np.array([[_to_float(f[i], path, n, header[i]) for i in idx] for n, f in rows],
                    dtype=float).reshape(len(rows), len(idx))


def _strings(header, rows, column):
    i = header.index(column)
    return [f[i].strip() for _, f in rows]


def check_trajectory_columns(names, path):
    """The trajectory's columns must be t, then all 13 BODY.FIELD of each body."""
    if not names or names[0] != "t":
        raise ResultError(f"{path} line 1: first column must be 't'")
    bodies = {}
    for name in names[1:]:
        body, _, field = name.rpartition(".")
        if not body or field not in BODY_FIELDS:
            raise ResultError(f"{path} line 1: column '{name}' is not BODY.FIELD "
                              f"with FIELD one of {','.join(BODY_FIELDS)}")
        bodies.setdefault(body, set()).add(field)
    if not bodies:
        raise ResultError(f"{path} line 1: no body columns")
    for body, fields in bodies.items():
        lacking = [f for f in BODY_FIELDS if f not in fields]
        if lacking:
            raise ResultError(f"{path} line 1: body '{body}' lacks column(s) "
                              f"{', '.join(body + '.' + f for f in lacking)}")


def _typed_columns(path, header, rows, columns, floats, ints, defaults):
    """{column: values} of a table's rows: floats, ints, the rest strings;
    a column the header lacks takes defaults[column] in every row."""
    cols = {}
    for c in columns:
        if c not in header:
            cols[c] = [defaults[c]] * len(rows)
        elif c in floats:
            cols[c] = _floats(path, header, rows, (c,))[:, 0]
        elif c in ints:
            i = header.index(c)
            cols[c] = [_to_int(f[i], path, n, c) for n, f in rows]
        else:
            cols[c] = _strings(header, rows, c)
    return cols


def _read_csv_result(outdir):
    files = {k: os.path.join(outdir, f"{k}.csv") for k in ("trajectory", "contacts", "events")}
    path = files["trajectory"]
    header, rows = _read_table(path, ("t",), optional_file=False)
    check_trajectory_columns(header, path)
    trajectory = trajectory_array(_floats(path, header, rows, header), header)

    path = files["contacts"]
    header, rows = _read_table(path, CONTACT_COLUMNS, optional_file=True)
    numbers = _floats(path, header, rows, ("t",) + CONTACT_COLUMNS[3:])
    optional = []
    for group in (CONTACT_POINT_COLUMNS, CONTACT_MOMENT_COLUMNS):
        optional.append(_floats(path, header, rows, group)
                        if all(c in header for c in group)
                        else np.full((len(rows), len(group)), np.nan))
    contacts = contacts_array(numbers[:, 0], _strings(header, rows, "contact"),
                              _strings(header, rows, "mode"),
                              np.hstack([numbers[:, 1:]] + optional),
                              _strings(header, rows, "spin") if "spin" in header else None)

    path = files["events"]
    header, rows = _read_table(path, _EVENT_REQUIRED, optional_file=True)
    events = events_array(_typed_columns(path, header, rows, EVENT_COLUMNS, _EVENT_FLOATS,
                                         _EVENT_INTS, _EVENT_DEFAULTS))
    return trajectory, contacts, events, {k: p if os.path.exists(p) else None
                                          for k, p in files.items()}


def _read_steps(outdir):
    """steps.csv's array, or None when the run wrote none."""
    path = os.path.join(outdir, "steps.csv")
    if not os.path.exists(path):
        return None, None
    header, rows = _read_table(path, STEP_COLUMNS, optional_file=False)
    return steps_array(_typed_columns(path, header, rows, STEP_COLUMNS, _STEP_FLOATS,
                                      _STEP_INTS, {})), path


# ---------------------------------------------------------------------------
# HDF5 (docs/cli.md, "HDF5 output")
# ---------------------------------------------------------------------------

def _read_hdf5_result(path):
    try:
        import h5py
    except ImportError:
        raise ResultError(f"{path}: reading results.h5 needs h5py: install the Debian "
                          "package python3-h5py") from None

    def column(group, name, kind):
        ds = group[name]
        if kind == "s":
            return [str(v) for v in ds.asstr()[()]]
        return np.asarray(ds[()], dtype=kind)

    try:
        with h5py.File(path, "r") as f:
            ds = f["trajectory"]
            names = [str(c) for c in ds.attrs["columns"]]
            check_trajectory_columns(names, path)
            trajectory = trajectory_array(np.asarray(ds[()], dtype=float), names)
            g = f["contacts"]
            t = column(g, "t", "f8")
            numbers = np.stack([column(g, c, "f8") if c in g else np.full(len(t), np.nan)
                                for c in CONTACT_NUMBERS], axis=-1)
            contacts = contacts_array(t, column(g, "contact", "s"),
                                      column(g, "mode", "s"), numbers,
                                      column(g, "spin", "s") if "spin" in g else None)
            g = f["events"]
            kinds = dict({c: "f8" for c in _EVENT_FLOATS}, **{c: "i4" for c in _EVENT_INTS})
            n = len(g["t"])
            events = events_array({c: column(g, c, kinds.get(c, "s")) if c in g
                                   else [_EVENT_DEFAULTS[c]] * n for c in EVENT_COLUMNS})
            text = f["metadata"].attrs.get("summary_json") if "metadata" in f else None
    except (OSError, KeyError, ValueError) as e:
        raise ResultError(f"{path}: not a readable nsed results.h5: {e}") from None
    files = {k: path for k in ("trajectory", "contacts", "events")}
    return trajectory, contacts, events, files, text


# ---------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------

def _parse_summary(text, path, strict):
    try:
        summary = json.loads(text)
    except ValueError as e:
        if strict:
            raise ResultError(f"{path}: not JSON: {e}") from None
        return {}
    if not isinstance(summary, dict):
        if strict:
            raise ResultError(f"{path}: not a JSON object")
        return {}
    return summary


def read_result(outdir, strict_summary=True):
    """A Result from a directory written by `nsed run` (or nsed.run with
    outdir): its CSV files, or results.h5 (needs h5py) when there is no
    trajectory.csv. contacts.csv and events.csv may be absent (no rows);
    summary.json may be absent (summary {}, or the copy inside results.h5).
    Raises ResultError naming the file and line of anything malformed;
    strict_summary=False reads an unreadable summary.json as {} instead."""
    outdir = os.fspath(outdir)
    if not os.path.isdir(outdir):
        raise ResultError(f"{outdir}: result directory not found")
    h5 = os.path.join(outdir, "results.h5")
    text = None
    if not os.path.exists(os.path.join(outdir, "trajectory.csv")) and os.path.exists(h5):
        trajectory, contacts, events, files, text = _read_hdf5_result(h5)
    else:
        trajectory, contacts, events, files = _read_csv_result(outdir)
    path = os.path.join(outdir, "summary.json")
    files["summary"] = None
    if os.path.exists(path):
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            files["summary"] = path
        except (OSError, UnicodeDecodeError) as e:
            if strict_summary:
                raise ResultError(f"{path}: cannot read: {e}") from None
            text = None
    elif text is not None:
        files["summary"] = h5
        path = h5
    summary = _parse_summary(text, path, strict_summary) if text is not None else {}
    steps, files["steps"] = _read_steps(outdir)
    return Result(trajectory, contacts, events, summary, outdir=outdir, files=files, steps=steps)
