/* Reduced-coordinate reference model of the disk on a shaft (see dos_reduced.h
 * and docs/disk-on-shaft.md, "Reduced-coordinate reference").
 *
 * Equations (pitch theta = 0, theta' = theta'' = 0; I(s) = J_O + A + m_d s^2,
 * J_O = m_A (3 rho^2 + l_A^2)/12 + m_A (l_A/2)^2, A = m_d r^2/4, C = m_d r^2/2,
 * e = (cos psi, sin psi, 0), b = (-sin psi, cos psi, 0), friction F = F_e e + F_b b):
 *   I psi'' + 2 m_d s s' psi' = M sin(w t) + s F_b
 *   m_d s'' - m_d s psi'^2    = -k (s - l_S) + F_e
 *   C phi''                   = r F_b
 *   N s = g (m_A l_A/2 + m_d s) - r F_e - C psi' phi'      (pitch equation)
 * slip velocity of the disk's material point at K: v = s' e + (s psi' + r phi') b.
 * Stick: s' = 0, s psi' + r phi' = 0 (1 DOF); slip: F = -mu N v/|v|. */
#include "dos_reduced.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define NY 6 /* psi, s, phi, psi', s', phi' */

typedef struct {
  const dos_params *p;
  double C, A, JO, G0; /* disk axial, transverse inertia; shaft about O; g m_A l_A / 2 */
  int mode;
  double s0[2];        /* slip: held direction (world x, y) */
  int slow;            /* slip: below slip_stop_speed, friction held along s0 */
  int armed;           /* slow slip: its stop counts (its velocity along s0 has been > 0) */
  dos_result *res;
} model;

typedef struct {
  double acc[3]; /* psi'', s'', phi'' */
  double N, Fe, Fb;
} dyn;

void dos_params_case(dos_params *p, int case_no) {
  memset(p, 0, sizeof *p);
  p->r = 0.4;
  p->m_d = 0.9;
  p->l_A = 2.2;
  p->m_A = 1.2;
  p->d_A = 0.05;
  p->k = 230;
  p->l_S = 1.51;
  p->mu = 0.18;
  p->mu0 = 0.33;
  p->g = 9.81;
  p->omega = 1.0;
  p->s0 = 1.5;
  p->M = case_no == 1 ? 5.0 : case_no == 2 ? 25.0 : 3.0;
  p->t_end = case_no == 1 ? 10.0 : case_no == 2 ? 25.0 : 50.0;
  p->sides = 32;
  p->slip_stop_speed = 1e-6;
  p->rtol = 1e-12;
  p->atol = 1e-13;
  p->t_tol = 1e-13;
  p->sample_dt = 0.0;
}

/* ---- mechanics ---- */

static void dynamics(const model *md, double t, const double *y, dyn *o) {
  const dos_params *p = md->p;
  double s = y[1], psid = y[3], sd = y[4], phid = y[5];
  double I = md->JO + md->A + p->m_d * s * s;
  double Mz = p->M * sin(p->omega * t);
  double G = md->G0 + p->g * p->m_d * s;
  if (md->mode == DOS_STICK) {
    /* s'' = 0 and d/dt (s psi' + r phi') = 0 with s' = 0 */
    double den = md->C * s * s + I * p->r * p->r;
    o->Fb = -Mz * md->C * s / den;
    o->Fe = p->k * (s - p->l_S) - p->m_d * s * psid * psid;
    o->acc[0] = Mz * p->r * p->r / den;
    o->acc[1] = 0.0;
    o->acc[2] = p->r * o->Fb / md->C;
    o->N = (G - p->r * o->Fe - md->C * psid * phid) / s;
  } else {
    double ve = sd, vb = s * psid + p->r * phid, sp = hypot(ve, vb), de, db;
    if (!md->slow && sp > 0) {
      de = ve / sp;
      db = vb / sp;
    } else { /* the held direction, in the rotating frame */
      double c = cos(y[0]), sn = sin(y[0]);
      de = md->s0[0] * c + md->s0[1] * sn;
      db = -md->s0[0] * sn + md->s0[1] * c;
    }
    /* N s = G - C psi' phi' - r F_e with F_e = -mu N de */
    o->N = (G - md->C * psid * phid) / (s - p->mu * p->r * de);
    o->Fe = -p->mu * o->N * de;
    o->Fb = -p->mu * o->N * db;
    o->acc[0] = (Mz + s * o->Fb - 2 * p->m_d * s * sd * psid) / I;
    o->acc[1] = (p->m_d * s * psid * psid - p->k * (s - p->l_S) + o->Fe) / p->m_d;
    o->acc[2] = p->r * o->Fb / md->C;
  }
}

static void rhs(model *md, double t, const double *y, double *dy) {
  dyn o;
  dynamics(md, t, y, &o);
  dy[0] = y[3];
  dy[1] = y[4];
  dy[2] = y[5];
  dy[3] = o.acc[0];
  dy[4] = o.acc[1];
  dy[5] = o.acc[2];
  md->res->rhs_evals++;
}

static void to_world(double psi, double fe, double fb, double w[2]) {
  double c = cos(psi), s = sin(psi);
  w[0] = fe * c - fb * s;
  w[1] = fe * s + fb * c;
}

static void slip_velocity(const model *md, const double *y, double v[2]) {
  to_world(y[0], y[4], y[1] * y[3] + md->p->r * y[5], v);
}

/* min_j (mu0 N - n_j . F): the polygon's face form, as in the problem files. */
static double margin_of(const dos_params *p, double N, const double F[2]) {
  double m = INFINITY;
  for (int j = 0; j < p->sides; j++) {
    double th = 2.0 * M_PI * j / p->sides;
    m = fmin(m, p->mu0 * N - (cos(th) * F[0] + sin(th) * F[1]));
  }
  return m;
}

static double stick_margin(const model *md, double t, const double *y, double *N_out) {
  dyn o;
  dynamics(md, t, y, &o);
  double F[2];
  to_world(y[0], o.Fe, o.Fb, F);
  if (N_out) *N_out = o.N;
  return margin_of(md->p, o.N, F);
}

/* The slip model of docs/engine.md ("Slip direction"): above
 * slip_stop_speed the friction opposes the slip velocity; a slip slowing
 * to half that speed has its friction held on its direction there, and
 * stops where its velocity along that direction crosses zero, or leaves
 * the hold on reaching slip_stop_speed again. */
static double indicator(const model *md, double t, const double *y) {
  if (md->mode == DOS_STICK) return stick_margin(md, t, y, NULL);
  double v[2];
  slip_velocity(md, y, v);
  double sp = hypot(v[0], v[1]), proj = v[0] * md->s0[0] + v[1] * md->s0[1];
  if (!md->slow) return sp - 0.5 * md->p->slip_stop_speed;
  return md->armed ? fmin(proj, md->p->slip_stop_speed - sp) : md->p->slip_stop_speed - sp;
}

/* A slow slip's velocity along its held direction (world). */
static double held_speed(const model *md, const double *y) {
  double v[2];
  slip_velocity(md, y, v);
  return v[0] * md->s0[0] + v[1] * md->s0[1];
}

/* Tangential acceleration (world) of the contact point at zero slip velocity
 * under a prescribed friction force F (world); N follows from the pitch
 * equation. Affine in F: aT = A F + a0. */
static void accel_given_friction(const model *md, double t, const double *y, const double F[2],
                                 double aT[2], double *N_out) {
  const dos_params *p = md->p;
  double s = y[1], psid = y[3], sd = y[4], phid = y[5];
  double c = cos(y[0]), sn = sin(y[0]);
  double Fe = F[0] * c + F[1] * sn, Fb = -F[0] * sn + F[1] * c;
  double I = md->JO + md->A + p->m_d * s * s;
  double Mz = p->M * sin(p->omega * t);
  double N = (md->G0 + p->g * p->m_d * s - p->r * Fe - md->C * psid * phid) / s;
  double psidd = (Mz + s * Fb - 2 * p->m_d * s * sd * psid) / I;
  double sdd = (p->m_d * s * psid * psid - p->k * (s - p->l_S) + Fe) / p->m_d;
  double phidd = p->r * Fb / md->C;
  /* v = v_e e + v_b b, dv/dt = v_e' e + v_b' b + psi' (v_e b - v_b e); v = 0 here */
  double ae = sdd, ab = sd * psid + s * psidd + p->r * phidd;
  to_world(y[0], ae, ab, aT);
  if (N_out) *N_out = N;
}

/* The direction a slip from rest actually takes under kinetic friction on
 * the circle: a_t(s) parallel to s with a_t . s > 0, F = -mu N s. The same
 * definition as nsed's (docs/engine.md), solved here independently: N by
 * fixed-point iteration on the pitch equation, the angle by a scan around
 * the polygon's direction and bisection on s x a_t. */
static void onset_residual(const model *md, double t, const double *y, double th, double *cross,
                           double *dot) {
  double s[2] = {cos(th), sin(th)}, F[2] = {0, 0}, aT[2], N = 0;
  for (int it = 0; it < 60; it++) {
    accel_given_friction(md, t, y, F, aT, &N);
    F[0] = -md->p->mu * N * s[0];
    F[1] = -md->p->mu * N * s[1];
  }
  accel_given_friction(md, t, y, F, aT, &N);
  *cross = s[0] * aT[1] - s[1] * aT[0];
  *dot = s[0] * aT[0] + s[1] * aT[1];
}

/* Bisect a sign change of s x a_t in [lo, hi] (f_lo at lo) to 1e-15 rad;
 * returns the angle, the along-s acceleration there into *dot. */
static double bisect_cross(const model *md, double t, const double *y, double lo, double hi,
                           double flo, double *dot) {
  double c;
  for (int it = 0; it < 60 && hi - lo > 1e-15; it++) {
    double mid = 0.5 * (lo + hi);
    onset_residual(md, t, y, mid, &c, dot);
    if ((c <= 0) == (flo <= 0)) {
      lo = mid;
      flo = c;
    } else {
      hi = mid;
    }
  }
  onset_residual(md, t, y, 0.5 * (lo + hi), &c, dot);
  return 0.5 * (lo + hi);
}

static void exact_onset(const model *md, double t, const double *y, double dir[2]) {
  /* Every sign change of s x a_t on a scan of 72 angles is bisected,
   * nearest to the polygon's direction first, and the first root along
   * which the slip accelerates wins: near mu0 = mu the accelerating cone is
   * narrower than the scan's step, so the scan's own points cannot be
   * required to accelerate. */
  const int nscan = 72;
  double th0 = atan2(dir[1], dir[0]), pc, pd;
  onset_residual(md, t, y, th0, &pc, &pd);
  double lo[72], hi[72], flo[72], dist[72];
  int nb = 0;
  double prev_th = th0;
  for (int k = 1; k <= nscan; k++) {
    double th = th0 + 2 * M_PI * k / nscan, c, dt;
    onset_residual(md, t, y, th, &c, &dt);
    if ((c <= 0) != (pc <= 0)) {
      lo[nb] = prev_th;
      hi[nb] = th;
      flo[nb] = pc;
      dist[nb++] = fmin(fabs(remainder(prev_th - th0, 2 * M_PI)), fabs(remainder(th - th0, 2 * M_PI)));
    }
    prev_th = th;
    pc = c;
  }
  for (int tries = 0; tries < nb; tries++) {
    int b = -1;
    for (int i = 0; i < nb; i++)
      if (dist[i] >= 0 && (b < 0 || dist[i] < dist[b])) b = i;
    double dot, th = bisect_cross(md, t, y, lo[b], hi[b], flo[b], &dot);
    dist[b] = -1;
    if (dot > 0) {
      dir[0] = cos(th);
      dir[1] = sin(th);
      return;
    }
  }
}

/* The direction a slowing slip settles on (docs/engine.md, "Slip
 * direction"): its tangential acceleration along it, s x a_t = 0 with
 * kinetic friction -mu N s, nearest to dir within a quarter turn, a stable
 * root (s x a_t falls as s turns counterclockwise), by a scan and
 * bisection; dir is kept when there is none. */
static void quasi_steady(const model *md, double t, const double *y, double dir[2]) {
  const int nscan = 72;
  double th0 = atan2(dir[1], dir[0]), pc, pd;
  onset_residual(md, t, y, th0, &pc, &pd);
  double lo = 0, hi = 0, flo = 0, best = INFINITY;
  for (int side = -1; side <= 1; side += 2) {
    double prev_th = th0, prev_c = pc;
    for (int k = 1; k <= nscan / 4; k++) {
      double th = th0 + side * 2 * M_PI * k / nscan, c, dt;
      onset_residual(md, t, y, th, &c, &dt);
      double a = side > 0 ? prev_th : th, b = side > 0 ? th : prev_th;
      double fa = side > 0 ? prev_c : c;
      if ((c <= 0) != (prev_c <= 0) && fa > 0 && fabs(th - th0) < best) { /* stable: + to - */
        best = fabs(th - th0);
        lo = a;
        hi = b;
        flo = fa;
      }
      prev_th = th;
      prev_c = c;
    }
  }
  if (!isfinite(best)) return;
  for (int it = 0; it < 60 && hi - lo > 1e-15; it++) {
    double mid = 0.5 * (lo + hi), c, dt;
    onset_residual(md, t, y, mid, &c, &dt);
    if ((c <= 0) == (flo <= 0)) {
      lo = mid;
      flo = c;
    } else {
      hi = mid;
    }
  }
  dir[0] = cos(0.5 * (lo + hi));
  dir[1] = sin(0.5 * (lo + hi));
}

/* Slip onset by maximal dissipation on the polygon (face form), with mu0
 * shrunk by 1e-7 as nsed does at a friction-margin root: find F on the
 * shrunk polygon with aT(F) in the negative normal cone at F. Enumerates the
 * single faces and the vertices. Returns the slip direction aT/|aT|. */
static int onset_direction(model *md, double t, const double *y, double dir[2]) {
  const dos_params *p = md->p;
  int m = p->sides;
  double mu0 = p->mu0 * (1 - 1e-7);
  /* affine maps aT = Am F + a0, N = nF . F + N0 */
  double a0[2], ax[2], ayv[2], N0, Nx, Ny;
  double Z[2] = {0, 0}, Ex[2] = {1, 0}, Ey[2] = {0, 1};
  accel_given_friction(md, t, y, Z, a0, &N0);
  accel_given_friction(md, t, y, Ex, ax, &Nx);
  accel_given_friction(md, t, y, Ey, ayv, &Ny);
  double Am[2][2] = {{ax[0] - a0[0], ayv[0] - a0[0]}, {ax[1] - a0[1], ayv[1] - a0[1]}};
  double nF[2] = {Nx - N0, Ny - N0};
  double best = INFINITY;
  int found = 0;
  for (int cand = 0; cand < 2 * m; cand++) {
    int j = cand % m, vertex = cand >= m;
    double nj[2] = {cos(2 * M_PI * j / m), sin(2 * M_PI * j / m)};
    double nk[2] = {cos(2 * M_PI * (j + 1) / m), sin(2 * M_PI * (j + 1) / m)};
    double M2[2][2], rh[2];
    /* row 1: nj . F - mu0 N(F) = 0 */
    M2[0][0] = nj[0] - mu0 * nF[0];
    M2[0][1] = nj[1] - mu0 * nF[1];
    rh[0] = mu0 * N0;
    if (vertex) { /* row 2: nk . F - mu0 N(F) = 0 */
      M2[1][0] = nk[0] - mu0 * nF[0];
      M2[1][1] = nk[1] - mu0 * nF[1];
      rh[1] = mu0 * N0;
    } else { /* row 2: tau_j . aT(F) = 0, tau_j = (-nj1, nj0) */
      double tj[2] = {-nj[1], nj[0]};
      M2[1][0] = tj[0] * Am[0][0] + tj[1] * Am[1][0];
      M2[1][1] = tj[0] * Am[0][1] + tj[1] * Am[1][1];
      rh[1] = -(tj[0] * a0[0] + tj[1] * a0[1]);
    }
    double det = M2[0][0] * M2[1][1] - M2[0][1] * M2[1][0];
    if (fabs(det) < 1e-300) continue;
    double F[2] = {(rh[0] * M2[1][1] - M2[0][1] * rh[1]) / det, (M2[0][0] * rh[1] - M2[1][0] * rh[0]) / det};
    double aT[2] = {Am[0][0] * F[0] + Am[0][1] * F[1] + a0[0], Am[1][0] * F[0] + Am[1][1] * F[1] + a0[1]};
    double N = nF[0] * F[0] + nF[1] * F[1] + N0;
    double scaleF = mu0 * fabs(N) + 1e-300, scaleA = hypot(aT[0], aT[1]) + 1e-300;
    /* inside the shrunk polygon */
    if (margin_of(&(dos_params){.mu0 = mu0, .sides = m}, N, F) < -1e-9 * scaleF) continue;
    /* aT = -(nu_j nj + nu_k nk), nu >= 0 */
    double nuj, nuk = 0.0;
    if (vertex) {
      double d2 = nj[0] * nk[1] - nj[1] * nk[0];
      nuj = -(aT[0] * nk[1] - aT[1] * nk[0]) / d2;
      nuk = -(nj[0] * aT[1] - nj[1] * aT[0]) / d2;
    } else {
      nuj = -(nj[0] * aT[0] + nj[1] * aT[1]);
    }
    if (nuj < -1e-9 * scaleA || nuk < -1e-9 * scaleA) continue;
    /* prefer the candidate with the largest dissipation rate F . aT (most negative) */
    double score = F[0] * aT[0] + F[1] * aT[1];
    if (score < best) {
      best = score;
      dir[0] = aT[0] / scaleA;
      dir[1] = aT[1] / scaleA;
      found = 1 + vertex;
    }
  }
  return found;
}

/* ---- Dormand-Prince 5(4) ---- */

static const double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
static const double a21 = 1.0 / 5;
static const double a31 = 3.0 / 40, a32 = 9.0 / 40;
static const double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
static const double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561, a54 = -212.0 / 729;
static const double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247, a64 = 49.0 / 176,
                    a65 = -5103.0 / 18656;
static const double b1 = 35.0 / 384, b3 = 500.0 / 1113, b4 = 125.0 / 192, b5 = -2187.0 / 6784, b6 = 11.0 / 84;
static const double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920, e5 = -17253.0 / 339200,
                    e6 = 22.0 / 525, e7 = -1.0 / 40;

/* One step of size h from (t, y) with k1 = f(t, y): y1 and k7 = f(t+h, y1);
 * returns the scaled error norm. */
static double dp_step(model *md, double t, const double *y, const double *k1, double h, double *y1,
                      double *k7) {
  const dos_params *p = md->p;
  double k2[NY], k3[NY], k4[NY], k5[NY], k6[NY], w[NY];
  for (int i = 0; i < NY; i++) w[i] = y[i] + h * a21 * k1[i];
  rhs(md, t + c2 * h, w, k2);
  for (int i = 0; i < NY; i++) w[i] = y[i] + h * (a31 * k1[i] + a32 * k2[i]);
  rhs(md, t + c3 * h, w, k3);
  for (int i = 0; i < NY; i++) w[i] = y[i] + h * (a41 * k1[i] + a42 * k2[i] + a43 * k3[i]);
  rhs(md, t + c4 * h, w, k4);
  for (int i = 0; i < NY; i++) w[i] = y[i] + h * (a51 * k1[i] + a52 * k2[i] + a53 * k3[i] + a54 * k4[i]);
  rhs(md, t + c5 * h, w, k5);
  for (int i = 0; i < NY; i++)
    w[i] = y[i] + h * (a61 * k1[i] + a62 * k2[i] + a63 * k3[i] + a64 * k4[i] + a65 * k5[i]);
  rhs(md, t + h, w, k6);
  for (int i = 0; i < NY; i++)
    y1[i] = y[i] + h * (b1 * k1[i] + b3 * k3[i] + b4 * k4[i] + b5 * k5[i] + b6 * k6[i]);
  rhs(md, t + h, y1, k7);
  double err = 0.0;
  for (int i = 0; i < NY; i++) {
    double ei = h * (e1 * k1[i] + e3 * k3[i] + e4 * k4[i] + e5 * k5[i] + e6 * k6[i] + e7 * k7[i]);
    double sc = p->atol + p->rtol * fmax(fabs(y[i]), fabs(y1[i]));
    err += (ei / sc) * (ei / sc);
  }
  return sqrt(err / NY);
}

/* ---- recording ---- */

static int grow(void **buf, int *cap, int n, size_t size) {
  if (n < *cap) return 0;
  int nc = *cap ? 2 * *cap : 256;
  void *nb = realloc(*buf, (size_t)nc * size);
  if (!nb) return -1;
  *buf = nb;
  *cap = nc;
  return 0;
}

static int record_sample(model *md, double t, const double *y, int is_event) {
  dos_result *r = md->res;
  if (grow((void **)&r->smp, &r->smpcap, r->nsmp, sizeof *r->smp)) return -1;
  dos_sample *s = &r->smp[r->nsmp++];
  dyn o;
  dynamics(md, t, y, &o);
  s->t = t;
  s->mode = md->mode;
  s->is_event = is_event;
  s->psi = y[0];
  s->s = y[1];
  s->phi = y[2];
  s->psid = y[3];
  s->sd = y[4];
  s->phid = y[5];
  s->N = o.N;
  to_world(y[0], o.Fe, o.Fb, s->F);
  slip_velocity(md, y, s->v);
  s->x = y[1] * cos(y[0]);
  s->y = y[1] * sin(y[0]);
  return 0;
}

static int record_event(model *md, double t, int kind, const double dir[2], double margin) {
  dos_result *r = md->res;
  if (grow((void **)&r->ev, &r->evcap, r->nev, sizeof *r->ev)) return -1;
  r->ev[r->nev++] = (dos_event){.t = t, .kind = kind, .s_dir = {dir[0], dir[1]}, .margin = margin};
  return 0;
}

/* Remove the residual slip velocity by a tangential impulse P at K with the
 * reduced mass matrix: P_e = -m_d v_e, P_b = -v_b / (s^2/I + r^2/C). */
static void remove_residual(const model *md, double *y) {
  const dos_params *p = md->p;
  double s = y[1], I = md->JO + md->A + p->m_d * s * s;
  double vb = s * y[3] + p->r * y[5];
  double Pb = -vb / (s * s / I + p->r * p->r / md->C);
  y[4] = 0.0;
  y[3] += s * Pb / I;
  y[5] += p->r * Pb / md->C;
}

/* Change the slip velocity at K by dv (world) with a tangential impulse,
 * through the same reduced masses as remove_residual. */
static void change_slip(const model *md, double *y, const double dv[2]) {
  const dos_params *p = md->p;
  double s = y[1], I = md->JO + md->A + p->m_d * s * s, c = cos(y[0]), sn = sin(y[0]);
  double dve = dv[0] * c + dv[1] * sn, dvb = -dv[0] * sn + dv[1] * c;
  double Pb = dvb / (s * s / I + p->r * p->r / md->C);
  y[4] += dve;
  y[3] += s * Pb / I;
  y[5] += p->r * Pb / md->C;
}

/* ---- the event-driven run ---- */

int dos_run(const dos_params *p, dos_result *res) {
  memset(res, 0, sizeof *res);
  res->min_N = INFINITY;
  res->min_stick_margin = INFINITY;
  model md = {.p = p, .res = res, .mode = DOS_STICK};
  double rho = p->d_A / 2;
  md.C = p->m_d * p->r * p->r / 2;
  md.A = p->m_d * p->r * p->r / 4;
  md.JO = p->m_A * (3 * rho * rho + p->l_A * p->l_A) / 12 + p->m_A * (p->l_A / 2) * (p->l_A / 2);
  md.G0 = p->g * p->m_A * p->l_A / 2;

  double t = 0.0, y[NY] = {0.0, p->s0, 0.0, 0.0, 0.0, 0.0}, k1[NY], y1[NY], k7[NY], yr[NY], kr[NY];
  double N0;
  if (!(stick_margin(&md, t, y, &N0) > 0)) {
    snprintf(res->error, sizeof res->error, "the initial state is not sticking (margin <= 0)");
    return -1;
  }
  if (record_sample(&md, t, y, 0)) goto nomem;
  double h = 1e-4, g0 = indicator(&md, t, y);
  md.armed = 1;
  long next_k = 1;
  rhs(&md, t, y, k1);
  while (t < p->t_end) {
    if (h > p->t_end - t) h = p->t_end - t;
    if (h < 1e-15) {
      snprintf(res->error, sizeof res->error, "t = %.17g: step size underflow", t);
      return -1;
    }
    double err = dp_step(&md, t, y, k1, h, y1, k7);
    if (!(err <= 1.0)) {
      res->rejected++;
      h *= isfinite(err) ? fmax(0.2, 0.9 * pow(err, -0.2)) : 0.2;
      continue;
    }
    res->steps++;
    double t1 = t + h, g1 = indicator(&md, t1, y1);
    int root = g0 > 0 && g1 <= 0;
    double tr = t1;
    if (root) { /* locate by re-stepping from (t, y): bisection on the step size to t_tol */
      double lo = 0.0, hi = h, glo = g0, ghi = g1;
      while (hi - lo > p->t_tol) {
        /* Illinois-free safeguarded secant: secant point clamped to the middle half */
        double hm = lo + (hi - lo) * glo / (glo - ghi);
        double q = (hi - lo) / 4;
        if (!(hm > lo + q && hm < hi - q)) hm = 0.5 * (lo + hi);
        dp_step(&md, t, y, k1, hm, yr, kr);
        double gm = indicator(&md, t + hm, yr);
        if (gm > 0) {
          lo = hm;
          glo = gm;
        } else {
          hi = hm;
          ghi = gm;
        }
        if (hi - lo <= p->t_tol) break;
        /* plain bisection step too, so the bracket always at least halves */
        double hb = 0.5 * (lo + hi);
        dp_step(&md, t, y, k1, hb, yr, kr);
        double gb = indicator(&md, t + hb, yr);
        if (gb > 0) {
          lo = hb;
          glo = gb;
        } else {
          hi = hb;
          ghi = gb;
        }
      }
      tr = t + hi;
      dp_step(&md, t, y, k1, hi, y1, k7);
      t1 = tr;
    }
    /* grid samples inside (t, t1] */
    if (p->sample_dt > 0) {
      while (next_k * p->sample_dt <= t1 + 1e-12 && next_k * p->sample_dt <= p->t_end + 1e-12) {
        double ts = next_k * p->sample_dt;
        if (ts > t1) ts = t1;
        dp_step(&md, t, y, k1, ts - t, yr, kr);
        if (record_sample(&md, ts, yr, 0)) goto nomem;
        next_k++;
      }
    }
    /* accept */
    t = t1;
    memcpy(y, y1, sizeof y);
    memcpy(k1, k7, sizeof k1);
    {
      dyn o;
      dynamics(&md, t, y, &o);
      if (o.N < res->min_N) res->min_N = o.N;
      if (md.mode == DOS_STICK) {
        double F[2];
        to_world(y[0], o.Fe, o.Fb, F);
        double mg = margin_of(p, o.N, F);
        if (mg < res->min_stick_margin) res->min_stick_margin = mg;
      }
    }
    if (!root) {
      g0 = g1;
      if (md.mode == DOS_SLIP && md.slow && !md.armed && held_speed(&md, y) > 0) {
        md.armed = 1; /* a slip from rest: its stop counts once it has moved */
        g0 = indicator(&md, t, y);
      }
      h *= fmin(5.0, fmax(0.2, 0.9 * pow(fmax(err, 1e-10), -0.2)));
      continue;
    }
    /* ---- event ---- */
    int nev_before = res->nev;
    if (md.mode == DOS_STICK) {
      double dir[2];
      int kind = onset_direction(&md, t, y, dir);
      if (!kind) {
        snprintf(res->error, sizeof res->error, "t = %.17g: no slip-onset direction found", t);
        return -1;
      }
      if (kind == 2) res->vertex_onsets++;
      exact_onset(&md, t, y, dir);
      md.mode = DOS_SLIP;
      md.slow = 1;
      md.s0[0] = dir[0];
      md.s0[1] = dir[1];
      md.armed = 0;
      if (record_event(&md, t, DOS_EV_SLIP, dir, g1)) goto nomem;
    } else {
      double v[2];
      slip_velocity(&md, y, v);
      double sp = hypot(v[0], v[1]), proj = v[0] * md.s0[0] + v[1] * md.s0[1];
      if (!md.slow) {
        /* slowed to half slip_stop_speed: held on the direction it settles
         * on, its velocity across it removed (the fast turning of its free
         * direction would remove it), no event */
        double dir[2] = {v[0] / sp, v[1] / sp};
        quasi_steady(&md, t, y, dir);
        double along = v[0] * dir[0] + v[1] * dir[1];
        double dv[2] = {along * dir[0] - v[0], along * dir[1] - v[1]};
        change_slip(&md, y, dv);
        md.slow = 1;
        md.armed = 1;
        md.s0[0] = dir[0];
        md.s0[1] = dir[1];
      } else if (proj > 0) {
        /* sped up to slip_stop_speed without stopping: free again */
        md.slow = 0;
      } else {
        double ys[NY];
        memcpy(ys, y, sizeof ys);
        remove_residual(&md, ys);
        md.mode = DOS_STICK;
        double mg = stick_margin(&md, t, ys, NULL);
        if (mg > 0) {
          memcpy(y, ys, sizeof ys);
          if (record_event(&md, t, DOS_EV_STICK, v, mg)) goto nomem;
        } else {
          /* sticking is inconsistent: the slip starts again from rest */
          double dir[2];
          res->refused_stops++;
          memcpy(y, ys, sizeof ys);
          if (!onset_direction(&md, t, ys, dir)) {
            dir[0] = sp > 0 ? v[0] / sp : md.s0[0];
            dir[1] = sp > 0 ? v[1] / sp : md.s0[1];
          }
          exact_onset(&md, t, ys, dir);
          md.mode = DOS_SLIP;
          md.slow = 1;
          md.s0[0] = dir[0];
          md.s0[1] = dir[1];
          md.armed = 0;
        }
      }
    }
    if (record_sample(&md, t, y, res->nev > nev_before ? 1 : 3)) goto nomem;
    rhs(&md, t, y, k1);
    g0 = indicator(&md, t, y);

    h = 1e-6;
  }
  if (record_sample(&md, t, y, 2)) goto nomem;
  return 0;
nomem:
  snprintf(res->error, sizeof res->error, "out of memory");
  return -1;
}

void dos_result_free(dos_result *res) {
  free(res->ev);
  free(res->smp);
  memset(res, 0, sizeof *res);
}
