/* A block on a belt moving at speed V, tied to the ground by a spring k:
 * the stick-slip limit cycle in closed form. With d = (mu0 - mu) m g / k and
 * w = sqrt(k/m):
 *   stick (block moves with the belt) from x_e - d to x_e + d, x_e = mu m g/k:
 *     T_stick = 2 d / V;
 *   slip: harmonic about x_e, leaves at phase theta1 = -atan2(V/w, d) and
 *     returns to the belt speed at pi - theta1:
 *     T_slip = (pi + 2 atan2(V/w, d)) / w.
 * Starting at rest on the belt at x = 0 the first slip is at mu0 m g / (k V). */
#include "engine_util.h"
#include "nsed_test.h"

static void run(nsed_friction_model fm, nsed_integrator integ, double rtol, double tol) {
  const double m_ = 1.0, k = 10.0, g = 9.81, mu = 0.3, mu0 = 0.5, V = 0.2;
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "block");
  b.mass = m_;
  b.shape.type = NSED_SHAPE_POINT;
  b.inertia[0] = b.inertia[1] = b.inertia[2] = 0.1;
  b.velocity[0] = V;
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_force_def f;
  nsed_force_def_default(&f);
  snprintf(f.name, sizeof f.name, "spring");
  f.type = NSED_FORCE_SPRING;
  snprintf(f.body, sizeof f.body, "block");
  f.point_b[0] = -1.0;
  f.k = k;
  f.rest_length = 1.0;
  must(nsed_model_add_force(m, &f, &err), &err);
  nsed_contact_def c;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "block_belt");
  snprintf(c.body, sizeof c.body, "block");
  c.mu = mu;
  c.mu0 = mu0;
  must(nsed_model_add_contact(m, &c, &err), &err);
  nsed_options o = *nsed_model_options(m);
  o.t_end = 20.0;
  o.output_dt = 0.05;
  o.floor_velocity[0] = V;
  o.friction.model = fm;
  o.integrator = integ;
  o.rtol = rtol;
  o.atol = 1e-3 * rtol;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  static recorder rec;
  memset(&rec, 0, sizeof rec);
  nsed_data *d;
  CHECK(run_model(m, &d, &rec) == NSED_OK);
  double w = sqrt(k / m_), dd = (mu0 - mu) * m_ * g / k;
  double Tstick = 2 * dd / V, Tslip = (M_PI + 2 * atan2(V / w, dd)) / w;
  double t = mu0 * m_ * g / (k * V);
  int n = 0, expect_slip = 1;
  for (int i = 0; i < rec.nev; i++) {
    const nsed_event *e = &rec.ev[i];
    CHECK_MSG(e->kind == (expect_slip ? NSED_EVENT_SLIP : NSED_EVENT_STICK),
              "event %d at %.9f is %s", i, e->t, nsed_event_kind_name(e->kind));
    CHECK_NEAR(e->t, t, 0, tol);
    t += expect_slip ? Tslip : Tstick;
    expect_slip = !expect_slip;
    n++;
  }
  printf("%s/%s: %d events, period %.12f s (closed form)\n", nsed_friction_model_name(fm),
         nsed_integrator_name(integ), n, Tstick + Tslip);
  CHECK(n >= 2 * (int)(16.0 / (Tstick + Tslip)));
  /* Measured period against the closed form, 1e-8 relative. */
  if (n >= 5) CHECK_NEAR(rec.ev[4].t - rec.ev[2].t, Tstick + Tslip, 0, 1e-8);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

int main(void) {
  /* Default tolerances: event times to 1e-8 relative. */
  run(NSED_FRICTION_POLYGON_FACE, NSED_INTEGRATOR_ARKODE_DP5, 1e-10, 1e-8);
  run(NSED_FRICTION_POLYGON_VERTEX, NSED_INTEGRATOR_ARKODE_DP5, 1e-10, 1e-8);
  run(NSED_FRICTION_EXACT_CONE, NSED_INTEGRATOR_ARKODE_DP5, 1e-10, 1e-8);
  /* Tight tolerances: ARKODE agrees with the closed form to 1e-10 relative;
   * CVODE (Adams, whose roots come from its Nordsieck history) to 1e-9
   * relative, so the two agree to better than the 1e-8 s required. */
  run(NSED_FRICTION_POLYGON_FACE, NSED_INTEGRATOR_ARKODE_DP5, 1e-12, 1e-10);
  run(NSED_FRICTION_POLYGON_FACE, NSED_INTEGRATOR_CVODE_ADAMS, 1e-13, 1e-9);
  return TEST_DONE();
}
