/* Enumeration of complementary bases: the last resort for small LCPs (and the
 * proof of infeasibility when it finds nothing). nsed's own instead of
 * Siconos' LCP_ENUM, which leaks 32 B per call and caches work arrays sized by
 * its first problem (notes P5/P6).
 *
 * For each support B (smallest first, so z = 0 and sparse answers come first)
 * solve M_BB z_B = -q_B and accept if the verified residual is within tol.
 * Only nonsingular principal blocks are tried: every basic solution Lemke can
 * reach has one, since its complementary basis [I_N | -M_.B] is nonsingular
 * exactly when M_BB is. */
#include "cp_internal.h"
#include "lapack.h"

#include <string.h>

static int try_support(nsedi_workspace *ws, int n, const double *M, const double *q, unsigned mask,
                       double *z, double *w, double tol) {
  int *idx = ws->cand, k = 0;
  for (int i = 0; i < n; i++)
    if (mask & (1u << i)) idx[k++] = i;
  double *A = ws->sq, *x = ws->vec;
  for (int b = 0; b < k; b++)
    for (int a = 0; a < k; a++) A[(size_t)b * k + a] = M[(size_t)idx[b] * n + idx[a]];
  for (int a = 0; a < k; a++) x[a] = -q[idx[a]];
  if (k > 0 && nsedi_lu_solve(k, A, ws->ipiv, 1, x) != 0) return 0;
  for (int a = 0; a < k; a++)
    if (x[a] < 0.0) x[a] = 0.0; /* negative entries make the residual say no */
  memset(z, 0, sizeof(double) * (size_t)n);
  for (int a = 0; a < k; a++) z[idx[a]] = x[a];
  return nsedi_lcp_residual(n, M, q, z, w, ws->cn) <= tol;
}

int nsedi_enum(nsedi_workspace *ws, int n, const double *M, const double *q, double *z, double *w,
               double tol, int *tried) {
  *tried = 0;
  if (n > NSEDI_ENUM_MAX_N) return NSEDI_LCP_TOO_BIG;
  for (int k = 0; k <= n; k++) {
    /* all masks of popcount k in increasing order (Gosper's hack) */
    unsigned mask = k == 0 ? 0u : (1u << k) - 1u;
    unsigned limit = 1u << n;
    while (mask < limit) {
      (*tried)++;
      if (try_support(ws, n, M, q, mask, z, w, tol)) return NSEDI_LCP_SOLVED;
      if (k == 0) break;
      unsigned c = mask & (~mask + 1u), r = mask + c;
      mask = (((r ^ mask) >> 2) / c) | r;
    }
  }
  memset(z, 0, sizeof(double) * (size_t)n);
  (void)nsedi_lcp_residual(n, M, q, z, w, ws->cn);
  return NSEDI_LCP_RAY;
}
