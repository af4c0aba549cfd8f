/* Event stage "record": every mode change becomes an event in the log, with
 * the statistics of the problem that decided it; the Zeno guard watches
 * each contact's events (DESIGN.md §8; docs/engine.md, "The Zeno guard"). */
#include <math.h>
#include <stdio.h>

#include "sim_impl.h"
#include "tolerances.h"

int nsedi_event_emit(const nsed_model *m, nsed_data *d, const nsed_observer *obs,
                     nsed_event_kind kind, int c, nsed_mode from, nsed_mode to,
                     const nsed_lcp_stats *st) {
  nsed_event ev = {.t = d->t, .kind = kind, .contact = c, .from = from, .to = to,
                   .lcp_size = st ? st->lcp_size : 0, .pivots = st ? st->pivots : 0,
                   .residual = st ? st->residual : 0.0, .path = st && st->path ? st->path : ""};
  if (c >= 0)
    for (int k = 0; k < 3; k++) ev.impulse[k] = d->ev.impulse[3 * c + k];
  d->stats.events++;
  d->stats.events_by_kind[kind]++;
  if (obs && obs->event && obs->event(obs->ctx, m, d, &ev)) return NSED_ERR_IO;
  return NSED_OK;
}

int nsedi_kink_event(const nsed_model *m, nsed_data *d, const nsed_observer *obs, int j) {
  nsed_event ev = {.t = d->t, .kind = NSED_EVENT_KINK, .contact = -1, .from = NSED_MODE_OPEN,
                   .to = NSED_MODE_OPEN, .path = m->joint[j].def.name};
  d->stats.events++;
  d->stats.events_by_kind[NSED_EVENT_KINK]++;
  if (obs && obs->event && obs->event(obs->ctx, m, d, &ev)) return NSED_ERR_IO;
  return NSED_OK;
}

/* Time t entered in a ring of zeno_events times (n: entries so far);
 * returns 1 when the ring is full and spans at most zeno_window. */
static int ring_full(const nsed_model *m, double *ring, int *n, double t) {
  int ze = m->opt.zeno_events;
  ring[(*n)++ % ze] = t;
  return *n >= ze && t - ring[*n % ze] <= m->opt.zeno_window;
}

/* Zeno guard bookkeeping for an event on contact c; returns 1 when the
 * contact has had zeno_events events within zeno_window. */
static int zeno_storm(const nsed_model *m, nsed_data *d, int c) {
  return ring_full(m, d->zeno.t + (size_t)c * m->opt.zeno_events, &d->zeno.n[c], d->t);
}

static nsed_event_kind transition_kind(nsed_mode from, nsed_mode to, int impacted) {
  if (impacted) return NSED_EVENT_IMPACT;
  if (from == NSED_MODE_OPEN) return NSED_EVENT_CLOSE;
  if (to == NSED_MODE_OPEN) return NSED_EVENT_OPEN;
  return to == NSED_MODE_STICK ? NSED_EVENT_STICK : NSED_EVENT_SLIP;
}

/* The mode change of contact c as an event kind; -1 when there is none to
 * record. A slip that stopped and started again at once (a graze) is not a
 * change; a slip that started anew from rest after a stop is. */
static int change_of(const nsed_model *m, const nsed_data *d, int c) {
  const nsedi_event_ws *ev = &d->ev;
  nsed_mode from = ev->prev_mode[c], to = d->ph.mode[c];
  int impacted = ev->impacted[c];
  if (!ev->fired && !impacted) return -1; /* initial modes are not events */
  if (from == to && !impacted) return -1;
  /* Closing with a negligible approach speed (a roller handover, a grazing
   * touch) is a closure, though the impact problem removed it. */
  int real_impact = impacted && ev->impact_speed[c] > NSEDI_GRAZING_APPROACH * m->opt.slip_tol;
  nsed_event_kind kind = transition_kind(from, to, real_impact);
  int plastic_now = impacted && (d->zeno.plastic[c] || fabs(d->cache.geom[c].row[0].vel) <= m->opt.slip_tol);
  if (impacted && plastic_now && !d->zeno.plastic[c] && m->contact[c].def.restitution > 0)
    kind = NSED_EVENT_ZENO; /* below the Zeno velocity: the guard closed it */
  return (int)kind;
}

int nsedi_storm_error(const nsed_model *m, nsed_data *d, int c, const char *why, nsed_error *err) {
  const nsed_options *o = &m->opt;
  const nsedi_contact_geom *g = &d->cache.geom[c];
  double speed = fmax(fabs(g->row[0].vel), nsedi_slip_speed(g));
  d->failure_contact = c;
  return nsed_error_set(err, NSED_ERR_EVENT,
                        "t = %.17g: event storm on contact '%s': %d events within %g s at "
                        "relative speed %.3g m/s (above the Zeno guard's %.3g m/s); last "
                        "transition %s -> %s. A chatter that the rigid motion goes through "
                        "with more events passes with a larger solver.zeno.events "
                        "(docs/engine.md, \"The Zeno guard\")%s",
                        d->t, m->contact[c].def.name, o->zeno_events, o->zeno_window, speed,
                        o->zeno_velocity, nsed_mode_name(d->ev.prev_mode[c]),
                        nsed_mode_name(d->ph.mode[c]), why);
}

/* The Zeno guard after an event on contact c: many events within the
 * window at small relative speed make its impacts plastic (it closes); at
 * larger speed they are an event storm, an error, unless the contact's
 * wheel rocks on a sector edge (its contact handed back and forth between
 * two rollers, docs/rollers.md, "Rocking on a sector edge"): that storm is
 * left to the edge stage after this one (ev.rocking), whose remedy is the
 * edge's sliding mode (event_edge.c). */
static int zeno_guard(const nsed_model *m, nsed_data *d, const nsed_observer *obs, int c,
                      nsed_error *err) {
  const nsed_options *o = &m->opt;
  if (!zeno_storm(m, d, c)) return NSED_OK;
  const nsedi_contact_geom *g = &d->cache.geom[c];
  double speed = fmax(fabs(g->row[0].vel), nsedi_slip_speed(g));
  if (speed <= o->zeno_velocity && !d->zeno.plastic[c]) {
    d->zeno.plastic[c] = 1;
    if (nsedi_event_emit(m, d, obs, NSED_EVENT_ZENO, c, d->ph.mode[c], d->ph.mode[c], NULL))
      return nsed_error_set(err, NSED_ERR_IO, "writing the event log failed");
  } else if (speed > o->zeno_velocity) {
    int together = 0, r = d->ev.rocking;
    /* one wheel's rocking at an event (both its rollers' storms) */
    int same_wheel = r < 0 || m->contact[r].carrier == m->contact[c].carrier;
    if (same_wheel && nsedi_roller_storm_partner(m, d, c, &together) >= 0) {
      if (r < 0) d->ev.rocking = c;
      return NSED_OK;
    }
    return nsedi_storm_error(m, d, c, "", err);
  }
  return NSED_OK;
}

/* The spin change of contact c (exact torsional friction) while it stays
 * closed: -1 when there is none. A spin that stopped and turned on the
 * other way (a reversal) is a new spin onset. Closing and opening are the
 * contact's own events. */
static int spin_change_of(const nsed_model *m, const nsed_data *d, int c) {
  const nsedi_event_ws *ev = &d->ev;
  nsed_mode from = ev->prev_spin[c], to = d->ph.spin[c];
  if (!ev->fired || !nsedi_exact_torsion(m, c)) return -1;
  if (from == NSED_MODE_OPEN || to == NSED_MODE_OPEN) return -1;
  if (to == NSED_MODE_STICK) return from == NSED_MODE_STICK ? -1 : NSED_EVENT_SPIN_STICK;
  int reversed = from == NSED_MODE_SLIP && ev->prev_spin_sign[c] != d->ph.spin_sign[c];
  return from == NSED_MODE_STICK || reversed ? NSED_EVENT_SPIN_SLIP : -1;
}

/* Emit one recorded change and apply the Zeno guard and the event limit. */
static int record_one(const nsed_model *m, nsed_data *d, const nsed_observer *obs, int kind,
                      int c, nsed_mode from, nsed_mode to, nsed_error *err) {
  const nsedi_event_ws *ev = &d->ev;
  const nsed_lcp_stats *st = ev->impacted[c] ? &ev->ist : &ev->ast;
  if (nsedi_event_emit(m, d, obs, (nsed_event_kind)kind, c, from, to, st))
    return nsed_error_set(err, NSED_ERR_IO, "writing the event log failed");
  if (kind == NSED_EVENT_ZENO) d->zeno.plastic[c] = 1;
  int rc = zeno_guard(m, d, obs, c, err);
  if (rc) return rc;
  if (d->stats.events >= m->opt.max_events)
    return nsed_error_set(err, NSED_ERR_EVENT,
                          "t = %.17g: the limit of %d event%s is reached (solver.max_events)", d->t,
                          m->opt.max_events, m->opt.max_events == 1 ? "" : "s");
  return NSED_OK;
}

/* The first of contact c's roots that fired at this event, or -1. */
static int fired_root(const nsed_data *d, int c) {
  if (!d->ev.fired) return -1;
  for (int k = 0; k < NSEDI_ROOTS_PER_CONTACT; k++)
    if (d->ev.fired[NSEDI_ROOTS_PER_CONTACT * c + k]) return k;
  return -1;
}

int nsedi_stall_guard(const nsed_model *m, nsed_data *d, int c, int root, const char *what,
                      nsed_error *err) {
  if (!ring_full(m, d->zeno.quiet_t + (size_t)c * m->opt.zeno_events, &d->zeno.quiet_n[c], d->t))
    return NSED_OK;
  d->failure_contact = c;
  const char *hint = d->ph.mode[c] == NSED_MODE_STICK && root == NSEDI_ROOT_FRICTION && d->sw.deficient
                         ? ": a stick of a redundant set, whose friction the event shares out inside "
                           "the friction set again while the phase's share returns to its boundary "
                           "(docs/engine.md, \"Redundant contacts\")"
                         : "";
  return nsed_error_set(err, NSED_ERR_EVENT,
                        "t = %.17g: contact '%s' (%s): its %s root fired %d times within %g s and "
                        "no event in between changed a mode (the phase returns to the same boundary at once; "
                        "docs/engine.md, \"The Zeno guard\")%s",
                        d->t, m->contact[c].def.name, nsed_mode_name(d->ph.mode[c]), what,
                        m->opt.zeno_events, m->opt.zeno_window, hint);
}

int nsedi_event_record(const nsed_model *m, nsed_data *d, const nsed_observer *obs,
                       nsed_error *err) {
  const nsedi_event_ws *ev = &d->ev;
  int changed = 0;
  for (int c = 0; c < m->ncontact; c++) {
    int kind = change_of(m, d, c), rc = NSED_OK;
    if (kind >= 0) rc = record_one(m, d, obs, kind, c, ev->prev_mode[c], d->ph.mode[c], err);
    int spin = rc == NSED_OK ? spin_change_of(m, d, c) : -1;
    if (spin >= 0) rc = record_one(m, d, obs, spin, c, ev->prev_spin[c], d->ph.spin[c], err);
    if (rc) return rc;
    changed |= kind >= 0 || spin >= 0;
  }
  /* A stall is a phase that returns to the same boundary with nothing
   * changed in between: an event that changes a mode anywhere is progress
   * (its own events feed the Zeno guard), and the stall rings start again. */
  if (changed) {
    for (int c = 0; c < m->ncontact; c++) d->zeno.quiet_n[c] = 0;
    return NSED_OK;
  }
  static const char *const names[NSEDI_ROOTS_PER_CONTACT] = {
      "closing or normal force", "friction (a stick's margin, a slip's stop)", "slip regime",
      "surface region", "slip speed's minimum", "spin"};
  for (int c = 0; c < m->ncontact; c++) {
    int root = fired_root(d, c);
    int rc = root >= 0 ? nsedi_stall_guard(m, d, c, root, names[root], err) : NSED_OK;
    if (rc) return rc;
  }
  return NSED_OK;
}
