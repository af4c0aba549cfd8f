/* The omni vehicle with massive rollers on infinite friction (see
 * omni_massive.h and docs/omni-vehicle.md, "Against a massive-roller model").
 *
 * Velocities nu = (vx, vy, Omega, phidot_i, s_i), s_i the touching roller's
 * spin. Lagrange's equations in the coordinates (x, y, theta, phi_i, chi_ik),
 * chi_ik roller k's turn on its axle (s_ik = Omega sin q_ik + chidot_ik):
 *   M (xdd, ydd)      = forces along the rows,
 *   I' Omegadot       = sum_i d lt_i + r_i sin q_i le_i - sum_ik J s_ik cos q_ik phidot_i,
 *   Jphi phiddot_i    = R lt_i + tau_i + Omega sum_k J s_ik cos q_ik,
 *   J sdot_i          = -r_i le_i   (the touching roller; the others: sdot = 0),
 * with lt_i, le_i the contact forces along t_i and e_i, J the roller's axial
 * moment, and (a balanced vehicle: sum_i t_i = 0; n >= 3 rollers: sum_k
 * cos^2 q_ik = n / 2 whatever phi_i)
 *   M    = M_p + N (m_hub + n m_r),
 *   I'   = I_p + N ((m_hub + n m_r) d^2 + J_hub_diam + n (m_r R1^2 + J_t) / 2),
 *   Jphi = J_hub_axial + n (m_r R1^2 + J_t),   R1 = R cos(alpha).
 * The rollers' axial moments are not in I': their part of the yaw momentum,
 * sum J s_ik sin q_ik, is what the gyroscopic terms come from. As
 * M nu' = f + B^T lambda, B nu' = -bias (B the rows), solved through the
 * Gram matrix B M^-1 B^T by Cholesky. */
#include "omni_massive.h"

#include "dp45_tableau.h"

#include <float.h>
#include <math.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define NWMAX OMNI_MASSIVE_MAX_WHEELS
#define NY (6 + 3 * NWMAX)  /* x, y, theta, vx, vy, Omega, phi_i, phidot_i, s_i */
#define NV (3 + 2 * NWMAX)  /* vx, vy, Omega, phidot_i, s_i */
#define NR (2 * NWMAX)      /* rows: t_i, then e_i */
#define MAX_STEPS 20000000L

typedef struct {
  const omni_massive_params *p;
  int N, n, ny, nv;
  double alpha, R1;
  double Mdiag[NV];
  double beta[NWMAX];
  int sector[NWMAX];
  double spin[NWMAX][OMNI_MASSIVE_MAX_ROLLERS];
  long handovers;
} model;

static int positive(double x) { return isfinite(x) && x > 0; }
static int nonneg(double x) { return isfinite(x) && x >= 0; }

static int params_ok(const omni_massive_params *p) {
  return p && p->nwheels >= 3 && p->nwheels <= NWMAX && p->rollers >= 3 &&
         p->rollers <= OMNI_MASSIVE_MAX_ROLLERS && positive(p->d) && positive(p->R) &&
         positive(p->m_platform) && positive(p->I_platform) && positive(p->m_hub) &&
         nonneg(p->J_hub_axial) && nonneg(p->J_hub_diam) && positive(p->m_roller) &&
         positive(p->J_roller_axial) && nonneg(p->J_roller_trans);
}

static void model_init(const omni_massive_params *p, model *md) {
  memset(md, 0, sizeof *md);
  md->p = p;
  md->N = p->nwheels;
  md->n = p->rollers;
  md->ny = 6 + 3 * md->N;
  md->nv = 3 + 2 * md->N;
  md->alpha = M_PI / md->n;
  md->R1 = p->R * cos(md->alpha);
  double mw = p->m_hub + md->n * p->m_roller;
  double rim = md->n * (p->m_roller * md->R1 * md->R1 + p->J_roller_trans);
  md->Mdiag[0] = md->Mdiag[1] = p->m_platform + md->N * mw;
  md->Mdiag[2] = p->I_platform + md->N * (mw * p->d * p->d + p->J_hub_diam + 0.5 * rim);
  for (int i = 0; i < md->N; i++) {
    md->Mdiag[3 + i] = p->J_hub_axial + rim;
    md->Mdiag[3 + md->N + i] = p->J_roller_axial;
    md->beta[i] = 2 * M_PI * i / md->N;
  }
}

static int roller_index(const model *md, int k) { return ((k % md->n) + md->n) % md->n; }

/* The touching roller's turn from the downward vertical. */
static double turn(const model *md, int i, double phi) {
  return phi - 2 * md->alpha * md->sector[i];
}

/* Sum over wheel i's rollers of J s_k cos q_k, the touching one's spin s. */
static double gyro_sum(const model *md, int i, double phi, double s) {
  double acc = 0;
  int touching = roller_index(md, md->sector[i]);
  for (int k = 0; k < md->n; k++) {
    double sk = k == touching ? s : md->spin[i][k];
    acc += sk * cos(phi - 2 * md->alpha * k);
  }
  return md->p->J_roller_axial * acc;
}

/* Rows B (2N x nv) and their bias (d/dt B) nu at the state y. */
static void rows(const model *md, const double *y, double B[NR][NV], double *bias) {
  int N = md->N, nv = md->nv;
  double R = md->p->R, th = y[2], vx = y[3], vy = y[4], W = y[5];
  for (int r = 0; r < 2 * N; r++)
    for (int c = 0; c < nv; c++) B[r][c] = 0;
  for (int i = 0; i < N; i++) {
    double b = md->beta[i] + th, e[2] = {cos(b), sin(b)}, t[2] = {-e[1], e[0]};
    double q = turn(md, i, y[6 + i]), pd = y[6 + N + i], s = y[6 + 2 * N + i];
    double r = R * (cos(q) - cos(md->alpha)), dr = -R * sin(q);
    double ve = vx * e[0] + vy * e[1], vt = vx * t[0] + vy * t[1];
    B[i][0] = t[0];
    B[i][1] = t[1];
    B[i][2] = md->p->d;
    B[i][3 + i] = R;
    bias[i] = -W * ve;
    B[N + i][0] = e[0];
    B[N + i][1] = e[1];
    B[N + i][2] = r * sin(q);
    B[N + i][3 + N + i] = -r;
    bias[N + i] = W * vt + (dr * sin(q) + r * cos(q)) * pd * W - dr * pd * s;
  }
}

static int cholesky(int n, double A[NR][NR]) {
  for (int j = 0; j < n; j++) {
    double s = A[j][j];
    for (int k = 0; k < j; k++) s -= A[j][k] * A[j][k];
    if (!(s > 0)) return OMNI_MASSIVE_ESINGULAR;
    A[j][j] = sqrt(s);
    for (int i = j + 1; i < n; i++) {
      double v = A[i][j];
      for (int k = 0; k < j; k++) v -= A[i][k] * A[j][k];
      A[i][j] = v / A[j][j];
    }
  }
  return OMNI_MASSIVE_OK;
}

static void cholesky_solve(int n, const double L[NR][NR], double *b) {
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < i; k++) b[i] -= L[i][k] * b[k];
    b[i] /= L[i][i];
  }
  for (int i = n - 1; i >= 0; i--) {
    for (int k = i + 1; k < n; k++) b[i] -= L[k][i] * b[k];
    b[i] /= L[i][i];
  }
}

/* lambda from G lambda = rhs, G = B M^-1 B^T; returns the Cholesky code. */
static int gram_solve(const model *md, const double B[NR][NV], double *rhs) {
  int m = 2 * md->N;
  double G[NR][NR];
  for (int a = 0; a < m; a++)
    for (int b = 0; b <= a; b++) {
      double g = 0;
      for (int c = 0; c < md->nv; c++) g += B[a][c] * B[b][c] / md->Mdiag[c];
      G[a][b] = G[b][a] = g;
    }
  int rc = cholesky(m, G);
  if (rc == OMNI_MASSIVE_OK) cholesky_solve(m, G, rhs);
  return rc;
}

static int rhs(const model *md, double t, const double *y, double *dy) {
  int N = md->N, nv = md->nv, m = 2 * N;
  double B[NR][NV], bias[NR], f[NV] = {0}, lam[NR];
  rows(md, y, B, bias);
  double W = y[5];
  for (int i = 0; i < N; i++) {
    double g = gyro_sum(md, i, y[6 + i], y[6 + 2 * N + i]);
    f[2] -= g * y[6 + N + i];
    f[3 + i] = W * g + (md->p->torque ? md->p->torque(i, t, md->p->ctx) : 0.0);
  }
  for (int a = 0; a < m; a++) {
    double s = -bias[a];
    for (int c = 0; c < nv; c++) s -= B[a][c] * f[c] / md->Mdiag[c];
    lam[a] = s;
  }
  int rc = gram_solve(md, B, lam);
  if (rc) return rc;
  dy[0] = y[3];
  dy[1] = y[4];
  dy[2] = y[5];
  for (int i = 0; i < N; i++) dy[6 + i] = y[6 + N + i];
  for (int c = 0; c < nv; c++) {
    double acc = f[c];
    for (int a = 0; a < m; a++) acc += B[a][c] * lam[a];
    /* nu occupies y[3..5] and y[6+N..6+3N) */
    dy[c < 3 ? 3 + c : 3 + N + c] = acc / md->Mdiag[c];
  }
  return OMNI_MASSIVE_OK;
}

static void nu_of(const model *md, const double *y, double *nu) {
  for (int c = 0; c < md->nv; c++) nu[c] = y[c < 3 ? 3 + c : 3 + md->N + c];
}

/* The smallest change of the velocities in the kinetic metric that makes
 * every row hold (the plastic impulse of infinite friction). */
static int project(const model *md, double *y) {
  int m = 2 * md->N;
  double B[NR][NV], bias[NR], nu[NV], lam[NR];
  rows(md, y, B, bias);
  nu_of(md, y, nu);
  for (int a = 0; a < m; a++) {
    lam[a] = 0;
    for (int c = 0; c < md->nv; c++) lam[a] -= B[a][c] * nu[c];
  }
  int rc = gram_solve(md, B, lam);
  if (rc) return rc;
  for (int c = 0; c < md->nv; c++) {
    double dv = 0;
    for (int a = 0; a < m; a++) dv += B[a][c] * lam[a];
    y[c < 3 ? 3 + c : 3 + md->N + c] += dv / md->Mdiag[c];
  }
  return OMNI_MASSIVE_OK;
}

static double residual(const model *md, const double *y) {
  double B[NR][NV], bias[NR], nu[NV], worst = 0;
  rows(md, y, B, bias);
  nu_of(md, y, nu);
  for (int a = 0; a < 2 * md->N; a++) {
    double s = 0;
    for (int c = 0; c < md->nv; c++) s += B[a][c] * nu[c];
    worst = fmax(worst, fabs(s));
  }
  return worst;
}

static void pack(const model *md, const omni_massive_state *s, double *y) {
  int N = md->N;
  y[0] = s->x;
  y[1] = s->y;
  y[2] = s->theta;
  y[3] = s->vx;
  y[4] = s->vy;
  y[5] = s->omega;
  for (int i = 0; i < N; i++) {
    y[6 + i] = s->phi[i];
    y[6 + N + i] = s->phidot[i];
    y[6 + 2 * N + i] = s->spin[i][roller_index(md, s->sector[i])];
  }
}

static void unpack(const model *md, const double *y, double t, omni_massive_state *s) {
  int N = md->N;
  s->t = t;
  s->x = y[0];
  s->y = y[1];
  s->theta = y[2];
  s->vx = y[3];
  s->vy = y[4];
  s->omega = y[5];
  for (int i = 0; i < N; i++) {
    s->phi[i] = y[6 + i];
    s->phidot[i] = y[6 + N + i];
    s->sector[i] = md->sector[i];
    memcpy(s->spin[i], md->spin[i], sizeof s->spin[i]);
    s->spin[i][roller_index(md, md->sector[i])] = y[6 + 2 * N + i];
  }
  s->handovers = md->handovers;
}

static int state_ok(const model *md, const omni_massive_state *s) {
  double v[7] = {s->t, s->x, s->y, s->theta, s->vx, s->vy, s->omega};
  for (int j = 0; j < 7; j++)
    if (!isfinite(v[j])) return 0;
  for (int i = 0; i < md->N; i++) {
    if (!isfinite(s->phi[i]) || !isfinite(s->phidot[i])) return 0;
    if (fabs(s->phi[i] - 2 * md->alpha * s->sector[i]) > md->alpha * (1 + 1e-12)) return 0;
    for (int k = 0; k < md->n; k++)
      if (!isfinite(s->spin[i][k])) return 0;
  }
  return 1;
}

int omni_massive_init(const omni_massive_params *p, double x, double y, double theta, double vx,
                      double vy, double omega, const double *phi,
                      const double spin[][OMNI_MASSIVE_MAX_ROLLERS], omni_massive_state *s) {
  if (!params_ok(p)) return OMNI_MASSIVE_EPARAM;
  if (!phi || !spin || !s) return OMNI_MASSIVE_EARG;
  model md;
  model_init(p, &md);
  omni_massive_state st;
  memset(&st, 0, sizeof st);
  st.x = x;
  st.y = y;
  st.theta = theta;
  st.vx = vx;
  st.vy = vy;
  st.omega = omega;
  for (int i = 0; i < md.N; i++) {
    st.phi[i] = phi[i];
    st.sector[i] = (int)lround(phi[i] / (2 * md.alpha));
    md.sector[i] = st.sector[i];
    memcpy(st.spin[i], spin[i], sizeof st.spin[i]);
    double b = md.beta[i] + theta, e[2] = {cos(b), sin(b)}, t[2] = {-e[1], e[0]};
    double q = turn(&md, i, phi[i]), r = p->R * (cos(q) - cos(md.alpha));
    st.phidot[i] = -(vx * t[0] + vy * t[1] + omega * p->d) / p->R;
    if (r > 0) st.spin[i][roller_index(&md, st.sector[i])] = (vx * e[0] + vy * e[1]) / r + omega * sin(q);
  }
  if (!state_ok(&md, &st)) return OMNI_MASSIVE_EARG;
  *s = st;
  return OMNI_MASSIVE_OK;
}


/* One step; k[0] = f(t, y) on entry. Returns the scaled error (a negative
 * code if a stage's rows are singular); y1 the 5th-order solution. */
static double dp_step(const model *md, double t, const double *y, double h, double k[7][NY],
                      double *y1, double tol) {
  double yt[NY];
  int n = md->ny;
  for (int s = 1; s < 7; s++) {
    for (int j = 0; j < n; j++) {
      double acc = 0;
      for (int r = 0; r < s; r++) acc += DP45_A[s][r] * k[r][j];
      yt[j] = y[j] + h * acc;
    }
    if (rhs(md, t + DP45_C[s] * h, yt, k[s])) return -1;
  }
  memcpy(y1, yt, (size_t)n * sizeof(double));
  double err = 0;
  for (int j = 0; j < n; j++) {
    double e = 0;
    for (int s = 0; s < 7; s++) e += DP45_E[s] * k[s][j];
    err = fmax(err, fabs(h * e) / (tol * (1 + fmax(fabs(y[j]), fabs(y1[j])))));
  }
  return err;
}

/* How far wheel i's touching roller lies past its tip sgn alpha. */
static double past_tip(const model *md, int i, int sgn, const double *y) {
  return sgn * turn(md, i, y[6 + i]) - md->alpha;
}

/* The step length in (0, hs] at which wheel i's roller reaches its tip
 * (Illinois method on the step length, fresh steps from (t, y)); y1 holds
 * that step's end. */
static double locate_tip(const model *md, int i, int sgn, double t, const double *y, double hs,
                         double k[7][NY], double *y1, double tol) {
  double lo = 0, hi = hs, glo = past_tip(md, i, sgn, y);
  dp_step(md, t, y, hs, k, y1, tol);
  double ghi = past_tip(md, i, sgn, y1);
  int side = 0;
  for (int it = 0; it < 200 && ghi > 0; it++) {
    if (hi - lo <= 4 * DBL_EPSILON * (fabs(t) + hs)) break;
    double h = lo - glo * (hi - lo) / (ghi - glo);
    if (!(h > lo && h < hi)) h = 0.5 * (lo + hi);
    dp_step(md, t, y, h, k, y1, tol);
    double g = past_tip(md, i, sgn, y1);
    if (g >= 0) {
      hi = h;
      ghi = g;
      if (side == 1) glo *= 0.5;
      side = 1;
      if (g == 0) break;
    } else {
      lo = h;
      glo = g;
      if (side == -1) ghi *= 0.5;
      side = -1;
    }
  }
  dp_step(md, t, y, hi, k, y1, tol);
  return hi;
}

/* Wheel i's touching roller leaves at its tip sgn alpha; the next touches
 * with its own spin. Both have r = 0 there, so the rows hold as before; the
 * projection removes only the integration's drift. */
static int handover(model *md, int i, int sgn, double *y) {
  int N = md->N;
  y[6 + i] = 2 * md->alpha * md->sector[i] + sgn * md->alpha;
  md->spin[i][roller_index(md, md->sector[i])] = y[6 + 2 * N + i];
  md->sector[i] += sgn;
  y[6 + 2 * N + i] = md->spin[i][roller_index(md, md->sector[i])];
  md->handovers++;
  return project(md, y);
}

/* After an accepted step of length hs ending at y1: the first wheel whose
 * roller passed a tip (the step cut back to it, y1 there), or -1. */
static int first_tip(const model *md, double t, const double *y, double *hs, double k[7][NY],
                     double *y1, double tol, int *sgn) {
  int hit = -1;
  double best = *hs;
  for (int i = 0; i < md->N; i++) {
    double q = turn(md, i, y1[6 + i]);
    int s = q > md->alpha ? 1 : q < -md->alpha ? -1 : 0;
    if (!s) continue;
    double hc = locate_tip(md, i, s, t, y, *hs, k, y1, tol);
    if (hit < 0 || hc < best) {
      hit = i;
      best = hc;
      *sgn = s;
    }
    dp_step(md, t, y, *hs, k, y1, tol);
  }
  if (hit >= 0) {
    *hs = best;
    dp_step(md, t, y, best, k, y1, tol);
  }
  return hit;
}

static int integrate(model *md, double *t, double *y, double t1, double tol, double *hio) {
  double k[7][NY], y1[NY];
  int n = md->ny;
  if (rhs(md, *t, y, k[0])) return OMNI_MASSIVE_ESINGULAR;
  double h = *hio > 0 ? *hio : fmin(1e-4, t1 - *t);
  for (long step = 0; step < MAX_STEPS; step++) {
    if (*t >= t1) {
      *hio = h;
      return OMNI_MASSIVE_OK;
    }
    int last = h >= t1 - *t;
    double hs = last ? t1 - *t : h;
    double err = dp_step(md, *t, y, hs, k, y1, tol);
    if (err < 0) return OMNI_MASSIVE_ESINGULAR;
    double fac = err > 0 ? 0.9 * pow(err, -0.2) : 5.0;
    if (err <= 1) {
      int sgn = 0, wheel = first_tip(md, *t, y, &hs, k, y1, tol, &sgn);
      *t = (last && wheel < 0) ? t1 : *t + hs;
      memcpy(y, y1, (size_t)n * sizeof(double));
      if (wheel >= 0) {
        int rc = handover(md, wheel, sgn, y);
        if (rc) return rc;
        if (rhs(md, *t, y, k[0])) return OMNI_MASSIVE_ESINGULAR;
        continue;
      }
      memcpy(k[0], k[6], (size_t)n * sizeof(double));
      if (!last || hs >= h) h *= fmin(5.0, fac);
    } else {
      h *= fmax(0.2, fac);
    }
    if (h < 1e-14 * fmax(1.0, fabs(*t))) return OMNI_MASSIVE_ESTEP;
  }
  return OMNI_MASSIVE_ESTEP;
}

static void load(model *md, const omni_massive_state *s) {
  for (int i = 0; i < md->N; i++) {
    md->sector[i] = s->sector[i];
    memcpy(md->spin[i], s->spin[i], sizeof md->spin[i]);
  }
  md->handovers = s->handovers;
}

int omni_massive_advance(const omni_massive_params *p, omni_massive_state *s, double t1, double tol) {
  if (!params_ok(p)) return OMNI_MASSIVE_EPARAM;
  if (!s || !(tol > 0) || !isfinite(t1) || t1 < s->t) return OMNI_MASSIVE_EARG;
  model md;
  model_init(p, &md);
  if (!state_ok(&md, s)) return OMNI_MASSIVE_EARG;
  load(&md, s);
  double y[NY], t = s->t, h = s->h;
  pack(&md, s, y);
  int rc = integrate(&md, &t, y, t1, tol, &h);
  unpack(&md, y, t, s);
  s->h = h;
  return rc;
}

double omni_massive_energy(const omni_massive_params *p, const omni_massive_state *s, int whole) {
  model md;
  model_init(p, &md);
  load(&md, s);
  double T = 0.5 * md.Mdiag[0] * (s->vx * s->vx + s->vy * s->vy) +
             0.5 * md.Mdiag[2] * s->omega * s->omega;
  for (int i = 0; i < md.N; i++) {
    T += 0.5 * md.Mdiag[3 + i] * s->phidot[i] * s->phidot[i];
    int touching = roller_index(&md, s->sector[i]);
    for (int k = 0; k < md.n; k++)
      if (whole || k == touching) T += 0.5 * p->J_roller_axial * s->spin[i][k] * s->spin[i][k];
  }
  return T;
}

double omni_massive_residual(const omni_massive_params *p, const omni_massive_state *s) {
  model md;
  model_init(p, &md);
  load(&md, s);
  double y[NY];
  pack(&md, s, y);
  return residual(&md, y);
}
