/* Event stage "classify": what each root that fired means for its contact
 * (a trigger), and which contacts take part in the event problem: the
 * closed ones and the open ones that touch at this event. */
#include <math.h>

#include "shape_pairs.h"
#include "sim_impl.h"
#include "tolerances.h"

/* The trigger bits of contact c from the roots that fired. */
static int triggers_of(const nsed_data *d, int c) {
  const int *f = d->ev.fired + NSEDI_ROOTS_PER_CONTACT * c;
  nsed_mode mode = d->ev.prev_mode[c];
  int held = d->ev.prev_held[c], t = 0;
  if (mode == NSED_MODE_OPEN) return f[NSEDI_ROOT_CONTACT] ? NSEDI_TRIG_CLOSING : 0;
  if (f[NSEDI_ROOT_CONTACT]) t |= NSEDI_TRIG_LIFTOFF;
  if (f[NSEDI_ROOT_REGION]) t |= NSEDI_TRIG_REGION;
  if (f[NSEDI_ROOT_FRICTION])
    t |= mode == NSED_MODE_STICK ? NSEDI_TRIG_SATURATED : held ? NSEDI_TRIG_STOPPED : NSEDI_TRIG_SLOWED;
  if (f[NSEDI_ROOT_LINE] && mode == NSED_MODE_SLIP && held) t |= NSEDI_TRIG_LINE;
  if (f[NSEDI_ROOT_MINIMUM] && mode == NSED_MODE_SLIP && held) t |= NSEDI_TRIG_MINIMUM;
  if (f[NSEDI_ROOT_SPIN] && d->ev.prev_spin[c] == NSED_MODE_STICK) t |= NSEDI_TRIG_SPIN_SATURATED;
  if (f[NSEDI_ROOT_SPIN] && d->ev.prev_spin[c] == NSED_MODE_SLIP) t |= NSEDI_TRIG_SPIN_STOPPED;
  return t;
}

/* An open contact joins the event problem when its closing root fired (or
 * at the start), when it penetrates beyond contact_tol, or when it touches
 * here without separating (a roller arriving tangentially as its
 * neighbour's point reaches that roller's tip: its own gap root is quiet,
 * and left out it would sink unnoticed). One that is merely near, e.g. a
 * roller that just handed its contact over at the same point, must not be
 * pulled into an unrelated event's degenerate problem. */
static int open_joins(const nsed_model *m, const nsed_data *d, int c) {
  const nsed_options *o = &m->opt;
  const nsedi_contact_geom *g = &d->cache.geom[c];
  if (!d->ev.fired) return g->gap <= o->contact_tol;
  if (d->ev.trigger[c] & NSEDI_TRIG_CLOSING) return 1;
  if (g->gap < -o->contact_tol) return 1;
  return g->gap <= o->contact_tol && g->row[0].vel <= NSEDI_GRAZING_APPROACH * o->slip_tol &&
         !nsedi_roller_next_waiting(m, d, c);
}

/* Does another contact between the same two bodies as c stop at this event? */
static int pair_stops(const nsed_model *m, const nsed_data *d, int c) {
  const nsedi_contact *C = &m->contact[c];
  for (int a = 0; a < m->ncontact; a++) {
    const nsedi_contact *A = &m->contact[a];
    int same = (A->body == C->body && A->other == C->other) || (A->body == C->other && A->other == C->body);
    if (a != c && same && (d->ev.trigger[a] & NSEDI_TRIG_STOPPED)) return 1;
  }
  return 0;
}

/* Held slips and turning spins that stop together with one whose stop
 * root fired: contacts that slide as one (the vertices of a box on its
 * face, any contacts of one rigid body that translate together) reach zero
 * speed at the same instant, and a body whose corners stop stops spinning
 * on them too; but the root finder reports only the roots that changed
 * sign, the others sit within their integration noise of zero. Their slip
 * (spin) has ended as well, so they are stick candidates of the same event.
 * So is any slip slower than slip_stop_speed between the same two bodies
 * as one that stops: below that speed each slip is held on its own
 * direction, not the rigid motion's, and the held stops of one body's
 * contacts spread over about slip_stop_speed over their deceleration
 * (docs/engine.md, "Simultaneous stops"); the residual speed, below
 * slip_stop_speed, is settled as a stop's. */
static void simultaneous_stops(const nsed_model *m, nsed_data *d) {
  nsedi_event_ws *ev = &d->ev;
  int any = 0;
  for (int c = 0; c < m->ncontact; c++)
    any |= ev->trigger[c] & (NSEDI_TRIG_STOPPED | NSEDI_TRIG_SPIN_STOPPED);
  if (!any) return;
  for (int c = 0; c < m->ncontact; c++) {
    if (!d->cache.geom_ok[c]) continue;
    if (ev->prev_spin[c] == NSED_MODE_SLIP && !(ev->trigger[c] & NSEDI_TRIG_SPIN_STOPPED) &&
        fabs(d->cache.geom[c].spin.vel) <= nsedi_spin_noise(m, d, c))
      ev->trigger[c] |= NSEDI_TRIG_SPIN_STOPPED;
    if (ev->prev_mode[c] != NSED_MODE_SLIP || (ev->trigger[c] & NSEDI_TRIG_STOPPED) ||
        !nsedi_coulomb_friction(m, c))
      continue;
    double speed = nsedi_slip_speed(&d->cache.geom[c]);
    if ((ev->prev_held[c] && speed <= nsedi_slip_noise(m, d, c)) ||
        (speed <= nsedi_slow_speed(m, d, c) && pair_stops(m, d, c)))
      ev->trigger[c] |= NSEDI_TRIG_STOPPED;
  }
}

/* Held slips that have reversed along their direction beyond its noise at
 * another contact's event: the stop root of a held slip near rest is
 * watched down to its noise below zero (event_anchor.c), so one further
 * below has passed its stop unseen within this event's step. It is a
 * stick candidate of this event, as a stop. (Within the noise it goes on:
 * a slip from rest at mu0 = mu stays there for a while after its onset.) */
static void reversed_holds(const nsed_model *m, nsed_data *d) {
  nsedi_event_ws *ev = &d->ev;
  for (int c = 0; c < m->ncontact; c++) {
    if (ev->prev_mode[c] != NSED_MODE_SLIP || !ev->prev_held[c] || !d->cache.geom_ok[c] ||
        !nsedi_coulomb_friction(m, c) || (ev->trigger[c] & NSEDI_TRIG_STOPPED))
      continue;
    const nsedi_contact_geom *g = &d->cache.geom[c];
    double vs = g->row[1].vel * ev->prev_dir[2 * c] + g->row[2].vel * ev->prev_dir[2 * c + 1];
    if (vs < -nsedi_slip_noise(m, d, c)) ev->trigger[c] |= NSEDI_TRIG_STOPPED;
  }
}

/* Free slips at the slow regime's entry speed when another root fired:
 * their slowing root sits within the slip velocity's noise of zero, the
 * root finder reports the one that changed sign, and this event's
 * impulses move slip velocities by up to that noise. One left free may
 * start the next phase below the entry speed, where its root (detected
 * only when decreasing through zero) never fires and its direction turns
 * ever faster as it stops (the step size collapses). They enter the slow
 * hold at this event, as the one that fired. */
static void simultaneous_slowing(const nsed_model *m, nsed_data *d) {
  nsedi_event_ws *ev = &d->ev;
  for (int c = 0; c < m->ncontact; c++) {
    if (ev->prev_mode[c] != NSED_MODE_SLIP || ev->prev_held[c] || !d->cache.geom_ok[c] ||
        !nsedi_coulomb_friction(m, c) || (ev->trigger[c] & NSEDI_TRIG_SLOWED))
      continue;
    double level = NSEDI_SLOW_ENTRY * nsedi_slow_speed(m, d, c);
    if (nsedi_slip_speed(&d->cache.geom[c]) - level <= nsedi_slip_noise(m, d, c))
      ev->trigger[c] |= NSEDI_TRIG_SLOWED;
  }
}

/* Closed contacts that leave together with one whose lift-off root fired:
 * contacts between the same two bodies whose normal forces the phase
 * shares (a box's trailing edge as it tips over it) reach zero at the same
 * instant, but the root finder reports the one that changed sign; the
 * others sit within the share's noise of zero (the anchor's, a few
 * round-offs of the force scale). They join as lift-off candidates; the
 * event problem decides as for the first, opening only a contact it keeps
 * at zero force. */
static void simultaneous_liftoffs(const nsed_model *m, nsed_data *d) {
  nsedi_event_ws *ev = &d->ev;
  double fscale = 0;
  for (int c = 0; c < m->ncontact; c++)
    if (ev->prev_mode[c] != NSED_MODE_OPEN) fscale = fmax(fscale, fabs(d->cache.lambda_c[3 * c]));
  for (int a = 0; a < m->ncontact; a++) {
    if (!(ev->trigger[a] & NSEDI_TRIG_LIFTOFF)) continue;
    const nsedi_contact *A = &m->contact[a];
    for (int c = 0; c < m->ncontact; c++) {
      const nsedi_contact *C = &m->contact[c];
      if (c == a || ev->prev_mode[c] == NSED_MODE_OPEN || C->body != A->body || C->other != A->other) continue;
      if (fabs(d->cache.lambda_c[3 * c]) <= NSEDI_LIFTOFF_FORCE * fscale) ev->trigger[c] |= NSEDI_TRIG_LIFTOFF;
    }
  }
}

/* Redundant sticks that saturate together. Where the phase shared their
 * friction by load (docs/engine.md, "Redundant contacts"), every stick of
 * the share has the same utilisation, and when all of them reach the
 * boundary at once (a box's face vertices pushed at mu0 = mu) the wrench
 * they must carry is on the boundary of what the set can carry: each
 * force maximises the same supporting functional over its friction set.
 * The set is saturated, not just the share whose root fired, and every
 * member starts slipping against its shared force. The root finder
 * reports the one that changed sign; the others sit within the share's
 * noise of zero, and the degenerate event problem would leave the choice
 * of which keep sticking to that noise. Members without load beyond the
 * solve's round-off take no part (a tipping box's trailing edge). */
static void simultaneous_saturations(const nsed_model *m, nsed_data *d) {
  nsedi_event_ws *ev = &d->ev;
  if (!ev->prev_shares) return;
  double fscale = 0;
  for (int c = 0; c < m->ncontact; c++)
    if (ev->prev_mode[c] != NSED_MODE_OPEN) fscale = fmax(fscale, fabs(d->cache.lambda_c[3 * c]));
  double noise = NSEDI_FORCE_FLOOR * fscale, near = NSEDI_LIFTOFF_FORCE * fscale;
  for (int a = 0; a < m->ncontact; a++) {
    if (ev->prev_mode[a] != NSED_MODE_STICK || !(ev->trigger[a] & NSEDI_TRIG_SATURATED)) continue;
    const nsedi_contact *A = &m->contact[a];
    int all = 1, members = 0;
    for (int pass = 0; pass < 2 && all; pass++) {
      for (int c = 0; c < m->ncontact; c++) {
        const nsedi_contact *C = &m->contact[c];
        if (ev->prev_mode[c] != NSED_MODE_STICK || C->body != A->body || C->other != A->other) continue;
        const double *l = d->cache.lambda_c + 3 * c;
        double lt = hypot(l[1], l[2]);
        if (l[0] <= noise && lt <= noise) continue;
        if (pass == 0) {
          all &= nsedi_friction_margin(&m->opt, C->def.mu0, l[0], l[1], l[2]) <= near && lt > noise;
          members++;
          continue;
        }
        ev->trigger[c] |= NSEDI_TRIG_SATURATED | NSEDI_TRIG_NOSTICK;
        ev->pose_dir[2 * c] = -l[1] / lt;
        ev->pose_dir[2 * c + 1] = -l[2] / lt;
      }
      all &= members > 1; /* a share: two loaded sticks at least */
    }
  }
}

int nsedi_event_classify(const nsed_model *m, nsed_data *d, nsed_error *err) {
  const nsed_options *o = &m->opt;
  nsedi_event_ws *ev = &d->ev;
  int n = 0;
  if (ev->fired)
    for (int c = 0; c < m->ncontact; c++) ev->trigger[c] = triggers_of(d, c);
  nsedi_edge_enter(m, d);
  nsedi_edge_classify(m, d);
  for (int c = 0; c < m->ncontact; c++) {
    if (ev->edge_out[c]) continue; /* a tip on its sector edge: the edge stage's */
    if (!d->cache.geom_ok[c]) {
      if (ev->prev_mode[c] != NSED_MODE_OPEN || d->cache.geom[c].gap <= o->contact_tol) {
        d->failure_contact = c;
        return nsed_error_set(err, NSED_ERR_EVENT,
                              "t = %.17g: contact '%s' touches with a degenerate geometry: %s "
                              "(gap %.3g m)",
                              d->t, m->contact[c].def.name, nsedi_pair_degenerate(m->contact[c].pair),
                              d->cache.geom[c].gap);
      }
      continue;
    }
    if (m->contact[c].def.law == NSED_CONTACT_COMPLIANT) continue; /* a force law */
    if (ev->prev_mode[c] != NSED_MODE_OPEN || open_joins(m, d, c)) {
      if (ev->prev_mode[c] == NSED_MODE_OPEN) ev->trigger[c] |= NSEDI_TRIG_CLOSING;
      ev->cand[n++] = c;
    }
  }
  if (ev->fired) simultaneous_stops(m, d);
  if (ev->fired) reversed_holds(m, d);
  if (ev->fired) simultaneous_slowing(m, d);
  if (ev->fired) simultaneous_liftoffs(m, d);
  if (ev->fired) simultaneous_saturations(m, d);
  ev->n = nsedi_roller_drop_handed_over(m, d, n);
  return NSED_OK;
}
