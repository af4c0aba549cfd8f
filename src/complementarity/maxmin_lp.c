/* The largest common margin of affine margins, by GLPK's simplex. Columns:
 * y_1 .. y_ny free, t bounded above by t_max (the program stays bounded
 * where the margins can all grow together, as two walls squeezing a
 * sphere). Row k: sum_j A_kj y_j - t >= -c_k, or sum_j A_kj y_j = -c_k. */
#include "maxmin_lp.h"

#ifdef NSED_HAVE_GLPK

#include <glpk.h>

#include "glpk_guard.h"
#include "tolerances.h"

static int solve(int nm, int ny, const double *A, const double *c, const char *eq, double t_max,
                 double *y) {
  glp_prob *P = glp_create_prob();
  glp_set_obj_dir(P, GLP_MAX);
  glp_add_cols(P, ny + 1);
  glp_add_rows(P, nm);
  for (int j = 1; j <= ny; j++) glp_set_col_bnds(P, j, GLP_FR, 0.0, 0.0);
  glp_set_col_bnds(P, ny + 1, GLP_UP, 0.0, t_max);
  glp_set_obj_coef(P, ny + 1, 1.0);
  /* GLPK's allocations: glp_free_env releases them after a caught error. */
  int *ind = glp_alloc(ny + 2, sizeof(int));
  double *val = glp_alloc(ny + 2, sizeof(double));
  for (int k = 0; k < nm; k++) {
    int n = 0;
    for (int j = 0; j < ny; j++) {
      double a = A[(size_t)j * nm + k];
      if (a != 0.0) ind[++n] = j + 1, val[n] = a;
    }
    if (!eq[k]) ind[++n] = ny + 1, val[n] = -1.0;
    glp_set_mat_row(P, k + 1, n, ind, val);
    glp_set_row_bnds(P, k + 1, eq[k] ? GLP_FX : GLP_LO, -c[k], -c[k]);
  }
  glp_free(ind);
  glp_free(val);
  glp_smcp sm;
  glp_init_smcp(&sm);
  sm.msg_lev = GLP_MSG_OFF;
  sm.it_lim = NSEDI_LP_PIVOTS_PER_ROW * (nm + ny + 1);
  int out = -1;
  if (glp_simplex(P, &sm) == 0 && glp_get_status(P) == GLP_OPT) {
    for (int j = 0; j < ny; j++) y[j] = glp_get_col_prim(P, j + 1);
    out = 0;
  }
  glp_delete_prob(P);
  return out;
}

typedef struct {
  int nm, ny;
  const double *A, *c;
  const char *eq;
  double t_max, *y;
} program;

static int guarded_solve(void *ctx) {
  program *p = ctx;
  return solve(p->nm, p->ny, p->A, p->c, p->eq, p->t_max, p->y);
}

int nsedi_maxmin_lp(int nm, int ny, const double *A, const double *c, const char *eq, double t_max,
                    double *y) {
  if (nm <= 0 || ny < 0) return -1;
  program p = {nm, ny, A, c, eq, t_max, y};
  return nsedi_glpk_guarded(guarded_solve, &p, -1);
}

#else /* built with -Dglpk=disabled */

int nsedi_maxmin_lp(int nm, int ny, const double *A, const double *c, const char *eq, double t_max,
                    double *y) {
  (void)nm, (void)ny, (void)A, (void)c, (void)eq, (void)t_max, (void)y;
  return 1;
}

#endif
