/* Superellipsoids |x/a|^p + |y/b|^p + |z/c|^p <= 1 in motion, against
 * references nsed does not compute:
 *  - inertia: the Dirichlet-integral moments against a grid sum over the
 *    solid (2e6 cells), for p = 2 the ellipsoid's m (b^2 + c^2) / 5;
 *  - rocking: a superellipsoid set down tilted by th0 about its x axis on
 *    the floor, from rest, rolling without slip. Its height is the support
 *    function h(th) = ((b |sin th|)^q + (c cos th)^q)^(1/q), q = p/(p-1),
 *    the contact point lies h'(th) beside the centre, so the energy
 *    integral (m (h^2 + h'^2) + I) th'^2 / 2 + m g h = m g h(th0) gives
 *    the quarter period T/4 = int_0^th0 dth / th' (Simpson's rule after
 *    th = th0 sin phi, which removes the turning point's singularity).
 *    The run's angle at T/4, 3T/4 and 5T/4 (the level crossings, where it
 *    moves fastest) converted to a time error must be below 1e-7 s, over
 *    p = 2, 3, 4, 8 and two amplitudes, explicit and differential
 *    tracking. For p > 2 the surface is flat across y = 0 (its curvature
 *    there is zero): the contact point crosses it at unbounded speed and
 *    the normal force has an integrable peak, which the run goes through;
 *  - the same rocker under the regularised and the compliant law: the
 *    first crossing converges to the quadrature's as the law stiffens
 *    (regularised linearly in delta);
 *  - a frictionless ball sliding off the top of a fixed superellipsoid
 *    (p = 2, 4, 8) along its section y = 0: its centre runs on the
 *    section's offset curve and leaves where g n_z = v^2 / (rho + rb) (rho
 *    the section's radius of curvature, v from the energy integral), at
 *    the time of the quadrature of (rho + rb) dth / v along it (to 1e-9 s);
 *    the top is flat for p > 2 (rho infinite), which the substitution
 *    th ~ u^(p-1) makes integrable;
 *  - rolling in 3D from a pose off every flat direction, spinning about
 *    all axes: for p = 2 (100 s, explicit and differential) it rolls
 *    without slipping and its energy stays; for p = 3 and 4 (10 s,
 *    differential) the normal crosses flat directions, where the friction
 *    a stick needs peaks with the contact point's speed: it slips briefly
 *    (mu = 1), and the energy balance (the change of energy equals the
 *    contacts' work) closes to 1e-8 J, the gap stays closed. Explicit
 *    tracking cannot cross a flat direction in 3D (the integration's step
 *    collapses there; docs/engine.md), which the 2D rocking does. */
#include <math.h>

#include "engine_util.h"
#include "nsed_test.h"

static const double G = 9.81;
static recorder rec;

static nsed_body_def superellipsoid_def(const double half[3], double p, double mass) {
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "body");
  b.mass = mass;
  b.shape.type = NSED_SHAPE_SUPERELLIPSOID;
  b.shape.exponent = p;
  for (int i = 0; i < 3; i++) b.shape.half[i] = half[i];
  return b;
}

/* Body b on the floor with friction mu (= mu0) and the tracking, run to
 * t_end: add, finalize, clear the recorder. */
/* A contact law other than exact Coulomb (NULL: exact Coulomb). */
typedef struct {
  nsed_contact_law law;
  double delta, stiffness, damping;
} law_spec;

static void on_floor(nsed_model *m, const nsed_body_def *b, double mu, nsed_contact_tracking tr,
                     double t_end, const law_spec *ls) {
  nsed_error err;
  must(nsed_model_add_body(m, b, &err), &err);
  nsed_contact_def c;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "floor");
  snprintf(c.body, sizeof c.body, "body");
  c.mu = c.mu0 = mu;
  c.tracking = tr;
  if (ls) c.law = ls->law, c.delta = ls->delta, c.stiffness = ls->stiffness, c.damping = ls->damping;
  must(nsed_model_add_contact(m, &c, &err), &err);
  nsed_options o = *nsed_model_options(m);
  o.t_end = t_end;
  must(nsed_model_set_options(m, &o, &err), &err);
  must(nsed_model_finalize(m, &err), &err);
  memset(&rec, 0, sizeof rec);
}

/* The moments by a midpoint grid sum over the bounding box. */
static void grid_inertia(const double a[3], double p, double J[3]) {
  enum { N = 126 };
  double m2[3] = {0, 0, 0};
  long inside = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++) {
        double u[3] = {(i + 0.5) / N * 2 - 1, (j + 0.5) / N * 2 - 1, (k + 0.5) / N * 2 - 1};
        if (pow(fabs(u[0]), p) + pow(fabs(u[1]), p) + pow(fabs(u[2]), p) > 1) continue;
        inside++;
        for (int d = 0; d < 3; d++) m2[d] += u[d] * u[d] * a[d] * a[d];
      }
  for (int d = 0; d < 3; d++) m2[d] /= (double)inside;
  J[0] = m2[1] + m2[2], J[1] = m2[0] + m2[2], J[2] = m2[0] + m2[1];
}

static void inertia(void) {
  const double a[3] = {0.3, 0.2, 0.1}, ps[] = {2, 3, 4, 8, 20};
  nsed_error err;
  double worst = 0;
  for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
    nsed_model *m;
    must(nsed_model_create(&m, &err), &err);
    nsed_body_def b = superellipsoid_def(a, ps[i], 2.0);
    must(nsed_model_add_body(m, &b, &err), &err);
    const double *J = nsed_model_body_def(m, 0)->inertia;
    double Jg[3];
    grid_inertia(a, ps[i], Jg);
    for (int d = 0; d < 3; d++) worst = fmax(worst, fabs(J[d] / 2.0 - Jg[d]) / Jg[d]);
    if (ps[i] == 2) {
      CHECK_NEAR(J[0], 0.2 * 2.0 * (a[1] * a[1] + a[2] * a[2]), 1e-15, 0);
      CHECK_NEAR(J[2], 0.2 * 2.0 * (a[0] * a[0] + a[1] * a[1]), 1e-15, 0);
    }
    nsed_model_free(&m);
  }
  printf("inertia, p = 2..20: Dirichlet's moments against a 126^3 grid sum within %.1e\n", worst);
  CHECK(worst < 2e-3);
}

/* ---- rocking ---------------------------------------------------------------- */

typedef struct {
  double b, c, q, mass, I;
} rocker;

/* h(th) and h'(th) for 0 <= th < pi/2. */
static double support(const rocker *r, double th, double *dh) {
  double s = sin(th), co = cos(th), S = pow(r->b * s, r->q) + pow(r->c * co, r->q);
  double dS = r->q * (pow(r->b * s, r->q - 1) * r->b * co - pow(r->c * co, r->q - 1) * r->c * s);
  double h = pow(S, 1 / r->q);
  *dh = h / S * dS / r->q;
  return h;
}

/* (y + dy)^q - y^q without cancellation (y > 0). */
static double pow_diff(double y, double dy, double q) {
  return y > 0 ? pow(y, q) * expm1(q * log1p(dy / y)) : pow(dy, q);
}

/* h(th0) - h(th) without cancellation: the differences of the sines and
 * cosines by their product formulas, then of the powers. */
static double height_drop(const rocker *r, double th0, double th, double d_th) {
  double half = sin(0.5 * d_th), mid = 0.5 * (th0 + th);
  double X = r->b * sin(th), dX = 2 * r->b * cos(mid) * half;
  double C = r->c * cos(th), dC = -2 * r->c * sin(mid) * half;
  double S = pow(X, r->q) + pow(C, r->q), dS = pow_diff(X, dX, r->q) + pow_diff(C, dC, r->q);
  return pow(S, 1 / r->q) * expm1(log1p(dS / S) / r->q);
}

static double quarter_period(const rocker *r, double th0, int n) {
  double dh, hs = 0.5 * M_PI / n, T = 0;
  for (int i = 0; i <= n; i++) {
    double phi = i * hs, f;
    if (i == n) {
      /* the limit at the turning point: dth = th0 cos phi dphi, h0 - h ~ h'(th0) th0 (1 - sin phi) */
      double d0;
      double h = support(r, th0, &d0);
      f = th0 * sqrt(2.0) * sqrt((r->mass * (h * h + d0 * d0) + r->I) / (2 * r->mass * G * d0 * th0));
    } else {
      double th = th0 * sin(phi), h = support(r, th, &dh);
      double sq = sin(M_PI / 4 - phi / 2), d_th = 2 * th0 * sq * sq; /* th0 (1 - sin phi) */
      double w2 = 2 * r->mass * G * height_drop(r, th0, th, d_th) /
                  (r->mass * (h * h + dh * dh) + r->I);
      f = th0 * cos(phi) / sqrt(w2);
    }
    T += f * (i == 0 || i == n ? 1 : i % 2 ? 4 : 2);
  }
  return T * hs / 3;
}

/* The rocker run to t_end: its tilt angle about x, energy change, events. */
static double rock_to(const double half[3], double p, double th0, nsed_contact_tracking tr,
                      const law_spec *ls, double t_end, double *de, int *nev, int *ok) {
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b = superellipsoid_def(half, p, 1.0);
  double q = p / (p - 1);
  b.position[2] = pow(pow(half[1] * sin(th0), q) + pow(half[2] * cos(th0), q), 1 / q);
  /* a compliant contact starts at its static penetration */
  if (ls && ls->law == NSED_CONTACT_COMPLIANT) b.position[2] -= G / ls->stiffness;
  b.quat[0] = cos(th0 / 2), b.quat[1] = sin(th0 / 2);
  on_floor(m, &b, 2.0, tr, t_end, ls);
  nsed_data *d;
  *ok = run_model(m, &d, &rec) == NSED_OK;
  double s[13];
  nsed_data_body_state(d, 0, s);
  *de = nsed_data_energy(m, d) - nsed_data_stats(d)->energy_initial;
  *nev = rec.nev;
  nsed_data_free(&d);
  nsed_model_free(&m);
  return 2 * atan(s[4] / s[3]); /* q and -q are one rotation */
}

/* The rocker's first ncross level crossings against the quadrature; the
 * largest time error. */
static double rocking_law(double p, double th0, nsed_contact_tracking tr, const law_spec *ls,
                          int ncross) {
  const double half[3] = {0.2, 0.15, 0.1};
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b = superellipsoid_def(half, p, 1.0);
  must(nsed_model_add_body(m, &b, &err), &err);
  rocker r = {half[1], half[2], p / (p - 1), 1.0, nsed_model_body_def(m, 0)->inertia[0]};
  nsed_model_free(&m);
  double T4 = quarter_period(&r, th0, 2000000), T4h = quarter_period(&r, th0, 1000000);
  /* the fastest rate, at th = 0 */
  double dh, h0 = support(&r, th0, &dh), hz = support(&r, 0, &dh);
  double wmax = sqrt(2 * G * (h0 - hz) / (hz * hz + dh * dh + r.I));
  double worst = 0, worst_de = 0;
  int events = 0, all_ok = 1;
  for (int k = 0; k < ncross; k++) {
    double de, th;
    int nev, ok;
    th = rock_to(half, p, th0, tr, ls, (2 * k + 1) * T4, &de, &nev, &ok);
    worst = fmax(worst, fabs(th) / wmax);
    worst_de = fmax(worst_de, fabs(de));
    events += nev;
    all_ok &= ok;
  }
  printf("rocking p = %-2g th0 = %.2f %-12s %-11s: T/4 = %.12f s (quadrature, halved grid %.1e), "
         "crossings off by %.1e s, energy change %.1e J, %d events\n",
         p, th0, nsed_contact_tracking_name(tr),
         nsed_contact_law_name(ls ? ls->law : NSED_CONTACT_COULOMB), T4, fabs(T4 - T4h), worst,
         worst_de, events);
  CHECK(all_ok);
  CHECK(events == 0);
  CHECK_NEAR(T4, T4h, 2e-10, 0);
  return worst;
}

static void rocking(double p, double th0, nsed_contact_tracking tr) {
  CHECK_NEAR(rocking_law(p, th0, tr, NULL, 3), 0, 1e-8, 0);
}

/* The same rocker under the regularised and the compliant law: their first
 * crossing converges to the exact law's as the law stiffens (regularised:
 * delta 1e-4 -> 1e-5 m/s; compliant: stiffness 1e6 -> 1e7 N/m with the
 * damping ratio 0.5 -> 0.016 and delta 1e-4 -> 1e-5). */
static void other_laws(void) {
  const law_spec reg[2] = {{NSED_CONTACT_REGULARIZED, 1e-4, 0, 0},
                           {NSED_CONTACT_REGULARIZED, 1e-5, 0, 0}};
  const law_spec comp[2] = {{NSED_CONTACT_COMPLIANT, 1e-4, 1e6, 1e3},
                            {NSED_CONTACT_COMPLIANT, 1e-5, 1e7, 100}};
  double er[2], ec[2];
  for (int i = 0; i < 2; i++) {
    er[i] = rocking_law(4, 0.3, NSED_TRACKING_EXPLICIT, &reg[i], 1);
    ec[i] = rocking_law(4, 0.3, NSED_TRACKING_EXPLICIT, &comp[i], 1);
  }
  printf("other laws: regularised crossing error %.1e -> %.1e s, compliant %.1e -> %.1e s\n",
         er[0], er[1], ec[0], ec[1]);
  CHECK(er[1] < er[0] / 5 && er[1] < 1e-5); /* linear in delta */
  CHECK(ec[1] < ec[0] / 2 && ec[1] < 1e-5);
}

/* ---- a ball sliding off a fixed superellipsoid ------------------------------- */

/* The section y = 0 of the superellipsoid (semi-axes a, c there) by the
 * angle th of its normal from the vertical: the point (x, z) is the 2D
 * support point, the radius of curvature rho = 1 / kappa with
 * kappa = (f_xx f_z^2 + f_zz f_x^2) / |grad f|^3. The ball's centre runs
 * on the offset curve at rb: height z + rb cos th, radius of curvature
 * rho + rb, arc length (rho + rb) dth. */
typedef struct {
  double a, c, p, rb, z0, v0;
} section;

static void section_at(const section *e, double th, double *zc, double *rho) {
  double q = e->p / (e->p - 1), us = e->a * sin(th), uc = e->c * cos(th);
  double S = pow(us, q) + pow(uc, q), Sp = pow(S, 1 / e->p);
  double x = e->a * pow(us, q - 1) / Sp, z = e->c * pow(uc, q - 1) / Sp, p = e->p;
  double fx = p * pow(x / e->a, p - 1) / e->a, fz = p * pow(z / e->c, p - 1) / e->c;
  double fxx = p * (p - 1) * pow(x / e->a, p - 2) / (e->a * e->a);
  double fzz = p * (p - 1) * pow(z / e->c, p - 2) / (e->c * e->c);
  double g = hypot(fx, fz);
  *rho = g * g * g / (fxx * fz * fz + fzz * fx * fx);
  *zc = e->z0 + z + e->rb * cos(th);
}

/* Per unit mass, g n_z - v^2 kappa_C (the normal force), and v^2. */
static double section_force(const section *e, double th, double *v2) {
  double zt, zc, rho;
  section_at(e, 1e-300, &zt, &rho);
  section_at(e, th, &zc, &rho);
  *v2 = e->v0 * e->v0 + 2 * G * (zt - zc);
  return G * cos(th) - *v2 / (rho + e->rb);
}

/* The flat top has rho ~ th^(-(p-2)/(p-1)); th = th_L u^(p-1) makes the
 * integrand (rho + rb) dth / v bounded; midpoint rule in u. */
static double section_time(const section *e, double th_leave, int n) {
  double k = e->p - 1, T = 0;
  for (int i = 0; i < n; i++) {
    double u = (i + 0.5) / n, th = th_leave * pow(u, k), zc, rho, v2;
    section_at(e, th, &zc, &rho);
    section_force(e, th, &v2);
    T += (rho + e->rb) / sqrt(v2) * th_leave * k * pow(u, k - 1);
  }
  return T / n;
}

static void ball_off(double p) {
  const section e = {.a = 0.4, .c = 0.2, .p = p, .rb = 0.05, .z0 = 0.5, .v0 = 0.5};
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  const double half[3] = {e.a, 0.25, e.c};
  nsed_body_def b = superellipsoid_def(half, p, 5.0);
  snprintf(b.name, sizeof b.name, "block");
  b.position[2] = e.z0;
  must(nsed_model_add_body(m, &b, &err), &err);
  const double up[3] = {0, 0, 1};
  int opens;
  double t_open = ball_leaves(&rec, m, "block", e.z0, up, e.rb, e.z0 + e.c + e.rb, e.v0, &opens);
  double v2, lo = 1e-6, hi = 1e-6;
  while (section_force(&e, hi, &v2) > 0) lo = hi, hi += 1e-3;
  for (int it = 0; it < 200; it++) {
    double mid = 0.5 * (lo + hi);
    if (section_force(&e, mid, &v2) > 0) lo = mid;
    else hi = mid;
  }
  double th = 0.5 * (lo + hi), T = section_time(&e, th, 400000), Th = section_time(&e, th, 200000);
  printf("ball off a superellipsoid p = %g: leaves at %.12f s (quadrature %.12f, halved grid %.1e, "
         "at %.6f rad), %d events\n",
         p, t_open, T, fabs(T - Th), th, rec.nev);
  CHECK(opens == 1);
  CHECK_NEAR(T, Th, 1e-11, 0);
  CHECK_NEAR(t_open, T, 1e-9, 0);
  nsed_model_free(&m);
}

/* ---- rolling in 3D -------------------------------------------------------- */

static void rolling(double p, nsed_contact_tracking tr, double t_end) {
  const double half[3] = {0.3, 0.2, 0.1}, w[3] = {0.3, 1.5, 0.5};
  nsed_error err;
  nsed_model *m;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b = superellipsoid_def(half, p, 1.0);
  /* Tilted off every flat direction (the normal's body components all
   * non-zero), touching at the support point y_i = a_i sgn(d_i)
   * u_i^(q-1) / S^(1/p) for d = -nb, u_i = a_i |d_i|, S = sum u^q, and
   * rolling there: v = -w x rho. */
  const double qt[4] = {0.95, 0.2, -0.15, 0.1};
  double qn = sqrt(qt[0] * qt[0] + qt[1] * qt[1] + qt[2] * qt[2] + qt[3] * qt[3]);
  for (int i = 0; i < 4; i++) b.quat[i] = qt[i] / qn;
  double R[3][3], nb[3], y[3], rho[3], q = p / (p - 1), S = 0;
  const double *qe = b.quat;
  R[0][0] = 1 - 2 * (qe[2] * qe[2] + qe[3] * qe[3]), R[0][1] = 2 * (qe[1] * qe[2] - qe[0] * qe[3]);
  R[0][2] = 2 * (qe[1] * qe[3] + qe[0] * qe[2]), R[1][0] = 2 * (qe[1] * qe[2] + qe[0] * qe[3]);
  R[1][1] = 1 - 2 * (qe[1] * qe[1] + qe[3] * qe[3]), R[1][2] = 2 * (qe[2] * qe[3] - qe[0] * qe[1]);
  R[2][0] = 2 * (qe[1] * qe[3] - qe[0] * qe[2]), R[2][1] = 2 * (qe[2] * qe[3] + qe[0] * qe[1]);
  R[2][2] = 1 - 2 * (qe[1] * qe[1] + qe[2] * qe[2]);
  for (int i = 0; i < 3; i++) nb[i] = R[2][i];
  for (int i = 0; i < 3; i++) S += pow(half[i] * fabs(nb[i]), q);
  for (int i = 0; i < 3; i++)
    y[i] = -copysign(half[i] * pow(half[i] * fabs(nb[i]), q - 1) / pow(S, 1 / p), nb[i]);
  for (int i = 0; i < 3; i++) rho[i] = R[i][0] * y[0] + R[i][1] * y[1] + R[i][2] * y[2];
  b.position[2] = -rho[2];
  /* w in the body's axes, world ww = R w; v = -ww x rho */
  double ww[3];
  for (int i = 0; i < 3; i++) ww[i] = R[i][0] * w[0] + R[i][1] * w[1] + R[i][2] * w[2];
  b.velocity[0] = -(ww[1] * rho[2] - ww[2] * rho[1]);
  b.velocity[1] = -(ww[2] * rho[0] - ww[0] * rho[2]);
  b.velocity[2] = -(ww[0] * rho[1] - ww[1] * rho[0]);
  for (int i = 0; i < 3; i++) b.angular_velocity[i] = w[i];
  on_floor(m, &b, 1.0, tr, t_end, NULL);
  nsed_data *d;
  int rc = run_model(m, &d, &rec);
  const nsed_stats *st = nsed_data_stats(d);
  double e = nsed_data_energy(m, d), gap = st->law[NSED_LAW_CLOSED_GAP].worst;
  nsed_contact_info ci;
  nsed_data_contact(d, 0, &ci);
  printf("rolling p = %g %-12s %g s: %d events, energy change %.1e J of %.4f (friction's work "
         "%.1e J), worst closed gap %.1e m, tracking residual %.1e, %ld steps\n",
         p, nsed_contact_tracking_name(tr), nsed_data_time(d), rec.nev, e - st->energy_initial,
         st->energy_initial, st->work_contacts, -gap, st->max_track_residual, st->steps);
  double balance = e - st->energy_initial - st->work_contacts - st->work_external - st->work_joints;
  CHECK(rc == NSED_OK); /* the law monitor would have stopped it */
  CHECK_NEAR(gap, 0, 1e-8, 0);
  CHECK_NEAR(balance, 0, 1e-8, 0);
  if (tr == NSED_TRACKING_DIFFERENTIAL) CHECK(st->max_track_residual < 1e-8);
  if (p == 2) {
    /* Smooth: it rolls without slipping and its energy stays, to the
     * work the stick's stabilisation does on the integration's drift
     * (measured over 100 s: 4.9e-8 J explicit, 8.1e-8 J differential,
     * whose contact also follows the tracked point's drift). */
    CHECK(rec.nev == 0 && ci.mode == NSED_MODE_STICK);
    CHECK_NEAR(e, st->energy_initial, 2e-7, 0);
  }
  nsed_data_free(&d);
  nsed_model_free(&m);
}

int main(void) {
  inertia();
  const double ps[] = {2, 3, 4, 8};
  for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
    rocking(ps[i], 0.3, NSED_TRACKING_EXPLICIT);
    rocking(ps[i], 0.05, NSED_TRACKING_EXPLICIT);
  }
  rocking(2, 0.3, NSED_TRACKING_DIFFERENTIAL);
  rocking(4, 0.3, NSED_TRACKING_DIFFERENTIAL);
  other_laws();
  ball_off(2);
  ball_off(4);
  ball_off(8);
  rolling(2, NSED_TRACKING_EXPLICIT, 100);
  rolling(2, NSED_TRACKING_DIFFERENTIAL, 100);
  rolling(3, NSED_TRACKING_DIFFERENTIAL, 10);
  rolling(4, NSED_TRACKING_DIFFERENTIAL, 10);
  return TEST_DONE();
}
