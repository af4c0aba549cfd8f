/* A stop hidden inside one step (docs/engine.md, "Stops and grazes").
 *
 * Near a graze (mu0 just above mu on the belt) a held slip's speed along its
 * line dips through zero and back within microseconds: the slip stops,
 * sticks for 2 d/V and starts again. Root finding compares the indicator
 * at the ends of each step and sees no sign change. The speed's minimum is
 * an indicator of its own (its along-line acceleration changing sign, one
 * crossing however short the dip); at that root, a speed at or below zero
 * means the stop was missed earlier in the same step. It is then located
 * by bisection on the step's dense output, between the last return (an
 * output sample or event, already written) and the minimum, and the event
 * is moved back to it, its state the method's own step there. */
#include <math.h>
#include <string.h>

#include "sim_impl.h"

/* The stop indicator of held slip c (minus its offset) at the state x. */
static double stop_indicator(const nsed_model *m, nsed_data *d, int c, const double *x) {
  d->cache.key_valid = 0; /* the caches no longer hold the keyed evaluation */
  nsedi_kin_eval(m, x, d->cache.kin);
  nsedi_contact_geom *g = &d->cache.geom[c];
  if (nsedi_contact_eval(m, c, d->cache.kin, nsedi_live_track(m, d, x, c), nsedi_contact_side(m, d, c), g) !=
      NSED_OK)
    return NAN;
  return g->row[1].vel * d->ph.dir[2 * c] + g->row[2].vel * d->ph.dir[2 * c + 1] -
         d->ph.root_offset[NSEDI_ROOTS_PER_CONTACT * c + NSEDI_ROOT_FRICTION];
}

/* The first zero of contact c's stop indicator in [lo, hi] (positive at
 * lo, not at hi) on the dense output, to the time resolution at hi. */
static int bisect_stop(const nsed_model *m, nsed_data *d, int c, double lo, double hi, double *ts,
                       nsed_error *err) {
  double *x = d->ev.x_tmp, tres = 4e-16 * fmax(1.0, fabs(hi));
  for (int it = 0; it < 200 && hi - lo > tres; it++) {
    double mid = 0.5 * (lo + hi);
    if (nsedi_integrator_dense(d->integ, mid, x))
      return nsed_error_set(err, NSED_ERR_INTEGRATOR, "t = %.17g: the dense output failed", mid);
    if (stop_indicator(m, d, c, x) > 0) lo = mid;
    else hi = mid;
  }
  *ts = hi;
  return NSED_OK;
}

int nsedi_locate_missed_stops(const nsed_model *m, nsed_data *d, int *fired, double t_from,
                              nsed_error *err) {
  int nr = NSEDI_ROOTS_PER_CONTACT, found = -1;
  double t_stop = d->t, t0, t1;
  nsedi_integrator_last_step(d->integ, &t0, &t1);
  double lo = fmax(t0, t_from);
  for (int c = 0; c < m->ncontact; c++) {
    if (!fired[nr * c + NSEDI_ROOT_MINIMUM] || d->ph.mode[c] != NSED_MODE_SLIP || !d->ph.held[c])
      continue;
    if (!(stop_indicator(m, d, c, d->x) <= 0)) continue; /* a minimum above zero: no stop */
    if (!(lo < d->t)) continue;
    if (nsedi_integrator_dense(d->integ, lo, d->ev.x_tmp))
      return nsed_error_set(err, NSED_ERR_INTEGRATOR, "t = %.17g: the dense output failed", lo);
    if (!(stop_indicator(m, d, c, d->ev.x_tmp) > 0)) continue; /* crossed at the return itself */
    double ts = d->t;
    int rc = bisect_stop(m, d, c, lo, d->t, &ts, err);
    if (rc) return rc;
    if (ts < t_stop || found < 0) {
      t_stop = ts;
      found = c;
    }
  }
  if (found < 0) {
    nsedi_refresh_geometry(m, d); /* the caches are the state's again */
    return NSED_OK;
  }
  /* the state there from the method's own step, as at a landed event
   * (event_land.c); the interpolant's where that step cannot be taken */
  if (!nsedi_integrator_can_restep(d->integ) || nsedi_integrator_restep(d->integ, t_stop, d->x)) {
    if (nsedi_integrator_can_restep(d->integ)) d->stats.landings_interpolated++;
    nsed_error_clear(&d->rhs_err);
    if (nsedi_integrator_dense(d->integ, t_stop, d->x))
      return nsed_error_set(err, NSED_ERR_INTEGRATOR, "t = %.17g: the dense output failed", t_stop);
  }
  d->t = t_stop;
  memset(fired, 0, sizeof(int) * (size_t)nsedi_nroot(m));
  fired[nr * found + NSEDI_ROOT_FRICTION] = -1;
  nsedi_refresh_geometry(m, d);
  return NSED_OK;
}
