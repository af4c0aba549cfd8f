/* A block on an incline (the floor's normal tilted by alpha): with
 * tan(alpha) just below mu0 it sticks for good; just above, it slides with
 * the acceleration g (sin alpha - mu cos alpha) from the start. */
#include "engine_util.h"
#include "nsed_test.h"

static void run(double alpha, double mu, double mu0, int expect_slide) {
  const double g = 9.81;
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "block");
  b.shape.type = NSED_SHAPE_POINT;
  b.inertia[0] = b.inertia[1] = b.inertia[2] = 0.1;
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_contact_def c;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "block_incline");
  snprintf(c.body, sizeof c.body, "block");
  c.mu = mu;
  c.mu0 = mu0;
  must(nsed_model_add_contact(m, &c, &err), &err);
  nsed_options o = *nsed_model_options(m);
  o.floor_normal[0] = -sin(alpha);
  o.floor_normal[2] = cos(alpha);
  o.t_end = 1.0;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  static recorder rec;
  memset(&rec, 0, sizeof rec);
  nsed_data *d;
  CHECK(run_model(m, &d, &rec) == NSED_OK);
  double s[13];
  nsed_data_body_state(d, 0, s);
  double dist = hypot(s[0], s[2]);
  nsed_contact_info ci;
  nsed_data_contact(d, 0, &ci);
  if (expect_slide) {
    double a = g * (sin(alpha) - mu * cos(alpha));
    CHECK(ci.mode == NSED_MODE_SLIP);
    CHECK_NEAR(dist, 0.5 * a, 1e-9, 1e-9);
  } else {
    CHECK(ci.mode == NSED_MODE_STICK);
    CHECK_NEAR(dist, 0.0, 1e-12, 0);
    CHECK_NEAR(hypot(ci.lambda[1], ci.lambda[2]), g * sin(alpha), 1e-10, 1e-10);
    CHECK_NEAR(ci.lambda[0], g * cos(alpha), 1e-10, 1e-10);
  }
  CHECK_MSG(rec.nev == 0, "%d events", rec.nev);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

int main(void) {
  const double mu0 = 0.5, mu = 0.4;
  nsed_friction_model fms[] = {NSED_FRICTION_POLYGON_FACE, NSED_FRICTION_EXACT_CONE};
  (void)fms;
  run(atan(mu0) - 1e-6, mu, mu0, 0);
  run(atan(mu0) + 1e-6, mu, mu0, 1);
  return TEST_DONE();
}
