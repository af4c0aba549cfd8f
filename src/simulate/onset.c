/* Event stage "directions": the direction each new slip is held on and the
 * direction of slips slowing into the slow hold (docs/engine.md, "Slip
 * direction"; which slips enter the hold or are released, the regimes
 * stage decides before the event problem: slip_regime.c).
 *
 * A held slip's friction is -mu lambda_n s with s fixed. Its direction is
 * consistent when the slip's own tangential acceleration a_t(s) is along s
 * (s x a_t = 0): a scan and a bisection of that angle for one slip (on
 * its response fitted from three evaluations, slip_response.c, the root
 * checked by a fourth; on evaluations where the check fails),
 * Gauss-Seidel sweeps and then Newton for coupled ones (two wheels of a
 * vehicle saturating together), and if that fails, Newton again on s x a_t
 * itself, smooth where the angle is not (onsets whose accelerations all
 * start at zero together: a face sliding off at mu0 = mu). A root is
 * stable when s x a_t falls through zero as s turns counterclockwise (a
 * velocity a little off s turns back to it); the nearest stable root wins. A slip starting from
 * rest (an onset) must also accelerate along s; at mu0 = mu its
 * acceleration starts at zero (the kinetic friction equals the saturated
 * stick force) and grows, which is consistent too. A slip slowing to
 * slip_stop_speed is held on its quasi-steady direction (decelerating
 * along s) until it stops: free, its direction would turn at a rate
 * ~ 1/|v|, too stiff to integrate; its transverse velocity, which that
 * fast turning would remove, is removed by the settling impulse. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "slip_response.h"
#include "small_lu.h"
#include "sim_impl.h"
#include "tolerances.h"

#define DIR_SWEEPS 20  /* Gauss-Seidel sweeps at most */
#define DIR_NEWTON 30  /* Newton iterations at most */
#define DIR_MAX 8      /* directions aligned jointly; more keep the sweeps' result */

typedef struct {
  int n;
  int c[DIR_MAX];
  int onset[DIR_MAX]; /* from rest: must accelerate along its direction */
} dir_set;

static double angle_of(const nsed_data *d, int c) { return atan2(d->ph.dir[2 * c + 1], d->ph.dir[2 * c]); }

static void set_angle(nsed_data *d, int c, double th) {
  d->ph.dir[2 * c] = cos(th);
  d->ph.dir[2 * c + 1] = sin(th);
}

/* After an evaluation: s x a_t and s . a_t of contact c. */
static void products(const nsed_data *d, int c, double *cross, double *dot) {
  const nsedi_contact_geom *g = &d->cache.geom[c];
  double a1 = nsedi_row_accel(&g->row[1], d->cache.du), a2 = nsedi_row_accel(&g->row[2], d->cache.du);
  double s1 = d->ph.dir[2 * c], s2 = d->ph.dir[2 * c + 1];
  *cross = s1 * a2 - s2 * a1;
  *dot = s1 * a1 + s2 * a2;
}

static int residual_at(const nsed_model *m, nsed_data *d, int c, double th, double *cross,
                       double *dot, nsed_error *err) {
  set_angle(d, c, th);
  d->ev.line_evals++;
  int rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
  if (rc) return rc;
  products(d, c, cross, dot);
  return NSED_OK;
}

/* How far below zero an onset's acceleration along s may be and still
 * count as accelerating. At mu0 = mu an onset starts with zero
 * acceleration, known only to within two things that are not physics:
 * round-off, the force floor over the contact's effective mass along s
 * (1/G_ss, from the event problem); and, for a contact that was sticking,
 * the stick's velocity stabilisation. A stick holds its tangential
 * acceleration at -gamma v_t, v_t its residual velocity (integration
 * error), so its friction, and with it the saturation root, carries the
 * force that acceleration takes: the slip then starts with up to
 * gamma |v_t| less acceleration than the physics gives (docs/engine.md,
 * "Stick to slip"). */
/* G_ss: contact c's tangential inverse mass along its direction s, from
 * the event problem (0 if it is not in it). */
static double inverse_mass_along(const nsed_data *d, int c) {
  const nsedi_event_ws *ev = &d->ev;
  for (int i = 0; i < ev->na; i++) {
    if (ev->cand[i] != c) continue;
    size_t n3 = (size_t)ev->ldg, r1 = 3 * (size_t)i + 1, r2 = r1 + 1;
    double s1 = d->ph.dir[2 * c], s2 = d->ph.dir[2 * c + 1];
    const double *G = ev->G;
    return fmax(s1 * s1 * G[r1 * n3 + r1] + 2 * s1 * s2 * G[r2 * n3 + r1] + s2 * s2 * G[r2 * n3 + r2], 0.0);
  }
  return 0.0;
}

static double accel_floor(const nsed_model *m, const nsed_data *d, int c) {
  const nsedi_event_ws *ev = &d->ev;
  double stabilised = ev->prev_mode[c] == NSED_MODE_STICK
                          ? m->opt.baumgarte_gamma * nsedi_slip_speed(&d->cache.geom[c])
                          : 0.0;
  return NSEDI_FORCE_FLOOR * ev->fscale * inverse_mass_along(d, c) + stabilised;
}

/* Keep each onset's acceleration floor for the anchor stage. */
static void keep_floors(const nsed_model *m, nsed_data *d, const dir_set *s) {
  for (int i = 0; i < s->n; i++) d->ev.accel_floor[s->c[i]] = accel_floor(m, d, s->c[i]);
}

/* A sign change of s x a_t between two scanned angles. */
typedef struct {
  double lo, hi, f_lo, dist;
  int stable, tried;
} bracket;

/* Angular distance of th from th0 in [0, pi]. */
static double ang_dist(double th, double th0) { return fabs(remainder(th - th0, 2 * M_PI)); }

/* Contact c's s x a_t and s . a_t as functions of its direction's angle:
 * evaluated, or from its fitted response (model non-NULL). */
typedef struct {
  const nsed_model *m;
  nsed_data *d;
  int c;
  const nsedi_slip_response *model;
} line_fn;

enum { LINE_OFF_MODEL = 1 }; /* the model has no value there (its lambda_n unbounded) */

static int line_at(const line_fn *l, double th, double *cross, double *dot, nsed_error *err) {
  if (!l->model) return residual_at(l->m, l->d, l->c, th, cross, dot, err);
  double mag;
  return nsedi_slip_response_at(l->model, th, cross, dot, &mag) ? LINE_OFF_MODEL : NSED_OK;
}

/* Bisect bracket b to NSEDI_LINE_BISECT; returns the angle and the
 * along-s acceleration there in *dot. */
static int bisect(const line_fn *l, bracket b, double *th, double *dot, nsed_error *err) {
  double cr;
  for (int it = 0; it < 60 && b.hi - b.lo > NSEDI_LINE_BISECT; it++) {
    double mid = 0.5 * (b.lo + b.hi);
    int rc = line_at(l, mid, &cr, dot, err);
    if (rc) return rc; /* NSED_ERR_SINGULAR: the bracket holds a pole */
    if ((cr <= 0) == (b.f_lo <= 0)) {
      b.lo = mid;
      b.f_lo = cr;
    } else {
      b.hi = mid;
    }
  }
  *th = 0.5 * (b.lo + b.hi);
  return line_at(l, *th, &cr, dot, err);
}

/* A scan of the angle from th0 (where s x a_t is cross0) for sign changes
 * of s x a_t, then bisection of the brackets in order (stable before
 * unstable, nearest first) until a root qualifies: an onset's must
 * accelerate along s (the accelerating cone of a slip at mu0 ~ mu is
 * narrower than the scan's step), a slowing slip's must lie within a
 * quarter turn of where it was. *found 0: none qualifies. */
static int scan_line(const line_fn *l, double th0, double cross0, int onset, double afl, double *th_out,
                     int *found, nsed_error *err) {
  double prev_th = th0, prev_cross = cross0;
  bracket br[NSEDI_LINE_SCAN];
  int nb = 0;
  *found = 0;
  for (int k = 1; k <= NSEDI_LINE_SCAN; k++) {
    double th = th0 + 2 * M_PI * k / NSEDI_LINE_SCAN, cr, dt;
    int rc = line_at(l, th, &cr, &dt, err);
    /* A direction whose equations are singular (its load unbounded: on a
     * wheel held on its sector edge, the slip whose friction no longer
     * turns the wheel) is a pole of the response, not a root: no bracket
     * spans it. */
    if (rc == NSED_ERR_SINGULAR) {
      prev_th = th;
      prev_cross = NAN;
      continue;
    }
    if (rc) return rc;
    if (!isnan(prev_cross) && (cr <= 0) != (prev_cross <= 0)) {
      bracket b = {.lo = prev_th, .hi = th, .f_lo = prev_cross, .stable = prev_cross > 0,
                   .dist = fmin(ang_dist(prev_th, th0), ang_dist(th, th0))};
      if (onset || b.dist < 0.5 * M_PI) br[nb++] = b;
    }
    prev_th = th;
    prev_cross = cr;
  }
  for (int tries = 0; tries < nb; tries++) {
    int best = -1;
    for (int i = 0; i < nb; i++)
      if (!br[i].tried && (best < 0 || br[i].stable > br[best].stable ||
                           (br[i].stable == br[best].stable && br[i].dist < br[best].dist)))
        best = i;
    double th, dot;
    int rc = bisect(l, br[best], &th, &dot, err);
    br[best].tried = 1;
    if (rc == NSED_ERR_SINGULAR) continue; /* a pole between two samples */
    if (rc) return rc;
    if (onset && dot < afl) continue;
    *th_out = th;
    *found = 1;
    return NSED_OK;
  }
  return NSED_OK;
}

/* Contact c's tangential acceleration and normal multiplier after an
 * evaluation. */
static void response_sample(const nsed_data *d, int c, double *lam, double *a) {
  const nsedi_contact_geom *g = &d->cache.geom[c];
  a[0] = nsedi_row_accel(&g->row[1], d->cache.du);
  a[1] = nsedi_row_accel(&g->row[2], d->cache.du);
  *lam = d->cache.lambda_c[3 * c];
}

/* The direction's search on contact c's response fitted from th0 (already
 * evaluated: lam0, a0) and two more evaluations a third of a turn either
 * side, its answer checked by an evaluation there: the scan's 72 angles
 * and the bisection's 50 cost three evaluations and a check instead of
 * 120. *found 1: the model's root, evaluated, agrees with the model to
 * NSEDI_LINE_MODEL_TOL of the acceleration (and an onset's accelerates);
 * 0: the caller searches on evaluations. */
static int scan_on_response(const nsed_model *m, nsed_data *d, int c, double th0, double lam0,
                            const double *a0, int onset, double afl, double *th_out, int *found,
                            nsed_error *err) {
  double th[3] = {th0, th0 + 2 * M_PI / 3, th0 - 2 * M_PI / 3}, lam[3] = {lam0}, a[6] = {a0[0], a0[1]};
  double cr, dt;
  *found = 0;
  for (int k = 1; k < 3; k++) {
    int rc = residual_at(m, d, c, th[k], &cr, &dt, err);
    if (rc) return rc;
    response_sample(d, c, &lam[k], &a[2 * k]);
  }
  nsedi_slip_response model;
  if (nsedi_slip_response_fit(th, lam, a, &model)) return NSED_OK;
  line_fn l = {m, d, c, &model};
  double cross0, dot0, mag, th_root;
  if (nsedi_slip_response_at(&model, th0, &cross0, &dot0, &mag)) return NSED_OK;
  int rc = scan_line(&l, th0, cross0, onset, afl, &th_root, found, err);
  if (rc == LINE_OFF_MODEL) {
    *found = 0;
    return NSED_OK;
  }
  if (rc || !*found) return rc;
  double pc, pd, pmag, ec, ed;
  *found = 0;
  if (nsedi_slip_response_at(&model, th_root, &pc, &pd, &pmag)) return NSED_OK;
  rc = residual_at(m, d, c, th_root, &ec, &ed, err);
  if (rc) return rc;
  double tol = NSEDI_LINE_MODEL_TOL * fmax(pmag, hypot(ec, ed));
  if (fabs(ec - pc) <= tol && fabs(ed - pd) <= tol && !(onset && ed < afl)) {
    *th_out = th_root;
    *found = 1;
  }
  return NSED_OK;
}

/* The scalar solve for contact c with the others' directions fixed: the
 * root of s x a_t that scan_line picks, found on the contact's fitted
 * response and checked, or else on evaluations. None: the direction is
 * kept and *found is 0. */
static int align_one(const nsed_model *m, nsed_data *d, int c, int onset, double *moved, int *found,
                     nsed_error *err) {
  double th0 = angle_of(d, c), afl = -accel_floor(m, d, c);
  double cross0, dot0, lam0, a0[2], th = th0;
  *found = 0;
  int rc = residual_at(m, d, c, th0, &cross0, &dot0, err);
  if (rc) return rc;
  /* Aligned already (a slip that does not turn; a sphere's, whose every
   * direction is), or an onset at mu0 = mu whose acceleration is still zero
   * (round-off): the saturated force's direction is its own. */
  int aligned = fabs(atan2(cross0, fabs(dot0))) < NSEDI_LINE_ALIGNED;
  if ((aligned && (!onset || dot0 >= afl)) || (onset && hypot(cross0, dot0) <= -afl)) {
    *found = 1;
    return NSED_OK;
  }
  response_sample(d, c, &lam0, a0);
  if (!d->ev.line_model_off) rc = scan_on_response(m, d, c, th0, lam0, a0, onset, afl, &th, found, err);
  if (rc) return rc;
  if (!*found) {
    line_fn l = {m, d, c, NULL};
    rc = scan_line(&l, th0, cross0, onset, afl, &th, found, err);
    if (rc) return rc;
  }
  if (!*found) {
    set_angle(d, c, th0);
    return NSED_OK;
  }
  *moved = fmax(*moved, fabs(remainder(th - th0, 2 * M_PI)));
  set_angle(d, c, th);
  return NSED_OK;
}

/* The angle between each direction of the set and the line of its
 * acceleration, after an evaluation; returns the worst, INFINITY when an
 * onset decelerates. */
static double misalignment(const nsed_model *m, const nsed_data *d, const dir_set *s, int smooth,
                           double *r) {
  double worst = 0;
  for (int i = 0; i < s->n; i++) {
    int c = s->c[i];
    double cross, dot;
    products(d, c, &cross, &dot);
    double floor = accel_floor(m, d, c);
    /* An onset whose acceleration is round-off (at mu0 = mu) is aligned. */
    r[i] = s->onset[i] && hypot(cross, dot) <= floor ? 0.0 : atan2(cross, fabs(dot));
    /* smooth: s x a_t over the acceleration the force scale gives, whose
     * roots are the same, for onsets whose accelerations all start at zero
     * together (a face sliding off at mu0 = mu), where the angle jumps by
     * pi/2 as a_t passes through round-off */
    if (smooth) r[i] = cross / fmax(d->ev.fscale * inverse_mass_along(d, c), 1e-300);
    worst = fmax(worst, s->onset[i] && dot < -floor ? INFINITY : fabs(r[i]));
  }
  return worst;
}

/* Newton on the set's angles from the sweeps' angles, finite-difference
 * Jacobian. */
static int align_newton(const nsed_model *m, nsed_data *d, const dir_set *s, int smooth, nsed_error *err) {
  int k = s->n;
  double r[DIR_MAX], rh[DIR_MAX], J[DIR_MAX * DIR_MAX], th[DIR_MAX], dth[DIR_MAX];
  int piv[2 * DIR_MAX];
  const double h = NSEDI_LINE_FD_STEP;
  for (int it = 0; it < DIR_NEWTON; it++) {
    int rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
    if (rc) return rc;
    double worst = misalignment(m, d, s, smooth, r);
    if (smooth) {
      worst = 0;
      for (int i = 0; i < k; i++) worst = fmax(worst, fabs(r[i]));
    }
    if (worst < 1e-3 * NSEDI_LINE_ALIGNED || !isfinite(worst)) return NSED_OK;
    for (int j = 0; j < k; j++) th[j] = angle_of(d, s->c[j]);
    for (int j = 0; j < k; j++) {
      set_angle(d, s->c[j], th[j] + h);
      rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
      if (rc) return rc;
      misalignment(m, d, s, smooth, rh);
      for (int i = 0; i < k; i++) J[(size_t)j * k + i] = (rh[i] - r[i]) / h;
      set_angle(d, s->c[j], th[j]);
    }
    if (!(nsedi_small_lu_factor(k, J, piv, piv + k) > NSEDI_LINE_PIVOT)) return NSED_OK;
    double step = 0;
    for (int i = 0; i < k; i++) dth[i] = -r[i];
    nsedi_small_lu_solve(k, J, piv, 1, dth);
    for (int i = 0; i < k; i++) step = fmax(step, fabs(dth[i]));
    double scale = step > 0.5 ? 0.5 / step : 1.0; /* a quarter turn at most */
    for (int i = 0; i < k; i++) set_angle(d, s->c[i], th[i] + scale * dth[i]);
  }
  return NSED_OK;
}

/* Each direction of the set is stable on its own: turning it a little
 * counterclockwise turns its acceleration clockwise of it (s x a_t falls),
 * or is neutral (a sphere's slip: s x a_t stays zero to round-off). */
static int stable(const nsed_model *m, nsed_data *d, const dir_set *s, int *ok, nsed_error *err) {
  *ok = 1;
  for (int i = 0; *ok && i < s->n; i++) {
    int c = s->c[i];
    double th = angle_of(d, c), c0, c1, dot;
    int rc = residual_at(m, d, c, th, &c0, &dot, err);
    double scale = hypot(c0, dot) + accel_floor(m, d, c);
    if (rc == NSED_OK) rc = residual_at(m, d, c, th + NSEDI_LINE_FD_STEP, &c1, &dot, err);
    set_angle(d, c, th);
    if (rc) return rc;
    *ok = c1 - c0 < NSEDI_LINE_NEUTRAL * NSEDI_LINE_FD_STEP * scale;
  }
  return nsedi_eval(m, d, d->t, d->x, NULL, err);
}

static void save_dirs(const nsed_data *d, const dir_set *s, double *dirs) {
  for (int i = 0; i < s->n; i++) {
    dirs[2 * i] = d->ph.dir[2 * s->c[i]];
    dirs[2 * i + 1] = d->ph.dir[2 * s->c[i] + 1];
  }
}

static void restore_dirs(nsed_data *d, const dir_set *s, const double *dirs) {
  for (int i = 0; i < s->n; i++) {
    d->ph.dir[2 * s->c[i]] = dirs[2 * i];
    d->ph.dir[2 * s->c[i] + 1] = dirs[2 * i + 1];
  }
}

/* The set's largest angle between a direction and its acceleration's
 * line at its current directions. */
static int set_misalignment(const nsed_model *m, nsed_data *d, const dir_set *s, double *worst,
                            nsed_error *err) {
  double r[DIR_MAX];
  int rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
  if (rc) return rc;
  misalignment(m, d, s, 0, r);
  *worst = 0;
  for (int i = 0; i < s->n; i++) *worst = fmax(*worst, fabs(r[i]));
  return NSED_OK;
}

/* Gauss-Seidel sweeps of the scalar solve over a coupled set. Contacts of
 * one rigid body (a box's face vertices) are coupled through its rotation
 * as strongly as through their own directions, so the sweeps need not
 * contract: from slowing slips' directions misaligned only by the
 * round-off of their velocities they can diverge to a far root. A set of
 * slowing slips therefore keeps the sweeps only while they bring it closer
 * to alignment, and Newton starts from the best directions seen. Onsets
 * start from the event problem's forces, not near their root, and at
 * mu0 = mu their accelerations start at round-off, where the angle
 * measures nothing: their sweeps are not judged by it (docs/engine.md,
 * "Slip direction"). */
static int sweep(const nsed_model *m, nsed_data *d, const dir_set *s, int *found, nsed_error *err) {
  double best_dirs[2 * DIR_MAX], best = INFINITY;
  int guard = s->n > 1, rc = NSED_OK;
  for (int i = 0; i < s->n; i++) guard &= !s->onset[i];
  if (guard && (rc = set_misalignment(m, d, s, &best, err))) return rc;
  save_dirs(d, s, best_dirs);
  for (int k = 0; k < (s->n > 1 ? DIR_SWEEPS : 1); k++) {
    double moved = 0, worst = 0;
    for (int i = 0; i < s->n; i++) {
      rc = align_one(m, d, s->c[i], s->onset[i], &moved, &found[i], err);
      if (rc) return rc;
    }
    if (guard) {
      if ((rc = set_misalignment(m, d, s, &worst, err))) return rc;
      if (!(worst < best)) {
        restore_dirs(d, s, best_dirs);
        break;
      }
      best = worst;
      save_dirs(d, s, best_dirs);
    }
    if (moved < NSEDI_LINE_SWEEP_MOVE) break;
  }
  return NSED_OK;
}

/* A slowing slip settles on the quasi-steady direction nearest to its
 * velocity's, within a quarter turn (align_one's rule); Newton on a coupled
 * set is not bound by it and may end at a far root. */
static int slowing_near(const nsed_data *d, const dir_set *s, const double *dir0) {
  for (int i = 0; i < s->n; i++) {
    const double *now = d->ph.dir + 2 * s->c[i];
    if (!s->onset[i] && now[0] * dir0[2 * i] + now[1] * dir0[2 * i + 1] <= 0) return 0;
  }
  return 1;
}

/* Align the set: sweeps of the scalar solve, Newton if coupled; then
 * check: aligned, accelerating (onsets), slowing slips near their
 * velocities, stable, every closed contact pushing. */
enum { DIR_OK = 0, DIR_NONE, DIR_UNSTABLE, DIR_PULLS };

static int align(const nsed_model *m, nsed_data *d, const dir_set *s, int *why, int *culprit,
                 nsed_error *err) {
  int found[DIR_MAX];
  double dir0[2 * DIR_MAX];
  save_dirs(d, s, dir0);
  int rc = sweep(m, d, s, found, err);
  if (rc) return rc;
  rc = s->n > 1 ? align_newton(m, d, s, 0, err) : nsedi_eval(m, d, d->t, d->x, NULL, err);
  if (rc) return rc;
  double r[DIR_MAX];
  int ok = misalignment(m, d, s, 0, r) < NSEDI_LINE_ALIGNED;
  if (!ok && s->n > 1) {
    /* again on the smooth residual, from the sweeps' directions */
    rc = align_newton(m, d, s, 1, err);
    if (rc == NSED_OK) rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
    if (rc) return rc;
    ok = misalignment(m, d, s, 0, r) < NSEDI_LINE_ALIGNED;
  }
  ok = ok && slowing_near(d, s, dir0);
  *why = ok ? DIR_OK : DIR_NONE;
  if (ok && (rc = stable(m, d, s, &ok, err))) return rc;
  if (*why == DIR_OK && !ok) *why = DIR_UNSTABLE;
  for (int c = 0; *why == DIR_OK && c < m->ncontact; c++)
    if (d->ph.mode[c] != NSED_MODE_OPEN && m->contact[c].def.law != NSED_CONTACT_COMPLIANT &&
        d->cache.lambda_c[3 * c] < -NSEDI_FORCE_FLOOR * d->ev.fscale) {
      *why = DIR_PULLS;
      *culprit = c;
    }
  return NSED_OK;
}

/* The directions to align at this event: onsets, and slips entering the
 * slow hold (the regimes stage decided which). */
static void collect(const nsed_model *m, nsed_data *d, dir_set *s, int *more) {
  nsedi_event_ws *ev = &d->ev;
  s->n = 0;
  *more = 0;
  for (int c = 0; c < m->ncontact; c++) {
    if (d->ph.mode[c] != NSED_MODE_SLIP || !nsedi_coulomb_friction(m, c)) continue;
    int onset = (ev->trigger[c] & NSEDI_TRIG_ONSET) != 0;
    if (onset) d->ph.held[c] = d->ph.slow[c] = 1;
    if (!onset && !(ev->trigger[c] & NSEDI_TRIG_HOLD)) continue;
    if (s->n == DIR_MAX) {
      *more = 1;
      continue;
    }
    s->onset[s->n] = onset;
    s->c[s->n++] = c;
  }
}

int nsedi_event_lines(const nsed_model *m, nsed_data *d, int *off_circle, nsed_error *err) {
  nsedi_event_ws *ev = &d->ev;
  dir_set s;
  int more;
  *off_circle = 0;
  collect(m, d, &s, &more);
  if (s.n == 0) return nsedi_eval(m, d, d->t, d->x, NULL, err);
  int onsets = 0;
  for (int i = 0; i < s.n; i++) onsets += s.onset[i];
  if (!ev->onsets_on_polygon) {
    double dir0[2 * DIR_MAX];
    save_dirs(d, &s, dir0);
    int why = DIR_OK, culprit = -1, rc = align(m, d, &s, &why, &culprit, err);
    keep_floors(m, d, &s);
    if (rc || why == DIR_OK || more) return rc;
    ev->circle_why = why;
    ev->circle_culprit = culprit;
    if (onsets > 0) {
      /* The polygon's answer is not the circle's (docs/engine.md, "Onsets
       * the circle does not admit"): the caller decides the modes again
       * with the onsets on the event problem's own forces, the polygon's
       * law, until slip_stop_speed. */
      *off_circle = 1;
      return NSED_OK;
    }
    /* Only slowing slips: each keeps its velocity's direction (the
     * quasi-steady one it turns to is not within a quarter turn). */
    restore_dirs(d, &s, dir0);
  }
  /* The onsets are on the problem's forces (the modes stage put them
   * there): they must accelerate along them, and no contact may pull. */
  int rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
  if (rc) return rc;
  keep_floors(m, d, &s);
  int bad = -1, pulls = -1, why = ev->circle_why, culprit = ev->circle_culprit;
  double cross = 0, dot = 0;
  for (int i = 0; bad < 0 && i < s.n; i++) {
    if (!s.onset[i]) continue;
    products(d, s.c[i], &cross, &dot);
    if (dot < -ev->accel_floor[s.c[i]]) bad = s.c[i];
  }
  for (int c = 0; bad < 0 && pulls < 0 && c < m->ncontact; c++)
    if (d->ph.mode[c] != NSED_MODE_OPEN && m->contact[c].def.law != NSED_CONTACT_COMPLIANT &&
        d->cache.lambda_c[3 * c] < -NSEDI_FORCE_FLOOR * ev->fscale)
      pulls = c;
  if (bad < 0 && pulls < 0) {
    d->stats.onsets_off_circle += onsets > 0;
    return NSED_OK;
  }
  int c = bad >= 0 ? bad : s.c[0];
  for (int i = 0; i < s.n; i++)
    if (s.onset[i] && bad < 0) c = s.c[i];
  products(d, c, &cross, &dot);
  d->failure_contact = c;
  char reason[200];
  if (why == DIR_PULLS)
    snprintf(reason, sizeof reason, "along the directions where it accelerates contact '%s' would pull",
             m->contact[culprit].def.name);
  else
    snprintf(reason, sizeof reason, "%s",
             why == DIR_UNSTABLE ? "the direction along which it accelerates is unstable"
                                 : "no slip direction under its kinetic friction is along its own acceleration");
  return nsed_error_set(err, NSED_ERR_EVENT,
                        "t = %.17g: contact '%s' starts slipping but %s, with the other contacts' "
                        "modes as the event problem decided, and along the event problem's "
                        "direction (%.6g, %.6g) %s (acceleration %.3g m/s^2 along, %.3g across): "
                        "the polygon's answer is not the circle's, a Painleve-like indeterminacy "
                        "of the rigid model",
                        d->t, m->contact[c].def.name, reason, d->ph.dir[2 * c], d->ph.dir[2 * c + 1],
                        bad >= 0 ? "it decelerates" : "a contact would pull", dot, cross);
}
