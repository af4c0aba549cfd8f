"""Loading problems and running them in-process (libnsed through cffi).

An in-memory run records through libnsed's recorder (nsed_recorder: the rows
the result writers keep, in C) and takes its summary from
nsed_summary_json, the text nsed_run_problem writes as summary.json; Python
only copies the recorded arrays once the run is over and relays progress.
"""

import hashlib
import json
import math
import os
import re

import numpy as np

from ._ffi import ffi, load_library, new_padded
from .results import (BODY_FIELDS, CONTACT_NUMBERS, JOINT_FIELDS, MODE_NAMES, STEP_COLUMNS, Result,
                      contacts_array, events_array, read_result, steps_array, trajectory_array)

lib, LIBRARY_PATH = load_library()

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
    several Python threads at once; each run has its own data object).

    Model(path, overrides) reads a problem file; Model.from_text(text, ...)
    a problem given as a string (nsed.load_string, nsed.assemble). .path is
    the file's path (None for text), .name what messages call it."""

    def __init__(self, path, overrides=None, *, text=None, name=None):
        self.path = os.fspath(path) if path is not None else None
        self.text = text
        self.name = name if name is not None else self.path
        self.overrides = override_strings(overrides)
        err = ffi.new("nsed_error *")
        out = ffi.new("nsed_model **")
        keep = [ffi.new("char[]", o.encode()) for o in self.overrides]
        arr = ffi.new("const char *[]", keep) if keep else ffi.NULL
        if text is None:
            rc = lib.nsed_problem_load(self.path.encode(), arr, len(keep), out, err)
        else:
            rc = lib.nsed_problem_load_string(text, len(text), self.name.encode(), arr, len(keep),
                                              out, err)
        if rc != NSED_OK:
            _raise(rc, _str(err.message))
        self._adopt(out[0])

    @classmethod
    def _from_c(cls, m, name):
        """A Model owning the finalized C model m (nsed.ModelBuilder.build):
        no file, no text, no overrides."""
        self = cls.__new__(cls)
        self.path = None
        self.text = None
        self.name = name
        self.overrides = []
        self._adopt(m)
        return self

    def _adopt(self, m):
        """Own the finalized C model m (freed with this object) and read its names."""
        self._m = ffi.gc(m, _free_model)
        m = self._m
        self.bodies = tuple(_str(lib.nsed_model_body_name(m, i))
                            for i in range(lib.nsed_model_nbody(m)))
        self.contacts = tuple(_str(lib.nsed_model_contact_name(m, i))
                              for i in range(lib.nsed_model_ncontact(m)))
        self.joints = tuple(_str(lib.nsed_model_joint_name(m, i))
                            for i in range(lib.nsed_model_njoint(m)))
        self.forces = tuple(_str(lib.nsed_model_force_def(m, i).name)
                            for i in range(lib.nsed_model_nforce(m)))
        self.planes = tuple(_str(lib.nsed_model_plane_def(m, i).name)
                            for i in range(lib.nsed_model_nplane(m)))
        self.nstate = lib.nsed_model_nstate(m)
        o = lib.nsed_model_options(m)
        self.t_end = o.t_end
        self.output_dt = o.output_dt
        self.integrator = _str(lib.nsed_integrator_name(o.integrator))
        self.step_controller = _str(lib.nsed_step_controller_name(o.step_controller))
        self.output_steps = bool(o.output_steps)
        buf = ffi.new("char[]", 256)
        names = []
        for i in range(self.nstate + 3):      # and the three work integrals
            lib.nsed_state_name(m, i, buf, 256)
            names.append(_str(buf))
        self.state_names = tuple(names)
        self.friction_model = _str(lib.nsed_friction_model_name(o.friction.model))
        self.friction_sides = o.friction.sides

    @classmethod
    def from_text(cls, text, overrides=None, name="<string>"):
        """A Model from a problem file's text (str or bytes); name is what
        messages call it."""
        if isinstance(text, str):
            text = text.encode("utf-8")
        return cls(None, overrides, text=bytes(text), name=name)

    def problem_text(self):
        """The problem's text as bytes (the file's, read now), or None (a
        built model has none)."""
        if self.text is not None:
            return self.text
        if self.path is None:
            return None
        try:
            with open(self.path, "rb") as f:
                return f.read()
        except OSError:
            return None

    def __repr__(self):
        return (f"<nsed.Model {self.name!r}: bodies {list(self.bodies)}, "
                f"contacts {list(self.contacts)}, t_end {self.t_end}>")

    def run(self, outdir=None, progress=None, check=True, joints=False):
        """Simulate from the initial state to t_end; see nsed.run."""
        if outdir is not None:
            if joints:
                raise ValueError("joints=True records the joint coordinates of an in-memory "
                                 "run; result files do not hold them: run without outdir")
            return _run_to_dir(self, os.fspath(outdir), progress, check)
        return _run_in_memory(self, progress, check, joints)


def load(path, overrides=None):
    """Load and validate a problem file with overrides ({"solver.t_end": 2,
    "bodies.ball.velocity": [1, 0, 0]}); raises InputError with nsed's
    messages (file:line:column: key: problem). path may also be a dict
    holding the problem file's structure (nsed.from_dict)."""
    if isinstance(path, dict):
        return from_dict(path, overrides)
    return Model(path, overrides)


def load_string(text, overrides=None, name="<string>"):
    """Load and validate a problem given as text (YAML, as a problem file);
    name is what the messages call it."""
    return Model.from_text(text, overrides, name)


ASSEMBLIES = ("omni_vehicle", "omni_wheel_testbench", "disk_on_shaft")


def _problem_text(doc):
    """A problem file's text: one top-level key per line, values as YAML flow."""
    return "".join(f"{k}: {_flow(v)}\n" for k, v in doc.items())


# Strings written plain (unquoted) into a dict's YAML text: words, numbers
# and names with single inner spaces, so that a string reads as it would in
# a problem file ("1.0e-6" stays a number, as PyYAML leaves "1e-6" a
# string). Anything else is quoted and is a string to nsed.
_PLAIN = re.compile(r"[A-Za-z0-9_.+/()-]+(?: [A-Za-z0-9_.+/()-]+)*")
_NULL_WORDS = ("~", "null", "Null", "NULL")


def _data(v, where):
    """A Python value of a problem dict as YAML flow text (where: its key
    path, for messages)."""
    if v is None:
        return "null"
    if isinstance(v, bool) or isinstance(v, np.bool_):
        return "true" if v else "false"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        # repr: the shortest text that reads back to the same double; nan
        # and inf are left for nsed to refuse with the key's path.
        return repr(float(v))
    if isinstance(v, str):
        if _PLAIN.fullmatch(v) and v not in _NULL_WORDS and v != "-":
            return v
        return json.dumps(v, ensure_ascii=False)   # a YAML double-quoted string
    if isinstance(v, dict):
        items = []
        for k, x in v.items():
            if not isinstance(k, str):
                raise TypeError(f"{where or 'the problem'}: key {k!r}: keys must be strings")
            sub = f"{where}.{k}" if where else k
            items.append(f"{_data(k, sub)}: {_data(x, sub)}")
        return "{" + ", ".join(items) + "}"
    if isinstance(v, np.ndarray) and v.ndim == 0:
        return _data(v.item(), where)
    if isinstance(v, (list, tuple, np.ndarray)):
        return "[" + ", ".join(_data(x, f"{where}[{i}]") for i, x in enumerate(v)) + "]"
    raise TypeError(f"{where}: {type(v).__name__} value {v!r}: a problem holds numbers, "
                    "strings, lists and dicts")


def dict_text(doc):
    """The problem file text nsed.from_dict loads for doc (one top-level
    key per line, values as YAML flow)."""
    if not isinstance(doc, dict):
        raise TypeError(f"expected a dict of top-level keys, got {type(doc).__name__}")
    lines = []
    for k, v in doc.items():
        if not isinstance(k, str):
            raise TypeError(f"top-level key {k!r}: keys must be strings")
        lines.append(f"{_data(k, k)}: {_data(v, k)}\n")
    return "".join(lines)


def _strip_positions(message, name):
    """nsed's messages about a dict without the line:column of its generated
    text ("<dict>:3:27: bodies[0].mass: ..." -> "<dict>: bodies[0].mass: ...")."""
    lines = []
    head = re.compile(re.escape(name) + r":\d+:\d+: ")
    for line in message.split("\n"):
        m = head.match(line)
        if m:
            line = name + ": " + re.sub(r" \(also (\S+), line \d+\)$", r" (also \1)",
                                        line[m.end():])
        lines.append(line)
    return "\n".join(lines)


def from_dict(doc, overrides=None, name="<dict>"):
    """A Model from a problem given as Python data: a dict with the problem
    file's structure ({"bodies": [{"name": "ball", "mass": 1, ...}],
    "solver": {"t_end": 1}}, as yaml.safe_load reads a problem file).
    Validated by nsed's problem loader, so messages name the key path as
    for a file: "<dict>: bodies[0].mass: expected a positive number, got -1"
    (name is what they call the dict). The summary of its runs has problem
    null and problem_sha256 the hash of Model.text (dict_text(doc))."""
    text = dict_text(doc)
    try:
        return Model.from_text(text, overrides, name)
    except InputError as e:
        raise InputError(e.status, _strip_positions(e.message, name)) from None


def assemble(block, params=None, settings=None, overrides=None):
    """A Model of one assembly (docs/problem-format.md, "Assembly blocks"):
    block is "omni_vehicle", "omni_wheel_testbench" or "disk_on_shaft",
    params its keys ({"wheels": 4, "suspension": {"stiffness": 1000}}),
    settings the problem's other top-level keys ({"gravity": [0, 0, -1],
    "solver": {"t_end": 5}}, also bodies, joints, forces, contacts naming
    the generated parts). The library's assembly builder makes the parts
    (include/nsed/assemblies.h), with the same checks and messages as a
    problem file's block."""
    if block not in ASSEMBLIES:
        raise ValueError(f"unknown assembly {block!r}: expected one of {', '.join(ASSEMBLIES)}")
    doc = dict(settings or {})
    if block in doc:
        raise ValueError(f"give the {block} keys as params, not in settings")
    doc[block] = dict(params or {})
    return Model.from_text(_problem_text(doc), overrides, f"<{block}>")


def run(path, overrides=None, outdir=None, progress=None, check=True, joints=False):
    """Load a problem file, apply overrides, simulate it, return a Result.

    outdir=None: run in this process, samples and events collected straight
    into numpy arrays (nothing written). outdir=DIR: write DIR exactly as
    `nsed run -o DIR` does (atomically) and read the arrays back from it.
    progress: called as progress(t, t_end, events, wall_seconds) about every
    0.1 s of wall time. check=True raises SimulationError (with .result) if
    the simulation fails; check=False returns the result, whose
    summary["status"] says "failed". Ctrl-C (SIGINT) stops the run and
    raises KeyboardInterrupt whatever check says; its .result holds the run
    up to that instant (summary["status"] "interrupted"). path may also be a
    dict holding the problem file's structure (nsed.from_dict). joints=True
    (in memory only) also records every joint's coordinates at each
    trajectory row (nsed_data_joint_coordinates): Result.joints,
    Result.joint_coordinates(name); it costs a Python call per sample."""
    return load(path, overrides).run(outdir=outdir, progress=progress, check=check,
                                     joints=joints)


# ---------------------------------------------------------------------------
# Runs
# ---------------------------------------------------------------------------

class _Progress:
    """The C progress callback of a run: relays reports to the caller's
    progress(t, t_end, events, wall_seconds). An exception raised in it (a
    bug, or Ctrl-C arriving while Python code runs) sets the interrupt flag,
    which stops the run; raise_pending() raises it once nsed has returned."""

    def __init__(self, progress):
        self.user = progress
        self.error = None
        self.interrupt = ffi.new("int *")
        self.callback = ffi.callback("void(void *, double, double, long, double)",
                                     self._report, onerror=self._failed)

    def _report(self, ctx, t, t_end, events, wall):
        if self.user is not None:
            self.user(t, t_end, events, wall)

    def _failed(self, exc, value, tb):
        if self.error is None:
            self.error = value
        self.interrupt[0] = 1

    @property
    def interrupted(self):
        """Ctrl-C (a KeyboardInterrupt) stopped the run."""
        return isinstance(self.error, KeyboardInterrupt)

    def raise_pending(self):
        if self.error is not None:
            raise self.error

    def raise_interrupt(self, message, result):
        """Raise the KeyboardInterrupt that stopped the run, carrying nsed's
        message ("interrupted at t = ...") and the run up to then (.result)."""
        e = KeyboardInterrupt(message or "interrupted")
        e.result = result
        raise e from None


class _JointRows:
    """An observer around a recorder's: passes every sample on to it and,
    when the recorder keeps a row, reads every joint's coordinates
    (nsed_data_joint_coordinates) for that row. An exception in it (Ctrl-C
    arriving while Python code runs) goes to the run's _Progress, which
    stops the run and re-raises it; a row whose coordinates were missed is
    NaN."""

    def __init__(self, model, rec, relay):
        self.rec = rec
        self.relay = relay
        self.nj = len(model.joints)
        self.inner = lib.nsed_recorder_observer(rec)
        self.data = bytearray()
        self.row_bytes = 4 * self.nj * ffi.sizeof("double")
        if self.nj == 0:
            self.obs = self.inner          # nothing to read
            return
        self.obs, self._buf = new_padded("nsed_observer")
        ffi.memmove(self.obs, self.inner, ffi.sizeof("nsed_observer"))
        self.callback = ffi.callback("int(void *, const nsed_model *, const nsed_data *, int)",
                                     self._sample, onerror=self._failed)
        self.obs.sample = self.callback
        self.coords = ffi.new("double[]", 4 * self.nj)
        self.nan_row = np.full(4 * self.nj, np.nan).tobytes()

    def _sample(self, ctx, m, d, why):
        try:
            return self.inner.sample(ctx, m, d, why)
        finally:       # also when Ctrl-C lands just after the recorder kept the row
            n = lib.nsed_recorder_rows(self.rec)
            have = len(self.data) // self.row_bytes
            if n > have:
                for j in range(self.nj):
                    lib.nsed_data_joint_coordinates(d, j, self.coords + 4 * j)
                # one statement: the rows so far stay whole whatever interrupts
                self.data += self.nan_row * (n - 1 - have) + ffi.buffer(self.coords)[:]

    def _failed(self, exc, value, tb):
        self.relay._failed(exc, value, tb)
        return 0

    def array(self, model, trajectory):
        """The joints array: "t", then JOINT.angle ... JOINT.axial_rate."""
        names = ["t"] + [f"{j}.{f}" for j in model.joints for f in JOINT_FIELDS]
        n = len(trajectory)
        coords = np.full((n, 4 * self.nj), np.nan)
        if self.nj:
            have = min(n, len(self.data) // self.row_bytes)
            got = np.frombuffer(bytes(self.data[:have * self.row_bytes]), dtype="f8")
            coords[:have] = got.reshape(have, 4 * self.nj)
        return trajectory_array(np.column_stack([trajectory["t"], coords]), names)


def _summary(model, d, rc, message):
    """summary.json's dict for data d at the end of a run, from the text
    nsed_run_problem would write (nsed_summary_json); message: the run's
    error message as nsed's bytes."""
    info, info_buf = new_padded("nsed_summary_info")
    path = ffi.new("char[]", model.path.encode()) if model.path is not None else ffi.NULL
    text = model.problem_text()
    sha = hashlib.sha256(text).hexdigest() if text is not None else None
    sha_c = ffi.new("char[]", sha.encode()) if sha is not None else ffi.NULL
    keep = [ffi.new("char[]", o.encode()) for o in model.overrides]
    arr = ffi.new("const char *[]", keep) if keep else ffi.NULL
    msg = ffi.new("char[]", message)
    info.problem_path = path
    info.problem_sha256 = sha_c
    info.overrides = arr
    info.noverrides = len(keep)
    info.status = rc
    info.message = msg
    text = ffi.new("char **")
    err = ffi.new("nsed_error *")
    st = lib.nsed_summary_json(model._m, d, info, text, err)
    if st != NSED_OK:
        _raise(st, _str(err.message))
    try:
        return json.loads(ffi.string(text[0]).decode("utf-8"))
    finally:
        lib.nsed_free(text[0])


def _event_dtype():
    """numpy's view of the C struct nsed_event (layout from cffi)."""
    names = ("t", "kind", "contact", "from", "to", "lcp_size", "pivots", "residual", "path",
             "impulse")
    formats = ("f8", "i4", "i4", "i4", "i4", "i4", "i4", "f8", np.uintp, ("f8", 3))
    assert ffi.sizeof("int") == 4 and ffi.sizeof("char *") == np.dtype(np.uintp).itemsize
    return np.dtype({"names": list(names), "formats": list(formats),
                     "offsets": [ffi.offsetof("nsed_event", n) for n in names],
                     "itemsize": ffi.sizeof("nsed_event")})


_EVENT_DTYPE = _event_dtype()


def _copy(ptr, count, dtype):
    """count elements of dtype at the C pointer ptr, as a numpy array that owns them."""
    dtype = np.dtype(dtype)
    if count == 0:
        return np.zeros(0, dtype=dtype)
    return np.frombuffer(ffi.buffer(ptr, count * dtype.itemsize), dtype=dtype).copy()


def _names(codes, name_of):
    """codes (ints) as their names, looking each distinct code up once."""
    if not len(codes):
        return np.array([], dtype=object)
    values, inverse = np.unique(codes, return_inverse=True)
    return np.array([name_of(int(v)) for v in values], dtype=object)[inverse]


def _recorded(model, rec):
    """The trajectory, contacts and events arrays of a recorder."""
    n = lib.nsed_recorder_rows(rec)
    nc = len(model.contacts)
    names = ["t"] + [f"{b}.{f}" for b in model.bodies for f in BODY_FIELDS]
    traj = _copy(lib.nsed_recorder_trajectory(rec), n * len(names), "f8")
    trajectory = trajectory_array(traj.reshape(n, len(names)), names)

    k = n * nc
    width = lib.NSED_RECORDER_CONTACT_COLUMNS
    if width != len(CONTACT_NUMBERS):
        raise RuntimeError(f"{LIBRARY_PATH} records {width} contact columns, the package nsed "
                           f"reads {len(CONTACT_NUMBERS)}: the library and the package are "
                           "from different nsed versions")
    numbers = _copy(lib.nsed_recorder_contacts(rec), k * width, "f8").reshape(k, width)
    modes = _copy(lib.nsed_recorder_contact_modes(rec), k, "i4")
    spins = _copy(lib.nsed_recorder_contact_spins(rec), k, "i4")
    contact_names = np.array(model.contacts if nc else ["x"])
    contacts = contacts_array(np.repeat(trajectory["t"], nc),
                              contact_names[np.tile(np.arange(nc), n)] if k else [],
                              np.array(MODE_NAMES)[modes] if k else [], numbers,
                              np.array(MODE_NAMES)[spins] if k else None)

    raw = _copy(lib.nsed_recorder_events(rec), lib.nsed_recorder_nevent(rec), _EVENT_DTYPE)
    has = raw["contact"] >= 0
    kinds = [_str(lib.nsed_event_kind_name(k)) for k in range(lib.NSED_EVENT_NKIND)]
    cols = {c: raw[c] for c in ("t", "lcp_size", "pivots", "residual")}
    cols["kind"] = _names(raw["kind"], lambda k: kinds[k] if 0 <= k < len(kinds) else str(k))
    cols["contact"] = np.where(has, _names(raw["contact"],
                                           lambda c: model.contacts[c] if c >= 0 else ""), "")
    for c in ("from", "to"):
        cols[c] = np.where(has, _names(raw[c], lambda m: _str(lib.nsed_mode_name(m))), "")
    cols["path"] = _names(raw["path"], lambda p: _str(ffi.cast("const char *", p)))
    for k, c in enumerate(("impulse_n", "impulse_t1", "impulse_t2")):
        cols[c] = raw["impulse"][:, k]
    return trajectory, contacts, events_array(cols)


class _StepRows:
    """The step callback of an in-memory run whose model has output.steps:
    one tuple per accepted step, turned into Result.steps at the end. An
    exception in it goes to the run's _Progress, as in _JointRows."""

    def __init__(self, relay):
        self.relay = relay
        self.rows = []
        self.callback = ffi.callback(
            "int(void *, const nsed_model *, const nsed_data *, const nsed_step_info *)",
            self._step, onerror=self._failed)

    def attach(self, inner):
        """A copy of observer inner with this step callback."""
        self.obs, self._buf = new_padded("nsed_observer")
        ffi.memmove(self.obs, inner, ffi.sizeof("nsed_observer"))
        self.obs.step = self.callback
        return self.obs

    def _step(self, ctx, m, d, s):
        self.rows.append((s.t, s.h, s.rejected, s.rhs, s.error, s.limit, s.limit_share, s.events,
                          s.first))
        return 0

    def _failed(self, exc, value, tb):
        self.relay._failed(exc, value, tb)
        return 0

    def array(self, model):
        cols = dict(zip(STEP_COLUMNS, zip(*self.rows) if self.rows else [()] * len(STEP_COLUMNS)))
        names = model.state_names
        cols["limit"] = [names[i] if 0 <= i < len(names) else "" for i in cols["limit"]]
        return steps_array(cols)


def _free_recorder(p):
    lib.nsed_recorder_free(ffi.new("nsed_recorder **", p))


def _run_in_memory(model, progress, check, joints=False):
    err = ffi.new("nsed_error *")
    rp = ffi.new("nsed_recorder **")
    rc = lib.nsed_recorder_create(model._m, rp, err)
    if rc != NSED_OK:
        _raise(rc, _str(err.message))
    rec = ffi.gc(rp[0], _free_recorder)
    # Always relayed, also without a caller's callback: Python then runs
    # about ten times a second during the run, so Ctrl-C still stops it.
    relay = _Progress(progress)
    lib.nsed_recorder_chain(rec, relay.callback, ffi.NULL, relay.interrupt)
    rows = _JointRows(model, rec, relay) if joints else None
    steps = _StepRows(relay) if model.output_steps else None
    dp = ffi.new("nsed_data **")
    rc = lib.nsed_data_create(model._m, dp, err)
    if rc != NSED_OK:
        _raise(rc, _str(err.message))
    try:
        obs = rows.obs if rows is not None else lib.nsed_recorder_observer(rec)
        if steps is not None:
            obs = steps.attach(obs)
        rc = lib.nsed_simulate(model._m, dp[0], obs, err)
        message = ffi.string(err.message)
        if not relay.interrupted:
            relay.raise_pending()
        if lib.nsed_recorder_status(rec, err) != NSED_OK:
            _raise(err.status, _str(err.message))
        trajectory, contacts, events = _recorded(model, rec)
        summary = _summary(model, dp[0], rc, message)
        from .contact_problem import failed_problem_of  # it imports this module
        failed = failed_problem_of(dp[0]) if rc != NSED_OK else None
    finally:
        lib.nsed_data_free(dp)
    result = Result(trajectory, contacts, events, summary,
                    joints=rows.array(model, trajectory) if rows is not None else None,
                    steps=steps.array(model) if steps is not None else None)
    result.failed_event_problem = failed
    if relay.interrupted:
        relay.raise_interrupt(message.decode("utf-8", "replace"), result)
    if rc != NSED_OK and check:
        _raise(rc, message.decode("utf-8", "replace"), result)
    return result


def _run_to_dir(model, outdir, progress, check):
    relay = _Progress(progress)
    opt, opt_buf = new_padded("nsed_run_options")
    lib.nsed_run_options_default(opt)
    path_c = ffi.new("char[]", model.path.encode()) if model.path is not None else ffi.NULL
    text = model.problem_text()
    text_c = ffi.new("char[]", text) if text is not None else ffi.NULL
    keep = [ffi.new("char[]", o.encode()) for o in model.overrides]
    arr = ffi.new("const char *[]", keep) if keep else ffi.NULL
    opt.problem_path = path_c
    opt.problem_text = text_c
    opt.problem_len = len(text) if text is not None else 0
    opt.overrides = arr
    opt.noverrides = len(keep)
    opt.progress = relay.callback
    opt.interrupt = relay.interrupt
    res = ffi.new("nsed_run_result *")
    err = ffi.new("nsed_error *")
    rc = lib.nsed_run_problem(model._m, outdir.encode(), opt, res, err)
    if not (relay.interrupted and res.written):
        relay.raise_pending()
    if rc != NSED_OK and not res.written:
        _raise(rc, _str(err.message))
    result = read_result(outdir)
    name = result.summary.get("failed_event_problem")
    if name:
        from .contact_problem import read_contact_problem  # it imports this module
        result.failed_event_problem = read_contact_problem(os.path.join(outdir, name))
    if relay.interrupted:
        relay.raise_interrupt(_str(err.message), result)
    if rc != NSED_OK and check:
        _raise(rc, _str(err.message), result)
    return result
