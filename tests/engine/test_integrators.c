/* Every integrator on the sliding sphere (t* = 2 v0/(7 mu g)), and the
 * breakpoints of a piecewise-linear force law as time events: a frictionless
 * block pushed by a triangular pulse gains exactly the pulse's impulse. */
#include "engine_util.h"
#include "nsed_test.h"
#include "integrator.h"

static double sphere_stick_time(nsed_integrator integ, double rtol) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "ball");
  b.shape.type = NSED_SHAPE_SPHERE;
  b.shape.radius = 0.1;
  b.position[2] = 0.1;
  b.velocity[0] = 2.0;
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_contact_def c;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "ball_floor");
  snprintf(c.body, sizeof c.body, "ball");
  must(nsed_model_add_contact(m, &c, &err), &err);
  nsed_options o = *nsed_model_options(m);
  o.integrator = integ;
  o.rtol = rtol;
  o.atol = 1e-3 * rtol;
  o.t_end = 0.5;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  static recorder rec;
  memset(&rec, 0, sizeof rec);
  nsed_data *d;
  CHECK_MSG(run_model(m, &d, &rec) == NSED_OK, "%s", nsed_integrator_name(integ));
  double t = -1;
  for (int i = 0; i < rec.nev; i++)
    if (rec.ev[i].kind == NSED_EVENT_STICK) t = rec.ev[i].t;
  nsed_data_free(&d);
  nsed_model_free(&m);
  return t;
}

/* A right-hand side that does not exist beyond y = 1.5 (as a contact's
 * geometry past the end of its surface) and fails recoverably there; the
 * event at y = 1 comes first. Uniform motion has no local error, so the
 * steps grow until a trial stage lands beyond the edge: the adapter must
 * retry smaller, not stop. */
static int edge_rhs(double t, const double *y, double *yd, void *ud) {
  (void)t;
  if (y[0] > 1.5) {
    (*(int *)ud)++;
    return 1;
  }
  yd[0] = 1.0;
  return 0;
}

static int edge_root(double t, const double *y, double *g, void *ud) {
  (void)t, (void)ud;
  g[0] = 1.0 - y[0];
  return 0;
}

static void recoverable_rhs_failure(nsedi_ode_method method, const char *name) {
  nsedi_integrator_settings s = {.method = method, .rtol = 1e-10, .atol = 1e-12, .max_step = 0};
  nsedi_integrator *it = NULL;
  nsed_error err;
  int fails = 0;
  double y = 0, t = 0;
  CHECK(nsedi_integrator_create(&s, 1, 0, 1, edge_rhs, edge_root, &fails, 0.0, &y, &it, &err) == NSED_OK);
  nsedi_step_result res = NSEDI_STEP_TOUT;
  int rc = nsedi_integrator_advance(it, 100.0, 100.0, &y, &t, &res, &err);
  printf("%-13s edge: %d recoverable failures, root at t = %.15f (%s)\n", name, fails, t,
         rc ? err.message : "ok");
  CHECK(rc == NSED_OK && res == NSEDI_STEP_ROOT);
  CHECK_NEAR(t, 1.0, 1e-12, 0);
  if (method == NSEDI_ODE_DP5) CHECK(fails >= 1); /* the case was exercised */
  nsedi_integrator_free(&it);
}

/* y' = -3 y from y = 1, and an event at y = 0.3. */
static int decay_rhs(double t, const double *y, double *yd, void *ud) {
  (void)t, (void)ud;
  yd[0] = -3.0 * y[0];
  return 0;
}

static int decay_root(double t, const double *y, double *g, void *ud) {
  (void)t, (void)ud;
  g[0] = y[0] - 0.3;
  return 0;
}

/* A step taken again (nsedi_integrator_restep) is the method's own step:
 * at the step's end it is the accepted state, inside it Dormand-Prince's
 * R(l tau) exactly, and its error against exp(l tau) falls as tau^(p+1). */
static void restep_is_the_method(nsedi_ode_method method, const char *name, int order) {
  nsedi_integrator_settings s = {.method = method, .rtol = 1e-4, .atol = 1e-8, .max_step = 0};
  nsedi_integrator *it = NULL;
  nsed_error err;
  double y = 1, t = 0, t0, t1, y0, y1, yr, ye[2];
  CHECK(nsedi_integrator_create(&s, 1, 0, 1, decay_rhs, decay_root, NULL, 0.0, &y, &it, &err) == NSED_OK);
  nsedi_step_result res = NSEDI_STEP_TOUT;
  CHECK(nsedi_integrator_advance(it, 10.0, 10.0, &y, &t, &res, &err) == NSED_OK && res == NSEDI_STEP_ROOT);
  nsedi_integrator_last_step(it, &t0, &t1);
  double h = t1 - t0;
  CHECK(h > 0 && nsedi_integrator_can_restep(it));
  CHECK(nsedi_integrator_dense(it, t0, &y0) == NSED_OK && nsedi_integrator_dense(it, t1, &y1) == NSED_OK);
  CHECK(nsedi_integrator_restep(it, t1, &yr) == NSED_OK);
  CHECK_NEAR(yr, y1, 0, 4e-16);
  CHECK(nsedi_integrator_restep(it, t0, &yr) == NSED_OK && yr == y0);
  CHECK(nsedi_integrator_restep(it, t1 + 0.5 * h, &yr) != NSED_OK); /* outside the step */
  /* tau = h/4 and h/8 (l tau ~ 0.1): the leading error term dominates */
  for (int k = 0; k < 2; k++) {
    double tau = k ? 0.125 * h : 0.25 * h;
    CHECK(nsedi_integrator_restep(it, t0 + tau, &yr) == NSED_OK);
    if (method == NSEDI_ODE_DP5) CHECK_NEAR(yr, y0 * dp5_R(-3 * tau), 0, 1e-15);
    ye[k] = yr - y0 * exp(-3 * tau);
  }
  double ratio = ye[0] / ye[1], expect = pow(2, order + 1);
  printf("%-13s restep: step %.3g s (l h = %.3f), error at h/4 %.3e, ratio %.1f for h/8 (2^%d = %.0f)\n",
         name, h, 3 * h, ye[0], ratio, order + 1, expect);
  CHECK_NEAR(ratio, expect, 0, 0.15); /* an order lower gives half */
  if (method == NSEDI_ODE_DP5) CHECK_NEAR(ye[0], y0 * pow(0.75 * h, 6) / 3600, 0, 0.1); /* 1/600 - 1/720 */
  nsedi_integrator_free(&it);
}

int main(void) {
  restep_is_the_method(NSEDI_ODE_DP5, "arkode_dp5", 5);
  restep_is_the_method(NSEDI_ODE_VERNER, "arkode_verner", 6);
  {
    nsedi_integrator_settings s = {.method = NSEDI_ODE_BDF, .rtol = 1e-6, .atol = 1e-9, .max_step = 0};
    nsedi_integrator *it = NULL;
    nsed_error err;
    double y = 1, t = 0;
    nsedi_step_result res;
    CHECK(nsedi_integrator_create(&s, 1, 0, 1, decay_rhs, decay_root, NULL, 0.0, &y, &it, &err) == NSED_OK);
    CHECK(nsedi_integrator_advance(it, 10.0, 10.0, &y, &t, &res, &err) == NSED_OK);
    CHECK(!nsedi_integrator_can_restep(it)); /* CVODE's events stay on its own polynomial */
    nsedi_integrator_free(&it);
  }
  recoverable_rhs_failure(NSEDI_ODE_DP5, "arkode_dp5");
  recoverable_rhs_failure(NSEDI_ODE_VERNER, "arkode_verner");
  recoverable_rhs_failure(NSEDI_ODE_ADAMS, "cvode_adams");
  recoverable_rhs_failure(NSEDI_ODE_BDF, "cvode_bdf");
  const double t_star = 2 * 2.0 / (7 * 0.3 * 9.81);
  struct { nsed_integrator integ; double rtol, tol; } cases[] = {
      {NSED_INTEGRATOR_ARKODE_DP5, 1e-11, 1e-9},
      {NSED_INTEGRATOR_ARKODE_VERNER, 1e-11, 1e-9},
      {NSED_INTEGRATOR_CVODE_ADAMS, 1e-11, 1e-8},
      {NSED_INTEGRATOR_CVODE_BDF, 1e-11, 1e-8},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    double t = sphere_stick_time(cases[i].integ, cases[i].rtol);
    printf("%-13s stick at %.15f (error %.2e)\n", nsed_integrator_name(cases[i].integ), t, t - t_star);
    CHECK_NEAR(t, t_star, cases[i].tol, 0);
  }

  /* Triangular pulse 0 -> 2 N -> 0 over [0.25, 0.75] s along x: impulse 0.5 N s. */
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "block");
  b.mass = 2.0;
  b.shape.type = NSED_SHAPE_POINT;
  b.inertia[0] = b.inertia[1] = b.inertia[2] = 0.1;
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_force_def f;
  nsed_force_def_default(&f);
  snprintf(f.name, sizeof f.name, "pulse");
  snprintf(f.body, sizeof f.body, "block");
  f.direction[0] = 1, f.direction[1] = 0, f.direction[2] = 0;
  f.magnitude.type = NSED_LAW_PIECEWISE;
  f.magnitude.npoints = 3;
  f.magnitude.times[0] = 0.25, f.magnitude.times[1] = 0.5, f.magnitude.times[2] = 0.75;
  f.magnitude.values[0] = 0, f.magnitude.values[1] = 2, f.magnitude.values[2] = 0;
  must(nsed_model_add_force(m, &f, &err), &err);
  nsed_contact_def c;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "block_floor");
  snprintf(c.body, sizeof c.body, "block");
  c.mu = c.mu0 = 0;
  must(nsed_model_add_contact(m, &c, &err), &err);
  nsed_options o = *nsed_model_options(m);
  o.t_end = 1.0;
  o.output_dt = 0.3; /* no output instant at a breakpoint: the events must find them */
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  static recorder rec;
  memset(&rec, 0, sizeof rec);
  nsed_data *d;
  CHECK(run_model(m, &d, &rec) == NSED_OK);
  int nt = 0;
  for (int i = 0; i < rec.nev; i++)
    if (rec.ev[i].kind == NSED_EVENT_TIME) {
      CHECK_NEAR(rec.ev[i].t, 0.25 * (nt + 1), 1e-12, 0);
      nt++;
    }
  CHECK(nt == 3);
  double s[13];
  nsed_data_body_state(d, 0, s);
  CHECK_NEAR(s[7], 0.5 / 2.0, 1e-12, 0);
  /* x(1) = integral of v: the pulse's first moment, (1 - 0.5) * impulse / m. */
  CHECK_NEAR(s[0], 0.25 * 0.5, 1e-12, 0);
  nsed_data_free(&d);
  nsed_model_free(&m);
  return TEST_DONE();
}
