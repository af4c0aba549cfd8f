"""Event problems as contact-problem files (docs/complementarity.md,
"Contact-problem files"): read one (a failed run's failed_event_problem.txt,
or any written by nsed), write one, and solve it in any friction model and
LCP path, with the checks a run makes. The C functions do the work
(nsed_contact_problem_read / _write, nsed_contact_solve_accel / _impact),
so a problem solved here is solved exactly as in a run and as `nsed cp`.
"""
import numpy as np

from ._core import NSED_ERR_INPUT, NSED_OK, _raise, _str, lib
from ._ffi import ffi, new_padded

KINDS = ("stick_candidate", "slipping", "frictionless")
MODES = ("open", "stick", "slip")
MODELS = {"face": 0, "vertex": 1, "cone": 2}
PATHS = {"auto": 0, "siconos": 1, "nsed": 2, "enum": 3, "milp": 4}


class ContactProblem:
    """One event problem: G ((3 nc + nw) square), b, the contacts (dicts:
    kind, mu, mu0, slip_dir, restitution), the torsional rows (dicts:
    contact, kind, mu, sign) and its level (impact: velocity level)."""

    def __init__(self, G, b, contacts, spins=(), impact=False):
        self.G = np.array(G, dtype=float)
        self.b = np.array(b, dtype=float)
        self.contacts = [dict(c) for c in contacts]
        self.spins = [dict(w) for w in spins]
        self.impact = bool(impact)
        n = 3 * len(self.contacts) + len(self.spins)
        if self.G.shape != (n, n) or self.b.shape != (n,):
            raise ValueError(f"{len(self.contacts)} contacts and {len(self.spins)} spins need G of "
                             f"{n} x {n} and b of {n}, not {self.G.shape} and {self.b.shape}")

    def __repr__(self):
        return (f"ContactProblem({len(self.contacts)} contacts, {len(self.spins)} spins, "
                f"{'impact' if self.impact else 'acceleration'} level)")

    def _c(self):
        """The C struct and the buffers it points into (keep both alive)."""
        nc, nw = len(self.contacts), len(self.spins)
        G = np.ascontiguousarray(self.G.T)  # column-major
        b = np.ascontiguousarray(self.b)
        cs = ffi.new("nsed_cp_contact[]", max(nc, 1))
        for i, c in enumerate(self.contacts):
            cs[i].kind = KINDS.index(c.get("kind", "stick_candidate"))
            cs[i].mu = c.get("mu", 0.0)
            cs[i].mu0 = c.get("mu0", c.get("mu", 0.0))
            cs[i].slip_dir = list(c.get("slip_dir", (0.0, 0.0)))
            cs[i].restitution = c.get("restitution", 0.0)
        ws = ffi.new("nsed_cp_spin[]", max(nw, 1))
        for k, w in enumerate(self.spins):
            ws[k].contact = w["contact"]
            ws[k].kind = KINDS.index(w.get("kind", "stick_candidate"))
            ws[k].mu = w.get("mu", 0.0)
            ws[k].sign = w.get("sign", 0.0)
        p = ffi.new("nsed_contact_problem *")
        p.nc, p.nw = nc, nw
        p.G = ffi.cast("const double *", ffi.from_buffer(G))
        p.b = ffi.cast("const double *", ffi.from_buffer(b))
        p.contacts = cs
        p.spins = ws if nw else ffi.NULL
        return p, (G, b, cs, ws)


def _copied(p, impact):
    """A ContactProblem holding copies of a C nsed_contact_problem's arrays."""
    nc, nw = p.nc, p.nw
    n = 3 * nc + nw
    G = np.frombuffer(ffi.buffer(p.G, 8 * n * n), dtype=float).reshape(n, n).T.copy()
    b = np.frombuffer(ffi.buffer(p.b, 8 * n), dtype=float).copy()
    contacts = [{"kind": KINDS[p.contacts[i].kind], "mu": p.contacts[i].mu,
                 "mu0": p.contacts[i].mu0, "slip_dir": tuple(p.contacts[i].slip_dir),
                 "restitution": p.contacts[i].restitution} for i in range(nc)]
    spins = [{"contact": p.spins[k].contact, "kind": KINDS[p.spins[k].kind],
              "mu": p.spins[k].mu, "sign": p.spins[k].sign} for k in range(nw)]
    return ContactProblem(G, b, contacts, spins, impact=bool(impact))


def read_contact_problem(path):
    """The contact-problem file at path as a ContactProblem. InputError
    (naming file and line) for a malformed file, NsedIOError if unreadable."""
    f = ffi.new("nsed_contact_problem_file *")
    err = ffi.new("nsed_error *")
    rc = lib.nsed_contact_problem_read(str(path).encode(), f, err)
    if rc != NSED_OK:
        _raise(rc, _str(err.message))
    try:
        return _copied(f.problem, f.impact)
    finally:
        lib.nsed_contact_problem_file_free(f)


def failed_problem_of(d):
    """The event problem a run on the C data d could not solve
    (nsed_data_failed_problem), copied, or None."""
    p = ffi.new("nsed_contact_problem *")
    impact = ffi.new("int *")
    if not lib.nsed_data_failed_problem(d, p, impact):
        return None
    return _copied(p, impact[0])


def write_contact_problem(path, problem, comment=None):
    """Write problem to path (every number exact; comment as '#' lines),
    atomically."""
    p, keep = problem._c()
    err = ffi.new("nsed_error *")
    rc = lib.nsed_contact_problem_write(str(path).encode(), p, int(problem.impact),
                                        comment.encode() if comment else ffi.NULL, err)
    if rc != NSED_OK:
        _raise(rc, _str(err.message))


def solve_contact_problem(problem, model="face", sides=8, path="auto", tol=1e-9,
                          max_pivots=10000, cone_tol=1e-12, lcps=False):
    """Solve a ContactProblem (or the file at a path) as a run would, every
    answer verified. Returns a dict: solved (bool), status (the C status
    name), message, residual, lcp_size, pivots, path; when solved also
    lambda and a (numpy, 3 nc + nw: per contact n, t1, t2, then the spins),
    modes and spin_modes ("open", "stick", "slip"). An unsolved problem is
    an answer (solved False, with nsed's message), not an exception; bad
    input (the solver's checks, an unknown model or path) raises. With
    lcps=True also "lcps": every LCP the solve posed, in order, each a dict
    form ("face", "vertex" or "face-as-vertex"), M (n x n), q (what
    `nsed cp --write-lcp` writes; w = M z + q)."""
    if not isinstance(problem, ContactProblem):
        problem = read_contact_problem(problem)
    if model not in MODELS or path not in PATHS:
        raise ValueError(f"model {model!r} (face, vertex or cone), path {path!r} "
                         f"(auto, siconos, nsed or enum)")
    s, s_buf = new_padded("nsed_complementarity_settings")
    lib.nsed_complementarity_default_settings(s)
    s.model, s.sides, s.path = MODELS[model], sides, PATHS[path]
    s.tol, s.max_pivots, s.cone_tol = tol, max_pivots, cone_tol
    err = ffi.new("nsed_error *")
    nc, nw = len(problem.contacts), len(problem.spins)
    sp = ffi.new("nsed_contact_solver **")
    rc = lib.nsed_contact_solver_create(s, nc, sp, err)
    if rc != NSED_OK:
        _raise(rc, _str(err.message))
    posed = []

    def observe(user, form, n, M, q):
        M = np.frombuffer(ffi.buffer(M, 8 * n * n), dtype=float).reshape(n, n).T.copy()
        posed.append({"form": _str(form), "M": M,
                      "q": np.frombuffer(ffi.buffer(q, 8 * n), dtype=float).copy()})
        return 0

    observer = ffi.callback("int(void *, const char *, int, const double *, const double *)", observe)
    if lcps:
        lib.nsed_contact_solver_set_lcp_observer(sp[0], observer, ffi.NULL)
    try:
        n = 3 * nc + nw
        lam, a = np.zeros(n), np.zeros(n)
        mode, wmode = ffi.new("nsed_cp_mode[]", max(nc, 1)), ffi.new("nsed_cp_mode[]", max(nw, 1))
        dirs, wsign = ffi.new("double[]", max(2 * nc, 1)), ffi.new("double[]", max(nw, 1))
        sol = ffi.new("nsed_contact_solution *")
        setattr(sol, "lambda", ffi.cast("double *", ffi.from_buffer(lam)))  # a Python keyword
        sol.a = ffi.cast("double *", ffi.from_buffer(a))
        sol.mode, sol.slip_dir, sol.spin_mode, sol.spin_sign = mode, dirs, wmode, wsign
        st = ffi.new("nsed_lcp_stats *")
        p, keep = problem._c()
        solve = lib.nsed_contact_solve_impact if problem.impact else lib.nsed_contact_solve_accel
        rc = solve(sp[0], p, sol, st, err)
    finally:
        lib.nsed_contact_solver_free(sp)
    out = {"solved": rc == NSED_OK, "status": _str(lib.nsed_status_name(rc)),
           "message": _str(err.message) if rc != NSED_OK else "", "residual": st.residual,
           "lcp_size": st.lcp_size, "pivots": st.pivots,
           "path": _str(st.path) if st.path != ffi.NULL else "none"}
    if lcps:
        out["lcps"] = posed
    if rc == NSED_ERR_INPUT:  # the problem itself is bad
        _raise(rc, out["message"])
    if rc == NSED_OK:
        out.update({"lambda": lam, "a": a, "modes": [MODES[mode[i]] for i in range(nc)],
                    "spin_modes": [MODES[wmode[k]] for k in range(nw)]})
    return out
