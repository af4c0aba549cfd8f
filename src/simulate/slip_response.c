#include "slip_response.h"

#include <math.h>

#include "small_lu.h"

/* The smallest pivot ratio of the fit's matrix (columns scaled to 1) at
 * which three directions still determine the model. */
#define RESPONSE_PIVOT 1e-10

int nsedi_slip_response_fit(const double th[3], const double lam[3], const double a[6],
                            nsedi_slip_response *r) {
  /* Row k: [1, (lam_k / L) s_k1, (lam_k / L) s_k2] times (n, L q1, L q2)
   * = lam_k, and the same matrix times (a_r_j, L P_j1, L P_j2) = a_kj: one
   * factorisation, three right-hand sides (column-major); L = max |lam_k|
   * keeps the columns of one size. */
  double A[9], B[9], L = fmax(fabs(lam[0]), fmax(fabs(lam[1]), fabs(lam[2])));
  int piv[6];
  if (!(L > 0) || !isfinite(L)) return -1;
  for (int k = 0; k < 3; k++) {
    double s1 = cos(th[k]), s2 = sin(th[k]);
    A[k] = 1.0;
    A[3 + k] = lam[k] / L * s1;
    A[6 + k] = lam[k] / L * s2;
    B[k] = lam[k];
    B[3 + k] = a[2 * k];
    B[6 + k] = a[2 * k + 1];
  }
  if (!(nsedi_small_lu_factor(3, A, piv, piv + 3) > RESPONSE_PIVOT)) return -1;
  nsedi_small_lu_solve(3, A, piv, 3, B);
  r->n = B[0];
  r->q[0] = B[1] / L;
  r->q[1] = B[2] / L;
  r->a_r[0] = B[3];
  r->P[0] = B[4] / L;
  r->P[1] = B[5] / L;
  r->a_r[1] = B[6];
  r->P[2] = B[7] / L;
  r->P[3] = B[8] / L;
  return 0;
}

int nsedi_slip_response_at(const nsedi_slip_response *r, double th, double *cross, double *dot,
                           double *mag) {
  double s1 = cos(th), s2 = sin(th);
  double den = 1.0 - (r->q[0] * s1 + r->q[1] * s2);
  if (!(den > 0)) return -1;
  double lam = r->n / den;
  double a1 = r->a_r[0] + lam * (r->P[0] * s1 + r->P[1] * s2);
  double a2 = r->a_r[1] + lam * (r->P[2] * s1 + r->P[3] * s2);
  *cross = s1 * a2 - s2 * a1;
  *dot = s1 * a1 + s2 * a2;
  *mag = hypot(a1, a2);
  return 0;
}
