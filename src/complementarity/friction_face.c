/* Face (friction-saturation) form of the circumscribed polygon, Xu et al.
 * §4.2 generalised to several contacts (derivation: docs/complementarity.md §2).
 *
 * Unknowns: x (nc) the normal forces (a slipping contact's column carries its
 * kinetic friction), y = lambda_T (2 ns) of the stick candidates, nu (m ns).
 *   a_N = A x + B y + b_N,   a_T = C x + D y + b_T,   D = G_TT,
 *   a_T = -N nu                     (maximal dissipation: a_T in -normal cone)
 *   F = U x - N^T y >= 0  _|_  nu >= 0   (F_j = mu0 lambda_n - n_j . lambda_T)
 * Eliminating y = -D^-1 (C x + N nu + b_T) gives the LCP in z = (x, nu):
 *   M = [ A - B D^-1 C     -B D^-1 N   ]   q = [ b_N - B D^-1 b_T ]
 *       [ U + N^T D^-1 C    N^T D^-1 N ]       [ N^T D^-1 b_T     ]
 * of size nc + m ns. D must be invertible: when its Cholesky factor shows it
 * singular or ill-conditioned (redundant contacts), NSED_ERR_SINGULAR tells
 * the caller to use the vertex form of the same polygon instead.
 *
 * Torsional rows: the caller sends a problem here only when none carries a
 * moment (docs/complementarity.md §11); a moment unknown would have to join
 * y in the elimination. G's leading dimension is ng = 3nc + nw. */
#include "cp_internal.h"
#include "lapack.h"

#include <math.h>
#include <string.h>

int nsedi_face_solve(nsed_contact_solver *s, const nsedi_cp *p, double *lambda,
                     nsed_lcp_stats *stats, nsed_error *err) {
  nsedi_workspace *ws = &s->ws;
  const int nc = p->nc, ns = p->ns, m = s->set.sides, n3 = 3 * nc, nt = 2 * ns;
  const int nz = nc + m * ns, ncx = nz + 1, ng = n3 + p->nw;
  const double *G = p->G, *b = p->b;
  nsedi_build_GE(ws, p);
  double *X = ws->X;
  if (ns > 0) {
    double *D = ws->D, dmax = 0.0;
    for (int l = 0; l < ns; l++)
      for (int d = 0; d < 2; d++)
        for (int k = 0; k < ns; k++)
          for (int c = 0; c < 2; c++)
            D[(size_t)(2 * l + d) * nt + 2 * k + c] =
                G[(size_t)(3 * p->stick[l] + 1 + d) * ng + 3 * p->stick[k] + 1 + c];
    for (int i = 0; i < nt; i++) dmax = fmax(dmax, D[(size_t)i * nt + i]);
    if (!(dmax > 0.0) || nsedi_cholesky_factor(nt, D) != 0)
      return nsed_error_set(err, NSED_ERR_SINGULAR, "G_TT of %d stick candidates is singular", ns);
    double lmin = INFINITY;
    for (int i = 0; i < nt; i++) lmin = fmin(lmin, D[(size_t)i * nt + i]);
    if (lmin * lmin < NSEDI_FACE_COND * dmax)
      return nsed_error_set(err, NSED_ERR_SINGULAR, "G_TT of %d stick candidates is ill-conditioned", ns);
    /* X = D^-1 [C | N | b_T], columns aligned with the LCP's, b_T last */
    memset(X, 0, sizeof(double) * (size_t)nt * (size_t)ncx);
    for (int j = 0; j < nc; j++)
      for (int k = 0; k < ns; k++)
        for (int c = 0; c < 2; c++)
          X[(size_t)j * nt + 2 * k + c] = ws->GE[(size_t)j * ng + 3 * p->stick[k] + 1 + c];
    for (int k = 0; k < ns; k++)
      for (int f = 0; f < m; f++) {
        double *col = X + (size_t)(nc + k * m + f) * nt;
        col[2 * k] = s->dirs.at[2 * f];
        col[2 * k + 1] = s->dirs.at[2 * f + 1];
      }
    for (int k = 0; k < ns; k++)
      for (int c = 0; c < 2; c++) X[(size_t)nz * nt + 2 * k + c] = b[3 * p->stick[k] + 1 + c];
    nsedi_cholesky_solve(nt, D, ncx, X);
  }
  double *M = ws->M, *q = ws->q;
  /* normal rows */
  for (int i = 0; i < nc; i++) {
    for (int j = 0; j <= nz; j++) {
      double bx = 0.0;
      for (int k = 0; k < ns; k++)
        for (int c = 0; c < 2; c++)
          bx += G[(size_t)(3 * p->stick[k] + 1 + c) * ng + 3 * i] * X[(size_t)j * nt + 2 * k + c];
      if (j < nc)
        M[(size_t)j * nz + i] = ws->GE[(size_t)j * ng + 3 * i] - bx;
      else if (j < nz)
        M[(size_t)j * nz + i] = -bx;
      else
        q[i] = b[3 * i] - bx;
    }
  }
  /* face rows */
  for (int k = 0; k < ns; k++)
    for (int f = 0; f < m; f++) {
      int r = nc + k * m + f;
      double c0 = s->dirs.at[2 * f], s0 = s->dirs.at[2 * f + 1];
      for (int j = 0; j <= nz; j++) {
        const double *xc = X + (size_t)j * nt + 2 * k;
        double v = c0 * xc[0] + s0 * xc[1];
        if (j == p->stick[k]) v += p->mu[p->stick[k]];
        if (j < nz)
          M[(size_t)j * nz + r] = v;
        else
          q[r] = v;
      }
    }
  int rc = nsedi_lcp_run(s, nz, M, q, ws->z, ws->w, stats, NSEDI_FORM_FACE, err);
  if (rc != NSED_OK) return rc;
  /* recover lambda: y = -(X_C x + X_N nu + X_b) */
  const double *z = ws->z;
  memset(lambda, 0, sizeof(double) * (size_t)ng);
  for (int i = 0; i < nc; i++) {
    lambda[3 * i] = z[i];
    if (p->kind[i] == NSED_CP_SLIPPING) {
      lambda[3 * i + 1] = -p->mu[i] * z[i] * p->c[i].slip_dir[0];
      lambda[3 * i + 2] = -p->mu[i] * z[i] * p->c[i].slip_dir[1];
    }
  }
  for (int k = 0; k < ns; k++)
    for (int c = 0; c < 2; c++) {
      double y = X[(size_t)nz * nt + 2 * k + c];
      for (int j = 0; j < nz; j++)
        if (z[j] != 0.0) y += X[(size_t)j * nt + 2 * k + c] * z[j];
      lambda[3 * p->stick[k] + 1 + c] = -y;
    }
  nsedi_spin_lambda(p, lambda);
  return NSED_OK;
}
