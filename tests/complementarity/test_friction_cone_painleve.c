/* The exact cone on Painleve-like problems: a slipping contact whose
 * kinetic friction turns its normal compliance (the normal diagonal of W,
 * its column carrying -mu s, not positive). Siconos' fc3d local solvers
 * assert that diagonal positive and abort the process; found on a coin
 * (mu = 5) from a random start (tests/data/cone/coin_painleve_1c.txt,
 * argv[1]), where nsed died on the assertion. With no contact that may
 * stick the problem is the normal rows' LCP, the same in every form, and
 * the polygon path answers it; with a stick candidate beside it the cone
 * path refuses it with a message. Cases, each against its closed form:
 *
 *  1. One contact, G_nn = 1, G_nt = 0.5, mu = 5 along t1: compliance
 *     1 - 5 * 0.5 = -1.5. b_n = -1: a_n = -1.5 lambda - 1 < 0 for every
 *     lambda >= 0, no solution (NSED_LCP_INFEASIBLE, as the polygon forms
 *     say). b_n = +1: two solutions, lambda = 0 (a_n = 1) and lambda = 2/3
 *     (a_n = 0); the answer must be one of them, to 1e-12.
 *  2. The same beside a stick candidate: NSED_ERR_LCP naming the contact.
 *  3. The coin's problem: no solution, as the vertex form finds. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cp_test_util.h"
#include "nsed_test.h"

typedef struct {
  double lambda[6], a[6], dir[4];
  nsed_cp_mode mode[2];
  nsed_lcp_stats st;
  nsed_error err;
} answer;

static int solve(nsed_friction_model model, const nsed_contact_problem *p, answer *ans) {
  nsed_contact_solver *cs = cpt_solver(model, 8);
  nsed_contact_solution sol = {.lambda = ans->lambda, .a = ans->a, .mode = ans->mode, .slip_dir = ans->dir};
  int rc = nsed_contact_solve_accel(cs, p, &sol, &ans->st, &ans->err);
  nsed_contact_solver_free(&cs);
  return rc;
}

static void one_slipping(void) {
  /* column-major, symmetric */
  const double G[9] = {1.0, 0.5, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 1.0};
  nsed_cp_contact c = {.kind = NSED_CP_SLIPPING, .mu = 5.0, .mu0 = 5.0, .slip_dir = {1.0, 0.0}};
  const double b_none[3] = {-1.0, 0.3, 0.0}, b_two[3] = {1.0, 0.3, 0.0};
  nsed_contact_problem p = {.nc = 1, .G = G, .b = b_none, .contacts = &c};
  answer ans;
  int rc = solve(NSED_FRICTION_EXACT_CONE, &p, &ans);
  printf("b_n = -1: %s (%s)\n", nsed_status_name(rc), rc ? ans.err.message : "");
  CHECK(rc == NSED_LCP_INFEASIBLE);
  answer face;
  CHECK(solve(NSED_FRICTION_POLYGON_FACE, &p, &face) == NSED_LCP_INFEASIBLE);
  p.b = b_two;
  rc = solve(NSED_FRICTION_EXACT_CONE, &p, &ans);
  double ln = ans.lambda[0], an = ans.a[0];
  printf("b_n = +1: %s, lambda_n %.17g, a_n %.17g, friction (%.6g, %.6g), path %s\n", nsed_status_name(rc), ln,
         an, ans.lambda[1], ans.lambda[2], ans.st.path);
  CHECK(rc == NSED_OK);
  int open = fabs(ln) < 1e-12 && fabs(an - 1.0) < 1e-12;
  int closed = fabs(ln - 2.0 / 3.0) < 1e-12 && fabs(an) < 1e-12;
  CHECK_MSG(open || closed, "lambda_n %.17g, a_n %.17g", ln, an);
  CHECK(fabs(ans.lambda[1] + 5.0 * ln) < 1e-12 && fabs(ans.lambda[2]) < 1e-15);
}

static void beside_a_stick(void) {
  double G[36] = {0};
  for (int k = 0; k < 6; k++) G[7 * k] = 1.0;
  G[1] = G[6] = 0.5; /* contact 0's n-t1 coupling */
  nsed_cp_contact c[2] = {{.kind = NSED_CP_SLIPPING, .mu = 5.0, .mu0 = 5.0, .slip_dir = {1.0, 0.0}},
                          {.kind = NSED_CP_STICK_CANDIDATE, .mu = 0.5, .mu0 = 0.5}};
  const double b[6] = {-1.0, 0.3, 0.0, -1.0, 0.1, 0.0};
  nsed_contact_problem p = {.nc = 2, .G = G, .b = b, .contacts = c};
  answer ans;
  int rc = solve(NSED_FRICTION_EXACT_CONE, &p, &ans);
  printf("beside a stick candidate: %s: %s\n", nsed_status_name(rc), ans.err.message);
  CHECK(rc == NSED_ERR_LCP && strstr(ans.err.message, "contact 0 of 2") &&
        strstr(ans.err.message, "not positive"));
}

static void coin(const char *path) {
  nsed_contact_problem_file file;
  nsed_error err;
  CHECK_MSG(nsed_contact_problem_read(path, &file, &err) == NSED_OK, "%s", err.message);
  answer ans, vertex;
  int rc = solve(NSED_FRICTION_EXACT_CONE, &file.problem, &ans);
  printf("coin: %s (%s)\n", nsed_status_name(rc), rc ? ans.err.message : "");
  CHECK(rc == NSED_LCP_INFEASIBLE);
  CHECK(solve(NSED_FRICTION_POLYGON_VERTEX, &file.problem, &vertex) == NSED_LCP_INFEASIBLE);
  nsed_contact_problem_file_free(&file);
}

int main(int argc, char **argv) {
  one_slipping();
  beside_a_stick();
  if (argc > 1) coin(argv[1]);
  return TEST_DONE();
}
