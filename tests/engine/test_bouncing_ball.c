/* A ball dropped on the floor with restitution e: impact times in closed
 * form, t_1 = sqrt(2 h / g), t_{k+1} = t_k + 2 e^k v_1 / g, accumulating at
 * t_inf = t_1 + 2 e v_1 / (g (1 - e)). The Zeno guard must close the
 * contact within 1e-6 s of t_inf and the ball then rests. */
#include "engine_util.h"
#include "nsed_test.h"

int main(void) {
  const double g = 9.81, e = 0.8, h = 0.5, r = 0.1, vz = 1e-6;
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "ball");
  b.shape.type = NSED_SHAPE_SPHERE;
  b.shape.radius = r;
  b.position[2] = r + h;
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_contact_def c;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "ball_floor");
  snprintf(c.body, sizeof c.body, "ball");
  c.mu = c.mu0 = 0.0;
  c.restitution = e;
  must(nsed_model_add_contact(m, &c, &err), &err);
  nsed_options o = *nsed_model_options(m);
  o.t_end = 4.0;
  o.output_dt = 0.1;
  o.zeno_velocity = vz;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  static recorder rec;
  nsed_data *d;
  CHECK(run_model(m, &d, &rec) == NSED_OK);
  double t1 = sqrt(2 * h / g), v1 = g * t1, t_inf = t1 + 2 * e * v1 / (g * (1 - e));
  double tk = t1, vk = v1;
  int nimp = 0, zeno = -1;
  for (int i = 0; i < rec.nev; i++) {
    if (rec.ev[i].kind == NSED_EVENT_IMPACT) {
      if (nimp < 40) CHECK_NEAR(rec.ev[i].t, tk, 1e-10, 0);
      nimp++;
      vk *= e;
      tk += 2 * vk / g;
    } else if (rec.ev[i].kind == NSED_EVENT_ZENO && zeno < 0) {
      zeno = i;
    }
  }
  printf("impacts before the guard: %d, guard at %.12f, t_inf %.12f\n", nimp,
         zeno >= 0 ? rec.ev[zeno].t : -1.0, t_inf);
  CHECK(nimp > 40);
  CHECK(zeno >= 0);
  if (zeno >= 0) CHECK_NEAR(rec.ev[zeno].t, t_inf, 1e-6, 0);
  double s[13];
  nsed_data_body_state(d, 0, s);
  CHECK_NEAR(s[2], r, 1e-9, 0);
  CHECK_NEAR(s[9], 0.0, 1e-9, 0);
  nsed_contact_info ci;
  nsed_data_contact(d, 0, &ci);
  CHECK(ci.mode != NSED_MODE_OPEN);
  CHECK_NEAR(ci.lambda[0], 9.81, 1e-9, 1e-9);
  nsed_data_free(&d);
  nsed_model_free(&m);
  return TEST_DONE();
}
