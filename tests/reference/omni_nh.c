/* Nonholonomic omni vehicle (see omni_nh.h and docs/omni-vehicle.md, "The
 * nonholonomic reference model").
 *
 * Body quasi-velocities w = (u, v, omega), a_i = (t_i, d) in the platform
 * frame (with inclined rollers a_i = (t_i + kappa e_i, d + s), see omni_nh.h),
 * so the constraint reads phidot_i = -a_i . w / R. With
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

#include "dp45_tableau.h"

#include <float.h>
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
  double t[OMNI_NH_MAX_WHEELS][2], e[OMNI_NH_MAX_WHEELS][2]; /* platform frame */
  double pos[OMNI_NH_MAX_WHEELS][2]; /* wheel centres, platform frame */
  double lever[OMNI_NH_MAX_WHEELS];  /* (z x p_i) . t_i: a yaw rate's velocity along t_i */
  double cross_lever[OMNI_NH_MAX_WHEELS]; /* (z x p_i) . e_i: and along e_i */
  double psi[OMNI_NH_MAX_WHEELS];    /* each wheel's roller inclination */
  double alpha;                /* half a roller's sector, pi / n; 0: infinitely many rollers */
  int jumps;                   /* finitely many inclined rollers: handovers are events */
  double K0[3][3];
  double L[3][3];              /* Cholesky factor of K at phi = 0 */
  int sector[OMNI_NH_MAX_WHEELS]; /* the roller touching, per wheel (rollers > 0) */
  long handovers;
  double loss;
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
  if (!(fabs(p->psi) < M_PI / 2)) return 0;
  if (p->layout != 0 && p->layout != 1) return 0;
  if (p->layout == 1)
    for (int i = 0; i < p->nwheels; i++)
      if (!isfinite(p->pos[i][0]) || !isfinite(p->pos[i][1]) || !isfinite(p->axle[i]) ||
          !(fabs(p->psi_of[i]) < M_PI / 2))
        return 0;
  if (p->rollers != 0 && (p->rollers < 3 || p->rollers > 100)) return 0;
  return 1;
}

/* The touching roller's turn q from the bottom; 0 where q does not matter
 * (psi = 0: the constraint is q-free; infinitely many rollers: q = 0). */
static double roller_turn(const model *md, int i, double phi) {
  return md->jumps ? phi - 2 * md->alpha * md->sector[i] : 0.0;
}

/* Wheel i's constraint row a = (t + kappa e, d + s) at the roller turn q,
 * and da/dq (docs/omni-vehicle.md, "Inclined rollers"); with infinitely
 * many rollers the row is constant. */
static void constraint_row(const model *md, int i, double q, double a[3], double da[3]) {
  const omni_nh_params *p = md->p;
  double tp = tan(md->psi[i]), c = cos(q), R1 = p->R * cos(md->alpha);
  double kappa = tp / c, s = -R1 * tan(q) * tp;
  double dkappa = md->jumps ? tp * sin(q) / (c * c) : 0.0;
  double ds = md->jumps ? -R1 * tp / (c * c) : 0.0;
  for (int r = 0; r < 2; r++) {
    a[r] = md->t[i][r] + kappa * md->e[i][r];
    da[r] = dkappa * md->e[i][r];
  }
  a[2] = md->lever[i] + kappa * md->cross_lever[i] + s;
  da[2] = dkappa * md->cross_lever[i] + ds;
}

/* The wheels' places, axles and rollers' inclinations, from either layout. */
static void layout_wheels(model *md) {
  const omni_nh_params *p = md->p;
  for (int i = 0; i < p->nwheels; i++) {
    double ang = p->layout ? p->axle[i] : p->beta[i];
    md->e[i][0] = cos(ang);
    md->e[i][1] = sin(ang);
    md->t[i][0] = -md->e[i][1];
    md->t[i][1] = md->e[i][0];
    md->pos[i][0] = p->layout ? p->pos[i][0] : p->d * md->e[i][0];
    md->pos[i][1] = p->layout ? p->pos[i][1] : p->d * md->e[i][1];
    md->psi[i] = p->layout ? p->psi_of[i] : p->psi;
    /* z x p = (-p_y, p_x) */
    double zp[2] = {-md->pos[i][1], md->pos[i][0]};
    md->lever[i] = zp[0] * md->t[i][0] + zp[1] * md->t[i][1];
    md->cross_lever[i] = zp[0] * md->e[i][0] + zp[1] * md->e[i][1];
  }
}

static void build_K0(model *md) {
  const omni_nh_params *p = md->p;
  int N = p->nwheels;
  double M = p->m_platform + N * p->m_wheel, I = p->I_platform, S[2] = {0, 0};
  for (int i = 0; i < N; i++) {
    double r2 = md->pos[i][0] * md->pos[i][0] + md->pos[i][1] * md->pos[i][1];
    I += p->m_wheel * r2 + p->J_diam;
    S[0] -= md->pos[i][1]; /* sum z x p_i */
    S[1] += md->pos[i][0];
  }
  memset(md->K0, 0, sizeof md->K0);
  md->K0[0][0] = md->K0[1][1] = M;
  md->K0[2][2] = I;
  /* The wheels' masses sit off the platform centre unless sum p_i = 0. */
  md->K0[0][2] = md->K0[2][0] = p->m_wheel * S[0];
  md->K0[1][2] = md->K0[2][1] = p->m_wheel * S[1];
}

/* K = K0 + (J_a / R^2) sum_i a_i a_i^T for the rows a[0..N). */
static void build_K(const model *md, const double a[][3], double K[3][3]) {
  const omni_nh_params *p = md->p;
  double g = p->J_axial / (p->R * p->R);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++) {
      K[r][c] = md->K0[r][c];
      for (int i = 0; i < p->nwheels; i++) K[r][c] += g * a[i][r] * a[i][c];
    }
}

/* The rows at the wheels' angles phi (NULL: every roller at the bottom). */
static void rows_at(const model *md, const double *phi, double a[][3], double da[][3]) {
  for (int i = 0; i < md->p->nwheels; i++)
    constraint_row(md, i, phi ? roller_turn(md, i, phi[i]) : 0.0, a[i], da[i]);
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
  double K[3][3], a[OMNI_NH_MAX_WHEELS][3], da[OMNI_NH_MAX_WHEELS][3];
  memset(md, 0, sizeof *md);
  md->p = p;
  md->n = 6 + p->nwheels;
  md->alpha = p->rollers > 0 ? M_PI / p->rollers : 0.0;
  layout_wheels(md);
  md->jumps = 0;
  for (int i = 0; i < p->nwheels; i++) md->jumps |= p->rollers > 0 && md->psi[i] != 0;
  build_K0(md);
  rows_at(md, NULL, a, da);
  build_K(md, a, K);
  return cholesky3(K, md->L);
}

int omni_nh_check(const omni_nh_params *p) {
  model md;
  return model_init(p, &md);
}

int omni_nh_mass_matrix(const omni_nh_params *p, double K[3][3]) {
  model md;
  int rc = model_init(p, &md);
  if (rc == OMNI_NH_OK) {
    double a[OMNI_NH_MAX_WHEELS][3], da[OMNI_NH_MAX_WHEELS][3];
    rows_at(&md, NULL, a, da);
    build_K(&md, a, K);
  }
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

static void wheel_rates(const model *md, const double w[3], const double *phi, double *phidot) {
  for (int i = 0; i < md->p->nwheels; i++) {
    double a[3], da[3];
    constraint_row(md, i, roller_turn(md, i, phi[i]), a, da);
    phidot[i] = -dot3(a, w) / md->p->R;
  }
}

/* K(phi) w' = ad*_w(K0 w) - sum_i a_i (tau_i / R + (J_a / R^2) b_i), where
 * b_i = phidot_i (da_i/dq . w) is the rate of the row a_i along the motion
 * (zero unless finitely many inclined rollers make a_i depend on phi_i). */
static void rhs(const model *md, double t, const double *y, double *dy) {
  const omni_nh_params *p = md->p;
  const double *w = y + 3;
  double c = cos(y[2]), s = sin(y[2]), g = p->J_axial / (p->R * p->R);
  double pm[3], f[3], a[OMNI_NH_MAX_WHEELS][3], da[OMNI_NH_MAX_WHEELS][3];
  dy[0] = c * w[0] - s * w[1];
  dy[1] = s * w[0] + c * w[1];
  dy[2] = w[2];
  for (int r = 0; r < 3; r++) pm[r] = dot3(md->K0[r], w);
  f[0] = w[2] * pm[1];
  f[1] = -w[2] * pm[0];
  f[2] = w[1] * pm[0] - w[0] * pm[1];
  rows_at(md, y + 6, a, da);
  for (int i = 0; i < p->nwheels; i++) {
    double phidot = -dot3(a[i], w) / p->R;
    double load = g * phidot * dot3(da[i], w);
    if (p->torque) load += p->torque(i, t, p->ctx) / p->R;
    for (int r = 0; r < 3; r++) f[r] -= a[i][r] * load;
    dy[6 + i] = phidot;
  }
  if (md->jumps) {
    double K[3][3], L[3][3];
    build_K(md, a, K);
    cholesky3(K, L); /* K0 is positive definite, the rest semidefinite */
    cholesky3_solve(L, f, dy + 3);
  } else {
    cholesky3_solve(md->L, f, dy + 3);
  }
}

/* 0 if every phi_i lies in its sector (to round-off), as advance needs. */
static int pack(model *md, const omni_nh_state *s, double *y) {
  int nw = md->p->nwheels;
  y[0] = s->x;
  y[1] = s->y;
  y[2] = s->theta;
  to_body(s->theta, s->vx, s->vy, &y[3], &y[4]);
  y[5] = s->omega;
  memcpy(y + 6, s->phi, (size_t)nw * sizeof(double));
  memcpy(md->sector, s->sector, sizeof md->sector);
  md->handovers = s->handovers;
  md->loss = s->handover_loss;
  if (!md->jumps) return 0;
  for (int i = 0; i < nw; i++)
    if (!(fabs(roller_turn(md, i, y[6 + i])) <= md->alpha * (1 + 1e-12))) return -1;
  return 0;
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
  memcpy(s->sector, md->sector, sizeof s->sector);
  s->handovers = md->handovers;
  s->handover_loss = md->loss;
  wheel_rates(md, y + 3, y + 6, s->phidot);
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


/* One step from (t, y) with k[0] = f(t, y); y1 is the 5th-order solution
 * and k[6] = f(t + h, y1) (FSAL). Returns the scaled max-norm error. */
static double dp_step(const model *md, double t, const double *y, double h, double k[7][NQ],
                      double *y1, double tol) {
  double yt[NQ];
  int n = md->n;
  for (int s = 1; s < 7; s++) {
    for (int j = 0; j < n; j++) {
      double acc = 0;
      for (int r = 0; r < s; r++) acc += DP45_A[s][r] * k[r][j];
      yt[j] = y[j] + h * acc;
    }
    rhs(md, t + DP45_C[s] * h, yt, k[s]);
  }
  memcpy(y1, yt, (size_t)n * sizeof(double)); /* stage 7 is the solution */
  double err = 0;
  for (int j = 0; j < n; j++) {
    double e = 0;
    for (int s = 0; s < 7; s++) e += DP45_E[s] * k[s][j];
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

/* How far wheel i's roller turn lies past the sector edge sgn alpha. */
static double past_edge(const model *md, int i, int sgn, const double *y) {
  return sgn * roller_turn(md, i, y[6 + i]) - md->alpha;
}

/* The step length from (t, y) (k[0] = f(t, y)) at which wheel i's turn
 * reaches the edge sgn alpha, given that the step of length hs crosses it:
 * the Illinois method on the step length, each trial a fresh step from
 * (t, y), to round-off in time. The step at the returned length (at or just
 * past the edge) leaves its end state in y1. */
static double locate_handover(const model *md, int i, int sgn, double t, const double *y,
                              double hs, double k[7][NQ], double *y1, double tol) {
  double lo = 0, hi = hs, glo = past_edge(md, i, sgn, y);
  if (glo >= 0) {
    memcpy(y1, y, (size_t)md->n * sizeof(double));
    return 0.0;
  }
  dp_step(md, t, y, hs, k, y1, tol);
  double ghi = past_edge(md, i, sgn, y1);
  int side = 0;
  for (int it = 0; it < 200 && ghi > 0; it++) {
    if (fabs(hi - lo) <= 4 * DBL_EPSILON * (fabs(t) + fabs(hs))) break;
    double h = lo - glo * (hi - lo) / (ghi - glo);
    if (!(fabs(h) > fabs(lo) && fabs(h) < fabs(hi))) h = 0.5 * (lo + hi);
    dp_step(md, t, y, h, k, y1, tol);
    double g = past_edge(md, i, sgn, y1);
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

static double kinetic_energy(const model *md, const double w[3], const double *phidot) {
  double T = 0;
  for (int r = 0; r < 3; r++) T += 0.5 * w[r] * dot3(md->K0[r], w);
  for (int i = 0; i < md->p->nwheels; i++) T += 0.5 * md->p->J_axial * phidot[i] * phidot[i];
  return T;
}

/* Wheel i hands over to its next roller (sgn = +1: turning forwards): the
 * plastic impulse that makes every wheel's constraint hold with the new
 * row. Generalised momentum changes only along the rows a_j^+:
 *   K0 (w+ - w-) = sum_j Lambda_j a_j^+,  J_a (phidot_j+ - phidot_j-) = R Lambda_j,
 * with phidot_j+ = -a_j^+ . w+ / R, so K(phi+) w+ = K0 w- - (J_a / R) sum_j
 * a_j^+ phidot_j-. The wheel must then turn into the new roller's sector. */
static int handover(model *md, int i, int sgn, double *y) {
  const omni_nh_params *p = md->p;
  int N = p->nwheels;
  double *w = y + 3, a[OMNI_NH_MAX_WHEELS][3], da[OMNI_NH_MAX_WHEELS][3];
  double rate[OMNI_NH_MAX_WHEELS], K[3][3], L[3][3], b[3];
  y[6 + i] = 2 * md->alpha * md->sector[i] + sgn * md->alpha; /* on the edge, not past it */
  wheel_rates(md, w, y + 6, rate);
  double E0 = kinetic_energy(md, w, rate);
  md->sector[i] += sgn;
  rows_at(md, y + 6, a, da);
  build_K(md, a, K);
  if (cholesky3(K, L) != OMNI_NH_OK) return OMNI_NH_ESINGULAR;
  for (int r = 0; r < 3; r++) {
    b[r] = dot3(md->K0[r], w);
    for (int j = 0; j < N; j++) b[r] -= p->J_axial / p->R * a[j][r] * rate[j];
  }
  cholesky3_solve(L, b, w);
  wheel_rates(md, w, y + 6, rate);
  if (!(sgn * rate[i] > 0)) return OMNI_NH_EHANDOVER;
  md->loss += E0 - kinetic_energy(md, w, rate);
  md->handovers++;
  return OMNI_NH_OK;
}

/* The accepted step of length hs from (t, y) ended at y1: if a wheel left
 * its sector, cut the step back to the first such crossing (y1 then holds
 * the state there) and return its wheel, with its direction in *sgn; else
 * -1. */
static int first_handover(const model *md, double t, const double *y, double *hs,
                          double k[7][NQ], double *y1, double tol, int *sgn) {
  int hit = -1;
  double best = *hs;
  for (int i = 0; i < md->p->nwheels; i++) {
    double q = roller_turn(md, i, y1[6 + i]);
    int s = q > md->alpha ? 1 : q < -md->alpha ? -1 : 0;
    if (!s) continue;
    double hc = locate_handover(md, i, s, t, y, *hs, k, y1, tol);
    if (hit < 0 || fabs(hc) < fabs(best)) {
      hit = i;
      best = hc;
      *sgn = s;
    }
    dp_step(md, t, y, *hs, k, y1, tol); /* back to the full step for the next wheel */
  }
  if (hit >= 0) {
    *hs = best;
    dp_step(md, t, y, best, k, y1, tol);
  }
  return hit;
}

static int integrate(model *md, double t0, double *y, double t1, double tol, double *hio) {
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
      int sgn = 0, wheel = md->jumps ? first_handover(md, t, y, &hs, k, y1, tol, &sgn) : -1;
      if (wheel >= 0) {
        /* The step ends at the handover; a handover at t1 itself counts. */
        t = (last && hs == t1 - t) ? t1 : t + hs;
        memcpy(y, y1, (size_t)n * sizeof(double));
        int rc = handover(md, wheel, sgn, y);
        if (rc != OMNI_NH_OK) return rc;
        rhs(md, t, y, k[0]);
        if (t == t1) {
          *hio = h;
          return OMNI_NH_OK;
        }
        continue;
      }
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
  if (pack(&md, s, y)) return OMNI_NH_EARG;
  /* The plastic handover impulse is not reversible. */
  if (md.jumps && t1 < s->t) return OMNI_NH_EARG;
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
  return kinetic_energy(&md, w, s->phidot);
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
  if (p->torque || p->layout || !balanced(p) || (p->rollers > 0 && p->psi != 0))
    return OMNI_NH_ENOTSYM;
  int N = p->nwheels;
  /* Infinitely many rollers: the rows (t_i + kappa e_i, d) add
   * (1 + kappa^2) N/2 to the planar block of sum a a^T, no cross terms. */
  double kappa = tan(p->psi);
  double M = p->m_platform + N * p->m_wheel;
  double Mstar = M + 0.5 * N * (1 + kappa * kappa) * p->J_axial / (p->R * p->R);
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
    double ti[2] = {-sin(p->beta[i]) + kappa * cos(p->beta[i]),
                    cos(p->beta[i]) + kappa * sin(p->beta[i])};
    r.phi[i] = s0->phi[i] - (p->d * W0 * tau + ti[0] * Wint[0] + ti[1] * Wint[1]) / p->R;
    r.phidot[i] = -(p->d * W0 + ti[0] * wb[0] + ti[1] * wb[1]) / p->R;
  }
  *out = r;
  return OMNI_NH_OK;
}
