/* Landing after a lift-off (liftoff_margin.c; docs/engine.md, "Landing
 * after a lift-off"). A contact that lifts off at the root of its normal
 * force is watched a margin below the level it left (its gap grows from
 * round-off); once it has risen a margin above that level it is watched at
 * the level again, so that a flight lands on the surface.
 *
 * A ball (1 kg, radius 0.1) rests on the floor and is lifted by a vertical
 * force F(t), piecewise linear through (0, 0), (T1, 2 m g), (T2, 0): it
 * lifts off where F = m g (t = T1 / 2, the normal force's root), rises
 * while F > m g and falls back once F is gone. Its height is a polynomial
 * on each piece, so the landing's time and velocity are closed forms. With
 * the margin kept for the whole flight (before) the ball landed a margin
 * late (1e-9 m below the floor; 7e-10 s) and came to rest there; now it
 * must land within 1e-11 s of the closed form and rest on the floor within
 * 1e-12 m, the margin cleared once, nothing projected; so must a free
 * omni-wheel roller lifted the same way. A second ball whose
 * force barely exceeds its weight touches again at a time event 4e-9 s
 * after its lift-off and is left open there, never rising clear of the
 * margin: it must keep the margin (nothing cleared) and land on it where
 * the closed form reaches it (before, it sank through the floor unseen). */
#include "engine_util.h"
#include "nsed_test.h"

static const double G = 9.81, MASS = 1.0, R = 0.1;

/* A free omni-wheel roller (radius 1, 4 a wheel: its spindle's middle
 * 1 - cos(pi/4) below its axis), axis horizontal, resting on its body. */
#define ROLLER_REST (1.0 - cos(M_PI / 4))

static void add_floor_roller(nsed_model *m) {
  nsed_error err;
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "ball");
  b.mass = MASS;
  b.shape.type = NSED_SHAPE_ROLLER;
  b.shape.radius = 1.0;
  b.shape.rollers = 4;
  b.position[2] = ROLLER_REST;
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_contact_def c;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "roller_floor");
  snprintf(c.body, sizeof c.body, "ball");
  must(nsed_model_add_contact(m, &c, &err), &err);
}

typedef struct {
  double t_open, t_impact, v_impact;
  int nopen, nimpact;
} flight_seen;

static int on_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *e) {
  (void)m;
  flight_seen *s = ctx;
  if (e->kind == NSED_EVENT_OPEN && !s->nopen++) s->t_open = e->t;
  if (e->kind == NSED_EVENT_IMPACT && !s->nimpact++) {
    double st[13];
    nsed_data_body_state(d, 0, st); /* after the plastic impact: at rest */
    s->t_impact = e->t;
    s->v_impact = st[9];
  }
  return 0;
}

/* The closed form: a(t) = F(t) / m - g is linear on [t_lift, T1] and on
 * [T1, T2], -g after, so the height above the resting level is a cubic on
 * each piece, integrated exactly piece by piece. */
static double height(double peak, double T1, double T2, double t) {
  double knots[4] = {MASS * G * T1 / peak, T1, T2, INFINITY}; /* lift-off where F = m g */
  double forces[3] = {MASS * G, peak, 0.0}, z = 0, v = 0;
  for (int k = 0; k < 3 && t > knots[k]; k++) {
    double f1 = k < 2 ? (k == 0 ? peak : 0.0) : 0.0;
    double a0 = forces[k] / MASS - G, a1 = k < 2 ? (f1 - forces[k]) / MASS / (knots[k + 1] - knots[k]) : 0;
    double s = fmin(t, knots[k + 1]) - knots[k];
    z += v * s + a0 * s * s / 2 + a1 * s * s * s / 6;
    v += a0 * s + a1 * s * s / 2;
  }
  return z;
}

/* The first time after the lift-off (scanned by `dt`, then bisected) at
 * which the height falls to `level`. */
static double falls_to(double peak, double T1, double T2, double level, double dt) {
  double lo = MASS * G * T1 / peak + dt, hi = lo;
  while (height(peak, T1, T2, hi) > level) lo = hi, hi += dt;
  for (int it = 0; it < 200; it++) {
    double mid = 0.5 * (lo + hi);
    if (height(peak, T1, T2, mid) > level) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

static void lifted_ball(int roller, double peak, double T1, double T2, double t_end, flight_seen *seen,
                        double st[13], nsed_stats *stats) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  if (roller) add_floor_roller(m);
  else add_floor_ball(m, MASS, R, R, 0.0, 0.0, 0.3, NULL);
  nsed_force_def f;
  nsed_force_def_default(&f);
  snprintf(f.name, sizeof f.name, "lift");
  snprintf(f.body, sizeof f.body, "ball");
  f.type = NSED_FORCE_BODY_FORCE;
  f.direction[2] = 1;
  f.magnitude.type = NSED_LAW_PIECEWISE;
  f.magnitude.npoints = 3;
  double times[3] = {0, T1, T2}, values[3] = {0, peak, 0};
  memcpy(f.magnitude.times, times, sizeof times);
  memcpy(f.magnitude.values, values, sizeof values);
  must(nsed_model_add_force(m, &f, &err), &err);
  nsed_options o = *nsed_model_options(m);
  o.t_end = t_end;
  o.output_dt = t_end;
  o.rtol = 1e-12;
  o.atol = 1e-14;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  nsed_data *d;
  must(nsed_data_create(m, &d, &err), &err);
  nsed_observer obs = {.ctx = seen, .event = on_event};
  int rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  nsed_data_body_state(d, 0, st);
  *stats = *nsed_data_stats(d);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* Lifted by up to twice its weight: a flight of about 0.3 s. A free
 * roller the same (it was watched 0.1 contact_tol below the floor for
 * good, as a wheel's rollers are, and landed 9e-11 s late). */
static void flight(int roller) {
  const double peak = 2 * MASS * G, T1 = 0.2, T2 = 0.25, rest = roller ? ROLLER_REST : R;
  double st[13], t_ref = falls_to(peak, T1, T2, 0.0, 1e-3);
  double v_ref = (height(peak, T1, T2, t_ref + 1e-7) - height(peak, T1, T2, t_ref - 1e-7)) / 2e-7;
  flight_seen seen = {0};
  nsed_stats stats;
  lifted_ball(roller, peak, T1, T2, t_ref + 0.1, &seen, st, &stats);
  printf("%s flight: lift-off at %.15f s (closed form %.15f), landing at %.15f s (closed form %.15f, "
         "%+.1e) at %.6f m/s; at rest %+.1e m off the floor; %ld cleared, %ld projected\n",
         roller ? "roller" : "ball", seen.t_open, MASS * G * T1 / peak, seen.t_impact, t_ref,
         seen.t_impact - t_ref, v_ref, st[2] - rest, stats.margins_cleared, stats.projections);
  CHECK(seen.nopen == 1 && seen.nimpact == 1);
  CHECK(fabs(seen.t_open - MASS * G * T1 / peak) < 1e-12);
  CHECK_MSG(fabs(seen.t_impact - t_ref) < 1e-11, "landing %.3g s off", seen.t_impact - t_ref);
  CHECK(fabs(st[2] - rest) < 1e-12 && fabs(st[9]) < 1e-12 && fabs(seen.v_impact) < 1e-12);
  CHECK(stats.margins_cleared == 1 && stats.projections == 0);
}

/* Lifted by at most 1.000002 times its weight: it lifts off 4e-9 s before
 * the force's knot at T1 (a time event, where it touches: a candidate of
 * that event's problem, left open), rises 1e-20 m or so, never clear of
 * the margin, and lands on its closing root a margin below the floor.
 * Watched at its gap from that event on (before), its indicator started
 * at exactly zero and fell below it at once, unseen: it sank through the
 * floor until the next event, 1.6e-6 m at t = T2, and the law monitor
 * stopped the run. */
static void hover(void) {
  const double peak = 1.000002 * MASS * G, T1 = 0.002, T2 = 0.003, margin = 1e-9;
  double st[13], t_ref = falls_to(peak, T1, T2, -margin, 1e-5);
  flight_seen seen = {0};
  nsed_stats stats;
  lifted_ball(0, peak, T1, T2, 0.05, &seen, st, &stats);
  printf("hover: lift-off at %.9f s, landing at %.15f s (closed form at the margin %.15f, %+.1e), %ld "
         "cleared; at rest %+.2e m off the floor\n",
         seen.t_open, seen.t_impact, t_ref, seen.t_impact - t_ref, stats.margins_cleared, st[2] - R);
  CHECK(seen.nopen == 1 && seen.nimpact == 1);
  CHECK_MSG(fabs(seen.t_impact - t_ref) < 1e-10, "landing %.3g s off", seen.t_impact - t_ref);
  CHECK(stats.margins_cleared == 0);
  CHECK(fabs(st[2] - R) <= 1.01e-9);
}

int main(void) {
  flight(0);
  flight(1);
  hover();
  return TEST_DONE();
}
