/* Event stage "edge": a wheel held on the edge between two of its rollers'
 * sectors, both tips on the floor and slipping, its load shared between
 * them in the proportion that keeps the wheel from turning off the edge
 * (a sliding mode in Filippov's sense; docs/rollers.md, "The sector edge's
 * sliding mode").
 *
 * In the smooth phase the pair is two closed contacts: one tip keeps its
 * normal row, the other's normal row is replaced by its region indicator's
 * row, held at zero, with its own force column (its normal force and its
 * kinetic friction), so that its load is what holds the wheel on the edge
 * (eval.c). Its gap follows from its partner's where the vehicle's normal
 * rows are dependent (a rigid three-wheeler standing on four feet).
 *
 * At an event one tip of each pair carries the wheel into the event problem
 * (classify); this stage then poses the other again beside it, if the
 * first stays closed and the other slipped, and keeps the edge while both
 * tips' loads are not negative. Where one would pull, the sliding mode has ended: the
 * field on one side no longer points at the edge. The waiting tip opens,
 * and the wheel goes on on the other, whose region root is watched from
 * just below the edge (event_anchor.c), so that a wheel the remaining
 * tip's field turns into the waiting tip's sector hands over there at
 * once, by the ordinary handover.
 *
 * The mode is entered at the Zeno guard's storm (event_record.c leaves it
 * to the stage "rocking" below): a wheel whose contact goes back and forth
 * between two rollers, each side's forces turning it back to the edge,
 * rocks with shrinking amplitude and accumulates handovers in finite time;
 * the guard's remedy, as it closes a contact whose bounces accumulate, is
 * this mode: the residual turn rate off the edge is removed by an impulse
 * at the tip closed again (its normal and its kinetic friction), and the
 * mode is kept if it holds. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "math3.h"
#include "sim_impl.h"
#include "tolerances.h"

static int any_root_fired(const nsed_data *d, int c) {
  if (!d->ev.fired) return 0;
  for (int k = 0; k < NSEDI_ROOTS_PER_CONTACT; k++)
    if (d->ev.fired[NSEDI_ROOTS_PER_CONTACT * c + k]) return 1;
  return 0;
}

/* The roller of c's wheel whose tip touches beside c's at their sector
 * edge: open, on the floor to contact_tol, its region indicator within
 * twice the boundary's band of zero (the band the incoming side takes).
 * -1 if none. */
static int edge_partner(const nsed_model *m, const nsed_data *d, int c) {
  int w = m->contact[c].carrier, best = -1;
  if (w < 0) return -1;
  for (int o = 0; o < m->ncontact; o++) {
    if (o == c || m->contact[o].carrier != w || d->ev.prev_mode[o] != NSED_MODE_OPEN || !d->cache.geom_ok[o])
      continue;
    const nsedi_contact_geom *g = &d->cache.geom[o];
    if (g->gap > m->opt.contact_tol || fabs(g->region) > 2 * NSEDI_ROLLER_REGION_BAND) continue;
    if (best < 0 || g->gap < d->cache.geom[best].gap) best = o;
  }
  return best;
}

void nsedi_edge_enter(const nsed_model *m, nsed_data *d) {
  nsedi_event_ws *ev = &d->ev;
  memset(ev->edge_entered, 0, sizeof(int) * (size_t)m->ncontact);
  if (!ev->fired) return;
  for (int c = 0; c < m->ncontact; c++) {
    /* A region root of a roller that rose from below zero, fired below
     * zero: the wheel's turn came to rest, and reversed, before the roller
     * reached its sector (indicators.c). Its contact point is on the edge,
     * within the band, and the neighbour's tip touches beside it. */
    if (!(ev->trigger[c] & NSEDI_TRIG_REGION) || ev->prev_edge[c] >= 0 || !d->cache.geom_ok[c] ||
        !nsedi_region_turned_back(d, c))
      continue;
    int o = edge_partner(m, d, c);
    char why[512];
    if (o < 0 || ev->prev_edge[o] >= 0 || !nsedi_edge_capture(m, d, c, o, why, sizeof why)) continue;
    /* Held there: the event goes on from the pair on its edge, the tip
     * closed here waiting beside the one that carried the wheel, in the
     * slip the capture gave it. Where the mode does not hold, the event
     * decides the wheel's contact as at any other (the capture left
     * everything as it was). */
    ev->trigger[c] &= ~NSEDI_TRIG_REGION;
    ev->edge_entered[o] = 1;
    ev->prev_edge[c] = o, ev->prev_edge[o] = c;
    ev->prev_edge_row[c] = d->ph.edge_row[c], ev->prev_edge_row[o] = d->ph.edge_row[o];
    nsedi_slip_as_before(d, o);
  }
}

void nsedi_edge_classify(const nsed_model *m, nsed_data *d) {
  nsedi_event_ws *ev = &d->ev;
  memset(ev->edge_out, 0, sizeof(int) * (size_t)m->ncontact);
  for (int a = 0; a < m->ncontact; a++) {
    int b = ev->prev_edge[a];
    if (b <= a) continue; /* each pair once (b > a); b = -1: none */
    int lift_a = (ev->trigger[a] & NSEDI_TRIG_LIFTOFF) != 0, lift_b = (ev->trigger[b] & NSEDI_TRIG_LIFTOFF) != 0;
    if (lift_a || lift_b) {
      /* A tip whose load reached zero leaves the edge: it opens, the other
       * carries the wheel into the event problem. */
      if (lift_a) ev->edge_out[a] = NSEDI_EDGE_OPENS;
      if (lift_b) ev->edge_out[b] = NSEDI_EDGE_OPENS;
      continue;
    }
    /* A tip with an event of its own (its slip stopping, changing its
     * regime) is resolved in the problem, and the other waits; where both
     * have one, the edge ends here and the tip with the region row opens. */
    int fa = any_root_fired(d, a), fb = any_root_fired(d, b);
    int row_tip = ev->prev_edge_row[a] ? a : b;
    int waits = fb && !fa ? a : fa && !fb ? b : row_tip;
    ev->edge_out[waits] = fa && fb ? NSEDI_EDGE_OPENS : NSEDI_EDGE_WAITS;
  }
}

/* The waiting tip q goes on as it slipped before the event, beside p. */
static void pose_waiting(nsed_data *d, int q, int p) {
  const nsedi_event_ws *ev = &d->ev;
  d->ph.mode[q] = NSED_MODE_SLIP;
  nsedi_slip_goes_on(d, q);
  d->ph.spin[q] = ev->prev_spin[q];
  d->ph.edge[q] = p;
  d->ph.edge[p] = q;
  d->ph.edge_row[q] = 1;
  d->ph.edge_row[p] = 0;
}

static void end_edge(nsed_data *d, int q, int p) {
  d->ph.mode[q] = d->ph.spin[q] = NSED_MODE_OPEN;
  d->ph.edge[q] = d->ph.edge[p] = -1;
  d->ph.edge_row[q] = d->ph.edge_row[p] = 0;
}

/* Why a pair on its edge does not hold there (0: it holds): a tip's load
 * below the solve's round-off of the force scale (it would pull), or the
 * waiting tip's gap not held by its partner's (its normal acceleration
 * beyond NSEDI_EDGE_DEPENDENT of the accelerations' scale: its normal row
 * is not implied by the others', as on a sprung wheel). */
enum { EDGE_HOLDS, EDGE_PULLS, EDGE_GAP_FREE };

static int edge_fails(const nsed_model *m, const nsed_data *d, int q, int p, double *an_out, double *ascale_out) {
  double fscale = d->ev.fscale, ascale = 0;
  for (int c = 0; c < m->ncontact; c++)
    if (d->ph.mode[c] != NSED_MODE_OPEN) fscale = fmax(fscale, d->cache.lambda_c[3 * c]);
  for (int k = 0; k < m->nv; k++) ascale = fmax(ascale, fabs(d->cache.du[k]));
  ascale = fmax(ascale, nsedi_v3_norm(m->opt.gravity));
  double floor = NSEDI_FORCE_FLOOR * fscale;
  const nsedi_contact_geom *gq = &d->cache.geom[q];
  double eta = m->opt.baumgarte_eta, xi = m->opt.baumgarte_xi;
  double an = nsedi_row_accel(&gq->row[0], d->cache.du) + 2 * eta * gq->row[0].vel + xi * xi * gq->gap;
  if (an_out) *an_out = an, *ascale_out = ascale;
  if (d->cache.lambda_c[3 * p] < -floor || d->cache.lambda_c[3 * q] < -floor) return EDGE_PULLS;
  return fabs(an) > NSEDI_EDGE_DEPENDENT * ascale ? EDGE_GAP_FREE : EDGE_HOLDS;
}

int nsedi_event_edge(const nsed_model *m, nsed_data *d, nsed_error *err) {
  nsedi_event_ws *ev = &d->ev;
  int posed = 0;
  for (int q = 0; q < m->ncontact; q++) {
    int p = ev->prev_edge[q];
    if (p < 0) continue;
    d->ph.edge[q] = -1;
    d->ph.edge_row[q] = 0;
  }
  for (int q = 0; q < m->ncontact; q++) {
    int p = ev->prev_edge[q];
    if (p < 0 || ev->edge_out[q] != NSEDI_EDGE_WAITS) continue;
    /* The wheel's other tip, as the event problem decided it, closed, and
     * the waiting tip slipping: its kinetic friction is what its load turns
     * the wheel with. Else the sliding mode has ended, and the waiting tip
     * opens. */
    if (d->ph.mode[p] == NSED_MODE_OPEN || (ev->prev_mode[q] != NSED_MODE_SLIP && !ev->edge_entered[q]) ||
        !d->cache.geom_ok[q])
      continue;
    pose_waiting(d, q, p);
    posed = 1;
  }
  if (!posed) return NSED_OK;
  /* Equations that cannot be solved (the waiting tip's load no longer
   * turns the wheel: its friction along the axle) hold no edge either. */
  nsed_error ignored;
  int solved = nsedi_eval(m, d, d->t, d->x, NULL, &ignored) == NSED_OK, ended = 0;
  for (int q = 0; q < m->ncontact; q++) {
    int p = d->ph.edge[q];
    if (p < 0 || !d->ph.edge_row[q] || (solved && edge_fails(m, d, q, p, NULL, NULL) == EDGE_HOLDS)) continue;
    end_edge(d, q, p);
    ended = 1;
  }
  return ended ? nsedi_eval(m, d, d->t, d->x, NULL, err) : NSED_OK;
}

/* The impulse that removes tip q's region rate (the rocking's residual turn
 * off the edge) along its force column, every other active row keeping
 * its velocity; its kinetic energy change is booked as contact work. */
static int stop_turning(const nsed_model *m, nsed_data *d, int q, nsed_error *err) {
  nsedi_smooth_ws *w = &d->sw;
  int nr = w->nr, qrow = -1;
  for (int i = m->nrow; i < nr && qrow < 0; i++)
    if (w->row_contact[i] == q) qrow = i;
  if (qrow < 0) return nsed_error_set(err, NSED_ERR_INTERNAL, "the edge's region row is not among the rows");
  for (int i = 0; i < nr; i++) w->target[i] = i == qrow ? -w->rows[i].vel : 0.0;
  memset(d->cache.f, 0, sizeof(double) * (size_t)m->nv);
  int deficient = 0;
  int rc = nsedi_solve_constrained(m, w->ws, nr, w->rows, w->cols, w->target, d->cache.f, NULL,
                                   d->ev.du_imp, w->lam, &deficient);
  if (rc) return nsed_error_set(err, rc, "the impulse that stops the turn off the edge: %s", nsed_status_text(rc));
  double T0 = nsedi_state_kinetic(m, d);
  nsedi_add_velocity(m, d->x, d->ev.du_imp);
  d->x[m->nstate + 1] += nsedi_state_kinetic(m, d) - T0;
  nsedi_refresh_geometry(m, d);
  nsedi_realign_fast_slips(m, d);
  return nsedi_eval(m, d, d->t, d->x, NULL, err);
}

int nsedi_edge_capture(const nsed_model *m, nsed_data *d, int c, int o, char *why, size_t size) {
  int p = d->ph.mode[c] != NSED_MODE_OPEN ? c : o, q = p == c ? o : c;
  why[0] = '\0';
  if (d->ph.mode[p] != NSED_MODE_SLIP || d->ph.mode[q] != NSED_MODE_OPEN || !d->cache.geom_ok[q] ||
      nsedi_exact_torsion(m, q)) {
    snprintf(why, size, "; not held on the edge: the tip carrying the wheel does not slip");
    return 0;
  }
  const nsedi_contact_geom *gq = &d->cache.geom[q];
  double sp = nsedi_slip_speed(gq);
  if (gq->gap > m->opt.contact_tol || !(sp > m->opt.slip_tol)) {
    snprintf(why, size, "; not held on the edge: the other tip %s",
             gq->gap > m->opt.contact_tol ? "is off the floor" : "does not slip");
    return 0;
  }
  nsedi_event_ws *ev = &d->ev;
  int ns = m->nstate + NSEDI_NWORK;
  memcpy(ev->x_tmp, d->x, sizeof(double) * (size_t)ns);
  /* A new slip of q along its velocity, held on that direction. */
  d->ph.mode[q] = NSED_MODE_SLIP;
  d->ph.spin[q] = NSED_MODE_OPEN;
  d->ph.held[q] = 1;
  d->ph.slow[q] = sp < nsedi_slow_speed(m, d, q);
  d->ph.off_circle[q] = 0;
  d->ph.hold_mu[q] = m->contact[q].def.mu;
  d->ph.dir[2 * q] = gq->row[1].vel / sp;
  d->ph.dir[2 * q + 1] = gq->row[2].vel / sp;
  d->ph.edge[q] = p;
  d->ph.edge[p] = q;
  d->ph.edge_row[q] = 1;
  d->ph.edge_row[p] = 0;
  nsed_error err;
  nsed_error_clear(&err);
  double turn = NAN;
  int rc = nsedi_eval(m, d, d->t, d->x, NULL, &err);
  if (rc == NSED_OK) {
    for (int i = m->nrow; i < d->sw.nr; i++)
      if (d->sw.row_contact[i] == q) {
        turn = d->sw.rows[i].vel;
        break;
      }
    rc = stop_turning(m, d, q, &err);
  }
  double an = 0, ascale = 0;
  int fails = rc == NSED_OK ? edge_fails(m, d, q, p, &an, &ascale) : EDGE_HOLDS;
  if (rc == NSED_OK && fails == EDGE_HOLDS) {
    snprintf(why, size, "%.3g", turn);
    return 1;
  }
  if (rc)
    snprintf(why, size, "; not held on the edge: its equations could not be solved (%s)", err.message);
  else if (fails == EDGE_PULLS)
    snprintf(why, size, "; not held on the edge: a tip would pull ('%s' %.3g N, '%s' %.3g N)",
             m->contact[p].def.name, d->cache.lambda_c[3 * p], m->contact[q].def.name, d->cache.lambda_c[3 * q]);
  else
    snprintf(why, size,
             "; not held on the edge: '%s' is not held on the floor by '%s' (its normal "
             "acceleration %.3g, beyond %g of the accelerations' scale %.3g: its normal row is not "
             "implied by the others', as on a sprung wheel)",
             m->contact[q].def.name, m->contact[p].def.name, an, NSEDI_EDGE_DEPENDENT, ascale);
  memcpy(d->x, ev->x_tmp, sizeof(double) * (size_t)ns);
  end_edge(d, q, p);
  d->ph.held[q] = ev->prev_held[q];
  (void)nsedi_eval(m, d, d->t, d->x, NULL, &err);
  return 0;
}

int nsedi_event_rocking(const nsed_model *m, nsed_data *d, const nsed_observer *obs, nsed_error *err) {
  int c = d->ev.rocking, together = 0;
  if (c < 0) return NSED_OK;
  int o = nsedi_roller_storm_partner(m, d, c, &together);
  if (o < 0) return nsedi_storm_error(m, d, c, "", err);
  int reopened = d->ph.mode[c] == NSED_MODE_OPEN ? c : o;
  char why[512], msg[1024];
  if (nsedi_edge_capture(m, d, c, o, why, sizeof why)) {
    d->zeno.n[c] = d->zeno.n[o] = 0;
    nsedi_event_anchor_contact(m, d, c);
    nsedi_event_anchor_contact(m, d, o);
    if (nsedi_event_emit(m, d, obs, NSED_EVENT_ZENO, reopened, NSED_MODE_OPEN, d->ph.mode[reopened], NULL))
      return nsed_error_set(err, NSED_ERR_IO, "writing the event log failed");
    return NSED_OK;
  }
  snprintf(msg, sizeof msg,
           ". Wheel '%s' hands its contact back and forth between '%s' and '%s' (%d of the "
           "%d events at the same instants): its turn reverses at every handover, the forces on "
           "either side of the sector edge turning it back (docs/rollers.md, \"Rocking on a "
           "sector edge\")%s",
           m->body[m->contact[c].carrier].def.name, m->contact[o < c ? o : c].def.name,
           m->contact[o < c ? c : o].def.name, together, m->opt.zeno_events, why);
  return nsedi_storm_error(m, d, c, msg, err);
}
