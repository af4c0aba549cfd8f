/* Hand-solved LCPs through every path, infeasibility reported as such, and
 * bad input answered by error codes (never an exit). */
#include <stdlib.h>
#include <string.h>

#include "cp_internal.h"
#include "cp_test_util.h"
#include "nsed_test.h"

static const char *path_name(nsed_lcp_path p) {
  static const char *n[] = {"auto", "siconos", "nsed", "enum"};
  return n[p];
}

int main(void) {
  nsed_error err;
  nsed_lcp_stats st;
  for (int p = NSED_LCP_PATH_AUTO; p <= NSED_LCP_PATH_ENUM; p++) {
    nsed_contact_solver *s = cpt_path_solver((nsed_lcp_path)p);
    double z[2], w[2];
    /* 1x1, q < 0: z = 1/2, w = 0 */
    double M1 = 2.0, q1 = -1.0;
    int rc = nsed_lcp_solve(s, 1, &M1, &q1, z, w, &st, &err);
    CHECK_MSG(rc == NSED_OK, "%s 1x1 q<0: %s", path_name(p), err.message);
    CHECK_NEAR(z[0], 0.5, 1e-15, 0);
    CHECK_NEAR(w[0], 0.0, 1e-15, 0);
    CHECK(st.residual <= 1e-14);
    /* 1x1, q >= 0: z = 0, w = q */
    q1 = 3.0;
    rc = nsed_lcp_solve(s, 1, &M1, &q1, z, w, &st, &err);
    CHECK_MSG(rc == NSED_OK, "%s 1x1 q>=0: %s", path_name(p), err.message);
    CHECK(z[0] == 0.0 && w[0] == 3.0);
    /* 1x1 with M = -1, q = -1: no solution (Siconos' n==1 shortcut would
     * return z = -1 with info 0: notes P4). Siconos alone cannot tell a ray from a
     * failure: NSED_ERR_LCP; the other paths prove infeasibility. */
    double Mn = -1.0, qn = -1.0;
    rc = nsed_lcp_solve(s, 1, &Mn, &qn, z, w, &st, &err);
    if (p == NSED_LCP_PATH_SICONOS_LEMKE)
      CHECK_MSG(rc == NSED_ERR_LCP, "%s M=-1: rc %d", path_name(p), rc);
    else
      CHECK_MSG(rc == NSED_LCP_INFEASIBLE, "%s M=-1: rc %d (%s)", path_name(p), rc, err.message);
    CHECK(z[0] == 0.0);
    /* 2x2 degenerate: M = [1 1; 1 1], q = (-1, -1): any z >= 0 with z1+z2 = 1 */
    double M2[4] = {1, 1, 1, 1}, q2[2] = {-1, -1};
    rc = nsed_lcp_solve(s, 2, M2, q2, z, w, &st, &err);
    CHECK_MSG(rc == NSED_OK, "%s 2x2 degenerate: %s", path_name(p), err.message);
    CHECK_NEAR(z[0] + z[1], 1.0, 1e-14, 0);
    CHECK(z[0] >= 0.0 && z[1] >= 0.0);
    CHECK_NEAR(w[0], 0.0, 1e-14, 0);
    CHECK_NEAR(w[1], 0.0, 1e-14, 0);
    /* 2x2 degenerate with q having a zero: M = [2 0; 0 0], q = (-2, 0): z = (1, any>=0 with w2=0) */
    double M3[4] = {2, 0, 0, 0}, q3[2] = {-2, 0};
    rc = nsed_lcp_solve(s, 2, M3, q3, z, w, &st, &err);
    CHECK_MSG(rc == NSED_OK, "%s 2x2 zero column: %s", path_name(p), err.message);
    CHECK_NEAR(z[0], 1.0, 1e-14, 0);
    CHECK_NEAR(w[1], 0.0, 1e-14, 0);
    /* infeasible PSD 2x2: M = [1 -1; -1 1], q = (-1, -1): w1 + w2 = -2 < 0 always */
    double M4[4] = {1, -1, -1, 1}, q4[2] = {-1, -1};
    rc = nsed_lcp_solve(s, 2, M4, q4, z, w, &st, &err);
    if (p == NSED_LCP_PATH_SICONOS_LEMKE)
      CHECK_MSG(rc == NSED_ERR_LCP, "%s infeasible 2x2: rc %d", path_name(p), rc);
    else
      CHECK_MSG(rc == NSED_LCP_INFEASIBLE, "%s infeasible 2x2: rc %d (%s)", path_name(p), rc,
                err.message);
    CHECK_MSG(rc != NSED_OK, "path %s z %g %g w %g %g", st.path, z[0], z[1], w[0], w[1]);
    /* 3x3 SPD with a known basis {0, 2}: z = (0.25, 0, 1.5) */
    double M5[9] = {4, 1, 0, 1, 3, 1, 0, 1, 2}, q5[3] = {-1, 2, -3}, z3[3], w3[3];
    rc = nsed_lcp_solve(s, 3, M5, q5, z3, w3, &st, &err);
    CHECK_MSG(rc == NSED_OK, "%s 3x3: %s", path_name(p), err.message);
    CHECK_NEAR(z3[0], 0.25, 1e-14, 0);
    CHECK_NEAR(z3[1], 0.0, 1e-14, 0);
    CHECK_NEAR(z3[2], 1.5, 1e-14, 0);
    CHECK_NEAR(w3[1], 2.0 + 0.25 + 1.5, 1e-13, 0);
    nsed_contact_solver_free(&s);
    CHECK(s == NULL);
  }

  /* Bad input: error codes, messages, no exit. */
  nsed_contact_solver *s = cpt_path_solver(NSED_LCP_PATH_AUTO);
  double Mb[4] = {1, 0, 0, NAN}, qb[2] = {-1, -1}, z[2], w[2];
  int rc = nsed_lcp_solve(s, 2, Mb, qb, z, w, &st, &err);
  CHECK(rc == NSED_ERR_NONFINITE);
  CHECK(strstr(err.message, "non-finite") != NULL);
  Mb[3] = 1.0;
  qb[1] = INFINITY;
  CHECK(nsed_lcp_solve(s, 2, Mb, qb, z, w, &st, &err) == NSED_ERR_NONFINITE);
  CHECK(nsed_lcp_solve(s, -1, Mb, qb, z, w, &st, &err) == NSED_ERR_INPUT);
  CHECK(nsed_lcp_solve(s, 2, NULL, qb, z, w, &st, &err) == NSED_ERR_INPUT);
  CHECK(nsed_lcp_solve(NULL, 2, Mb, qb, z, w, &st, &err) == NSED_ERR_INPUT);
  CHECK(nsed_lcp_solve(s, 0, NULL, NULL, NULL, NULL, &st, &err) == NSED_OK);

  /* contact problems */
  double G[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, b[3] = {-1, 0, 0};
  nsed_cp_contact c = {.kind = NSED_CP_STICK_CANDIDATE, .mu = 0.3, .mu0 = -0.5};
  nsed_contact_problem prob = {.nc = 1, .G = G, .b = b, .contacts = &c};
  double lam[3], a[3], sd[2];
  nsed_cp_mode mode[1];
  nsed_contact_solution sol = {.lambda = lam, .a = a, .mode = mode, .slip_dir = sd};
  rc = nsed_contact_solve_accel(s, &prob, &sol, &st, &err);
  CHECK_MSG(rc == NSED_ERR_INPUT && strstr(err.message, "mu0 = -0.5"), "negative mu0: %d %s", rc, err.message);
  c.mu0 = 0.5;
  c.mu = NAN;
  CHECK(nsed_contact_solve_accel(s, &prob, &sol, &st, &err) == NSED_ERR_INPUT);
  c.mu = 0.3;
  c.kind = NSED_CP_SLIPPING;
  c.slip_dir[0] = 0.5; /* not a unit vector */
  CHECK(nsed_contact_solve_accel(s, &prob, &sol, &st, &err) == NSED_ERR_INPUT);
  c.kind = NSED_CP_STICK_CANDIDATE;
  G[4] = NAN;
  CHECK(nsed_contact_solve_accel(s, &prob, &sol, &st, &err) == NSED_ERR_NONFINITE);
  G[4] = 1.0;
  c.restitution = 1.5;
  CHECK(nsed_contact_solve_impact(s, &prob, &sol, &st, &err) == NSED_ERR_INPUT);
  c.restitution = 0.0;
  prob.nc = -2;
  CHECK(nsed_contact_solve_accel(s, &prob, &sol, &st, &err) == NSED_ERR_INPUT);
  prob.nc = 1;
  CHECK(nsed_contact_solve_accel(s, NULL, &sol, &st, &err) == NSED_ERR_INPUT);
  CHECK(nsed_contact_solve_accel(s, &prob, &sol, &st, &err) == NSED_OK);
  CHECK_NEAR(lam[0], 1.0, 1e-14, 0);
  CHECK(mode[0] == NSED_CP_STICK);
  nsed_contact_solver_free(&s);
  nsed_contact_solver_free(&s); /* double free is a no-op */

  /* settings */
  nsed_complementarity_settings set;
  nsed_complementarity_default_settings(&set);
  CHECK(set.sides == 8 && set.model == NSED_FRICTION_POLYGON_FACE && set.tol == 1e-9);
  set.sides = 6;
  CHECK(nsed_contact_solver_create(&set, 1, &s, &err) == NSED_ERR_INPUT && s == NULL);
  set.sides = 8;
  set.tol = 0.0;
  CHECK(nsed_contact_solver_create(&set, 1, &s, &err) == NSED_ERR_INPUT);
  set.tol = 1e-10;
  set.path = (nsed_lcp_path)7;
  CHECK(nsed_contact_solver_create(&set, 1, &s, &err) == NSED_ERR_INPUT);
  set.path = NSED_LCP_PATH_AUTO;
  CHECK(nsed_contact_solver_create(&set, -1, &s, &err) == NSED_ERR_INPUT);
  CHECK(nsed_contact_solver_create(&set, 0, &s, &err) == NSED_OK);
  nsed_contact_solver_free(&s);
  return TEST_DONE();
}
