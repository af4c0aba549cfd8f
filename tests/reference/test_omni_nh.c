/* Self-tests of the nonholonomic omni vehicle reference (omni_nh.c; docs/
 * omni-vehicle.md, "The nonholonomic reference model"):
 *  1. energy conserved without torques (asymmetric vehicle, 100 time units);
 *  2. balanced free vehicle: omega, |V|, the circle of the centre, the
 *     body-frame velocity turning at -k omega, and the whole closed form;
 *  3. a second formulation written here (full coordinates q = (x, y, theta,
 *     phi_i), per-body Jacobians in 3D, contact-point velocity from cross
 *     products, Lagrange multipliers solved by a KKT system, fixed-step RK4)
 *     against omni_nh on a driven asymmetric vehicle and a free balanced one;
 *  4. driven closed forms: equal torques (pure spin-up, omega' = -N d tau /
 *     (R I*)) and torques tau_i = tau0 t_i . e (straight-line acceleration
 *     -N tau0 / (2 R M*)), with the energy balance;
 *  5. bad parameters refused, outputs untouched;
 *  6. finitely many inclined rollers: handovers located in time, the
 *     energy they take equal to Carnot's (the kinetic energy of the lost
 *     velocity), energy otherwise conserved, and the motion converging to
 *     the classical model (infinitely many rollers) as the rollers shrink.
 * Tests 2 and 3 run with inclined rollers (psi != 0) too. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nsed_test.h"
#include "omni_nh.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define TOL 1e-14 /* omni_nh_advance tolerance in the comparisons */

/* Nondimensional vehicle: large enough J_a / R^2 that the wheel-spin
 * gyroscopic term visibly bends the free path (epsilon = 0.14 for N = 3). */
static void base_params(omni_nh_params *p, int n) {
  omni_nh_params_symmetric(p, n, 1.0, 0.4, 3.0, 1.2, 0.5, 0.06, 0.035);
}

static void asym_params(omni_nh_params *p) {
  static const double beta[4] = {0.1, 1.9, 3.3, 4.4};
  base_params(p, 4);
  memcpy(p->beta, beta, sizeof beta);
}

static double wrap(double a) { return atan2(sin(a), cos(a)); }

/* A mecanum car (layout 1): wheels 0..3 front-left (a, b), rear-left
 * (-a, b), rear-right (-a, -b), front-right (a, -b), axles outwards along
 * the platform's +-y, rollers at +psi on wheels 0 and 2 and -psi on 1 and 3
 * (an X seen from above). */
static void mecanum_params(omni_nh_params *p, double psi, int rollers) {
  static const double pos[4][2] = {{0.9, 0.6}, {-0.9, 0.6}, {-0.9, -0.6}, {0.9, -0.6}};
  base_params(p, 4);
  p->layout = 1;
  p->rollers = rollers;
  for (int i = 0; i < 4; i++) {
    p->pos[i][0] = pos[i][0];
    p->pos[i][1] = pos[i][1];
    p->axle[i] = i < 2 ? M_PI / 2 : -M_PI / 2;
    p->psi_of[i] = i % 2 ? -psi : psi;
  }
}

/* ---------------------------------------------------------------- 1 */

static void test_energy(void) {
  omni_nh_params p;
  omni_nh_state s;
  asym_params(&p);
  CHECK(omni_nh_init(&p, 0.3, -0.2, 0.5, 0.7, -0.4, 1.3, &s) == OMNI_NH_OK);
  double E0 = omni_nh_energy(&p, &s), worst = 0;
  for (int k = 1; k <= 100; k++) {
    CHECK(omni_nh_advance(&p, &s, k, 1e-14) == OMNI_NH_OK);
    worst = fmax(worst, fabs(omni_nh_energy(&p, &s) - E0) / E0);
  }
  printf("1 energy, asymmetric free vehicle, t = 0..100: max |dE|/E = %.3g\n", worst);
  CHECK_MSG(worst <= 1e-12, "energy drift %.3g", worst);

  /* The free system is reversible: out to t = 5 and back (negative steps). */
  omni_nh_state a, b;
  CHECK(omni_nh_init(&p, 0.3, -0.2, 0.5, 0.7, -0.4, 1.3, &a) == OMNI_NH_OK);
  b = a;
  CHECK(omni_nh_advance(&p, &b, 5, 1e-14) == OMNI_NH_OK);
  CHECK(omni_nh_advance(&p, &b, 0, 1e-14) == OMNI_NH_OK);
  double e = fmax(fmax(fabs(b.x - a.x), fabs(b.y - a.y)), fabs(b.theta - a.theta));
  e = fmax(e, fmax(fmax(fabs(b.vx - a.vx), fabs(b.vy - a.vy)), fabs(b.omega - a.omega)));
  for (int i = 0; i < p.nwheels; i++) e = fmax(e, fabs(b.phi[i] - a.phi[i]));
  printf("1 out to t = 5 and back to 0: max state error %.3g\n", e);
  CHECK(b.t == 0);
  CHECK_MSG(e <= 1e-11, "round trip error %.3g", e);
}

/* ---------------------------------------------------------------- 2 */

typedef struct {
  double M, Mstar, Istar, k, eps;
} sym_consts;

/* Written out from the parameters (not via omni_nh_mass_matrix) so the
 * constants are checked, too. */
static sym_consts sym_constants(const omni_nh_params *p) {
  int N = p->nwheels;
  double g = p->J_axial / (p->R * p->R);
  sym_consts c;
  c.M = p->m_platform + N * p->m_wheel;
  c.Mstar = c.M + 0.5 * N * g / (cos(p->psi) * cos(p->psi));
  c.Istar = p->I_platform + N * (p->m_wheel * p->d * p->d + p->J_diam) + N * p->d * p->d * g;
  c.k = c.M / c.Mstar;
  c.eps = 1 - c.k;
  return c;
}

static double state_diff(const omni_nh_params *p, const omni_nh_state *a, const omni_nh_state *b) {
  double e = fmax(fabs(a->x - b->x), fabs(a->y - b->y));
  e = fmax(e, fabs(a->theta - b->theta));
  e = fmax(e, fmax(fabs(a->vx - b->vx), fabs(a->vy - b->vy)));
  e = fmax(e, fabs(a->omega - b->omega));
  for (int i = 0; i < p->nwheels; i++)
    e = fmax(e, fmax(fabs(a->phi[i] - b->phi[i]), fabs(a->phidot[i] - b->phidot[i])));
  return e;
}

static void free_symmetric(int n, double beta0, double psi) {
  omni_nh_params p;
  omni_nh_state s0, s, cf;
  base_params(&p, n);
  p.psi = psi;
  for (int i = 0; i < n; i++) p.beta[i] += beta0;
  sym_consts c = sym_constants(&p);
  double K[3][3];
  CHECK(omni_nh_mass_matrix(&p, K) == OMNI_NH_OK);
  CHECK_NEAR(K[0][0], c.Mstar, 1e-14, 1e-14);
  CHECK_NEAR(K[1][1], c.Mstar, 1e-14, 1e-14);
  CHECK_NEAR(K[2][2], c.Istar, 1e-14, 1e-14);
  CHECK(fabs(K[0][1]) + fabs(K[0][2]) + fabs(K[1][2]) < 1e-14);

  double W0 = 0.9, V0[2] = {0.6, -0.35}, th0 = 0.4;
  CHECK(omni_nh_init(&p, 0.2, 0.1, th0, V0[0], V0[1], W0, &s0) == OMNI_NH_OK);
  double speed0 = hypot(V0[0], V0[1]), E0 = omni_nh_energy(&p, &s0);
  double rho = speed0 / (c.eps * W0); /* circle radius */
  double cen[2] = {s0.x - V0[1] / (c.eps * W0), s0.y + V0[0] / (c.eps * W0)};
  double ub0 = atan2(-sin(th0) * V0[0] + cos(th0) * V0[1], cos(th0) * V0[0] + sin(th0) * V0[1]);
  double e_om = 0, e_sp = 0, e_E = 0, e_circ = 0, e_ang = 0, e_cf = 0;
  s = s0;
  for (int k = 1; k <= 50; k++) {
    CHECK(omni_nh_advance(&p, &s, k, TOL) == OMNI_NH_OK);
    double u = cos(s.theta) * s.vx + sin(s.theta) * s.vy;
    double v = -sin(s.theta) * s.vx + cos(s.theta) * s.vy;
    e_om = fmax(e_om, fabs(s.omega - W0));
    e_sp = fmax(e_sp, fabs(hypot(s.vx, s.vy) - speed0));
    e_E = fmax(e_E, fabs(omni_nh_energy(&p, &s) - E0) / E0);
    e_circ = fmax(e_circ, fabs(hypot(s.x - cen[0], s.y - cen[1]) - rho));
    e_ang = fmax(e_ang, fabs(wrap(atan2(v, u) - ub0 + c.k * W0 * s.t)));
    CHECK(omni_nh_free_motion(&p, &s0, s.t, &cf) == OMNI_NH_OK);
    e_cf = fmax(e_cf, state_diff(&p, &s, &cf));
  }
  /* The naive Chaplygin reduction (constraints substituted into L) predicts
   * a straight line; the heading of the world velocity must have turned by
   * eps omega t instead. */
  double turn = wrap(atan2(s.vy, s.vx) - atan2(V0[1], V0[0]));
  printf("2 balanced free N=%d (beta0 %.2f, psi %.2f, k = %.6f, eps = %.6f, circle radius %.6f), "
         "t = 0..50:\n"
         "  |omega-omega0| %.3g, ||V|-|V0|| %.3g, |dE|/E %.3g, |dist to centre - radius| %.3g,\n"
         "  body velocity angle vs -k omega t %.3g rad, integrator vs closed form (all states) %.3g;\n"
         "  world velocity turned %.6f rad (eps omega t mod 2pi = %.6f, naive Chaplygin 0)\n",
         n, beta0, psi, c.k, c.eps, rho, e_om, e_sp, e_E, e_circ, e_ang, e_cf, turn,
         wrap(c.eps * W0 * s.t));
  CHECK_MSG(e_om <= 1e-12, "omega drift %.3g", e_om);
  CHECK_MSG(e_sp <= 1e-10, "speed drift %.3g", e_sp);
  CHECK_MSG(e_E <= 1e-12, "energy drift %.3g", e_E);
  CHECK_MSG(e_circ <= 1e-10, "circle error %.3g", e_circ);
  CHECK_MSG(e_ang <= 1e-10, "body velocity angle error %.3g", e_ang);
  CHECK_MSG(e_cf <= 1e-10, "closed form error %.3g", e_cf);
  CHECK_NEAR(turn, wrap(c.eps * W0 * s.t), 1e-10, 0);
  CHECK(fabs(wrap(c.eps * W0 * s.t)) > 0.1); /* the test can tell the two apart */
}

/* Omega = 0: the closed form's sinc limits, straight line at constant speed. */
static void free_translation(void) {
  omni_nh_params p;
  omni_nh_state s0, s, cf;
  base_params(&p, 3);
  CHECK(omni_nh_init(&p, 0, 0, 0.3, 0.5, 0.25, 0, &s0) == OMNI_NH_OK);
  s = s0;
  CHECK(omni_nh_advance(&p, &s, 10, TOL) == OMNI_NH_OK);
  CHECK(omni_nh_free_motion(&p, &s0, 10, &cf) == OMNI_NH_OK);
  double e = state_diff(&p, &s, &cf);
  printf("2 balanced free N=3, omega = 0, t = 10: integrator vs closed form %.3g, x = %.15g\n", e,
         s.x);
  CHECK(e <= 1e-12);
  CHECK_NEAR(s.x, 5.0, 1e-12, 0);
  CHECK_NEAR(s.y, 2.5, 1e-12, 0);
}

/* ---------------------------------------------------------------- 3 */

/* Second formulation. Generalised coordinates q = (x, y, theta, phi_0..),
 * world frame. Each body b contributes J_v^T m J_v + J_w^T I J_w to the mass
 * matrix and J_v^T m (Jdot_v qd) + J_w^T (I Jdot_w qd + w x I w) to the bias;
 * the lateral roller force enters through the multiplier of the contact
 * velocity row (v_P . t_i = 0, v_P = c_i' + w_i x (-R z)). */
#define MQ (3 + OMNI_NH_MAX_WHEELS)
#define MK (MQ + OMNI_NH_MAX_WHEELS)

typedef struct {
  double Jv[3][MQ], Jw[3][MQ]; /* columns: d(velocity)/d(qdot) */
  double av[3], aw[3];         /* Jdot_v qd, Jdot_w qd */
  double m, I[3][3];           /* mass, world inertia about the mass centre */
} body;

static void cross(const double a[3], const double b[3], double c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static double dot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void matvec3(const double A[3][3], const double x[3], double y[3]) {
  for (int r = 0; r < 3; r++) y[r] = dot(A[r], x);
}

static void jac_apply(const double J[3][MQ], const double *qd, int nq, double out[3]) {
  for (int r = 0; r < 3; r++) {
    out[r] = 0;
    for (int c = 0; c < nq; c++) out[r] += J[r][c] * qd[c];
  }
}

static void platform_body(const omni_nh_params *p, body *b) {
  memset(b, 0, sizeof *b);
  b->Jv[0][0] = b->Jv[1][1] = 1;
  b->Jw[2][2] = 1;
  b->m = p->m_platform;
  b->I[0][0] = b->I[1][1] = b->I[2][2] = p->I_platform; /* only I_zz matters */
}

/* Wheel i's centre and axle direction in the platform frame, and its
 * rollers' inclination, from either layout. */
static void wheel_place(const omni_nh_params *p, int i, double c[2], double *axle, double *psi) {
  *axle = p->layout ? p->axle[i] : p->beta[i];
  *psi = p->layout ? p->psi_of[i] : p->psi;
  c[0] = p->layout ? p->pos[i][0] : p->d * cos(p->beta[i]);
  c[1] = p->layout ? p->pos[i][1] : p->d * sin(p->beta[i]);
}

/* Wheel i: centre r + Rot(theta) c, spin axis e (world), angular velocity
 * thetadot z + phidot e. */
static void wheel_body(const omni_nh_params *p, int i, const double *q, const double *qd, body *b) {
  const double z[3] = {0, 0, 1};
  double cen[2], ax, psi;
  wheel_place(p, i, cen, &ax, &psi);
  (void)psi;
  double th = q[2] + ax, e[3] = {cos(th), sin(th), 0}, t[3];
  double cw[3] = {cos(q[2]) * cen[0] - sin(q[2]) * cen[1], sin(q[2]) * cen[0] + cos(q[2]) * cen[1],
                  0};
  double zc[3];
  cross(z, e, t);
  cross(z, cw, zc);
  memset(b, 0, sizeof *b);
  b->Jv[0][0] = b->Jv[1][1] = 1;
  for (int r = 0; r < 3; r++) {
    b->Jv[r][2] = zc[r];                    /* d/dtheta (Rot(theta) c) */
    b->Jw[r][2] = z[r];
    b->Jw[r][3 + i] = e[r];
    b->av[r] = -qd[2] * qd[2] * cw[r];      /* d/dt (thetadot z x cw), qdd = 0 */
    b->aw[r] = qd[3 + i] * qd[2] * t[r];    /* phidot d/dt e */
  }
  b->m = p->m_wheel;
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      b->I[r][c] = p->J_axial * e[r] * e[c] + p->J_diam * ((r == c) - e[r] * e[c]);
}

static void add_body(const body *b, const double *qd, int nq, double Mq[MQ][MQ], double *h) {
  double w[3], Iw[3], wIw[3], Iaw[3], gw[3];
  jac_apply(b->Jw, qd, nq, w);
  matvec3(b->I, w, Iw);
  cross(w, Iw, wIw);
  matvec3(b->I, b->aw, Iaw);
  for (int r = 0; r < 3; r++) gw[r] = Iaw[r] + wIw[r];
  for (int i = 0; i < nq; i++) {
    for (int j = 0; j < nq; j++) {
      double s = 0;
      for (int r = 0; r < 3; r++) {
        s += b->m * b->Jv[r][i] * b->Jv[r][j];
        for (int c = 0; c < 3; c++) s += b->Jw[r][i] * b->I[r][c] * b->Jw[c][j];
      }
      Mq[i][j] += s;
    }
    for (int r = 0; r < 3; r++) h[i] += b->m * b->Jv[r][i] * b->av[r] + b->Jw[r][i] * gw[r];
  }
}

/* The touching roller's turn from the bottom, for the sector its wheel
 * angle falls in (the comparisons run between handovers). */
static double touching_turn(const omni_nh_params *p, double phi) {
  if (p->rollers == 0) return 0.0;
  double two_alpha = 2 * M_PI / p->rollers;
  return phi - two_alpha * nearbyint(phi / two_alpha);
}

/* Contact row of wheel i at q: A qd = v_P . n, built from the geometry
 * (rollers.md, "The surface"): the touching roller's centre B at R cos(alpha)
 * along its radius rho (the downward vertical turned by its turn about the
 * axle e), its axis i2 = cos(psi) (e x rho) + sin(psi) e; the contact point
 * P lies on the vertical through the point of that axis in the vertical
 * plane of e, at the height R below the wheel centre; n is horizontal and
 * across the direction i2 x z along which the roller's spin moves P.
 * v_P = c' + w x (P - c) is linear in qd, so A's columns are v_P . n for
 * unit qd. */
static void contact_row_at(const omni_nh_params *p, int i, const double *q, double *A) {
  int nq = 3 + p->nwheels;
  const double z[3] = {0, 0, 1};
  double qd0[MQ] = {0};
  body b;
  wheel_body(p, i, q, qd0, &b);
  double e[3], t[3], rho[3], tau[3], i2[3], B[3], f[3], n[3], PC[3], cen[2], ax, psi;
  wheel_place(p, i, cen, &ax, &psi);
  for (int r = 0; r < 3; r++) e[r] = b.Jw[r][3 + i];
  cross(z, e, t);
  double qr = touching_turn(p, q[3 + i]);
  double R1 = p->R * (p->rollers ? cos(M_PI / p->rollers) : 1.0);
  for (int r = 0; r < 3; r++) rho[r] = -cos(qr) * z[r] + sin(qr) * t[r];
  cross(e, rho, tau);
  for (int r = 0; r < 3; r++) {
    i2[r] = cos(psi) * tau[r] + sin(psi) * e[r];
    B[r] = R1 * rho[r];
  }
  double lam = -dot(B, t) / dot(i2, t);
  for (int r = 0; r < 3; r++) PC[r] = B[r] + lam * i2[r];
  PC[2] = -p->R;
  cross(i2, z, f);
  cross(f, z, n);
  for (int c = 0; c < nq; c++) {
    double v[3], w[3], wr[3];
    for (int r = 0; r < 3; r++) {
      v[r] = b.Jv[r][c];
      w[r] = b.Jw[r][c];
    }
    cross(w, PC, wr);
    A[c] = dot(v, n) + dot(wr, n);
  }
}

/* The row and its bias Adot qd, the rate of A along the motion, by central
 * differences of A at q +- eps qd with one Richardson extrapolation (error
 * O(eps^4)). */
static void contact_row(const omni_nh_params *p, int i, const double *q, const double *qd,
                        double *A, double *bias) {
  int nq = 3 + p->nwheels;
  double D[2] = {0, 0};
  contact_row_at(p, i, q, A);
  for (int k = 0; k < 2; k++) {
    double eps = k ? 5e-4 : 1e-3, qp[MQ], qm[MQ], Ap[MQ], Am[MQ];
    for (int c = 0; c < nq; c++) {
      qp[c] = q[c] + eps * qd[c];
      qm[c] = q[c] - eps * qd[c];
    }
    contact_row_at(p, i, qp, Ap);
    contact_row_at(p, i, qm, Am);
    for (int c = 0; c < nq; c++) D[k] += (Ap[c] - Am[c]) / (2 * eps) * qd[c];
  }
  *bias = (4 * D[1] - D[0]) / 3;
}

/* Dense Gaussian elimination with partial pivoting; 0 on success. */
static int solve_dense(int n, double A[MK][MK], double *b) {
  for (int c = 0; c < n; c++) {
    int piv = c;
    for (int r = c + 1; r < n; r++)
      if (fabs(A[r][c]) > fabs(A[piv][c])) piv = r;
    if (fabs(A[piv][c]) < 1e-300) return -1;
    if (piv != c) {
      for (int k = 0; k < n; k++) {
        double tmp = A[c][k];
        A[c][k] = A[piv][k];
        A[piv][k] = tmp;
      }
      double tmp = b[c];
      b[c] = b[piv];
      b[piv] = tmp;
    }
    for (int r = c + 1; r < n; r++) {
      double f = A[r][c] / A[c][c];
      for (int k = c; k < n; k++) A[r][k] -= f * A[c][k];
      b[r] -= f * b[c];
    }
  }
  for (int r = n - 1; r >= 0; r--) {
    for (int k = r + 1; k < n; k++) b[r] -= A[r][k] * b[k];
    b[r] /= A[r][r];
  }
  return 0;
}

/* [Mq A^T; A 0] [qdd; -lambda] = [Q - h; -Adot qd]. */
static int full_accel(const omni_nh_params *p, double t, const double *q, const double *qd,
                      double *qdd, double *resid) {
  int N = p->nwheels, nq = 3 + N, nk = nq + N;
  double Mq[MQ][MQ] = {{0}}, h[MQ] = {0}, K[MK][MK] = {{0}}, rhs[MK] = {0};
  body b;
  platform_body(p, &b);
  add_body(&b, qd, nq, Mq, h);
  *resid = 0;
  for (int i = 0; i < N; i++) {
    double A[MQ], bias;
    wheel_body(p, i, q, qd, &b);
    add_body(&b, qd, nq, Mq, h);
    contact_row(p, i, q, qd, A, &bias);
    double g = 0;
    for (int c = 0; c < nq; c++) {
      K[nq + i][c] = K[c][nq + i] = A[c];
      g += A[c] * qd[c];
    }
    *resid = fmax(*resid, fabs(g));
    rhs[nq + i] = -bias;
    /* tau e on wheel i, -tau e on the platform: generalised force J_w^T tau e. */
    if (p->torque) {
      double tau = p->torque(i, t, p->ctx), e[3];
      for (int r = 0; r < 3; r++) e[r] = b.Jw[r][3 + i];
      for (int c = 0; c < nq; c++) {
        double Jw_c[3] = {b.Jw[0][c], b.Jw[1][c], b.Jw[2][c]};
        double Jp_c[3] = {0, 0, c == 2};
        rhs[c] += tau * (dot(Jw_c, e) - dot(Jp_c, e));
      }
    }
  }
  for (int r = 0; r < nq; r++) {
    for (int c = 0; c < nq; c++) K[r][c] = Mq[r][c];
    rhs[r] -= h[r];
  }
  if (solve_dense(nk, K, rhs)) return -1;
  memcpy(qdd, rhs, (size_t)nq * sizeof(double));
  return 0;
}

static int full_rhs(const omni_nh_params *p, double t, const double *y, double *dy,
                    double *resid) {
  int nq = 3 + p->nwheels;
  memcpy(dy, y + nq, (size_t)nq * sizeof(double));
  return full_accel(p, t, y, y + nq, dy + nq, resid);
}

/* Classical RK4, fixed step; returns the largest constraint residual at the
 * step starts (index-1 form: only truncation error moves it off zero). */
static double full_run(const omni_nh_params *p, double *y, double t0, double t1, int steps) {
  int n = 2 * (3 + p->nwheels);
  double h = (t1 - t0) / steps, worst = 0;
  for (int s = 0; s < steps; s++) {
    double t = t0 + s * h, k[4][2 * MQ], yt[2 * MQ], r;
    static const double cs[4] = {0, 0.5, 0.5, 1};
    for (int st = 0; st < 4; st++) {
      for (int j = 0; j < n; j++) yt[j] = y[j] + (st ? cs[st] * h * k[st - 1][j] : 0);
      if (full_rhs(p, t + cs[st] * h, yt, k[st], &r)) return INFINITY;
      if (st == 0) worst = fmax(worst, r); /* inner stages are off the constraint by O(h^2) */
    }
    for (int j = 0; j < n; j++) y[j] += h / 6 * (k[0][j] + 2 * k[1][j] + 2 * k[2][j] + k[3][j]);
  }
  return worst;
}

typedef struct {
  double amp[OMNI_NH_MAX_WHEELS], freq[OMNI_NH_MAX_WHEELS], bias[OMNI_NH_MAX_WHEELS];
} wave_torque;

static double wave(int i, double t, void *ctx) {
  const wave_torque *w = ctx;
  return w->bias[i] + w->amp[i] * sin(w->freq[i] * t + i);
}

static void compare_formulations(const char *name, const omni_nh_params *p, const double ic[6],
                                 double T, int steps) {
  int N = p->nwheels, nq = 3 + N;
  omni_nh_state s;
  CHECK(omni_nh_init(p, ic[0], ic[1], ic[2], ic[3], ic[4], ic[5], &s) == OMNI_NH_OK);
  double y[2 * MQ] = {0};
  y[0] = s.x;
  y[1] = s.y;
  y[2] = s.theta;
  y[nq + 0] = s.vx;
  y[nq + 1] = s.vy;
  y[nq + 2] = s.omega;
  for (int i = 0; i < N; i++) y[nq + 3 + i] = s.phidot[i];
  double worst = 0, resid = 0;
  for (int k = 1; k <= 10; k++) {
    double ta = T * (k - 1) / 10, tb = T * k / 10;
    resid = fmax(resid, full_run(p, y, ta, tb, steps / 10));
    CHECK(omni_nh_advance(p, &s, tb, TOL) == OMNI_NH_OK);
    CHECK(s.handovers == 0);
    double d = fmax(fabs(y[0] - s.x), fabs(y[1] - s.y));
    d = fmax(d, fabs(y[2] - s.theta));
    d = fmax(d, fmax(fabs(y[nq] - s.vx), fabs(y[nq + 1] - s.vy)));
    d = fmax(d, fabs(y[nq + 2] - s.omega));
    for (int i = 0; i < N; i++)
      d = fmax(d, fmax(fabs(y[3 + i] - s.phi[i]), fabs(y[nq + 3 + i] - s.phidot[i])));
    worst = fmax(worst, d);
  }
  printf("3 %s: full-coordinate multiplier model (RK4, %d steps) vs omni_nh over t = 0..%g:\n"
         "  max state difference %.3g, constraint residual of the full model %.3g, x(T) = %.12f\n",
         name, steps, T, worst, resid, s.x);
  CHECK_MSG(worst <= 1e-9, "formulations differ by %.3g", worst);
  CHECK(resid <= 1e-9);
}

static void test_second_formulation(void) {
  omni_nh_params p;
  wave_torque w = {{0.3, -0.2, 0.25, 0.15}, {1.1, 2.3, 0.7, 1.7}, {0.05, 0.1, -0.08, 0.02}};
  asym_params(&p);
  p.torque = wave;
  p.ctx = &w;
  const double ic[6] = {0.3, -0.2, 0.5, 0.7, -0.4, 1.3};
  compare_formulations("asymmetric N=4 driven", &p, ic, 5.0, 20000);
  base_params(&p, 3);
  const double ic2[6] = {0.2, 0.1, 0.4, 0.6, -0.35, 0.9};
  compare_formulations("balanced N=3 free", &p, ic2, 5.0, 20000);
  /* Inclined rollers, infinitely many: the same driven asymmetric vehicle. */
  asym_params(&p);
  p.psi = 0.4;
  p.torque = wave;
  p.ctx = &w;
  compare_formulations("asymmetric N=4 driven, psi = 0.4, infinitely many rollers", &p, ic, 5.0,
                       20000);
  /* Three rollers at psi = 0.5: a slow start keeps every wheel on roller 0,
   * where the row depends on the wheel's turn (1 / cos(q), the offset s). */
  base_params(&p, 3);
  p.psi = 0.5;
  p.rollers = 3;
  const double ic3[6] = {0.1, 0.0, 0.3, 0.12, -0.05, 0.06};
  compare_formulations("balanced N=3 free, psi = 0.5, 3 rollers", &p, ic3, 2.0, 8000);
  /* A mecanum car: wheels off the radii, parallel axles, the rollers'
   * inclination alternating; driven, infinitely many rollers, and free on
   * 8 rollers before the first handover. */
  mecanum_params(&p, M_PI / 4, 0);
  p.torque = wave;
  p.ctx = &w;
  compare_formulations("mecanum car driven, psi = +-pi/4, infinitely many rollers", &p, ic, 5.0,
                       20000);
  mecanum_params(&p, M_PI / 4, 8);
  const double ic4[6] = {0.1, 0.0, 0.3, 0.03, 0.01, 0.02};
  compare_formulations("mecanum car free, psi = +-pi/4, 8 rollers", &p, ic4, 1.5, 6000);
}

/* ---------------------------------------------------------------- 7 */

static double sideways_torque(int i, double t, void *ctx) {
  (void)t;
  static const double pattern[4] = {1, -1, -1, 1};
  return *(const double *)ctx * pattern[i];
}

/* The classical mecanum kinematics: with infinitely many rollers at +-psi,
 * torques tau0 (1, -1, -1, 1) push the car straight sideways: the rows are
 * a_i = (t_i + kappa_i e_i, b + kappa a) with t, e along the platform's x
 * and y, sum a_i a_i^T = diag(4, 4 kappa^2, 4 (b + kappa a)^2) and the
 * generalised force (0, -4 kappa tau0 / R, 0), so from rest
 * y = a_y t^2 / 2, a_y = -4 kappa tau0 / (R (M + 4 kappa^2 J_a / R^2)),
 * x = theta = 0 (docs/omni-vehicle.md, "A mecanum car"). */
static void test_mecanum_sideways(void) {
  omni_nh_params p;
  omni_nh_state s;
  double tau0 = 0.05;
  mecanum_params(&p, M_PI / 4, 0);
  p.torque = sideways_torque;
  p.ctx = &tau0;
  CHECK(omni_nh_init(&p, 0, 0, 0, 0, 0, 0, &s) == OMNI_NH_OK);
  double k = tan(M_PI / 4), M = p.m_platform + 4 * p.m_wheel;
  double ay = -4 * k * tau0 / (p.R * (M + 4 * k * k * p.J_axial / (p.R * p.R)));
  double worst = 0;
  for (int n = 1; n <= 20; n++) {
    double t = 0.25 * n;
    CHECK(omni_nh_advance(&p, &s, t, TOL) == OMNI_NH_OK);
    worst = fmax(worst, fabs(s.y - 0.5 * ay * t * t) + fabs(s.vy - ay * t));
    worst = fmax(worst, fabs(s.x) + fabs(s.vx) + fabs(s.theta) + fabs(s.omega));
  }
  /* The wheels turn as the classical inverse kinematics says, all at
   * |v_y| / R: about the platform's y, front-left and rear-right one way,
   * front-right and rear-left the other (the right wheels' axles point
   * along -y). */
  double spin = fabs(s.vy) / p.R, ws = 0, wy[4];
  for (int i = 0; i < 4; i++) {
    ws = fmax(ws, fabs(fabs(s.phidot[i]) - spin));
    wy[i] = s.phidot[i] * sin(p.axle[i]);
  }
  CHECK(wy[0] * wy[2] > 0 && wy[1] * wy[3] > 0 && wy[0] * wy[1] < 0);
  printf("7 mecanum car, torques tau0 (1, -1, -1, 1), infinitely many rollers, t = 0..5: against "
         "y = a_y t^2 / 2 (a_y = %.6f), x = theta = 0: %.3g; wheel spins against |v_y| / R: %.3g\n",
         ay, worst, ws);
  CHECK_MSG(worst <= 1e-11, "sideways drive off the closed form by %.3g", worst);
  CHECK_MSG(ws <= 1e-11, "wheel spins %.3g", ws);
}

/* ---------------------------------------------------------------- 4 */

typedef struct {
  double tau0;
  double dir[2]; /* body-frame direction for the translation drive */
  const omni_nh_params *p;
} drive;

static double equal_torque(int i, double t, void *ctx) {
  const drive *dr = ctx;
  (void)i;
  (void)t;
  return dr->tau0;
}

static double translate_torque(int i, double t, void *ctx) {
  const drive *dr = ctx;
  (void)t;
  double b = dr->p->beta[i];
  return dr->tau0 * (-sin(b) * dr->dir[0] + cos(b) * dr->dir[1]);
}

static void test_equal_torques(void) {
  omni_nh_params p;
  omni_nh_state s0, s;
  drive dr = {0.2, {0, 0}, NULL};
  base_params(&p, 3);
  p.torque = equal_torque;
  p.ctx = &dr;
  sym_consts c = sym_constants(&p);
  double alpha = -p.nwheels * p.d * dr.tau0 / (p.R * c.Istar);
  /* From rest: pure spin-up about the centre. */
  CHECK(omni_nh_init(&p, 0.5, -0.3, 0.2, 0, 0, 0, &s0) == OMNI_NH_OK);
  s = s0;
  CHECK(omni_nh_advance(&p, &s, 10, TOL) == OMNI_NH_OK);
  double e_rest = fmax(fabs(s.omega - alpha * 10), fabs(s.theta - 0.2 - 0.5 * alpha * 100));
  double e_pos = fmax(fmax(fabs(s.x - 0.5), fabs(s.y + 0.3)), hypot(s.vx, s.vy));
  printf("4 equal torques tau = %g on N=3 from rest: omega' = -N d tau/(R I*) = %.12f,\n"
         "  omega(10) = %.12f, error in omega, theta %.3g, centre drift (position, speed) %.3g\n",
         dr.tau0, alpha, s.omega, e_rest, e_pos);
  CHECK(e_rest <= 1e-10);
  CHECK(e_pos <= 1e-12);

  /* Moving: omega = omega0 + alpha t, |V| fixed, the body-frame velocity
   * angle falls by k (theta - theta0), and E - E0 = -(N d tau / R)(theta - theta0). */
  double W0 = 0.7, th0 = -0.1, V0[2] = {0.4, 0.3};
  CHECK(omni_nh_init(&p, 0, 0, th0, V0[0], V0[1], W0, &s0) == OMNI_NH_OK);
  double E0 = omni_nh_energy(&p, &s0);
  double ub0 = atan2(-sin(th0) * V0[0] + cos(th0) * V0[1], cos(th0) * V0[0] + sin(th0) * V0[1]);
  double e_om = 0, e_sp = 0, e_ang = 0, e_E = 0;
  s = s0;
  for (int k = 1; k <= 20; k++) {
    double t = 0.5 * k;
    CHECK(omni_nh_advance(&p, &s, t, TOL) == OMNI_NH_OK);
    double dth = W0 * t + 0.5 * alpha * t * t;
    double u = cos(s.theta) * s.vx + sin(s.theta) * s.vy;
    double v = -sin(s.theta) * s.vx + cos(s.theta) * s.vy;
    e_om = fmax(e_om, fmax(fabs(s.omega - W0 - alpha * t), fabs(s.theta - th0 - dth)));
    e_sp = fmax(e_sp, fabs(hypot(s.vx, s.vy) - hypot(V0[0], V0[1])));
    e_ang = fmax(e_ang, fabs(wrap(atan2(v, u) - ub0 + c.k * dth)));
    double dE = -p.nwheels * p.d * dr.tau0 / p.R * dth;
    e_E = fmax(e_E, fabs(omni_nh_energy(&p, &s) - E0 - dE) / E0);
  }
  printf("4 equal torques, moving, t = 0..10: omega/theta %.3g, |V| %.3g, body velocity angle %.3g,\n"
         "  energy balance (relative) %.3g\n", e_om, e_sp, e_ang, e_E);
  CHECK(e_om <= 1e-10);
  CHECK(e_sp <= 1e-10);
  CHECK(e_ang <= 1e-10);
  CHECK(e_E <= 1e-11);
}

static void test_translation_drive(void) {
  omni_nh_params p;
  omni_nh_state s;
  drive dr = {0.15, {cos(0.6), sin(0.6)}, NULL};
  base_params(&p, 5);
  dr.p = &p;
  p.torque = translate_torque;
  p.ctx = &dr;
  sym_consts c = sym_constants(&p);
  double acc = -p.nwheels * dr.tau0 / (2 * p.R * c.Mstar), th0 = 0.25, T = 4;
  double dirw[2] = {cos(th0) * dr.dir[0] - sin(th0) * dr.dir[1],
                    sin(th0) * dr.dir[0] + cos(th0) * dr.dir[1]};
  CHECK(omni_nh_init(&p, 0, 0, th0, 0.1 * dirw[0], 0.1 * dirw[1], 0, &s) == OMNI_NH_OK);
  CHECK(omni_nh_advance(&p, &s, T, TOL) == OMNI_NH_OK);
  double sx = 0.1 * T + 0.5 * acc * T * T, vx = 0.1 + acc * T;
  double e = fmax(fabs(s.x - sx * dirw[0]), fabs(s.y - sx * dirw[1]));
  e = fmax(e, fmax(fabs(s.vx - vx * dirw[0]), fabs(s.vy - vx * dirw[1])));
  e = fmax(e, fmax(fabs(s.omega), fabs(s.theta - th0)));
  printf("4 translation drive tau_i = tau0 t_i.e on N=5: a = -N tau0/(2 R M*) = %.12f,\n"
         "  state error at t = %g: %.3g\n", acc, T, e);
  CHECK(e <= 1e-11);
}

/* ---------------------------------------------------------------- 5 */

static void expect_refused(const omni_nh_params *p, int code, const char *what) {
  omni_nh_state s, ref;
  double K[3][3], Kref[3][3];
  memset(&s, 0x5a, sizeof s);
  ref = s;
  memset(K, 0x5a, sizeof K);
  memcpy(Kref, K, sizeof K);
  int rc = omni_nh_init(p, 0, 0, 0, 1, 0, 0.5, &s);
  CHECK_MSG(rc == code, "%s: init returned %d, expected %d", what, rc, code);
  CHECK_MSG(memcmp(&s, &ref, sizeof s) == 0, "%s: state written", what);
  CHECK_MSG(omni_nh_check(p) == code, "%s: check", what);
  CHECK_MSG(omni_nh_mass_matrix(p, K) == code && memcmp(K, Kref, sizeof K) == 0, "%s: K", what);
  CHECK_MSG(isnan(omni_nh_energy(p, &s)), "%s: energy", what);
}

static void test_bad_params(void) {
  omni_nh_params good, p;
  base_params(&good, 3);
  int refused = 0;
#define BAD(stmt, code)                            \
  do {                                             \
    p = good;                                      \
    stmt;                                          \
    expect_refused(&p, code, #stmt);               \
    refused++;                                     \
  } while (0)
  BAD(p.nwheels = 2, OMNI_NH_EPARAM);
  BAD(p.nwheels = OMNI_NH_MAX_WHEELS + 1, OMNI_NH_EPARAM);
  BAD(p.R = 0, OMNI_NH_EPARAM);
  BAD(p.R = -0.1, OMNI_NH_EPARAM);
  BAD(p.d = 0, OMNI_NH_EPARAM);
  BAD(p.d = NAN, OMNI_NH_EPARAM);
  BAD(p.m_platform = 0, OMNI_NH_EPARAM);
  BAD(p.I_platform = -1, OMNI_NH_EPARAM);
  BAD(p.m_wheel = 0, OMNI_NH_EPARAM);
  BAD(p.J_axial = -1e-3, OMNI_NH_EPARAM);
  BAD(p.J_diam = INFINITY, OMNI_NH_EPARAM);
  BAD(p.beta[1] = NAN, OMNI_NH_EPARAM);
  BAD(p.psi = M_PI / 2, OMNI_NH_EPARAM);
  BAD(p.psi = NAN, OMNI_NH_EPARAM);
  BAD(p.rollers = 2, OMNI_NH_EPARAM);
  BAD(p.rollers = 101, OMNI_NH_EPARAM);
  BAD(p.rollers = -4, OMNI_NH_EPARAM);
  /* All wheels at one point, a (nearly) massless platform and thin wheels:
   * no inertia about that point, K singular to rounding. */
  BAD((memset(p.beta, 0, sizeof p.beta), p.m_platform = p.I_platform = 1e-20,
       p.J_axial = p.J_diam = 0), OMNI_NH_ESINGULAR);
#undef BAD

  /* Arguments of a good vehicle. */
  omni_nh_state s, ref;
  CHECK(omni_nh_init(&good, 0, 0, 0, 1, 0, 0.5, &s) == OMNI_NH_OK);
  ref = s;
  CHECK(omni_nh_advance(&good, &s, 1, 0) == OMNI_NH_EARG);
  CHECK(omni_nh_advance(&good, &s, NAN, 1e-10) == OMNI_NH_EARG);
  CHECK(omni_nh_init(&good, NAN, 0, 0, 1, 0, 0.5, &s) == OMNI_NH_EARG);
  CHECK(memcmp(&s, &ref, sizeof s) == 0);
  /* Closed form refuses an unbalanced or driven vehicle. */
  omni_nh_params q;
  asym_params(&q);
  CHECK(omni_nh_free_motion(&q, &s, 1, &ref) == OMNI_NH_ENOTSYM);
  q = good;
  q.torque = equal_torque;
  CHECK(omni_nh_free_motion(&q, &s, 1, &ref) == OMNI_NH_ENOTSYM);
  CHECK(memcmp(&s, &ref, sizeof s) == 0);
  /* Finitely many inclined rollers: no closed form; no integration
   * backwards (the handover impulse is not reversible); a wheel angle
   * outside the sector of the roller said to touch. */
  q = good;
  q.psi = 0.3;
  q.rollers = 5;
  CHECK(omni_nh_init(&q, 0, 0, 0, 1, 0, 0.5, &s) == OMNI_NH_OK);
  ref = s;
  CHECK(omni_nh_free_motion(&q, &s, 1, &ref) == OMNI_NH_ENOTSYM);
  CHECK(omni_nh_advance(&q, &s, -1, 1e-10) == OMNI_NH_EARG);
  s.phi[1] = 0.7; /* alpha = 0.628 */
  ref = s;
  CHECK(omni_nh_advance(&q, &s, 1, 1e-10) == OMNI_NH_EARG);
  CHECK(memcmp(&s, &ref, sizeof s) == 0);
  s.sector[1] = 1; /* roller 1 touches from 0.628 to 1.885 */
  CHECK(omni_nh_advance(&q, &s, 0.1, 1e-10) == OMNI_NH_OK);
  printf("5 %d bad parameter sets and 9 bad argument / closed-form cases refused\n", refused);
}

/* ---------------------------------------------------------------- 6 */

/* The balanced test vehicle on 4 rollers at psi = 0.5, coasting with a yaw
 * rate (so each handover's offset jump along the axle meets a velocity). */
static void handover_params(omni_nh_params *p) {
  base_params(p, 3);
  p->psi = 0.5;
  p->rollers = 4;
}

/* The state at t1 from s0, and the handovers on the way. */
static omni_nh_state advanced(const omni_nh_params *p, const omni_nh_state *s0, double t1) {
  omni_nh_state s = *s0;
  CHECK(omni_nh_advance(p, &s, t1, TOL) == OMNI_NH_OK);
  return s;
}

/* Kinetic energy of the difference of two states' velocities in the full
 * coordinates (u, v, omega, phidot_i): the platform-and-wheels metric
 * diag(M, M, I) of the balanced vehicle, written out from the parameters,
 * and J_a on the wheel spins. */
static double lost_velocity_energy(const omni_nh_params *p, const omni_nh_state *a,
                                   const omni_nh_state *b) {
  int N = p->nwheels;
  double M = p->m_platform + N * p->m_wheel;
  double I = p->I_platform + N * (p->m_wheel * p->d * p->d + p->J_diam);
  double c = cos(a->theta), sn = sin(a->theta);
  double du = c * (a->vx - b->vx) + sn * (a->vy - b->vy);
  double dv = -sn * (a->vx - b->vx) + c * (a->vy - b->vy);
  double T = 0.5 * M * (du * du + dv * dv) + 0.5 * I * pow(a->omega - b->omega, 2);
  for (int i = 0; i < N; i++) T += 0.5 * p->J_axial * pow(a->phidot[i] - b->phidot[i], 2);
  return T;
}

static void test_handovers(void) {
  omni_nh_params p;
  omni_nh_state s0, s;
  handover_params(&p);
  CHECK(omni_nh_init(&p, 0, 0, 0.2, 0.6, -0.3, 0.9, &s0) == OMNI_NH_OK);
  double E0 = omni_nh_energy(&p, &s0), worst = 0, alpha = M_PI / p.rollers;
  int in_sector = 1;
  s = s0;
  for (int k = 1; k <= 160; k++) {
    CHECK(omni_nh_advance(&p, &s, 0.05 * k, TOL) == OMNI_NH_OK);
    worst = fmax(worst, fabs(omni_nh_energy(&p, &s) + s.handover_loss - E0) / E0);
    for (int i = 0; i < p.nwheels; i++)
      in_sector &= fabs(s.phi[i] - 2 * alpha * s.sector[i]) <= alpha * (1 + 1e-12);
  }
  printf("6 psi = 0.5, 4 rollers, coasting t = 0..8: %ld handovers took %.4g of the energy; "
         "energy + handover losses - E0: %.3g of E0\n",
         s.handovers, s.handover_loss / E0, worst);
  CHECK(in_sector);
  CHECK(s.handovers >= 20);
  /* At t = 8.45 wheel 1, turning slowly backwards, reaches the edge of its
   * roller, and the impulse of the next roller's constraint would turn it
   * forwards again: the wheel would stand on both rollers' tips, which the
   * model does not describe; it says so. */
  omni_nh_state edge = s;
  CHECK(omni_nh_advance(&p, &edge, 8.5, TOL) == OMNI_NH_EHANDOVER);
  CHECK(memcmp(&edge, &s, sizeof s) == 0);
  CHECK(s.handover_loss > 1e-3 * E0);
  CHECK_MSG(worst <= 1e-11, "energy bookkeeping %.3g", worst);

  /* The first handover, bracketed in time to 1e-13: the energy it takes
   * must be the kinetic energy of the velocity it takes away (Carnot's
   * theorem for a plastic impulse), the smooth motion across the bracket
   * being of the bracket's order. */
  double lo = 0, hi = 10;
  while (hi - lo > 1e-13) {
    double mid = 0.5 * (lo + hi);
    omni_nh_state m = advanced(&p, &s0, mid);
    if (m.handovers > 0) hi = mid; else lo = mid;
  }
  omni_nh_state a = advanced(&p, &s0, lo), b = advanced(&p, &s0, hi);
  double lost = omni_nh_energy(&p, &a) - omni_nh_energy(&p, &b);
  double carnot = lost_velocity_energy(&p, &a, &b);
  printf("6 first handover at t = %.13f: energy taken %.10g, Carnot %.10g (rel. diff %.2g)\n", hi,
         lost, carnot, fabs(lost - carnot) / carnot);
  CHECK(b.handovers == 1 && a.handovers == 0);
  CHECK(lost > 1e-6 * E0);
  CHECK_NEAR(lost, carnot, 0, 1e-8);
  CHECK_NEAR(b.handover_loss, lost, 0, 1e-8);
}

/* Finitely many rollers approach the classical model (infinitely many) as
 * the sector shrinks: the position after 2 time units of the coast above,
 * for n = 6 .. 96 rollers. */
static void test_roller_convergence(void) {
  omni_nh_params p;
  omni_nh_state s, ref;
  handover_params(&p);
  p.rollers = 0;
  CHECK(omni_nh_init(&p, 0, 0, 0.2, 0.6, -0.3, 0.9, &ref) == OMNI_NH_OK);
  CHECK(omni_nh_advance(&p, &ref, 2, TOL) == OMNI_NH_OK);
  static const int ns[] = {6, 12, 24, 48, 96};
  double err[5];
  printf("6 n rollers vs infinitely many (psi = 0.5, t = 2): position error");
  for (int k = 0; k < 5; k++) {
    p.rollers = ns[k];
    CHECK(omni_nh_init(&p, 0, 0, 0.2, 0.6, -0.3, 0.9, &s) == OMNI_NH_OK);
    CHECK(omni_nh_advance(&p, &s, 2, TOL) == OMNI_NH_OK);
    err[k] = hypot(s.x - ref.x, s.y - ref.y);
    printf(" %d: %.3g (%ld handovers)%s", ns[k], err[k], s.handovers, k < 4 ? "," : "\n");
  }
  double order = log(err[3] / err[4]) / log(2.0);
  printf("  order in 1/n between 48 and 96: %.3f\n", order);
  for (int k = 1; k < 5; k++) CHECK(err[k] < err[k - 1]);
  CHECK(order > 0.8);
}

int main(void) {
  test_energy();
  free_symmetric(3, 0.0, 0.0);
  free_symmetric(4, 0.3, 0.0);
  free_symmetric(6, -1.0, 0.0);
  free_symmetric(3, 0.0, 0.4);
  free_symmetric(4, 0.3, -0.7);
  free_translation();
  test_second_formulation();
  test_equal_torques();
  test_translation_drive();
  test_bad_params();
  test_handovers();
  test_roller_convergence();
  test_mecanum_sideways();
  return TEST_DONE();
}
