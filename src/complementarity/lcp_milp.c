/* The LCP as a mixed-integer program, solved by GLPK's branch and bound:
 * the AUTO path's last resort where Lemke fails on a problem that has a
 * solution (Lemke's theory needs M copositive-plus, which a rank-deficient
 * friction problem may miss by round-off) and the enumeration is too large.
 *
 * On the scaled problem (z'_j = c_j z_j / s, w' = w / s, c_j the largest
 * entry of column j, s = max |q_i|), with a binary y_i per pair:
 *     w' = M' z' + q' >= 0,   z' <= U y,   w' <= U (1 - y),   z' >= 0.
 * Any integer-feasible point is a complementary pair; the bound U limits
 * the search to pairs within U of the problem's own scale, so "no
 * feasible point" is a proof only for those. The integer point is then
 * sharpened (the linear problem with y fixed, solved from a fresh basis);
 * the caller verifies the answer like any other
 * (docs/complementarity.md, "The mixed-integer search"). */
#include "cp_internal.h"

#ifdef NSED_HAVE_GLPK

#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "glpk_guard.h"

/* GLPK's indices are 1-based: column j + 1 is z'_j, n + j + 1 is y_j;
 * rows: 3 i + 1 (w'_i >= 0), 3 i + 2 (w'_i <= U (1 - y_i)), 3 i + 3
 * (z'_i <= U y_i). */
static glp_prob *build(int n, const double *M, const double *q, const double *cn, double s, double U,
                       int *ia, int *ja, double *ar) {
  glp_prob *P = glp_create_prob();
  glp_set_obj_dir(P, GLP_MIN);
  glp_add_cols(P, 2 * n);
  glp_add_rows(P, 3 * n);
  for (int j = 0; j < n; j++) {
    glp_set_col_bnds(P, j + 1, GLP_DB, 0.0, U);
    glp_set_col_kind(P, n + j + 1, GLP_BV);
  }
  int k = 0;
  for (int i = 0; i < n; i++) {
    double qi = q[i] / s;
    glp_set_row_bnds(P, 3 * i + 1, GLP_LO, -qi, 0.0);
    glp_set_row_bnds(P, 3 * i + 2, GLP_UP, 0.0, U - qi);
    glp_set_row_bnds(P, 3 * i + 3, GLP_UP, 0.0, 0.0);
    for (int j = 0; j < n; j++) {
      double mij = M[(size_t)j * n + i];
      if (mij == 0.0 || cn[j] == 0.0) continue;
      double v = mij / cn[j];
      ++k, ia[k] = 3 * i + 1, ja[k] = j + 1, ar[k] = v;
      ++k, ia[k] = 3 * i + 2, ja[k] = j + 1, ar[k] = v;
    }
    ++k, ia[k] = 3 * i + 2, ja[k] = n + i + 1, ar[k] = U;
    ++k, ia[k] = 3 * i + 3, ja[k] = i + 1, ar[k] = 1.0;
    ++k, ia[k] = 3 * i + 3, ja[k] = n + i + 1, ar[k] = -U;
  }
  glp_load_matrix(P, k, ia, ja, ar);
  return P;
}

/* The branch and bound's tree size, for the report and its limit. */
typedef struct {
  int *nodes; /* the caller's: still set if GLPK's error hook ends the search */
  int max_nodes;
} tree_count;

static void count_nodes(glp_tree *T, void *info) {
  tree_count *c = info;
  int active = 0, current = 0, total = 0;
  glp_ios_tree_size(T, &active, &current, &total);
  *c->nodes = total;
  if (total > c->max_nodes) glp_ios_terminate(T);
}

/* With the binaries fixed at the integer point, the linear feasibility
 * problem that is left solved again: its basic solution has z_i = 0
 * exactly off the support and w_i = 0 on it to the simplex's round-off,
 * where the branch and bound's point carries its integrality tolerance
 * (z_i up to U tol_int where y_i should be 0). 0 on success. */
static int sharpen(glp_prob *P, int n, int time_ms, int max_pivots, double *y) {
  for (int j = 0; j < n; j++) y[j] = glp_mip_col_val(P, n + j + 1) > 0.5 ? 1.0 : 0.0;
  for (int j = 0; j < n; j++) {
    glp_set_col_kind(P, n + j + 1, GLP_CV);
    glp_set_col_bnds(P, n + j + 1, GLP_FX, y[j], y[j]);
  }
  glp_smcp sm;
  glp_init_smcp(&sm);
  sm.msg_lev = GLP_MSG_OFF;
  sm.tm_lim = time_ms;
  sm.it_lim = max_pivots;
  glp_std_basis(P);
  if (glp_simplex(P, &sm) != 0 || glp_get_status(P) != GLP_OPT) return -1;
  return 0;
}

/* Wall time left of a search that started at t0 (glp_time, ms), at least
 * 1 ms (GLPK reads 0 as no limit); 0 when none is left. */
static int time_left(double t0, int time_ms) {
  double left = time_ms - glp_difftime(glp_time(), t0) * 1e3;
  return left <= 0.0 ? 0 : (left < 1.0 ? 1 : (int)left);
}

/* z from the problem's columns 1..n (scaled back). */
static void read_z(glp_prob *P, int n, int mip, const double *cn, double s, double *z) {
  for (int j = 0; j < n; j++) {
    double v = mip ? glp_mip_col_val(P, j + 1) : glp_get_col_prim(P, j + 1);
    z[j] = cn[j] > 0.0 ? nsedi_maxf(v, 0.0) * s / cn[j] : 0.0;
  }
}

static int search(nsedi_workspace *ws, int n, const double *M, const double *q, double *z, double *w,
                  double bound, int time_ms, int max_pivots, int *nodes) {
  double t0 = glp_time();
  double s = 0.0;
  for (int i = 0; i < n; i++) s = nsedi_maxf(s, fabs(q[i]));
  if (!(s > 0.0)) s = 1.0;
  double *cn = ws->rs; /* the residual below overwrites ws->cn */
  size_t nnz = 0;
  for (int j = 0; j < n; j++) {
    double c = 0.0;
    for (int i = 0; i < n; i++) {
      double a = fabs(M[(size_t)j * n + i]);
      c = nsedi_maxf(c, a);
      if (a != 0.0) nnz += 2;
    }
    cn[j] = c;
  }
  nnz += 3 * (size_t)n;
  /* GLPK's triplets, 1-based: allocated per call (the last resort runs
   * rarely; the paths that run at every event keep to the workspace). */
  int *ia = glp_alloc((int)nnz + 1, sizeof(int));
  int *ja = glp_alloc((int)nnz + 1, sizeof(int));
  double *ar = glp_alloc((int)nnz + 1, sizeof(double));
  glp_prob *P = build(n, M, q, cn, s, bound, ia, ja, ar);
  glp_free(ia);
  glp_free(ja);
  glp_free(ar);

  /* GLPK's MIP presolver returns points that miss rows by up to 5e-5 of
   * the problem's scale (measured on the mecanum car's impact problem of 70
   * unknowns; without it 8e-15): the relaxation is solved first instead. */
  glp_smcp sm;
  glp_init_smcp(&sm);
  sm.msg_lev = GLP_MSG_OFF;
  sm.tm_lim = time_left(t0, time_ms);
  sm.it_lim = max_pivots;
  int out = NSEDI_LCP_FAILED;
  int rc = glp_simplex(P, &sm);
  if (rc == 0 && glp_get_status(P) == GLP_NOFEAS) {
    out = NSEDI_LCP_RAY;
  } else if (rc == GLP_ETMLIM) {
    out = NSEDI_LCP_TIME_LIMIT;
  } else if (rc == GLP_EITLIM) {
    out = NSEDI_LCP_MAXPIV;
  } else if (rc == 0 && glp_get_status(P) == GLP_OPT && time_left(t0, time_ms) == 0) {
    out = NSEDI_LCP_TIME_LIMIT;
  } else if (rc == 0 && glp_get_status(P) == GLP_OPT) {
    glp_iocp io;
    glp_init_iocp(&io);
    io.msg_lev = GLP_MSG_OFF;
    io.tm_lim = time_left(t0, time_ms);
    io.tol_int = NSEDI_LCP_MILP_TOL_INT;
    tree_count count = {nodes, max_pivots};
    io.cb_func = count_nodes;
    io.cb_info = &count;
    rc = glp_intopt(P, &io);
    int status = glp_mip_status(P);
    if (status == GLP_FEAS || status == GLP_OPT) {
      read_z(P, n, 1, cn, s, z);
      double r = nsedi_lcp_residual(n, M, q, z, w, ws->cn);
      double *zsharp = ws->zw, *wsharp = ws->ww;
      int left = time_left(t0, time_ms);
      if (left > 0 && sharpen(P, n, left, max_pivots, ws->vec) == 0) {
        read_z(P, n, 0, cn, s, zsharp);
        if (nsedi_lcp_residual(n, M, q, zsharp, wsharp, ws->cn) < r) {
          memcpy(z, zsharp, sizeof(double) * (size_t)n);
          memcpy(w, wsharp, sizeof(double) * (size_t)n);
        }
      }
      out = NSEDI_LCP_SOLVED;
    } else if (rc == GLP_ETMLIM) {
      out = NSEDI_LCP_TIME_LIMIT;
    } else if (rc == GLP_ESTOP) {
      out = NSEDI_LCP_MAXPIV;
    } else if (status == GLP_NOFEAS) {
      out = NSEDI_LCP_RAY;
    }
  }
  glp_delete_prob(P);
  return out;
}

/* The search's arguments, through the GLPK guard. */
typedef struct {
  nsedi_workspace *ws;
  int n;
  const double *M, *q;
  double *z, *w, bound;
  int time_ms, max_pivots, *nodes;
} search_args;

static int guarded_search(void *ctx) {
  search_args *a = ctx;
  return search(a->ws, a->n, a->M, a->q, a->z, a->w, a->bound, a->time_ms, a->max_pivots, a->nodes);
}

int nsedi_lcp_milp(nsedi_workspace *ws, int n, const double *M, const double *q, double *z, double *w,
                   double bound, int time_ms, int max_pivots, int *nodes) {
  *nodes = 0;
  search_args a = {ws, n, M, q, z, w, bound, time_ms, max_pivots, nodes};
  return nsedi_glpk_guarded(guarded_search, &a, NSEDI_LCP_FAILED);
}

#else /* built with -Dglpk=disabled */

int nsedi_lcp_milp(nsedi_workspace *ws, int n, const double *M, const double *q, double *z, double *w,
                   double bound, int time_ms, int max_pivots, int *nodes) {
  (void)ws, (void)n, (void)M, (void)q, (void)z, (void)w, (void)bound, (void)time_ms, (void)max_pivots;
  *nodes = 0;
  return NSEDI_LCP_UNAVAILABLE;
}

#endif
