/* Joint drives (torques and forces of t, the joint coordinate and its rate)
 * and the acceleration-level servo, each against the closed-form solution
 * of the linear (or piecewise linear) equation it reduces to:
 *
 *  1. a cylindrical joint on a vertical axis carrying a torsion
 *     spring-damper with an offset that winds the body through more than two
 *     turns, and an axial spring-damper under gravity (both damped
 *     oscillators);
 *  2. a PD controller with feedforward tracking a sine on a revolute joint
 *     (a driven damped oscillator);
 *  3. a prismatic joint with a table force of the coordinate that saturates
 *     (harmonic and parabolic arcs), and one with a table of the rate
 *     (constant deceleration, then exponential decay);
 *  4. seed 002's servo at acceleration level starting off its prescribed
 *     angle (the error obeys e'' + kd e' + kp e = 0) and the servo's work;
 *  5. the model's refusals of drives on joints that cannot carry them.
 *
 * The angle is read twice: through nsed_data_joint_coordinates and, for
 * the rotation about the fixed vertical, from the body's quaternion,
 * unwrapped here sample by sample. */
#include <complex.h>

#include "engine_util.h"
#include "nsed_test.h"

static const double MASS = 2.0, JAX = 0.04, JTR = 0.03, G = 9.81;

static nsed_model *one_joint(const nsed_joint_def *jin, const double v0[3], const double w0[3],
                             double t_end) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "rotor");
  b.mass = MASS;
  b.inertia[0] = b.inertia[1] = JTR;
  b.inertia[2] = JAX;
  for (int k = 0; k < 3; k++) b.velocity[k] = v0[k], b.angular_velocity[k] = w0[k];
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_joint_def j = *jin;
  snprintf(j.name, sizeof j.name, "drive");
  snprintf(j.body_b, sizeof j.body_b, "rotor");
  must(nsed_model_add_joint(m, &j, &err), &err);
  nsed_options o = *nsed_model_options(m);
  o.t_end = t_end;
  o.output_dt = 0.01;
  o.rtol = 1e-12;
  o.atol = 1e-14;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  return m;
}

/* The closed form a sample is compared with, and the worst differences. */
typedef struct {
  double (*angle)(double t, double *rate);
  double (*axial)(double t, double *rate);
  double quat_angle, last_raw; /* the quaternion's angle about z, unwrapped */
  int started;
  double worst_q, worst_qd, worst_quat, worst_s, worst_sd, max_abs_q;
  int nkink;            /* kink events (a drive table's knots) */
  double kink_t[64];
  double kink_off;      /* the largest distance of the axial table's input from its nearer
                           knot at those events */
  const nsed_law *table; /* that table; its input the rate if of_rate */
  int of_rate;
} expect;

static int on_event(void *ctx, const nsed_model *m, const nsed_data *d, const nsed_event *ev) {
  (void)m;
  expect *e = ctx;
  if (ev->kind != NSED_EVENT_KINK || e->nkink >= 64) return 0;
  e->kink_t[e->nkink++] = ev->t;
  if (e->table) {
    double c[4], off = INFINITY;
    nsed_data_joint_coordinates(d, 0, c);
    for (int i = 0; i < e->table->npoints; i++)
      off = fmin(off, fabs(c[e->of_rate ? 3 : 2] - e->table->times[i]));
    e->kink_off = fmax(e->kink_off, off);
  }
  return 0;
}

static int compare(void *ctx, const nsed_model *m, const nsed_data *d, nsed_sample_reason why) {
  (void)m, (void)why;
  expect *e = ctx;
  double c[4], st[13], t = nsed_data_time(d), rate;
  nsed_data_joint_coordinates(d, 0, c);
  nsed_data_body_state(d, 0, st);
  if (e->angle) {
    double q = e->angle(t, &rate);
    e->worst_q = fmax(e->worst_q, fabs(c[0] - q));
    e->worst_qd = fmax(e->worst_qd, fabs(c[1] - rate));
    e->max_abs_q = fmax(e->max_abs_q, fabs(c[0]));
    double raw = 2 * atan2(st[6], st[3]);
    e->quat_angle = e->started ? e->quat_angle + remainder(raw - e->last_raw, 2 * M_PI) : raw;
    e->last_raw = raw;
    e->started = 1;
    e->worst_quat = fmax(e->worst_quat, fabs(e->quat_angle - q));
  }
  if (e->axial) {
    double s = e->axial(t, &rate);
    e->worst_s = fmax(e->worst_s, fabs(c[2] - s));
    e->worst_sd = fmax(e->worst_sd, fabs(c[3] - rate));
  }
  return 0;
}

static int run(const nsed_model *m, expect *e, nsed_data **dout) {
  nsed_error err;
  CHECK(nsed_data_create(m, dout, &err) == NSED_OK);
  nsed_observer obs = {.ctx = e, .sample = compare, .event = on_event};
  int rc = nsed_simulate(m, *dout, &obs, &err);
  CHECK_MSG(rc == NSED_OK, "%s", err.message);
  return rc;
}

/* e'' + 2 z wn e' + wn^2 e = 0 with e(0) = e0, e'(0) = e1 (z < 1). */
static double damped(double t, double wn, double z, double e0, double e1, double *rate) {
  double wd = wn * sqrt(1 - z * z), s = z * wn;
  double A = e0, B = (e1 + s * e0) / wd, x = exp(-s * t);
  double cw = cos(wd * t), sw = sin(wd * t);
  *rate = x * (-s * (A * cw + B * sw) + wd * (-A * sw + B * cw));
  return x * (A * cw + B * sw);
}

/* ---- 1. torsion and axial spring-dampers on a vertical cylindrical joint ---- */

static const double TK = 0.5, TC = 0.004, TQ0 = 1.0, W0 = 50.0;
static const double AK = 200.0, AC = 1.0, AREST = 0.1, AV0 = 0.3;

static double torsion(double t, double *rate) {
  double wn = sqrt(TK / JAX), z = TC / (2 * sqrt(TK * JAX));
  return TQ0 + damped(t, wn, z, -TQ0, W0, rate);
}

/* m s'' = -AK (s - AREST) - AC s' - m g: around s_eq = AREST - m g / AK. */
static double axial_spring(double t, double *rate) {
  double wn = sqrt(AK / MASS), z = AC / (2 * sqrt(AK * MASS)), seq = AREST - MASS * G / AK;
  return seq + damped(t, wn, z, -seq, AV0, rate);
}

static void test_springs(void) {
  nsed_joint_def j;
  nsed_joint_def_default(&j);
  j.type = NSED_JOINT_CYLINDRICAL;
  j.drive.type = NSED_DRIVE_FEEDBACK;
  j.drive.k = TK;
  j.drive.c = TC;
  j.drive.reference = nsed_law_constant(TQ0);
  j.axial_drive.type = NSED_DRIVE_FEEDBACK;
  j.axial_drive.k = AK;
  j.axial_drive.c = AC;
  j.axial_drive.reference = nsed_law_constant(AREST);
  const double v0[3] = {0, 0, AV0}, w0[3] = {0, 0, W0};
  nsed_model *m = one_joint(&j, v0, w0, 10.0);
  expect e = {.angle = torsion, .axial = axial_spring};
  nsed_data *d = NULL;
  if (run(m, &e, &d) == NSED_OK) {
    printf("springs: angle %.3g rad (quaternion %.3g), rate %.3g rad/s, axial %.3g m, %.3g m/s, "
           "largest |q| %.3f rad\n",
           e.worst_q, e.worst_quat, e.worst_qd, e.worst_s, e.worst_sd, e.max_abs_q);
    CHECK_MSG(e.max_abs_q > 2 * 2 * M_PI, "the torsion test must wind more than two turns (%g)",
              e.max_abs_q);
    CHECK_MSG(e.worst_q < 1e-8 && e.worst_quat < 1e-8, "angle %g, quaternion %g", e.worst_q,
              e.worst_quat);
    CHECK_MSG(e.worst_qd < 1e-7, "rate %g", e.worst_qd);
    CHECK_MSG(e.worst_s < 1e-10 && e.worst_sd < 1e-9, "axial %g %g", e.worst_s, e.worst_sd);
    /* The drives' work is external: E(t) - E(0) = work_external, and the
     * kinetic energy at the end is the closed form's. */
    const nsed_stats *s = nsed_data_stats(d);
    double qd, sd, st[13];
    torsion(10.0, &qd);
    axial_spring(10.0, &sd);
    nsed_data_body_state(d, 0, st);
    double E = nsed_data_energy(m, d), T = 0.5 * JAX * qd * qd + 0.5 * MASS * sd * sd;
    double Tsim = 0.5 * MASS * st[9] * st[9] + 0.5 * JAX * st[12] * st[12];
    CHECK_NEAR(Tsim, T, 1e-9, 1e-8);
    CHECK_NEAR(E - s->energy_initial, s->work_external + s->work_joints, 1e-9, 1e-8);
  }
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* ---- 2. a PD controller with feedforward tracking a sine ---- */

static const double PK = 4.0, PC = 0.3, PA = 0.8, PW = 3.0, PF = 0.2;

/* JAX q'' + PC q' + PK q = PF + PK A sin(w t) + PC A w cos(w t), q(0) = q'(0) = 0. */
static double pd_track(double t, double *rate) {
  double complex H = PA * (PK + I * PC * PW) / (PK - JAX * PW * PW + I * PC * PW);
  double qp0 = PF / PK + cimag(H), qp1 = cimag(I * PW * H);
  double wn = sqrt(PK / JAX), z = PC / (2 * sqrt(PK * JAX)), hr;
  double h = damped(t, wn, z, -qp0, -qp1, &hr);
  double complex ph = H * cexp(I * PW * t);
  *rate = cimag(I * PW * ph) + hr;
  return PF / PK + cimag(ph) + h;
}

static void test_pd(void) {
  nsed_joint_def j;
  nsed_joint_def_default(&j);
  j.type = NSED_JOINT_REVOLUTE;
  j.drive.type = NSED_DRIVE_FEEDBACK;
  j.drive.k = PK;
  j.drive.c = PC;
  j.drive.reference.type = NSED_LAW_SINE;
  j.drive.reference.amplitude = PA;
  j.drive.reference.omega = PW;
  j.drive.feedforward = nsed_law_constant(PF);
  const double zero[3] = {0, 0, 0};
  nsed_model *m = one_joint(&j, zero, zero, 10.0);
  expect e = {.angle = pd_track};
  nsed_data *d = NULL;
  if (run(m, &e, &d) == NSED_OK) {
    printf("pd: angle %.3g rad (quaternion %.3g), rate %.3g rad/s\n", e.worst_q, e.worst_quat,
           e.worst_qd);
    CHECK_MSG(e.worst_q < 1e-9 && e.worst_quat < 1e-9, "angle %g %g", e.worst_q, e.worst_quat);
    CHECK_MSG(e.worst_qd < 1e-8, "rate %g", e.worst_qd);
    const nsed_stats *s = nsed_data_stats(d);
    double qd;
    pd_track(10.0, &qd);
    CHECK_NEAR(s->work_external + s->work_joints, 0.5 * JAX * qd * qd, 1e-9, 1e-8);
  }
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* ---- 3. tables of the coordinate and of the rate on a prismatic joint ---- */

static const double TBK = 10.0, TBF = 10.0, TV0 = 3.0; /* f = -TBK s, |f| <= TBF */

/* Harmonic inside |s| <= TBF/TBK = 1, parabolic outside; odd half-periods. */
static double table_coordinate(double t, double *rate) {
  double w = sqrt(TBK / MASS), A = TV0 / w, s1 = TBF / TBK;
  double t1 = asin(s1 / A) / w, v1 = TV0 * cos(w * t1), acc = TBF / MASS;
  double tp = 2 * v1 / acc, half = 2 * t1 + tp;
  double k = floor(t / half), u = t - k * half, sign = fmod(k, 2.0) == 0 ? 1.0 : -1.0, s;
  if (u <= t1) {
    s = A * sin(w * u);
    *rate = TV0 * cos(w * u);
  } else if (u <= t1 + tp) {
    double tau = u - t1;
    s = s1 + v1 * tau - 0.5 * acc * tau * tau;
    *rate = v1 - acc * tau;
  } else {
    s = A * sin(w * (half - u));
    *rate = -TV0 * cos(w * (half - u));
  }
  *rate *= sign;
  return sign * s;
}

/* The times the coordinate crosses the table's knots s = +-1 in [0, T]:
 * each half-period leaves at t1 and comes back at t1 + tp. */
static int coordinate_knots(double T, double *out, int max) {
  double w = sqrt(TBK / MASS), A = TV0 / w, s1 = TBF / TBK;
  double t1 = asin(s1 / A) / w, v1 = TV0 * cos(w * t1), acc = TBF / MASS;
  double tp = 2 * v1 / acc, half = 2 * t1 + tp;
  int n = 0;
  for (int k = 0; n < max; k++) {
    double a = k * half + t1, b = a + tp;
    if (a > T) break;
    out[n++] = a;
    if (b > T || n >= max) break;
    out[n++] = b;
  }
  return n;
}

static const double RC = 2.0, RF = 1.0, RV0 = 2.0; /* f = -RC v, |f| <= RF */

/* Constant deceleration RF/m until v = RF/RC, then v' = -(RC/m) v. */
static double table_rate(double t, double *rate) {
  double vs = RF / RC, acc = RF / MASS, t1 = (RV0 - vs) / acc, r = RC / MASS;
  if (t <= t1) {
    *rate = RV0 - acc * t;
    return RV0 * t - 0.5 * acc * t * t;
  }
  double s1 = RV0 * t1 - 0.5 * acc * t1 * t1, x = exp(-r * (t - t1));
  *rate = vs * x;
  return s1 + vs / r * (1 - x);
}

static nsed_law two_point(double x0, double f0, double x1, double f1) {
  nsed_law l = nsed_law_constant(0);
  l.type = NSED_LAW_PIECEWISE;
  l.npoints = 2;
  l.times[0] = x0, l.values[0] = f0;
  l.times[1] = x1, l.values[1] = f1;
  return l;
}

static void test_tables(void) {
  const double zero[3] = {0, 0, 0};
  for (int of_rate = 0; of_rate < 2; of_rate++) {
    nsed_joint_def j;
    nsed_joint_def_default(&j);
    j.type = NSED_JOINT_PRISMATIC;
    j.axis_a[0] = j.axis_b[0] = 1, j.axis_a[2] = j.axis_b[2] = 0;
    j.axial_drive.type = NSED_DRIVE_TABLE;
    j.axial_drive.input = of_rate ? NSED_DRIVE_OF_RATE : NSED_DRIVE_OF_COORDINATE;
    j.axial_drive.table = of_rate ? two_point(-RF / RC, RF, RF / RC, -RF)
                                  : two_point(-TBF / TBK, TBF, TBF / TBK, -TBF);
    const double v0[3] = {of_rate ? RV0 : TV0, 0, 0};
    nsed_model *m = one_joint(&j, v0, zero, 10.0);
    expect e = {.axial = of_rate ? table_rate : table_coordinate, .of_rate = of_rate};
    e.table = &j.axial_drive.table;
    nsed_data *d = NULL;
    if (run(m, &e, &d) == NSED_OK) {
      /* The knots crossed, each an event at its closed-form time: the rate
       * table's once, where the deceleration ends (v = RF / RC), the
       * coordinate table's twice a half-period. */
      double want[64];
      int n = of_rate ? 1 : coordinate_knots(10.0, want, 64);
      double dt = 0;
      if (of_rate) want[0] = (RV0 - RF / RC) / (RF / MASS);
      for (int i = 0; i < n && i < e.nkink; i++) dt = fmax(dt, fabs(e.kink_t[i] - want[i]));
      printf("table of the %s: s %.3g m, rate %.3g m/s; %d knot crossings (closed form %d), "
             "their times within %.3g s of it, the input within %.3g of its knot there\n",
             of_rate ? "rate" : "coordinate", e.worst_s, e.worst_sd, e.nkink, n, dt, e.kink_off);
      /* Located to the root's round-off where the run's input crosses its
       * knot; the closed form's times to the trajectory's own error (its
       * rate error over the input's rate, ~0.5 and ~1.6). */
      CHECK_MSG(e.nkink == n, "%d knot crossings, closed form %d", e.nkink, n);
      CHECK_MSG(e.kink_off < 1e-12, "an input %.3g off its knot at its event", e.kink_off);
      CHECK_MSG(dt < 1e-9, "knot crossings %.3g s off", dt);
      CHECK_MSG(e.worst_s < 1e-9 && e.worst_sd < 2e-9, "table of %s: %g %g",
                of_rate ? "rate" : "coordinate", e.worst_s, e.worst_sd);
    }
    nsed_data_free(&d);
    nsed_model_free(&m);
  }
}

/* ---- 4. the servo at acceleration level ---- */

static const double SA = 0.5, SW = 2.0, SB = 0.6, SKP = 25.0, SKD = 6.0;

static double servo_expect(double t, double *rate) {
  double e0 = -SA * sin(SB), e1 = -SA * SW * cos(SB), er;
  double e = damped(t, sqrt(SKP), SKD / (2 * sqrt(SKP)), e0, e1, &er);
  *rate = SA * SW * cos(SW * t + SB) + er;
  return SA * sin(SW * t + SB) + e;
}

static void test_servo(void) {
  nsed_joint_def j;
  nsed_joint_def_default(&j);
  j.type = NSED_JOINT_SERVO;
  j.servo_angle.type = NSED_LAW_SINE;
  j.servo_angle.amplitude = SA;
  j.servo_angle.omega = SW;
  j.servo_angle.phase = SB;
  j.servo_level = NSED_SERVO_ACCELERATION;
  j.servo_kp = SKP;
  j.servo_kd = SKD;
  const double zero[3] = {0, 0, 0};
  nsed_model *m = one_joint(&j, zero, zero, 10.0);
  expect e = {.angle = servo_expect};
  nsed_data *d = NULL;
  if (run(m, &e, &d) == NSED_OK) {
    printf("acceleration servo: angle %.3g rad (quaternion %.3g), rate %.3g rad/s\n", e.worst_q,
           e.worst_quat, e.worst_qd);
    CHECK_MSG(e.worst_q < 1e-9 && e.worst_quat < 1e-9, "angle %g %g", e.worst_q, e.worst_quat);
    CHECK_MSG(e.worst_qd < 1e-8, "rate %g", e.worst_qd);
    /* The servo's work is the kinetic energy it gave the rotor. */
    const nsed_stats *s = nsed_data_stats(d);
    double qd;
    servo_expect(10.0, &qd);
    CHECK_NEAR(s->work_joints, 0.5 * JAX * qd * qd, 1e-9, 1e-8);
    CHECK_NEAR(s->work_external, 0.0, 1e-15, 0);
  }
  nsed_data_free(&d);
  nsed_model_free(&m);
  /* At position level the same start is off the constraint: refused, with
   * the joint named, not silently pulled onto it. */
  j.servo_level = NSED_SERVO_POSITION;
  j.servo_kp = j.servo_kd = 0;
  m = one_joint(&j, zero, zero, 1.0);
  nsed_error err;
  d = NULL;
  CHECK(nsed_data_create(m, &d, &err) == NSED_OK);
  int rc = nsed_simulate(m, d, NULL, &err);
  printf("position servo off its angle: %s: %s\n", nsed_status_name(rc), err.message);
  CHECK(rc != NSED_OK && strstr(err.message, "drive") != NULL);
  nsed_data_free(&d);
  nsed_model_free(&m);
}

/* ---- 5. refusals ---- */

static void refuse(const nsed_joint_def *j, const char *expect_text) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "rotor");
  b.inertia[0] = b.inertia[1] = b.inertia[2] = 1;
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_joint_def jj = *j;
  snprintf(jj.name, sizeof jj.name, "bad");
  snprintf(jj.body_b, sizeof jj.body_b, "rotor");
  int rc = nsed_model_add_joint(m, &jj, &err);
  CHECK_MSG(rc == NSED_ERR_INPUT && strstr(err.message, "bad") && strstr(err.message, expect_text),
            "rc %d, message '%s', expected '%s'", rc, err.message, expect_text);
  nsed_model_free(&m);
}

static void test_refusals(void) {
  nsed_joint_def j;
  nsed_joint_def_default(&j);
  j.type = NSED_JOINT_SPHERICAL;
  j.drive.type = NSED_DRIVE_FEEDBACK;
  refuse(&j, "revolute or cylindrical");
  j.type = NSED_JOINT_REVOLUTE;
  j.drive.type = NSED_DRIVE_NONE;
  j.axial_drive.type = NSED_DRIVE_FEEDBACK;
  refuse(&j, "cylindrical or prismatic");
  j.axial_drive.type = NSED_DRIVE_NONE;
  j.drive.type = NSED_DRIVE_FEEDBACK;
  j.drive.k = -1;
  refuse(&j, "non-negative");
  j.drive.k = 1;
  j.drive.c = NAN;
  refuse(&j, "non-negative");
  j.drive.c = 0;
  j.drive.type = NSED_DRIVE_TABLE;
  refuse(&j, "piecewise");
  j.drive.table = two_point(1, 0, 0, 1);
  refuse(&j, "increase");
  j.drive.type = NSED_DRIVE_NONE;
  j.servo_level = NSED_SERVO_ACCELERATION;
  refuse(&j, "servo joint");
  j.type = NSED_JOINT_SERVO;
  j.servo_level = NSED_SERVO_POSITION;
  j.servo_kp = 3;
  refuse(&j, "acceleration-level");
}

int main(void) {
  test_springs();
  test_pd();
  test_tables();
  test_servo();
  test_refusals();
  return TEST_DONE();
}
