/* The tippe top (an eccentric sphere) spinning on the floor under exact
 * Coulomb friction, built from parts: a light spherical shell and a heavy
 * ballast welded below its centre, so the composite's centre of mass G lies
 * alpha R below the sphere's centre C and its central moments are (I1, I1,
 * I3). Checked against three references nobody tuned:
 *  - Jellett's integral J = L . (alpha R e3 - R z) (L about G, e3 the
 *    symmetry axis from G to C): the contact force acts at P = C - R z, so
 *    its torque about G is perpendicular to s = P - G, and ds/dt =
 *    alpha R w x e3 is perpendicular to L for an axisymmetric body; J is
 *    conserved by any friction law while the sphere touches;
 *  - the published inversion criteria: upright spinning stable for
 *    gamma = I1 / I3 < 1 - alpha, inverted spinning unstable for gamma >
 *    1 + alpha (Bou-Rabee, Marsden & Romero 2004, "Tippe top inversion as a
 *    dissipation-induced instability"); inversion for 1 - alpha^2 < gamma
 *    < 1 with Jellett's integral above sqrt(m g R^3 I3 alpha) (1 + alpha)^2
 *    / sqrt(1 + alpha - gamma) (Rauch-Wojciechowski & Rutstam 2014,
 *    "Dynamics of an inverting tippe top"; here 1.9 times above it): at
 *    gamma = 0.95 the top turns over (theta -> pi), at 0.6 it stays up, at
 *    1.5 it rises only part way;
 *  - an independent integration of the eccentric sphere gliding on the
 *    floor (one rigid body; the normal force from the contact's height
 *    held at R, friction -mu N v_P / |v_P|; RK4, no multipliers, no LCP, no
 *    SUNDIALS): the inclination theta agrees while the top slides. */
#include <math.h>

#include "engine_util.h"
#include "nsed_test.h"

static const double G = 9.81, RADIUS = 0.02, ALPHA = 0.3, MASS = 0.02, I3 = 3.2e-6;
static const double MU = 0.01;
static const double SPIN = 150.0, THETA0 = 0.1;
/* The parts: a shell of mass M_SHELL (moments I_SHELL) about C, the
 * ballast (the rest of the mass and the inertia) at D below C. */
static const double M_SHELL = 0.002, I_SHELL = 1e-7;

static void cross(double r[3], const double a[3], const double b[3]) {
  double t[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  memcpy(r, t, sizeof t);
}
static double dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* Rotation matrix (row-major) of a quaternion, scalar first, normalised. */
static void rotmat(const double q[4], double R[9]) {
  double w = q[0], x = q[1], y = q[2], z = q[3], s = 1.0 / (w * w + x * x + y * y + z * z);
  double M[9] = {w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y),
                 2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x),
                 2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z};
  for (int i = 0; i < 9; i++) R[i] = s * M[i];
}

/* ---- the independent model: one rigid body, gliding on its sphere ---- */

typedef struct {
  double g[3], v[3], q[4], w[3]; /* centre of mass, its velocity, orientation, world angular velocity */
} top_state;

/* Derivative of the state for the moments (I1, I1, I3) about G. */
static void top_rhs(double I1, const top_state *s, top_state *ds) {
  double R[9], e3[3], L[3], wxL[3];
  rotmat(s->q, R);
  for (int i = 0; i < 3; i++) e3[i] = R[3 * i + 2];
  /* world inertia: I1 (1 - e3 e3^T) + I3 e3 e3^T, applied and inverted in closed form */
  double we = dot(s->w, e3);
  for (int i = 0; i < 3; i++) L[i] = I1 * s->w[i] + (I3 - I1) * we * e3[i];
  cross(wxL, s->w, L);
  double arm[3] = {ALPHA * RADIUS * e3[0], ALPHA * RADIUS * e3[1], ALPHA * RADIUS * e3[2] - RADIUS};
  double vp[3], tmp[3];
  cross(tmp, s->w, arm);
  for (int i = 0; i < 3; i++) vp[i] = s->v[i] + tmp[i];
  double sp = hypot(vp[0], vp[1]), sd[3] = {sp > 0 ? vp[0] / sp : 0, sp > 0 ? vp[1] / sp : 0, 0};
  /* per unit normal force: the force z - mu s and its torque about G */
  double f1[3] = {-MU * sd[0], -MU * sd[1], 1.0}, t1[3], a0[3], b0[3];
  cross(t1, arm, f1);
  /* I^-1 x = x / I1 + (1/I3 - 1/I1) (x . e3) e3 */
  double mwL[3] = {-wxL[0], -wxL[1], -wxL[2]};
  double ma = dot(mwL, e3), mb = dot(t1, e3);
  for (int i = 0; i < 3; i++) {
    a0[i] = mwL[i] / I1 + (1 / I3 - 1 / I1) * ma * e3[i];
    b0[i] = t1[i] / I1 + (1 / I3 - 1 / I1) * mb * e3[i];
  }
  /* the sphere's centre stays at height R: z_G'' + alpha R (dw x e3 + w x (w x e3))_z = 0 */
  double wxe[3], wwe[3], ae[3], be[3];
  cross(wxe, s->w, e3);
  cross(wwe, s->w, wxe);
  cross(ae, a0, e3);
  cross(be, b0, e3);
  double N = (G - ALPHA * RADIUS * (ae[2] + wwe[2])) / (1 / MASS + ALPHA * RADIUS * be[2]);
  for (int i = 0; i < 3; i++) {
    ds->g[i] = s->v[i];
    ds->v[i] = N * f1[i] / MASS - (i == 2 ? G : 0.0);
    ds->w[i] = a0[i] + N * b0[i];
  }
  double qw = s->q[0], qx = s->q[1], qy = s->q[2], qz = s->q[3], *w = (double *)s->w;
  ds->q[0] = 0.5 * (-qx * w[0] - qy * w[1] - qz * w[2]);
  /* dq/dt = (0, w) q / 2 for the world angular velocity */
  ds->q[1] = 0.5 * (qw * w[0] + w[1] * qz - w[2] * qy);
  ds->q[2] = 0.5 * (qw * w[1] + w[2] * qx - w[0] * qz);
  ds->q[3] = 0.5 * (qw * w[2] + w[0] * qy - w[1] * qx);
}

static void top_axpy(top_state *r, const top_state *a, double h, const top_state *b) {
  const double *pa = (const double *)a, *pb = (const double *)b;
  double *pr = (double *)r;
  for (size_t i = 0; i < sizeof(top_state) / sizeof(double); i++) pr[i] = pa[i] + h * pb[i];
}

static void top_rk4(double I1, top_state *s, double h) {
  top_state k1, k2, k3, k4, t;
  top_rhs(I1, s, &k1);
  top_axpy(&t, s, h / 2, &k1);
  top_rhs(I1, &t, &k2);
  top_axpy(&t, s, h / 2, &k2);
  top_rhs(I1, &t, &k3);
  top_axpy(&t, s, h, &k3);
  top_rhs(I1, &t, &k4);
  double *p = (double *)s, *a = (double *)&k1, *b = (double *)&k2, *c = (double *)&k3, *d = (double *)&k4;
  for (size_t i = 0; i < sizeof(top_state) / sizeof(double); i++)
    p[i] += h / 6 * (a[i] + 2 * b[i] + 2 * c[i] + d[i]);
}

static double top_theta(const top_state *s) {
  double R[9];
  rotmat(s->q, R);
  return acos(fmax(-1.0, fmin(1.0, R[8])));
}

/* The start: tilted by THETA0 about world x, spinning at SPIN about e3,
 * G at rest (the sphere's centre then moves, but not vertically). */
static void top_start(top_state *s) {
  memset(s, 0, sizeof *s);
  s->q[0] = cos(THETA0 / 2), s->q[1] = sin(THETA0 / 2);
  double e3[3] = {0, -sin(THETA0), cos(THETA0)};
  for (int i = 0; i < 3; i++) s->w[i] = SPIN * e3[i];
  s->g[2] = RADIUS - ALPHA * RADIUS * e3[2];
}

/* ---- nsed's composite top ---- */

typedef struct {
  int n;
  double t[8192], theta[8192], jellett[8192];
} samples;

/* The composite's inclination and Jellett's integral from the two bodies. */
static void composite(const nsed_model *m, const nsed_data *d, double *theta, double *jel) {
  double s[2][13], r[2][3], v[2][3], gc[3] = {0}, vc[3] = {0}, Lw[3] = {0}, mass[2];
  for (int b = 0; b < 2; b++) {
    nsed_data_body_state(d, b, s[b]);
    mass[b] = nsed_model_body_def(m, b)->mass;
    for (int i = 0; i < 3; i++) {
      r[b][i] = s[b][i], v[b][i] = s[b][7 + i];
      gc[i] += mass[b] * r[b][i] / MASS, vc[i] += mass[b] * v[b][i] / MASS;
    }
  }
  double R[9];
  rotmat(s[1] + 3, R);
  double e3[3] = {R[2], R[5], R[8]};
  *theta = acos(fmax(-1.0, fmin(1.0, e3[2])));
  for (int b = 0; b < 2; b++) {
    const double *J = nsed_model_body_def(m, b)->inertia;
    double Rb[9], wb[3], Lb[3], rel[3], relv[3], mom[3];
    rotmat(s[b] + 3, Rb);
    for (int i = 0; i < 3; i++) wb[i] = J[i] * s[b][10 + i];
    for (int i = 0; i < 3; i++) Lb[i] = Rb[3 * i] * wb[0] + Rb[3 * i + 1] * wb[1] + Rb[3 * i + 2] * wb[2];
    for (int i = 0; i < 3; i++) rel[i] = r[b][i] - gc[i], relv[i] = v[b][i] - vc[i];
    cross(mom, rel, relv);
    for (int i = 0; i < 3; i++) Lw[i] += Lb[i] + mass[b] * mom[i];
  }
  double arm[3] = {ALPHA * RADIUS * e3[0], ALPHA * RADIUS * e3[1], ALPHA * RADIUS * e3[2] - RADIUS};
  *jel = dot(Lw, arm);
}

static int on_sample(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  samples *sm = ctx;
  if (why != NSED_SAMPLE_OUTPUT && why != NSED_SAMPLE_INITIAL) return 0;
  if (sm->n >= 8192) return 0;
  sm->t[sm->n] = nsed_data_time(d);
  composite(m, d, &sm->theta[sm->n], &sm->jellett[sm->n]);
  sm->n++;
  return 0;
}

typedef struct {
  int nev, first_stick;
  double t_stick;
} event_log;

static int on_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *e) {
  (void)m, (void)d;
  event_log *log = ctx;
  log->nev++;
  if (e->to == NSED_MODE_STICK && !log->first_stick) log->first_stick = 1, log->t_stick = e->t;
  return 0;
}

typedef struct {
  samples *sm;
  event_log *log;
} both;
static int both_sample(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  return on_sample(((both *)ctx)->sm, m, d, why);
}
static int both_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *e) {
  return on_event(((both *)ctx)->log, m, d, e);
}

/* The composite for I1 = gamma I3, started as top_start. */
static nsed_model *build(double gamma, double t_end, nsed_friction_model form) {
  const double ar = ALPHA * RADIUS, m_b = MASS - M_SHELL, dist = MASS * ar / m_b;
  const double parallel = M_SHELL * ar * ar + m_b * (dist - ar) * (dist - ar);
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  top_state s;
  top_start(&s);
  double R[9];
  rotmat(s.q, R);
  double e3[3] = {R[2], R[5], R[8]}, c[3], b[3];
  for (int i = 0; i < 3; i++) c[i] = s.g[i] + ar * e3[i], b[i] = c[i] - dist * e3[i];
  nsed_body_def bd;
  nsed_body_def_default(&bd);
  snprintf(bd.name, sizeof bd.name, "shell");
  bd.mass = M_SHELL;
  bd.shape.type = NSED_SHAPE_SPHERE;
  bd.shape.radius = RADIUS;
  bd.inertia[0] = bd.inertia[1] = bd.inertia[2] = I_SHELL;
  memcpy(bd.quat, s.q, sizeof s.q);
  /* body-axis angular velocity: R^T w = SPIN e_z */
  bd.angular_velocity[2] = SPIN;
  double rel[3], vel[3];
  for (int i = 0; i < 3; i++) rel[i] = c[i] - s.g[i];
  cross(vel, s.w, rel);
  memcpy(bd.position, c, sizeof c);
  memcpy(bd.velocity, vel, sizeof vel);
  must(nsed_model_add_body(m, &bd, &err), &err);
  snprintf(bd.name, sizeof bd.name, "ballast");
  bd.mass = m_b;
  bd.shape.type = NSED_SHAPE_NONE;
  bd.inertia[0] = bd.inertia[1] = gamma * I3 - parallel - I_SHELL;
  bd.inertia[2] = I3 - I_SHELL;
  for (int i = 0; i < 3; i++) rel[i] = b[i] - s.g[i];
  cross(vel, s.w, rel);
  memcpy(bd.position, b, sizeof b);
  memcpy(bd.velocity, vel, sizeof vel);
  must(nsed_model_add_body(m, &bd, &err), &err);
  nsed_joint_def j;
  nsed_joint_def_default(&j);
  snprintf(j.name, sizeof j.name, "glue");
  j.type = NSED_JOINT_WELD;
  snprintf(j.body_a, sizeof j.body_a, "shell");
  snprintf(j.body_b, sizeof j.body_b, "ballast");
  j.anchor_a[2] = -dist;
  must(nsed_model_add_joint(m, &j, &err), &err);
  nsed_contact_def cd;
  nsed_contact_def_default(&cd);
  snprintf(cd.name, sizeof cd.name, "shell_floor");
  snprintf(cd.body, sizeof cd.body, "shell");
  cd.mu = cd.mu0 = MU;
  must(nsed_model_add_contact(m, &cd, &err), &err);
  nsed_options o = *nsed_model_options(m);
  o.t_end = t_end;
  o.friction.model = form;
  o.output_dt = 0.01;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  return m;
}

static void run(double gamma, double t_end, nsed_friction_model form, samples *sm, event_log *log) {
  nsed_model *m = build(gamma, t_end, form);
  nsed_error err;
  nsed_data *d;
  must(nsed_data_create(m, &d, &err), &err);
  memset(sm, 0, sizeof *sm);
  memset(log, 0, sizeof *log);
  both ctx = {sm, log};
  nsed_observer obs = {.ctx = &ctx, .sample = both_sample, .event = both_event};
  int rc = nsed_simulate(m, d, &obs, &err);
  if (rc) printf("nsed_simulate: %s\n", err.message);
  CHECK(rc == NSED_OK);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* theta of the reference at the sample times sm->t[0, n) (RK4, step h). */
static void reference_theta(double gamma, const samples *sm, int n, double h, double *theta) {
  top_state s;
  top_start(&s);
  double t = 0;
  for (int k = 0; k < n; k++) {
    int steps = (int)lround((sm->t[k] - t) / h);
    for (int i = 0; i < steps; i++) top_rk4(gamma * I3, &s, h);
    t += steps * h;
    theta[k] = top_theta(&s);
  }
}

static double jellett_drift(const samples *sm) {
  double worst = 0;
  for (int i = 0; i < sm->n; i++) worst = fmax(worst, fabs(sm->jellett[i] - sm->jellett[0]));
  return worst / fabs(sm->jellett[0]);
}

/* gamma = 0.95: the top turns over while it glides, then rolls inverted. */
static void inverts(void) {
  static samples sm;
  static double ref[8192], ref2[8192];
  event_log log;
  run(0.95, 40.0, NSED_FRICTION_POLYGON_FACE, &sm, &log);
  /* the reference holds while the top slides: up to its first stick */
  int n = 0;
  while (n < sm.n && (!log.first_stick || sm.t[n] < log.t_stick)) n++;
  reference_theta(0.95, &sm, n, 1e-5, ref);
  reference_theta(0.95, &sm, n, 2e-5, ref2);
  double diff = 0, self = 0, theta_max = 0;
  for (int k = 0; k < n; k++) {
    diff = fmax(diff, fabs(sm.theta[k] - ref[k]));
    self = fmax(self, fabs(ref2[k] - ref[k]));
  }
  for (int k = 0; k < sm.n; k++) theta_max = fmax(theta_max, sm.theta[k]);
  printf("gamma 0.95: glides until %.4f s, theta 0.1 -> %.6f (max %.6f); against the independent "
         "model over the glide: |dtheta| <= %.2e rad (its own step error %.1e); Jellett's "
         "integral %.6e, drift %.1e relative; %d events\n",
         log.t_stick, sm.theta[sm.n - 1], theta_max, diff, self, sm.jellett[0], jellett_drift(&sm),
         log.nev);
  CHECK(log.first_stick && log.t_stick > 25);
  CHECK(sm.theta[sm.n - 1] > 3.0);
  CHECK_NEAR(diff, 0, 1e-8, 0);
  CHECK_NEAR(jellett_drift(&sm), 0, 1e-9, 0);
}

/* gamma outside the inversion range: upright spinning is stable below
 * 1 - alpha (the top rights itself), inverted spinning unstable above
 * 1 + alpha (it rises only part way). */
static void does_not_invert(double gamma, double t_end, double theta_below) {
  static samples sm;
  event_log log;
  run(gamma, t_end, NSED_FRICTION_POLYGON_FACE, &sm, &log);
  double theta_max = 0;
  for (int k = 0; k < sm.n; k++) theta_max = fmax(theta_max, sm.theta[k]);
  printf("gamma %.2f: theta 0.1 -> %.6f (max %.6f), sticks at %.4f s; Jellett drift %.1e relative\n",
         gamma, sm.theta[sm.n - 1], theta_max, log.first_stick ? log.t_stick : -1.0,
         jellett_drift(&sm));
  CHECK(theta_max < theta_below);
  CHECK_NEAR(jellett_drift(&sm), 0, 1e-9, 0);
}

int main(void) {
  inverts();
  does_not_invert(0.6, 10.0, 0.101);
  does_not_invert(1.5, 40.0, 2.5);
  return TEST_DONE();
}
