/* A floor that turns (floor.spin, a turntable) against the classical
 * result for a ball rolling on it: a uniform solid sphere rolling without
 * slipping on a plane turning at W about a vertical axis moves its centre
 * on a circle at the rate (2/7) W (dv/dt = (2/7) W e_z x v; e.g. Weltner,
 * "Stable circular orbits of freely moving balls on rotating discs", Am.
 * J. Phys. 47 (1979)); its spin about the vertical is constant. Checked:
 *
 *  1. a ball started rolling: the centre on the closed-form circle for 20 s
 *     (several turns of the circle), no event, the spin about z constant,
 *     the energy the table fed in equal to the change of E;
 *  2. a ball put down at rest on the turning table with small friction: it
 *     slips (the law monitor checks mu m g against the slip), it ends
 *     rolling by a slip-to-stick event at the time an independent
 *     integration of the slip equations gives, and from then on its
 *     velocity turns at (2/7) W.
 *
 * Each for a turning axis through the origin and through an offset point. */
#include "engine_util.h"
#include "nsed_test.h"

static const double R = 0.1, MASS = 1.0, W = 2.0;

static nsed_model *ball_on_table(const double c[3], const double p0[3], const double v0[3],
                                 const double w0[3], double mu, double t_end) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "ball");
  b.mass = MASS;
  b.shape.type = NSED_SHAPE_SPHERE;
  b.shape.radius = R;
  for (int k = 0; k < 3; k++) b.position[k] = p0[k], b.velocity[k] = v0[k], b.angular_velocity[k] = w0[k];
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_contact_def cd;
  nsed_contact_def_default(&cd);
  snprintf(cd.name, sizeof cd.name, "ball_table");
  snprintf(cd.body, sizeof cd.body, "ball");
  cd.mu = cd.mu0 = mu;
  must(nsed_model_add_contact(m, &cd, &err), &err);
  nsed_options o = *nsed_model_options(m);
  for (int k = 0; k < 3; k++) o.floor_point[k] = c[k];
  o.floor_spin = W;
  o.t_end = t_end;
  o.rtol = 1e-12;
  o.atol = 1e-14;
  o.output_dt = 0.01;
  o.friction.model = NSED_FRICTION_EXACT_CONE;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  return m;
}

typedef struct {
  double C[2], x0[2];  /* the circle's centre and the start (rolling case) */
  double wz0;          /* the spin about z at the start */
  double worst_pos, worst_wz;
} circle_check;

static int on_circle(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  (void)m, (void)why;
  circle_check *cc = ctx;
  double s[13], t = nsed_data_time(d), th = 2.0 / 7.0 * W * t;
  nsed_data_body_state(d, 0, s);
  double a0 = cc->x0[0] - cc->C[0], a1 = cc->x0[1] - cc->C[1];
  double ex = cc->C[0] + cos(th) * a0 - sin(th) * a1, ey = cc->C[1] + sin(th) * a0 + cos(th) * a1;
  cc->worst_pos = fmax(cc->worst_pos, hypot(s[0] - ex, s[1] - ey));
  cc->worst_wz = fmax(cc->worst_wz, fabs(world_spin_z(s) - cc->wz0));
  return 0;
}

static void test_rolling(const double c[3]) {
  /* Start at p0 with centre velocity v0, rolling: v0 + w x (-R e_z) equals
   * the table's W e_z x (p0 - c) under the ball. */
  const double p0[3] = {0.5, 0.0, R}, v0[3] = {0.3, 0.2, 0.0}, wz = 0.7;
  double us[2] = {-W * (p0[1] - c[1]), W * (p0[0] - c[0])};
  double w0[3] = {(us[1] - v0[1]) / R, -(us[0] - v0[0]) / R, wz};
  nsed_model *m = ball_on_table(c, p0, v0, w0, 1.0, 20.0);
  /* v = (2/7) W e_z x (x - C): x0 - C = -(7 / (2 W)) e_z x v0. */
  circle_check cc = {.x0 = {p0[0], p0[1]}, .wz0 = wz};
  cc.C[0] = p0[0] - 7.0 / (2 * W) * v0[1];
  cc.C[1] = p0[1] + 7.0 / (2 * W) * v0[0];
  recorder rec;
  memset(&rec, 0, sizeof rec);
  nsed_error err;
  nsed_data *d = NULL;
  CHECK(nsed_data_create(m, &d, &err) == NSED_OK);
  nsed_observer obs = {.ctx = &cc, .sample = on_circle};
  int rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  if (rc == NSED_OK) {
    const nsed_stats *s = nsed_data_stats(d);
    nsed_contact_info ci;
    nsed_data_contact(d, 0, &ci);
    printf("rolling, axis through (%g, %g): centre %.3g m off the circle, spin %.3g rad/s, %ld "
           "events, energy %.6g J fed, balance %.3g J\n",
           c[0], c[1], cc.worst_pos, cc.worst_wz, s->events, s->work_contacts,
           nsed_data_energy(m, d) - s->energy_initial - s->work_contacts);
    CHECK_MSG(cc.worst_pos < 1e-9, "off the circle by %g m", cc.worst_pos);
    CHECK_MSG(cc.worst_wz < 1e-9, "spin about z changed by %g", cc.worst_wz);
    CHECK(s->events == 0);
    CHECK(ci.mode == NSED_MODE_STICK);
    CHECK_NEAR(nsed_data_energy(m, d) - s->energy_initial, s->work_contacts, 1e-10, 1e-8);
  }
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* The velocity's direction at the samples after the stick event. */
typedef struct {
  double t_stick, t_first, ang_first, ang_last, t_last, unwrapped, prev;
  int n;
} turn_rate;

static int follow_velocity(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  (void)m, (void)why;
  turn_rate *tr = ctx;
  double t = nsed_data_time(d), s[13];
  if (!(t > tr->t_stick + 1e-9)) return 0;
  nsed_data_body_state(d, 0, s);
  double a = atan2(s[8], s[7]);
  tr->unwrapped = tr->n ? tr->unwrapped + remainder(a - tr->prev, 2 * M_PI) : a;
  tr->prev = a;
  if (!tr->n) tr->t_first = t, tr->ang_first = tr->unwrapped;
  tr->t_last = t, tr->ang_last = tr->unwrapped;
  tr->n++;
  return 0;
}

static int stick_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *e) {
  (void)m, (void)d;
  turn_rate *tr = ctx;
  if (e->kind == NSED_EVENT_STICK && tr->t_stick == INFINITY) tr->t_stick = e->t;
  return 0;
}

/* The slip phase written independently: centre (x, y), velocity v and the
 * slip velocity u of the contact point over the table. With the friction
 * F = -mu m g u/|u| and I = 2/5 m R^2 the contact point's material
 * velocity changes at (1 + m R^2 / I) F / m = 7/2 F / m, the table's
 * velocity under it at W e_z x v, so
 *   x' = v,  v' = -mu g u/|u|,  u' = -(7/2) mu g u/|u| - W e_z x v.
 * RK4 with h = 1e-5 s (h = 1e-6 s moves the stick time by 9e-12 s). */
static void slip_rhs(double mu, const double y[6], double dy[6]) {
  double us = hypot(y[4], y[5]), g = 9.81;
  dy[0] = y[2], dy[1] = y[3];
  dy[2] = -mu * g * y[4] / us, dy[3] = -mu * g * y[5] / us;
  dy[4] = 3.5 * dy[2] + W * y[3];
  dy[5] = 3.5 * dy[3] - W * y[2];
}

static void rk4(double mu, double y[6], double h) {
  double k1[6], k2[6], k3[6], k4[6], t[6];
  slip_rhs(mu, y, k1);
  for (int i = 0; i < 6; i++) t[i] = y[i] + 0.5 * h * k1[i];
  slip_rhs(mu, t, k2);
  for (int i = 0; i < 6; i++) t[i] = y[i] + 0.5 * h * k2[i];
  slip_rhs(mu, t, k3);
  for (int i = 0; i < 6; i++) t[i] = y[i] + h * k3[i];
  slip_rhs(mu, t, k4);
  for (int i = 0; i < 6; i++) y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
}

static double reference_stick_time(double mu, const double c[3], const double p0[3]) {
  /* Steps of h, or of half the predicted time to u = 0 when that is
   * shorter: every RK4 stage stays on the slipping side (u/|u| flips at 0),
   * and near the stop |u| halves with each step. */
  double y[6] = {p0[0], p0[1], 0, 0, W * (p0[1] - c[1]), -W * (p0[0] - c[0])}, t = 0, rate = -1;
  for (long it = 0; it < 10000000 && hypot(y[4], y[5]) > 1e-14; it++) {
    double dy[6], us = hypot(y[4], y[5]);
    slip_rhs(mu, y, dy);
    rate = (y[4] * dy[4] + y[5] * dy[5]) / us; /* d|u|/dt < 0 */
    double dt = fmin(1e-5, -0.5 * us / rate);
    rk4(mu, y, dt);
    t += dt;
  }
  return t - hypot(y[4], y[5]) / rate;
}

static void test_put_down(const double c[3]) {
  const double p0[3] = {0.5, 0.2, R}, zero[3] = {0, 0, 0};
  nsed_model *m = ball_on_table(c, p0, zero, zero, 0.05, 10.0);
  turn_rate tr = {.t_stick = INFINITY};
  nsed_error err;
  nsed_data *d = NULL;
  CHECK(nsed_data_create(m, &d, &err) == NSED_OK);
  nsed_observer obs = {.ctx = &tr, .sample = follow_velocity, .event = stick_event};
  int rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  if (rc == NSED_OK) {
    const nsed_stats *s = nsed_data_stats(d);
    double rate = (tr.ang_last - tr.ang_first) / (tr.t_last - tr.t_first);
    printf("put down, axis through (%g, %g): sticks at t = %.9g s, then the velocity turns at "
           "%.12g rad/s (2/7 W = %.12g), balance %.3g J, worst slip-direction margin %.3g\n",
           c[0], c[1], tr.t_stick, rate, 2.0 / 7.0 * W,
           nsed_data_energy(m, d) - s->energy_initial - s->work_contacts,
           s->law[NSED_LAW_SLIP_DIRECTION].worst);
    double t_ref = reference_stick_time(0.05, c, p0);
    printf("  stick time against the independent slip equations: %.12g s (nsed %.12g s, %.3g)\n",
           t_ref, tr.t_stick, tr.t_stick - t_ref);
    CHECK(isfinite(tr.t_stick) && tr.t_stick > 0.01 && tr.n > 100);
    CHECK_NEAR(tr.t_stick, t_ref, 1e-9, 0);
    CHECK_NEAR(rate, 2.0 / 7.0 * W, 1e-9, 0);
    CHECK_NEAR(nsed_data_energy(m, d) - s->energy_initial, s->work_contacts, 1e-10, 1e-8);
  }
  nsed_data_free(&d);
  nsed_model_free(&m);
}

int main(void) {
  const double centres[2][3] = {{0, 0, 0}, {0.3, -0.4, 0}};
  for (int i = 0; i < 2; i++) {
    test_rolling(centres[i]);
    test_put_down(centres[i]);
  }
  return TEST_DONE();
}
