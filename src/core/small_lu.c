#include "small_lu.h"

#include <math.h>

/* Step k's pivot: the row of column k's largest entry swapped in, the
 * pivots' extremes updated, and 1 / u_kk stored on the diagonal (the solves
 * multiply by the pivot's reciprocal: a division per pivot here instead of
 * one per pivot in every solve, where each sits on the back substitution's
 * critical path). Returns u_kk. Inlined with n a constant where it is one. */
static inline double pivot_step(int n, double *A, int *piv, int k, double *umax, double *umin) {
  int p = k;
  double best = fabs(A[k * n + k]);
  for (int i = k + 1; i < n; i++)
    if (fabs(A[k * n + i]) > best) {
      best = fabs(A[k * n + i]);
      p = i;
    }
  piv[k] = p;
  if (p != k)
    for (int j = 0; j < n; j++) {
      double t = A[j * n + k];
      A[j * n + k] = A[j * n + p];
      A[j * n + p] = t;
    }
  double d = A[k * n + k];
  *umax = fmax(*umax, fabs(d));
  *umin = fmin(*umin, fabs(d));
  A[k * n + k] = 1.0 / d;
  return d;
}

/* A block of a multibody tree's solve (a body's 6 x 6, a joint's or a
 * contact's rows): dense, so no list of structural zeros is kept, and with
 * n a compile-time constant below the loops unroll. The operations are the
 * general factor's (the same products skipped), so the factors are the
 * same. */
#define LU_FACTOR_DENSE_BODY(n)                                                                    \
  double umax = 0, umin = INFINITY;                                                                \
  for (int k = 0; k < (n); k++) {                                                                  \
    double d = pivot_step((n), A, piv, k, &umax, &umin);                                           \
    if (d == 0) continue;                                                                          \
    for (int i = k + 1; i < (n); i++)                                                              \
      if (A[k * (n) + i] != 0) A[k * (n) + i] /= d;                                                \
    for (int j = k + 1; j < (n); j++) {                                                            \
      double f = A[j * (n) + k];                                                                   \
      if (f == 0) continue;                                                                        \
      for (int i = k + 1; i < (n); i++)                                                            \
        if (A[k * (n) + i] != 0) A[j * (n) + i] -= A[k * (n) + i] * f;                             \
    }                                                                                              \
  }                                                                                                \
  return umax > 0 ? umin / umax : 0.0;

static double factor_6(double *A, int *piv) { LU_FACTOR_DENSE_BODY(6) }
static double factor_5(double *A, int *piv) { LU_FACTOR_DENSE_BODY(5) }
static double factor_3(double *A, int *piv) { LU_FACTOR_DENSE_BODY(3) }
/* Schur complements of small assemblies (a disk on a shaft: two joints of
 * four rows and a contact of one or three). */
static double factor_8(double *A, int *piv) { LU_FACTOR_DENSE_BODY(8) }
static double factor_9(double *A, int *piv) { LU_FACTOR_DENSE_BODY(9) }
static double factor_10(double *A, int *piv) { LU_FACTOR_DENSE_BODY(10) }
static double factor_11(double *A, int *piv) { LU_FACTOR_DENSE_BODY(11) }
static double factor_12(double *A, int *piv) { LU_FACTOR_DENSE_BODY(12) }

double nsedi_small_lu_factor(int n, double *A, int *piv, int *nz) {
  switch (n) {
  case 6: return factor_6(A, piv);
  case 5: return factor_5(A, piv);
  case 3: return factor_3(A, piv);
  case 8: return factor_8(A, piv);
  case 9: return factor_9(A, piv);
  case 10: return factor_10(A, piv);
  case 11: return factor_11(A, piv);
  case 12: return factor_12(A, piv);
  default: break;
  }
  double umax = 0, umin = INFINITY;
  for (int k = 0; k < n; k++) {
    double d = pivot_step(n, A, piv, k, &umax, &umin);
    if (d == 0) continue; /* singular: the ratio says so; leave the column */
    int m = 0;
    for (int i = k + 1; i < n; i++)
      if (A[k * n + i] != 0) {
        A[k * n + i] /= d;
        nz[m++] = i;
      }
    for (int j = k + 1; j < n; j++) {
      double f = A[j * n + k];
      if (f == 0) continue;
      double *col = A + (long)j * n;
      const double *l = A + (long)k * n;
      for (int q = 0; q < m; q++) col[nz[q]] -= l[nz[q]] * f;
    }
  }
  return n == 0 ? 1.0 : (umax > 0 ? umin / umax : 0.0);
}

/* Substitution on x (an array of double, or of lane pairs below) of
 * element type T; with n a compile-time constant the compiler unrolls the
 * loops. The operations and their order are the same for every n and
 * every T, so the answers do not depend on which copy runs. */
#define LU_SUBSTITUTE(T, x, n)                                                  \
  for (int k = 0; k < (n); k++) {                                             \
    int p = piv[k];                                                           \
    if (p != k) {                                                             \
      T t = x[k];                                                             \
      x[k] = x[p];                                                            \
      x[p] = t;                                                               \
    }                                                                         \
  }                                                                           \
  for (int k = 0; k < (n); k++)                                               \
    for (int i = k + 1; i < (n); i++) x[i] -= LU[k * (n) + i] * x[k];         \
  for (int k = (n) - 1; k >= 0; k--) {                                        \
    x[k] *= LU[k * (n) + k];                                                  \
    for (int i = 0; i < k; i++) x[i] -= LU[k * (n) + i] * x[k];               \
  }

/* One right-hand side b. */
#define LU_SOLVE_BODY(n) LU_SUBSTITUTE(double, b, n)

static void solve_n(int n, const double *LU, const int *piv, double *b) { LU_SOLVE_BODY(n) }
/* The blocks of the tree solve: a body (6), a joint's or contact's rows (<= 6). */
static void solve_6(const double *LU, const int *piv, double *b) { LU_SOLVE_BODY(6) }
static void solve_5(const double *LU, const int *piv, double *b) { LU_SOLVE_BODY(5) }
static void solve_3(const double *LU, const int *piv, double *b) { LU_SOLVE_BODY(3) }
static void solve_9(const double *LU, const int *piv, double *b) { LU_SOLVE_BODY(9) }
static void solve_11(const double *LU, const int *piv, double *b) { LU_SOLVE_BODY(11) }

#if defined(__GNUC__)
/* Two right-hand sides at once, one in each lane of a pair of doubles (the
 * tree solve's coupling blocks have five or six): each lane's operations
 * are the single solve's in its order (LU_SUBSTITUTE), so each answer is
 * bit for bit the same, with half the instructions. */
typedef double lane_pair __attribute__((vector_size(16)));
#define LU_SOLVE_PAIR_BODY(n)                                                   \
  lane_pair x[(n)];                                                           \
  for (int i = 0; i < (n); i++) x[i] = (lane_pair){b0[i], b1[i]};             \
  LU_SUBSTITUTE(lane_pair, x, n)                                              \
  for (int i = 0; i < (n); i++) {                                             \
    b0[i] = x[i][0];                                                          \
    b1[i] = x[i][1];                                                          \
  }

static void solve_pair_6(const double *LU, const int *piv, double *b0, double *b1) { LU_SOLVE_PAIR_BODY(6) }
static void solve_pair_5(const double *LU, const int *piv, double *b0, double *b1) { LU_SOLVE_PAIR_BODY(5) }
static void solve_pair_3(const double *LU, const int *piv, double *b0, double *b1) { LU_SOLVE_PAIR_BODY(3) }

/* Pairs of columns where a paired copy exists; returns the columns done. */
static int solve_pairs(int n, const double *LU, const int *piv, int nrhs, double *B) {
  int r = 0;
  for (; r + 1 < nrhs; r += 2) {
    double *b0 = B + (long)r * n, *b1 = b0 + n;
    switch (n) {
    case 6: solve_pair_6(LU, piv, b0, b1); break;
    case 5: solve_pair_5(LU, piv, b0, b1); break;
    case 3: solve_pair_3(LU, piv, b0, b1); break;
    default: return r;
    }
  }
  return r;
}
#else
static int solve_pairs(int n, const double *LU, const int *piv, int nrhs, double *B) {
  (void)n, (void)LU, (void)piv, (void)nrhs, (void)B;
  return 0;
}
#endif

void nsedi_small_lu_solve(int n, const double *LU, const int *piv, int nrhs, double *B) {
  for (int r = solve_pairs(n, LU, piv, nrhs, B); r < nrhs; r++) {
    double *b = B + (long)r * n;
    switch (n) {
    case 6: solve_6(LU, piv, b); break;
    case 5: solve_5(LU, piv, b); break;
    case 3: solve_3(LU, piv, b); break;
    case 9: solve_9(LU, piv, b); break;
    case 11: solve_11(LU, piv, b); break;
    default: solve_n(n, LU, piv, b);
    }
  }
}
