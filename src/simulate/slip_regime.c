/* Event stage "regimes": the regime each continuing slip enters the event
 * problem with (docs/engine.md, "Slip direction", "The event step"). A held
 * slip whose regime root fired (or sits at zero) speeds out of the slow
 * hold, enters it, or is released to turn freely with its velocity; a free
 * slip that slowed (its root, or an impact, below the hold's entry speed)
 * enters the hold on its velocity's direction. The event
 * problem poses every slip with the direction and friction it has in the
 * phase that follows, so the regime is decided before the problem, once
 * per event, at the velocities after any impact. The decisions rewrite the
 * slip state the event started from (ev.prev_held, prev_slow,
 * prev_off_circle, prev_dir), which the modes stage poses and restores. */
#include <math.h>

#include "sim_impl.h"
#include "tolerances.h"

/* Held on its velocity's direction, slow: its transverse velocity is
 * settled after the directions stage has aligned it. */
static void enter_hold(nsedi_event_ws *ev, const nsedi_contact_geom *g, int c, double sp) {
  ev->prev_held[c] = ev->prev_slow[c] = 1;
  if (sp > 0) {
    ev->prev_dir[2 * c] = g->row[1].vel / sp;
    ev->prev_dir[2 * c + 1] = g->row[2].vel / sp;
  }
  ev->trigger[c] |= NSEDI_TRIG_HOLD;
}

void nsedi_event_regimes(const nsed_model *m, nsed_data *d) {
  const nsed_options *o = &m->opt;
  nsedi_event_ws *ev = &d->ev;
  for (int c = 0; c < m->ncontact; c++) {
    int trig = ev->trigger[c];
    if (ev->prev_mode[c] != NSED_MODE_SLIP || !nsedi_coulomb_friction(m, c) ||
        (trig & NSEDI_TRIG_STOPPED) || !d->cache.geom_ok[c])
      continue;
    const nsedi_contact_geom *g = &d->cache.geom[c];
    double sp = nsedi_slip_speed(g);
    if (ev->impact && sp <= o->slip_tol) continue; /* at rest: posed as a stick candidate */
    /* A free slip below the hold's entry speed at the event without its
     * root having fired (an impact, or the hold of a flight below the
     * margin, slowed it across that level at once) enters the hold too:
     * free there, its direction would turn at ~1/|v| below a root that
     * starts negative and never fires. */
    int below_entry = !ev->prev_held[c] && sp < NSEDI_SLOW_ENTRY * nsedi_slow_speed(m, d, c);
    if ((trig & NSEDI_TRIG_SLOWED) || below_entry) {
      enter_hold(ev, g, c, sp);
      continue;
    }
    const double *s = ev->prev_dir + 2 * c;
    int slow = ev->prev_slow[c];
    if (!ev->prev_held[c] || (!(trig & NSEDI_TRIG_LINE) && nsedi_line_root(m, d, c, slow, s) > 0))
      continue;
    double off = fabs(g->row[2].vel * s[0] - g->row[1].vel * s[1]) - nsedi_slip_noise(m, d, c);
    double stop = nsedi_slow_speed(m, d, c);
    if (slow && sp >= stop) {
      /* Speeding up out of the slow hold: held on while it does not turn,
       * with the law's kinetic friction from here on. */
      ev->prev_slow[c] = 0;
      ev->prev_off_circle[c] = 0;
      if (off > NSEDI_SLIP_LINE_TOL * sp) ev->prev_held[c] = 0;
    } else if (!slow && sp <= NSEDI_SLOW_ENTRY * stop) {
      enter_hold(ev, g, c, sp);
    } else if (!slow) {
      ev->prev_held[c] = 0; /* it turns: free */
    }
  }
}
