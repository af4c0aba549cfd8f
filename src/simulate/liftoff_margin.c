/* The closing margin of a contact that lifts off (docs/engine.md, "Phase
 * starts", "Landing after a lift-off"). A contact that lifts off at the
 * root of its normal force leaves with a gap growing quadratically from
 * round-off, so its closing root is watched a margin below the level it
 * left. Once the gap has risen a margin above that level, round-off can no
 * longer bring it back below: a root then watches the closing again from
 * the level the contact would have had had it not lifted off, and a flight
 * lands on the surface instead of a margin under it. Crossing that root
 * changes no mode and no force: the phase goes on (law_kinks.c restarts
 * the integrator there, as at a kink). */
#include <math.h>

#include "sim_impl.h"
#include "tolerances.h"

double nsedi_liftoff_margin(const nsed_model *m, int c) {
  /* A roller lifting off near its tip lands again within microseconds (the
   * omni vehicle's wheels rock on their three contacts), before the
   * stabilisation has removed the landing's penetration: its margin is a
   * level below the floor, not a step per bounce. */
  return (nsedi_is_roller(m, c) ? NSEDI_ROLLER_LIFTOFF_MARGIN : NSEDI_LIFTOFF_MARGIN) * m->opt.contact_tol;
}

double nsedi_arm_liftoff_clearance(const nsed_model *m, nsed_data *d, int c, double watched, double level) {
  double margin = nsedi_liftoff_margin(m, c), gap = d->cache.geom[c].gap;
  /* Armed only where the level lies well above the margin's offset: a
   * wheel's roller is watched a margin below the floor anyway (its wheel's
   * next roller arrives tangentially), and there is nothing to clear. */
  d->ph.clearing[c] = level - watched > 0.5 * margin;
  d->ph.clear_at[c] = watched + 2 * margin;
  d->ph.clear_to[c] = level;
  /* Already risen clear (a lift-off well above the level): watched at the
   * level from the start. */
  if (d->ph.clearing[c] && !(gap < d->ph.clear_at[c])) {
    d->ph.clearing[c] = 0;
    return level;
  }
  return watched;
}

double nsedi_liftoff_clearance_root(const nsed_data *d, int c) {
  return d->ph.clearing[c] ? d->ph.clear_at[c] - d->cache.geom[c].gap : 1.0;
}

void nsedi_clear_liftoff_margin(nsed_data *d, int c) {
  if (!d->ph.clearing[c]) return;
  d->ph.root_offset[NSEDI_ROOTS_PER_CONTACT * c + NSEDI_ROOT_CONTACT] = d->ph.clear_to[c];
  d->ph.root_offset[NSEDI_ROOTS_PER_CONTACT * c + NSEDI_ROOT_LINE] = 0.0;
  d->ph.clearing[c] = 0;
  d->stats.margins_cleared++;
}
