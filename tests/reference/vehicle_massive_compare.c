/* nsed's omni vehicle against the independent massive-roller model on
 * infinite friction (omni_massive.c): where nsed's rollers stick, the two
 * are the same mechanical system and must agree to the integrators'
 * accuracy; where nsed's rollers slip (finite mu), the difference is the
 * slipping's. docs/omni-vehicle.md, "Against a massive-roller model".
 *
 * The reference starts from nsed's initial state read off its bodies: the
 * platform, each wheel's turn (from its rollers' positions) and every
 * roller's spin about its own axis.
 *
 * Test mode (argv[1] the source root): Kosenko's coast (n = 4, 100 units,
 * 10 handovers, the translation decaying 40-fold and reviving) and
 * Gerasimov and Zobova's (n = 5, heavy rollers, 10 s) at a twentieth of
 * their speeds, where no roller slips, must agree with the reference, which
 * must conserve its energy and keep its rows; the shipped coast (v = 1, mu = 0.5) must agree until its first
 * roller slips near a tip. "mu MU [t_end [FILE [speed spin [KEY=VALUE
 * ...]]]]": one comparison printed as a table (docs), the overrides passed
 * to the problem (speed 0: the file's motion). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsed/nsed.h"
#include "nsed_test.h"
#include "omni_massive.h"

#define NCHECK 10

typedef struct {
  double t, x, y, theta, vx, vy, w;
} platform_point;

typedef struct {
  int P;
  double t_end;
  platform_point at[NCHECK + 1];
} samples;

static platform_point platform_of(const double s[13], double t) {
  return (platform_point){t, s[0], s[1], 2 * atan2(s[6], s[3]), s[7], s[8], s[12]};
}

static int record(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  (void)m;
  samples *sm = ctx;
  if (why == NSED_SAMPLE_PRE_EVENT) return 0;
  double t = nsed_data_time(d), s[13];
  for (int k = 0; k <= NCHECK; k++)
    if (fabs(t - sm->t_end * k / NCHECK) < 1e-9 * fmax(1.0, sm->t_end)) {
      nsed_data_body_state(d, sm->P, s);
      sm->at[k] = platform_of(s, t);
    }
  return 0;
}

static void world_rotation(const double q[4], double R[3][3]) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  double M[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                    {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                    {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
  memcpy(R, M, sizeof M);
}

static void world_omega(const double s[13], double w[3]) {
  double R[3][3];
  world_rotation(s + 3, R);
  for (int r = 0; r < 3; r++) w[r] = R[r][0] * s[10] + R[r][1] * s[11] + R[r][2] * s[12];
}

/* The reference's parameters and initial state from nsed's vehicle; returns
 * 0, or -1 if the vehicle is not one the reference describes (printed). */
static int reference_from(const nsed_model *m, const nsed_data *d, omni_massive_params *p,
                          omni_massive_state *s, double *init_spin_err, double *init_rate_err) {
  int P = nsed_model_find_body(m, "platform");
  const nsed_body_def *pd = nsed_model_body_def(m, P);
  const nsed_body_def *hub = nsed_model_body_def(m, nsed_model_find_body(m, "wheel0"));
  const nsed_body_def *rol = nsed_model_body_def(m, nsed_model_find_body(m, "wheel0_roller0"));
  char name[64];
  int N = 0;
  for (; N < OMNI_MASSIVE_MAX_WHEELS; N++) {
    snprintf(name, sizeof name, "wheel%d", N);
    if (nsed_model_find_body(m, name) < 0) break;
  }
  int n = rol->shape.rollers;
  snprintf(name, sizeof name, "wheel%d", N);
  if (rol->shape.psi != 0 || n > OMNI_MASSIVE_MAX_ROLLERS || nsed_model_find_body(m, name) >= 0 ||
      nsed_model_find_body(m, "wheel0_strut") >= 0) {
    fprintf(stderr, "the massive-roller reference has rigid wheels (no struts), at most %d of them, "
            "psi = 0 and at most %d rollers\n", OMNI_MASSIVE_MAX_WHEELS, OMNI_MASSIVE_MAX_ROLLERS);
    return -1;
  }
  double ps[13], hs[13];
  nsed_data_body_state(d, P, ps);
  nsed_data_body_state(d, nsed_model_find_body(m, "wheel0"), hs);
  double theta = 2 * atan2(ps[6], ps[3]);
  memset(p, 0, sizeof *p);
  p->nwheels = N;
  p->rollers = n;
  p->R = rol->shape.radius;
  p->d = hypot(hs[0] - ps[0], hs[1] - ps[1]);
  p->m_platform = pd->mass;
  p->I_platform = pd->inertia[2];
  p->m_hub = hub->mass;
  p->J_hub_axial = hub->inertia[2];
  p->J_hub_diam = hub->inertia[0];
  p->m_roller = rol->mass;
  p->J_roller_axial = rol->inertia[0];
  p->J_roller_trans = rol->inertia[1];
  double alpha = M_PI / n, R1 = p->R * cos(alpha), phi[OMNI_MASSIVE_MAX_WHEELS];
  double spin[OMNI_MASSIVE_MAX_WHEELS][OMNI_MASSIVE_MAX_ROLLERS];
  double nsed_touching[OMNI_MASSIVE_MAX_WHEELS], hub_rate[OMNI_MASSIVE_MAX_WHEELS];
  for (int i = 0; i < N; i++) {
    double b = theta + 2 * M_PI * i / N, e[3] = {cos(b), sin(b), 0}, t[3] = {-e[1], e[0], 0};
    snprintf(name, sizeof name, "wheel%d", i);
    nsed_data_body_state(d, nsed_model_find_body(m, name), hs);
    if (fabs((hs[0] - ps[0]) * t[0] + (hs[1] - ps[1]) * t[1]) > 1e-9 * p->d) {
      fprintf(stderr, "wheel %d is not at 2 pi %d / %d from the heading\n", i, i, N);
      return -1;
    }
    double hw[3];
    world_omega(hs, hw);
    hub_rate[i] = hw[0] * e[0] + hw[1] * e[1];
    double q[OMNI_MASSIVE_MAX_ROLLERS] = {0}, w[OMNI_MASSIVE_MAX_ROLLERS][3] = {{0}};
    int low = 0;
    for (int j = 0; j < n; j++) {
      double rs[13];
      snprintf(name, sizeof name, "wheel%d_roller%d", i, j);
      nsed_data_body_state(d, nsed_model_find_body(m, name), rs);
      double rho[3] = {(rs[0] - hs[0]) / R1, (rs[1] - hs[1]) / R1, (rs[2] - hs[2]) / R1};
      q[j] = atan2(rho[0] * t[0] + rho[1] * t[1], -rho[2]);
      world_omega(rs, w[j]);
      if (fabs(q[j]) < fabs(q[low])) low = j;
    }
    phi[i] = q[low];
    nsed_touching[i] = 0;
    for (int k = 0; k < n; k++) {
      double qk = phi[i] - 2 * alpha * k;
      int j = 0;
      for (int c = 1; c < n; c++)
        if (fabs(remainder(q[c] - qk, 2 * M_PI)) < fabs(remainder(q[j] - qk, 2 * M_PI))) j = c;
      double a[3] = {cos(qk) * t[0], cos(qk) * t[1], sin(qk)};
      spin[i][k] = w[j][0] * a[0] + w[j][1] * a[1] + w[j][2] * a[2];
      if (k == 0) nsed_touching[i] = spin[i][k];
    }
  }
  if (omni_massive_init(p, ps[0], ps[1], theta, ps[7], ps[8], ps[12], phi, spin, s)) {
    fprintf(stderr, "the reference refused nsed's initial state\n");
    return -1;
  }
  *init_spin_err = *init_rate_err = 0;
  for (int i = 0; i < N; i++) {
    *init_spin_err = fmax(*init_spin_err, fabs(s->spin[i][s->sector[i]] - nsed_touching[i]));
    *init_rate_err = fmax(*init_rate_err, fabs(s->phidot[i] - hub_rate[i]));
  }
  return 0;
}

typedef struct {
  double mu;
  samples nsed, ref;
  double init_spin_err, init_rate_err; /* the reference's initial state against nsed's */
  double energy_drift, residual;       /* the reference's, over the run */
  double ref_share;                    /* free rollers' share of the reference's energy at the end */
  long slips, handovers, ref_handovers;
  double wall;
  int ok;
} result;

/* file at mu to t_end; speed > 0 starts the vehicle at (speed, 0) with yaw
 * rate spin instead of the file's motion; extra: more overrides (another
 * contact law, for instance). */
#define MAX_EXTRA 16
static result compare(const char *root, const char *file, double mu, double t_end, double speed,
                      double spin, char **extra, int nextra) {
  result res = {.mu = mu};
  if (nextra > MAX_EXTRA) {
    fprintf(stderr, "at most %d overrides, got %d\n", MAX_EXTRA, nextra);
    return res;
  }
  char path[4096], ov[5][96];
  snprintf(path, sizeof path, "%s/problems/%s", root, file);
  snprintf(ov[0], sizeof ov[0], "solver.t_end=%.17g", t_end);
  snprintf(ov[1], sizeof ov[1], "omni_vehicle.contact.mu=%.17g", mu);
  snprintf(ov[2], sizeof ov[2], "output.dt=%.17g", t_end / (10 * NCHECK));
  snprintf(ov[3], sizeof ov[3], "omni_vehicle.velocity=[%.17g, 0]", speed);
  snprintf(ov[4], sizeof ov[4], "omni_vehicle.spin=%.17g", spin);
  const char *ovp[5 + MAX_EXTRA] = {ov[0], ov[1], ov[2], ov[3], ov[4]};
  int nov = speed > 0 ? 5 : 3;
  for (int k = 0; k < nextra; k++) ovp[nov++] = extra[k];
  nsed_model *m = NULL;
  nsed_data *d = NULL;
  nsed_error err;
  if (nsed_problem_load(path, ovp, nov, &m, &err) || nsed_data_create(m, &d, &err)) {
    fprintf(stderr, "%s: %s\n", file, err.message);
    nsed_model_free(&m);
    return res;
  }
  omni_massive_params p;
  omni_massive_state s;
  if (reference_from(m, d, &p, &s, &res.init_spin_err, &res.init_rate_err)) {
    nsed_data_free(&d);
    nsed_model_free(&m);
    return res;
  }
  res.nsed.P = nsed_model_find_body(m, "platform");
  res.nsed.t_end = res.ref.t_end = t_end;
  nsed_observer obs = {.ctx = &res.nsed, .sample = record};
  int rc = nsed_simulate(m, d, &obs, &err);
  if (rc) {
    fprintf(stderr, "%s, mu = %g: %s\n", file, mu, err.message);
    nsed_data_free(&d);
    nsed_model_free(&m);
    return res;
  }
  const nsed_stats *st = nsed_data_stats(d);
  res.slips = st->events_by_kind[NSED_EVENT_SLIP];
  res.handovers = st->events_by_kind[NSED_EVENT_CLOSE] + st->events_by_kind[NSED_EVENT_IMPACT];
  res.wall = st->wall_seconds;
  nsed_data_free(&d);
  nsed_model_free(&m);

  double E0 = omni_massive_energy(&p, &s, 1);
  for (int k = 0; k <= NCHECK; k++) {
    double tk = t_end * k / NCHECK;
    int mrc = omni_massive_advance(&p, &s, tk, 1e-13);
    if (mrc) {
      fprintf(stderr, "%s: the reference stopped at t = %.6f (code %d)\n", file, s.t, mrc);
      return res;
    }
    res.ref.at[k] = (platform_point){s.t, s.x, s.y, s.theta, s.vx, s.vy, s.omega};
    res.energy_drift = fmax(res.energy_drift, fabs(omni_massive_energy(&p, &s, 1) - E0) / E0);
    res.residual = fmax(res.residual, omni_massive_residual(&p, &s));
  }
  res.ref_share = 1 - omni_massive_energy(&p, &s, 0) / omni_massive_energy(&p, &s, 1);
  res.ref_handovers = s.handovers;
  res.ok = 1;
  return res;
}

static double pos_err(const platform_point *a, const platform_point *b) {
  return hypot(a->x - b->x, a->y - b->y);
}

static double speed(const platform_point *a) { return hypot(a->vx, a->vy); }

static void print_result(const char *file, double mu, const result *r) {
  printf("%s, mu = %g: nsed %ld slip onsets, %ld closings; reference %ld handovers; initial "
         "state: touching spins %.1e, wheel rates %.1e; reference energy drift %.1e, rows %.1e, "
         "free rollers' share of the energy at the end %.3f\n",
         file, mu, r->slips, r->handovers, r->ref_handovers, r->init_spin_err, r->init_rate_err,
         r->energy_drift, r->residual, r->ref_share);
  printf("| t | speed nsed | speed reference | yaw rate nsed | yaw rate reference | position "
         "difference |\n|---|---|---|---|---|---|\n");
  for (int k = 0; k <= NCHECK; k++) {
    const platform_point *a = &r->nsed.at[k], *b = &r->ref.at[k];
    printf("| %g | %.6g | %.6g | %.6g | %.6g | %.2e |\n", b->t, speed(a), speed(b), a->w, b->w,
           pos_err(a, b));
  }
  fflush(stdout);
}

/* A run where no roller slips: nsed must be the reference's system. */
static void check_sticking(const char *what, const result *r, int min_handovers, double pos_tol,
                           double speed_tol) {
  CHECK(r->ok);
  if (!r->ok) return;
  print_result(what, r->mu, r);
  CHECK(r->init_spin_err < 1e-12 && r->init_rate_err < 1e-12);
  CHECK(r->energy_drift < 1e-10 && r->residual < 1e-10);
  CHECK_MSG(r->slips == 0, "%s: %ld slip onsets", what, r->slips);
  CHECK_MSG(r->ref_handovers >= min_handovers && r->handovers == r->ref_handovers,
            "%s: reference handovers %ld, nsed closings %ld", what, r->ref_handovers, r->handovers);
  double worst = 0, worst_speed = 0;
  for (int k = 0; k <= NCHECK; k++) {
    worst = fmax(worst, pos_err(&r->nsed.at[k], &r->ref.at[k]));
    worst_speed = fmax(worst_speed, fabs(speed(&r->nsed.at[k]) - speed(&r->ref.at[k])));
  }
  printf("%s: largest position difference %.2e, speed difference %.2e\n", what, worst, worst_speed);
  CHECK_MSG(worst < pos_tol, "%s: position difference %.3g", what, worst);
  CHECK_MSG(worst_speed < speed_tol, "%s: speed difference %.3g", what, worst_speed);
}

static void run_tests(const char *root) {
  /* Slow (u^2 / (g r) small where a roller's tip is near): Kosenko's coast at
   * a twentieth of its speed, mu = 1. No roller slips, and the translation
   * decays and revives as the reference's does. */
  result lo = compare(root, "omni_vehicle_coast.yaml", 1.0, 100.0, 0.05, 0.025, NULL, 0);
  check_sticking("Kosenko's coast, v = 0.05, yaw rate 0.025", &lo, 8, 1e-8, 1e-9);
  /* The decay is the reference's too: below a tenth by t = 30. */
  CHECK(lo.ok && speed(&lo.ref.at[3]) < 0.005 && speed(&lo.nsed.at[3]) < 0.005);
  /* Gerasimov and Zobova's heavy rollers (a third of the wheel's mass), at a
   * twentieth of their speed, mu = 0.5. */
  result gz = compare(root, "omni_vehicle_coast_gz.yaml", 0.5, 10.0, 0.05, 0.05, NULL, 0);
  check_sticking("Gerasimov and Zobova's coast, v = 0.05, yaw rate 0.05", &gz, 6, 3e-8, 5e-8);
  /* The shipped problem (v = 1, mu = 0.5): the same motion until the first
   * roller nears its tip, where stopping the wheel's sideways motion needs
   * more than mu lambda_n and nsed's roller slips. */
  result hi = compare(root, "omni_vehicle_coast.yaml", 0.5, 2.0, 0, 0, NULL, 0);
  CHECK(hi.ok);
  if (hi.ok) {
    print_result("omni_vehicle_coast.yaml", 0.5, &hi);
    CHECK(hi.init_spin_err < 1e-12 && hi.init_rate_err < 1e-12);
    CHECK(hi.energy_drift < 1e-10 && hi.residual < 1e-10);
    double early = fmax(pos_err(&hi.nsed.at[1], &hi.ref.at[1]),
                        fabs(hi.nsed.at[1].w - hi.ref.at[1].w));
    CHECK_MSG(early < 1e-12, "t = 0.2: difference %.3g", early);
    CHECK(hi.slips > 0);
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s SOURCE_ROOT [mu MU [t_end [FILE [speed spin [KEY=VALUE ...]]]]]\n", argv[0]);
    return 2;
  }
  if (argc >= 3 && !strcmp(argv[2], "mu")) {
    double mu = argc > 3 ? atof(argv[3]) : 0.5, t_end = argc > 4 ? atof(argv[4]) : 10.0;
    const char *file = argc > 5 ? argv[5] : "omni_vehicle_coast.yaml";
    double speed = argc > 6 ? atof(argv[6]) : 0, spin = argc > 7 ? atof(argv[7]) : 0;
    result r = compare(argv[1], file, mu, t_end, speed, spin, argv + 8, argc > 8 ? argc - 8 : 0);
    if (!r.ok) return 1;
    print_result(file, mu, &r);
    return 0;
  }
  run_tests(argv[1]);
  return TEST_DONE();
}
