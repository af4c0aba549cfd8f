/* Landing on an event (docs/engine.md, "Landing on events").
 *
 * SUNDIALS locates an indicator's root on the step's interpolant and
 * returns the interpolant's state there. The interpolant is less accurate
 * than the method (Hermite of degree 4 for Dormand-Prince, 5 at most), so
 * an event's time and state carry its error, not the step's. Here the
 * root is located again on the method's own solution: the last step taken
 * again from its start to a trial time (nsedi_integrator_restep), the
 * fired indicators evaluated there, and the trial times chosen by a
 * safeguarded secant between the last return and SUNDIALS' root. Close
 * to a step taken again, the method's solution is the interpolant plus
 * the difference found there (that difference changes by a fraction
 * |t - t_c| / h of itself), which a trial evaluates without stepping.
 * The event then starts from a state of the method, as at a step's end. */
#include <math.h>
#include <string.h>

#include "sim_impl.h"
#include "tolerances.h"

/* One landing's search. */
typedef struct {
  const nsed_model *m;
  nsed_data *d;
  const int *S;        /* the indicators whose first root is searched */
  int nroot, nx;
  double t0, t1, ttol; /* the step, and the time resolution */
  double lo, f_lo, hi, f_hi;
  int hi_corrected;    /* hi's state is a corrected interpolant's, not a step's */
  double t_corr;       /* where corr was found (NAN: nowhere yet) */
  int real_only;       /* corrected trials misplaced a root: step every trial */
} lander;

/* The smallest of the indicators in the set (1 where S[i]). */
static double set_min(const int *S, const double *g, int n) {
  double f = INFINITY;
  for (int i = 0; i < n; i++)
    if (S[i] && g[i] < f) f = g[i];
  return f;
}

/* The method's state at t and its indicators, and the difference from the
 * interpolant there (land.corr); non-zero where a stage's right-hand side
 * or the indicators cannot be evaluated (a stage past the end of a
 * contact's surface: the accepted step's stages were all valid, a shorter
 * step's need not be). */
static int step_trial(lander *L, double t, double *x, double *g) {
  nsed_data *d = L->d;
  double *corr = d->land.corr;
  if (t > L->t0) d->stats.landing_steps++; /* at the step's start nothing is stepped */
  if (nsedi_integrator_restep(d->integ, t, x) || nsedi_integrator_dense(d->integ, t, corr)) return 1;
  for (int i = 0; i < L->nx; i++) corr[i] = x[i] - corr[i];
  L->t_corr = t;
  return nsedi_indicators(L->m, d, t, x, g);
}

/* The state at t as the interpolant plus the difference found at t_corr,
 * and its indicators. Its error is the difference's change over |t -
 * t_corr|, a fraction of it of order |t - t_corr| / h: used within
 * NSEDI_LAND_AGREE h, it is below that fraction of the local error. */
static int corrected_trial(lander *L, double t, double *x, double *g) {
  nsed_data *d = L->d;
  if (nsedi_integrator_dense(d->integ, t, x)) return 1;
  for (int i = 0; i < L->nx; i++) x[i] += d->land.corr[i];
  return nsedi_indicators(L->m, d, t, x, g);
}

static int corrected_serves(const lander *L, double t) {
  return !L->real_only && isfinite(L->t_corr) &&
         fabs(t - L->t_corr) <= NSEDI_LAND_AGREE * (L->t1 - L->t0);
}

/* A trial at t into x, g: corrected where that serves, else a step. */
static int trial(lander *L, double t, double *x, double *g, int *corrected) {
  *corrected = corrected_serves(L, t);
  return *corrected ? corrected_trial(L, t, x, g) : step_trial(L, t, x, g);
}

/* The event stays at the interpolant's root (as SUNDIALS returned it):
 * counted, and the caches made the state's again. */
static int keep_interpolant(const nsed_model *m, nsed_data *d) {
  d->stats.landings_interpolated++;
  nsed_error_clear(&d->rhs_err);
  nsedi_refresh_geometry(m, d);
  return NSED_OK;
}

/* Whether the method's state x and the interpolant's y at the same time
 * differ by less than NSEDI_LAND_AGREE of the local error tolerance in
 * every state (the work integrals carry no tolerance). */
static int agrees(const nsed_model *m, const double *x, const double *y) {
  const nsed_options *o = &m->opt;
  for (int i = 0; i < m->nstate; i++)
    if (!(fabs(x[i] - y[i]) <= NSEDI_LAND_AGREE * (o->rtol * fabs(y[i]) + o->atol))) return 0;
  return 1;
}

/* A trial's outcome: the bracket's far side moves to t (the set's minimum
 * f <= 0 there, state x, indicators g), or its near side. */
static void take(lander *L, double t, double f, const double *x, const double *g, int corrected) {
  if (f <= 0) {
    L->hi = t;
    L->f_hi = f;
    L->hi_corrected = corrected;
    memcpy(L->d->land.x, x, sizeof(double) * (size_t)L->nx);
    memcpy(L->d->land.g + 2 * L->nroot, g, sizeof(double) * (size_t)L->nroot);
  } else {
    L->lo = t;
    L->f_lo = f;
  }
}

#define LAND_KEEP 1 /* search(): a trial failed, keep the interpolant */

/* The set's first root in (lo, hi]: on return hi is within the time
 * resolution of it, on its far side. Each trial time is the secant
 * through the last two trials (superlinear near the root, where the
 * bracket's far end is a poor chord), else the Illinois chord of the
 * bracket, else its midpoint when two trials did not halve it (the set's
 * minimum may jump, one indicator taking over from another, or stay at
 * round-off over an interval, where a secant creeps). */
static int search(lander *L, nsed_error *err) {
  double *x = L->d->ev.x_tmp, *g = L->d->land.g;
  int kept = 0;
  double width_before[2] = {INFINITY, INFINITY}; /* the bracket one and two trials ago */
  double pt[2] = {L->hi, L->lo}, pf[2] = {L->f_hi, L->f_lo}; /* the last two trials */
  for (int k = 0; L->hi - L->lo > L->ttol; k++) {
    if (k == NSEDI_LAND_MAX_TRIALS)
      return nsed_error_set(err, NSED_ERR_INTEGRATOR,
                            "t = %.17g: landing on the event did not converge in %d trials "
                            "(bracket [%.17g, %.17g])", L->hi, k, L->lo, L->hi);
    double t = pf[0] != pf[1] ? pt[0] - pf[0] * (pt[0] - pt[1]) / (pf[0] - pf[1]) : NAN;
    if (!(t > L->lo && t < L->hi)) t = L->hi - L->f_hi * (L->hi - L->lo) / (L->f_hi - L->f_lo);
    if (L->hi - L->lo > 0.5 * width_before[1]) t = 0.5 * (L->lo + L->hi);
    width_before[1] = width_before[0];
    width_before[0] = L->hi - L->lo;
    /* SUNDIALS' own safeguard: a trial half the resolution inside the
     * bracket, so the side that does not move still closes in. */
    t = fmin(fmax(t, L->lo + 0.5 * L->ttol), L->hi - 0.5 * L->ttol);
    int corrected;
    if (trial(L, t, x, g, &corrected)) return LAND_KEEP;
    double f = set_min(L->S, g, L->nroot);
    pt[1] = pt[0], pf[1] = pf[0];
    pt[0] = t, pf[0] = f;
    double f_lo = L->f_lo, f_hi = L->f_hi;
    take(L, t, f, x, g, corrected);
    /* Illinois: the side kept twice counts half */
    if (f <= 0) {
      if (kept < 0) L->f_lo = 0.5 * f_lo;
      kept = -1;
    } else {
      if (kept > 0) L->f_hi = 0.5 * f_hi;
      kept = 1;
    }
  }
  return NSED_OK;
}

/* The search, and a landing state that is the method's own: a corrected
 * far side is stepped to. Should the step find the set still above zero
 * there (the root within the indicators' round-off of it, where a
 * corrected and a stepped state differ in sign), the far side is found by
 * steps doubling from ttol / 2 beyond it, and the search goes on. */
static int search_to_a_step(lander *L, nsed_error *err) {
  double *x = L->d->ev.x_tmp, *g = L->d->land.g;
  for (int walks = 0;; walks++) {
    int rc = search(L, err);
    if (rc || !L->hi_corrected) return rc;
    if (walks == NSEDI_LAND_MAX_TRIALS) return LAND_KEEP;
    if (step_trial(L, L->hi, x, g)) return LAND_KEEP;
    double f = set_min(L->S, g, L->nroot);
    take(L, L->hi, f, x, g, 0);
    for (double dt = 0.5 * L->ttol; f > 0; dt *= 2) {
      if (L->lo >= L->t1) return LAND_KEEP;
      double t = fmin(L->lo + dt, L->t1);
      if (step_trial(L, t, x, g)) return LAND_KEEP;
      f = set_min(L->S, g, L->nroot);
      take(L, t, f, x, g, 0);
    }
  }
}

/* The first trial across SUNDIALS' root, and the bracket it leaves:
 * [lo, hi] with the set's minimum above zero at lo and not at hi. */
static int bracket(lander *L) {
  nsed_data *d = L->d;
  double *x = d->ev.x_tmp, *g = d->land.g, *g_hi = d->land.g + 2 * L->nroot;
  int later = L->f_hi > 0; /* the method's solution crosses after the interpolant's root */
  if (later) L->lo = L->hi, L->f_lo = L->f_hi;
  /* The interpolant's root is resolved to ttol. Where the method's
   * solution agrees with it to that, one trial half of it across closes
   * the bracket. */
  double across = later ? L->hi + 0.5 * L->ttol : L->hi - 0.5 * L->ttol;
  if (across > L->lo && across < L->t1) {
    int corrected;
    if (trial(L, across, x, g, &corrected)) return LAND_KEEP;
    double f = set_min(L->S, g, L->nroot);
    take(L, across, f, x, g, corrected);
    if (f <= 0) later = 0;
  }
  if (!later) return NSED_OK;
  L->hi = L->t1;
  L->hi_corrected = 0;
  if (step_trial(L, L->hi, d->land.x, g_hi)) return LAND_KEEP;
  L->f_hi = set_min(L->S, g_hi, L->nroot);
  return L->f_hi > 0 ? LAND_KEEP : NSED_OK;
}

int nsedi_land_on_event(const nsed_model *m, nsed_data *d, int *fired, double t_from, nsed_error *err) {
  if (d->land.off || !nsedi_integrator_can_restep(d->integ)) return NSED_OK;
  lander L = {.m = m, .d = d, .S = d->land.set, .nroot = nsedi_nroot(m), .nx = m->nstate + NSEDI_NWORK,
              .t_corr = NAN};
  int nroot = L.nroot, *S = d->land.set;
  nsedi_integrator_last_step(d->integ, &L.t0, &L.t1);
  double lo0 = fmax(L.t0, t_from);
  L.lo = lo0;
  L.hi = d->t;
  if (!(L.lo < L.hi && L.hi <= L.t1)) return NSED_OK; /* the root at the last return itself */
  L.ttol = NSEDI_LAND_TIME_RES * (fabs(L.t1) + (L.t1 - L.t0));
  double *g_lo = d->land.g + nroot, *g_hi = d->land.g + 2 * nroot, *x_hi = d->land.x;
  if (step_trial(&L, L.lo, d->ev.x_tmp, g_lo)) return keep_interpolant(m, d);
  int any = 0;
  for (int i = 0; i < nroot; i++) {
    S[i] = fired[i] != 0 && g_lo[i] > 0;
    any |= S[i];
  }
  if (!any || step_trial(&L, L.hi, x_hi, g_hi)) return keep_interpolant(m, d);
  if (agrees(m, x_hi, d->x)) {
    /* the interpolant is the method there: its root is the method's */
    d->stats.landings++;
    nsedi_refresh_geometry(m, d);
    return NSED_OK;
  }
  L.f_lo = set_min(S, g_lo, nroot);
  L.f_hi = set_min(S, g_hi, nroot);
  int rc = bracket(&L);
  for (;;) {
    if (rc == NSED_OK) rc = search_to_a_step(&L, err);
    if (rc == LAND_KEEP) return keep_interpolant(m, d);
    if (rc) return rc;
    /* An indicator the interpolant saw crossing later (or not at all) may
     * cross first on the method's solution: then the set grows and the
     * search runs again below the landing. */
    int grew = 0;
    for (int i = 0; i < nroot; i++)
      if (!S[i] && g_lo[i] > 0 && g_hi[i] <= 0) d->land.set[i] = grew = 1;
    if (!grew) break;
    L.lo = lo0;
    L.f_lo = set_min(S, g_lo, nroot);
    L.f_hi = set_min(S, g_hi, nroot);
  }
  for (int i = 0; i < nroot; i++) fired[i] = S[i] && g_hi[i] <= 0 ? -1 : 0;
  memcpy(d->x, x_hi, sizeof(double) * (size_t)L.nx);
  d->t = L.hi;
  d->stats.landings++;
  nsedi_refresh_geometry(m, d);
  return NSED_OK;
}
