/* Event stage "modes": the acceleration-level problem for the contacts that
 * touch without separating velocity, and the modes its answer decides
 * (docs/engine.md, "The event step" and "Stick to slip").
 *
 * How each contact is posed follows from its trigger, not from speed
 * thresholds: a sticking contact whose friction reached the boundary of
 * its friction set (its margin root fired) cannot keep sticking, since its
 * stick force moves outwards: the problem is posed as just after the root
 * (its friction set shrunk by NSEDI_SATURATION_SHRINK), which makes it a
 * slip onset in the direction maximal dissipation gives; a held slip whose
 * velocity reached zero is a stick candidate; a slip that goes on keeps
 * its direction. The answer is then evaluated in the smooth phase, and a
 * contact that would start sticking with its force on the friction set's
 * boundary (a graze: the stick force there moves outwards) is posed as
 * slipping against that force and the problem solved again. */
#include <math.h>
#include <string.h>

#include "sim_impl.h"
#include "tolerances.h"

/* The direction opposite to a tangential force, or 0 if there is none. */
static int against(const double l[3], double s[2]) {
  double lt = hypot(l[1], l[2]);
  if (!(lt > 0)) return 0;
  s[0] = -l[1] / lt;
  s[1] = -l[2] / lt;
  return 1;
}

/* A slip's friction direction before the event: its held direction, else
 * along v. */
static void slip_direction(const nsed_data *d, int c, double s[2]) {
  const nsedi_contact_geom *g = &d->cache.geom[c];
  double sp = nsedi_slip_speed(g);
  if (d->ev.prev_held[c] || !(sp > 0)) {
    s[0] = d->ev.prev_dir[2 * c];
    s[1] = d->ev.prev_dir[2 * c + 1];
  } else {
    s[0] = g->row[1].vel / sp;
    s[1] = g->row[2].vel / sp;
  }
}

/* A held slip that an impact of this event turned back (its velocity no
 * longer along its direction): it stopped within the impact, and its
 * velocity after the impact, not its old direction, starts what follows.
 * Kept on its direction, a slow slip reversed so would run backwards
 * without a stop root. */
static int impact_reversed(const nsed_data *d, int c) {
  const nsedi_event_ws *ev = &d->ev;
  if (!ev->impact || ev->prev_mode[c] != NSED_MODE_SLIP || !ev->prev_held[c]) return 0;
  const nsedi_contact_geom *g = &d->cache.geom[c];
  return g->row[1].vel * ev->prev_dir[2 * c] + g->row[2].vel * ev->prev_dir[2 * c + 1] <= 0;
}

/* How candidate i enters the acceleration problem. */
static void pose(const nsed_model *m, nsed_data *d, int i) {
  nsedi_event_ws *ev = &d->ev;
  int c = ev->cand[i], trig = ev->trigger[c];
  const nsed_contact_def *cd = &m->contact[c].def;
  const nsedi_contact_geom *g = &d->cache.geom[c];
  nsed_cp_contact *p = &ev->cpc[i];
  memset(p, 0, sizeof *p);
  p->mu = cd->mu;
  p->mu0 = cd->mu0;
  double sp = nsedi_slip_speed(g);
  nsed_mode prev = ev->prev_mode[c];
  if (cd->law == NSED_CONTACT_REGULARIZED) {
    /* Kosenko's law: always the kinetic branch, mu min(1, |v|/delta) along v. */
    p->kind = NSED_CP_SLIPPING;
    p->mu = cd->mu * fmin(1.0, sp / cd->delta);
    p->slip_dir[0] = sp > 0 ? g->row[1].vel / sp : 1.0;
    p->slip_dir[1] = sp > 0 ? g->row[2].vel / sp : 0.0;
    return;
  }
  if (cd->mu0 == 0 && cd->mu == 0) {
    p->kind = NSED_CP_FRICTIONLESS;
    return;
  }
  if (trig & NSEDI_TRIG_NOSTICK) {
    p->kind = NSED_CP_SLIPPING;
    p->slip_dir[0] = ev->pose_dir[2 * c];
    p->slip_dir[1] = ev->pose_dir[2 * c + 1];
    p->mu = nsedi_kinetic_mu(m, c, sp, -p->slip_dir[0], -p->slip_dir[1]);
    return;
  }
  /* A slip goes on unless it stopped here, or an impact left it at rest
   * or turned it back. */
  int reversed = impact_reversed(d, c);
  /* Its stop (if its root fired too) was before the impact: what follows
   * starts from the impact's velocity, which no settling removes. */
  if (reversed) ev->trigger[c] &= ~NSEDI_TRIG_STOPPED;
  int unstopped = (trig & NSEDI_TRIG_UNSTOPPED) != 0;
  int slipping = prev == NSED_MODE_SLIP && !(trig & NSEDI_TRIG_STOPPED) && !unstopped &&
                 !(ev->impact && sp <= m->opt.slip_tol) && !reversed;
  /* A contact arriving with a tangential velocity slips along it; so does
   * one that an impact of this event set sliding: a stick (the impact
   * problem's friction impulse on its cone's boundary leaves it a
   * velocity, and sticking needs none) or a slip it turned back; and a
   * stop the settling impulse could not make (its velocity is what it
   * slips against, not its old held direction). */
  int arriving = (prev == NSED_MODE_OPEN || (prev == NSED_MODE_STICK && ev->impact) || reversed ||
                  unstopped) &&
                 sp > m->opt.slip_tol;
  if (slipping || arriving) {
    p->kind = NSED_CP_SLIPPING;
    if (slipping) slip_direction(d, c, p->slip_dir);
    else {
      p->slip_dir[0] = g->row[1].vel / sp;
      p->slip_dir[1] = g->row[2].vel / sp;
    }
    p->mu = nsedi_kinetic_mu(m, c, sp, -p->slip_dir[0], -p->slip_dir[1]);
    /* a slow onset on the polygon's force keeps its magnitude */
    if (slipping && ev->prev_held[c] && ev->prev_slow[c] && ev->prev_off_circle[c])
      p->mu = ev->prev_hold_mu[c];
    return;
  }
  p->kind = NSED_CP_STICK_CANDIDATE;
  /* At its friction root the stick force sits on the friction set's
   * boundary, moving out: the problem is posed as just after the root, with
   * the set shrunk by the amount the force leaves it in a moment; the answer
   * is a slip onset whose direction maximal dissipation chooses (on the
   * polygon: a face normal or within a vertex's cone). Not where the phase
   * shared redundant sticks' forces: there the share, not the force the
   * set needs, reached the boundary, and the problem with the anchor
   * search decides whether other shares hold it (if none do, the stick
   * ends on its boundary and is posed as slipping below). */
  if (prev == NSED_MODE_STICK && (trig & NSEDI_TRIG_SATURATED) && !ev->prev_shares)
    p->mu0 *= 1 - ev->shrink;
}

/* How spin row k (exact torsional friction) enters the acceleration
 * problem, by the same rules as the tangential friction: a turning spin
 * goes on unless it stopped here (or an impact left it at rest); a spin
 * arriving with a spin velocity turns; a sticking one whose moment reached
 * the boundary (its root fired) is posed just after the root. */
static void pose_spin(const nsed_model *m, nsed_data *d, int k) {
  nsedi_event_ws *ev = &d->ev;
  int i = ev->spin_of[k], c = ev->cand[i], trig = ev->trigger[c];
  double w = d->cache.geom[c].spin.vel, rest = nsedi_spin_rest_speed(m, c);
  nsed_cp_spin *p = &ev->cps[k];
  *p = (nsed_cp_spin){.contact = i, .kind = NSED_CP_STICK_CANDIDATE,
                      .mu = m->contact[c].def.torsion, .sign = 1.0};
  if (trig & NSEDI_TRIG_SPIN_NOSTICK) {
    p->kind = NSED_CP_SLIPPING;
    p->sign = trig & NSEDI_TRIG_SPIN_NEGATIVE ? -1.0 : 1.0;
    return;
  }
  nsed_mode prev = ev->prev_spin[c];
  int turning = prev == NSED_MODE_SLIP && !(trig & NSEDI_TRIG_SPIN_STOPPED) &&
                !(ev->impact && fabs(w) <= rest);
  int arriving = ev->prev_mode[c] == NSED_MODE_OPEN && fabs(w) > rest;
  if (turning || arriving) {
    p->kind = NSED_CP_SLIPPING;
    p->sign = turning ? ev->prev_spin_sign[c] : w > 0 ? 1.0 : -1.0;
    return;
  }
  if (prev == NSED_MODE_STICK && (trig & NSEDI_TRIG_SPIN_SATURATED)) p->mu *= 1 - d->ev.shrink;
}

/* The touching contacts without separating velocity (a roller taking over
 * approaches with its geometry's speed), into cand[0, na) in their order;
 * the others are moved behind them, not overwritten, so that the stage can
 * run again at the same event (its later rounds) on the same n contacts. */
static int accel_candidates(const nsed_model *m, nsed_data *d) {
  nsedi_event_ws *ev = &d->ev;
  double vtol = m->opt.slip_tol;
  int na = 0;
  for (int i = 0; i < ev->n; i++) {
    int c = ev->cand[i];
    double vn = d->cache.geom[c].row[0].vel;
    int drift = ev->prev_mode[c] != NSED_MODE_OPEN && !nsedi_separating(m, d, c);
    if (vn <= vtol || drift || (ev->taking_over[c] && vn <= NSEDI_GRAZING_APPROACH * vtol)) {
      ev->cand[i] = ev->cand[na];
      ev->cand[na++] = c;
    }
  }
  return na;
}

/* The normal rows as the smooth phase holds them closed: its
 * stabilisation's terms 2 eta v_n + xi^2 gap are part of the normal
 * acceleration it keeps at zero, so they are part of the problem's, and
 * the problem's answer is the forces the phase applies. Left out, the two
 * feet of one wheel at a handover (nearly dependent rows) share their load
 * in the phase otherwise than in the problem: 1.1e-4 N from gaps of 1e-9 m
 * on the mecanum car (docs/engine.md, "The event problem's normal rows"). */
static void stabilised_normals(const nsed_model *m, nsed_data *d, int na) {
  double eta = m->opt.baumgarte_eta, xi = m->opt.baumgarte_xi;
  for (int i = 0; i < na; i++) {
    const nsedi_contact_geom *g = &d->cache.geom[d->ev.cand[i]];
    d->ev.b[3 * i] += 2 * eta * g->row[0].vel + xi * xi * g->gap;
  }
}

/* Pose and solve the acceleration problem of cand[0, na), the saturated
 * sticks' sets shrunk by `shrink`. */
static int solve_shrunk(const nsed_model *m, nsed_data *d, int na, double shrink, nsed_error *err) {
  d->ev.shrink = shrink;
  int rc = nsedi_event_build(m, d, na);
  if (rc)
    return nsed_error_set(err, rc, "t = %.17g: the contact problem could not be assembled (%s)",
                          d->t, nsed_status_text(rc));
  for (int i = 0; i < na; i++) pose(m, d, i);
  for (int k = 0; k < d->ev.nw; k++) pose_spin(m, d, k);
  if (m->opt.event_resolver == NSED_RESOLVER_TRIAL) return nsedi_trial_modes(m, d, na, &d->ev.ast, err);
  stabilised_normals(m, d, na);
  return nsedi_event_solve(m, d, na, 0, &d->ev.ast, err);
}

/* Whether a candidate was posed with its set shrunk. */
static int any_shrunk(const nsed_model *m, const nsed_data *d, int na) {
  for (int i = 0; i < na; i++)
    if (d->ev.cpc[i].kind == NSED_CP_STICK_CANDIDATE && d->ev.cpc[i].mu0 < m->contact[d->ev.cand[i]].def.mu0)
      return 1;
  return 0;
}

/* The problem's answer for the modes stage. Where onsets start on the
 * problem's own forces (the circle admits no direction for them), those
 * forces are taken at a vanishing shrink: the shrink moves them by a
 * first-order amount, which at mu0 = mu, where such an onset's acceleration
 * starts at zero, decides its sign. The answer for the shrink doubled
 * gives the limit, 2 l(s) - l(2 s), to second order, when both have the
 * same modes (else the answer stays the shrunk one's). */
static int solve(const nsed_model *m, nsed_data *d, int na, nsed_error *err) {
  nsedi_event_ws *ev = &d->ev;
  int rc = solve_shrunk(m, d, na, NSEDI_SATURATION_SHRINK, err);
  ev->extrapolated = 0;
  if (rc || !ev->onsets_on_polygon || m->opt.event_resolver == NSED_RESOLVER_TRIAL ||
      !any_shrunk(m, d, na))
    return rc;
  int nr = 3 * na + ev->nw;
  rc = solve_shrunk(m, d, na, 2 * NSEDI_SATURATION_SHRINK, err);
  if (rc) return rc;
  memcpy(ev->cl_twice, ev->cl, sizeof(double) * (size_t)nr);
  memcpy(ev->cmode_twice, ev->cmode, sizeof(nsed_cp_mode) * (size_t)na);
  memcpy(ev->cmode_twice + na, ev->cspin, sizeof(nsed_cp_mode) * (size_t)ev->nw);
  rc = solve_shrunk(m, d, na, NSEDI_SATURATION_SHRINK, err);
  if (rc) return rc;
  int same = !memcmp(ev->cmode_twice, ev->cmode, sizeof(nsed_cp_mode) * (size_t)na) &&
             !memcmp(ev->cmode_twice + na, ev->cspin, sizeof(nsed_cp_mode) * (size_t)ev->nw);
  if (!same) return NSED_OK;
  for (int r = 0; r < nr; r++) ev->cl[r] = 2 * ev->cl[r] - ev->cl_twice[r];
  ev->extrapolated = 1;
  return NSED_OK;
}

/* An onset on the event problem's own friction force: against it, with its
 * magnitude while the slip is slow. For a stick candidate of the problem
 * that force is on the friction polygon (up to 1/cos(pi/sides) of the
 * circle's) and the problem's accelerations then hold: they lie in the
 * polygon's normal cone at that force, its law of maximal dissipation. A
 * contact the problem had posed as slipping has the circle's force.
 *
 * The force is on the polygon the problem was posed with: for a stick
 * whose friction saturated, mu0 shrunk to a moment after its root (the
 * modes stage), unless the answer was extrapolated to a vanishing shrink.
 * Held, it goes on the law's own polygon, mu0's: the same face, the same
 * direction, the magnitude scaled by mu0 over the posed coefficient. */
void nsedi_onset_on_problem_force(const nsed_model *m, nsed_data *d, int i) {
  const nsedi_event_ws *ev = &d->ev;
  int c = ev->cand[i];
  const double *l = ev->cl + 3 * i;
  double lt = hypot(l[1], l[2]);
  if (!(l[0] > 0 && lt > 0)) return;
  d->ph.dir[2 * c] = -l[1] / lt;
  d->ph.dir[2 * c + 1] = -l[2] / lt;
  if (ev->cpc[i].kind == NSED_CP_STICK_CANDIDATE) {
    d->ph.hold_mu[c] = lt / l[0] * (ev->extrapolated ? 1.0 : m->contact[c].def.mu0 / ev->cpc[i].mu0);
    d->ph.off_circle[c] = 1;
  }
}

void nsedi_slip_goes_on(nsed_data *d, int c) {
  const nsedi_event_ws *ev = &d->ev;
  d->ph.held[c] = ev->prev_held[c];
  d->ph.slow[c] = ev->prev_slow[c];
  d->ph.off_circle[c] = ev->prev_off_circle[c];
  d->ph.hold_mu[c] = ev->prev_hold_mu[c];
  d->ph.dir[2 * c] = ev->prev_dir[2 * c];
  d->ph.dir[2 * c + 1] = ev->prev_dir[2 * c + 1];
}

void nsedi_slip_as_before(nsed_data *d, int c) {
  nsedi_event_ws *ev = &d->ev;
  ev->prev_held[c] = d->ph.held[c];
  ev->prev_slow[c] = d->ph.slow[c];
  ev->prev_off_circle[c] = d->ph.off_circle[c];
  ev->prev_hold_mu[c] = d->ph.hold_mu[c];
  ev->prev_dir[2 * c] = d->ph.dir[2 * c];
  ev->prev_dir[2 * c + 1] = d->ph.dir[2 * c + 1];
}

/* The modes of the answer. A stick candidate that slips starts from rest
 * (an onset, held on the direction the problem gives); a contact posed as
 * slipping keeps its direction (an onset too when it was posed so from
 * rest). A closed contact whose normal force reached zero and stays there
 * opens (else it would go negative without a sign change). */
static void decide(const nsed_model *m, nsed_data *d, int na) {
  nsedi_event_ws *ev = &d->ev;
  double fscale = ev->fscale;
  for (int i = 0; i < na; i++) {
    int c = ev->cand[i];
    const nsed_cp_contact *p = &ev->cpc[i];
    nsed_cp_mode cm = ev->cmode[i];
    ev->trigger[c] &= ~NSEDI_TRIG_ONSET;
    nsed_mode mode = cm == NSED_CP_OPEN ? NSED_MODE_OPEN : cm == NSED_CP_STICK ? NSED_MODE_STICK : NSED_MODE_SLIP;
    if ((ev->trigger[c] & NSEDI_TRIG_LIFTOFF) && ev->cl[3 * i] <= NSEDI_LIFTOFF_FORCE * fscale)
      mode = NSED_MODE_OPEN;
    d->ph.mode[c] = mode;
    d->ph.held[c] = 0;
    if (mode != NSED_MODE_SLIP || !nsedi_coulomb_friction(m, c)) continue;
    double s[2] = {p->slip_dir[0], p->slip_dir[1]};
    int from_rest = p->kind == NSED_CP_STICK_CANDIDATE || (ev->trigger[c] & NSEDI_TRIG_NOSTICK);
    if (p->kind == NSED_CP_STICK_CANDIDATE) {
      s[0] = ev->cdir[2 * i];
      s[1] = ev->cdir[2 * i + 1];
      if (!(hypot(s[0], s[1]) > 0.5) && !against(ev->cl + 3 * i, s)) s[0] = 1, s[1] = 0;
    }
    if (from_rest) ev->trigger[c] |= NSEDI_TRIG_ONSET;
    /* A slip that goes on keeps its state as it was before the event (the
     * directions stage may decide this event more than once); every new
     * slip starts held on its direction. */
    int goes_on = !from_rest && ev->prev_mode[c] == NSED_MODE_SLIP && !impact_reversed(d, c) &&
                  !(ev->trigger[c] & NSEDI_TRIG_UNSTOPPED);
    if (goes_on) {
      nsedi_slip_goes_on(d, c);
      continue;
    }
    double sn = hypot(s[0], s[1]);
    d->ph.held[c] = 1;
    d->ph.slow[c] = nsedi_slip_speed(&d->cache.geom[c]) < nsedi_slow_speed(m, d, c);
    d->ph.hold_mu[c] = m->contact[c].def.mu;
    d->ph.off_circle[c] = 0;
    d->ph.dir[2 * c] = s[0] / sn;
    d->ph.dir[2 * c + 1] = s[1] / sn;
    if (from_rest && ev->onsets_on_polygon) nsedi_onset_on_problem_force(m, d, i);
  }
}

/* The spin modes of the answer (exact torsional friction): a spin that
 * starts turning from rest is an onset; the answer's moment anchors a
 * sticking spin's redundant moments. */
static void decide_spins(const nsed_model *m, nsed_data *d, int na) {
  nsedi_event_ws *ev = &d->ev;
  for (int k = 0; k < ev->nw; k++) {
    int i = ev->spin_of[k], c = ev->cand[i];
    const nsed_cp_spin *p = &ev->cps[k];
    ev->trigger[c] &= ~NSEDI_TRIG_SPIN_ONSET;
    d->ph.spin_anchor[c] = ev->cl[3 * na + k];
    if (d->ph.mode[c] == NSED_MODE_OPEN) {
      d->ph.spin[c] = NSED_MODE_OPEN;
      continue;
    }
    if (ev->cspin[k] == NSED_CP_STICK) {
      d->ph.spin[c] = NSED_MODE_STICK;
      continue;
    }
    d->ph.spin[c] = NSED_MODE_SLIP;
    double sign = p->kind == NSED_CP_SLIPPING ? p->sign : ev->cspin_sign[k];
    /* An onset with no spin acceleration to speak of turns against its moment. */
    if (sign == 0) sign = ev->cl[3 * na + k] > 0 ? -1.0 : 1.0;
    d->ph.spin_sign[c] = sign;
    int from_rest = p->kind == NSED_CP_STICK_CANDIDATE || (ev->trigger[c] & NSEDI_TRIG_SPIN_NOSTICK);
    if (from_rest) ev->trigger[c] |= NSEDI_TRIG_SPIN_ONSET;
  }
}

/* A sticking spin whose smooth-phase moment sits on the boundary within
 * round-off of the force scale is posed as turning against its moment, as
 * nsedi_event_boundary_sticks does for the tangential friction. */
static int boundary_spins(const nsed_model *m, nsed_data *d, double fscale) {
  nsedi_event_ws *ev = &d->ev;
  int posed = 0;
  for (int k = 0; k < ev->nw; k++) {
    int c = ev->cand[ev->spin_of[k]];
    if (d->ph.spin[c] != NSED_MODE_STICK || (ev->trigger[c] & NSEDI_TRIG_SPIN_NOSTICK)) continue;
    double torsion = m->contact[c].def.torsion, tau = d->cache.tau[c];
    double floor = NSEDI_STICK_START_FLOOR * fscale * torsion;
    if (fabs(tau) <= floor) continue;
    if (torsion * d->cache.lambda_c[3 * c] - fabs(tau) > floor) continue;
    ev->trigger[c] |= NSEDI_TRIG_SPIN_NOSTICK | (tau > 0 ? NSEDI_TRIG_SPIN_NEGATIVE : 0);
    posed++;
  }
  return posed;
}

int nsedi_event_unstopped(const nsed_model *m, nsed_data *d) {
  nsedi_event_ws *ev = &d->ev;
  int posed = 0;
  for (int i = 0; i < ev->na; i++) {
    int c = ev->cand[i];
    if (d->ph.mode[c] == NSED_MODE_OPEN || !(ev->trigger[c] & NSEDI_TRIG_STOPPED) ||
        !(nsedi_slip_speed(&d->cache.geom[c]) > m->opt.slip_tol))
      continue;
    /* A held slip stops where its velocity along its held direction
     * crosses zero; what it had across that direction is the residual the
     * impulse removes, whether the stop sticks or starts again from rest.
     * Where the impulse cannot be made (the rows it acts on contradict
     * each other), that velocity is the contact's: it slips, and Coulomb's
     * law sets its friction against it (docs/engine.md, "A stop the
     * impulse cannot make"). */
    ev->trigger[c] = (ev->trigger[c] & ~(NSEDI_TRIG_STOPPED | NSEDI_TRIG_NOSTICK)) | NSEDI_TRIG_UNSTOPPED;
    posed++;
  }
  return posed;
}

/* A contact the answer sticks with its smooth-phase friction force on (or
 * beyond) the boundary of its friction set, within round-off of the force
 * scale: it is posed as slipping against that force. Returns how many
 * were. */
int nsedi_event_boundary_sticks(const nsed_model *m, nsed_data *d) {
  nsedi_event_ws *ev = &d->ev;
  int na = ev->na;
  double fscale = ev->fscale;
  for (int c = 0; c < m->ncontact; c++)
    if (d->ph.mode[c] != NSED_MODE_OPEN) fscale = fmax(fscale, d->cache.lambda_c[3 * c]);
  int posed = 0;
  for (int i = 0; i < na; i++) {
    int c = ev->cand[i];
    const double *l = d->cache.lambda_c + 3 * c;
    double floor = NSEDI_STICK_START_FLOOR * fscale;
    /* Closed by an answer that holds it at zero force, and pulling in the
     * phase: its force would go negative without a sign change; it opens
     * as at a lift-off root. */
    if (d->ph.mode[c] != NSED_MODE_OPEN && !(ev->trigger[c] & NSEDI_TRIG_LIFTOFF) &&
        ev->cl[3 * i] <= NSEDI_LIFTOFF_FORCE * ev->fscale && l[0] < -floor) {
      ev->trigger[c] |= NSEDI_TRIG_LIFTOFF;
      posed++;
      continue;
    }
    if (d->ph.mode[c] != NSED_MODE_STICK || (ev->trigger[c] & NSEDI_TRIG_NOSTICK)) continue;
    if (hypot(l[1], l[2]) <= floor) continue; /* no friction needed: nothing pushes out */
    /* no load beyond the solve's round-off: no force there to push out */
    double noise = NSEDI_FORCE_FLOOR * fscale;
    if (l[0] <= noise && hypot(l[1], l[2]) <= noise) continue;
    if (nsedi_friction_margin(&m->opt, m->contact[c].def.mu0, l[0], l[1], l[2]) > floor) continue;
    if (!against(l, ev->pose_dir + 2 * c)) continue;
    ev->trigger[c] |= NSEDI_TRIG_NOSTICK;
    posed++;
  }
  return posed + boundary_spins(m, d, fscale);
}

int nsedi_event_modes(const nsed_model *m, nsed_data *d, nsed_error *err) {
  nsedi_event_ws *ev = &d->ev;
  int na = ev->na = accel_candidates(m, d);
  for (int c = 0; c < m->ncontact; c++) d->ph.mode[c] = d->ph.spin[c] = NSED_MODE_OPEN;
  /* The anchor search projects onto the solutions nearest its points. */
  d->ph.load_shares = 0;
  if (na == 0) return NSED_OK;
  /* Each round poses at least one more contact as slipping: at most na. */
  for (int round = 0; round <= na; round++) {
    int rc = solve(m, d, na, err);
    if (rc) return rc;
    decide(m, d, na);
    decide_spins(m, d, na);
    rc = nsedi_centre_force_anchor(m, d, na, err);
    if (rc) return rc;
    if (nsedi_event_boundary_sticks(m, d) == 0) {
      d->ph.load_shares = 1;
      return NSED_OK;
    }
  }
  return nsed_error_set(err, NSED_ERR_INTERNAL, "t = %.17g: the mode decision did not settle", d->t);
}
