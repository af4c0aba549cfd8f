/* Verification of LCP solutions: nsed never trusts a solver's own report
 * (Siconos' raw Lemke calls a ray "success", its driver skips checks for
 * n == 1: notes P3/P4). Also the basis polish that turns a solution found on a
 * scaled or regularised problem into an exact basic solution of the original. */
#include "cp_internal.h"
#include "lapack.h"

#include <math.h>
#include <string.h>

int nsedi_all_finite(size_t n, const double *x) {
  for (size_t i = 0; i < n; i++)
    if (!isfinite(x[i])) return 0;
  return 1;
}

double nsedi_lcp_residual(int n, const double *M, const double *q, const double *z, double *w,
                          double *cn) {
  double qs = 0.0;
  for (int i = 0; i < n; i++) qs = nsedi_maxf(qs, fabs(q[i]));
  if (!(qs > 0.0)) qs = 1.0;
  for (int j = 0; j < n; j++) {
    double c = 0.0;
    for (int i = 0; i < n; i++) c = nsedi_maxf(c, fabs(M[(size_t)j * n + i]));
    cn[j] = c;
  }
  double r = 0.0;
  for (int i = 0; i < n; i++) {
    double s = 0.0, mag = 0.0, unit = 0.0;
    for (int j = 0; j < n; j++) {
      double mij = M[(size_t)j * n + i], t = mij * z[j];
      s += t;
      mag += fabs(t);
      if (mij != 0.0) unit = nsedi_maxf(unit, fabs(mij) / cn[j]);
    }
    w[i] = s + q[i];
    /* Row scale of w_i: the size of what was summed into it (at least
     * NSEDI_LCP_ROW_SCALE of the absolute terms, so their round-off is not
     * judged as a violation), and at least what a unit-size z_j
     * (z_j c_j = ||q||) puts in this row, so a row whose terms all vanish
     * is not judged on round-off alone. */
    double wsi = nsedi_maxf(nsedi_maxf(fabs(q[i]), fabs(s)), nsedi_maxf(NSEDI_LCP_ROW_SCALE * mag, qs * unit));
    double wi = wsi > 0.0 ? w[i] / wsi : (w[i] == 0.0 ? 0.0 : -INFINITY);
    /* z_i in the units of w: its column's size times z_i, against ||q|| (a
     * global scale, so a huge spurious z_k elsewhere cannot hide it) */
    double zi = cn[i] > 0.0 ? z[i] * cn[i] / qs : (z[i] < 0.0 ? -INFINITY : 0.0);
    double m = fabs(nsedi_minf(zi, wi));
    if (!(m <= r)) r = isnan(m) ? INFINITY : m;
  }
  return r;
}

double nsedi_lcp_polish(nsedi_workspace *ws, int n, const double *M, const double *q, double *z,
                        double *w, double old_residual) {
  int *idx = ws->basis; /* free after Lemke finished: reuse as index list */
  int k = 0;
  for (int i = 0; i < n; i++)
    if (z[i] > 0.0) idx[k++] = i;
  if (k == 0) return old_residual;
  double *A = ws->sq, *x = ws->vec, *znew = ws->vec + n;
  for (int b = 0; b < k; b++)
    for (int a = 0; a < k; a++) A[(size_t)b * k + a] = M[(size_t)idx[b] * n + idx[a]];
  for (int a = 0; a < k; a++) x[a] = -q[idx[a]];
  int info = nsedi_lu_solve(k, A, ws->ipiv, 1, x);
  if (info != 0) {
    /* Singular support block (redundant contacts): minimum-norm least squares. */
    for (int b = 0; b < k; b++)
      for (int a = 0; a < k; a++) A[(size_t)b * k + a] = M[(size_t)idx[b] * n + idx[a]];
    for (int a = 0; a < k; a++) x[a] = -q[idx[a]];
    int rank = 0;
    if (nsedi_lstsq(k, k, A, 1, x, NSEDI_POLISH_RANK_CUT, &rank) != 0) return old_residual;
  }
  memset(znew, 0, sizeof(double) * (size_t)n);
  for (int a = 0; a < k; a++) znew[idx[a]] = nsedi_maxf(x[a], 0.0);
  double *wnew = ws->ww;
  double r = nsedi_lcp_residual(n, M, q, znew, wnew, ws->cn);
  if (r < old_residual) {
    memcpy(z, znew, sizeof(double) * (size_t)n);
    memcpy(w, wnew, sizeof(double) * (size_t)n);
    return r;
  }
  return old_residual;
}
