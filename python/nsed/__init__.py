"""nsed from Python: load a problem file, override parameters, run, get numpy arrays.

    import nsed
    r = nsed.run("problems/sphere_slide_roll.yaml",
                 overrides={"contacts.ball_floor.mu": 0.2, "solver.t_end": 0.5})
    r.trajectory["ball.vx"], r.contacts["slip_speed"], r.events["kind"], r.summary["events"]

The library is called in-process through cffi (ABI mode, nothing to
compile); libnsed is found through $NSED_LIBRARY, else the repository's
build/src/libnsed.so, else the system library path. docs/python.md.
"""

from ._core import (BODY_FIELDS, CONTACT_COLUMNS, EVENT_COLUMNS, LIBRARY_PATH, InputError,
                    Model, NsedError, NsedIOError, Result, SimulationError, load,
                    override_strings, read_result, run, version)
from ._version import __version__

__all__ = ["run", "load", "version", "read_result", "override_strings", "Model", "Result",
           "NsedError", "InputError", "NsedIOError", "SimulationError", "BODY_FIELDS",
           "CONTACT_COLUMNS", "EVENT_COLUMNS", "LIBRARY_PATH", "__version__"]
