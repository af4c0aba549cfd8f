/* Exact Coulomb cone through Siconos' fc3d (NSGS, then the extragradient
 * method on its variational inequality, VI_EG, where NSGS's answer does not
 * verify), at acceleration (or
 * impulse) level: u = W r + q with W = G, q = b, per contact r = (r_n, r_t1,
 * r_t2) in the cone ||r_T|| <= mu r_n, u + mu ||u_T|| e_n in the dual cone
 * (De Saxce's formulation, which is Coulomb's law with maximal dissipation).
 * A slipping contact is folded in: its normal column becomes G (e_n - mu s)
 * and its own cone gets mu = 0, so r_T = 0 and only 0 <= r_n _|_ u_n >= 0
 * remains; frictionless contacts get mu = 0 too.
 *
 * fc3d's info is not trusted: nsed recomputes the natural-map residual
 *   max_i ||r_i - P_K(r_i - rho (u_i + mu ||u_iT|| e_n))|| / ||r||
 * (rho = ||r||/||u|| for consistent units) and accepts it up to
 * max(NSEDI_CONE_ACCEPT_FACTOR cone_tol, NSEDI_CONE_ACCEPT_FLOOR), since
 * both are iterative. NSGS stalls on some degenerate impact problems (a
 * car on rank-deficient feet: no progress in 1e6 sweeps), which the
 * extragradient method, a projection method with no local Newton loop,
 * solves (docs/complementarity.md, "Exact cone").
 *
 * Torsional rows: fc3d's problem has dimension 3 per contact (the cone in
 * (n, t1, t2)) and no place for a moment bound by lambda_n, so a problem
 * whose torsional rows carry a moment is refused (NSED_ERR_INPUT); those
 * that carry none (frictionless, or slipping at mu = 0) have lambda_w = 0
 * and leave the contacts' block of G alone (docs/complementarity.md §11).
 *
 * Options are created once per solver. Siconos 4.4's solver_options_delete
 * does not free option structs (top level nor internal solvers: notes P5);
 * nsed collects the internal ones before deleting and frees them itself, so
 * nothing leaks. The problem struct and matrix header live on the stack. */
#include "cp_internal.h"

#include <FrictionContactProblem.h>
#include <Friction_cst.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <SolverOptions.h>
#include <fc3d_Solvers.h>
#include <sn_error_handling.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct nsedi_fc3d {
  SolverOptions *opt; /* NSGS */
  SolverOptions *eg;  /* VI_EG, created at its first use */
};

/* Collect every option struct below o (depth-first) into list (cap entries). */
static size_t collect(SolverOptions *o, SolverOptions **list, size_t n, size_t cap) {
  for (size_t i = 0; o && i < o->numberOfInternalSolvers; i++) {
    SolverOptions *c = o->internalSolvers[i];
    if (!c) continue;
    if (n < cap) list[n++] = c;
    n = collect(c, list, n, cap);
  }
  return n;
}

static void options_free(SolverOptions *o) {
  if (!o) return;
  SolverOptions *inner[16];
  size_t k = collect(o, inner, 0, 16);
  solver_options_delete(o);
  for (size_t i = 0; i < k; i++) free(inner[i]);
  free(o);
}

void nsedi_fc3d_free(nsedi_fc3d **f) {
  if (!f || !*f) return;
  options_free((*f)->opt);
  options_free((*f)->eg);
  free(*f);
  *f = NULL;
}

static int fc3d_create(nsedi_fc3d **out, double tol) {
  nsedi_fc3d *f = calloc(1, sizeof *f);
  if (!f) return NSED_ERR_NOMEM;
  f->opt = solver_options_create(SICONOS_FRICTION_3D_NSGS);
  if (!f->opt) {
    free(f);
    return NSED_ERR_NOMEM;
  }
  f->opt->dparam[SICONOS_DPARAM_TOL] = tol;
  f->opt->iparam[SICONOS_IPARAM_MAX_ITER] = NSEDI_CONE_NSGS_SWEEPS;
  *out = f;
  return NSED_OK;
}

static int eg_create(nsedi_fc3d *f) {
  if (f->eg) return NSED_OK;
  f->eg = solver_options_create(SICONOS_FRICTION_3D_VI_EG);
  if (!f->eg) return NSED_ERR_NOMEM;
  f->eg->iparam[SICONOS_IPARAM_MAX_ITER] = NSEDI_CONE_EG_ITERATIONS;
  return NSED_OK;
}

/* NSGS solves each contact's local problem with a Newton loop that stops
 * at 0.5 |F|^2 / (1 + |R|) < its tolerance (F the local Alart-Curnier
 * function, R the contact's force): a squared measure, so Siconos' default
 * 1e-14 accepts |F| up to 1.4e-7 sqrt(1 + |R|), and NSGS can stall at a
 * fixed point of such inexact local answers, far from cone_tol
 * (docs/complementarity.md, "Exact cone"). The local tolerance is set so
 * that |F| reaches cone_tol times the problem's force scale
 * S = max|q| / max W_ii (the force that balances the free acceleration). */
static void set_local_tolerance(SolverOptions *opt, double cone_tol, int n3, const double *W,
                                const double *q) {
  if (opt->numberOfInternalSolvers < 1 || !opt->internalSolvers[0]) return;
  double qs = 0.0, wd = 0.0;
  for (int r = 0; r < n3; r++) {
    qs = fmax(qs, fabs(q[r]));
    wd = fmax(wd, fabs(W[(size_t)r * (size_t)n3 + (size_t)r]));
  }
  double scale = wd > 0.0 ? qs / wd : 0.0, f = cone_tol * (scale > 0.0 ? scale : 1.0);
  opt->internalSolvers[0]->dparam[SICONOS_DPARAM_TOL] = 0.5 * f * f / (1.0 + scale);
}

/* Projection of (rn, rt1, rt2) onto the cone ||r_T|| <= mu r_n, in place. */
static void proj_cone(double mu, double *r) {
  if (mu == 0.0) { /* the half-line r_T = 0, r_n >= 0 */
    r[0] = fmax(r[0], 0.0);
    r[1] = r[2] = 0.0;
    return;
  }
  double t = hypot(r[1], r[2]);
  if (t <= mu * r[0]) return;          /* inside */
  if (mu * t <= -r[0]) {               /* inside the polar cone */
    r[0] = r[1] = r[2] = 0.0;
    return;
  }
  double a = (mu * t + r[0]) / (mu * mu + 1.0);
  r[0] = a;
  r[1] *= mu * a / t;
  r[2] *= mu * a / t;
}

/* us: the scale of u's terms, max(||q||, max|W_ij| ||r||), not ||u|| itself
 * (u ~ 0 at a sticking solution would blow rho up). */
static double cone_residual(int nc, const double *mu, const double *r, const double *u, double us) {
  double rs = 0.0;
  for (int i = 0; i < 3 * nc; i++) rs = fmax(rs, fabs(r[i]));
  if (rs == 0.0) {
    /* r = 0 solves iff every u_n + mu ||u_T|| >= 0 ... and u in the dual cone */
    double worst = 0.0;
    for (int i = 0; i < nc; i++) {
      double un = u[3 * i] + mu[i] * hypot(u[3 * i + 1], u[3 * i + 2]);
      double ut = hypot(u[3 * i + 1], u[3 * i + 2]);
      /* dual cone of {||r_T|| <= mu r_n}: mu ||u~_T|| <= u~_n */
      double v = mu[i] * ut - un;
      if (v > worst) worst = v;
    }
    return us > 0.0 ? worst / us : 0.0;
  }
  double rho = us > 0.0 ? rs / us : 1.0, res = 0.0;
  for (int i = 0; i < nc; i++) {
    const double *ri = r + 3 * i, *ui = u + 3 * i;
    double ut = hypot(ui[1], ui[2]);
    double v[3] = {ri[0] - rho * (ui[0] + mu[i] * ut), ri[1] - rho * ui[1], ri[2] - rho * ui[2]};
    proj_cone(mu[i], v);
    double d = sqrt((ri[0] - v[0]) * (ri[0] - v[0]) + (ri[1] - v[1]) * (ri[1] - v[1]) +
                    (ri[2] - v[2]) * (ri[2] - v[2]));
    res = fmax(res, d / rs);
  }
  return res;
}

enum { FC3D_RAISED = -1000 };

/* One fc3d solve from r = 0 with options opt; the natural-map residual of
 * its answer, recomputed by nsed with u = W r + q (fc3d's u may be stale
 * after its last sweep), into stats. Returns fc3d's info, FC3D_RAISED when
 * Siconos raised an error. */
static int fc3d_verified(FrictionContactProblem *fc, SolverOptions *opt, double *lambda, double *u,
                         nsed_lcp_stats *stats) {
  const int n3 = 3 * fc->numberOfContacts;
  const double *W = fc->M->matrix0, *q = fc->q;
  memset(lambda, 0, sizeof(double) * (size_t)n3);
  volatile int info = -1;
  if (SN_SETJMP_EXTERNAL_START == 0) {
    info = fc3d_driver(fc, lambda, u, opt);
    SN_SETJMP_EXTERNAL_STOP
  } else {
    stats->residual = INFINITY;
    return FC3D_RAISED;
  }
  stats->pivots = opt->iparam[SICONOS_IPARAM_ITER_DONE];
  for (int r = 0; r < n3; r++) {
    double v = q[r];
    for (int j = 0; j < n3; j++) v += W[(size_t)j * n3 + r] * lambda[j];
    u[r] = v;
  }
  double qs = 0.0, ws = 0.0, rs = 0.0;
  for (int r = 0; r < n3; r++) {
    qs = fmax(qs, fabs(q[r]));
    rs = fmax(rs, fabs(lambda[r]));
  }
  for (size_t k = 0; k < (size_t)n3 * (size_t)n3; k++) ws = fmax(ws, fabs(W[k]));
  stats->residual = nsedi_all_finite((size_t)n3, lambda)
                        ? cone_residual(fc->numberOfContacts, fc->mu, lambda, u, fmax(qs, ws * rs))
                        : INFINITY;
  return info;
}

int nsedi_cone_solve(nsed_contact_solver *s, const nsedi_cp *p, double *lambda,
                     nsed_lcp_stats *stats, nsed_error *err) {
  nsedi_workspace *ws = &s->ws;
  const int nc = p->nc, n3 = 3 * nc;
  const size_t ng = (size_t)n3 + (size_t)p->nw; /* G's dimension */
  if (p->wcarry > 0) {
    int k = 0;
    while (k < p->nw && !(p->wkind[k] == NSED_CP_STICK_CANDIDATE ||
                          (p->wkind[k] == NSED_CP_SLIPPING && p->w[k].mu > 0.0)))
      k++;
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "the exact cone (Siconos fc3d) takes no torsional rows: spin %d (of %d) carries "
                          "a moment (mu = %g); use a polygon friction model (face or vertex)",
                          k, p->nw, k < p->nw ? p->w[k].mu : 0.0);
  }
  stats->lcp_size = n3;
  stats->path = "fc3d-nsgs";
  if (!s->fc) {
    int rc = fc3d_create(&s->fc, s->set.cone_tol);
    if (rc != NSED_OK) return nsed_error_set(err, rc, "out of memory for the fc3d options");
  }
  nsedi_build_GE(ws, p);
  double *W = ws->Mw, *q = ws->qw, *mu = ws->zw, *u = ws->acc;
  /* the contacts' block of G (torsional rows carry nothing here) */
  for (int j = 0; j < n3; j++)
    memcpy(W + (size_t)j * n3, p->G + (size_t)j * ng, sizeof(double) * (size_t)n3);
  memcpy(q, p->b, sizeof(double) * (size_t)n3);
  for (int i = 0; i < nc; i++) {
    if (p->kind[i] == NSED_CP_SLIPPING)
      memcpy(W + (size_t)(3 * i) * n3, ws->GE + (size_t)i * ng, sizeof(double) * (size_t)n3);
    mu[i] = p->kind[i] == NSED_CP_STICK_CANDIDATE ? p->mu[i] : 0.0;
  }
  /* fc3d's local solvers need each contact's normal diagonal positive
   * (Siconos asserts it and aborts). A slipping contact's is its normal
   * compliance along its column with the kinetic friction, which a large
   * mu turns (Painleve's configurations). */
  for (int i = 0; i < nc; i++) {
    double wnn = W[(size_t)(3 * i) * n3 + (size_t)(3 * i)];
    if (wnn > 0) continue;
    if (p->ns == 0) return NSEDI_CONE_AS_LCP;
    stats->residual = INFINITY;
    return nsed_error_set(err, NSED_ERR_LCP,
                          "fc3d cannot take contact %d of %d: %s, its normal compliance W_nn = %.3g "
                          "is not positive (a Painleve-like configuration of the rigid model), "
                          "and %d contact(s) may stick on the cone; the polygon forms pose such "
                          "problems as LCPs",
                          i, nc, p->kind[i] == NSED_CP_SLIPPING ? "slipping under its kinetic friction" : "posed",
                          wnn, p->ns);
  }
  NumericsMatrix nm;
  NM_null(&nm);
  nm.storageType = NM_DENSE;
  nm.size0 = n3;
  nm.size1 = n3;
  nm.matrix0 = W;
  FrictionContactProblem fc = {.dimension = 3, .numberOfContacts = nc, .M = &nm, .q = q, .mu = mu};
  memset(lambda, 0, sizeof(double) * ng); /* the torsional rows' too */
  s->fc->opt->dparam[SICONOS_DPARAM_TOL] = s->set.cone_tol;
  set_local_tolerance(s->fc->opt, s->set.cone_tol, n3, W, q);
  double acc = fmax(NSEDI_CONE_ACCEPT_FACTOR * s->set.cone_tol, NSEDI_CONE_ACCEPT_FLOOR);
  int info = fc3d_verified(&fc, s->fc->opt, lambda, u, stats);
  if (info == FC3D_RAISED)
    return nsed_error_set(err, NSED_ERR_LCP, "fc3d (NSGS) raised a Siconos error on %d contacts", nc);
  if (!(stats->residual <= acc)) {
    double nsgs_res = stats->residual;
    int nsgs_info = info;
    if (eg_create(s->fc) != NSED_OK) return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory for the fc3d options");
    s->fc->eg->dparam[SICONOS_DPARAM_TOL] = s->set.cone_tol;
    stats->path = "fc3d-vi-eg";
    info = fc3d_verified(&fc, s->fc->eg, lambda, u, stats);
    if (!(stats->residual <= acc))
      return nsed_error_set(err, NSED_ERR_LCP,
                            "fc3d on %d contacts: NSGS info %d, verified residual %.3g; VI_EG %s, verified "
                            "residual %.3g; both > %.3g",
                            nc, nsgs_info, nsgs_res, info == FC3D_RAISED ? "raised a Siconos error" : "ended",
                            stats->residual, acc);
  }
  /* unfold slipping contacts: their tangential force is -mu r_n s */
  for (int i = 0; i < nc; i++)
    if (p->kind[i] == NSED_CP_SLIPPING) {
      lambda[3 * i + 1] = -p->mu[i] * lambda[3 * i] * p->c[i].slip_dir[0];
      lambda[3 * i + 2] = -p->mu[i] * lambda[3 * i] * p->c[i].slip_dir[1];
    } else if (p->kind[i] != NSED_CP_STICK_CANDIDATE) {
      lambda[3 * i + 1] = lambda[3 * i + 2] = 0.0;
    }
  return NSED_OK;
}
