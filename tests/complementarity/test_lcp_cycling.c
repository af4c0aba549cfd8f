/* An LCP on which Siconos' Lemke cycles (tests/data/lcp/cycling_face_1c_8e.dat):
 * nsed's lexicographic Lemke, which cannot cycle and which the AUTO path
 * runs first, solves it in a few pivots; where AUTO runs Siconos' Lemke
 * (after nsed's has failed) it stops it at NSEDI_SICONOS_PIVOTS_PER_UNKNOWN
 * pivots per unknown, and the basis it stops on is verified like any
 * answer (here it solves the problem). */
#include <stdlib.h>
#include <string.h>

#include "cp_internal.h"
#include "cp_test_util.h"
#include "nsed_test.h"
#include "tolerances.h"

int main(int argc, char **argv) {
  CHECK_MSG(argc == 2, "usage: %s cycling_face_1c_8e.dat", argv[0]);
  if (argc != 2) return TEST_DONE();
  nsed_error err;
  int n = 0;
  double *M = NULL, *q = NULL;
  int rc = nsed_lcp_read_file(argv[1], &n, &M, &q, &err);
  CHECK_MSG(rc == NSED_OK && n == 9, "%s: %s", argv[1], err.message);
  if (rc != NSED_OK) return TEST_DONE();
  double z[3][9], w[9];
  nsed_lcp_stats st[3];
  const nsed_lcp_path paths[3] = {NSED_LCP_PATH_SICONOS_LEMKE, NSED_LCP_PATH_NSED_LEMKE,
                                  NSED_LCP_PATH_AUTO};
  int max_pivots = 0;
  for (int k = 0; k < 3; k++) {
    nsed_contact_solver *s = cpt_path_solver(paths[k]);
    max_pivots = s->set.max_pivots;
    rc = nsed_lcp_solve(s, n, M, q, z[k], w, &st[k], &err);
    CHECK_MSG(rc == NSED_OK, "path %d: %s", k, err.message);
    nsed_contact_solver_free(&s);
  }
  /* The premise: Siconos' Lemke alone runs to the pivot limit here. */
  CHECK_MSG(st[0].pivots == max_pivots, "Siconos' Lemke took %d pivots (the file's premise: it "
            "cycles to the limit %d)", st[0].pivots, max_pivots);
  CHECK_MSG(st[1].pivots <= n, "nsed's Lemke: %d pivots", st[1].pivots);
  /* AUTO: nsed's Lemke first, so the cycle costs it nothing. */
  CHECK_MSG(strcmp(st[2].path, "nsed-lemke") == 0 && st[2].siconos_failed == 0,
            "AUTO answered by %s (siconos_failed %d)", st[2].path, st[2].siconos_failed);
  CHECK_MSG(st[2].pivots == st[1].pivots, "AUTO: %d pivots", st[2].pivots);
  CHECK(st[2].residual <= 1e-12 && st[1].residual <= 1e-12);
  /* The cap AUTO puts on Siconos' Lemke: the basis at 10 n pivots (the
   * cost the cap bounds, not the limit) is a solution here. */
  CHECK(NSEDI_SICONOS_PIVOTS_PER_UNKNOWN * n < max_pivots);
  nsed_contact_solver *s = cpt_path_solver(NSED_LCP_PATH_SICONOS_LEMKE);
  double zc[9], wc[9], cn[9];
  int piv = 0;
  nsedi_siconos_lemke(s->sic, n, M, q, zc, wc, NSEDI_SICONOS_PIVOTS_PER_UNKNOWN * n, &piv);
  double res = nsedi_lcp_residual(n, M, q, zc, wc, cn);
  CHECK_MSG(piv == NSEDI_SICONOS_PIVOTS_PER_UNKNOWN * n && res <= 1e-9,
            "Siconos' Lemke at the cap: %d pivots, residual %.3g", piv, res);
  nsed_contact_solver_free(&s);
  free(M);
  free(q);
  return TEST_DONE();
}
