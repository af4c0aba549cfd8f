/* Torsional friction of a contact patch (seed 004's regularised moment
 * tau = -d_w lambda_n sat(w_n / w_min) about the normal) against its closed
 * form: a ball spinning about the vertical on the floor decelerates at
 * d_w m g / I until its spin reaches w_min, then decays exponentially at the
 * rate d_w m g / (I w_min). Checked with the regularized law (event-driven
 * normal), with the compliant law (a spring-damper normal started at its
 * equilibrium), and on a turning floor, where the moment acts on the spin
 * relative to the floor's (a ball at the table's centre spun up to the
 * table's rate). Also: the energy the moment takes out (or the table puts
 * in) is the contact work. The exact Coulomb moment is test_torsion_exact.c's. */
#include "engine_util.h"
#include "nsed_test.h"

static const double R = 0.1, MASS = 1.0, G = 9.81, DW = 0.01, WMIN = 0.5;
#define INERTIA (0.4 * MASS * R * R)

/* u' = -a sat(u / WMIN), a = DW m g / I: the relative spin u from u0. */
static double spin_closed_form(double t, double u0) {
  double a = DW * MASS * G / INERTIA, s = u0 > 0 ? 1.0 : -1.0, au0 = fabs(u0);
  double t1 = (au0 - WMIN) / a;
  if (t <= t1) return s * (au0 - a * t);
  return s * WMIN * exp(-a / WMIN * (t - t1));
}

typedef struct {
  double u0, table, worst;
} spin_check;

static int compare(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  (void)m, (void)why;
  spin_check *sc = ctx;
  double s[13];
  nsed_data_body_state(d, 0, s);
  double wz = world_spin_z(s);
  double expect = sc->table + spin_closed_form(nsed_data_time(d), sc->u0);
  sc->worst = fmax(sc->worst, fabs(wz - expect));
  return 0;
}

static nsed_model *spinning_ball(nsed_contact_law law, double w0, double table, double torsion) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "ball");
  b.mass = MASS;
  b.shape.type = NSED_SHAPE_SPHERE;
  b.shape.radius = R;
  b.position[2] = R;
  b.angular_velocity[2] = w0;
  nsed_contact_def c;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "ball_floor");
  snprintf(c.body, sizeof c.body, "ball");
  c.law = law;
  c.mu = c.mu0 = 0.5;
  c.delta = 1e-3;
  c.torsion = torsion;
  c.torsion_rate = WMIN;
  if (law == NSED_CONTACT_COMPLIANT) {
    c.stiffness = 1e5;
    c.damping = 200;
    b.position[2] = R - MASS * G / c.stiffness; /* at the spring's equilibrium */
  }
  must(nsed_model_add_body(m, &b, &err), &err);
  int rc = nsed_model_add_contact(m, &c, &err);
  if (rc < 0) {
    nsed_model_free(&m);
    return NULL;
  }
  nsed_options o = *nsed_model_options(m);
  o.t_end = 0.6;
  o.output_dt = 0.002;
  o.rtol = 1e-12;
  o.atol = 1e-14;
  o.floor_spin = table;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  return m;
}

static void run(const char *what, nsed_contact_law law, double w0, double table) {
  nsed_model *m = spinning_ball(law, w0, table, DW);
  spin_check sc = {.u0 = w0 - table, .table = table};
  nsed_error err;
  nsed_data *d = NULL;
  CHECK(nsed_data_create(m, &d, &err) == NSED_OK);
  nsed_observer obs = {.ctx = &sc, .sample = compare};
  int rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "%s: %s", what, err.message);
  if (rc == NSED_OK) {
    const nsed_stats *s = nsed_data_stats(d);
    double de = nsed_data_energy(m, d) - s->energy_initial;
    printf("%s: spin off the closed form by %.3g rad/s; energy change %.9g J, contact work %.9g J\n",
           what, sc.worst, de, s->work_contacts);
    CHECK_MSG(sc.worst < 1e-9, "%s: %g", what, sc.worst);
    CHECK_NEAR(de, s->work_contacts, 1e-10, 1e-8);
    /* The spin energy taken out or put in: (1/2) I (w_end^2 - w0^2). */
    double w_end = table + spin_closed_form(0.6, w0 - table);
    CHECK_NEAR(s->work_contacts, 0.5 * INERTIA * (w_end * w_end - w0 * w0), 1e-8, 1e-6);
  }
  nsed_data_free(&d);
  nsed_model_free(&m);
}

int main(void) {
  run("regularized", NSED_CONTACT_REGULARIZED, 5.0, 0.0);
  run("regularized, spinning the other way", NSED_CONTACT_REGULARIZED, -5.0, 0.0);
  run("compliant", NSED_CONTACT_COMPLIANT, 5.0, 0.0);
  run("regularized, on a table turning at 3 rad/s", NSED_CONTACT_REGULARIZED, 0.0, 3.0);
  return TEST_DONE();
}
