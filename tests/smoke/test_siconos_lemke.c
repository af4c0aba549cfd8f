/* Siconos Numerics is linked and its Lemke solves a small LCP: the solution is
 * checked here, independently of Siconos' own error filter. */
#include <LCP_Solvers.h>
#include <LinearComplementarityProblem.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <SolverOptions.h>
#include <lcp_cst.h>

#include "nsed_test.h"

int main(void) {
  /* M SPD (column-major), q with mixed signs: a non-trivial basis. */
  double M[9] = {4, 1, 0, 1, 3, 1, 0, 1, 2};
  double q[3] = {-1, 2, -3};
  double z[3] = {0}, w[3] = {0};
  NumericsMatrix *NM = NM_create_from_data(NM_DENSE, 3, 3, M);
  LinearComplementarityProblem lcp = {.size = 3, .M = NM, .q = q};
  SolverOptions *opt = solver_options_create(SICONOS_LCP_LEMKE);
  opt->dparam[SICONOS_DPARAM_TOL] = 1e-12;
  opt->iparam[SICONOS_LCP_IPARAM_SKIP_TRIVIAL] = SICONOS_LCP_SKIP_TRIVIAL_YES;
  int info = linearComplementarity_driver(&lcp, z, w, opt);
  CHECK_MSG(info == 0, "Siconos Lemke info %d", info);
  for (int i = 0; i < 3; i++) {
    double wi = q[i];
    for (int j = 0; j < 3; j++) wi += M[j * 3 + i] * z[j];
    CHECK_NEAR(w[i], wi, 1e-12, 0);
    CHECK(z[i] >= -1e-14);
    CHECK(wi >= -1e-12);
    CHECK(fabs(z[i] * wi) <= 1e-12);
  }
  /* Hand solution: z2 = 0 active set {0, 2}: [4 0; 0 2] z = [1; 3]. */
  CHECK_NEAR(z[0], 0.25, 1e-12, 0);
  CHECK_NEAR(z[2], 1.5, 1e-12, 0);
  solver_options_delete(opt);
  free(opt);
  NM_free_not_dense(NM);
  return TEST_DONE();
}
