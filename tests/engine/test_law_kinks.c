/* The kinks of the contact laws' forces (law_kinks.c; docs/engine.md,
 * "Kinks of the contact laws"). A slip in the
 * vertex form is opposed by mu lambda_n rho(f), rho the inscribed
 * polygon's radius along the force's direction f: continuous, with a kink
 * at each vertex. A free slip that turns across one is a right-hand side
 * with a kink inside a step, unless the crossing is a root.
 *
 *  1. The sectors and their margins at known angles (on a vertex, the
 *     turn decides; across 2 pi).
 *  2. A sphere sliding across an incline, its slip turning downhill
 *     through vertices, against an independent integration of its slip
 *     velocity u' = g_t - (7/2) mu g_n rho(-u) u/|u| (exact for a uniform
 *     sphere whose normal force is its weight's component): in the
 *     logarithm of the slip speed as independent variable (smooth down to
 *     the stop, where the direction's motion is a power of the speed), by
 *     RK4 with each vertex crossing located by bisection, the stop time and
 *     the ball's position there. nsed at rtol 1e-11 must meet both to
 *     3e-12 over five starts (4 and 8 sides); with steps across the kinks
 *     it was off by up to 2.8e-11 s and 4.4e-11 m.
 *  3. A coin from a random start (the one that showed it): its slip's stop
 *     at rtol 1e-11 against rtol 1e-13 agrees as the cone's does; with
 *     steps across the kinks it was 1.7e-10 s off (the cone 2.4e-14).
 *  4. A ball dropped 5 cm onto a compliant floor (k 1e6 N/m, c 200 N s/m:
 *     Kelvin-Voigt, damping ratio 0.1), against its closed form: the
 *     damped oscillation x(t) of the overlap from the landing, separation
 *     where -k x - c x' reaches zero (bisection on the closed form), then
 *     the flight: height and velocity at t = 0.25 within 1e-11 m and 5e-11
 *     m/s at rtol 1e-11, four kinks crossed (the force law's zero before
 *     the landing, the landing's jump by c |v|, the force's zero, the
 *     gap's). With steps across them: 6.6e-11 m and 4.5e-10 m/s.
 *  5. A ball sliding with Kosenko's regularised friction (delta 1e-2):
 *     decelerating at (7/2) mu g until its slip speed is delta, then
 *     decaying as exp(-(7/2) mu g t / delta); its centre's position and
 *     velocity at t = 0.5 in closed form, within 1e-12. That law's kink
 *     at |v| = delta is not a root (a creeping slip hovers about delta):
 *     none is counted.
 *  6. The sector root's noise band: a ball's free slip at 1e-6 m/s whose
 *     force's direction lies past its sector's vertex by less than the
 *     velocity's noise (1e-9 rad; the noise is 1e-7 rad there) is not a
 *     crossing, and by more (1e-5 rad) is. Without the band a slip whose
 *     direction rests on a vertex crossed it at every restart: the
 *     four-wheeled coast in differential tracking and the vertex form
 *     stopped on the stall guard at t = 418.77 (a roller's slip at 1e-6
 *     m/s within 5e-8 rad of a vertex, 49 crossings in 2.7e-5 s;
 *     docs/engine.md, "Kinks of the contact laws"). */
#include "engine_util.h"
#include "nsed/io.h"
#include "nsed_test.h"
#include "sim_impl.h"

static const double G = 9.81, TILT = 10.0 * M_PI / 180, MU = 0.3;

static void sectors(void) {
  double h = M_PI / 4, eps = 1e-14;
  CHECK(nsedi_vertex_sector(8, cos(0.3), sin(0.3), 1e-12, 0) == 0);
  CHECK(nsedi_vertex_sector(8, cos(3 * h + 0.1), sin(3 * h + 0.1), 1e-12, 0) == 3);
  CHECK(nsedi_vertex_sector(8, cos(-0.1), sin(-0.1), 1e-12, 0) == 7);
  /* on vertex 2 within the noise: the turn decides */
  CHECK(nsedi_vertex_sector(8, cos(2 * h + eps), sin(2 * h + eps), 1e-12, -1.0) == 1);
  CHECK(nsedi_vertex_sector(8, cos(2 * h - eps), sin(2 * h - eps), 1e-12, 1.0) == 2);
  CHECK(nsedi_vertex_sector(8, 1.0, -1e-15, 1e-12, 1.0) == 0);
  CHECK(nsedi_vertex_sector(8, 1.0, 1e-15, 1e-12, -1.0) == 7);
  CHECK(nsedi_vertex_sector(4, -1, 0.5, 1e-12, 0) == 1);
  /* inside positive, on either vertex zero, outside negative */
  CHECK(nsedi_sector_margin(8, 1, cos(1.5 * h), sin(1.5 * h)) > 0.38);
  CHECK(fabs(nsedi_sector_margin(8, 1, cos(h), sin(h))) < 1e-15);
  CHECK(fabs(nsedi_sector_margin(8, 1, 2 * cos(2 * h), 2 * sin(2 * h))) < 1e-15);
  CHECK(nsedi_sector_margin(8, 1, cos(2.5 * h), sin(2.5 * h)) < 0);
  CHECK(nsedi_sector_margin(8, 7, cos(-0.2), sin(-0.2)) > 0);
  CHECK(nsedi_sector_margin(8, 7, cos(0.2), sin(0.2)) < 0);
}

/* ---- the independent slip integration ---- */
typedef struct {
  int sides;
  double gt[2], k; /* the incline's pull and (7/2) mu g_n */
} slip_law;

static double rho_of(int sides, double f_angle) {
  double h = 2 * M_PI / sides;
  return cos(h / 2) / cos(remainder(f_angle - h / 2, h));
}

/* y = (theta, t, v1, v2, x1, x2) of the slip direction's angle theta, over
 * sigma = log |u|: d/dsigma = (d/dt) / (d log|u| / dt). */
static void slip_rhs(const slip_law *L, const double y[6], double sigma, double dy[6]) {
  double c = cos(y[0]), s = sin(y[0]), r = rho_of(L->sides, y[0] + M_PI);
  double dsdt = c * L->gt[0] + s * L->gt[1] - L->k * r; /* d|u|/dt < 0 */
  double dt = exp(sigma) / dsdt, fm = MU * G * cos(TILT) * r;
  dy[0] = -(L->gt[0] * s - L->gt[1] * c) / dsdt;
  dy[1] = dt;
  dy[2] = (L->gt[0] - fm * c) * dt;
  dy[3] = (L->gt[1] - fm * s) * dt;
  dy[4] = y[2] * dt;
  dy[5] = y[3] * dt;
}

static void rk4(const slip_law *L, const double y[6], double sigma, double H, double out[6]) {
  double k1[6], k2[6], k3[6], k4[6], t[6];
  slip_rhs(L, y, sigma, k1);
  for (int i = 0; i < 6; i++) t[i] = y[i] + H / 2 * k1[i];
  slip_rhs(L, t, sigma + H / 2, k2);
  for (int i = 0; i < 6; i++) t[i] = y[i] + H / 2 * k2[i];
  slip_rhs(L, t, sigma + H / 2, k3);
  for (int i = 0; i < 6; i++) t[i] = y[i] + H * k3[i];
  slip_rhs(L, t, sigma + H, k4);
  for (int i = 0; i < 6; i++) out[i] = y[i] + H / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
}

static int sector_of(int sides, double theta) {
  double h = 2 * M_PI / sides, a = fmod(theta + M_PI, 2 * M_PI);
  return (int)floor((a < 0 ? a + 2 * M_PI : a) / h);
}

/* From slip u0 (the ball without spin, at the origin) down to |u| = 1e-25:
 * y[1] the stop time, y[4..5] the position there; returns the crossings. */
static int reference_stop(const slip_law *L, const double u0[2], double y[6]) {
  double sigma = log(hypot(u0[0], u0[1])), end = log(1e-25);
  int n = 20000, crossings = 0;
  double H = (end - sigma) / n, next[6];
  y[0] = atan2(u0[1], u0[0]);
  y[1] = y[4] = y[5] = 0;
  y[2] = u0[0], y[3] = u0[1];
  for (int i = 0; i < n;) {
    rk4(L, y, sigma, H, next);
    if (sector_of(L->sides, next[0]) != sector_of(L->sides, y[0])) {
      double lo = 0, hi = H;
      for (int it = 0; it < 80; it++) {
        double mid = 0.5 * (lo + hi);
        rk4(L, y, sigma, mid, next);
        if (sector_of(L->sides, next[0]) == sector_of(L->sides, y[0])) lo = mid;
        else hi = mid;
      }
      rk4(L, y, sigma, hi, next);
      memcpy(y, next, sizeof next);
      sigma += hi;
      H = (end - sigma) / (n - i);
      crossings++;
      continue;
    }
    memcpy(y, next, sizeof next);
    sigma += H;
    i++;
  }
  return crossings;
}

typedef struct {
  double t_stick, pos[2];
  int nstick;
} stick_seen;

static int at_stick(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *e) {
  (void)m;
  stick_seen *s = ctx;
  if (e->kind != NSED_EVENT_STICK || s->nstick++) return 0;
  double st[13];
  nsed_data_body_state(d, 0, st);
  s->t_stick = e->t;
  s->pos[0] = st[0], s->pos[1] = st[1];
  return 0;
}

/* The ball (radius 0.1, 1 kg) at 2 m/s along beta on a floor tilted by
 * TILT towards gdir (gravity turned), vertex form of the given sides. */
static void sphere_case(int sides, double gdir, double beta, double *worst_t, double *worst_x) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  double u0[2] = {2.0 * cos(beta), 2.0 * sin(beta)}, y[6];
  add_sliding_ball(m, 1.0, 0.1, u0[0], u0[1], MU);
  nsed_options o = *nsed_model_options(m);
  double gt = G * sin(TILT);
  o.gravity[0] = gt * cos(gdir), o.gravity[1] = gt * sin(gdir), o.gravity[2] = -G * cos(TILT);
  o.t_end = 0.3;
  o.friction.model = NSED_FRICTION_POLYGON_VERTEX;
  o.friction.sides = sides;
  /* The slow hold's own error (its direction frozen below slip_stop_speed)
   * kept below the kinks' (docs/engine.md, "Slip direction"). */
  o.slip_stop_speed = 1e-8;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  stick_seen seen = {0};
  nsed_observer obs = {.ctx = &seen, .event = at_stick};
  nsed_data *d;
  must(nsed_data_create(m, &d, &err), &err);
  int rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "sphere: %s", err.message);
  slip_law L = {.sides = sides, .gt = {gt * cos(gdir), gt * sin(gdir)}, .k = 3.5 * MU * G * cos(TILT)};
  int crossings = reference_stop(&L, u0, y);
  const nsed_stats *st = nsed_data_stats(d);
  double dt = seen.t_stick - y[1], dx = fmax(fabs(seen.pos[0] - y[4]), fabs(seen.pos[1] - y[5]));
  printf("sphere, %d sides, pulled along %.1f deg, launched along %.0f deg: stop %.15f s (reference "
         "%.15f, %+.1e), position off by %.1e m; %ld kinks crossed (the reference %d)\n",
         sides, gdir * 180 / M_PI, beta * 180 / M_PI, seen.t_stick, y[1], dt, dx, st->law_kinks,
         crossings);
  CHECK(seen.nstick == 1);
  CHECK(st->law_kinks >= 1 && st->law_kinks <= crossings);
  CHECK(monitor_clean(st));
  *worst_t = fmax(*worst_t, fabs(dt));
  *worst_x = fmax(*worst_x, dx);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

static void spheres(void) {
  double wt = 0, wx = 0, deg = M_PI / 180;
  sphere_case(4, 45 * deg, 100 * deg, &wt, &wx);
  sphere_case(4, 45 * deg, 130 * deg, &wt, &wx);
  sphere_case(8, 22.5 * deg, 60 * deg, &wt, &wx);
  sphere_case(8, 22.5 * deg, 100 * deg, &wt, &wx);
  sphere_case(8, 22.5 * deg, 130 * deg, &wt, &wx);
  printf("spheres: stop times within %.1e s, positions within %.1e m of the reference\n", wt, wx);
  CHECK_MSG(wt < 3e-12 && wx < 3e-12, "stop %.3g s, position %.3g m", wt, wx);
}

/* The coin's slip stop (its first stick) at rtol rtol in the given form. */
static double coin_stop(const char *root, const char *form, double rtol) {
  char tol[64], atol[64];
  snprintf(tol, sizeof tol, "solver.rtol=%g", rtol);
  snprintf(atol, sizeof atol, "solver.atol=%g", rtol * 1e-2);
  const char *sets[] = {"bodies.coin.velocity=[0.8184808029713733, 1.3735359944485592, 0]",
                        "bodies.coin.angular_velocity=[-8.41319672591309, -15.043083262271777, "
                        "0.8766204275693124]",
                        form, tol, atol, "solver.t_end=0.16"};
  nsed_error err;
  nsed_model *m = load_shipped(root, "rolling_coin.yaml", sets, 6);
  stick_seen seen = {0};
  nsed_observer obs = {.ctx = &seen, .event = at_stick};
  nsed_data *d;
  must(nsed_data_create(m, &d, &err), &err);
  int rc = nsed_simulate(m, d, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "coin: %s", err.message);
  CHECK(seen.nstick == 1);
  nsed_data_free(&d);
  nsed_model_free(&m);
  return seen.t_stick;
}

static void coin(const char *root) {
  const char *vertex = "friction={model: polygon, form: vertex, sides: 8}";
  const char *cone = "friction={model: exact_cone}";
  double v11 = coin_stop(root, vertex, 1e-11), v13 = coin_stop(root, vertex, 1e-13);
  double c11 = coin_stop(root, cone, 1e-11), c13 = coin_stop(root, cone, 1e-13);
  printf("coin: its slip stops at %.15f s (rtol 1e-11) and %.15f s (rtol 1e-13) in the vertex form "
         "(%.1e apart), on the cone %.1e apart\n",
         v11, v13, fabs(v11 - v13), fabs(c11 - c13));
  CHECK_MSG(fabs(v11 - v13) < 1e-12, "vertex form: %.3g s apart", fabs(v11 - v13));
  CHECK(fabs(c11 - c13) < 1e-12);
}

/* A 1 kg ball of radius 0.1 under a contact law of its own. */
static nsed_model *law_ball(double z0, double vx, nsed_contact_law law, double mu, double k, double c,
                            double delta) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_contact_def cd = {.law = law, .stiffness = k, .damping = c, .delta = delta};
  add_floor_ball(m, 1.0, 0.1, z0, vx, 0.0, mu, &cd);
  return m;
}

/* Runs m (and frees it) to t_end: the body's state there and the kinks. */
static void run_to(nsed_model *m, double t_end, double s[13], long *kinks) {
  nsed_error err;
  nsed_options o = *nsed_model_options(m);
  o.t_end = t_end;
  o.output_dt = t_end;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  nsed_data *d;
  must(nsed_data_create(m, &d, &err), &err);
  int rc = nsed_simulate(m, d, NULL, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  nsed_data_body_state(d, 0, s);
  *kinks = nsed_data_stats(d)->law_kinks;
  nsed_data_free(&d);
  nsed_model_free(&m);
}

static void compliant_drop(void) {
  const double k = 1e6, c = 200, h = 0.05, T = 0.25;
  double v0 = sqrt(2 * G * h), tl = sqrt(2 * h / G), w0 = sqrt(k), zeta = c / (2 * sqrt(k));
  double wd = w0 * sqrt(1 - zeta * zeta), xe = -G / k, A = -xe, B = (-v0 + zeta * w0 * A) / wd;
  /* the overlap x(t) from the landing and the spring-damper's force */
#define XC(t) (xe + exp(-zeta * w0 * (t)) * (A * cos(wd * (t)) + B * sin(wd * (t))))
#define VC(t) (exp(-zeta * w0 * (t)) * (-zeta * w0 * (A * cos(wd * (t)) + B * sin(wd * (t))) + \
                                       wd * (-A * sin(wd * (t)) + B * cos(wd * (t)))))
  double lo = 0.5 * M_PI / wd, hi = 1.5 * M_PI / wd; /* the force is positive at lo, negative at hi */
  for (int it = 0; it < 200; it++) {
    double mid = 0.5 * (lo + hi);
    if (-k * XC(mid) - c * VC(mid) > 0) lo = mid;
    else hi = mid;
  }
  double xs = XC(lo), vs = VC(lo), tau = T - tl - lo;
  double z_ref = 0.1 + xs + vs * tau - 0.5 * G * tau * tau, v_ref = vs - G * tau;
  CHECK(-k * XC(0.5 * M_PI / wd) - c * VC(0.5 * M_PI / wd) > 0);
  CHECK(vs * vs + 2 * G * xs > 0 && (vs + sqrt(vs * vs + 2 * G * xs)) / G > tau); /* in flight at T */
  double s[13];
  long kinks;
  run_to(law_ball(0.1 + h, 0, NSED_CONTACT_COMPLIANT, 0.0, k, c, 1e-4), T, s, &kinks);
  printf("compliant drop: contact %.6e s, rebound %.12f m/s; at t = %g z %.15f (closed form %.15f, "
         "%+.1e), v_z %+.1e off; %ld kinks\n",
         lo, vs, T, s[2], z_ref, s[2] - z_ref, s[9] - v_ref, kinks);
  CHECK_MSG(fabs(s[2] - z_ref) < 1e-11 && fabs(s[9] - v_ref) < 5e-11, "z %.3g, v %.3g off", s[2] - z_ref,
            s[9] - v_ref);
  CHECK(kinks == 4);
#undef XC
#undef VC
}

static void regularised_slide(void) {
  const double mu = 0.3, delta = 1e-2, v0 = 2.0, T = 0.5;
  double a = 3.5 * mu * G, kr = a / delta, t1 = (v0 - delta) / a, tau = T - t1;
  double v1 = v0 - mu * G * t1, x1 = v0 * t1 - 0.5 * mu * G * t1 * t1;
  double v_ref = v1 - mu * G / kr * (1 - exp(-kr * tau));
  double x_ref = x1 + (v1 - mu * G / kr) * tau + mu * G / (kr * kr) * (1 - exp(-kr * tau));
  double s[13];
  long kinks;
  run_to(law_ball(0.1, v0, NSED_CONTACT_REGULARIZED, mu, 0, 0, delta), T, s, &kinks);
  printf("regularised slide: slip reaches delta at %.6f s; at t = %g x %.15f (closed form %.15f, %+.1e), "
         "v %+.1e off; %ld kinks\n",
         t1, T, s[0], x_ref, s[0] - x_ref, s[7] - v_ref, kinks);
  CHECK(fabs(s[0] - x_ref) < 1e-12 && fabs(s[7] - v_ref) < 1e-12);
  CHECK(kinks == 0);
}

/* The LINE root of a ball's free slip whose force points delta rad past
 * the upper vertex (angle 4 h, h = 2 pi / 8) of the sector below it. */
static double sector_root_past_vertex(double delta) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  add_sliding_ball(m, 1.0, 0.1, 1.0, 0.0, MU);
  nsed_options o = *nsed_model_options(m);
  o.friction.model = NSED_FRICTION_POLYGON_VERTEX;
  o.friction.sides = 8;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  nsed_data *d;
  must(nsed_data_create(m, &d, &err), &err);
  double h = M_PI / 4, f = 4 * h + delta, sp = 1e-6;
  double x[13] = {0, 0, 0.1, 1, 0, 0, 0, -sp * cos(f), -sp * sin(f), 0, 0, 0, 0};
  memcpy(d->x, x, sizeof x);
  d->t = 0.5;
  d->ph.mode[0] = NSED_MODE_SLIP;
  d->ph.held[0] = d->ph.slow[0] = 0;
  d->ph.sector[0] = 3;
  double g[64];
  int rc = nsedi_indicators(m, d, d->t, d->x, g);
  CHECK_MSG(rc == NSED_OK, "indicators: %d", rc);
  double noise = nsedi_slip_noise(m, d, 0) / sp, line = g[NSEDI_ROOT_LINE];
  printf("sector root, force %.0e rad past its vertex (the velocity's noise %.1e rad): %.3e\n",
         delta, noise, line);
  CHECK_MSG(noise > 1e-8 && noise < 1e-6, "the premise: noise %.3g rad", noise);
  nsed_data_free(&d);
  nsed_model_free(&m);
  return line;
}

static void sector_noise_band(void) {
  CHECK(sector_root_past_vertex(-1e-3) > 0); /* inside its sector */
  CHECK(sector_root_past_vertex(1e-9) > 0);  /* past it within the noise */
  CHECK(sector_root_past_vertex(1e-5) < 0);  /* past it beyond */
}

int main(int argc, char **argv) {
  const char *root = argc > 1 ? argv[1] : ".";
  sectors();
  spheres();
  coin(root);
  compliant_drop();
  regularised_slide();
  sector_noise_band();
  return TEST_DONE();
}
