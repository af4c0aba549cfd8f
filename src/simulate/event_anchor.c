/* Event stage "anchor": what the next phase's indicators are measured from
 * (docs/engine.md, "Phase starts").
 *
 * An indicator is detected only when it decreases through zero from
 * positive values (SUNDIALS with root direction -1). One that starts at
 * zero must start exactly at zero: SUNDIALS then waits until it has moved
 * away before watching it, instead of taking round-off for a crossing.
 *  - A slip starting from rest starts with its slip velocity zero (the
 *    settling impulse removed the residual), see anchor_onset.
 *  - An open contact's closing indicator gap - offset: a contact that
 *    lifts off (or touches and is left open) leaves with a gap growing
 *    quadratically from round-off, so it may sink a margin
 *    (NSEDI_LIFTOFF_MARGIN contact_tol) before its root counts as closing,
 *    until its gap has risen that margin above its level
 *    (liftoff_margin.c); one that bounces off leaves with a velocity and
 *    keeps the exact level (impact times). A roller's next contact
 *    arrives tangentially (an omni-wheel handover): its gap touches zero
 *    quadratically and round-off makes it cross up to ~3e-7 s early with a
 *    spurious approach; a fraction of contact_tol keeps that root quiet,
 *    and the handover is resolved at the outgoing roller's region event,
 *    which crosses linearly and exactly.
 *  - A closed contact's region indicator is oriented by the region's sign
 *    at the phase start. */
#include <math.h>
#include <string.h>

#include "sim_impl.h"
#include "tolerances.h"

/* The level open contact c is watched at when it has not just lifted off
 * (or once it has risen clear of its lift-off margin). A wheel's roller is
 * watched a margin below it: its wheel's next roller arrives tangentially
 * (above); a free roller has no next one. */
static double level_offset(const nsed_model *m, const nsed_data *d, int c) {
  const nsed_options *o = &m->opt;
  double gap = d->cache.geom[c].gap;
  double off = d->cache.geom_ok[c] ? fmin(0.0, gap) : 0.0;
  if (!nsedi_is_roller(m, c) || m->contact[c].carrier < 0 || !d->cache.geom_ok[c]) return off;
  /* A roller whose closing root fired below the margin and which the event
   * left open (the outgoing roller of a handover, its tip under the floor
   * by the stabilisation's residue, its gap at a minimum) is watched from
   * a margin below where it is: anchored at exactly its gap, a gap still
   * sinking by round-off would fire it at once, again at every restart. */
  double margin = NSEDI_ROLLER_LIFTOFF_MARGIN * o->contact_tol;
  if (d->ev.fired && d->ev.prev_mode[c] == NSED_MODE_OPEN && !d->ev.impacted[c] && gap < -margin)
    return gap - margin;
  return fmin(-margin, gap);
}

/* The closing offset of open contact c; a contact that leaves the surface
 * here is armed to be watched at its level once it rises clear of the
 * margin. */
static double closing_offset(const nsed_model *m, nsed_data *d, int c) {
  double level = level_offset(m, d, c);
  /* The margin is for a gap growing quadratically from round-off: a
   * lift-off at its force's root, or a contact that touched at this event
   * (a candidate of its problem) and is left open by it. Watched at its
   * gap, that one's indicator starts at exactly zero, and SUNDIALS,
   * waiting for it to move away, never sees it fall below zero if it
   * does so at once (the force that left it open turning away within
   * round-off: docs/engine.md, "Landing after a lift-off"). One that
   * leaves with a separating velocity (lifted by an impact elsewhere)
   * rises above the round-off
   * and is watched at its level: given the margin, each such flight sank
   * its contact a margin deeper, a step per bounce (docs/engine.md,
   * "Flights below the margin"). A contact held closed there whose
   * settling the rows did not allow keeps the margin. */
  int separating = d->cache.geom_ok[c] && nsedi_separating(m, d, c) && !(d->ev.trigger[c] & NSEDI_TRIG_HOVER);
  int leaves = d->ev.prev_mode[c] != NSED_MODE_OPEN || (d->ev.trigger[c] & NSEDI_TRIG_CLOSING);
  if (!leaves || d->ev.impacted[c] || separating) return level;
  if (!d->cache.geom_ok[c]) return -nsedi_liftoff_margin(m, c);
  double watched = fmin(0.0, d->cache.geom[c].gap) - nsedi_liftoff_margin(m, c);
  return nsedi_arm_liftoff_clearance(m, d, c, watched, level);
}

/* The onset of slip c starts from rest: its stop indicator v . s starts at
 * zero and grows (quadratically at mu0 = mu, where its acceleration starts
 * at zero), below the noise of v . s for a while. It is measured from its
 * start value less that noise (nsedi_slip_noise), so noise cannot fire it; its
 * speed-minimum indicator -(a . s), zero at mu0 = mu, likewise from its
 * start value plus the acceleration floor. An onset that accelerates from
 * the start keeps its minimum indicator as it is (it starts negative). */
static void anchor_onset(const nsed_model *m, const nsed_data *d, int c, double *off) {
  double g[NSEDI_ROOTS_PER_CONTACT];
  nsedi_contact_indicators(m, d, c, g);
  off[NSEDI_ROOT_FRICTION] = g[NSEDI_ROOT_FRICTION] - nsedi_slip_noise(m, d, c);
  double afloor = d->ev.accel_floor[c];
  if (fabs(g[NSEDI_ROOT_MINIMUM]) <= afloor) off[NSEDI_ROOT_MINIMUM] = g[NSEDI_ROOT_MINIMUM] + afloor;
}

/* A spin starting from rest (exact torsional friction) likewise: its stop
 * indicator, sign times the spin velocity, starts at zero (the settling
 * impulse removed the residual) and is measured from its start value less
 * the spin velocity's noise. */
static void anchor_spin_onset(const nsed_model *m, const nsed_data *d, int c, double *off) {
  double g[NSEDI_ROOTS_PER_CONTACT];
  nsedi_contact_indicators(m, d, c, g);
  off[NSEDI_ROOT_SPIN] = g[NSEDI_ROOT_SPIN] - nsedi_spin_noise(m, d, c);
}

/* A held slip that goes on through an event with its stop indicator v . s
 * within its noise of zero (a slip from rest at mu0 = mu stays there for
 * a while after its onset) is measured from its value here less that
 * noise, as at its onset, and never from further below zero than the
 * noise: one already below zero (within the noise: further, it stopped at
 * this event, event_classify.c) starts between zero and the noise. Anchored
 * at zero it may start the phase at or below zero: this event's changes to
 * its forces (another contact's handover loading it more) can make it
 * decelerate from rest, and a stop root that starts below zero never fires;
 * the slip then runs backwards unseen (docs/engine.md, "Phase starts").
 * Anchored from its value less the noise at every event, a slip that goes
 * on reversing through a run of events elsewhere would be watched a noise
 * lower each time. */
static void anchor_at_rest(const nsed_model *m, const nsed_data *d, int c, double *off) {
  double g[NSEDI_ROOTS_PER_CONTACT], noise = nsedi_slip_noise(m, d, c);
  nsedi_contact_indicators(m, d, c, g);
  if (g[NSEDI_ROOT_FRICTION] <= noise) off[NSEDI_ROOT_FRICTION] = fmax(g[NSEDI_ROOT_FRICTION] - noise, -noise);
}

/* A closed contact whose lift-off indicator, its normal force, starts at
 * zero or within its noise below (an event problem that keeps a contact at
 * zero force, as a box's corner when the box tips about a line through it)
 * is measured from its value here less that noise: anchored at zero, a
 * force that starts at -6e-14 N and goes on falling never crosses it, and
 * the contact pulls unseen until the law monitor stops the run. One that
 * starts above zero crosses it as it falls, and is watched at zero. The
 * noise is the integration's relative error, or the solve's round-off, of
 * the event's force scale. */
static void anchor_unloaded(const nsed_model *m, const nsed_data *d, int c, double *off) {
  double g[NSEDI_ROOTS_PER_CONTACT];
  nsedi_contact_indicators(m, d, c, g);
  double noise = fmax(m->opt.rtol, NSEDI_VELOCITY_ROUNDOFF) * d->ev.fscale;
  double gn = g[NSEDI_ROOT_CONTACT];
  if (gn <= 0 && gn >= -noise) off[NSEDI_ROOT_CONTACT] = gn - noise;
}

/* A turning spin likewise (exact torsional friction): its stop indicator,
 * sign times the spin velocity, within its noise of zero at an event that
 * is not its onset is measured from its value less that noise. */
static void anchor_spin_at_rest(const nsed_model *m, const nsed_data *d, int c, double *off) {
  double g[NSEDI_ROOTS_PER_CONTACT], noise = nsedi_spin_noise(m, d, c);
  nsedi_contact_indicators(m, d, c, g);
  if (g[NSEDI_ROOT_SPIN] <= noise) off[NSEDI_ROOT_SPIN] = g[NSEDI_ROOT_SPIN] - noise;
}

/* An open contact that stayed open through another contact's event keeps
 * its closing offset: its indicator is continuous across the event (an
 * impulse changes velocities, not gaps) and still positive. Re-anchored at
 * a negative gap (a roller just past its handover, below the floor by the
 * stabilisation's residue) it would start at exactly zero, and a gap still
 * sinking by round-off would fire it again at once, event after event. */
static int keeps_closing_offset(const nsed_data *d, int c, double kept) {
  return d->ev.fired && d->ev.prev_mode[c] == NSED_MODE_OPEN &&
         !(d->ev.trigger[c] & NSEDI_TRIG_CLOSING) && d->cache.geom_ok[c] &&
         d->cache.geom[c].gap - kept > 0;
}

/* A tip that leaves its sector edge (its partner opened at this event)
 * starts on the edge, its region indicator within the boundary's band of
 * zero and not turning. It goes on on its surface's side (the wheel turns
 * into its sector, or it hands over): where its field turns the wheel into
 * the other tip's sector, the indicator falls from zero at once and,
 * anchored at zero, would never be seen to cross. It is watched from the
 * band below, so that the wheel hands over there, as at any other
 * handover. */
static void anchor_off_edge(nsed_data *d, int c, double *off) {
  if (d->ev.prev_edge[c] < 0 || d->ph.edge[c] >= 0 || d->ph.mode[c] == NSED_MODE_OPEN) return;
  d->ph.region_sign[c] = 1.0;
  double g = d->cache.geom[c].region;
  if (g <= NSEDI_ROLLER_REGION_BAND) off[NSEDI_ROOT_REGION] = g - NSEDI_ROLLER_REGION_BAND;
}

/* A closed roller evaluated on a side its region indicator has not reached
 * (the incoming roller of a handover, closed on its surface up to twice the
 * band below its boundary; an outgoing one on its tip within the band
 * above) starts with its oriented indicator below zero and rising. It is
 * meant to rise through zero unseen and fire as it leaves that side; if
 * the wheel's turn reverses first, it falls from below zero, never
 * crosses, and the roller carries the wheel on the other side's continued
 * surface ever further past its boundary (docs/rollers.md, "A handover the
 * turn reverses"). Marked, its root fires also where it turns back below
 * zero (indicators.c). */
static void mark_region_rising(const nsed_model *m, nsed_data *d, int c) {
  d->ph.region_rising[c] = 0;
  if (!nsedi_is_roller(m, c) || d->ph.mode[c] == NSED_MODE_OPEN || d->ph.edge[c] >= 0) return;
  const nsedi_contact_geom *g = &d->cache.geom[c];
  double sg = d->ph.region_sign[c];
  d->ph.region_rising[c] = sg * g->region < 0 && sg * g->region_rate > 0;
}

void nsedi_event_anchor_contact(const nsed_model *m, nsed_data *d, int c) {
  double *off = d->ph.root_offset + NSEDI_ROOTS_PER_CONTACT * c;
  double kept = off[NSEDI_ROOT_CONTACT];
  int was_clearing = d->ph.clearing[c];
  memset(off, 0, sizeof(double) * NSEDI_ROOTS_PER_CONTACT);
  d->ph.clearing[c] = 0;
  /* a roller's side is the one it is evaluated on (roller.c), which
   * inside the boundary's band need not be the region's sign */
  d->ph.region_sign[c] = nsedi_is_roller(m, c) ? (d->cache.geom[c].at_tip ? -1.0 : 1.0)
                                               : d->cache.geom[c].region >= 0 ? 1.0 : -1.0;
  if (m->contact[c].def.law == NSED_CONTACT_COMPLIANT) return;
  anchor_off_edge(d, c, off);
  mark_region_rising(m, d, c);
  if (d->ph.mode[c] == NSED_MODE_OPEN) {
    if (keeps_closing_offset(d, c, kept)) {
      off[NSEDI_ROOT_CONTACT] = kept;
      d->ph.clearing[c] = was_clearing;
      /* risen clear at this very event (its root among those that fired) */
      if (was_clearing && !(d->cache.geom[c].gap < d->ph.clear_at[c])) nsedi_clear_liftoff_margin(d, c);
    } else {
      off[NSEDI_ROOT_CONTACT] = closing_offset(m, d, c);
    }
  } else {
    anchor_unloaded(m, d, c, off);
    if (d->ph.mode[c] == NSED_MODE_SLIP && d->ph.held[c]) {
      if (d->ev.trigger[c] & NSEDI_TRIG_ONSET) anchor_onset(m, d, c, off);
      else if (nsedi_coulomb_friction(m, c)) anchor_at_rest(m, d, c, off);
    }
  }
  if (d->ph.mode[c] != NSED_MODE_OPEN && d->ph.spin[c] == NSED_MODE_SLIP) {
    if (d->ev.trigger[c] & NSEDI_TRIG_SPIN_ONSET) anchor_spin_onset(m, d, c, off);
    else anchor_spin_at_rest(m, d, c, off);
  }
}

void nsedi_event_anchor(const nsed_model *m, nsed_data *d) {
  for (int c = 0; c < m->ncontact; c++) nsedi_event_anchor_contact(m, d, c);
  nsedi_pose_kinks(m, d);
}
