#include "nvector_kernels.h"

#include <math.h>

/* Each kernel below computes, element by element, exactly the expression
 * SUNDIALS 6.4's serial vector computes for the same arguments (its special
 * cases for coefficients of +-1 are the general expression's value bit for
 * bit, except a == b and a == -b in a linear sum, kept here), and the
 * reductions add in index order: the results do not depend on which
 * kernels run. */

static void linear_sum(double a, N_Vector x, double b, N_Vector y, N_Vector z) {
  sunindextype n = NV_LENGTH_S(z);
  const double *xd = NV_DATA_S(x), *yd = NV_DATA_S(y);
  double *zd = NV_DATA_S(z);
  /* In place (an axpy) or with a unit coefficient SUNDIALS forms a x + b y
   * term by term; otherwise equal or opposite coefficients are factored. */
  int unit = a == 1.0 || b == 1.0 || a == -1.0 || b == -1.0;
  if (!unit && a == b) {
    for (sunindextype i = 0; i < n; i++) zd[i] = a * (xd[i] + yd[i]);
  } else if (!unit && a == -b) {
    for (sunindextype i = 0; i < n; i++) zd[i] = a * (xd[i] - yd[i]);
  } else {
    for (sunindextype i = 0; i < n; i++) zd[i] = a * xd[i] + b * yd[i];
  }
}

static void scale(double c, N_Vector x, N_Vector z) {
  sunindextype n = NV_LENGTH_S(z);
  const double *xd = NV_DATA_S(x);
  double *zd = NV_DATA_S(z);
  for (sunindextype i = 0; i < n; i++) zd[i] = c * xd[i];
}

static void absolute(N_Vector x, N_Vector z) {
  sunindextype n = NV_LENGTH_S(z);
  const double *xd = NV_DATA_S(x);
  double *zd = NV_DATA_S(z);
  for (sunindextype i = 0; i < n; i++) zd[i] = fabs(xd[i]);
}

static void inverse(N_Vector x, N_Vector z) {
  sunindextype n = NV_LENGTH_S(z);
  const double *xd = NV_DATA_S(x);
  double *zd = NV_DATA_S(z);
  for (sunindextype i = 0; i < n; i++) zd[i] = 1.0 / xd[i];
}

static double weighted_square_sum(N_Vector x, N_Vector w) {
  sunindextype n = NV_LENGTH_S(x);
  const double *xd = NV_DATA_S(x), *wd = NV_DATA_S(w);
  double sum = 0.0;
  for (sunindextype i = 0; i < n; i++) {
    double p = xd[i] * wd[i];
    sum += p * p;
  }
  return sum;
}

static double weighted_rms_norm(N_Vector x, N_Vector w) {
  return sqrt(weighted_square_sum(x, w) / (double)NV_LENGTH_S(x));
}

/* z = c0 X0 + c1 X1 + ...: SUNDIALS' generic form, which scales into z
 * and then adds each term to z in turn (a term that is z itself reads the
 * partial sum). */
static int linear_combination(int nvec, double *c, N_Vector *X, N_Vector z) {
  if (nvec < 1) return -1;
  sunindextype n = NV_LENGTH_S(z);
  double *zd = NV_DATA_S(z);
  scale(c[0], X[0], z);
  for (int k = 1; k < nvec; k++) {
    const double *xd = NV_DATA_S(X[k]);
    double ck = c[k];
    for (sunindextype i = 0; i < n; i++) zd[i] = zd[i] + ck * xd[i];
  }
  return 0;
}

void nsedi_nvector_use_own_kernels(N_Vector v) {
  v->ops->nvlinearsum = linear_sum;
  v->ops->nvscale = scale;
  v->ops->nvabs = absolute;
  v->ops->nvinv = inverse;
  v->ops->nvwrmsnorm = weighted_rms_norm;
  v->ops->nvwsqrsumlocal = weighted_square_sum;
  v->ops->nvlinearcombination = linear_combination;
}
