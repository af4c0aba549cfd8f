/* The event step (DESIGN.md §7, §8; docs/engine.md, "The event step"): at a
 * root of the indicators, or at the start, the contacts' modes are decided
 * anew by named stages, each in its own file with one responsibility:
 *
 *   prepare    the state renormalised (and projected onto the closed
 *              contacts when one has drifted), the forces just before the event
 *   classify   what each fired root means (triggers); the touching contacts;
 *              a wheel whose turn came to rest on a sector edge held there
 *   impact     the velocity-level problem if a touching contact approaches
 *   regimes    each continuing slip held, slow or free, before it is posed
 *   modes      the acceleration-level problem and the modes it decides
 *   edge       a wheel's two tips on a sector edge posed again, or the edge left
 *   directions the direction each new or slowing slip is held on
 *   settle     impulses that remove residual velocities of stops and onsets
 *   anchor     the next phase's root offsets and region signs
 *   record     the events, the Zeno guard, the event limits
 *   rocking    a wheel rocking on a sector edge held on it (the guard's remedy)
 *   verify     the new modes evaluated once in the smooth-phase equations
 *
 * The law monitor then checks the new phase's forces (simulate.c). */
#include <math.h>
#include <string.h>

#include "sim_impl.h"
#include "tolerances.h"

/* The forces of the phase that ends here, at the event's state: the
 * saturated friction force a slip onset starts from. */
static int prepare(const nsed_model *m, nsed_data *d, const int *fired, nsed_error *err) {
  nsedi_event_ws *ev = &d->ev;
  int nc = m->ncontact;
  ev->fired = fired;
  d->failure_contact = -1;
  nsedi_normalize_quats(m, d->x);
  memcpy(ev->prev_mode, d->ph.mode, sizeof(nsed_mode) * (size_t)nc);
  memcpy(ev->prev_held, d->ph.held, sizeof(int) * (size_t)nc);
  memcpy(ev->prev_slow, d->ph.slow, sizeof(int) * (size_t)nc);
  memcpy(ev->prev_off_circle, d->ph.off_circle, sizeof(int) * (size_t)nc);
  memcpy(ev->prev_dir, d->ph.dir, sizeof(double) * 2 * (size_t)nc);
  memcpy(ev->prev_hold_mu, d->ph.hold_mu, sizeof(double) * (size_t)nc);
  memcpy(ev->prev_spin, d->ph.spin, sizeof(nsed_mode) * (size_t)nc);
  memcpy(ev->prev_spin_sign, d->ph.spin_sign, sizeof(double) * (size_t)nc);
  memcpy(ev->prev_edge, d->ph.edge, sizeof(int) * (size_t)nc);
  memcpy(ev->prev_edge_row, d->ph.edge_row, sizeof(int) * (size_t)nc);
  memset(ev->trigger, 0, sizeof(int) * (size_t)nc);
  memset(ev->impacted, 0, sizeof(int) * (size_t)nc);
  memset(ev->impulse, 0, sizeof(double) * 3 * (size_t)nc);
  memset(ev->taking_over, 0, sizeof(int) * (size_t)nc);
  ev->impact = 0;
  ev->rocking = -1;
  ev->onsets_on_polygon = 0;
  ev->stops_unsettled = 1;
  ev->circle_why = ev->circle_culprit = 0;
  ev->n = ev->na = 0;
  memset(&ev->ist, 0, sizeof ev->ist);
  memset(&ev->ast, 0, sizeof ev->ast);
  int rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
  if (rc == NSED_OK) rc = nsedi_event_project(m, d, err);
  if (rc) return rc;
  ev->prev_shares = d->sw.deficient && nsedi_forces_anchored(m, d);
  ev->fscale = 1e-300;
  for (int k = 0; k < m->nv; k++) ev->fscale = fmax(ev->fscale, fabs(d->cache.f[k]));
  return NSED_OK;
}

/* The new modes once in the smooth-phase equations: a closed contact whose
 * normal force the smooth phase makes negative was closed inconsistently. */
static int verify(const nsed_model *m, nsed_data *d, nsed_error *err) {
  int rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
  if (rc) return rc;
  double fscale = d->ev.fscale;
  for (int k = 0; k < m->nv; k++) fscale = fmax(fscale, fabs(d->cache.f[k]));
  for (int c = 0; c < m->ncontact; c++) {
    if (d->ph.mode[c] == NSED_MODE_OPEN) continue;
    double ln = d->cache.lambda_c[3 * c];
    if (ln < -NSEDI_INCONSISTENT_NORMAL * fscale) {
      d->failure_contact = c;
      return nsed_error_set(err, NSED_ERR_EVENT,
                            "t = %.17g: contact '%s' was closed by the contact problem but its "
                            "normal force is %.6g N < 0 in the smooth phase (inconsistent mode)",
                            d->t, m->contact[c].def.name, ln);
    }
  }
  return NSED_OK;
}

/* The mode decision: the acceleration problem, then the wheels' tips on
 * their sector edges posed again beside it (every decision, each round,
 * so that the directions are searched with the edge's forces). */
static int decide_modes(const nsed_model *m, nsed_data *d, nsed_error *err) {
  int rc = nsedi_event_modes(m, d, err);
  return rc == NSED_OK ? nsedi_event_edge(m, d, err) : rc;
}

/* The slips' directions change the forces of the sticks they are coupled
 * with: a stick pushed onto its boundary is posed as slipping too and the
 * modes decided again (each round poses one more: at most nc rounds). */
static int direction_rounds(const nsed_model *m, nsed_data *d, nsed_error *err) {
  int rc = NSED_OK;
  for (int round = 0; rc == NSED_OK && round <= m->ncontact; round++) {
    int off_circle = 0;
    rc = nsedi_event_lines(m, d, &off_circle, err);
    if (rc == NSED_OK && off_circle) {
      /* No directions on the circle: the onsets start on the problem's own
       * forces, and every mode is decided again under them. A stick the
       * circle's forces had pushed off its boundary is posed afresh. Once
       * per event, so the rounds start again. */
      d->ev.onsets_on_polygon = 1;
      for (int c = 0; c < m->ncontact; c++) d->ev.trigger[c] &= ~NSEDI_TRIG_NOSTICK;
      rc = decide_modes(m, d, err);
      round = -1;
      continue;
    }
    if (rc || nsedi_event_boundary_sticks(m, d) == 0) break;
    rc = decide_modes(m, d, err);
  }
  return rc;
}

/* The rounds, then the settling impulses. The modes were decided at the
 * velocities before the impulses; where the phase's forces after them
 * leave a stick on or beyond its boundary, the modes are decided again at
 * the settled state (docs/engine.md, "Modes at the settled state"); where
 * the impulse is refused, with the stops it could not bring to rest
 * slipping on ("A stop the impulse cannot make"). */
static int settled_modes(const nsed_model *m, nsed_data *d, nsed_error *err) {
  for (int pass = 1;; pass++) {
    int rc = direction_rounds(m, d, err);
    if (rc == NSED_OK) rc = nsedi_event_settle(m, d, err);
    /* A stop whose residual the refused impulse left is not at rest. */
    if (rc == NSED_OK && d->ev.settle_refused && pass < NSEDI_SETTLE_PASSES &&
        nsedi_event_unstopped(m, d) > 0) {
      rc = decide_modes(m, d, err);
      if (rc) return rc;
      continue;
    }
    if (rc || !d->ev.settled || pass >= NSEDI_SETTLE_PASSES) return rc;
    rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
    if (rc || nsedi_event_boundary_sticks(m, d) == 0) return rc;
    rc = decide_modes(m, d, err);
    if (rc) return rc;
  }
}

int nsedi_resolve(const nsed_model *m, nsed_data *d, const int *fired, const nsed_observer *obs,
                  nsed_error *err) {
  d->ev.by_motion = 1;
  int rc = prepare(m, d, fired, err);
  /* Time events first: they change no mode. */
  if (rc == NSED_OK && fired && fired[NSEDI_ROOTS_PER_CONTACT * m->ncontact] &&
      nsedi_event_emit(m, d, obs, NSED_EVENT_TIME, -1, NSED_MODE_OPEN, NSED_MODE_OPEN, NULL))
    rc = nsed_error_set(err, NSED_ERR_IO, "writing the event log failed");
  d->t_next_breakpoint = nsedi_next_breakpoint(m, d->t);
  if (rc == NSED_OK) rc = nsedi_event_classify(m, d, err);
  if (rc == NSED_OK) rc = nsedi_event_impact(m, d, err);
  if (rc == NSED_OK) nsedi_event_regimes(m, d);
  if (rc == NSED_OK) rc = decide_modes(m, d, err);
  if (rc == NSED_OK) rc = settled_modes(m, d, err);
  if (rc == NSED_OK) nsedi_event_anchor(m, d);
  if (rc == NSED_OK) rc = nsedi_event_record(m, d, obs, err);
  if (rc == NSED_OK) rc = nsedi_event_rocking(m, d, obs, err);
  d->ev.by_motion = 0; /* the new phase's equations, on the sides anchored */
  d->ev.stops_unsettled = 0;
  if (rc == NSED_OK) rc = verify(m, d, err);
  /* At the phase's start state (verify evaluated it): the drive tables'
   * segments, after any impulse of this event. */
  if (rc == NSED_OK && m->nkink > 0 && nsedi_kinks_pose(m, d, fired, obs))
    rc = nsed_error_set(err, NSED_ERR_IO, "writing the event log failed");
  return rc;
}

int nsedi_project_velocities(const nsed_model *m, nsed_data *d, nsed_error *err) {
  /* The M-orthogonal projection onto J u = 0 is the velocity change of a
   * unit-free impulse: du = M^-1 J^T lambda with J du = -J u. */
  if (m->nrow == 0) return NSED_OK;
  nsedi_smooth_ws *w = &d->sw;
  nsedi_kin_eval(m, d->x, d->cache.kin);
  int nr = 0;
  for (int j = 0; j < m->njoint; j++) {
    int n = nsedi_joint_rows(m, j, d->cache.kin, d->t, w->rows + nr), kept = 0;
    /* A row with its own feedback starts from the bodies' own rate. */
    for (int k = 0; k < n; k++)
      if (!w->rows[nr + k].own_feedback) w->rows[nr + kept++] = w->rows[nr + k];
    nr += kept;
  }
  if (nr == 0) return NSED_OK;
  for (int i = 0; i < nr; i++) w->target[i] = -w->rows[i].vel;
  for (int k = 0; k < m->nv; k++) d->cache.f[k] = 0.0;
  int deficient = 0;
  int rc = nsedi_solve_constrained(m, w->ws, nr, w->rows, w->rows, w->target, d->cache.f, NULL,
                                   d->cache.du, w->lam, &deficient);
  if (rc)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "the initial velocities cannot be made consistent with the joints "
                          "(contradictory joints?)");
  nsedi_add_velocity(m, d->x, d->cache.du);
  return NSED_OK;
}
