/* Internals of the complementarity layer: the solver object, its workspace and
 * the functions the files of src/complementarity/ share. Not installed.
 *
 * Layout of the files (one purpose each):
 *   lcp_lemke.c      nsed's lexicographic Lemke (scaled, relative tie tolerances)
 *   lcp_siconos.c    the only LCP adapter that includes Siconos headers
 *   lcp_enum.c       enumeration of complementary bases (small n, last resort)
 *   lcp_milp.c       mixed-integer search through GLPK (larger n, last resort)
 *   lcp_verify.c     residual of a candidate solution, basis polishing
 *   lcp_solve.c      the AUTO path and the forced paths (nsed_lcp_solve)
 *   friction_face.c  circumscribed polygon, face form, G_TT eliminated
 *   friction_vertex.c polygon in vertex form (inscribed, or the circumscribed
 *                    polygon when the face form cannot eliminate G_TT or
 *                    torsional rows carry a moment)
 *   friction_cone.c  exact cone through Siconos fc3d
 *   contact_solver.c create/free/settings, accel/impact drivers, mode decisions
 *   workspace.c      the growable workspace, the normal-unknown columns G E
 *   lcp_file.c       reader for Siconos' LCP text format */
#ifndef NSED_CP_INTERNAL_H
#define NSED_CP_INTERNAL_H

#include "nsed/complementarity.h"
#include "tolerances.h"

#include <stddef.h>

/* Outcome of one LCP attempt (internal; mapped to nsed_status at the edge). */
enum {
  NSEDI_LCP_SOLVED = 0,   /* terminated with a complementary basis (still to verify) */
  NSEDI_LCP_RAY = 1,      /* secondary ray: no positive pivot in the entering column */
  NSEDI_LCP_MAXPIV = 2,   /* pivot limit reached */
  NSEDI_LCP_FAILED = 3,   /* numerical breakdown / library error */
  NSEDI_LCP_TOO_BIG = 4,  /* enumeration refused: n too large */
  NSEDI_LCP_TIME_LIMIT = 5, /* the mixed-integer search ran out of its time */
  NSEDI_LCP_UNAVAILABLE = 6 /* the mixed-integer search is not in this build */
};

/* Enumeration is exhaustive (2^n bases): refused above this size. */
#define NSEDI_ENUM_MAX_N 16

/* Opaque Siconos adapter state (lcp_siconos.c) and fc3d state (friction_cone.c). */
typedef struct nsedi_siconos nsedi_siconos;
typedef struct nsedi_fc3d nsedi_fc3d;

/* Growable workspace; every buffer is owned by the solver and only grows. */
typedef struct {
  int cap_n;   /* LCP dimension the LCP buffers hold */
  double *M, *q, *z, *w;    /* the LCP being solved (M n x n column-major) */
  double *Mw, *qw, *zw, *ww; /* scratch LCP (scaled / regularised copies) */
  double *tab;             /* Lemke tableau n x (2n+2), column-major */
  int *basis;              /* Lemke basis, n */
  int *cand;               /* Lemke tie candidates, n */
  double *rs, *cs;         /* row / column scaling, n each */
  double *cn;              /* column maxima for the residual, n */
  double *sq;              /* square scratch n x n (enumeration, polishing) */
  double *vec;             /* vector scratch 2n */
  int *ipiv;               /* LAPACK pivots, n */
  int cap_nc, cap_m, cap_nw; /* contacts, polygon sides and torsional rows the contact buffers hold */
  double *GE;              /* N x nc (N = 3nc + nw): G times the normal-unknown columns */
  double *GD;              /* N x (m nc): G times the vertex directions */
  double *D;               /* (2nc)^2: G_TT of the stick candidates (factored) */
  double *X;               /* 2nc x (nc + m nc + 1): G_TT^-1 [C | N | b_T] */
  double *lam, *acc;       /* N each: lambda and a scratch */
  double *bmod;            /* N: b with the impact's (1+e) on normal rows */
  int *stick;              /* nc: indices of stick candidates */
  int *kind;               /* nc: effective nsed_cp_kind of each contact in this solve */
  double *mu_eff;          /* nc: friction coefficient each contact uses */
  int *wkind;              /* nw: effective nsed_cp_kind of each torsional row */
  int *wstick;             /* nw: indices of the torsional stick candidates */
  int infeasible_proven;   /* the last LCP's NSED_LCP_INFEASIBLE rests on the enumeration's
                              proof, not only on a Lemke ray */
} nsedi_workspace;

/* The polygon's directions as (cos, sin) pairs, 2 m numbers each, computed
 * once per solver (its sides are fixed): a solve took 2 to 5 sin/cos per
 * stick candidate and side, 8% of a one-contact solve. Each table keeps
 * the expression of the angle its users had, so the numbers are the same
 * bits as computed in place. */
typedef struct {
  double *at;           /* 2 pi j / m: the face form's normals, the inscribed vertices */
  double *shifted;      /* pi / m + 2 pi j / m: the circumscribed polygon's vertices */
  double *check[2];     /* off + j h, h = 2 pi / m, off = 0 and pi / m: laws_hold's faces */
  double *check_mid[2]; /* off + (j + 1/2) h: laws_hold's vertices */
  double check_half;    /* cos(h / 2) */
} nsedi_polygon_dirs;

struct nsed_contact_solver {
  nsed_complementarity_settings set;
  nsedi_workspace ws;
  nsedi_siconos *sic; /* long-lived Siconos Lemke options */
  nsedi_fc3d *fc;     /* created on first exact-cone solve */
  nsedi_polygon_dirs dirs;    /* of set.sides, one allocation at dirs.at */
  nsed_lcp_observer observer; /* NULL: none */
  void *observer_user;
};

/* The larger and the smaller of two finite numbers (the LCPs' entries are
 * checked finite before any solve): fmax and fmin are library calls unless
 * NaNs are ruled out for the whole program, and these run per entry. */
static inline double nsedi_maxf(double a, double b) { return a > b ? a : b; }
static inline double nsedi_minf(double a, double b) { return a < b ? a : b; }

/* ---- workspace (workspace.c) ---- */
/* Make the LCP buffers hold dimension n (grow only). NSED_OK or NSED_ERR_NOMEM. */
int nsedi_ws_reserve_lcp(nsedi_workspace *ws, int n);
/* Make the contact buffers hold nc contacts, nw torsional rows and m
 * polygon sides. */
int nsedi_ws_reserve_contacts(nsedi_workspace *ws, int nc, int nw, int m);
/* Release every buffer and clear ws. */
void nsedi_ws_free(nsedi_workspace *ws);

/* ---- nsed Lemke (lcp_lemke.c) ---- */
/* Solve w = Mz+q, 0<=z _|_ w>=0 by lexicographic Lemke on the symmetrically
 * scaled problem D M D (copositive-plus where M is). ws must hold n. z, w outputs (w = Mz+q recomputed).
 * pivots receives the pivot count. Returns NSEDI_LCP_*. */
int nsedi_lemke(nsedi_workspace *ws, int n, const double *M, const double *q, double *z, double *w,
                int max_pivots, int *pivots);

/* ---- Siconos Lemke (lcp_siconos.c) ---- */
int nsedi_siconos_create(nsedi_siconos **out);
void nsedi_siconos_free(nsedi_siconos **s);
/* Siconos' lexicographic Lemke through its driver (SKIP_TRIVIAL set, no
 * filter: the caller verifies). M is not modified. Returns NSEDI_LCP_*. */
int nsedi_siconos_lemke(nsedi_siconos *s, int n, double *M, double *q, double *z, double *w,
                        int max_pivots, int *pivots);

/* ---- enumeration (lcp_enum.c) ---- */
/* Try every complementary basis (smallest supports first); returns
 * NSEDI_LCP_SOLVED with a solution whose residual is <= tol, NSEDI_LCP_RAY if
 * none exists (exhaustive), NSEDI_LCP_TOO_BIG for n > NSEDI_ENUM_MAX_N. */
int nsedi_enum(nsedi_workspace *ws, int n, const double *M, const double *q, double *z, double *w,
               double tol, int *tried);

/* ---- mixed-integer search (lcp_milp.c) ---- */
/* Search for a complementary pair with z and w within bound of the
 * problem's scale (z_j max_i |M_ij| <= bound max_i |q_i|, w_i <= bound
 * max_i |q_i|) by GLPK's branch and bound, within time_ms of wall time and
 * max_pivots simplex iterations per linear problem and nodes of the tree.
 * NSEDI_LCP_SOLVED (z, w filled, still to verify), NSEDI_LCP_RAY (no such
 * pair exists), NSEDI_LCP_MAXPIV, NSEDI_LCP_TIME_LIMIT, NSEDI_LCP_FAILED, or
 * NSEDI_LCP_UNAVAILABLE (built with -Dglpk=disabled).
 * nodes: the search tree's size. */
int nsedi_lcp_milp(nsedi_workspace *ws, int n, const double *M, const double *q, double *z, double *w,
                   double bound, int time_ms, int max_pivots, int *nodes);

/* ---- verification (lcp_verify.c) ---- */
/* Recompute w = Mz+q and return the scale-aware relative residual
 *   max_i |min(z_i c_i / ||q||, w_i / s_i)|,   c_i = max_k |M_ki| (column i),
 *   s_i = max(|q_i|, |(Mz)_i|, NSEDI_LCP_ROW_SCALE sum_j |M_ij z_j|)
 *                                               (row i's own scale),
 * 0 exactly for a solution; it penalises negative z or w and complementarity
 * alike, is invariant to scaling (M, q) or a row, and a huge spurious z_k
 * (an infeasible LCP's "solution at infinity") cannot mask another row. NaN
 * gives +inf. */
double nsedi_lcp_residual(int n, const double *M, const double *q, const double *z, double *w,
                          double *cn /* scratch, n */);
/* Re-solve M_BB z_B = -q_B on the support B = {z_i > 0} of z from scratch (LU,
 * minimum-norm least squares if singular); replaces z, w and returns the new
 * residual if it is smaller than the old one, else leaves them. */
double nsedi_lcp_polish(nsedi_workspace *ws, int n, const double *M, const double *q, double *z,
                        double *w, double old_residual);
/* 1 if every entry is finite. */
int nsedi_all_finite(size_t n, const double *x);

/* ---- paths (lcp_solve.c) ---- */
/* Solve with the configured path; stats filled (path static string). Returns
 * NSED_OK, NSED_LCP_INFEASIBLE or NSED_ERR_LCP (err set). tag prefixes
 * stats->path for the formulation ("" for plain LCPs). */
int nsedi_lcp_run(nsed_contact_solver *s, int n, const double *M, const double *q, double *z,
                  double *w, nsed_lcp_stats *stats, int form, nsed_error *err);
/* Formulation tags for stats->path. */
enum { NSEDI_FORM_PLAIN = 0, NSEDI_FORM_FACE = 1, NSEDI_FORM_VERTEX = 2, NSEDI_FORM_FACE_VIA_VERTEX = 3 };

/* ---- formulations (friction_face.c, friction_vertex.c, friction_cone.c) ---- */
/* The problem as the builders see it: b already modified for impacts. G is
 * N x N and b N long, N = 3nc + nw: the torsional rows follow the contacts'. */
typedef struct {
  int nc;
  const double *G, *b;
  const nsed_cp_contact *c;
  const int *kind;   /* nc: effective kind (impact: every frictional contact a stick candidate) */
  const double *mu;  /* nc: coefficient used: mu0 (stick candidate), mu (slipping, or a sliding contact at impact) */
  const int *stick;  /* ns indices of the stick candidates (kind STICK_CANDIDATE, mu>0) */
  int ns;
  int nw;                  /* torsional rows */
  const nsed_cp_spin *w;   /* nw */
  const int *wkind;        /* nw: effective kind, as for contacts (impact: stick candidate; mu = 0: none) */
  const int *wstick;       /* nws indices of the torsional stick candidates */
  int nws;
  int wcarry;              /* torsional rows that carry a moment (stick candidates, slipping with mu > 0) */
} nsedi_cp;

/* (workspace.c) Fill ws->GE (N x nc): the columns of G for each contact's
 * normal unknown, slipping friction folded: G (e_n - mu s - sum mu_w sign_w e_w)
 * over the contact's tangential slip and its slipping torsional rows. */
void nsedi_build_GE(nsedi_workspace *ws, const nsedi_cp *p);
/* (workspace.c) The torsional entries of lambda (N) that are no unknowns of
 * an LCP: slipping -mu sign lambda_n (lambda_n already in lambda), else 0.
 * Stick candidates' entries are left to the vertex form. */
void nsedi_spin_lambda(const nsedi_cp *p, double *lambda);

/* Face form (G_TT eliminated; only without moment-carrying torsional rows).
 * Returns NSED_OK with lambda filled (N),
 * NSED_ERR_SINGULAR when G_TT is singular/ill-conditioned (caller falls back),
 * or the LCP status. */
int nsedi_face_solve(nsed_contact_solver *s, const nsedi_cp *p, double *lambda,
                     nsed_lcp_stats *stats, nsed_error *err);
/* Vertex form with sides directions dirs (unit, (cos, sin) pairs) at
 * radius r: inscribed (r=1, s->dirs.at) or the circumscribed polygon
 * (r=1/cos(pi/m), s->dirs.shifted); torsional stick candidates as the
 * interval +-1. */
int nsedi_vertex_solve(nsed_contact_solver *s, const nsedi_cp *p, double r, const double *dirs, int form,
                       double *lambda, nsed_lcp_stats *stats, nsed_error *err);
/* Exact cone (fc3d); NSED_ERR_INPUT when a torsional row carries a moment. */
int nsedi_cone_solve(nsed_contact_solver *s, const nsedi_cp *p, double *lambda,
                     nsed_lcp_stats *stats, nsed_error *err);

/* nsedi_cone_solve's answer where fc3d cannot take the problem (a contact
 * whose normal diagonal of W is not positive: a slipping one whose kinetic
 * friction turns its normal compliance, a Painleve-like configuration) but
 * no contact may stick: the problem is then an LCP of the normal rows
 * alone, the same in every form, for the polygon path to solve. */
#define NSEDI_CONE_AS_LCP 2
void nsedi_fc3d_free(nsedi_fc3d **f);

#endif
