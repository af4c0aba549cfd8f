"""Models without a file: a builder over libnsed's definition structs.

    import nsed
    m = nsed.ModelBuilder()
    m.body(name="ball", mass=1, shape=nsed.Sphere(0.1), position=[0, 0, 0.1], velocity=[2, 0, 0])
    m.contact(name="ball_floor", body="ball", mu=0.3)
    m.options(t_end=1, output_dt=0.01)
    r = m.build().run()

Each call fills one C definition struct of include/nsed/model.h
(nsed_body_def, nsed_plane_def, nsed_joint_def, nsed_force_def,
nsed_contact_def; options: nsed_options), starting from the library's own
defaults (nsed_body_def_default, ...), keyword for field; build() hands
them to nsed_model_create, nsed_model_add_body/joint/force/plane/contact
(in that order, as the problem loader, so the calls may come in any
order), nsed_model_set_options and nsed_model_finalize, and checks the
initial state as the problem loader does. A contact on a body whose shape
touches with several features (nsed_shape_features: a box's eight
vertices, a cylinder's two rims, a capsule's two end caps) given without
a feature becomes its features' contacts NAME.v0 .. NAME.v7,
NAME.rim0/rim1 or NAME.end0/end1 (nsed_contact_feature), as in a problem
file. Its Model is the class nsed.load returns. Python types are checked
at each call (InputError naming the item and field, TypeError for an
unknown keyword); what the library refuses comes from build() as
InputError with the library's message ("body 'ball': mass must be a
positive number, got -1").

Enumerated fields take the words of problem files: shape types from
nsed_shape_type_name ("sphere", ...), joint types from nsed_joint_type_name
("revolute", ...), contact laws from nsed_contact_law_name, integrators from
nsed_integrator_name, friction models from nsed_friction_model_name
("polygon_face", "polygon_vertex", "exact_cone"), tracking from
nsed_contact_tracking_name (and "inherit"), force types "force", "torque",
"spring", LCP paths "auto", "siconos", "nsed", "enum", "milp", event resolvers
"lcp", "trial", servo levels "position", "acceleration", drive types
"feedback", "table" (and "none") and table inputs "coordinate", "rate".

Joint drives (nsed_joint_drive: a torque about a joint's axis, drive=, or a
force along it, axial_drive=, of time, the joint coordinate and its rate)
are given as nsed.Feedback(k, c, reference, feedforward) or
nsed.Table(of, at, values), or as dicts with a problem file's keys
({"type": "feedback", "k": 4, ...}). docs/python.md, "Building a model".
"""

import difflib
import math
import operator

from ._core import InputError, Model, NSED_ERR_INPUT, NSED_OK, _free_model, _raise, _str, lib
from ._ffi import ffi, new_padded

NAME_MAX = lib.NSED_NAME_MAX


# ---------------------------------------------------------------------------
# Names of enumerated values: the library's, where it has a function for them
# ---------------------------------------------------------------------------

def _names_from(fn):
    out = {}
    for i in range(64):
        name = _str(fn(i))
        if name == "unknown":
            break
        out[name] = i
    return out


SHAPE_TYPES = _names_from(lib.nsed_shape_type_name)
JOINT_TYPES = _names_from(lib.nsed_joint_type_name)
CONTACT_LAWS = _names_from(lib.nsed_contact_law_name)
INTEGRATORS = _names_from(lib.nsed_integrator_name)
STEP_CONTROLLERS = _names_from(lib.nsed_step_controller_name)
FRICTION_MODELS = _names_from(lib.nsed_friction_model_name)
TRACKING = dict(_names_from(lib.nsed_contact_tracking_name), inherit=lib.NSED_TRACKING_INHERIT)
FORCE_TYPES = {"force": lib.NSED_FORCE_BODY_FORCE, "torque": lib.NSED_FORCE_BODY_TORQUE,
               "spring": lib.NSED_FORCE_SPRING}
LCP_PATHS = {"auto": lib.NSED_LCP_PATH_AUTO, "siconos": lib.NSED_LCP_PATH_SICONOS_LEMKE,
             "nsed": lib.NSED_LCP_PATH_NSED_LEMKE, "enum": lib.NSED_LCP_PATH_ENUM,
             "milp": lib.NSED_LCP_PATH_MILP}
EVENT_RESOLVERS = {"lcp": lib.NSED_RESOLVER_LCP, "trial": lib.NSED_RESOLVER_TRIAL}
LAW_TYPES = {"constant": lib.NSED_LAW_CONSTANT, "sine": lib.NSED_LAW_SINE,
             "piecewise": lib.NSED_LAW_PIECEWISE}
SERVO_LEVELS = {"position": lib.NSED_SERVO_POSITION,
                "acceleration": lib.NSED_SERVO_ACCELERATION}
DRIVE_TYPES = {"none": lib.NSED_DRIVE_NONE, "feedback": lib.NSED_DRIVE_FEEDBACK,
               "table": lib.NSED_DRIVE_TABLE}
DRIVE_INPUTS = {"coordinate": lib.NSED_DRIVE_OF_COORDINATE, "rate": lib.NSED_DRIVE_OF_RATE}
ROTORS = {"none": lib.NSED_ROTOR_NONE, "x": lib.NSED_ROTOR_X, "y": lib.NSED_ROTOR_Y,
          "z": lib.NSED_ROTOR_Z}


# ---------------------------------------------------------------------------
# Shapes and time laws (plain values; turned into C structs by the builder)
# ---------------------------------------------------------------------------

class Shape:
    """A body's shape (nsed_shape): type ("none", "sphere", "disk",
    "cylinder", "box", "point", "roller", "capsule", "ellipsoid",
    "superellipsoid"), radius, length (cylinder, capsule), half (box half
    extents, ellipsoid and superellipsoid semi-axes), rollers and psi
    (roller), exponent (superellipsoid). Sphere(r), Disk(r),
    Cylinder(r, length), Box(half), Point(), Roller(r, rollers, psi),
    Capsule(r, length), Ellipsoid(semi_axes),
    Superellipsoid(semi_axes, exponent) make the usual ones."""

    def __init__(self, type="none", radius=0.0, length=0.0, half=(0.0, 0.0, 0.0), rollers=0,
                 psi=0.0, exponent=0.0):
        self.type = type
        self.radius = radius
        self.length = length
        self.half = half
        self.rollers = rollers
        self.psi = psi
        self.exponent = exponent

    def __repr__(self):
        return (f"Shape({self.type!r}, radius={self.radius!r}, length={self.length!r}, "
                f"half={self.half!r}, rollers={self.rollers!r}, psi={self.psi!r}, "
                f"exponent={self.exponent!r})")


def Sphere(radius):
    """A solid sphere (contacts on its surface)."""
    return Shape("sphere", radius=radius)


def Disk(radius):
    """A thin disk, axis = body z (contacts on its rim)."""
    return Shape("disk", radius=radius)


def Cylinder(radius, length):
    """A solid cylinder of length `length` along body z (contacts on its two
    rims, the circles at z = -length/2 and +length/2: features 0 and 1)."""
    return Shape("cylinder", radius=radius, length=length)


def Box(half):
    """A box of half extents [hx, hy, hz] along the body axes (contacts at
    its eight vertices: feature k has +half[i] along body axis i where bit i
    of k is set, -half[i] where it is clear)."""
    return Shape("box", half=half)


def Capsule(radius, length):
    """A segment of length `length` along body z swept by a sphere of radius
    `radius` (a cylinder with hemispherical ends; contacts on its two end
    caps, the spheres at z = -length/2 and +length/2: features 0 and 1)."""
    return Shape("capsule", radius=radius, length=length)


def Ellipsoid(semi_axes):
    """A solid ellipsoid of semi-axes [a, b, c] along the body axes
    (contacts at its point nearest the other surface, which rolls)."""
    return Shape("ellipsoid", half=semi_axes)


def Superellipsoid(semi_axes, exponent):
    """The solid |x/a|^p + |y/b|^p + |z/c|^p <= 1, p = exponent in [2, 100]
    (2: the ellipsoid; large: a box with rounded edges), contacts like the
    ellipsoid's."""
    return Shape("superellipsoid", half=semi_axes, exponent=exponent)


def Point():
    """A contact point at the centre of mass (give the body's inertia)."""
    return Shape("point")


def Roller(radius, rollers, psi=0.0):
    """An omni-wheel roller of a wheel of radius `radius` with `rollers`
    rollers, axis = body x, inclined by psi (rad)."""
    return Shape("roller", radius=radius, rollers=rollers, psi=psi)


class Law:
    """A scalar time law (nsed_law): "constant" (value), "sine"
    (offset + amplitude sin(omega t + phase)) or "piecewise" (linear
    through (times[i], values[i])). Constant(v), Sine(...), Piecewise(...)
    make them; a plain number is a constant law wherever a law is taken."""

    def __init__(self, type="constant", value=0.0, offset=0.0, amplitude=0.0, omega=0.0,
                 phase=0.0, times=(), values=()):
        self.type = type
        self.value = value
        self.offset = offset
        self.amplitude = amplitude
        self.omega = omega
        self.phase = phase
        self.times = times
        self.values = values

    def __repr__(self):
        if self.type == "constant":
            return f"Constant({self.value!r})"
        if self.type == "sine":
            return (f"Sine(amplitude={self.amplitude!r}, omega={self.omega!r}, "
                    f"phase={self.phase!r}, offset={self.offset!r})")
        return f"Law({self.type!r}, times={self.times!r}, values={self.values!r})"


def Constant(value):
    return Law("constant", value=value)


def Sine(amplitude, omega, phase=0.0, offset=0.0):
    """offset + amplitude * sin(omega * t + phase) (omega rad/s, phase rad)."""
    return Law("sine", amplitude=amplitude, omega=omega, phase=phase, offset=offset)


def Piecewise(times, values):
    """Piecewise linear through (times[i], values[i]), constant outside."""
    return Law("piecewise", times=times, values=values)


class Drive:
    """A joint drive (nsed_joint_drive): a generalised force f along one
    joint coordinate q, applied equal and opposite to the joint's bodies.
    As a joint's drive, q is the angle of body_b about the axis (rad,
    counted from the initial configuration, continuous over turns) and f a
    torque (N m); as its axial_drive, q is the coordinate of anchor_b along
    axis_a from anchor_a (m) and f a force (N).

    type "feedback": f = feedforward(t) - k (q - reference(t))
        - c (dq/dt - reference'(t)), reference and feedforward time laws (a
        number, nsed.Sine(...), ...): a PD controller, or a spring-damper
        with an offset (a constant reference).
    type "table": f = table(q) (of="coordinate") or table(dq/dt)
        (of="rate"), piecewise linear through (at[i], values[i]), at
        strictly increasing, constant outside.
    type "none": no drive (the default of nsed_joint_def).

    Feedback(...) and Table(...) make them; a field left None is not given
    (the C default: 0, the constant law 0, "coordinate"). A dict with a
    problem file's keys ({"type": "table", "of": "rate", "at": [...],
    "values": [...]}) is taken wherever a Drive is."""

    FEEDBACK_FIELDS = ("k", "c", "reference", "feedforward")
    TABLE_FIELDS = ("of", "at", "values")

    def __init__(self, type="none", k=None, c=None, reference=None, feedforward=None, of=None,
                 at=None, values=None):
        self.type = type
        self.k = k
        self.c = c
        self.reference = reference
        self.feedforward = feedforward
        self.of = of
        self.at = at
        self.values = values

    def given(self):
        """{field: value} of the fields given (not None), type first."""
        out = {"type": self.type}
        for f in self.FEEDBACK_FIELDS + self.TABLE_FIELDS:
            if getattr(self, f) is not None:
                out[f] = getattr(self, f)
        return out

    def __repr__(self):
        fields = self.given()
        kind = fields.pop("type")
        args = ", ".join(f"{k}={v!r}" for k, v in fields.items())
        if kind == "feedback":
            return f"Feedback({args})"
        if kind == "table":
            return f"Table({args})"
        return f"Drive({kind!r}{', ' if args else ''}{args})"


def Feedback(k=0.0, c=0.0, reference=0.0, feedforward=0.0):
    """f = feedforward(t) - k (q - reference(t)) - c (dq/dt - reference'(t)):
    a PD controller tracking reference (a time law) with a feedforward
    (a time law), or with a constant reference a spring-damper with an
    offset; k, c >= 0 (N m/rad and N m s/rad, or N/m and N s/m)."""
    return Drive("feedback", k=k, c=c, reference=reference, feedforward=feedforward)


def Table(of, at, values):
    """f = piecewise linear through (at[i], values[i]) of the joint
    coordinate (of="coordinate") or its rate (of="rate"), constant
    outside; 2 to 64 points, at strictly increasing."""
    return Drive("table", of=of, at=at, values=values)


def quat_from_axis_angle(axis, angle_deg=None, angle_rad=None):
    """The quaternion [q0, q1, q2, q3] (scalar first) of a rotation by an
    angle about axis, with the arithmetic of a problem file's orientation
    {axis: [x, y, z], angle_deg: a} (or angle_rad), so a built body gets
    the file's numbers to the bit."""
    if (angle_deg is None) == (angle_rad is None):
        raise TypeError("give the angle as angle_deg or angle_rad")
    ax = _vector(axis, 3, "quat_from_axis_angle", "axis")
    angle = _number(angle_deg if angle_rad is None else angle_rad, "quat_from_axis_angle",
                    "angle_deg" if angle_rad is None else "angle_rad")
    if angle_rad is None:
        angle *= math.pi / 180.0
    norm = math.sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2])
    if not norm > 0:
        raise InputError(NSED_ERR_INPUT, f"quat_from_axis_angle: axis: expected a non-zero "
                         f"vector, got {axis!r}")
    s = math.sin(0.5 * angle) / norm
    return [math.cos(0.5 * angle), s * ax[0], s * ax[1], s * ax[2]]


# ---------------------------------------------------------------------------
# Filling C structs from Python values, with messages naming item and field
# ---------------------------------------------------------------------------

def _bad(owner, field, what, value):
    raise InputError(NSED_ERR_INPUT, f"{owner}: {field}: expected {what}, got {value!r}")


def _number(value, owner, field):
    if isinstance(value, (str, bytes, bool)) or value is None:
        _bad(owner, field, "a number", value)
    try:
        return float(value)
    except (TypeError, ValueError):
        _bad(owner, field, "a number", value)


def _integer(value, owner, field):
    if isinstance(value, bool):
        _bad(owner, field, "an integer", value)
    try:
        return operator.index(value)
    except TypeError:
        pass
    if isinstance(value, float) and value.is_integer():
        return int(value)
    _bad(owner, field, "an integer", value)


def _vector(value, n, owner, field):
    if isinstance(value, (str, bytes)):
        _bad(owner, field, f"{n} numbers", value)
    try:
        items = list(value)
    except TypeError:
        _bad(owner, field, f"{n} numbers", value)
    if len(items) != n:
        _bad(owner, field, f"{n} numbers", value)
    return [_number(x, owner, field) for x in items]


def _name(value, owner, field):
    if not isinstance(value, str):
        _bad(owner, field, "a name (a string)", value)
    b = value.encode("utf-8")
    if len(b) >= NAME_MAX:
        raise InputError(NSED_ERR_INPUT, f"{owner}: {field}: names are at most {NAME_MAX - 1} "
                         f"bytes; this one has {len(b)}")
    # The problem loader's rule (nsedi_read_name): names become CSV headers.
    if any(c in ',"' or ord(c) < 0x20 for c in value):
        raise InputError(NSED_ERR_INPUT, f"{owner}: {field}: names may not contain commas, "
                         "quotes or control characters (they become CSV column headers), "
                         f"got {value!r}")
    return b


def _word(value, table, owner, field):
    if isinstance(value, str) and value in table:
        return table[value]
    close = difflib.get_close_matches(str(value), list(table), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise InputError(NSED_ERR_INPUT, f"{owner}: {field}: expected one of "
                     f"{', '.join(table)}, got {value!r}{hint}")


def _not_a_drive(value, owner, field):
    """A drive given where a time law is expected: say where drives go."""
    kind = value.get("type") if isinstance(value, dict) else \
        value.type if isinstance(value, Drive) else None
    if isinstance(value, Drive) or kind in ("feedback", "table"):
        raise InputError(NSED_ERR_INPUT, f"{owner}: {field}: expected a time law, got a drive "
                         f"{value!r}; a joint takes drives as drive= (about the axis) and "
                         "axial_drive= (along it)")


def _fill_law(law, value, owner, field):
    _not_a_drive(value, owner, field)
    if isinstance(value, dict):
        try:
            value = Law(**value)
        except TypeError as e:
            raise InputError(NSED_ERR_INPUT, f"{owner}: {field}: {e}") from None
    if not isinstance(value, Law):
        value = Constant(_number(value, owner, field))
    law.type = _word(value.type, LAW_TYPES, owner, f"{field}.type")
    law.value = _number(value.value, owner, f"{field}.value")
    law.offset = _number(value.offset, owner, f"{field}.offset")
    law.amplitude = _number(value.amplitude, owner, f"{field}.amplitude")
    law.omega = _number(value.omega, owner, f"{field}.omega")
    law.phase = _number(value.phase, owner, f"{field}.phase")
    times = [_number(x, owner, f"{field}.times") for x in value.times]
    values = [_number(x, owner, f"{field}.values") for x in value.values]
    if len(times) != len(values):
        raise InputError(NSED_ERR_INPUT, f"{owner}: {field}: {len(times)} times but "
                         f"{len(values)} values")
    if len(times) > lib.NSED_LAW_MAX_POINTS:
        raise InputError(NSED_ERR_INPUT, f"{owner}: {field}: at most "
                         f"{lib.NSED_LAW_MAX_POINTS} points, got {len(times)}")
    law.npoints = len(times)
    for i, (t, v) in enumerate(zip(times, values)):
        law.times[i] = t
        law.values[i] = v


def _points(value, owner, field):
    """A list of numbers (a table's at or values)."""
    if isinstance(value, (str, bytes, dict)):
        _bad(owner, field, "a list of numbers", value)
    try:
        items = list(value)
    except TypeError:
        _bad(owner, field, "a list of numbers", value)
    return [_number(x, owner, field) for x in items]


def _fill_drive(drive, value, owner, field):
    if isinstance(value, dict):
        keys = ("type",) + Drive.FEEDBACK_FIELDS + Drive.TABLE_FIELDS
        for k in value:
            if k not in keys:
                close = difflib.get_close_matches(str(k), keys, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise InputError(NSED_ERR_INPUT, f"{owner}: {field}: unknown key {k!r}{hint}; "
                                 f"a drive's keys are {', '.join(keys)}")
        if "type" not in value:
            raise InputError(NSED_ERR_INPUT, f"{owner}: {field}.type: a drive needs a type "
                             f"({', '.join(DRIVE_TYPES)})")
        value = Drive(**value)
    if not isinstance(value, Drive):
        _bad(owner, field, "a drive (nsed.Feedback(...), nsed.Table(...) or a dict with "
             "their keys)", value)
    kind = _word(value.type, DRIVE_TYPES, owner, f"{field}.type")
    allowed = {lib.NSED_DRIVE_NONE: (), lib.NSED_DRIVE_FEEDBACK: Drive.FEEDBACK_FIELDS,
               lib.NSED_DRIVE_TABLE: Drive.TABLE_FIELDS}[kind]
    for f in Drive.FEEDBACK_FIELDS + Drive.TABLE_FIELDS:
        if getattr(value, f) is not None and f not in allowed:
            raise InputError(NSED_ERR_INPUT, f"{owner}: {field}.{f}: not a field of a "
                             f"{value.type!r} drive (its fields: {', '.join(allowed) or 'none'})")
    drive.type = kind
    if kind == lib.NSED_DRIVE_FEEDBACK:
        if value.k is not None:
            drive.k = _number(value.k, owner, f"{field}.k")
        if value.c is not None:
            drive.c = _number(value.c, owner, f"{field}.c")
        if value.reference is not None:
            _fill_law(drive.reference, value.reference, owner, f"{field}.reference")
        if value.feedforward is not None:
            _fill_law(drive.feedforward, value.feedforward, owner, f"{field}.feedforward")
    elif kind == lib.NSED_DRIVE_TABLE:
        for f in Drive.TABLE_FIELDS:
            if getattr(value, f) is None:
                raise InputError(NSED_ERR_INPUT, f"{owner}: {field}.{f}: a table drive needs "
                                 "of, at and values")
        drive.input = _word(value.of, DRIVE_INPUTS, owner, f"{field}.of")
        at = _points(value.at, owner, f"{field}.at")
        values = _points(value.values, owner, f"{field}.values")
        if not 2 <= len(at) <= lib.NSED_LAW_MAX_POINTS:
            raise InputError(NSED_ERR_INPUT, f"{owner}: {field}.at: expected 2 to "
                             f"{lib.NSED_LAW_MAX_POINTS} points, got {len(at)}")
        if len(values) != len(at):
            raise InputError(NSED_ERR_INPUT, f"{owner}: {field}: {len(at)} points in at but "
                             f"{len(values)} values")
        for i in range(1, len(at)):
            if not at[i] > at[i - 1]:
                raise InputError(NSED_ERR_INPUT, f"{owner}: {field}.at: must increase "
                                 f"strictly: {at[i]!r} does not follow {at[i - 1]!r}")
        _fill_law(drive.table, Piecewise(at, values), owner, f"{field}.table")


def _fill_shape(shape, value, owner):
    if isinstance(value, dict):
        try:
            value = Shape(**value)
        except TypeError as e:
            raise InputError(NSED_ERR_INPUT, f"{owner}: shape: {e}") from None
    if not isinstance(value, Shape):
        _bad(owner, "shape", "an nsed.Shape (nsed.Sphere(r), ...)", value)
    shape.type = _word(value.type, SHAPE_TYPES, owner, "shape.type")
    shape.radius = _number(value.radius, owner, "shape.radius")
    shape.length = _number(value.length, owner, "shape.length")
    shape.half = _vector(value.half, 3, owner, "shape.half")
    shape.rollers = _integer(value.rollers, owner, "shape.rollers")
    shape.psi = _number(value.psi, owner, "shape.psi")
    shape.exponent = _number(value.exponent, owner, "shape.exponent")


# How each field of a definition struct is filled: kind, and for vectors
# their length.
_BODY = {"name": ("name",), "mass": ("number",), "inertia": ("vector", 3),
         "shape": ("shape",), "position": ("vector", 3), "quat": ("vector", 4),
         "velocity": ("vector", 3), "angular_velocity": ("vector", 3),
         "rotor": ("word", ROTORS), "attached_to": ("name",)}
_JOINT = {"name": ("name",), "type": ("word", JOINT_TYPES), "body_a": ("name",),
          "body_b": ("name",), "anchor_a": ("vector", 3), "anchor_b": ("vector", 3),
          "axis_a": ("vector", 3), "axis_b": ("vector", 3), "spring_k": ("number",),
          "spring_c": ("number",), "rest_length": ("number",), "has_torque": ("flag",),
          "torque": ("law",), "servo_angle": ("law",), "servo_level": ("word", SERVO_LEVELS),
          "servo_kp": ("number",), "servo_kd": ("number",), "drive": ("drive",),
          "axial_drive": ("drive",)}
_FORCE = {"name": ("name",), "type": ("word", FORCE_TYPES), "body": ("name",),
          "body_b": ("name",), "direction": ("vector", 3), "direction_in_body": ("flag",),
          "point": ("vector", 3), "point_b": ("vector", 3), "magnitude": ("law",),
          "k": ("number",), "c": ("number",), "rest_length": ("number",)}
_CONTACT = {"name": ("name",), "body": ("name",), "other": ("name",), "mu": ("number",),
            "mu0": ("number",), "restitution": ("number",), "law": ("word", CONTACT_LAWS),
            "delta": ("number",), "stiffness": ("number",), "damping": ("number",),
            "tracking": ("word", TRACKING), "wheel": ("name",), "torsion": ("number",),
            "torsion_rate": ("number",), "feature": ("integer",)}
_PLANE = {"name": ("name",), "point": ("vector", 3), "normal": ("vector", 3),
          "velocity": ("vector", 3)}
_FRICTION = {"model": ("word", FRICTION_MODELS), "sides": ("integer",),
             "path": ("word", LCP_PATHS), "tol": ("number",), "max_pivots": ("integer",),
             "cone_tol": ("number",)}
_OPTIONS = {"gravity": ("vector", 3), "floor_normal": ("vector", 3),
            "floor_point": ("vector", 3), "floor_velocity": ("vector", 3),
            "friction": ("friction",), "integrator": ("word", INTEGRATORS),
            "t_end": ("number",), "rtol": ("number",), "atol": ("number",),
            "max_step": ("number",), "output_dt": ("number",), "baumgarte_eta": ("number",),
            "baumgarte_xi": ("number",), "baumgarte_gamma": ("number",),
            "contact_tol": ("number",), "slip_tol": ("number",),
            "slip_stop_speed": ("number",), "zeno_events": ("integer",),
            "zeno_window": ("number",), "zeno_velocity": ("number",),
            "max_events": ("integer",), "event_resolver": ("word", EVENT_RESOLVERS),
            "contact_tracking": ("word", TRACKING), "drift_tol": ("number",),
            "floor_spin": ("number",), "step_controller": ("word", STEP_CONTROLLERS),
            "output_steps": ("flag",)}


def _check_keys(fields, table, owner):
    for k in fields:
        if k not in table:
            close = difflib.get_close_matches(k, list(table), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise TypeError(f"{owner}: unknown field {k!r}{hint}; the fields are "
                            f"{', '.join(table)}")


def _fill(struct, fields, table, owner):
    for k, v in fields.items():
        kind = table[k]
        if kind[0] == "name":
            setattr(struct, k, _name(v, owner, k))
        elif kind[0] == "number":
            setattr(struct, k, _number(v, owner, k))
        elif kind[0] == "integer":
            setattr(struct, k, _integer(v, owner, k))
        elif kind[0] == "flag":
            setattr(struct, k, 1 if v else 0)
        elif kind[0] == "vector":
            setattr(struct, k, _vector(v, kind[1], owner, k))
        elif kind[0] == "word":
            setattr(struct, k, _word(v, kind[1], owner, k))
        elif kind[0] == "law":
            _fill_law(getattr(struct, k), v, owner, k)
        elif kind[0] == "drive":
            _fill_drive(getattr(struct, k), v, owner, k)
        elif kind[0] == "shape":
            _fill_shape(struct.shape, v, owner)
        elif kind[0] == "friction":
            if not isinstance(v, dict):
                _bad(owner, k, "a dict of nsed_complementarity_settings fields "
                     f"({', '.join(_FRICTION)})", v)
            _check_keys(v, _FRICTION, f"{owner} friction")
            _fill(struct.friction, v, _FRICTION, f"{owner} friction")


def _owner(kind, fields):
    name = fields.get("name")
    return f"{kind} {name!r}" if isinstance(name, str) else kind


class _Definition:
    """One definition: its fields as given and the C struct they fill."""

    def __init__(self, kind, ctype, default, table, fields):
        owner = _owner(kind, fields)
        _check_keys(fields, table, owner)
        self.kind = kind
        self.fields = dict(fields)
        self.struct, self._buf = new_padded(ctype)
        default(self.struct)
        _fill(self.struct, fields, table, owner)

    def __repr__(self):
        return f"{self.kind}({', '.join(f'{k}={v!r}' for k, v in self.fields.items())})"


# ---------------------------------------------------------------------------
# The builder
# ---------------------------------------------------------------------------

class ModelBuilder:
    """Builds a Model through libnsed's C API (include/nsed/model.h), one
    call per definition struct, fields as keywords; see the module doc and
    docs/python.md. build() may be called again after more calls (each
    build makes a new model from everything added so far)."""

    def __init__(self, name="<built>"):
        self.name = name
        self._defs = {"body": [], "plane": [], "joint": [], "force": [], "contact": []}
        self._options = {}

    # -- definitions -------------------------------------------------------

    def body(self, **fields):
        """A body (nsed_body_def): name, mass, inertia [J1, J2, J3] (all 0:
        from the shape), shape (nsed.Sphere(r), ...), position, quat
        [q0, q1, q2, q3] (scalar first), velocity, angular_velocity (body
        axes), rotor ("none", "x", "y", "z": a rotor about that body axis,
        docs/engine.md "Rotors"), attached_to (a body added before: the rotor
        is fixed to it, in reduced coordinates, docs/engine.md "Attached
        rotors"). Defaults: nsed_body_def_default (mass 1, at the origin, at
        rest, not a rotor, attached to nothing)."""
        d = _Definition("body", "nsed_body_def", lib.nsed_body_def_default, _BODY, fields)
        self._defs["body"].append(d)
        return self

    def plane(self, **fields):
        """A fixed plane bodies can touch besides the floor (nsed_plane_def:
        a wall, an incline, a belt): name, point (a point of it, world),
        normal (towards the side the bodies are on; any length > 0,
        normalised by the library), velocity (tangential velocity of its
        surface, perpendicular to normal). Contacts name it in other.
        Defaults: nsed_plane_def_default (through the origin, normal +z,
        still). The library refuses a zero normal, a normal velocity or a
        name a body or another plane has (or "floor"), at build()."""
        d = _Definition("plane", "nsed_plane_def", lib.nsed_plane_def_default, _PLANE, fields)
        self._defs["plane"].append(d)
        return self

    def joint(self, **fields):
        """A joint (nsed_joint_def): name, type ("revolute", "spherical",
        ...), body_a ("" or "ground": the world), body_b, anchor_a,
        anchor_b, axis_a, axis_b, spring_k, spring_c, rest_length, torque
        (a time law; sets has_torque), servo_angle (a law), servo_level
        ("position": the servo angle is a constraint, the default;
        "acceleration": d2phi/dt2 = a'' - servo_kd (dphi/dt - a') -
        servo_kp (phi - a), from the bodies' own initial angle), servo_kp,
        servo_kd (>= 0, acceleration level only), drive (a torque about the
        axis: revolute, cylindrical) and axial_drive (a force along it:
        cylindrical, prismatic), each nsed.Feedback(k, c, reference,
        feedforward) or nsed.Table(of, at, values) (see Drive). Defaults:
        nsed_joint_def_default (no drives). The library refuses a drive on
        a joint that cannot carry it, at build()."""
        if "torque" in fields and "has_torque" not in fields:
            fields = dict(fields, has_torque=True)
        d = _Definition("joint", "nsed_joint_def", lib.nsed_joint_def_default, _JOINT, fields)
        self._defs["joint"].append(d)
        return self

    def force(self, **fields):
        """A force (nsed_force_def): name, type ("force", "torque",
        "spring"), body, body_b (spring; "" or "ground": the world),
        direction, direction_in_body (bool), point, point_b, magnitude (a
        law), k, c, rest_length. Defaults: nsed_force_def_default."""
        d = _Definition("force", "nsed_force_def", lib.nsed_force_def_default, _FORCE, fields)
        self._defs["force"].append(d)
        return self

    def contact(self, **fields):
        """A contact (nsed_contact_def): name, body, other ("" or "floor":
        the floor; a plane of .plane(); else a sphere body), mu, mu0,
        restitution, law ("coulomb", "regularized", "compliant"), delta,
        stiffness, damping, tracking ("inherit", "explicit", "implicit",
        "differential"), wheel, torsion (m; regularized and compliant
        laws), torsion_rate (rad/s), feature (which part of a shape with
        several touches: a box's vertex 0..7, bit k set = +half[k] along
        body axis k; a cylinder's rim or a capsule's end cap 0 at
        z = -length/2, 1 at +length/2). Defaults: nsed_contact_def_default
        (mu = mu0 = 0.3, feature -1); as in a problem file, mu given
        without mu0 sets mu0 = mu, and a contact on a box, cylinder or
        capsule body without feature is, at build(), the contacts of all
        its features (nsed_contact_feature): NAME.v0 .. NAME.v7,
        NAME.rim0 and NAME.rim1, NAME.end0 and NAME.end1."""
        if "mu" in fields and "mu0" not in fields:
            fields = dict(fields, mu0=fields["mu"])
        d = _Definition("contact", "nsed_contact_def", lib.nsed_contact_def_default, _CONTACT,
                        fields)
        self._defs["contact"].append(d)
        return self

    def options(self, **fields):
        """Settings (nsed_options): gravity, floor_normal, floor_point,
        floor_velocity, friction (a dict: model, sides, path, tol,
        max_pivots, cone_tol), integrator, t_end, rtol, atol, max_step,
        output_dt, baumgarte_eta, baumgarte_xi, baumgarte_gamma,
        contact_tol, slip_tol, slip_stop_speed, zeno_events, zeno_window,
        zeno_velocity, max_events, event_resolver, contact_tracking,
        drift_tol, floor_spin, step_controller, output_steps (True: runs
        record Result.steps, one row per accepted step; arkode integrators
        only). Later calls add to (and override) earlier ones; the rest
        are nsed_options_default's."""
        merged = dict(self._options)
        for k, v in fields.items():
            if k == "friction" and isinstance(v, dict) and isinstance(merged.get(k), dict):
                v = dict(merged[k], **v)
            merged[k] = v
        _options_struct(merged)            # checked now, filled again at build
        self._options = merged
        return self

    # -- reading back --------------------------------------------------------

    def names(self, kind):
        """The names given to the definitions of a kind ("body", "plane",
        "joint", "force", "contact"), in order (a contact on a box, cylinder
        or capsule once, by the name given: the built Model's contacts hold
        its feature contacts)."""
        return [d.fields.get("name") for d in self._defs[kind]]

    def __repr__(self):
        plural = {"body": "bodies", "plane": "planes", "joint": "joints", "force": "forces",
                  "contact": "contacts"}
        parts = [f"{len(v)} {k if len(v) == 1 else plural[k]}" for k, v in self._defs.items()]
        return f"<nsed.ModelBuilder {self.name!r}: {', '.join(parts)}>"

    # -- building ------------------------------------------------------------

    def build(self, name=None):
        """The finalized Model: nsed_model_create, nsed_model_add_body for
        every body, then the joints, forces, planes and contacts (a contact
        without feature on a body whose shape has features as the contacts
        of all of them, by nsed_contact_feature), nsed_model_set_options,
        nsed_model_finalize, and the initial state checked
        (nsed_data_check_initial_state: no bodies starting
        interpenetrating). Raises InputError with the library's message."""
        err = ffi.new("nsed_error *")
        mp = ffi.new("nsed_model **")
        rc = lib.nsed_model_create(mp, err)
        if rc != NSED_OK:
            _raise(rc, _str(err.message))
        m = mp[0]
        try:
            adders = (("body", lib.nsed_model_add_body), ("joint", lib.nsed_model_add_joint),
                      ("force", lib.nsed_model_add_force), ("plane", lib.nsed_model_add_plane),
                      ("contact", lib.nsed_model_add_contact))
            for kind, add in adders:
                for d in self._defs[kind]:
                    for struct, _keep in (_features(m, d) if kind == "contact"
                                          else ((d.struct, None),)):
                        if add(m, struct, err) < 0:
                            _raise(err.status, _str(err.message))
            opt, keep = _options_struct(self._options)
            if lib.nsed_model_set_options(m, opt, err) != NSED_OK or \
                    lib.nsed_model_finalize(m, err) != NSED_OK:
                _raise(err.status, _str(err.message))
            _check_initial_state(m)
        except BaseException:
            _free_model(m)
            raise
        return Model._from_c(m, name if name is not None else self.name)


def _features(m, d):
    """The contact definitions d stands for in model m (its bodies added): a
    contact without feature (the default -1) on a body whose shape has
    nsed_shape_features(type) > 0 (a box, a cylinder, a capsule) is the
    contacts of all its features (nsed_contact_feature: NAME.v0 ..,
    NAME.rim0 .., NAME.end0 .., in place and in feature order, as the
    problem loader's expand_features) when it touches a plane or the floor;
    any other (a capsule against a capsule touches with its whole
    surface), itself (the library checks it). Pairs (struct, the buffer
    keeping it alive)."""
    if d.struct.feature != -1:
        return ((d.struct, None),)
    i = lib.nsed_model_find_body(m, d.struct.body)
    if i < 0 or lib.nsed_model_find_body(m, d.struct.other) >= 0:
        return ((d.struct, None),)
    shape = lib.nsed_model_body_def(m, i).shape.type
    n = lib.nsed_shape_features(shape)
    if n <= 0:
        return ((d.struct, None),)
    err = ffi.new("nsed_error *")
    out = []
    for f in range(n):
        c, buf = new_padded("nsed_contact_def")
        if lib.nsed_contact_feature(d.struct, shape, f, c, err) != NSED_OK:
            _raise(err.status, _str(err.message))
        out.append((c, buf))
    return out


def _options_struct(fields):
    """An nsed_options filled from nsed_options_default and fields."""
    _check_keys(fields, _OPTIONS, "options")
    opt, buf = new_padded("nsed_options")
    lib.nsed_options_default(opt)
    _fill(opt, fields, _OPTIONS, "options")
    return opt, buf


def _check_initial_state(m):
    err = ffi.new("nsed_error *")
    dp = ffi.new("nsed_data **")
    rc = lib.nsed_data_create(m, dp, err)
    if rc != NSED_OK:
        _raise(rc, _str(err.message))
    try:
        rc = lib.nsed_data_check_initial_state(m, dp[0], ffi.NULL, err)
    finally:
        lib.nsed_data_free(dp)
    if rc != NSED_OK:
        _raise(rc, _str(err.message))


__all__ = ["ModelBuilder", "quat_from_axis_angle", "Shape", "Sphere", "Disk", "Cylinder", "Box",
           "Point", "Roller", "Capsule", "Ellipsoid", "Law", "Constant", "Sine", "Piecewise", "Drive",
           "Feedback", "Table"]
