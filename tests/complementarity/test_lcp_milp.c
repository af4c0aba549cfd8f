/* The mixed-integer path (lcp_milp.c). Arguments: the mecanum car's impact
 * problems in the vertex form (LCPs of 70) on which both Lemkes fail (the
 * second has no pair within the smallest bound the search finds in its
 * node limit, and one within the next): the mixed-integer search must
 * answer each, and the answer must be a complementary pair by the checks
 * here (not the library's); AUTO must answer each too, within its
 * tolerance (since 2026-12-08 by the regularised retry's own answer,
 * docs/complementarity.md, "Regularised answers on nearly dependent
 * supports"). Then 400
 * random LCPs of 3 to 12 unknowns with general (not copositive) matrices,
 * decided independently by the exhaustive enumeration: the search must
 * find a pair wherever the enumeration's is within a tenth of its bound,
 * and none where the enumeration proves there is none. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp_internal.h"
#include "cp_test_util.h"
#include "nsed_test.h"

/* Complementarity checked here: z >= 0, w = M z + q >= 0 and z_i w_i = 0,
 * each to rel of the size of the terms summed into w_i. Returns the worst
 * violation relative to those sizes. */
static double pair_violation(int n, const double *M, const double *q, const double *z) {
  double qs = 0.0, zs = 0.0, worst = 0.0;
  for (int i = 0; i < n; i++) qs = fmax(qs, fabs(q[i]));
  for (int j = 0; j < n; j++) {
    double c = 0.0;
    for (int i = 0; i < n; i++) c = fmax(c, fabs(M[(size_t)j * n + i]));
    zs = fmax(zs, c * fabs(z[j]));
  }
  double scale = fmax(qs, zs);
  for (int i = 0; i < n; i++) {
    long double w = q[i];
    for (int j = 0; j < n; j++) w += (long double)M[(size_t)j * n + i] * z[j];
    double c = 0.0;
    for (int k = 0; k < n; k++) c = fmax(c, fabs(M[(size_t)i * n + k]));
    worst = fmax(worst, -z[i] * c / scale);
    worst = fmax(worst, (double)-w / scale);
    worst = fmax(worst, fmin(z[i] * c / scale, (double)w / scale));
  }
  return worst;
}

static void car_problem(const char *path) {
  int n = 0;
  double *M = NULL, *q = NULL;
  nsed_error err;
  CHECK_MSG(nsed_lcp_read_file(path, &n, &M, &q, &err) == NSED_OK, "%s", err.message);
  if (n != 70) return;
  double *z = calloc((size_t)n, sizeof *z), *w = calloc((size_t)n, sizeof *w);
  nsed_lcp_stats st;
  /* the fixture must stay a problem Lemke does not solve */
  nsed_contact_solver *lemke = cpt_path_solver(NSED_LCP_PATH_NSED_LEMKE);
  CHECK(nsed_lcp_solve(lemke, n, M, q, z, w, &st, &err) != NSED_OK);
  nsed_contact_solver *milp = cpt_path_solver(NSED_LCP_PATH_MILP);
  int rc = nsed_lcp_solve(milp, n, M, q, z, w, &st, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  CHECK_MSG(strcmp(st.path, "milp") == 0, "path %s", st.path);
  double v = pair_violation(n, M, q, z);
  printf("%s (70): path %s, %d nodes, residual %.3g, violation checked here %.3g\n", path, st.path,
         st.pivots, st.residual, v);
  CHECK_MSG(v <= 1e-12, "violation %.3g", v);
  nsed_contact_solver *aut = cpt_path_solver(NSED_LCP_PATH_AUTO);
  rc = nsed_lcp_solve(aut, n, M, q, z, w, &st, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  v = pair_violation(n, M, q, z);
  printf("%s (70): AUTO path %s, residual %.3g, violation checked here %.3g\n", path, st.path, st.residual, v);
  CHECK_MSG(v <= 1e-9, "AUTO: violation %.3g", v);
  nsed_contact_solver_free(&lemke);
  nsed_contact_solver_free(&milp);
  nsed_contact_solver_free(&aut);
  free(z);
  free(w);
  free(M);
  free(q);
}

/* Largest entry of the pair (z, w) in the search's units: z_j c_j and w_i
 * against max |q_i| (lcp_milp.c). */
static double scaled_size(int n, const double *M, const double *q, const double *z, const double *w) {
  double qs = 0.0, s = 0.0;
  for (int i = 0; i < n; i++) qs = fmax(qs, fabs(q[i]));
  for (int j = 0; j < n; j++) {
    double c = 0.0;
    for (int i = 0; i < n; i++) c = fmax(c, fabs(M[(size_t)j * n + i]));
    s = fmax(s, fmax(c * z[j], w[j]));
  }
  return s / qs;
}

static void random_against_enumeration(void) {
  static const double bounds[] = NSEDI_LCP_MILP_BOUNDS;
  const double smallest_bound = bounds[0];
  cpt_rng rng = {0x6d696c70ull};
  nsed_contact_solver *en = cpt_path_solver(NSED_LCP_PATH_ENUM);
  nsed_contact_solver *mi = cpt_path_solver(NSED_LCP_PATH_MILP);
  nsed_contact_solver *le = cpt_path_solver(NSED_LCP_PATH_NSED_LEMKE);
  int solvable = 0, unsolvable = 0, beyond = 0, found = 0, lemke_missed = 0;
  double worst = 0.0;
  enum { NMAX = 12, COUNT = 400 };
  double M[NMAX * NMAX], q[NMAX], z[NMAX], w[NMAX], ze[NMAX], we[NMAX], zl[NMAX], wl[NMAX];
  for (int t = 0; t < COUNT; t++) {
    int n = cpt_int(&rng, 3, NMAX);
    for (int k = 0; k < n * n; k++) M[k] = 2.0 * cpt_unif(&rng) - 1.0;
    for (int i = 0; i < n; i++) M[(size_t)i * n + i] += cpt_unif(&rng); /* mostly, not always, positive */
    for (int i = 0; i < n; i++) q[i] = 2.0 * cpt_unif(&rng) - 1.0;
    nsed_lcp_stats st;
    nsed_error err;
    int rc_e = nsed_lcp_solve(en, n, M, q, ze, we, &st, &err);
    int rc_l = nsed_lcp_solve(le, n, M, q, zl, wl, &st, &err);
    int rc_m = nsed_lcp_solve(mi, n, M, q, z, w, &st, &err);
    if (rc_e == NSED_LCP_INFEASIBLE) {
      unsolvable++;
      CHECK_MSG(rc_m != NSED_OK, "problem %d (n %d): a pair where the enumeration proves none", t, n);
      continue;
    }
    CHECK_MSG(rc_e == NSED_OK, "problem %d: enumeration: %s", t, err.message);
    if (scaled_size(n, M, q, ze, we) > 0.1 * smallest_bound) {
      beyond++;
      continue;
    }
    solvable++;
    CHECK_MSG(rc_m == NSED_OK, "problem %d (n %d): no pair found: %s", t, n, err.message);
    if (rc_m != NSED_OK) continue;
    found++;
    if (rc_l != NSED_OK) lemke_missed++;
    worst = fmax(worst, pair_violation(n, M, q, z));
  }
  printf("random LCPs: %d with a pair within a tenth of the bound (found %d; nsed's Lemke missed %d of "
         "them), %d without (none found), %d with only larger pairs seen; worst violation %.3g\n",
         solvable, found, lemke_missed, unsolvable, beyond, worst);
  CHECK(solvable >= 100 && unsolvable >= 20 && lemke_missed >= 5);
  CHECK_MSG(worst <= 1e-12, "worst violation %.3g", worst);
  nsed_contact_solver_free(&en);
  nsed_contact_solver_free(&mi);
  nsed_contact_solver_free(&le);
}

int main(int argc, char **argv) {
  for (int k = 1; k < argc; k++) car_problem(argv[k]);
  random_against_enumeration();
  return TEST_DONE();
}
