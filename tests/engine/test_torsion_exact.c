/* Exact (set-valued) torsional friction, |tau| <= torsion lambda_n with the
 * spin sticking or turning decided at events, against closed forms. A ball
 * of mass m and polar inertia I = 2/5 m R^2 stands on the floor (lambda_n =
 * m g, no tangential motion), so its spin w about the vertical obeys
 * I w' = T(t) + tau with the moment bound B = torsion m g:
 *  - spin-down from w0: w = w0 - (B / I) t, stopping (spin_stick) at
 *    t* = I w0 / B and staying at rest;
 *  - a constant torque below B: held at rest, tau = -T, no event;
 *  - a constant torque above B: turning from t = 0, w = (T - B) t / I;
 *  - a torque ramp T = k t: held until k t* = B (spin_slip at t* = B / k,
 *    the transition at mu0 = mu), then w = k (t - t*)^2 / (2 I);
 *  - a reversal: w0 > 0 against a torque -T0 with T0 > B: stops at
 *    t1 = I w0 / (T0 + B) and turns the other way, w = -(T0 - B)(t - t1) / I;
 *  - on a floor turning at W: carried up to the floor's rate at B / I,
 *    sticking at t* = I W / B;
 *  - dropped while spinning: the landing's moment impulse, bounded by
 *    torsion m v, takes torsion m v / I off the spin at once;
 *  - bouncing while spinning: after the impacts so far the spin is
 *    max(0, w0 - torsion sum(Lambda_n) / I).
 * And a box spinning down on four corners (below), where friction and
 * four redundant spins stop together.
 * Each checks the spin at every output sample, the event times and kinds,
 * the moment the contact reports, and the energy balance; also the
 * refusals (exact cone, trial resolver) and a frictionless-spin control. */
#include "engine_util.h"
#include "nsed_test.h"

static const double R = 0.1, MASS = 1.0, GRAV = 9.81, TORSION = 0.01, T_END = 0.6;
#define INERTIA (0.4 * MASS * R * R)
#define BOUND (TORSION * MASS * GRAV)

typedef enum { TORQUE_NONE, TORQUE_CONSTANT, TORQUE_RAMP } torque_kind;

typedef struct {
  double w0;            /* initial spin (rad/s) */
  double floor_spin;    /* the floor's rate (rad/s) */
  torque_kind torque;
  double torque_value;  /* constant torque (N m) or ramp rate k (N m/s) */
  nsed_friction_model model;
  double height;        /* of the ball's bottom above the floor at the start (m) */
  double restitution;   /* of the contact (default 0: plastic) */
  double t_end;         /* s; 0: T_END */
} spin_case;

static nsed_model *ball(const spin_case *sc, nsed_event_resolver resolver, nsed_error *err) {
  nsed_model *m;
  must(nsed_model_create(&m, err), err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "ball");
  b.mass = MASS;
  b.shape.type = NSED_SHAPE_SPHERE;
  b.shape.radius = R;
  b.position[2] = R + sc->height;
  b.angular_velocity[2] = sc->w0;
  must(nsed_model_add_body(m, &b, err), err);
  nsed_contact_def c;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "ball_floor");
  snprintf(c.body, sizeof c.body, "ball");
  c.mu = c.mu0 = 0.5;
  c.torsion = TORSION;
  c.restitution = sc->restitution;
  must(nsed_model_add_contact(m, &c, err), err);
  if (sc->torque != TORQUE_NONE) {
    nsed_force_def f;
    nsed_force_def_default(&f);
    snprintf(f.name, sizeof f.name, "twist");
    snprintf(f.body, sizeof f.body, "ball");
    f.type = NSED_FORCE_BODY_TORQUE;
    f.direction[2] = 1.0;
    if (sc->torque == TORQUE_CONSTANT) {
      f.magnitude.type = NSED_LAW_CONSTANT;
      f.magnitude.value = sc->torque_value;
    } else {
      f.magnitude.type = NSED_LAW_PIECEWISE;
      f.magnitude.npoints = 2;
      f.magnitude.times[0] = 0.0, f.magnitude.values[0] = 0.0;
      f.magnitude.times[1] = 10.0, f.magnitude.values[1] = 10.0 * sc->torque_value;
    }
    must(nsed_model_add_force(m, &f, err), err);
  }
  nsed_options o = *nsed_model_options(m);
  o.t_end = sc->t_end > 0 ? sc->t_end : T_END;
  o.output_dt = 0.002;
  o.rtol = 1e-12;
  o.atol = 1e-14;
  o.floor_spin = sc->floor_spin;
  o.friction.model = sc->model;
  o.event_resolver = resolver;
  must(nsed_model_set_options(m, &o, err), err);
  if (nsed_model_finalize(m, err) != NSED_OK) nsed_model_free(&m);
  return m;
}

/* The closed form: spin w(t) (world, about z), the expected moment, and
 * the one spin event (kind, time; time < 0 for none). */
typedef struct {
  double w, tau;
} spin_state;

static spin_state closed_form(const spin_case *sc, double t, int *kind, double *t_event) {
  double a = BOUND / INERTIA;
  *kind = -1;
  *t_event = -1;
  if (sc->torque == TORQUE_NONE) {
    double u0 = sc->w0 - sc->floor_spin, s = u0 > 0 ? 1 : -1, ts = fabs(u0) / a;
    *kind = NSED_EVENT_SPIN_STICK, *t_event = ts;
    if (t < ts) return (spin_state){sc->w0 - s * a * t, -s * BOUND};
    return (spin_state){sc->floor_spin, 0.0};
  }
  if (sc->torque == TORQUE_RAMP) {
    double k = sc->torque_value, ts = BOUND / k;
    *kind = NSED_EVENT_SPIN_SLIP, *t_event = ts;
    if (t < ts) return (spin_state){0.0, -k * t};
    return (spin_state){k * (t - ts) * (t - ts) / (2 * INERTIA), -BOUND};
  }
  double T = sc->torque_value;
  if (sc->w0 == 0) {
    if (fabs(T) < BOUND) return (spin_state){0.0, -T};
    double s = T > 0 ? 1 : -1;
    return (spin_state){(T - s * BOUND) * t / INERTIA, -s * BOUND};
  }
  /* w0 > 0 against T < -BOUND: stop, then turn the other way. */
  double t1 = INERTIA * sc->w0 / (-T + BOUND);
  *kind = NSED_EVENT_SPIN_SLIP, *t_event = t1;
  if (t < t1) return (spin_state){sc->w0 + (T - BOUND) * t / INERTIA, -BOUND};
  return (spin_state){(T + BOUND) * (t - t1) / INERTIA, BOUND};
}

typedef struct {
  const spin_case *sc;
  double worst_w, worst_tau;
  int nev, kinds[16];
  double times[16];
} spin_run;

static int on_sample(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  (void)m, (void)why;
  spin_run *r = ctx;
  double s[13], te;
  int kind;
  nsed_data_body_state(d, 0, s);
  nsed_contact_info ci;
  nsed_data_contact(d, 0, &ci);
  double t = nsed_data_time(d);
  spin_state e = closed_form(r->sc, t, &kind, &te);
  /* At the event instant itself either side's moment is right. */
  if (te >= 0 && fabs(t - te) < 1e-9) return 0;
  r->worst_w = fmax(r->worst_w, fabs(world_spin_z(s) - e.w));
  r->worst_tau = fmax(r->worst_tau, fabs(ci.moment - e.tau));
  return 0;
}

static int on_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *ev) {
  (void)m, (void)d;
  spin_run *r = ctx;
  if (r->nev < 16) {
    r->kinds[r->nev] = ev->kind;
    r->times[r->nev] = ev->t;
  }
  r->nev++;
  return 0;
}

static void run_case(const char *what, const spin_case *sc) {
  nsed_error err;
  nsed_model *m = ball(sc, NSED_RESOLVER_LCP, &err);
  CHECK_MSG(m != NULL, "%s: %s", what, err.message);
  if (!m) return;
  nsed_data *d = NULL;
  CHECK(nsed_data_create(m, &d, &err) == NSED_OK);
  spin_run r = {.sc = sc};
  nsed_observer obs = {.ctx = &r, .sample = on_sample, .event = on_event};
  int rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "%s: %s", what, err.message);
  int kind;
  double te;
  closed_form(sc, 0.0, &kind, &te);
  const nsed_stats *st = nsed_data_stats(d);
  double de = nsed_data_energy(m, d) - st->energy_initial;
  double work = st->work_contacts + st->work_external;
  printf("%-40s spin off by %.2e rad/s, moment by %.2e N m; %d event(s)", what, r.worst_w,
         r.worst_tau, r.nev);
  for (int i = 0; i < r.nev && i < 16; i++)
    printf(" %s@%.12f", nsed_event_kind_name((nsed_event_kind)r.kinds[i]), r.times[i]);
  printf(" (closed form %.12f); energy change - work %.2e J; spin margin %.2e\n", te, de - work,
         st->law[NSED_LAW_SPIN_FRICTION].worst);
  CHECK_MSG(r.worst_w < 1e-8, "%s: spin off the closed form by %g rad/s", what, r.worst_w);
  CHECK_MSG(r.worst_tau < 1e-8 * BOUND + 1e-12, "%s: moment off by %g N m", what, r.worst_tau);
  CHECK_NEAR(de, work, 1e-10, 1e-8);
  if (te < 0) {
    CHECK_MSG(r.nev == 0, "%s: %d events where none is due", what, r.nev);
  } else {
    CHECK_MSG(r.nev == 1, "%s: %d events, one due", what, r.nev);
    if (r.nev >= 1) {
      CHECK_MSG(r.kinds[0] == kind, "%s: event %s, %s due", what,
                nsed_event_kind_name((nsed_event_kind)r.kinds[0]),
                nsed_event_kind_name((nsed_event_kind)kind));
      CHECK_NEAR(r.times[0], te, 1e-10, 0);
    }
  }
  CHECK(st->law[NSED_LAW_SPIN_FRICTION].count > 0);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* A box of half sizes (a, b, c) spinning on its face at w0 about the
 * vertical: four corner contacts, each sliding on its circle of radius
 * r_c = sqrt(a^2 + b^2) with friction mu m g / 4 and carrying the moment
 * torsion m g / 4. The friction moments add up to (mu r_c + torsion) m g
 * (the centre stays put: the four friction forces cancel), so the spin
 * falls linearly to zero at t* = I w0 / ((mu r_c + torsion) m g), I =
 * m (a^2 + b^2) / 3, where all four corners and spins stop together: the
 * four spin rows are one row repeated (redundant), and the tangential rows
 * slip and stop with them. */
/* The box spinning down in the vertex form: each corner's friction is
 * mu N rho, rho the inscribed octagon's radius along the force, and the
 * corners' slip directions turn with the box (the polygon is fixed in the
 * floor's frame), so the deceleration changes with the angle turned, psi:
 * I w' = -(mu rc mean_k rho(alpha_k + psi - pi/2) + torsion) m g, the
 * corners at angles alpha_k, N = m g / 4 each. Integrated by RK4 (step
 * 1e-6 s) to where w crosses zero, located within its last step by the
 * linear interpolation w is to O(h^2). */
static double vertex_decel(double psi, double a, double b, double mu, double torsion, double I) {
  const double alpha[4] = {atan2(b, a), atan2(b, -a), atan2(-b, -a), atan2(-b, a)};
  double rho = 0;
  for (int k = 0; k < 4; k++) rho += inscribed_polygon_radius(alpha[k] + psi - M_PI / 2, 8) / 4;
  return (mu * hypot(a, b) * rho + torsion) * MASS * GRAV / I;
}

static double vertex_stop_time(double a, double b, double mu, double torsion, double w0, double I) {
  const double h = 1e-6;
  double psi = 0, w = w0, t = 0;
  for (;;) {
    double k1p = w, k1w = -vertex_decel(psi, a, b, mu, torsion, I);
    double k2p = w + h / 2 * k1w, k2w = -vertex_decel(psi + h / 2 * k1p, a, b, mu, torsion, I);
    double k3p = w + h / 2 * k2w, k3w = -vertex_decel(psi + h / 2 * k2p, a, b, mu, torsion, I);
    double k4p = w + h * k3w, k4w = -vertex_decel(psi + h * k3p, a, b, mu, torsion, I);
    double wn = w + h / 6 * (k1w + 2 * k2w + 2 * k3w + k4w);
    if (wn <= 0) return t + h * w / (w - wn);
    psi += h / 6 * (k1p + 2 * k2p + 2 * k3p + k4p);
    w = wn;
    t += h;
  }
}

static void box_spin_down(nsed_friction_model model) {
  const double a = 0.2, b = 0.1, c = 0.05, mu = 0.3, torsion = 0.005, w0 = 4.0;
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def bd;
  nsed_body_def_default(&bd);
  snprintf(bd.name, sizeof bd.name, "box");
  bd.mass = MASS;
  bd.shape.type = NSED_SHAPE_BOX;
  bd.shape.half[0] = a, bd.shape.half[1] = b, bd.shape.half[2] = c;
  bd.position[2] = c;
  bd.angular_velocity[2] = w0;
  must(nsed_model_add_body(m, &bd, &err), &err);
  nsed_contact_def cd, v;
  nsed_contact_def_default(&cd);
  snprintf(cd.name, sizeof cd.name, "corner");
  snprintf(cd.body, sizeof cd.body, "box");
  cd.mu = cd.mu0 = mu;
  cd.torsion = torsion;
  for (int i = 0; i < 8; i++) {
    must(nsed_contact_feature(&cd, NSED_SHAPE_BOX, i, &v, &err), &err);
    must(nsed_model_add_contact(m, &v, &err), &err);
  }
  nsed_options o = *nsed_model_options(m);
  o.t_end = 1.0;
  o.output_dt = 0.005;
  o.rtol = 1e-12;
  o.atol = 1e-14;
  o.friction.model = model;
  o.friction.sides = 8;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  double I = MASS * (a * a + b * b) / 3, rc = hypot(a, b);
  double decel = (mu * rc + torsion) * MASS * GRAV / I, ts = w0 / decel;
  if (model == NSED_FRICTION_POLYGON_VERTEX) ts = vertex_stop_time(a, b, mu, torsion, w0, I);
  recorder *r = calloc(1, sizeof *r);
  nsed_data *d = NULL;
  int rc_run = run_model(m, &d, r);
  CHECK_MSG(rc_run == NSED_OK, "box spin-down (%s) failed", model ? "vertex" : "face");
  int nstick = 0, nspin = 0;
  double worst_t = 0;
  for (int i = 0; i < r->nev; i++) {
    if (r->ev[i].kind == NSED_EVENT_STICK) nstick++;
    if (r->ev[i].kind == NSED_EVENT_SPIN_STICK) nspin++;
    if (r->ev[i].kind == NSED_EVENT_STICK || r->ev[i].kind == NSED_EVENT_SPIN_STICK)
      worst_t = fmax(worst_t, fabs(r->ev[i].t - ts));
  }
  double s[13];
  nsed_data_body_state(d, 0, s);
  const nsed_stats *st = nsed_data_stats(d);
  double de = nsed_data_energy(m, d) - st->energy_initial;
  printf("box spin-down (%s): %d events, %d corner stops and %d spin stops off t* = %.12f by "
         "%.2e s; final spin %.2e rad/s, centre moved %.2e m; energy change - work %.2e J; "
         "spin margin %.2e\n",
         model ? "vertex" : "face", r->nev, nstick, nspin, ts, worst_t, world_spin_z(s),
         hypot(s[0], s[1]), de - st->work_contacts, st->law[NSED_LAW_SPIN_FRICTION].worst);
  CHECK_MSG(nstick == 4 && nspin == 4, "box spin-down: %d corner and %d spin stops, 4 each due",
            nstick, nspin);
  CHECK_MSG(worst_t < 1e-9, "box spin-down: stops off t* by %g s", worst_t);
  CHECK_MSG(fabs(world_spin_z(s)) < 1e-10, "box spin-down: still spinning at %g rad/s",
            world_spin_z(s));
  CHECK_MSG(hypot(s[0], s[1]) < 1e-10, "box spin-down: the centre moved %g m", hypot(s[0], s[1]));
  CHECK_NEAR(de, st->work_contacts, 1e-10, 1e-8);
  CHECK_NEAR(st->work_contacts, -0.5 * I * w0 * w0, 1e-9, 1e-7);
  nsed_data_free(&d);
  nsed_model_free(&m);
  free(r);
}

/* The ball dropped from height h while spinning at w0: it lands at
 * t_f = sqrt(2 h / g) with v = g t_f, plastically; the impact's moment
 * impulse is bounded by torsion Lambda_n = torsion m v, which takes
 * torsion m v / I off the spin at once; the spin then falls at B / I and
 * sticks at t_f + I (w0 - torsion m v / I) / B. */
static void dropped(nsed_friction_model model) {
  const double h = 0.05, w0 = 5.0;
  spin_case sc = {.w0 = w0, .model = model, .height = h};
  nsed_error err;
  nsed_model *m = ball(&sc, NSED_RESOLVER_LCP, &err);
  CHECK_MSG(m != NULL, "dropped: %s", err.message);
  if (!m) return;
  double tf = sqrt(2 * h / GRAV), v = GRAV * tf, w1 = w0 - TORSION * MASS * v / INERTIA;
  double ts = tf + INERTIA * w1 / BOUND;
  recorder *r = calloc(1, sizeof *r);
  nsed_data *d = NULL;
  CHECK(run_model(m, &d, r) == NSED_OK);
  int impacts = 0, sticks = 0;
  double t_impact = -1, t_stick = -1, w_after = NAN;
  for (int i = 0; i < r->nev; i++) {
    if (r->ev[i].kind == NSED_EVENT_IMPACT) impacts++, t_impact = r->ev[i].t;
    if (r->ev[i].kind == NSED_EVENT_SPIN_STICK) sticks++, t_stick = r->ev[i].t;
  }
  double s[13];
  nsed_data_body_state(d, 0, s);
  w_after = world_spin_z(s);
  const nsed_stats *st = nsed_data_stats(d);
  double de = nsed_data_energy(m, d) - st->energy_initial;
  printf("dropped spinning (%s): impact at %.12f (%.12f), spin_stick at %.12f (closed form "
         "%.12f, spin after the impact %.9f rad/s); final spin %.2e; energy change - work %.2e J\n",
         model ? "vertex" : "face", t_impact, tf, t_stick, ts, w1, w_after,
         de - st->work_contacts - st->work_external);
  CHECK(impacts == 1 && sticks == 1 && r->nev == 2);
  CHECK_NEAR(t_impact, tf, 1e-10, 0);
  CHECK_NEAR(t_stick, ts, 1e-9, 0);
  CHECK_MSG(fabs(w_after) < 1e-10, "dropped: still spinning at %g rad/s", w_after);
  CHECK_NEAR(de, st->work_contacts + st->work_external, 1e-10, 1e-8);
  nsed_data_free(&d);
  nsed_model_free(&m);
  free(r);
}

/* A spinning ball bouncing (restitution 0.8) until the Zeno guard closes
 * its contact: each impact's moment impulse is bounded by torsion
 * Lambda_n, so after the impacts so far the spin is exactly
 * max(0, w0 - torsion sum(Lambda_n) / I) (the spin stops within the
 * impacts here: the impulses add up to the weight's). */
typedef struct {
  double w0, sum_impulse, worst;
  int impacts;
} bounce_check;

static int on_bounce(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *ev) {
  (void)m;
  bounce_check *b = ctx;
  if (ev->kind != NSED_EVENT_IMPACT) return 0;
  double s[13];
  nsed_data_body_state(d, 0, s);
  b->sum_impulse += ev->impulse[0];
  b->impacts++;
  double expect = fmax(0.0, b->w0 - TORSION * b->sum_impulse / INERTIA);
  b->worst = fmax(b->worst, fabs(world_spin_z(s) - expect));
  return 0;
}

static void bouncing(nsed_friction_model model) {
  spin_case sc = {.w0 = 20.0, .model = model, .height = 0.2, .restitution = 0.8, .t_end = 3.0};
  nsed_error err;
  nsed_model *m = ball(&sc, NSED_RESOLVER_LCP, &err);
  CHECK_MSG(m != NULL, "bouncing: %s", err.message);
  if (!m) return;
  nsed_data *d = NULL;
  CHECK(nsed_data_create(m, &d, &err) == NSED_OK);
  bounce_check b = {.w0 = sc.w0};
  nsed_observer obs = {.ctx = &b, .event = on_bounce};
  CHECK_MSG(nsed_simulate(m, d, &obs, &err) == NSED_OK, "bouncing: %s", err.message);
  const nsed_stats *st = nsed_data_stats(d);
  double de = nsed_data_energy(m, d) - st->energy_initial;
  printf("bouncing while spinning (%s): %d impacts, spin after each off max(0, w0 - torsion "
         "sum(Lambda_n) / I) by at most %.2e rad/s; energy change - work %.2e J\n",
         model ? "vertex" : "face", b.impacts, b.worst, de - st->work_contacts);
  CHECK_MSG(b.impacts > 20, "bouncing: only %d impacts", b.impacts);
  CHECK_MSG(b.worst < 1e-10, "bouncing: spin off by %g rad/s", b.worst);
  CHECK_NEAR(de, st->work_contacts, 1e-10, 1e-8);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

static void refusals(void) {
  nsed_error err;
  spin_case sc = {.w0 = 5.0, .model = NSED_FRICTION_EXACT_CONE};
  nsed_model *m = ball(&sc, NSED_RESOLVER_LCP, &err);
  CHECK_MSG(m == NULL && strstr(err.message, "polygon friction model"),
            "the exact cone must refuse exact torsion: %s", m ? "accepted" : err.message);
  nsed_model_free(&m);
  sc.model = NSED_FRICTION_POLYGON_FACE;
  m = ball(&sc, NSED_RESOLVER_TRIAL, &err);
  CHECK_MSG(m == NULL && strstr(err.message, "event_resolver"),
            "the trial resolver must refuse exact torsion: %s", m ? "accepted" : err.message);
  nsed_model_free(&m);
}

int main(void) {
  const nsed_friction_model models[2] = {NSED_FRICTION_POLYGON_FACE, NSED_FRICTION_POLYGON_VERTEX};
  for (int k = 0; k < 2; k++) {
    const char *name = k ? "vertex" : "face";
    char what[80];
    spin_case cases[] = {
        {.w0 = 5.0, .model = models[k]},
        {.w0 = -3.0, .model = models[k]},
        {.torque = TORQUE_CONSTANT, .torque_value = 0.5 * BOUND, .model = models[k]},
        {.torque = TORQUE_CONSTANT, .torque_value = -0.9 * BOUND, .model = models[k]},
        {.torque = TORQUE_CONSTANT, .torque_value = 2.5 * BOUND, .model = models[k]},
        {.torque = TORQUE_RAMP, .torque_value = 0.5, .model = models[k]},
        {.w0 = 5.0, .torque = TORQUE_CONSTANT, .torque_value = -2.0 * BOUND, .model = models[k]},
        {.floor_spin = 3.0, .model = models[k]},
    };
    const char *names[] = {"spin-down", "spin-down, negative", "held, 0.5 B", "held, -0.9 B",
                           "turning, 2.5 B", "ramp 0.5 N m/s", "reversal, -2 B",
                           "floor turning at 3 rad/s"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      snprintf(what, sizeof what, "%s: %s", name, names[i]);
      run_case(what, &cases[i]);
    }
  }
  bouncing(NSED_FRICTION_POLYGON_FACE);
  bouncing(NSED_FRICTION_POLYGON_VERTEX);
  dropped(NSED_FRICTION_POLYGON_FACE);
  dropped(NSED_FRICTION_POLYGON_VERTEX);
  box_spin_down(NSED_FRICTION_POLYGON_FACE);
  box_spin_down(NSED_FRICTION_POLYGON_VERTEX);
  refusals();
  return TEST_DONE();
}
