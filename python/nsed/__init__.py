"""nsed from Python: load a problem file, override parameters, run, get numpy arrays.

    import nsed
    r = nsed.run("problems/sphere_slide_roll.yaml",
                 overrides={"contacts.ball_floor.mu": 0.2, "solver.t_end": 0.5})
    r.trajectory["ball.vx"], r.contacts["slip_speed"], r.events["kind"], r.summary["events"]

Problems may also come as Python data (nsed.from_dict, or a dict given to
nsed.load and nsed.run) or be built without any file (nsed.ModelBuilder,
over the C definition structs).

The library is called in-process through cffi (ABI mode, nothing to
compile); libnsed is found through $NSED_LIBRARY, else the repository's
build/src/libnsed.so, else the system library path, when a name that needs
it is first used (nsed.run, nsed.load, ...). Reading results
(nsed.read_result, nsed.results) and plotting them (nsed.plotting) need no
libnsed. docs/python.md.
"""

from ._version import __version__
from .results import (BODY_FIELDS, CONTACT_COLUMNS, EVENT_COLUMNS, Result, ResultError,
                      read_result)

# Loaded from ._core (which loads libnsed) on first use.
_CORE = ("run", "load", "load_string", "from_dict", "dict_text", "assemble", "ASSEMBLIES",
         "override_strings", "Model", "NsedError", "InputError", "NsedIOError",
         "SimulationError", "LIBRARY_PATH")
# Loaded from .contact_problem (which loads libnsed) on first use.
_CP = ("ContactProblem", "read_contact_problem", "write_contact_problem", "solve_contact_problem")
# Loaded from .builder (which loads libnsed) on first use.
_BUILDER = ("ModelBuilder", "quat_from_axis_angle", "Shape", "Sphere", "Disk", "Cylinder",
            "Box", "Point", "Roller", "Capsule", "Ellipsoid", "Superellipsoid", "Law", "Constant", "Sine", "Piecewise", "Drive",
            "Feedback", "Table")


def __getattr__(name):
    if name in _CORE:
        from . import _core
        return getattr(_core, name)
    if name in _BUILDER:
        from . import builder
        return getattr(builder, name)
    if name in _CP:
        from . import contact_problem
        return getattr(contact_problem, name)
    raise AttributeError(f"module 'nsed' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_CORE) | set(_BUILDER) | set(_CP))


def version():
    """The nsed version this package belongs to (e.g. "0.4.0")."""
    return __version__


__all__ = ["run", "load", "load_string", "from_dict", "dict_text", "assemble", "ASSEMBLIES",
           "version", "read_result", "override_strings", "Model", "Result",
           "NsedError", "InputError", "NsedIOError", "SimulationError", "ResultError",
           "BODY_FIELDS", "CONTACT_COLUMNS", "EVENT_COLUMNS", "LIBRARY_PATH", "__version__",
           *_BUILDER, *_CP]
