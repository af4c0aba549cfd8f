/* Nonholonomic omni vehicle (see omni_nh.h and docs/omni-vehicle.md, "The
 * nonholonomic reference model").
 *
 * Body quasi-velocities w = (u, v, omega), a_i = (t_i, d) in the platform
 * frame, so the constraint reads phidot_i = -a_i . w / R. With
 *   K0 = [[M, 0, c_x], [0, M, c_y], [c_x, c_y, I]],  M = M_p + N m_w,
 *   I = I_p + N (m_w d^2 + J_d),  c = m_w d sum_i t_i,
 *   K  = K0 + (J_a / R^2) sum_i a_i a_i^T,
 * the equations of motion (Lagrange multipliers = lateral roller forces,
 * eliminated through the wheel spin equations) are
 *   K wdot = ad*_w (K0 w) - sum_i a_i tau_i / R,
 *   ad*_w(p) = (omega p_v, -omega p_u, v p_u - u p_v).
 * Note K0 (not K) inside ad*: substituting the constraints into the
 * Lagrangian first would put K there and lose a gyroscopic term (docs). */
#include "omni_nh.h"

#include <math.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define NQ (6 + OMNI_NH_MAX_WHEELS) /* x, y, theta, u, v, omega, phi_i */
#define MAX_STEPS 10000000L

typedef struct {
  const omni_nh_params *p;
  int n;                       /* state length 6 + N */
  double a[OMNI_NH_MAX_WHEELS][3];
  double K0[3][3];
  double L[3][3];              /* Cholesky factor of K */
} model;

static int finite_pos(double x) { return isfinite(x) && x > 0; }
static int finite_nonneg(double x) { return isfinite(x) && x >= 0; }

static int params_in_range(const omni_nh_params *p) {
  if (!p || p->nwheels < 3 || p->nwheels > OMNI_NH_MAX_WHEELS) return 0;
  if (!finite_pos(p->d) || !finite_pos(p->R)) return 0;
  if (!finite_pos(p->m_platform) || !finite_pos(p->I_platform) || !finite_pos(p->m_wheel))
    return 0;
  if (!finite_nonneg(p->J_axial) || !finite_nonneg(p->J_diam)) return 0;
  for (int i = 0; i < p->nwheels; i++)
    if (!isfinite(p->beta[i])) return 0;
  return 1;
}

static void build_K0(const omni_nh_params *p, double a[][3], double K0[3][3]) {
  int N = p->nwheels;
  double M = p->m_platform + N * p->m_wheel;
  double I = p->I_platform + N * (p->m_wheel * p->d * p->d + p->J_diam);
  double S[2] = {0, 0};
  for (int i = 0; i < N; i++) {
    a[i][0] = -sin(p->beta[i]);
    a[i][1] = cos(p->beta[i]);
    a[i][2] = p->d;
    S[0] += a[i][0];
    S[1] += a[i][1];
  }
  memset(K0, 0, 9 * sizeof(double));
  K0[0][0] = K0[1][1] = M;
  K0[2][2] = I;
  /* The wheels' masses sit off the platform centre unless sum t_i = 0. */
  K0[0][2] = K0[2][0] = p->m_wheel * p->d * S[0];
  K0[1][2] = K0[2][1] = p->m_wheel * p->d * S[1];
}

static void build_K(const omni_nh_params *p, double a[][3], double K0[3][3], double K[3][3]) {
  double g = p->J_axial / (p->R * p->R);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++) {
      K[r][c] = K0[r][c];
      for (int i = 0; i < p->nwheels; i++) K[r][c] += g * a[i][r] * a[i][c];
    }
}

/* Relative pivot threshold: K is physically positive definite, so a tiny
 * pivot means inconsistent inertia data rather than a legitimate vehicle. */
static int cholesky3(double K[3][3], double L[3][3]) {
  memset(L, 0, 9 * sizeof(double));
  for (int j = 0; j < 3; j++) {
    double s = K[j][j];
    for (int k = 0; k < j; k++) s -= L[j][k] * L[j][k];
    if (!(s > 1e-12 * K[j][j])) return OMNI_NH_ESINGULAR;
    L[j][j] = sqrt(s);
    for (int i = j + 1; i < 3; i++) {
      double t = K[i][j];
      for (int k = 0; k < j; k++) t -= L[i][k] * L[j][k];
      L[i][j] = t / L[j][j];
    }
  }
  return OMNI_NH_OK;
}

static void cholesky3_solve(const double L[3][3], const double b[3], double x[3]) {
  double z[3];
  for (int i = 0; i < 3; i++) {
    z[i] = b[i];
    for (int k = 0; k < i; k++) z[i] -= L[i][k] * z[k];
    z[i] /= L[i][i];
  }
  for (int i = 2; i >= 0; i--) {
    x[i] = z[i];
    for (int k = i + 1; k < 3; k++) x[i] -= L[k][i] * x[k];
    x[i] /= L[i][i];
  }
}

static int model_init(const omni_nh_params *p, model *md) {
  if (!params_in_range(p)) return OMNI_NH_EPARAM;
  double K[3][3];
  md->p = p;
  md->n = 6 + p->nwheels;
  build_K0(p, md->a, md->K0);
  build_K(p, md->a, md->K0, K);
  return cholesky3(K, md->L);
}

int omni_nh_check(const omni_nh_params *p) {
  model md;
  return model_init(p, &md);
}

int omni_nh_mass_matrix(const omni_nh_params *p, double K[3][3]) {
  model md;
  int rc = model_init(p, &md);
  if (rc == OMNI_NH_OK) build_K(p, md.a, md.K0, K);
  return rc;
}

void omni_nh_params_symmetric(omni_nh_params *p, int nwheels, double d, double R,
                              double m_platform, double I_platform, double m_wheel,
                              double J_axial, double J_diam) {
  memset(p, 0, sizeof *p);
  p->nwheels = nwheels;
  p->d = d;
  p->R = R;
  for (int i = 0; i < nwheels && i < OMNI_NH_MAX_WHEELS; i++)
    p->beta[i] = 2 * M_PI * i / nwheels;
  p->m_platform = m_platform;
  p->I_platform = I_platform;
  p->m_wheel = m_wheel;
  p->J_axial = J_axial;
  p->J_diam = J_diam;
}

static double dot3(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void to_body(double theta, double vx, double vy, double *u, double *v) {
  double c = cos(theta), s = sin(theta);
  *u = c * vx + s * vy;
  *v = -s * vx + c * vy;
}

static void wheel_rates(const model *md, const double w[3], double *phidot) {
  for (int i = 0; i < md->p->nwheels; i++) phidot[i] = -dot3(md->a[i], w) / md->p->R;
}

static void rhs(const model *md, double t, const double *y, double *dy) {
  const omni_nh_params *p = md->p;
  const double *w = y + 3;
  double c = cos(y[2]), s = sin(y[2]);
  double pm[3], f[3];
  dy[0] = c * w[0] - s * w[1];
  dy[1] = s * w[0] + c * w[1];
  dy[2] = w[2];
  for (int r = 0; r < 3; r++) pm[r] = dot3(md->K0[r], w);
  f[0] = w[2] * pm[1];
  f[1] = -w[2] * pm[0];
  f[2] = w[1] * pm[0] - w[0] * pm[1];
  if (p->torque)
    for (int i = 0; i < p->nwheels; i++) {
      double tq = p->torque(i, t, p->ctx) / p->R;
      for (int r = 0; r < 3; r++) f[r] -= md->a[i][r] * tq;
    }
  cholesky3_solve(md->L, f, dy + 3);
  wheel_rates(md, w, dy + 6);
}

static void pack(const omni_nh_state *s, int nw, double *y) {
  y[0] = s->x;
  y[1] = s->y;
  y[2] = s->theta;
  to_body(s->theta, s->vx, s->vy, &y[3], &y[4]);
  y[5] = s->omega;
  memcpy(y + 6, s->phi, (size_t)nw * sizeof(double));
}

static void unpack(const model *md, const double *y, double t, omni_nh_state *s) {
  double c = cos(y[2]), sn = sin(y[2]);
  s->t = t;
  s->x = y[0];
  s->y = y[1];
  s->theta = y[2];
  s->vx = c * y[3] - sn * y[4];
  s->vy = sn * y[3] + c * y[4];
  s->omega = y[5];
  memcpy(s->phi, y + 6, (size_t)md->p->nwheels * sizeof(double));
  wheel_rates(md, y + 3, s->phidot);
}

int omni_nh_init(const omni_nh_params *p, double x, double y, double theta, double vx,
                 double vy, double omega, omni_nh_state *s) {
  model md;
  int rc = model_init(p, &md);
  if (rc != OMNI_NH_OK) return rc;
  double in[6] = {x, y, theta, vx, vy, omega};
  for (int k = 0; k < 6; k++)
    if (!isfinite(in[k])) return OMNI_NH_EARG;
  if (!s) return OMNI_NH_EARG;
  double q[NQ] = {0};
  q[0] = x;
  q[1] = y;
  q[2] = theta;
  to_body(theta, vx, vy, &q[3], &q[4]);
  q[5] = omega;
  memset(s, 0, sizeof *s);
  unpack(&md, q, 0.0, s);
  return OMNI_NH_OK;
}

/* Dormand-Prince 5(4) tableau (Hairer, Norsett & Wanner, table II.5.2). */
static const double C[7] = {0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1};
static const double A[7][6] = {
    {0},
    {1.0 / 5},
    {3.0 / 40, 9.0 / 40},
    {44.0 / 45, -56.0 / 15, 32.0 / 9},
    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
    {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84}};
static const double E[7] = {71.0 / 57600, 0, -71.0 / 16695, 71.0 / 1920,
                            -17253.0 / 339200, 22.0 / 525, -1.0 / 40};

/* One step from (t, y) with k[0] = f(t, y); y1 is the 5th-order solution
 * and k[6] = f(t + h, y1) (FSAL). Returns the scaled max-norm error. */
static double dp_step(const model *md, double t, const double *y, double h, double k[7][NQ],
                      double *y1, double tol) {
  double yt[NQ];
  int n = md->n;
  for (int s = 1; s < 7; s++) {
    for (int j = 0; j < n; j++) {
      double acc = 0;
      for (int r = 0; r < s; r++) acc += A[s][r] * k[r][j];
      yt[j] = y[j] + h * acc;
    }
    rhs(md, t + C[s] * h, yt, k[s]);
  }
  memcpy(y1, yt, (size_t)n * sizeof(double)); /* stage 7 is the solution */
  double err = 0;
  for (int j = 0; j < n; j++) {
    double e = 0;
    for (int s = 0; s < 7; s++) e += E[s] * k[s][j];
    double sc = tol * (1 + fmax(fabs(y[j]), fabs(y1[j])));
    err = fmax(err, fabs(h * e) / sc);
  }
  return err;
}

static double initial_step(const model *md, const double *y, const double *f, double span) {
  double ny = 0, nf = 0;
  for (int j = 0; j < md->n; j++) {
    ny = fmax(ny, fabs(y[j]));
    nf = fmax(nf, fabs(f[j]));
  }
  double h = nf > 0 ? 1e-3 * (1 + ny) / nf : span;
  return fmin(h, span);
}

static int integrate(const model *md, double t0, double *y, double t1, double tol, double *hio) {
  double k[7][NQ], y1[NQ];
  double dir = t1 >= t0 ? 1.0 : -1.0, t = t0;
  int n = md->n;
  if (t1 == t0) return OMNI_NH_OK;
  rhs(md, t, y, k[0]);
  double h = *hio > 0 ? *hio : initial_step(md, y, k[0], fabs(t1 - t0));
  for (long step = 0; step < MAX_STEPS; step++) {
    int last = h >= fabs(t1 - t);
    double hs = last ? t1 - t : dir * h;
    double err = dp_step(md, t, y, hs, k, y1, tol);
    double fac = err > 0 ? 0.9 * pow(err, -0.2) : 5.0;
    if (err <= 1) {
      t = last ? t1 : t + hs;
      memcpy(y, y1, (size_t)n * sizeof(double));
      memcpy(k[0], k[6], (size_t)n * sizeof(double));
      /* A step cut short to land on t1 says nothing about the next one. */
      if (!last || fabs(hs) >= h) h *= fmin(5.0, fac);
      if (last) {
        *hio = h;
        return OMNI_NH_OK;
      }
    } else {
      h *= fmax(0.2, fac);
    }
    if (h < 1e-14 * fmax(1.0, fabs(t))) return OMNI_NH_ESTEP;
  }
  return OMNI_NH_ESTEP;
}

static int state_finite(const omni_nh_state *s, int nw) {
  double v[8] = {s->t, s->x, s->y, s->theta, s->vx, s->vy, s->omega, s->h};
  for (int k = 0; k < 8; k++)
    if (!isfinite(v[k])) return 0;
  for (int i = 0; i < nw; i++)
    if (!isfinite(s->phi[i])) return 0;
  return 1;
}

int omni_nh_advance(const omni_nh_params *p, omni_nh_state *s, double t1, double tol) {
  model md;
  int rc = model_init(p, &md);
  if (rc != OMNI_NH_OK) return rc;
  if (!s || !isfinite(t1) || !(tol > 0) || !state_finite(s, p->nwheels)) return OMNI_NH_EARG;
  double y[NQ] = {0}, h = fabs(s->h);
  pack(s, p->nwheels, y);
  rc = integrate(&md, s->t, y, t1, tol, &h);
  if (rc != OMNI_NH_OK) return rc;
  unpack(&md, y, t1, s);
  s->h = h;
  return OMNI_NH_OK;
}

double omni_nh_energy(const omni_nh_params *p, const omni_nh_state *s) {
  model md;
  if (model_init(p, &md) != OMNI_NH_OK || !s) return NAN;
  double w[3];
  to_body(s->theta, s->vx, s->vy, &w[0], &w[1]);
  w[2] = s->omega;
  double T = 0;
  for (int r = 0; r < 3; r++) T += 0.5 * w[r] * dot3(md.K0[r], w);
  for (int i = 0; i < p->nwheels; i++) T += 0.5 * p->J_axial * s->phidot[i] * s->phidot[i];
  return T;
}

/* sum e_i = 0 and sum e_i e_i^T = N/2 I: then K0 and K are diagonal and
 * isotropic in the plane, which is all the closed form needs. */
static int balanced(const omni_nh_params *p) {
  double se[2] = {0, 0}, c2 = 0, s2 = 0;
  for (int i = 0; i < p->nwheels; i++) {
    se[0] += cos(p->beta[i]);
    se[1] += sin(p->beta[i]);
    c2 += cos(2 * p->beta[i]);
    s2 += sin(2 * p->beta[i]);
  }
  double eps = 1e-12 * p->nwheels;
  return hypot(se[0], se[1]) <= eps && hypot(c2, s2) <= eps;
}

static void rot(double ang, const double in[2], double out[2]) {
  double c = cos(ang), s = sin(ang);
  out[0] = c * in[0] - s * in[1];
  out[1] = s * in[0] + c * in[1];
}

static double sinc(double x) {
  return fabs(x) < 1e-4 ? 1 - x * x / 6 + x * x * x * x / 120 : sin(x) / x;
}

/* integral_0^tau rot(lam s) w ds = tau sinc(lam tau / 2) rot(lam tau / 2) w,
 * written so that lam -> 0 needs no special case. */
static void rot_integral(double lam, double tau, const double w[2], double out[2]) {
  double half = 0.5 * lam * tau, r[2];
  rot(half, w, r);
  out[0] = tau * sinc(half) * r[0];
  out[1] = tau * sinc(half) * r[1];
}

int omni_nh_free_motion(const omni_nh_params *p, const omni_nh_state *s0, double t,
                        omni_nh_state *out) {
  int rc = omni_nh_check(p);
  if (rc != OMNI_NH_OK) return rc;
  if (!s0 || !out || !isfinite(t) || !state_finite(s0, p->nwheels)) return OMNI_NH_EARG;
  if (p->torque || !balanced(p)) return OMNI_NH_ENOTSYM;
  int N = p->nwheels;
  double M = p->m_platform + N * p->m_wheel;
  double Mstar = M + 0.5 * N * p->J_axial / (p->R * p->R);
  double k = M / Mstar;            /* body-frame velocity turns at -k omega */
  double W0 = s0->omega, tau = t - s0->t;
  double V0[2] = {s0->vx, s0->vy}, w0[2], V[2], dr[2], wb[2], Wint[2];
  omni_nh_state r = *s0;
  rot(-s0->theta, V0, w0);
  rot((1 - k) * W0 * tau, V0, V); /* world velocity turns at (1 - k) omega */
  rot_integral((1 - k) * W0, tau, V0, dr);
  rot(-k * W0 * tau, w0, wb);
  rot_integral(-k * W0, tau, w0, Wint);
  r.t = t;
  r.x = s0->x + dr[0];
  r.y = s0->y + dr[1];
  r.theta = s0->theta + W0 * tau;
  r.vx = V[0];
  r.vy = V[1];
  for (int i = 0; i < N; i++) {
    double ti[2] = {-sin(p->beta[i]), cos(p->beta[i])};
    r.phi[i] = s0->phi[i] - (p->d * W0 * tau + ti[0] * Wint[0] + ti[1] * Wint[1]) / p->R;
    r.phidot[i] = -(p->d * W0 + ti[0] * wb[0] + ti[1] * wb[1]) / p->R;
  }
  *out = r;
  return OMNI_NH_OK;
}
