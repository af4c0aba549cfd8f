/* Redundant contacts: a rigid box resting on its four bottom corners. G =
 * J M^-1 J^T (12 x 12) has rank 6 and its tangential block G_TT (8 x 8) rank
 * 3, so the face form cannot eliminate G_TT and must fall back to the vertex
 * form of the same circumscribed polygon. Pushed sideways at its centre of
 * mass below the friction limit it sticks; above, it slides. Equilibrium is
 * checked on the body: J^T lambda + F = M * (body acceleration). */
#include <stdio.h>
#include <stdlib.h>

#include "cp_test_util.h"
#include "nsed_test.h"

#define NC 4
static const double m = 3.0, g = 9.81, mu0 = 0.5, hx = 0.4, hy = 0.25, hz = 0.15;

/* body acceleration (6) from the contact forces: M^-1 (J^T lambda + F) */
static void body_acc(const double *J, const double *minv, const double *lam, const double *F, double *acc) {
  for (int d = 0; d < 6; d++) {
    double s = F[d];
    for (int r = 0; r < 3 * NC; r++) s += J[(size_t)d * 3 * NC + r] * lam[r];
    acc[d] = minv[d] * s;
  }
}

static void run(nsed_friction_model model, int sides, nsed_lcp_path path) {
  double J[72], minv[6], G[144], b[12];
  cpt_box4(m, hx, hy, hz, J, minv);
  cpt_delassus(3 * NC, 6, J, minv, G);
  nsed_complementarity_settings set;
  nsed_complementarity_default_settings(&set);
  set.model = model;
  set.sides = sides;
  set.path = path;
  nsed_contact_solver *s = NULL;
  nsed_error err;
  CHECK(nsed_contact_solver_create(&set, NC, &s, &err) == NSED_OK);
  nsed_cp_contact c[NC];
  for (int i = 0; i < NC; i++) c[i] = (nsed_cp_contact){.kind = NSED_CP_STICK_CANDIDATE, .mu = 0.4, .mu0 = mu0};
  cpt_sol S;
  cpt_sol_init(&S, NC);
  const char *mname = model == NSED_FRICTION_POLYGON_FACE ? "face" : model == NSED_FRICTION_POLYGON_VERTEX ? "vertex" : "cone";
  /* push along x (a face normal and a vertex direction of every polygon) and
   * at 30 degrees */
  for (int dirk = 0; dirk < 2; dirk++) {
    double ang = dirk ? M_PI / 6 : 0.0;
    for (int above = 0; above < 2; above++) {
      /* the limit for the whole box is mu0 m g for the circle; for a push at
       * 30 deg the inscribed polygon's limit is smaller: stay well clear. */
      double P = (above ? 1.5 : 0.6) * mu0 * m * g;
      double F[6] = {P * cos(ang), P * sin(ang), -m * g, 0, 0, 0};
      /* b = J M^-1 F (the body is at rest: no velocity terms) */
      for (int r = 0; r < 3 * NC; r++) {
        double v = 0.0;
        for (int d = 0; d < 6; d++) v += J[(size_t)d * 3 * NC + r] * minv[d] * F[d];
        b[r] = v;
      }
      nsed_contact_problem p = {.nc = NC, .G = G, .b = b, .contacts = c};
      nsed_lcp_stats st;
      int rc = nsed_contact_solve_accel(s, &p, &S.sol, &st, &err);
      CHECK_MSG(rc == NSED_OK, "%s %d %s push %.2f: %s", mname, sides, above ? "above" : "below", ang, err.message);
      if (rc != NSED_OK) continue;
      printf("box %s sides %2d path %-7s push %s at %2.0f deg: lcp %3d, pivots %4d, residual %.1e, %s%s\n",
             mname, sides, path == NSED_LCP_PATH_AUTO ? "auto" : "nsed", above ? "above" : "below",
             ang * 180 / M_PI, st.lcp_size, st.pivots, st.residual, st.path,
             st.siconos_failed ? " (siconos rejected)" : "");
      if (model == NSED_FRICTION_POLYGON_FACE)
        CHECK_MSG(strncmp(st.path, "face-as-vertex/", 15) == 0, "G_TT singular: path %s", st.path);
      double acc[6], sumn = 0.0;
      body_acc(J, minv, S.lambda, F, acc);
      double tol = (model == NSED_FRICTION_EXACT_CONE ? 1e-8 : 1e-10) * g;
      for (int i = 0; i < NC; i++) {
        sumn += S.lambda[3 * i];
        CHECK(S.lambda[3 * i] >= -1e-12);
        CHECK_NEAR(S.a[3 * i], 0.0, tol, 0); /* stays on the floor */
        CHECK(S.mode[i] != NSED_CP_OPEN);
      }
      /* no vertical or angular acceleration: weight carried */
      CHECK_NEAR(sumn, m * g, 1e-9 * m * g, 0);
      CHECK_NEAR(acc[2], 0.0, tol, 0);
      for (int d = 3; d < 6; d++) CHECK_NEAR(acc[d], 0.0, tol / hz, 0);
      if (!above) {
        /* sticks: friction balances the push, every contact STICK */
        CHECK_NEAR(acc[0], 0.0, tol, 0);
        CHECK_NEAR(acc[1], 0.0, tol, 0);
        for (int i = 0; i < NC; i++) CHECK_MSG(S.mode[i] == NSED_CP_STICK, "contact %d mode %d", i, S.mode[i]);
      } else {
        /* slides along the push: every contact SLIP in the push direction */
        for (int i = 0; i < NC; i++) {
          CHECK(S.mode[i] == NSED_CP_SLIP);
          /* a polygon quantises the slip direction: within half a sector */
          double dev = fabs(atan2(S.slip[2 * i + 1] * cos(ang) - S.slip[2 * i] * sin(ang),
                                  S.slip[2 * i] * cos(ang) + S.slip[2 * i + 1] * sin(ang)));
          CHECK_MSG(dev <= (model == NSED_FRICTION_EXACT_CONE ? 1e-6 : M_PI / sides + 1e-9),
                    "%s sides %d: slip direction off the push by %.3g rad", mname, sides, dev);
        }
        /* along a face normal (x), every model gives friction mu0 m g exactly */
        if (dirk == 0) {
          CHECK_NEAR(acc[0], (P - mu0 * m * g) / m, tol, 0);
          CHECK_NEAR(acc[1], 0.0, tol, 0);
        } else {
          double amag = hypot(acc[0], acc[1]);
          CHECK(amag > 0.0 && amag < P / m);
        }
      }
    }
  }
  cpt_sol_free(&S);
  nsed_contact_solver_free(&s);
}

/* The box falling flat onto its corners: plastic impact stops it. */
static void impact(nsed_friction_model model) {
  double J[72], minv[6], G[144], b[12], v[6] = {0.3, 0.0, -1.2, 0, 0, 0};
  cpt_box4(m, hx, hy, hz, J, minv);
  cpt_delassus(3 * NC, 6, J, minv, G);
  for (int r = 0; r < 3 * NC; r++) {
    double s = 0.0;
    for (int d = 0; d < 6; d++) s += J[(size_t)d * 3 * NC + r] * v[d];
    b[r] = s;
  }
  nsed_complementarity_settings set;
  nsed_complementarity_default_settings(&set);
  set.model = model;
  nsed_contact_solver *s = NULL;
  nsed_error err;
  nsed_lcp_stats st;
  CHECK(nsed_contact_solver_create(&set, NC, &s, &err) == NSED_OK);
  nsed_cp_contact c[NC];
  for (int i = 0; i < NC; i++)
    c[i] = (nsed_cp_contact){.kind = NSED_CP_STICK_CANDIDATE, .mu0 = 0.8, .restitution = 0.0};
  nsed_contact_problem p = {.nc = NC, .G = G, .b = b, .contacts = c};
  cpt_sol S;
  cpt_sol_init(&S, NC);
  int rc = nsed_contact_solve_impact(s, &p, &S.sol, &st, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  double dv[6], zero[6] = {0};
  body_acc(J, minv, S.lambda, zero, dv); /* velocity jump M^-1 J^T Lambda */
  double sumn = 0.0;
  for (int i = 0; i < NC; i++) {
    sumn += S.lambda[3 * i];
    CHECK(S.mode[i] == NSED_CP_STICK); /* mu large enough to stop the 0.3 m/s slide */
    CHECK_NEAR(S.a[3 * i], 0.0, 1e-9, 0);
  }
  CHECK_NEAR(sumn, 1.2 * m, 1e-9, 0);
  for (int d = 0; d < 6; d++) CHECK_NEAR(v[d] + dv[d], 0.0, 1e-9, 0);
  cpt_sol_free(&S);
  nsed_contact_solver_free(&s);
}

int main(void) {
  for (int sides = 4; sides <= 16; sides *= 2) {
    run(NSED_FRICTION_POLYGON_FACE, sides, NSED_LCP_PATH_AUTO);
    run(NSED_FRICTION_POLYGON_VERTEX, sides, NSED_LCP_PATH_AUTO);
    run(NSED_FRICTION_POLYGON_FACE, sides, NSED_LCP_PATH_NSED_LEMKE);
  }
  run(NSED_FRICTION_EXACT_CONE, 8, NSED_LCP_PATH_AUTO);
  for (int mdl = 0; mdl < 3; mdl++) impact((nsed_friction_model)mdl);
  return TEST_DONE();
}
