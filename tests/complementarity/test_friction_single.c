/* One contact, built by hand: a point mass on an incline (stick / slip with
 * known forces), a point-mass impact, the slip-onset direction of a pushed
 * contact converging to the exact cone's as the polygon refines, and the face
 * (circumscribed) and vertex (inscribed) polygons bracketing the exact cone. */
#include <stdio.h>
#include <stdlib.h>

#include "cp_test_util.h"
#include "nsed_test.h"

static const char *model_name(nsed_friction_model m) {
  return m == NSED_FRICTION_POLYGON_FACE ? "face" : m == NSED_FRICTION_POLYGON_VERTEX ? "vertex" : "cone";
}

/* Point mass m on an incline of angle alpha: n = incline normal, t1 = up the
 * slope, t2 horizontal. G = I/m, b = gravity in the contact frame. */
static void incline(double m, double g, double alpha, double *G, double *b) {
  memset(G, 0, 9 * sizeof(double));
  G[0] = G[4] = G[8] = 1.0 / m;
  b[0] = -g * cos(alpha);
  b[1] = -g * sin(alpha);
  b[2] = 0.0;
}

static void test_incline(void) {
  const double m = 2.0, g = 9.81, mu0 = 0.5;
  double G[9], b[3];
  nsed_error err;
  nsed_lcp_stats st;
  cpt_sol S;
  cpt_sol_init(&S, 1);
  nsed_friction_model models[3] = {NSED_FRICTION_POLYGON_FACE, NSED_FRICTION_POLYGON_VERTEX,
                                   NSED_FRICTION_EXACT_CONE};
  for (int im = 0; im < 3; im++)
    for (int ns = 4; ns <= 16; ns *= 2) {
      nsed_contact_solver *s = cpt_solver(models[im], ns);
      /* below tan(alpha) = mu0: sticks, friction = tangential gravity */
      double alpha = 0.8 * atan(mu0);
      incline(m, g, alpha, G, b);
      nsed_cp_contact c = {.kind = NSED_CP_STICK_CANDIDATE, .mu = 0.4, .mu0 = mu0};
      nsed_contact_problem p = {.nc = 1, .G = G, .b = b, .contacts = &c};
      int rc = nsed_contact_solve_accel(s, &p, &S.sol, &st, &err);
      CHECK_MSG(rc == NSED_OK, "%s %d: %s", model_name(models[im]), ns, err.message);
      double tolf = models[im] == NSED_FRICTION_EXACT_CONE ? 1e-9 : 1e-12;
      CHECK_NEAR(S.lambda[0], m * g * cos(alpha), tolf * m * g, 0);
      CHECK_NEAR(S.lambda[1], m * g * sin(alpha), tolf * m * g, 0);
      CHECK_NEAR(S.lambda[2], 0.0, tolf * m * g, 0);
      CHECK_MSG(S.mode[0] == NSED_CP_STICK, "%s %d: mode %d", model_name(models[im]), ns, S.mode[0]);
      CHECK_NEAR(S.a[1], 0.0, tolf * g, 0);
      /* above: slips downhill (a_t1 < 0); t1 is a face normal and a vertex
       * direction of every polygon, so all models give friction mu0 lambda_n */
      alpha = 1.2 * atan(mu0);
      incline(m, g, alpha, G, b);
      rc = nsed_contact_solve_accel(s, &p, &S.sol, &st, &err);
      CHECK_MSG(rc == NSED_OK, "%s %d: %s", model_name(models[im]), ns, err.message);
      CHECK_NEAR(S.lambda[0], m * g * cos(alpha), tolf * m * g, 0);
      CHECK_NEAR(S.lambda[1], mu0 * m * g * cos(alpha), tolf * m * g, 0);
      CHECK(S.mode[0] == NSED_CP_SLIP);
      CHECK_NEAR(S.slip[0], -1.0, 1e-9, 0);
      CHECK_NEAR(S.slip[1], 0.0, 1e-9, 0);
      CHECK_NEAR(S.a[1], -g * sin(alpha) + mu0 * g * cos(alpha), tolf * g, 0);
      /* already slipping downhill with kinetic mu: lambda_T = -mu lambda_n s */
      c.kind = NSED_CP_SLIPPING;
      c.slip_dir[0] = -1.0;
      c.slip_dir[1] = 0.0;
      rc = nsed_contact_solve_accel(s, &p, &S.sol, &st, &err);
      CHECK_MSG(rc == NSED_OK, "%s: %s", model_name(models[im]), err.message);
      CHECK_NEAR(S.lambda[1], 0.4 * m * g * cos(alpha), 1e-12 * m * g, 0);
      CHECK(S.mode[0] == NSED_CP_SLIP && S.slip[0] == -1.0);
      CHECK_NEAR(S.a[0], 0.0, 1e-12 * g, 0);
      /* lifting off: gravity replaced by a pull away from the surface */
      b[0] = +1.0;
      rc = nsed_contact_solve_accel(s, &p, &S.sol, &st, &err);
      CHECK(rc == NSED_OK && S.mode[0] == NSED_CP_OPEN && S.lambda[0] == 0.0);
      nsed_contact_solver_free(&s);
    }
  cpt_sol_free(&S);
}

static void test_impact(void) {
  const double m = 1.5, vn = -2.0, vt = 0.7, e = 0.6;
  double G[9] = {1 / m, 0, 0, 0, 1 / m, 0, 0, 0, 1 / m}, b[3] = {vn, vt, 0.0};
  nsed_error err;
  nsed_lcp_stats st;
  cpt_sol S;
  cpt_sol_init(&S, 1);
  for (int im = 0; im < 3; im++) {
    nsed_contact_solver *s = cpt_solver((nsed_friction_model)im, 8);
    /* high friction: the tangential velocity is stopped; bounces with -e vn */
    nsed_cp_contact c = {.kind = NSED_CP_STICK_CANDIDATE, .mu0 = 1.0, .restitution = e};
    nsed_contact_problem p = {.nc = 1, .G = G, .b = b, .contacts = &c};
    int rc = nsed_contact_solve_impact(s, &p, &S.sol, &st, &err);
    CHECK_MSG(rc == NSED_OK, "%s", err.message);
    double tol = im == 2 ? 1e-9 : 1e-12;
    CHECK_NEAR(S.lambda[0], -m * (1 + e) * vn, tol, 0);
    CHECK_NEAR(S.a[0], -e * vn, tol, 0); /* sol->a: the true post-impact velocity */
    CHECK_NEAR(S.a[1], 0.0, tol, 0);
    CHECK_NEAR(S.lambda[1], -m * vt, tol, 0);
    CHECK(S.mode[0] == NSED_CP_OPEN); /* it bounces */
    /* e = 0: stays closed and sticks */
    c.restitution = 0.0;
    rc = nsed_contact_solve_impact(s, &p, &S.sol, &st, &err);
    CHECK(rc == NSED_OK && S.mode[0] == NSED_CP_STICK);
    CHECK_NEAR(S.a[0], 0.0, tol, 0);
    /* low friction: slides on, v_t+ = vt - mu (1+e)|vn| (t1 is a face normal/vertex) */
    c.mu0 = 0.1;
    c.restitution = e;
    rc = nsed_contact_solve_impact(s, &p, &S.sol, &st, &err);
    CHECK(rc == NSED_OK);
    CHECK_NEAR(S.a[1], vt - 0.1 * (1 + e) * fabs(vn), tol, 0);
    CHECK_NEAR(S.a[0], -e * vn, tol, 0);
    /* separating already: no impulse */
    b[0] = 0.5;
    rc = nsed_contact_solve_impact(s, &p, &S.sol, &st, &err);
    CHECK(rc == NSED_OK && S.lambda[0] == 0.0 && S.mode[0] == NSED_CP_OPEN);
    b[0] = vn;
    nsed_contact_solver_free(&s);
  }
  cpt_sol_free(&S);
}

/* An anisotropic contact (a body whose tangential mobility differs by
 * direction, coupled to the normal) pushed at an angle: slip starts. */
static const double Gan[9] = {1.0, 0.2, -0.1, 0.2, 1.6, 0.3, -0.1, 0.3, 0.7};
static int solve_push(nsed_friction_model model, int sides, double fx, double fy, double *lam,
                      double *dir, nsed_cp_mode *mode) {
  double b[3] = {-9.81, fx, fy};
  nsed_contact_solver *s = cpt_solver(model, sides);
  nsed_cp_contact c = {.kind = NSED_CP_STICK_CANDIDATE, .mu0 = 0.4};
  nsed_contact_problem p = {.nc = 1, .G = Gan, .b = b, .contacts = &c};
  cpt_sol S;
  cpt_sol_init(&S, 1);
  nsed_error err;
  nsed_lcp_stats st;
  int rc = nsed_contact_solve_accel(s, &p, &S.sol, &st, &err);
  CHECK_MSG(rc == NSED_OK, "%s %d: %s", model_name(model), sides, err.message);
  memcpy(lam, S.lambda, 3 * sizeof(double));
  memcpy(dir, S.slip, 2 * sizeof(double));
  *mode = S.mode[0];
  cpt_sol_free(&S);
  nsed_contact_solver_free(&s);
  return rc;
}

/* Worst case over 40 push directions in a quadrant (|f| = 10: every one
 * slips) of the slip-direction error (rad) and the relative force error of a
 * polygonal model against the exact cone. */
static void onset_errors(nsed_friction_model model, int sides, double *edir, double *eforce) {
  *edir = *eforce = 0.0;
  for (int k = 0; k < 40; k++) {
    double phi = 0.013 + k * (M_PI / 2) / 40, fx = 10 * cos(phi), fy = 10 * sin(phi);
    double lc[3], dc[2], lf[3], df[2];
    nsed_cp_mode mc, mf;
    solve_push(NSED_FRICTION_EXACT_CONE, 8, fx, fy, lc, dc, &mc);
    solve_push(model, sides, fx, fy, lf, df, &mf);
    CHECK(mc == NSED_CP_SLIP && mf == NSED_CP_SLIP);
    /* exact cone: friction on the circle, opposite to the slip direction */
    CHECK_NEAR(hypot(lc[1], lc[2]), 0.4 * lc[0], 1e-9, 0);
    CHECK_NEAR(lc[1] * dc[1] - lc[2] * dc[0], 0.0, 1e-9, 0);
    CHECK(lc[1] * dc[0] + lc[2] * dc[1] < 0.0);
    double dang = fabs(atan2(df[0] * dc[1] - df[1] * dc[0], df[0] * dc[0] + df[1] * dc[1]));
    double dlam = sqrt((lf[0] - lc[0]) * (lf[0] - lc[0]) + (lf[1] - lc[1]) * (lf[1] - lc[1]) +
                       (lf[2] - lc[2]) * (lf[2] - lc[2])) / lc[0];
    *edir = fmax(*edir, dang);
    *eforce = fmax(*eforce, dlam);
  }
}

/* least-squares slope of log(e) against log(sides) */
static double order(const double *e, const int *sides, int n) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int k = 0; k < n; k++) {
    double x = log((double)sides[k]), y = log(e[k]);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  return -(n * sxy - sx * sy) / (n * sxx - sx * sx);
}

static void test_onset_convergence(void) {
  int sides[5];
  double ed[2][5], ef[2][5];
  const nsed_friction_model models[2] = {NSED_FRICTION_POLYGON_FACE, NSED_FRICTION_POLYGON_VERTEX};
  printf("slip onset vs exact cone (mu0 = 0.4, anisotropic G, worst of 40 push directions):\n");
  for (int k = 0; k < 5; k++) {
    sides[k] = 4 << k; /* n* = 1, 2, 4, 8, 16 */
    for (int im = 0; im < 2; im++) onset_errors(models[im], sides[k], &ed[im][k], &ef[im][k]);
    printf("  n* = %2d: face dir %.3e rad force %.3e | vertex dir %.3e rad force %.3e\n",
           sides[k] / 4, ed[0][k], ef[0][k], ed[1][k], ef[1][k]);
  }
  for (int im = 0; im < 2; im++) {
    double od = order(ed[im], sides, 5), of = order(ef[im], sides, 5);
    printf("  %s form: measured order, direction %.2f, force %.2f\n", im ? "vertex" : "face", od, of);
    /* worst case is first order: one active face locks the slip direction to
     * its normal (face form), one active vertex locks the force direction
     * (vertex form); docs/complementarity.md §6 */
    CHECK_MSG(od > 0.8 && od < 1.4, "%s direction order %.3f", im ? "vertex" : "face", od);
    CHECK_MSG(of > 0.8 && of < 1.4, "%s force order %.3f", im ? "vertex" : "face", of);
    CHECK(ed[im][4] < 0.1 && ef[im][4] < 0.05);
  }
}

/* Push magnitude at which a contact of G = I (isotropic) stops sticking, per
 * model, by bisection on the decided mode. */
static double stick_limit(nsed_friction_model model, int sides, double phi) {
  static const double Gi[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  double lo = 0.0, hi = 10.0;
  for (int it = 0; it < 60; it++) {
    double f = 0.5 * (lo + hi), b[3] = {-1.0, f * cos(phi), f * sin(phi)};
    nsed_contact_solver *s = cpt_solver(model, sides);
    nsed_cp_contact c = {.kind = NSED_CP_STICK_CANDIDATE, .mu0 = 0.5};
    nsed_contact_problem p = {.nc = 1, .G = Gi, .b = b, .contacts = &c};
    cpt_sol S;
    cpt_sol_init(&S, 1);
    nsed_error err;
    nsed_lcp_stats st;
    int rc = nsed_contact_solve_accel(s, &p, &S.sol, &st, &err);
    CHECK(rc == NSED_OK);
    if (S.mode[0] == NSED_CP_STICK)
      lo = f;
    else
      hi = f;
    cpt_sol_free(&S);
    nsed_contact_solver_free(&s);
  }
  return 0.5 * (lo + hi);
}

static void test_bracketing(void) {
  /* lambda_n = 1 here: the circle's limit is mu0 = 0.5. The circumscribed
   * polygon's limit in direction phi is mu0 / cos(angle to the nearest face
   * normal), the inscribed one's mu0 cos(pi/m) / cos(angle to the nearest face
   * normal of the inscribed polygon, at pi/m + 2 pi j/m). */
  for (int sides = 4; sides <= 16; sides *= 2) {
    for (double phi = 0.1; phi < 1.6; phi += 0.5) {
      double fc = stick_limit(NSED_FRICTION_EXACT_CONE, sides, phi);
      double ff = stick_limit(NSED_FRICTION_POLYGON_FACE, sides, phi);
      double fv = stick_limit(NSED_FRICTION_POLYGON_VERTEX, sides, phi);
      double h = 2 * M_PI / sides, psi = M_PI + phi; /* friction opposes the push */
      double df = remainder(psi, h), dv = remainder(psi - h / 2, h);
      CHECK_NEAR(fc, 0.5, 1e-7, 0);
      CHECK_NEAR(ff, 0.5 / cos(df), 1e-7, 0);
      CHECK_NEAR(fv, 0.5 * cos(M_PI / sides) / cos(dv), 1e-7, 0);
      CHECK_MSG(fv <= fc + 1e-9 && fc <= ff + 1e-9, "sides %d phi %.2f: vertex %.6f cone %.6f face %.6f",
                sides, phi, fv, fc, ff);
    }
  }
}

int main(void) {
  test_incline();
  test_impact();
  test_onset_convergence();
  test_bracketing();
  return TEST_DONE();
}
