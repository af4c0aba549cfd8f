/* The small dense LU (src/core/small_lu.c) that the constrained solves use:
 * on random matrices of 1 to 14 unknowns, dense and with structural zeros
 * (the unrolled copies for 3, 5, 6 and 8 to 12 unknowns and the general
 * one), each solve's residual |A x - b| against |A| |x| (an independent
 * product, to 1e-13), and several right-hand sides solved together (in
 * pairs where a paired copy exists) bit for bit as each alone. */
#include <math.h>
#include <string.h>

#include "nsed_test.h"
#include "small_lu.h"

enum { NMAX = 14, RMAX = 7 };

static unsigned long long rng = 0x853C49E6748FEA9Bull;

static double urand(void) { return nsed_test_urand(&rng); }

int main(void) {
  double worst = 0;
  long systems = 0, differ = 0;
  for (int n = 1; n <= NMAX; n++)
    for (int rep = 0; rep < 200; rep++) {
      double A[NMAX * NMAX], LU[NMAX * NMAX], B[NMAX * RMAX], X[NMAX * RMAX], one[NMAX];
      int piv[NMAX], nz[NMAX];
      int sparse = rep % 2;
      for (int i = 0; i < n * n; i++) A[i] = sparse && urand() < 0.4 ? 0.0 : 2 * urand() - 1;
      for (int i = 0; i < n; i++) A[i * n + i] += sparse ? 3.0 : 0.5; /* regular */
      memcpy(LU, A, sizeof(double) * (size_t)(n * n));
      if (!(nsedi_small_lu_factor(n, LU, piv, nz) > 0)) continue;
      int nrhs = 1 + rep % RMAX;
      for (int i = 0; i < n * nrhs; i++) B[i] = 2 * urand() - 1;
      memcpy(X, B, sizeof(double) * (size_t)(n * nrhs));
      nsedi_small_lu_solve(n, LU, piv, nrhs, X);
      systems++;
      for (int r = 0; r < nrhs; r++) {
        memcpy(one, B + r * n, sizeof(double) * (size_t)n);
        nsedi_small_lu_solve(n, LU, piv, 1, one);
        if (memcmp(one, X + r * n, sizeof(double) * (size_t)n) != 0) differ++;
        double res = 0, scale = 0;
        for (int i = 0; i < n; i++) {
          double ax = 0, mag = 0;
          for (int j = 0; j < n; j++) { /* A column-major: A[j n + i] */
            ax += A[j * n + i] * X[r * n + j];
            mag += fabs(A[j * n + i] * X[r * n + j]);
          }
          res = fmax(res, fabs(ax - B[r * n + i]));
          scale = fmax(scale, mag + fabs(B[r * n + i]));
        }
        worst = fmax(worst, res / scale);
      }
    }
  printf("%ld systems of 1 to %d unknowns: worst residual %.2e of |A||x| + |b|, %ld columns "
         "solved together differ from alone\n", systems, NMAX, worst, differ);
  CHECK(systems > 2500);
  CHECK(worst < 1e-13);
  CHECK(differ == 0);
  return TEST_DONE();
}
