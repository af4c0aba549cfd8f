"""Loading problems, running them in-process, and the result arrays."""

import csv
import hashlib
import json
import math
import os

import numpy as np

from ._ffi import ffi, load_library, new_padded
from ._version import __version__

lib, LIBRARY_PATH = load_library()

BODY_FIELDS = ("x", "y", "z", "q0", "q1", "q2", "q3",
               "vx", "vy", "vz", "wx", "wy", "wz")
CONTACT_COLUMNS = ("t", "contact", "mode", "gap", "lambda_n", "lambda_t1",
                   "lambda_t2", "slip_speed")
EVENT_COLUMNS = ("t", "kind", "contact", "from", "to", "lcp_size", "pivots",
                 "residual", "path")
MODE_NAMES = ("open", "stick", "slip")

NSED_OK, NSED_ERR_INPUT, NSED_ERR_NOMEM, NSED_ERR_IO = 0, -1, -2, -3
NSED_ERR_INTERRUPTED = -9


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

class NsedError(Exception):
    """An nsed status other than success, with nsed's message.

    .status is the C status code (include/nsed/status.h), .status_name its
    name ("NSED_ERR_INPUT"), .message nsed's text (for input errors every
    problem found, one per line, as FILE:LINE:COL: KEY: message)."""

    def __init__(self, status, message):
        self.status = status
        self.status_name = _str(lib.nsed_status_name(status))
        self.message = message
        super().__init__(message)


class InputError(NsedError):
    """A bad problem file or override (status -1, NSED_ERR_INPUT)."""


class NsedIOError(NsedError):
    """A file could not be read or written (status -3, NSED_ERR_IO)."""


class SimulationError(NsedError):
    """The simulation failed or was interrupted. .result holds everything up
    to that instant (its summary says "failed" or "interrupted")."""

    def __init__(self, status, message, result=None):
        super().__init__(status, message)
        self.result = result


def _raise(status, message, result=None):
    if status == NSED_ERR_INPUT:
        raise InputError(status, message)
    if status == NSED_ERR_IO:
        raise NsedIOError(status, message)
    if status == NSED_ERR_NOMEM:
        raise NsedError(status, message)
    raise SimulationError(status, message, result)


def _str(p):
    return ffi.string(p).decode("utf-8", "replace") if p != ffi.NULL else ""


def version():
    """The nsed version this package belongs to (e.g. "0.1.0")."""
    return __version__


# ---------------------------------------------------------------------------
# Overrides
# ---------------------------------------------------------------------------

def _flow(v):
    """A Python value as the YAML flow text an override value is parsed as."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        if not math.isfinite(v):
            raise ValueError(f"override value {v!r}: nsed accepts finite numbers only")
        return repr(float(v))          # shortest text that reads back to the same double
    if isinstance(v, str):
        return v
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_flow(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple, np.ndarray)):
        return "[" + ", ".join(_flow(x) for x in v) + "]"
    raise TypeError(f"override value {v!r}: expected a number, string, list or dict")


def override_strings(overrides):
    """{key: value} (or an iterable of "key=value" strings or (key, value)
    pairs) as the "key=value" strings of `nsed run --set`."""
    if overrides is None:
        return []
    if isinstance(overrides, dict):
        items = overrides.items()
    else:
        items = []
        for o in overrides:
            if isinstance(o, str):
                if "=" not in o:
                    raise ValueError(f"override {o!r}: expected KEY=VALUE")
                items.append(tuple(o.split("=", 1)))
            else:
                items.append(tuple(o))
    return [f"{k}={v if isinstance(v, str) else _flow(v)}" for k, v in items]


# ---------------------------------------------------------------------------
# The model
# ---------------------------------------------------------------------------

def _free_model(p):
    lib.nsed_model_free(ffi.new("nsed_model **", p))


class Model:
    """A loaded, validated problem (read-only: any number of runs, also from
    several Python threads at once; each run has its own data object)."""

    def __init__(self, path, overrides=None):
        self.path = os.fspath(path)
        self.overrides = override_strings(overrides)
        err = ffi.new("nsed_error *")
        out = ffi.new("nsed_model **")
        keep = [ffi.new("char[]", o.encode()) for o in self.overrides]
        arr = ffi.new("const char *[]", keep) if keep else ffi.NULL
        rc = lib.nsed_problem_load(self.path.encode(), arr, len(keep), out, err)
        if rc != NSED_OK:
            _raise(rc, _str(err.message))
        self._m = ffi.gc(out[0], _free_model)
        m = self._m
        self.bodies = tuple(_str(lib.nsed_model_body_name(m, i))
                            for i in range(lib.nsed_model_nbody(m)))
        self.contacts = tuple(_str(lib.nsed_model_contact_name(m, i))
                              for i in range(lib.nsed_model_ncontact(m)))
        self.joints = tuple(_str(lib.nsed_model_joint_name(m, i))
                            for i in range(lib.nsed_model_njoint(m)))
        self.forces = tuple(_str(lib.nsed_model_force_def(m, i).name)
                            for i in range(lib.nsed_model_nforce(m)))
        self.nstate = lib.nsed_model_nstate(m)
        o = lib.nsed_model_options(m)
        self.t_end = o.t_end
        self.output_dt = o.output_dt
        self.integrator = _str(lib.nsed_integrator_name(o.integrator))
        self.friction_model = _str(lib.nsed_friction_model_name(o.friction.model))
        self.friction_sides = o.friction.sides

    def __repr__(self):
        return (f"<nsed.Model {self.path!r}: bodies {list(self.bodies)}, "
                f"contacts {list(self.contacts)}, t_end {self.t_end}>")

    def run(self, outdir=None, progress=None, check=True):
        """Simulate from the initial state to t_end; see nsed.run."""
        if outdir is not None:
            return _run_to_dir(self, os.fspath(outdir), progress, check)
        return _run_in_memory(self, progress, check)


def load(path, overrides=None):
    """Load and validate a problem file with overrides ({"solver.t_end": 2,
    "bodies.ball.velocity": [1, 0, 0]}); raises InputError with nsed's
    messages (file:line:column: key: problem)."""
    return Model(path, overrides)


def run(path, overrides=None, outdir=None, progress=None, check=True):
    """Load a problem file, apply overrides, simulate it, return a Result.

    outdir=None: run in this process, samples and events collected straight
    into numpy arrays (nothing written). outdir=DIR: write DIR exactly as
    `nsed run -o DIR` does (atomically) and read the arrays back from it.
    progress: called as progress(t, t_end, events, wall_seconds) about every
    0.1 s of wall time. check=True raises SimulationError (with .result) if
    the simulation fails; check=False returns the result, whose
    summary["status"] says "failed" or "interrupted"."""
    return Model(path, overrides).run(outdir=outdir, progress=progress, check=check)


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------

class Result:
    """A run's arrays and summary.

    trajectory: structured array with fields "t" and "BODY.x" ... "BODY.wz"
        (the columns of trajectory.csv), one row per output instant and event.
    contacts: structured array with the columns of contacts.csv (contact and
        mode as strings), one row per contact per trajectory row.
    events: structured array with the columns of events.csv.
    summary: dict with the keys of summary.json.
    """

    def __init__(self, trajectory, contacts, events, summary, outdir=None):
        self.trajectory = trajectory
        self.contacts = contacts
        self.events = events
        self.summary = summary
        self.outdir = outdir

    def body(self, name):
        """{field: array} of one body's 13 columns plus "t"."""
        out = {"t": self.trajectory["t"]}
        for f in BODY_FIELDS:
            out[f] = self.trajectory[f"{name}.{f}"]
        return out

    def contact(self, name):
        """The rows of contacts for one contact."""
        return self.contacts[self.contacts["contact"] == name]

    def __repr__(self):
        return (f"<nsed.Result status={self.summary.get('status')!r} "
                f"rows={len(self.trajectory)} events={len(self.events)}>")


def _str_dtype(values, minimum=1):
    return f"U{max([minimum] + [len(v) for v in values])}"


def _contacts_array(t, names, mode, num):
    dt = [("t", "f8"), ("contact", _str_dtype(names)), ("mode", "U5"),
          ("gap", "f8"), ("lambda_n", "f8"), ("lambda_t1", "f8"),
          ("lambda_t2", "f8"), ("slip_speed", "f8")]
    a = np.zeros(len(t), dtype=dt)
    a["t"] = t
    a["contact"] = names
    a["mode"] = mode
    for k, c in enumerate(CONTACT_COLUMNS[3:]):
        a[c] = num[:, k]
    return a


def _events_array(rows):
    cols = list(zip(*rows)) if rows else [[] for _ in EVENT_COLUMNS]
    dt = [("t", "f8"), ("kind", _str_dtype(cols[1])), ("contact", _str_dtype(cols[2])),
          ("from", "U5"), ("to", "U5"), ("lcp_size", "i4"), ("pivots", "i4"),
          ("residual", "f8"), ("path", _str_dtype(cols[8]))]
    a = np.zeros(len(rows), dtype=dt)
    for name, c in zip(EVENT_COLUMNS, cols):
        a[name] = c
    return a


def _trajectory_array(buf, n, bodies):
    names = ["t"] + [f"{b}.{f}" for b in bodies for f in BODY_FIELDS]
    data = np.ascontiguousarray(buf[:n])
    return data.view(np.dtype([(c, "f8") for c in names])).reshape(n)


class _Collector:
    """Observer that writes samples straight into growing numpy buffers and
    keeps exactly the rows the CSV writer keeps (src/io/writer.c)."""

    def __init__(self, model, progress):
        self.bodies = model.bodies
        self.nb = len(model.bodies)
        self.nc = len(model.contacts)
        self.contact_names = model.contacts
        self.width = 1 + 13 * self.nb
        cap = int(min(1e6, max(64, 2 * model.t_end / model.output_dt + 16)))
        self.traj = np.empty((cap, self.width))
        self.n = 0
        self.cnum = np.empty((cap * self.nc, 5))
        self.cidx = np.empty(cap * self.nc, dtype=np.int32)
        self.cmode = np.empty(cap * self.nc, dtype=np.int8)
        self.info = ffi.new("nsed_contact_info *")
        self.events = []
        self.error = None
        self.user_progress = progress
        self.interrupt = ffi.new("int *")
        self.kind_names = [_str(lib.nsed_event_kind_name(k)) for k in range(8)]

    def _grow(self):
        cap = 2 * self.traj.shape[0]
        self.traj = np.resize(self.traj, (cap, self.width))
        self.cnum = np.resize(self.cnum, (cap * self.nc, 5))
        self.cidx = np.resize(self.cidx, cap * self.nc)
        self.cmode = np.resize(self.cmode, cap * self.nc)

    def sample(self, ctx, m, d, why):
        if self.n == self.traj.shape[0]:
            self._grow()
        row = self.traj[self.n]
        t = lib.nsed_data_time(d)
        row[0] = t
        ptr = ffi.cast("double *", row.ctypes.data)
        for b in range(self.nb):
            lib.nsed_data_body_state(d, b, ptr + 1 + 13 * b)
        # An output instant that coincides with an event repeats the same
        # row: keep one, bit for bit as the CSV writer decides.
        if self.n and t == self.traj[self.n - 1, 0] and \
                row[1:].tobytes() == self.traj[self.n - 1, 1:].tobytes():
            return 0
        base = self.n * self.nc
        info = self.info
        for c in range(self.nc):
            lib.nsed_data_contact(d, c, info)
            k = base + c
            self.cidx[k] = c
            self.cmode[k] = info.mode
            lam = getattr(info, "lambda")      # a Python keyword: no attribute syntax
            self.cnum[k] = (info.gap, lam[0], lam[1], lam[2], info.slip_speed)
        self.n += 1
        return 0

    def event(self, ctx, m, d, ev):
        c = ev.contact
        self.events.append((
            ev.t, self.kind_names[ev.kind] if 0 <= ev.kind < 8 else str(ev.kind),
            self.contact_names[c] if c >= 0 else "",
            MODE_NAMES[getattr(ev, "from")] if c >= 0 else "",
            MODE_NAMES[ev.to] if c >= 0 else "",
            ev.lcp_size, ev.pivots, ev.residual, _str(ev.path)))
        return 0

    def progress(self, ctx, t, t_end, events, wall):
        if self.user_progress is not None:
            self.user_progress(t, t_end, events, wall)

    def on_error(self, exc, value, tb):
        # An exception in a callback (a bug, or Ctrl-C arriving while Python
        # code runs) stops the run; run() raises it once nsed has returned.
        if self.error is None:
            self.error = value
        self.interrupt[0] = 1
        return 1

    def on_progress_error(self, exc, value, tb):
        self.on_error(exc, value, tb)      # void callback: the interrupt flag stops the run

    def arrays(self):
        n = self.n
        traj = _trajectory_array(self.traj, n, self.bodies)
        k = n * self.nc
        tt = np.repeat(self.traj[:n, 0], self.nc)
        names = np.array(self.contact_names if self.nc else ["x"])[self.cidx[:k]] \
            if k else np.array([], dtype="U1")
        modes = np.array(MODE_NAMES)[self.cmode[:k]] if k else np.array([], dtype="U5")
        return traj, _contacts_array(tt, names, modes, self.cnum[:k]), _events_array(self.events)


def _finite(v):
    return float(v) if math.isfinite(v) else None


def _summary(model, d, rc, message, problem_hash):
    m = model._m
    st = lib.nsed_data_stats(d)
    e_final = lib.nsed_data_energy(m, d)
    s = {
        "problem": model.path,
        "problem_sha256": problem_hash,
        "overrides": list(model.overrides),
        "status": "ok" if rc == NSED_OK else
                  "interrupted" if rc == NSED_ERR_INTERRUPTED else "failed",
        "status_code": _str(lib.nsed_status_name(rc)),
        "message": "" if rc == NSED_OK else message,
        "t_end": _finite(model.t_end),
        "t_reached": _finite(lib.nsed_data_time(d)),
        "bodies": len(model.bodies),
        "body_names": list(model.bodies),
        "joints": len(model.joints),
        "contacts": len(model.contacts),
        "forces": len(model.forces),
        "states": model.nstate,
        "integrator": model.integrator,
        "friction_model": model.friction_model,
        "friction_sides": model.friction_sides,
        "events": st.events,
        "events_by_kind": {_str(lib.nsed_event_kind_name(k)): st.events_by_kind[k]
                           for k in range(8)},
        "lcp_solves": st.lcp_solves,
        "rhs_evaluations": st.rhs_evals,
        "steps": st.steps,
        "wall_seconds": _finite(st.wall_seconds),
        "max_constraint_violation": _finite(st.max_constraint_violation),
        "max_lcp_residual": _finite(st.max_lcp_residual),
        "energy_initial": _finite(st.energy_initial),
        "energy_final": _finite(e_final),
        "work_external": _finite(st.work_external),
        "work_contacts": _finite(st.work_contacts),
        "work_joints": _finite(st.work_joints),
        # the same operations in the same order as src/io/summary.c
        "energy_balance_error": _finite(e_final - st.energy_initial - st.work_external
                                        - st.work_contacts - st.work_joints),
        "law_monitor": _law_monitor(model, st),
        "onsets_off_circle": st.onsets_off_circle,
        "monitor_seconds": _finite(st.wall_monitor),
        "nsed_version": version(),
    }
    return s


def _law_monitor(model, st):
    """The law monitor's worst margins, as src/io/summary.c writes them."""
    out = {}
    for k in range(7):
        lm = st.law[k]
        name = _str(lib.nsed_law_check_name(k))
        seen = lm.count > 0
        where = None
        if seen and lm.where >= 0:
            names = model.joints if name == "joint_drift" else model.contacts
            where = list(names)[lm.where]
        out[name] = {"worst": _finite(lm.worst) if seen else None,
                     "tolerance": _finite(lm.tolerance),
                     "t": _finite(lm.t) if seen else None,
                     "where": where, "count": lm.count}
    return out


def _file_sha256(path):
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def _run_in_memory(model, progress, check):
    col = _Collector(model, progress)
    cb_sample = ffi.callback("int(void *, const nsed_model *, const nsed_data *, int)",
                             col.sample, onerror=col.on_error)
    cb_event = ffi.callback("int(void *, const nsed_model *, const nsed_data *, const nsed_event *)",
                            col.event, onerror=col.on_error)
    cb_progress = ffi.callback("void(void *, double, double, long, double)",
                               col.progress, onerror=col.on_progress_error)
    obs, obs_buf = new_padded("nsed_observer")
    obs.sample = cb_sample
    obs.event = cb_event
    obs.progress = cb_progress
    obs.interrupt = col.interrupt
    err = ffi.new("nsed_error *")
    dp = ffi.new("nsed_data **")
    rc = lib.nsed_data_create(model._m, dp, err)
    if rc != NSED_OK:
        _raise(rc, _str(err.message))
    try:
        rc = lib.nsed_simulate(model._m, dp[0], obs, err)
        message = _str(err.message)
        if col.error is not None:
            raise col.error
        traj, contacts, events = col.arrays()
        summary = _summary(model, dp[0], rc, message, _file_sha256(model.path))
    finally:
        lib.nsed_data_free(dp)
    result = Result(traj, contacts, events, summary)
    if rc != NSED_OK and check:
        _raise(rc, message, result)
    return result


# ---- runs written to a directory ----

def _read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def read_result(outdir):
    """A Result from a directory written by `nsed run` (CSV format)."""
    header, rows = _read_csv(os.path.join(outdir, "trajectory.csv"))
    buf = np.array([[float(x) for x in r] for r in rows], dtype=float).reshape(len(rows), len(header))
    names = header
    traj = buf.copy().view(np.dtype([(c, "f8") for c in names])).reshape(len(rows))
    _, crows = _read_csv(os.path.join(outdir, "contacts.csv"))
    num = np.array([[float(x) for x in r[3:]] for r in crows], dtype=float).reshape(len(crows), 5)
    contacts = _contacts_array([float(r[0]) for r in crows], [r[1] for r in crows],
                               [r[2] for r in crows], num)
    _, erows = _read_csv(os.path.join(outdir, "events.csv"))
    events = _events_array([(float(r[0]), r[1], r[2], r[3], r[4], int(r[5]), int(r[6]),
                             float(r[7]), r[8]) for r in erows])
    with open(os.path.join(outdir, "summary.json")) as f:
        summary = json.load(f)
    return Result(traj, contacts, events, summary, outdir=outdir)


def _run_to_dir(model, outdir, progress, check):
    user = progress
    errors = []

    def on_progress(ctx, t, t_end, events, wall):
        if user is not None:
            user(t, t_end, events, wall)

    interrupt = ffi.new("int *")

    def on_error(exc, value, tb):
        errors.append(value)
        interrupt[0] = 1

    cb = ffi.callback("void(void *, double, double, long, double)", on_progress,
                      onerror=on_error)
    opt, opt_buf = new_padded("nsed_run_options")
    lib.nsed_run_options_default(opt)
    path_c = ffi.new("char[]", model.path.encode())
    text = None
    try:
        with open(model.path, "rb") as f:
            text = f.read()
    except OSError:
        pass
    text_c = ffi.new("char[]", text) if text is not None else ffi.NULL
    keep = [ffi.new("char[]", o.encode()) for o in model.overrides]
    arr = ffi.new("const char *[]", keep) if keep else ffi.NULL
    opt.problem_path = path_c
    opt.problem_text = text_c
    opt.problem_len = len(text) if text is not None else 0
    opt.overrides = arr
    opt.noverrides = len(keep)
    opt.progress = ffi.cast("void *", cb)
    opt.interrupt = interrupt
    res = ffi.new("nsed_run_result *")
    err = ffi.new("nsed_error *")
    rc = lib.nsed_run_problem(model._m, outdir.encode(), opt, res, err)
    if errors:
        raise errors[0]
    if rc != NSED_OK and not res.written:
        _raise(rc, _str(err.message))
    result = read_result(outdir)
    if rc != NSED_OK and check:
        _raise(rc, _str(err.message), result)
    return result
