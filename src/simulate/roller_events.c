/* Roller handovers (docs/rollers.md, "Handovers"): the policy by which the
 * spindle rollers of an omni wheel join an event problem, hand their
 * contact over to the next roller, or wait for their own handover. The
 * generic event stages ask these questions; only this file knows that a
 * roller's contact moves from roller to roller around a wheel. */
#include <string.h>

#include "sim_impl.h"

int nsedi_is_roller(const nsed_model *m, int c) {
  return m->body[m->contact[c].body].def.shape.type == NSED_SHAPE_ROLLER;
}

/* A tip turning away from the floor with its roller's turn, and not
 * approaching the floor faster than an impact's threshold (slip_tol, as
 * event_problems.c): a wheel that comes down as a whole (a vehicle rocking
 * on its struts) brings a turning-away tip down with it, and that tip
 * lands (docs/rollers.md, "A tip that turns away but comes down lands"). */
static int hands_over(const nsed_model *m, const nsedi_contact_geom *g) {
  return g->leaving && g->row[0].vel >= -m->opt.slip_tol;
}

/* A roller whose contact point has reached its tip and turns away from the
 * floor hands the contact over to the next roller of its wheel, which
 * touches at the same instant (at the same point when psi = 0). Kept in the
 * event problem it would duplicate the incoming contact's rows, a
 * degenerate problem whose solution may keep the wrong one; the tip's
 * future is known (it rises with the wheel's turn), so it leaves the
 * candidates and opens. Dropped while it approaches, it would sink through
 * the floor with its closing root anchored below it at every event.
 * Returns the new number of candidates. */
int nsedi_roller_drop_handed_over(const nsed_model *m, nsed_data *d, int n) {
  nsedi_event_ws *ev = &d->ev;
  const nsedi_contact_geom *geom = d->cache.geom;
  int kept = 0;
  memset(ev->taking_over, 0, sizeof(int) * (size_t)m->ncontact);
  for (int i = 0; i < n; i++) {
    int c = ev->cand[i], w = m->contact[c].carrier, taken = 0;
    if (w >= 0 && hands_over(m, &geom[c]))
      for (int k = 0; k < n && !taken; k++) {
        int o = ev->cand[k];
        taken = o != c && m->contact[o].carrier == w && !geom[o].leaving &&
                geom[o].gap <= m->opt.contact_tol;
        if (taken) ev->taking_over[o] = 1;
      }
    if (!taken) ev->cand[kept++] = c;
  }
  return kept;
}

/* An open roller whose wheel still stands on another roller that is not
 * leaving: its gap closes tangentially towards that roller's handover
 * (below contact_tol within ~3e-5 s of it) and its approach speed there is
 * the geometry's, not an impact's. Pulled into another contact's event (a
 * vehicle spinning in place hands over on all wheels within microseconds)
 * it would be struck by an impact and the vehicle set rocking from wheel to
 * wheel. Its own handover comes at the other roller's region event. */
int nsedi_roller_next_waiting(const nsed_model *m, const nsed_data *d, int c) {
  int w = m->contact[c].carrier;
  if (w < 0) return 0;
  for (int k = 0; k < m->ncontact; k++)
    if (k != c && m->contact[k].carrier == w && d->ph.mode[k] != NSED_MODE_OPEN &&
        d->cache.geom_ok[k] && !d->cache.geom[k].leaving)
      return 1;
  return 0;
}

/* Whether time t is in contact o's ring of recent event times. */
static int in_ring(const nsed_model *m, const nsed_data *d, int o, double t) {
  int ze = m->opt.zeno_events, n = d->zeno.n[o] < ze ? d->zeno.n[o] : ze;
  const double *ring = d->zeno.t + (size_t)o * ze;
  for (int k = 0; k < n; k++)
    if (ring[k] == t) return 1;
  return 0;
}

/* Whether the event now being recorded hands the contact over between c
 * and o: one of them opens and the other closes. */
static int swapped(const nsed_data *d, int c, int o) {
  int c_was = d->ev.prev_mode[c] != NSED_MODE_OPEN, c_is = d->ph.mode[c] != NSED_MODE_OPEN;
  int o_was = d->ev.prev_mode[o] != NSED_MODE_OPEN, o_is = d->ph.mode[o] != NSED_MODE_OPEN;
  return c_was != c_is && o_was != o_is && c_is != o_is;
}

/* A wheel rocking on one sector edge (docs/rollers.md, "Rocking on a
 * sector edge"): the roller of c's wheel whose events came at the same
 * instants as most of c's recent ones, i.e. the wheel handed its contact
 * from one to the other and back, its turn reversing at each handover,
 * and does so at this event. The roller's contact index, or -1;
 * *together: the shared events. */
int nsedi_roller_storm_partner(const nsed_model *m, const nsed_data *d, int c, int *together) {
  int w = m->contact[c].carrier, ze = m->opt.zeno_events;
  *together = 0;
  if (w < 0 || d->zeno.n[c] < ze) return -1;
  const double *ring = d->zeno.t + (size_t)c * ze;
  int best = -1, most = 0;
  for (int o = 0; o < m->ncontact; o++) {
    if (o == c || m->contact[o].carrier != w) continue;
    int shared = 0;
    for (int k = 0; k < ze; k++) shared += in_ring(m, d, o, ring[k]);
    if (shared > most) most = shared, best = o;
  }
  /* The event being recorded may not be in the partner's ring yet (it is
   * recorded after c when its index is higher): half the ring suffices. */
  if (best < 0 || 2 * most < ze || !swapped(d, c, best)) return -1;
  *together = most;
  return best;
}
