/* The ideal snakeboard (snakeboard_ideal.h): Lagrange's equations in
 * q = (x, y, theta) with the two no-slip rows as multipliers,
 *   diag(M, M, I) q'' = F + A^T lambda,   A q'' + A' q' = 0,
 * I = J + J0 + 2 J1, F = (0, 0, -J0 psi'' - J1 (phi_f'' + phi_b'')), and
 *   a_f = (-sin(theta + phi_f), cos(theta + phi_f),  r cos(phi_f)),
 *   a_b = (-sin(theta + phi_b), cos(theta + phi_b), -r cos(phi_b)),
 * the velocity of each wheelset's centre along its axle (docs/engine.md,
 * "The snakeboard against the ideal model"). */
#include "snakeboard_ideal.h"

#include <math.h>
#include <string.h>

void sb_shape(const sb_libration *l, double t, double out[3]) {
  double ph = l->w * t + l->b;
  out[0] = l->a * sin(ph);
  out[1] = l->a * l->w * cos(ph);
  out[2] = -l->a * l->w * l->w * sin(ph);
}

static int finite_pos(double v) { return isfinite(v) && v > 0; }

static int params_ok(const sb_params *p) {
  const sb_libration *l[3] = {&p->psi, &p->phi_f, &p->phi_b};
  for (int k = 0; k < 3; k++)
    if (!isfinite(l[k]->a) || !isfinite(l[k]->w) || !isfinite(l[k]->b)) return 0;
  return finite_pos(p->M) && finite_pos(p->J) && finite_pos(p->r) && isfinite(p->J0) &&
         p->J0 >= 0 && isfinite(p->J1) && p->J1 >= 0;
}

/* The rows a_f, a_b at (theta, shape) and their rates along the motion. */
static void rows(const sb_params *p, double theta, double omega, const double f[3],
                 const double b[3], double A[2][3], double Ad[2][3]) {
  const double *sh[2] = {f, b};
  const double sign[2] = {1, -1};
  for (int k = 0; k < 2; k++) {
    double c = cos(theta + sh[k][0]), s = sin(theta + sh[k][0]), rate = omega + sh[k][1];
    A[k][0] = -s;
    A[k][1] = c;
    A[k][2] = sign[k] * p->r * cos(sh[k][0]);
    Ad[k][0] = -c * rate;
    Ad[k][1] = -s * rate;
    Ad[k][2] = -sign[k] * p->r * sin(sh[k][0]) * sh[k][1];
  }
}

/* Gaussian elimination with partial pivoting on n x n (n <= 5); 0 on success. */
static int solve(int n, double K[5][5], double *x) {
  for (int c = 0; c < n; c++) {
    int piv = c;
    for (int r = c + 1; r < n; r++)
      if (fabs(K[r][c]) > fabs(K[piv][c])) piv = r;
    if (!(fabs(K[piv][c]) > 1e-14)) return -1;
    if (piv != c) {
      for (int k = 0; k < n; k++) {
        double t = K[c][k];
        K[c][k] = K[piv][k];
        K[piv][k] = t;
      }
      double t = x[c];
      x[c] = x[piv];
      x[piv] = t;
    }
    for (int r = c + 1; r < n; r++) {
      double m = K[r][c] / K[c][c];
      for (int k = c; k < n; k++) K[r][k] -= m * K[c][k];
      x[r] -= m * x[c];
    }
  }
  for (int c = n - 1; c >= 0; c--) {
    for (int k = c + 1; k < n; k++) x[c] -= K[c][k] * x[k];
    x[c] /= K[c][c];
  }
  return 0;
}

int sb_rhs(const sb_params *p, const sb_state *s, double out[6]) {
  if (!params_ok(p)) return SB_EPARAM;
  double ps[3], f[3], b[3], A[2][3], Ad[2][3];
  sb_shape(&p->psi, s->t, ps);
  sb_shape(&p->phi_f, s->t, f);
  sb_shape(&p->phi_b, s->t, b);
  rows(p, s->theta, s->omega, f, b, A, Ad);
  const double qd[3] = {s->vx, s->vy, s->omega};
  double K[5][5] = {{0}}, x[5];
  K[0][0] = K[1][1] = p->M;
  K[2][2] = p->J + p->J0 + 2 * p->J1;
  for (int k = 0; k < 2; k++)
    for (int c = 0; c < 3; c++) {
      K[c][3 + k] = -A[k][c];
      K[3 + k][c] = A[k][c];
    }
  x[0] = x[1] = 0;
  x[2] = -p->J0 * ps[2] - p->J1 * (f[2] + b[2]);
  for (int k = 0; k < 2; k++) x[3 + k] = -(Ad[k][0] * qd[0] + Ad[k][1] * qd[1] + Ad[k][2] * qd[2]);
  if (solve(5, K, x)) return SB_ESINGULAR;
  out[0] = s->vx;
  out[1] = s->vy;
  out[2] = s->omega;
  out[3] = x[0];
  out[4] = x[1];
  out[5] = x[2];
  return SB_OK;
}

int sb_advance(const sb_params *p, sb_state *s, double t1, int n) {
  double h = (t1 - s->t) / n;
  for (int i = 0; i < n; i++) {
    double y0[6] = {s->x, s->y, s->theta, s->vx, s->vy, s->omega}, k[4][6];
    sb_state st = *s;
    for (int stage = 0; stage < 4; stage++) {
      double c = stage == 0 ? 0 : stage == 3 ? 1 : 0.5;
      if (stage > 0) {
        double *y = &st.x;
        for (int q = 0; q < 6; q++) y[q] = y0[q] + c * h * k[stage - 1][q];
        st.t = s->t + c * h;
      }
      int rc = sb_rhs(p, &st, k[stage]);
      if (rc) return rc;
    }
    double *y = &s->x;
    for (int q = 0; q < 6; q++) y[q] = y0[q] + h / 6 * (k[0][q] + 2 * k[1][q] + 2 * k[2][q] + k[3][q]);
    s->t = (i == n - 1) ? t1 : s->t + h;
  }
  return SB_OK;
}

double sb_slip(const sb_params *p, const sb_state *s) {
  double f[3], b[3], A[2][3], Ad[2][3];
  sb_shape(&p->phi_f, s->t, f);
  sb_shape(&p->phi_b, s->t, b);
  rows(p, s->theta, s->omega, f, b, A, Ad);
  double worst = 0;
  for (int k = 0; k < 2; k++)
    worst = fmax(worst, fabs(A[k][0] * s->vx + A[k][1] * s->vy + A[k][2] * s->omega));
  return worst;
}

double sb_energy(const sb_params *p, const sb_state *s) {
  double ps[3], f[3], b[3];
  sb_shape(&p->psi, s->t, ps);
  sb_shape(&p->phi_f, s->t, f);
  sb_shape(&p->phi_b, s->t, b);
  double w = s->omega;
  return 0.5 * p->M * (s->vx * s->vx + s->vy * s->vy) + 0.5 * p->J * w * w +
         0.5 * p->J0 * (w + ps[1]) * (w + ps[1]) +
         0.5 * p->J1 * ((w + f[1]) * (w + f[1]) + (w + b[1]) * (w + b[1]));
}

double sb_servo_power(const sb_params *p, const sb_state *s) {
  double ps[3], f[3], b[3], d[6];
  if (sb_rhs(p, s, d)) return NAN;
  sb_shape(&p->psi, s->t, ps);
  sb_shape(&p->phi_f, s->t, f);
  sb_shape(&p->phi_b, s->t, b);
  /* Each rotating part's torque from its servo: J (theta'' + shape''). */
  return p->J0 * (d[5] + ps[2]) * ps[1] + p->J1 * (d[5] + f[2]) * f[1] + p->J1 * (d[5] + b[2]) * b[1];
}
