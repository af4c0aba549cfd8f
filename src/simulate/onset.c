/* Slip onsets: the direction a slip takes when it starts from rest, and
 * the friction force it starts on (docs/engine.md, "Slip onset direction").
 *
 * The event problem decides with the friction polygon; the smooth phase
 * uses kinetic friction on the exact circle, -mu lambda_n s. A slip that
 * starts from rest has to take a direction s in which its own tangential
 * acceleration points, a_t(s) = alpha s with alpha > 0, and a stable one;
 * otherwise its velocity turns away from s at once, the friction direction
 * flips with it and the integrator grinds at the discontinuity (steps of
 * 1e-11 s).
 *
 * One onset: a_t(s) x s = 0 is a scalar equation in the angle, scanned and
 * bisected. Several coupled onsets (the rollers of a vehicle's wheels) form
 * a system in their angles: Gauss-Seidel sweeps of the scalar solve, then
 * Newton on the whole system. The slip is then held on s with kinetic
 * friction until its speed reaches slip_stop_speed. If the event problem's
 * slipping set admits no consistent directions on the circle (the
 * polygon's answer is not the circle's), the onsets slip on the event
 * problem's own friction forces instead, up to the same speed. */
#include <math.h>
#include <string.h>

#include "small_lu.h"
#include "sim_impl.h"

#define NSEDI_ONSET_SCAN 72
#define NSEDI_ONSET_SWEEPS 20   /* Gauss-Seidel sweeps at most */
#define NSEDI_ONSET_NEWTON 30   /* Newton iterations at most */
#define NSEDI_ONSET_MAX 8       /* onsets solved jointly; more keep the sweeps' result */
#define NSEDI_ONSET_ALIGNED 1e-9 /* rad: a_t within this angle of s counts as aligned */

typedef struct {
  int n;
  int c[NSEDI_ONSET_MAX];
} onset_set;

static double slip_speed(const nsedi_contact_geom *g) { return hypot(g->row[1].vel, g->row[2].vel); }

static double angle_of(const nsed_data *d, int c) {
  return atan2(d->slip_dir0[2 * c + 1], d->slip_dir0[2 * c]);
}

static void set_angle(nsed_data *d, int c, double th) {
  d->slip_dir0[2 * c] = cos(th);
  d->slip_dir0[2 * c + 1] = sin(th);
}

/* After an evaluation: s0 x a_t and s0 . a_t of contact c, a_t its
 * tangential relative acceleration (s0 . a_t > 0: the slip grows along s0). */
static void onset_products(const nsed_data *d, int c, double *cross, double *dot) {
  const nsedi_contact_geom *g = &d->geom[c];
  double a1 = nsedi_row_accel(&g->row[1], d->du), a2 = nsedi_row_accel(&g->row[2], d->du);
  double s1 = d->slip_dir0[2 * c], s2 = d->slip_dir0[2 * c + 1];
  *cross = s1 * a2 - s2 * a1;
  *dot = s1 * a1 + s2 * a2;
}

/* The angle from contact c's s0 to a_t, and s0 . a_t. */
static double misalignment(const nsed_data *d, int c, double *along) {
  double cross;
  onset_products(d, c, &cross, along);
  return atan2(cross, *along);
}

/* s0 x a_t and s0 . a_t of contact c with its direction set to angle th. */
static int residual_at(const nsed_model *m, nsed_data *d, int c, double th, double *cross,
                       double *dot, nsed_error *err) {
  set_angle(d, c, th);
  int rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
  if (rc) return rc;
  onset_products(d, c, cross, dot);
  return NSED_OK;
}

/* The scalar solve for contact c with the others' directions fixed: a scan
 * of the angle around the current one, then bisection of the nearest
 * bracket with a_t . s > 0 (the plain iteration s <- a_t(s)/|a_t(s)| can
 * cycle). A root where s x a_t falls through zero as s turns
 * counterclockwise is stable: a slip velocity a little off s turns back
 * towards it. At an unstable one the velocity's direction runs away from s
 * as a power of time, within nanoseconds, and the integrator fails; so the
 * nearest stable root wins, the nearest unstable one only if there is no
 * stable one. No bracket: the direction is kept. */
static int align_one(const nsed_model *m, nsed_data *d, int c, double *moved, nsed_error *err) {
  double th0 = angle_of(d, c);
  double best_lo = 0, best_hi = 0, best_dist = INFINITY, f_lo = 0;
  int best_stable = 0;
  double prev_th = th0, prev_cross, prev_dot;
  int rc = residual_at(m, d, c, th0, &prev_cross, &prev_dot, err);
  if (rc) return rc;
  if (prev_cross == 0 && prev_dot > 0) return NSED_OK; /* exact already (1D) */
  for (int k = 1; k <= NSEDI_ONSET_SCAN; k++) {
    double th = th0 + 2 * M_PI * k / NSEDI_ONSET_SCAN, cr, dt;
    rc = residual_at(m, d, c, th, &cr, &dt, err);
    if (rc) return rc;
    if ((cr <= 0) != (prev_cross <= 0) && dt > 0 && prev_dot > 0) {
      double dist = fmin(th - th0, 2 * M_PI - (th - th0));
      int stable = prev_cross > 0;
      if (stable > best_stable || (stable == best_stable && dist < best_dist)) {
        best_dist = dist;
        best_stable = stable;
        best_lo = prev_th;
        best_hi = th;
        f_lo = prev_cross;
      }
    }
    prev_th = th;
    prev_cross = cr;
    prev_dot = dt;
  }
  if (!isfinite(best_dist)) {
    set_angle(d, c, th0);
    return NSED_OK;
  }
  for (int it = 0; it < 60 && best_hi - best_lo > 1e-15; it++) {
    double mid = 0.5 * (best_lo + best_hi), cr, dt;
    rc = residual_at(m, d, c, mid, &cr, &dt, err);
    if (rc) return rc;
    if ((cr <= 0) == (f_lo <= 0)) {
      best_lo = mid;
      f_lo = cr;
    } else {
      best_hi = mid;
    }
  }
  double th = 0.5 * (best_lo + best_hi);
  *moved = fmax(*moved, fabs(remainder(th - th0, 2 * M_PI)));
  set_angle(d, c, th);
  return NSED_OK;
}

/* Worst misalignment of the set's slipping onsets at the current
 * directions (INFINITY if one decelerates along its s0). */
static int worst_misalignment(const nsed_model *m, nsed_data *d, const onset_set *s, double *r,
                              double *worst, nsed_error *err) {
  int rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
  if (rc) return rc;
  *worst = 0;
  for (int i = 0; i < s->n; i++) {
    int c = s->c[i];
    if (d->mode[c] != NSED_MODE_SLIP) {
      r[i] = 0;
      continue;
    }
    double along;
    r[i] = misalignment(d, c, &along);
    *worst = along > 0 ? fmax(*worst, fabs(r[i])) : INFINITY;
  }
  return NSED_OK;
}

/* Newton on the angles of the set's slipping onsets, from the sweeps'
 * directions, with a finite-difference Jacobian. */
static int align_newton(const nsed_model *m, nsed_data *d, const onset_set *s, nsed_error *err) {
  int idx[NSEDI_ONSET_MAX], k = 0;
  for (int i = 0; i < s->n; i++)
    if (d->mode[s->c[i]] == NSED_MODE_SLIP) idx[k++] = i;
  if (k == 0) return NSED_OK;
  double r[NSEDI_ONSET_MAX], rh[NSEDI_ONSET_MAX], J[NSEDI_ONSET_MAX * NSEDI_ONSET_MAX];
  double th[NSEDI_ONSET_MAX], dth[NSEDI_ONSET_MAX], worst;
  int piv[2 * NSEDI_ONSET_MAX];
  const double h = 1e-7;
  for (int it = 0; it < NSEDI_ONSET_NEWTON; it++) {
    int rc = worst_misalignment(m, d, s, r, &worst, err);
    if (rc) return rc;
    if (worst < 1e-3 * NSEDI_ONSET_ALIGNED || !isfinite(worst)) return NSED_OK;
    for (int j = 0; j < k; j++) th[j] = angle_of(d, s->c[idx[j]]);
    for (int j = 0; j < k; j++) {
      set_angle(d, s->c[idx[j]], th[j] + h);
      double w;
      rc = worst_misalignment(m, d, s, rh, &w, err);
      if (rc) return rc;
      for (int i = 0; i < k; i++) J[(size_t)j * k + i] = (rh[idx[i]] - r[idx[i]]) / h;
      set_angle(d, s->c[idx[j]], th[j]);
    }
    if (!(nsedi_small_lu_factor(k, J, piv, piv + k) > 1e-14)) return NSED_OK;
    double step = 0;
    for (int i = 0; i < k; i++) dth[i] = -r[idx[i]];
    nsedi_small_lu_solve(k, J, piv, 1, dth);
    for (int i = 0; i < k; i++) step = fmax(step, fabs(dth[i]));
    double scale = step > 0.5 ? 0.5 / step : 1.0; /* a quarter turn at most */
    for (int i = 0; i < k; i++) set_angle(d, s->c[idx[i]], th[i] + scale * dth[i]);
  }
  return NSED_OK;
}

/* Align the set's slipping onsets: sweeps, then Newton if still coupled. */
static int align(const nsed_model *m, nsed_data *d, const onset_set *s, nsed_error *err) {
  int slipping = 0;
  for (int i = 0; i < s->n; i++) slipping += d->mode[s->c[i]] == NSED_MODE_SLIP;
  for (int sweep = 0; sweep < (slipping > 1 ? NSEDI_ONSET_SWEEPS : 1); sweep++) {
    double moved = 0;
    for (int i = 0; i < s->n; i++) {
      if (d->mode[s->c[i]] != NSED_MODE_SLIP) continue;
      int rc = align_one(m, d, s->c[i], &moved, err);
      if (rc) return rc;
    }
    if (moved < 1e-13) break;
  }
  return slipping > 1 ? align_newton(m, d, s, err) : NSED_OK;
}

/* Each slipping onset's direction is stable on its own: turning its s0 a
 * little counterclockwise turns a_t clockwise of it (the diagonal of the
 * Jacobian of the misalignments; for one onset that is the whole story). */
static int stable(const nsed_model *m, nsed_data *d, const onset_set *s, const double *r,
                  int *ok, nsed_error *err) {
  const double h = 1e-7;
  *ok = 1;
  for (int i = 0; *ok && i < s->n; i++) {
    int c = s->c[i];
    if (d->mode[c] != NSED_MODE_SLIP) continue;
    double th = angle_of(d, c), along;
    set_angle(d, c, th + h);
    int rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
    if (rc) return rc;
    *ok = misalignment(d, c, &along) - r[i] < 0;
    set_angle(d, c, th);
  }
  return NSED_OK;
}

/* The onsets' directions are consistent: every slipping onset aligned,
 * accelerating along s0 and stable, every closed contact pushing. Leaves
 * the caches evaluated. */
static int consistent(const nsed_model *m, nsed_data *d, const onset_set *s, int *ok,
                      nsed_error *err) {
  double r[NSEDI_ONSET_MAX], worst;
  int rc = worst_misalignment(m, d, s, r, &worst, err);
  if (rc) return rc;
  int steady = 0;
  if (worst < NSEDI_ONSET_ALIGNED) {
    rc = stable(m, d, s, r, &steady, err);
    if (rc == NSED_OK) rc = worst_misalignment(m, d, s, r, &worst, err); /* the caches */
    if (rc) return rc;
  }
  double fscale = 1e-300;
  for (int q = 0; q < m->nv; q++) fscale = fmax(fscale, fabs(d->f[q]));
  double tol = 1e-9 * fscale;
  *ok = steady && worst < NSEDI_ONSET_ALIGNED;
  for (int c = 0; *ok && c < m->ncontact; c++)
    if (d->mode[c] != NSED_MODE_OPEN && m->contact[c].def.law != NSED_CONTACT_COMPLIANT)
      *ok = d->lambda_c[3 * c] >= -tol;
  return NSED_OK;
}

/* Hold the set's slipping onsets on their aligned directions s0 with
 * kinetic friction mu until their speed reaches slip_stop_speed: below it
 * the velocity's direction is round-off and the turning-stop indicator a
 * hair trigger (it fires at |v| = 2 slip_stop_speed (1 - cos(turn))). */
static void lock_aligned(const nsed_model *m, nsed_data *d, const onset_set *s) {
  for (int k = 0; k < s->n; k++) {
    int c = s->c[k];
    if (d->mode[c] != NSED_MODE_SLIP) continue;
    d->onset_lock[c] = 1;
    d->lock_mu[c] = m->contact[c].def.mu;
  }
}

/* Lock the set's onsets on the event problem's forces: direction
 * -lambda_t/|lambda_t| and ratio |lambda_t|/lambda_n of its solution. */
static void lock_onsets(nsed_data *d, const onset_set *s) {
  for (int k = 0; k < s->n; k++)
    for (int i = 0; i < d->nacc; i++) {
      if (d->cand[i] != s->c[k]) continue;
      const double *l = d->cl + 3 * i;
      double lt = hypot(l[1], l[2]);
      if (!(l[0] > 0 && lt > 0)) break;
      d->onset_lock[s->c[k]] = 1;
      d->lock_mu[s->c[k]] = lt / l[0];
      d->slip_dir0[2 * s->c[k]] = -l[1] / lt;
      d->slip_dir0[2 * s->c[k] + 1] = -l[2] / lt;
      break;
    }
}

int nsedi_onset_resolve(const nsed_model *m, nsed_data *d, nsed_error *err) {
  onset_set s = {0};
  int more = 0;
  for (int c = 0; c < m->ncontact; c++) {
    const nsed_contact_def *cd = &m->contact[c].def;
    if (d->mode[c] != NSED_MODE_SLIP || cd->law != NSED_CONTACT_COULOMB ||
        (cd->mu == 0 && cd->mu0 == 0) || slip_speed(&d->geom[c]) > m->opt.slip_tol)
      continue; /* frictionless: no direction to choose */
    if (s.n < NSEDI_ONSET_MAX)
      s.c[s.n++] = c;
    else
      more = 1;
  }
  if (s.n == 0) return nsedi_eval(m, d, d->t, d->x, NULL, err);
  double dir0[2 * NSEDI_ONSET_MAX];
  for (int i = 0; i < s.n; i++) {
    dir0[2 * i] = d->slip_dir0[2 * s.c[i]];
    dir0[2 * i + 1] = d->slip_dir0[2 * s.c[i] + 1];
  }
  int ok = 0, rc = align(m, d, &s, err);
  if (rc == NSED_OK) rc = consistent(m, d, &s, &ok, err);
  if (rc) return rc;
  if (ok) {
    lock_aligned(m, d, &s);
  } else if (!more) {
    /* No consistent directions on the circle (a Painleve-like
     * indeterminacy of rigid rollers: the circle admits no mode while the
     * polygon does): the onsets slip on the event problem's own friction
     * forces, whose accelerations are the event problem's, each slip
     * growing within the polygon's normal cone at its force. */
    for (int i = 0; i < s.n; i++) {
      d->slip_dir0[2 * s.c[i]] = dir0[2 * i];
      d->slip_dir0[2 * s.c[i] + 1] = dir0[2 * i + 1];
    }
    lock_onsets(d, &s);
  }
  return nsedi_eval(m, d, d->t, d->x, NULL, err);
}
