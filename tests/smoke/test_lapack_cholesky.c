/* OpenBLAS's LAPACK is linked: Cholesky solve of an SPD system against a
 * hand solution, and the LU and least-squares wrappers. */
#include "lapack.h"
#include "nsed_test.h"

int main(void) {
  double A[9] = {4, 2, 0, 2, 5, 1, 0, 1, 3};
  double b[3] = {6, 8, 4}; /* A * (1,1,1) */
  CHECK(nsedi_cholesky_factor(3, A) == 0);
  nsedi_cholesky_solve(3, A, 1, b);
  for (int i = 0; i < 3; i++) CHECK_NEAR(b[i], 1.0, 1e-14, 0);

  double B[4] = {0, 1, 1, 0};
  int ipiv[2];
  double r[2] = {2, 3};
  CHECK(nsedi_lu_solve(2, B, ipiv, 1, r) == 0);
  CHECK_NEAR(r[0], 3.0, 1e-15, 0);
  CHECK_NEAR(r[1], 2.0, 1e-15, 0);

  /* Rank-deficient: x + y = 2 twice: minimum-norm solution (1, 1). */
  double C[4] = {1, 1, 1, 1};
  double c[2] = {2, 2};
  int rank = -1;
  CHECK(nsedi_lstsq(2, 2, C, 1, c, 1e-12, &rank) == 0);
  CHECK(rank == 1);
  CHECK_NEAR(c[0], 1.0, 1e-14, 0);
  CHECK_NEAR(c[1], 1.0, 1e-14, 0);

  double singular[4] = {1, 2, 2, 4};
  double s[2] = {1, 1};
  CHECK(nsedi_lu_solve(2, singular, ipiv, 1, s) > 0);
  return TEST_DONE();
}
