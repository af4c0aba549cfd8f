/* Exact-cone problems that Siconos' NSGS finds hard (argv[1]: the data
 * file; argv[2], optional: the path the answer must come from). tests/data/cone/spin_in_place_3c.txt needs 84811 sweeps, where a
 * limit of 20000 stopped it at a residual of 1.2e-9 and the run with it;
 * tests/data/cone/coast_slip_3c.txt (one stick candidate, two contacts
 * slipping) stalled at a residual of 2.8e-9 while NSGS's local solver kept
 * its default tolerance; tests/data/cone/mecanum_car_impact_5c.txt, an
 * impact problem, is one NSGS makes no progress on (3.2e-5 after 1e6
 * sweeps) and the extragradient method solves (path fc3d-vi-eg). The cone
 * path must return a verified answer, and
 * that answer must be Coulomb's law checked here independently: each
 * normal force >= 0, each normal acceleration >= 0 and complementary to it;
 * a stick candidate's force in its cone (mu0), its tangential acceleration
 * zero if it sticks, and if it slides its friction on the cone's boundary
 * opposite its tangential acceleration; a slipping contact's friction
 * -mu lambda_n along its slip direction. At impact level the same law
 * holds between the impulses and the velocities after the impact, the
 * normal one v_n+ + e v_n- (Newton's restitution). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp_test_util.h"
#include "nsed_test.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s PROBLEM [PATH]\n", argv[0]);
    return 2;
  }
  nsed_contact_problem_file file;
  nsed_error err;
  if (nsed_contact_problem_read(argv[1], &file, &err) != NSED_OK) {
    fprintf(stderr, "%s\n", err.message);
    return 2;
  }
  int nc = file.problem.nc;
  const double *b = file.b;
  const nsed_cp_contact *c = file.contacts;
  nsed_complementarity_settings s;
  nsed_complementarity_default_settings(&s);
  s.model = NSED_FRICTION_EXACT_CONE;
  nsed_contact_solver *cs = NULL;
  CHECK_MSG(nsed_contact_solver_create(&s, nc, &cs, &err) == NSED_OK, "%s", err.message);
  double *lambda = calloc(3 * (size_t)nc, sizeof(double)), *a = calloc(3 * (size_t)nc, sizeof(double));
  double *dir = calloc(2 * (size_t)nc, sizeof(double));
  nsed_cp_mode *mode = calloc((size_t)nc, sizeof *mode);
  CHECK(lambda && a && dir && mode);
  nsed_contact_solution sol = {.lambda = lambda, .a = a, .mode = mode, .slip_dir = dir};
  nsed_lcp_stats st;
  int rc = file.impact ? nsed_contact_solve_impact(cs, &file.problem, &sol, &st, &err)
                       : nsed_contact_solve_accel(cs, &file.problem, &sol, &st, &err);
  CHECK_MSG(rc == NSED_OK, "the cone path failed: %s", err.message);
  if (rc == NSED_OK) {
    /* Coulomb's law, independently, relative to the problem's scales */
    double fs = 0, as = 0, worst = 0;
    for (int k = 0; k < 3 * nc; k++) fs = fmax(fs, fabs(lambda[k])), as = fmax(as, fabs(b[k]));
    for (int i = 0; i < nc; i++) {
      const double *l = lambda + 3 * i, *ai = a + 3 * i;
      double lt = hypot(l[1], l[2]), at = hypot(ai[1], ai[2]);
      double an = ai[0] + (file.impact ? c[i].restitution * b[3 * i] : 0.0);
      worst = fmax(worst, fmax(-l[0], 0) / fs);                       /* lambda_n >= 0 */
      worst = fmax(worst, fmax(-an, 0) / as);                         /* a_n >= 0 */
      worst = fmax(worst, fmin(l[0] / fs, an / as));                  /* complementary */
      if (c[i].kind == NSED_CP_SLIPPING) { /* kinetic friction along the held direction */
        worst = fmax(worst, hypot(l[1] + c[i].mu * l[0] * c[i].slip_dir[0],
                                  l[2] + c[i].mu * l[0] * c[i].slip_dir[1]) / fs);
        continue;
      }
      worst = fmax(worst, fmax(lt - c[i].mu0 * l[0], 0) / fs);        /* in the cone */
      /* a contact without normal force (it opens) has no friction, checked
       * just above, and its tangential motion is free */
      if (l[0] <= 1e-12 * fs) continue;
      /* sliding: on the cone's boundary, friction opposite a_T */
      double cosang = at > 0 && lt > 0 ? -(l[1] * ai[1] + l[2] * ai[2]) / (lt * at) : (at > 0 ? -1 : 1);
      double slides = fmax(fabs(lt - c[i].mu0 * l[0]) / fs, 1 - cosang);
      worst = fmax(worst, fmin(at / as, slides));                     /* sticks or slides */
      if (mode[i] == NSED_CP_SLIP) worst = fmax(worst, slides);       /* the mode says so */
    }
    printf("%s (%d contacts): path %s, %d iterations, verified residual "
           "%.2e, Coulomb's law off by %.2e; modes", argv[1], nc, st.path, st.pivots, st.residual, worst);
    for (int i = 0; i < nc; i++) printf(" %s", mode[i] == NSED_CP_OPEN ? "open" : mode[i] == NSED_CP_STICK ? "stick" : "slip");
    printf("\n");
    CHECK_NEAR(worst, 0, 1e-8, 0);
    if (argc > 2) CHECK_MSG(strcmp(st.path, argv[2]) == 0, "answered by %s, not %s", st.path, argv[2]);
  }
  nsed_contact_solver_free(&cs);
  free(lambda), free(a), free(dir), free(mode);
  nsed_contact_problem_file_free(&file);
  return TEST_DONE();
}
