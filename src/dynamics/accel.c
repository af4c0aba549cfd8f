#include "accel.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lapack.h"
#include "small_lu.h"
#include "tolerances.h"
#include "tree_solve.h"
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
  nsedi_lstsq_ws lstsq; /* the rank-deficient path's SVD workspace */
  int *nz, *perm, *key, *count; /* maxr, maxr, maxr, maxr + 1: the LU's workspace, row order */
  int *bdeg;      /* nbody + 1: rows touching each body, then offsets into bent */
  int *bent;      /* 2 maxr: (permuted row index << 1 | side) grouped by body */
  double *du;     /* nv: free acceleration in nsedi_delassus */
  double *anchor; /* maxr: the anchor of the multipliers in the row order perm */
  const double *weight; /* the caller's row weights (original order) or NULL */
  double *colscale;     /* maxr: 1 / sqrt(weight) in the row order perm */
  nsedi_tree_ws *tree; /* the linear-time path, tried first */
  int dense_only;      /* 1: skip the tree path (tests compare the two) */
  int tree_min_rows;   /* fewer rows go to the dense path (NSEDI_TREE_MIN_ROWS) */
  long ntree, ndense;  /* solves taken by each path */
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
  w->anchor = malloc(sizeof(double) * (size_t)r);
  w->colscale = malloc(sizeof(double) * (size_t)r);
  w->nz = malloc(sizeof(int) * (size_t)r);
  w->perm = malloc(sizeof(int) * (size_t)r);
  w->key = malloc(sizeof(int) * (size_t)r);
  w->count = malloc(sizeof(int) * (size_t)(r + 1));
  w->bdeg = malloc(sizeof(int) * (size_t)(m->nbody + 1));
  w->bent = malloc(sizeof(int) * 2 * (size_t)r);
  unsigned char *axial_only = calloc((size_t)(m->nbody > 0 ? m->nbody : 1), 1);
  if (axial_only)
    for (int i = 0; i < m->nbody; i++) axial_only[i] = m->body[i].parent >= 0;
  w->tree = axial_only ? nsedi_tree_ws_create(m->nbody, r, axial_only) : NULL;
  free(axial_only);
  w->tree_min_rows = NSEDI_TREE_MIN_ROWS;
  int lstsq_bad = nsedi_lstsq_ws_init(&w->lstsq, r, nw);
  if (lstsq_bad || !w->minv || !w->A || !w->A2 || !w->rhs || !w->rhs2 || !w->X || !w->Wd || !w->Jd ||
      !w->work || !w->ipiv || !w->iwork || !w->du || !w->anchor || !w->colscale || !w->nz || !w->perm || !w->key || !w->count ||
      !w->bdeg || !w->bent || !w->tree) {
    nsedi_dyn_ws_free(&w);
    return NULL;
  }
  /* A parent's with its attached rotors' (attached.h). */
  for (int i = 0; i < m->nbody; i++) {
    const nsedi_body *b = &m->body[i];
    for (int k = 0; k < 3; k++) {
      w->minv[6 * i + k] = 1.0 / b->solve_mass;
      w->minv[6 * i + 3 + k] = 1.0 / b->solve_inertia[k];
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
  free(w->nz);
  free(w->perm);
  free(w->key);
  free(w->count);
  free(w->bdeg);
  free(w->bent);
  free(w->iwork);
  free(w->du);
  free(w->anchor);
  free(w->colscale);
  nsedi_lstsq_ws_free(&w->lstsq);
  nsedi_tree_ws_free(&w->tree);
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
 * check; a (nearly) singular A goes to least squares: the minimum-norm
 * solution, or with anchor (nrhs = 1) the one nearest it, anchor + the
 * minimum-norm solution of A d = B - A anchor. */
static int solve_schur(nsedi_dyn_ws *w, int n, int nrhs, double *B, const double *anchor,
                       int *deficient) {
  *deficient = 0;
  if (n == 0) return NSED_OK;
  memcpy(w->A2, w->A, sizeof(double) * (size_t)n * (size_t)n);
  /* The pivot ratio stands in for a condition estimate (NSEDI_SCHUR_PIVOT). */
  double ratio = nsedi_small_lu_factor(n, w->A, w->ipiv, w->nz);
  if (ratio > NSEDI_SCHUR_PIVOT) {
    nsedi_small_lu_solve(n, w->A, w->ipiv, nrhs, B);
    return NSED_OK;
  }
  *deficient = 1;
  if (anchor && nrhs == 1)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) B[i] -= w->A2[(size_t)j * n + i] * anchor[j];
  /* Weighted: d = S e with S = W^-1/2 and e the minimum-norm solution of
   * (A S) e = B, the d of least sum w d^2. */
  int scaled = w->weight && anchor && nrhs == 1;
  if (scaled)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) w->A2[(size_t)j * n + i] *= w->colscale[j];
  int rank = 0;
  int info = nsedi_lstsq_square(&w->lstsq, n, w->A2, nrhs, B, NSEDI_SCHUR_RANK_CUT, &rank);
  if (scaled)
    for (int i = 0; i < n; i++) B[i] *= w->colscale[i];
  if (anchor && nrhs == 1)
    for (int i = 0; i < n; i++) B[i] += anchor[i];
  return info == 0 ? NSED_OK : NSED_ERR_SINGULAR;
}

/* Elimination order for the Schur complement: rows on bodies that few rows
 * touch come first (an omni vehicle's rollers before its wheels, the wheels
 * before the platform), so that eliminating them fills in only their own
 * branch of the tree. Counting sort on the key: stable, O(nr). */
static void order_rows(nsedi_dyn_ws *w, int nr, const nsedi_row *rows) {
  int nb = w->nv / 6;
  memset(w->bdeg, 0, sizeof(int) * (size_t)nb);
  for (int i = 0; i < nr; i++) {
    if (rows[i].a >= 0) w->bdeg[rows[i].a]++;
    if (rows[i].b >= 0) w->bdeg[rows[i].b]++;
  }
  memset(w->count, 0, sizeof(int) * (size_t)(nr + 1));
  for (int i = 0; i < nr; i++) {
    int ka = rows[i].a >= 0 ? w->bdeg[rows[i].a] : nr, kb = rows[i].b >= 0 ? w->bdeg[rows[i].b] : nr;
    w->key[i] = ka < kb ? ka : kb;
    w->count[w->key[i]]++;
  }
  for (int k = 0, start = 0; k <= nr; k++) {
    int c = w->count[k];
    w->count[k] = start;
    start += c;
  }
  for (int i = 0; i < nr; i++) w->perm[w->count[w->key[i]]++] = i;
}

/* A = R M^-1 C^T in the order w->perm, body by body: only rows sharing a
 * body couple, so the cost is the sum over bodies of (rows on it)^2 rather
 * than nr^2 row pairs. */
static void schur_by_body(nsedi_dyn_ws *w, int nr, const nsedi_row *rows, const nsedi_row *cols) {
  int nb = w->nv / 6, *off = w->bdeg;
  memset(w->A, 0, sizeof(double) * (size_t)nr * (size_t)nr);
  /* bdeg still holds the counts from order_rows: turn them into offsets. */
  for (int b = 0, s = 0; b <= nb; b++) {
    int c = b < nb ? off[b] : 0;
    off[b] = s;
    s += c;
  }
  for (int i = 0; i < nr; i++) {
    const nsedi_row *r = &rows[w->perm[i]];
    if (r->a >= 0) w->bent[off[r->a]++] = i << 1;
    if (r->b >= 0) w->bent[off[r->b]++] = i << 1 | 1;
  }
  for (int b = nb; b > 0; b--) off[b] = off[b - 1]; /* back to starts */
  off[0] = 0;
  for (int b = 0; b < nb; b++) {
    const double *mi = w->minv + 6 * b;
    for (int x = off[b]; x < off[b + 1]; x++) {
      int i = w->bent[x] >> 1;
      const nsedi_row *r = &rows[w->perm[i]];
      const double *ri = (w->bent[x] & 1) ? r->jb : r->ja;
      double t[6];
      for (int k = 0; k < 6; k++) t[k] = ri[k] * mi[k];
      for (int y = off[b]; y < off[b + 1]; y++) {
        int j = w->bent[y] >> 1;
        const nsedi_row *c = &cols[w->perm[j]];
        const double *cj = (w->bent[y] & 1) ? c->jb : c->ja;
        w->A[(size_t)j * nr + i] += t[0] * cj[0] + t[1] * cj[1] + t[2] * cj[2] + t[3] * cj[3] +
                                    t[4] * cj[4] + t[5] * cj[5];
      }
    }
  }
}

void nsedi_dyn_ws_dense_only(nsedi_dyn_ws *w, int on) { w->dense_only = on; }

void nsedi_dyn_ws_weights(nsedi_dyn_ws *w, const double *weight) { w->weight = weight; }

void nsedi_dyn_ws_tree_min_rows(nsedi_dyn_ws *w, int rows) { w->tree_min_rows = rows; }

void nsedi_dyn_ws_paths(const nsedi_dyn_ws *w, long *ntree, long *ndense) {
  *ntree = w->ntree;
  *ndense = w->ndense;
}

void nsedi_dyn_ws_refinements(const nsedi_dyn_ws *w, long *solves, long *refined) {
  nsedi_tree_counts(w->tree, solves, refined);
}

/* The linear-time path; 0 when the dense one must decide (see tree_solve.h).
 * Its first pass stands when its residual is below NSEDI_TREE_REFINE_SHARE
 * of the finer of the integrator's rtol and the law monitor's tolerance. */
static int solve_on_tree(nsedi_dyn_ws *w, double rtol, int nr, const nsedi_row *rows,
                         const nsedi_row *cols, const double *target, const double *f, double *du,
                         double *lambda) {
  double refine_above = NSEDI_TREE_REFINE_SHARE * fmin(rtol, NSEDI_LAW_NORMAL_TOL);
  if (w->dense_only || nr < w->tree_min_rows ||
      !nsedi_tree_factor(w->tree, w->minv, nr, rows, cols, w->tree_min_rows))
    return 0;
  nsedi_tree_solve(w->tree, f, target, du, lambda, refine_above);
  for (int i = 0; i < nr; i++)
    if (!isfinite(lambda[i])) return 0;
  w->ntree++;
  return 1;
}

int nsedi_solve_constrained(const nsed_model *m, nsedi_dyn_ws *w, int nr, const nsedi_row *rows,
                            const nsedi_row *cols, const double *target, const double *f,
                            const double *anchor, double *du, double *lambda, int *rank_deficient) {
  int nv = m->nv;
  *rank_deficient = 0;
  if (nr > w->maxr) return NSED_ERR_INTERNAL;
  if (nr > 0 && solve_on_tree(w, m->opt.rtol, nr, rows, cols, target, f, du, lambda))
    return NSED_OK;
  for (int k = 0; k < nv; k++) du[k] = w->minv[k] * f[k];
  if (nr == 0) return NSED_OK;
  w->ndense++;
  order_rows(w, nr, rows);
  const int *p = w->perm;
  schur_by_body(w, nr, rows, cols);
  for (int i = 0; i < nr; i++) w->rhs[i] = target[p[i]] - row_dot(&rows[p[i]], du);
  if (anchor)
    for (int i = 0; i < nr; i++) w->anchor[i] = anchor[p[i]];
  if (w->weight)
    for (int i = 0; i < nr; i++) w->colscale[i] = 1.0 / sqrt(w->weight[p[i]]);
  int rc = solve_schur(w, nr, 1, w->rhs, anchor ? w->anchor : NULL, rank_deficient);
  if (rc) return rc;
  for (int i = 0; i < nr; i++) {
    lambda[p[i]] = w->rhs[i];
    if (!isfinite(w->rhs[i])) return NSED_ERR_SINGULAR;
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
    if (worst > NSEDI_SCHUR_LSQ_RESIDUAL * (1 + scale + fs)) return NSED_ERR_SINGULAR;
  }
  return NSED_OK;
}

/* G = W PWt, symmetrised (the asymmetry is round-off only). */
static void delassus_from_pwt(int nv, int nw, const nsedi_row *W, const double *PWt, double *G) {
  for (int k = 0; k < nw; k++)
    for (int i = 0; i < nw; i++) G[(size_t)k * nw + i] = row_dot(&W[i], PWt + (size_t)k * nv);
  for (int k = 0; k < nw; k++)
    for (int i = 0; i < k; i++) {
      double s = 0.5 * (G[(size_t)k * nw + i] + G[(size_t)i * nw + k]);
      G[(size_t)k * nw + i] = G[(size_t)i * nw + k] = s;
    }
}

/* The event quantities on the linear-time path: one factorisation, the free
 * motion and each event row's response (a column of P W^T) as solves on
 * it, O(bodies) each where the dense Schur complement costs rows^3. 0:
 * the dense path decides, on the same grounds as for the right-hand side. */
static int delassus_on_tree(nsedi_dyn_ws *w, int nj, const nsedi_row *J, const double *target_j,
                            const double *f, int nw, const nsedi_row *W, double *b, double *PWt) {
  int nv = w->nv;
  if (w->dense_only || nj < w->tree_min_rows ||
      !nsedi_tree_factor(w->tree, w->minv, nj, J, J, w->tree_min_rows))
    return 0;
  double *lam = w->rhs2;
  nsedi_tree_solve(w->tree, f, target_j, w->du, lam, 0.0);
  for (int i = 0; i < nj; i++)
    if (!isfinite(lam[i])) return 0;
  for (int i = 0; i < nw; i++) b[i] = row_dot(&W[i], w->du) + W[i].bias;
  double *force = w->rhs; /* nv-sized scratch */
  for (int k = 0; k < nw; k++) {
    memset(force, 0, sizeof(double) * (size_t)nv);
    row_axpy(force, 1.0, &W[k]);
    nsedi_tree_solve(w->tree, force, NULL, PWt + (size_t)k * nv, lam, 0.0);
    for (int i = 0; i < nj; i++)
      if (!isfinite(lam[i])) return 0;
  }
  w->ntree++;
  return 1;
}

int nsedi_delassus(const nsed_model *m, nsedi_dyn_ws *w, int nj, const nsedi_row *J,
                   const double *target_j, const double *f, int nw, const nsedi_row *W, double *G,
                   double *b, double *PWt) {
  int nv = m->nv, deficient = 0;
  if (nj > w->maxr) return NSED_ERR_INTERNAL;
  if (delassus_on_tree(w, nj, J, target_j, f, nw, W, b, PWt)) {
    delassus_from_pwt(nv, nw, W, PWt, G);
    return NSED_OK;
  }
  /* The dense path: the rows were too few for the tree, dependent, or
   * closed too many loops. The free motion must then come from the same
   * path: its rank-deficient branch picks the multipliers. */
  double *dufree = w->du;
  int dense_only = w->dense_only;
  w->dense_only = 1;
  int rc = nsedi_solve_constrained(m, w, nj, J, J, target_j, f, NULL, dufree, w->rhs2, &deficient);
  w->dense_only = dense_only;
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
    rc = solve_schur(w, nj, nw, X, NULL, &deficient);
    if (rc) return rc;
    for (int k = 0; k < nw; k++) {
      double *col = PWt + (size_t)k * nv;
      double *tmp = w->rhs; /* nv-sized scratch */
      memset(tmp, 0, sizeof(double) * (size_t)nv);
      for (int i = 0; i < nj; i++) row_axpy(tmp, X[k * ldb + i], &J[i]);
      for (int q = 0; q < nv; q++) col[q] -= w->minv[q] * tmp[q];
    }
  }
  delassus_from_pwt(nv, nw, W, PWt, G);
  return NSED_OK;
}
