/* The complementarity layer: event problems of the contacts, built from the
 * engine's Delassus quantities and solved by Lemke (Siconos Numerics, with
 * nsed's own robust lexicographic Lemke as fallback) or by Siconos' fc3d for
 * the exact Coulomb cone. See docs/complementarity.md for the derivations.
 *
 * Interface with the engine (DESIGN.md §7). For nc contacts the engine gives
 *   G  (3nc x 3nc, column-major) and b (3nc)
 * with rows/columns ordered per contact i as (3i: normal n, 3i+1: t1, 3i+2: t2),
 * such that the relative quantity (acceleration for the acceleration problem,
 * post-impact velocity for the impact problem) of the contact points is
 *   a = G * lambda + b,
 * lambda being the contact force (or impulse) in the same (n, t1, t2) basis,
 * with bilateral-joint multipliers already eliminated. G is symmetric positive
 * semidefinite (it may be singular: redundant contacts).
 *
 * The solver object holds all workspace and the Siconos options, created once
 * and reused across events; no allocation happens per solve once it has seen
 * its largest problem. One solver per simulation data object (not thread-safe
 * to share). */
#ifndef NSED_COMPLEMENTARITY_H
#define NSED_COMPLEMENTARITY_H

#include "nsed/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How friction is represented in the event problem. */
typedef enum {
  NSED_FRICTION_POLYGON_FACE = 0,   /* circumscribed 4n*-gon, face (saturation) form, Xu et al. §4.2 */
  NSED_FRICTION_POLYGON_VERTEX = 1, /* inscribed polygon, vertex form lambda_T = D beta (Stewart-Trinkle) */
  NSED_FRICTION_EXACT_CONE = 2      /* exact circle, Siconos fc3d */
} nsed_friction_model;

/* Which LCP path(s) may be used. AUTO: the two Lemkes (nsed's first from
 * 16 unknowns on), verified; on failure regularised retries, then
 * enumeration (n <= 16) or a mixed-integer search (GLPK, larger n). The
 * others force one path (for benchmarking and tests). */
typedef enum {
  NSED_LCP_PATH_AUTO = 0,
  NSED_LCP_PATH_SICONOS_LEMKE = 1,
  NSED_LCP_PATH_NSED_LEMKE = 2,
  NSED_LCP_PATH_ENUM = 3,
  NSED_LCP_PATH_MILP = 4
} nsed_lcp_path;

/* Settings of the complementarity layer (nsed_complementarity_default_settings). */
typedef struct {
  nsed_friction_model model; /* default NSED_FRICTION_POLYGON_FACE */
  int sides;                 /* polygon sides 4n*, a multiple of 4, >= 4 (default 8: the octagon) */
  nsed_lcp_path path;        /* default NSED_LCP_PATH_AUTO */
  double tol;                /* relative residual accepted for an LCP solution (default 1e-9) */
  int max_pivots;            /* Lemke pivot limit; the mixed-integer search's limit on simplex iterations and tree nodes (default 10000) */
  double cone_tol;           /* fc3d tolerance for the exact cone (default 1e-12) */
} nsed_complementarity_settings;

/* Fill s with the defaults documented above. */
NSED_API void nsed_complementarity_default_settings(nsed_complementarity_settings *s);

/* Friction state of one contact as the engine knows it before the event. */
typedef enum {
  NSED_CP_STICK_CANDIDATE = 0, /* tangential relative velocity ~ 0: may stick or start slipping */
  NSED_CP_SLIPPING = 1,        /* slipping with known direction: force -mu*lambda_n*slip_dir */
  NSED_CP_FRICTIONLESS = 2     /* mu = mu0 = 0 */
} nsed_cp_kind;

typedef struct {
  nsed_cp_kind kind;
  double mu;          /* kinetic friction coefficient (SLIPPING) */
  double mu0;         /* static friction coefficient (STICK_CANDIDATE), mu0 >= mu */
  double slip_dir[2]; /* SLIPPING: unit 2-vector in (t1, t2), the slip velocity's direction */
  double restitution; /* impact problem only: Newton's e_N in [0, 1] */
} nsed_cp_contact;

/* A torsional (drilling) friction row of a contact: the moment lambda_w
 * about the contact normal, bounded by that contact's normal force,
 * |lambda_w| <= mu lambda_n (docs/complementarity.md §11). Its row and
 * column follow the 3nc contact rows of G and b, in the order of spins[]. */
typedef struct {
  int contact;       /* the contact (0 .. nc-1) whose normal force bounds the moment */
  nsed_cp_kind kind; /* STICK_CANDIDATE: may stick or start turning; SLIPPING: turning with
                        the known sign, moment -mu lambda_n sign; FRICTIONLESS: no moment */
  double mu;         /* moment per unit normal force (m), >= 0 */
  double sign;       /* SLIPPING: +1 or -1, the sign of the relative spin velocity */
} nsed_cp_spin;

typedef struct {
  int nc;                          /* number of contacts (>= 0) */
  const double *G;                 /* (3nc + nw) x (3nc + nw) column-major */
  const double *b;                 /* 3nc + nw */
  const nsed_cp_contact *contacts; /* nc */
  int nw;                          /* number of torsional rows (0: none) */
  const nsed_cp_spin *spins;       /* nw (NULL when nw = 0) */
} nsed_contact_problem;

/* The new mode of a contact decided by the event problem. */
typedef enum { NSED_CP_OPEN = 0, NSED_CP_STICK = 1, NSED_CP_SLIP = 2 } nsed_cp_mode;

/* Results; arrays are owned by the caller and sized for nc contacts. */
typedef struct {
  double *lambda;       /* 3nc + nw: force (impulse) (n, t1, t2) per contact, then the
                           torsional moments (moment impulses) */
  double *a;            /* 3nc + nw: G*lambda + b, the resulting relative acceleration (velocity) */
  nsed_cp_mode *mode;   /* nc: OPEN (lambda_n = 0, a_n > 0), STICK (a_t = 0) or SLIP */
  double *slip_dir;     /* 2nc: SLIP: unit direction of the tangential relative
                           acceleration (onset) or of the given slip; else 0 */
  nsed_cp_mode *spin_mode; /* nw (may be NULL when nw = 0): OPEN when its contact opens,
                           STICK (a_w = 0) or SLIP */
  double *spin_sign;    /* nw (may be NULL when nw = 0): SLIP: the sign of the spin
                           acceleration (onset) or the given sign; else 0 */
} nsed_contact_solution;

/* What was solved and how: for the event log and the LCP report. */
typedef struct {
  int lcp_size;        /* dimension of the LCP (0 when no LCP was needed) */
  int pivots;          /* Lemke pivots of the path that succeeded */
  double residual;     /* verified complementarity residual (relative) */
  const char *path;    /* static string naming the path that solved it, e.g. "siconos-lemke", "nsed-lemke", "nsed-lemke+reg", "enum", "milp", "fc3d-nsgs", "fc3d-vi-eg" */
  int siconos_failed;  /* 1 if Siconos' Lemke was tried and its answer rejected */
} nsed_lcp_stats;

typedef struct nsed_contact_solver nsed_contact_solver;

/* Create a solver for problems of up to max_contacts contacts (it grows if a
 * larger one comes). Returns NSED_OK or an error code with err set. */
NSED_API int nsed_contact_solver_create(const nsed_complementarity_settings *s, int max_contacts,
                               nsed_contact_solver **out, nsed_error *err);

/* Free the solver and everything it owns; *s is set to NULL. */
NSED_API void nsed_contact_solver_free(nsed_contact_solver **s);

/* Acceleration-level problem: normal complementarity 0 <= lambda_n _|_ a_n >= 0,
 * kinetic friction for SLIPPING contacts, polygonal (or exact) static friction
 * with maximal dissipation for STICK_CANDIDATE contacts, and the same for the
 * torsional rows (an interval, exact in every polygon model; the exact cone
 * takes no torsional rows: NSED_ERR_INPUT). Every solution is
 * verified before it is returned. Returns NSED_OK, NSED_LCP_INFEASIBLE (no
 * solution: e.g. Painleve), or NSED_ERR_LCP / NSED_ERR_INPUT with err saying
 * why and giving the problem's size and residuals. */
NSED_API int nsed_contact_solve_accel(nsed_contact_solver *s, const nsed_contact_problem *p,
                             nsed_contact_solution *sol, nsed_lcp_stats *stats, nsed_error *err);

/* Impact problem at velocity level: b is the pre-impact relative velocity,
 * lambda the impulses; 0 <= Lambda_n _|_ v_n+ + e v_n- >= 0 with the same
 * polygonal friction at impulse level (every contact a stick candidate unless
 * FRICTIONLESS). sol->a receives the post-impact relative velocity. */
NSED_API int nsed_contact_solve_impact(nsed_contact_solver *s, const nsed_contact_problem *p,
                              nsed_contact_solution *sol, nsed_lcp_stats *stats, nsed_error *err);

/* Sees every LCP the solver poses, before it is solved: `form` names the
 * formulation ("face", "vertex", "face-as-vertex", or "lcp" for nsed_lcp_solve),
 * M is n x n column-major (w = M z + q). The pointers are valid during the call
 * only. A nonzero return stops that solve with NSED_ERR_IO. */
typedef int (*nsed_lcp_observer)(void *user, const char *form, int n, const double *M,
                                 const double *q);

/* Install an observer of the posed LCPs (fn NULL removes it); for `nsed cp
 * --write-lcp` and research scripts. The exact cone poses no LCP. */
NSED_API void nsed_contact_solver_set_lcp_observer(nsed_contact_solver *s, nsed_lcp_observer fn,
                                                   void *user);

/* A plain LCP w = M z + q, 0 <= z _|_ w >= 0 (M n x n column-major), solved by
 * the solver's path with verification; used by `nsed lcp` and the tests. */
NSED_API int nsed_lcp_solve(nsed_contact_solver *s, int n, const double *M, const double *q, double *z,
                   double *w, nsed_lcp_stats *stats, nsed_error *err);

/* Read one LCP in Siconos' text format (size; storage type 0; size0; size1;
 * "size0 size1"; the matrix column-major; q; anything after q is ignored)
 * into *n, *M (n x n column-major) and *q, malloc'd (free() them). NSED_OK,
 * NSED_ERR_IO (unreadable) or NSED_ERR_INPUT (malformed: err says where). */
NSED_API int nsed_lcp_read_file(const char *path, int *n, double **M, double **q,
                                nsed_error *err);

/* Write an LCP in the same format, every double exact (%.17g). */
NSED_API int nsed_lcp_write_file(const char *path, int n, const double *M, const double *q,
                                 nsed_error *err);

/* One event problem as read from a contact-problem file: the problem (its
 * arrays point into the storage below, owned by this struct) and its level. */
typedef struct {
  nsed_contact_problem problem;
  int impact;                /* 1: impact (velocity-level) problem, 0: acceleration level */
  double *G, *b;             /* storage of problem.G, problem.b */
  nsed_cp_contact *contacts; /* storage of problem.contacts */
  nsed_cp_spin *spins;       /* storage of problem.spins (NULL when nw = 0) */
} nsed_contact_problem_file;

/* Read a contact-problem file (docs/complementarity.md, "Contact-problem
 * files") into *out (free with nsed_contact_problem_file_free). NSED_OK,
 * NSED_ERR_IO (unreadable) or NSED_ERR_INPUT (malformed: err names file and
 * line). */
NSED_API int nsed_contact_problem_read(const char *path, nsed_contact_problem_file *out,
                                       nsed_error *err);

/* Free what nsed_contact_problem_read allocated; *f is zeroed. */
NSED_API void nsed_contact_problem_file_free(nsed_contact_problem_file *f);

/* Write p (impact: its level) to path, every double exact, comment (may be
 * NULL, may hold newlines) as '#' lines at the top; atomically (a temporary
 * sibling renamed into place). NSED_OK, NSED_ERR_IO or NSED_ERR_INPUT. */
NSED_API int nsed_contact_problem_write(const char *path, const nsed_contact_problem *p, int impact,
                                        const char *comment, nsed_error *err);

#ifdef __cplusplus
}
#endif
#endif
