#include "accel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lapack.h"
#include "small_lu.h"
#include "nsed/status.h"

struct nsedi_dyn_ws {
  int nv, maxr;
  double *minv;   /* nv: 1/m, 1/J per body */
  double *A;      /* maxr x maxr */
  double *A2;     /* copy for the least-squares fallback */
  double *rhs;    /* maxr (>= nv for lstsq) */
  double *rhs2;
  double *X;      /* maxr x (3*ncontact) */
  double *Wd;     /* dense (3nc) x nv */
  double *Jd;     /* dense maxr x nv */
  double *work;   /* 4*maxr */
  int *ipiv, *iwork;
  double *du;     /* nv: free acceleration in nsedi_delassus */
};

nsedi_dyn_ws *nsedi_dyn_ws_create(const nsed_model *m, int max_rows) {
  nsedi_dyn_ws *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  int nv = m->nv, r = max_rows > 1 ? max_rows : 1, nw = 3 * m->ncontact + 1;
  int big = r > nv ? r : nv;
  w->nv = nv;
  w->maxr = r;
  w->minv = malloc(sizeof(double) * (size_t)nv);
  w->A = malloc(sizeof(double) * (size_t)r * (size_t)r);
  w->A2 = malloc(sizeof(double) * (size_t)r * (size_t)r);
  w->rhs = malloc(sizeof(double) * (size_t)big * (size_t)(nw > 1 ? nw : 1));
  w->rhs2 = malloc(sizeof(double) * (size_t)big);
  w->X = malloc(sizeof(double) * (size_t)r * (size_t)nw);
  w->Wd = malloc(sizeof(double) * (size_t)nw * (size_t)nv);
  w->Jd = malloc(sizeof(double) * (size_t)r * (size_t)nv);
  w->work = malloc(sizeof(double) * 4 * (size_t)r);
  w->ipiv = malloc(sizeof(int) * (size_t)r);
  w->iwork = malloc(sizeof(int) * (size_t)r);
  w->du = malloc(sizeof(double) * (size_t)(nv > 0 ? nv : 1));
  if (!w->minv || !w->A || !w->A2 || !w->rhs || !w->rhs2 || !w->X || !w->Wd || !w->Jd ||
      !w->work || !w->ipiv || !w->iwork || !w->du) {
    nsedi_dyn_ws_free(&w);
    return NULL;
  }
  for (int i = 0; i < m->nbody; i++) {
    const nsed_body_def *b = &m->body[i].def;
    for (int k = 0; k < 3; k++) {
      w->minv[6 * i + k] = 1.0 / b->mass;
      w->minv[6 * i + 3 + k] = 1.0 / b->inertia[k];
    }
  }
  return w;
}

void nsedi_dyn_ws_free(nsedi_dyn_ws **pw) {
  if (!pw || !*pw) return;
  nsedi_dyn_ws *w = *pw;
  free(w->minv);
  free(w->A);
  free(w->A2);
  free(w->rhs);
  free(w->rhs2);
  free(w->X);
  free(w->Wd);
  free(w->Jd);
  free(w->work);
  free(w->ipiv);
  free(w->iwork);
  free(w->du);
  free(w);
  *pw = NULL;
}

/* sum_k x[k] minv[k] y[k] over one body's 6 coordinates. */
static double dot6(const double *x, const double *minv, const double *y) {
  double s = 0;
  for (int k = 0; k < 6; k++) s += x[k] * minv[k] * y[k];
  return s;
}

/* row . M^-1 . col for two sparse rows. */
static double row_minv_col(const nsedi_dyn_ws *w, const nsedi_row *r, const nsedi_row *c) {
  double s = 0;
  const int rb[2] = {r->a, r->b}, cb[2] = {c->a, c->b};
  const double *rj[2] = {r->ja, r->jb}, *cj[2] = {c->ja, c->jb};
  for (int i = 0; i < 2; i++) {
    if (rb[i] < 0) continue;
    for (int j = 0; j < 2; j++)
      if (cb[j] == rb[i]) s += dot6(rj[i], w->minv + 6 * rb[i], cj[j]);
  }
  return s;
}

/* row . v for a dense generalised vector v. */
static double row_dot(const nsedi_row *r, const double *v) {
  double s = 0;
  if (r->a >= 0)
    for (int k = 0; k < 6; k++) s += r->ja[k] * v[6 * r->a + k];
  if (r->b >= 0)
    for (int k = 0; k < 6; k++) s += r->jb[k] * v[6 * r->b + k];
  return s;
}

/* v += s * row^T */
static void row_axpy(double *v, double s, const nsedi_row *r) {
  if (r->a >= 0)
    for (int k = 0; k < 6; k++) v[6 * r->a + k] += s * r->ja[k];
  if (r->b >= 0)
    for (int k = 0; k < 6; k++) v[6 * r->b + k] += s * r->jb[k];
}

/* Solve A x = B (n x nrhs) with A in ws->A (destroyed). LU with a condition
 * check; a (nearly) singular A goes to minimum-norm least squares. */
static int solve_schur(nsedi_dyn_ws *w, int n, int nrhs, double *B, int *deficient) {
  *deficient = 0;
  if (n == 0) return NSED_OK;
  memcpy(w->A2, w->A, sizeof(double) * (size_t)n * (size_t)n);
  /* The pivot ratio is a cheap stand-in for a condition estimate: exactly
   * dependent rows (redundant contacts, two rollers at one point) leave a
   * pivot at round-off level, far below the threshold. */
  double ratio = nsedi_small_lu_factor(n, w->A, w->ipiv);
  if (ratio > 1e-10) {
    nsedi_small_lu_solve(n, w->A, w->ipiv, nrhs, B);
    return NSED_OK;
  }
  *deficient = 1;
  int rank = 0;
  int info = nsedi_lstsq(n, n, w->A2, nrhs, B, 1e-11, &rank);
  return info == 0 ? NSED_OK : NSED_ERR_SINGULAR;
}

int nsedi_solve_constrained(const nsed_model *m, nsedi_dyn_ws *w, int nr, const nsedi_row *rows,
                            const nsedi_row *cols, const double *target, const double *f,
                            double *du, double *lambda, int *rank_deficient) {
  int nv = m->nv;
  *rank_deficient = 0;
  for (int k = 0; k < nv; k++) du[k] = w->minv[k] * f[k];
  if (nr == 0) return NSED_OK;
  if (nr > w->maxr) return NSED_ERR_INTERNAL;
  for (int j = 0; j < nr; j++)
    for (int i = 0; i < nr; i++) w->A[j * nr + i] = row_minv_col(w, &rows[i], &cols[j]);
  for (int i = 0; i < nr; i++) w->rhs[i] = target[i] - row_dot(&rows[i], du);
  int rc = solve_schur(w, nr, 1, w->rhs, rank_deficient);
  if (rc) return rc;
  for (int i = 0; i < nr; i++) {
    lambda[i] = w->rhs[i];
    if (!isfinite(lambda[i])) return NSED_ERR_SINGULAR;
  }
  /* du = M^-1 (f + C^T lambda) */
  for (int k = 0; k < nv; k++) du[k] = f[k];
  for (int j = 0; j < nr; j++) row_axpy(du, lambda[j], &cols[j]);
  for (int k = 0; k < nv; k++) du[k] *= w->minv[k];
  if (*rank_deficient) {
    /* Least squares must still satisfy the rows: otherwise they contradict. */
    double worst = 0, scale = 0;
    for (int i = 0; i < nr; i++) {
      double r = row_dot(&rows[i], du) - target[i];
      if (fabs(r) > worst) worst = fabs(r);
      if (fabs(target[i]) > scale) scale = fabs(target[i]);
    }
    double fs = 0;
    for (int k = 0; k < nv; k++) fs = fmax(fs, fabs(f[k] * w->minv[k]));
    if (worst > 1e-7 * (1 + scale + fs)) return NSED_ERR_SINGULAR;
  }
  return NSED_OK;
}

int nsedi_delassus(const nsed_model *m, nsedi_dyn_ws *w, int nj, const nsedi_row *J,
                   const double *target_j, const double *f, int nw, const nsedi_row *W, double *G,
                   double *b, double *PWt) {
  int nv = m->nv, deficient = 0;
  if (nj > w->maxr) return NSED_ERR_INTERNAL;
  /* Free motion under the joints only. */
  double *dufree = w->du;
  int rc = nsedi_solve_constrained(m, w, nj, J, J, target_j, f, dufree, w->rhs2, &deficient);
  if (rc) return rc;
  for (int i = 0; i < nw; i++) b[i] = row_dot(&W[i], dufree) + W[i].bias;
  /* PWt column k = M^-1 w_k - M^-1 J^T X_k with (J M^-1 J^T) X = J M^-1 W^T. */
  for (int k = 0; k < nw; k++) {
    double *col = PWt + (size_t)k * nv;
    memset(col, 0, sizeof(double) * (size_t)nv);
    row_axpy(col, 1.0, &W[k]);
    for (int q = 0; q < nv; q++) col[q] *= w->minv[q];
  }
  if (nj > 0) {
    for (int j = 0; j < nj; j++)
      for (int i = 0; i < nj; i++) w->A[j * nj + i] = row_minv_col(w, &J[i], &J[j]);
    int ldb = nj;
    double *X = w->X;
    for (int k = 0; k < nw; k++)
      for (int i = 0; i < nj; i++) X[k * ldb + i] = row_minv_col(w, &J[i], &W[k]);
    rc = solve_schur(w, nj, nw, X, &deficient);
    if (rc) return rc;
    for (int k = 0; k < nw; k++) {
      double *col = PWt + (size_t)k * nv;
      double *tmp = w->rhs; /* nv-sized scratch */
      memset(tmp, 0, sizeof(double) * (size_t)nv);
      for (int i = 0; i < nj; i++) row_axpy(tmp, X[k * ldb + i], &J[i]);
      for (int q = 0; q < nv; q++) col[q] -= w->minv[q] * tmp[q];
    }
  }
  for (int k = 0; k < nw; k++)
    for (int i = 0; i < nw; i++) G[(size_t)k * nw + i] = row_dot(&W[i], PWt + (size_t)k * nv);
  /* Symmetrise: round-off only. */
  for (int k = 0; k < nw; k++)
    for (int i = 0; i < k; i++) {
      double s = 0.5 * (G[(size_t)k * nw + i] + G[(size_t)i * nw + k]);
      G[(size_t)k * nw + i] = G[(size_t)i * nw + k] = s;
    }
  return NSED_OK;
}
