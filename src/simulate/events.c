/* Event resolution (DESIGN.md §7, §8).
 *
 * At a root of the indicators (or at the start) the contacts' modes are
 * decided anew, never patched one at a time:
 *   1. touching contacts: closed ones and open ones whose gap is ~0;
 *   2. impact problem (velocity level, Newton restitution, polygonal
 *      friction at impulse level) if one of them approaches;
 *   3. acceleration problem for those touching with ~0 normal velocity:
 *      kinetic friction where slipping, the friction polygon where the slip
 *      velocity is ~0; its solution gives the new modes and slip directions;
 *   4. the Zeno guard: many events on one contact within a short window at
 *      small velocities make its impacts plastic (it closes), otherwise the
 *      run stops with an "event storm" error;
 *   5. the new modes are checked by evaluating the smooth phase once.
 * Every mode change is recorded as an event with the LCP's statistics. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "forces.h"
#include "math3.h"
#include "small_lu.h"
#include "sim_impl.h"

/* Kinetic energy of the current state (refreshes the kinematic cache). */
static double kinetic(const nsed_model *m, nsed_data *d) {
  nsedi_kin_eval(m, d->x, d->kin);
  return nsedi_kinetic_energy(m, d->kin);
}

static int emit(const nsed_model *m, nsed_data *d, const nsed_observer *obs, nsed_event_kind kind,
                int c, nsed_mode from, nsed_mode to, const nsed_lcp_stats *st) {
  nsed_event ev = {.t = d->t, .kind = kind, .contact = c, .from = from, .to = to,
                   .lcp_size = st ? st->lcp_size : 0, .pivots = st ? st->pivots : 0,
                   .residual = st ? st->residual : 0.0, .path = st && st->path ? st->path : ""};
  d->stats.events++;
  d->stats.events_by_kind[kind]++;
  if (obs && obs->event && obs->event(obs->ctx, m, d, &ev)) return NSED_ERR_IO;
  return NSED_OK;
}

/* Bilateral rows with their Baumgarte targets into d->rows[0..nrow). */
static int joint_rows(const nsed_model *m, nsed_data *d) {
  const nsed_options *o = &m->opt;
  int nr = 0;
  for (int j = 0; j < m->njoint; j++) {
    int n = nsedi_joint_rows(m, j, d->kin, d->t, d->rows + nr);
    for (int k = 0; k < n; k++, nr++) {
      const nsedi_row *r = &d->rows[nr];
      d->target[nr] = -(r->bias + 2 * o->baumgarte_eta * r->vel +
                        o->baumgarte_xi * o->baumgarte_xi * r->pos);
    }
  }
  return nr;
}

static void refresh_geometry(const nsed_model *m, nsed_data *d) {
  nsedi_kin_eval(m, d->x, d->kin);
  for (int c = 0; c < m->ncontact; c++)
    d->geom_ok[c] = nsedi_contact_eval(m, c, d->kin, nsedi_live_track(m, d, d->x, c), &d->geom[c]) == NSED_OK;
}

static double slip_speed(const nsedi_contact_geom *g) { return hypot(g->row[1].vel, g->row[2].vel); }

/* Describe an event problem for an error message. */
static void describe(const nsed_model *m, const nsed_data *d, int n, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && used + 80 < len; i++) {
    int c = d->cand[i];
    used += (size_t)snprintf(buf + used, len - used, "%s%s (gap %.3g, v_n %.3g, slip %.3g)",
                             i ? ", " : "", m->contact[c].def.name, d->geom[c].gap,
                             d->geom[c].row[0].vel, slip_speed(&d->geom[c]));
  }
}

/* Fill the event problem for the candidates cand[0..n): W rows, G, b, PWt. */
static int build_problem(const nsed_model *m, nsed_data *d, int n) {
  int nj = joint_rows(m, d);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 3; k++) d->W[3 * i + k] = d->geom[d->cand[i]].row[k];
  nsedi_applied_forces(m, d->kin, d->t, d->f);
  return nsedi_delassus(m, d->ws, nj, d->rows, d->target, d->f, 3 * n, d->W, d->G, d->b, d->PWt);
}

/* Solve the event problem over the candidates (impact or acceleration
 * level) and turn a failure into an error that names the contacts with
 * their gaps and speeds. */
static int solve_event_problem(const nsed_model *m, nsed_data *d, int n, int impact_level,
                               nsed_lcp_stats *st, nsed_error *err) {
  nsed_contact_problem prob = {.nc = n, .G = d->G, .b = d->b, .contacts = d->cpc};
  nsed_contact_solution sol = {.lambda = d->cl, .a = d->ca, .mode = d->cmode, .slip_dir = d->cdir};
  nsed_error lerr;
  nsed_error_clear(&lerr);
  int rc = impact_level ? nsed_contact_solve_impact(d->cs, &prob, &sol, st, &lerr)
                        : nsed_contact_solve_accel(d->cs, &prob, &sol, st, &lerr);
  d->stats.lcp_solves++;
  if (rc) {
    char buf[512];
    describe(m, d, n, buf, sizeof buf);
    d->failure_contact = n == 1 ? d->cand[0] : -1;
    return nsed_error_set(err, rc < 0 ? rc : NSED_ERR_LCP,
                          "t = %.17g: %s problem of %d contact(s) not solved%s: %s; contacts: %s",
                          d->t, impact_level ? "impact" : "contact", n,
                          rc == NSED_LCP_INFEASIBLE ? " (no solution: Painleve?)" : "",
                          lerr.message, buf);
  }
  if (st->residual > d->stats.max_lcp_residual) d->stats.max_lcp_residual = st->residual;
  return NSED_OK;
}

static int impact(const nsed_model *m, nsed_data *d, int n, nsed_lcp_stats *st, nsed_error *err) {
  const nsed_options *o = &m->opt;
  int rc = build_problem(m, d, n);
  if (rc)
    return nsed_error_set(err, rc, "t = %.17g: the impact problem could not be assembled (%s)",
                          d->t, nsed_status_text(rc));
  for (int i = 0; i < n; i++) {
    int c = d->cand[i];
    const nsed_contact_def *cd = &m->contact[c].def;
    for (int k = 0; k < 3; k++) d->b[3 * i + k] = d->W[3 * i + k].vel;
    nsed_cp_contact *p = &d->cpc[i];
    memset(p, 0, sizeof *p);
    /* A regularised friction force is finite: it gives no impulse. */
    p->kind = cd->mu0 > 0 && cd->law == NSED_CONTACT_COULOMB ? NSED_CP_STICK_CANDIDATE
                                                             : NSED_CP_FRICTIONLESS;
    p->mu = cd->mu;
    p->mu0 = cd->mu0;
    double vn = d->geom[c].row[0].vel;
    p->restitution = (d->plastic[c] || -vn < o->zeno_velocity) ? 0.0 : cd->restitution;
  }
  rc = solve_event_problem(m, d, n, 1, st, err);
  if (rc) return rc;
  int nv = m->nv;
  double T0 = kinetic(m, d);
  memset(d->du_imp, 0, sizeof(double) * (size_t)nv);
  for (int k = 0; k < 3 * n; k++)
    for (int q = 0; q < nv; q++) d->du_imp[q] += d->PWt[(size_t)k * nv + q] * d->cl[k];
  for (int b = 0; b < m->nbody; b++)
    for (int k = 0; k < 3; k++) {
      d->x[13 * b + 7 + k] += d->du_imp[6 * b + k];
      d->x[13 * b + 10 + k] += d->du_imp[6 * b + 3 + k];
    }
  d->x[m->nstate + 1] += kinetic(m, d) - T0; /* the impulses' work */
  for (int i = 0; i < n; i++) {
    d->impacted[d->cand[i]] = d->prev_mode[d->cand[i]] == NSED_MODE_OPEN && d->b[3 * i] < -o->slip_tol;
    d->impact_speed[d->cand[i]] = -d->b[3 * i];
  }
  return NSED_OK;
}

/* At a root of a sticking contact's friction indicator the force sits on the
 * polygon's boundary and is still moving outwards; the acceleration-level
 * LCP cannot see that trend (stick is consistent to round-off), so it is
 * asked with mu0 shrunk by this relative margin, which lets it choose the
 * slip-onset direction by maximal dissipation. */
#define NSEDI_SATURATION_SHRINK 1e-7

static int accel_problem(const nsed_model *m, nsed_data *d, int n, const int *fired,
                         nsed_lcp_stats *st, nsed_error *err) {
  const nsed_options *o = &m->opt;
  int rc = build_problem(m, d, n);
  if (rc)
    return nsed_error_set(err, rc, "t = %.17g: the contact problem could not be assembled (%s)",
                          d->t, nsed_status_text(rc));
  for (int i = 0; i < n; i++) {
    int c = d->cand[i];
    const nsed_contact_def *cd = &m->contact[c].def;
    const nsedi_contact_geom *g = &d->geom[c];
    nsed_cp_contact *p = &d->cpc[i];
    memset(p, 0, sizeof *p);
    p->mu = cd->mu;
    p->mu0 = cd->mu0;
    if (fired && d->prev_mode[c] == NSED_MODE_STICK && fired[NSEDI_ROOTS_PER_CONTACT * c + 1])
      p->mu0 = fmax(cd->mu, cd->mu0 * (1 - NSEDI_SATURATION_SHRINK));
    double sp = slip_speed(g);
    if (cd->law == NSED_CONTACT_REGULARIZED) {
      /* Kosenko's law: always the kinetic branch, mu min(1, |v|/delta) along v. */
      p->kind = NSED_CP_SLIPPING;
      p->mu = cd->mu * fmin(1.0, sp / cd->delta);
      p->slip_dir[0] = sp > 0 ? g->row[1].vel / sp : 1.0;
      p->slip_dir[1] = sp > 0 ? g->row[2].vel / sp : 0.0;
    } else if (cd->mu0 == 0 && cd->mu == 0) {
      p->kind = NSED_CP_FRICTIONLESS;
    } else if (sp <= o->slip_tol || d->stopping[c]) {
      p->kind = NSED_CP_STICK_CANDIDATE;
    } else {
      p->kind = NSED_CP_SLIPPING;
      p->slip_dir[0] = g->row[1].vel / sp;
      p->slip_dir[1] = g->row[2].vel / sp;
    }
  }
  if (o->event_resolver == NSED_RESOLVER_TRIAL) return nsedi_trial_modes(m, d, n, st, err);
  return solve_event_problem(m, d, n, 0, st, err);
}

/* A slip starting from rest (below slip_tol) with a direction to choose. */
static int onset_from_rest(const nsed_model *m, const nsed_data *d, int c) {
  const nsed_contact_def *cd = &m->contact[c].def;
  return d->mode[c] == NSED_MODE_SLIP && cd->law == NSED_CONTACT_COULOMB &&
         !(cd->mu == 0 && cd->mu0 == 0) && slip_speed(&d->geom[c]) <= m->opt.slip_tol;
}

/* Remove the residual tangential velocity of the contacts declared stopped
 * (below 100 slip_stop_speed) and of the slips starting from rest (below
 * slip_tol: the onset direction must not be overridden by the direction of
 * round-off, which kinetic friction would follow from 1e-3 slip_tol on),
 * and the residual normal velocity of the contacts that closed without an
 * impact (an approach below the impact threshold: a roller taking over is
 * located to ~5e-7 s, and on a sprung wheel the late root leaves ~1e-7 m/s
 * of approach that the stabilisation would turn into 1e-8 of gap), by
 * impulses du = P W^T L on the rows that stay active: those velocities go
 * to zero and every other closed row keeps its velocity (a lone impulse
 * would nudge the other contacts of the same assembly, a normal velocity
 * error that the stabilisation then turns into a drifting gap). Returns 1
 * when it changed the velocities. */
static int settle_velocities(const nsed_model *m, nsed_data *d) {
  int na = d->nacc, nw = 3 * na, ns = 0, any = 0;
  int *sel = d->stop_rows;
  for (int i = 0; i < na; i++) {
    int c = d->cand[i];
    if (d->mode[c] == NSED_MODE_OPEN) continue;
    int stopped = d->stopping[c] || onset_from_rest(m, d, c);
    /* Below 10 slip_tol the stabilisation's peak gap, ~v / (e eta), stays
     * near 1e-10: left to it, as before this settling existed. */
    int landed = d->prev_mode[c] == NSED_MODE_OPEN && !d->impacted[c] &&
                 fabs(d->W[3 * i].vel) > 10 * m->opt.slip_tol;
    int rows = stopped || d->mode[c] == NSED_MODE_STICK ? 3 : 1;
    any |= stopped || landed;
    for (int r = 0; r < rows; r++) {
      sel[ns] = 3 * i + r;
      d->stop_rhs[ns++] = (stopped && r > 0) || (landed && r == 0) ? -d->W[3 * i + r].vel : 0.0;
    }
  }
  if (!any) return 0;
  double *A = d->stop_G;
  for (int a = 0; a < ns; a++)
    for (int b = 0; b < ns; b++) A[(size_t)b * ns + a] = d->G[(size_t)sel[b] * nw + sel[a]];
  /* Redundant rows (two rollers at one point): leave it to the gamma stabilisation. */
  if (nsedi_small_lu_factor(ns, A, d->stop_piv, d->stop_piv + ns) < 1e-12) return 0;
  nsedi_small_lu_solve(ns, A, d->stop_piv, 1, d->stop_rhs);
  int nv = m->nv;
  double T0 = kinetic(m, d);
  for (int a = 0; a < ns; a++) {
    const double *col = d->PWt + (size_t)sel[a] * nv;
    for (int bdy = 0; bdy < m->nbody; bdy++)
      for (int k = 0; k < 3; k++) {
        d->x[13 * bdy + 7 + k] += col[6 * bdy + k] * d->stop_rhs[a];
        d->x[13 * bdy + 10 + k] += col[6 * bdy + 3 + k] * d->stop_rhs[a];
      }
  }
  d->x[m->nstate + 1] += kinetic(m, d) - T0;
  return 1;
}

/* Zeno guard bookkeeping for an event on contact c; returns 1 when the
 * contact has had zeno_events events within zeno_window. */
static int zeno_storm(const nsed_model *m, nsed_data *d, int c) {
  int ze = m->opt.zeno_events;
  double *ring = d->zeno_t + (size_t)c * ze;
  int k = d->zeno_n[c]++ % ze;
  ring[k] = d->t;
  if (d->zeno_n[c] < ze) return 0;
  int oldest = d->zeno_n[c] % ze;
  return d->t - ring[oldest] <= m->opt.zeno_window;
}

static nsed_event_kind transition_kind(nsed_mode from, nsed_mode to, int impacted) {
  if (impacted) return NSED_EVENT_IMPACT;
  if (from == NSED_MODE_OPEN) return NSED_EVENT_CLOSE;
  if (to == NSED_MODE_OPEN) return NSED_EVENT_OPEN;
  return to == NSED_MODE_STICK ? NSED_EVENT_STICK : NSED_EVENT_SLIP;
}

int nsedi_project_velocities(const nsed_model *m, nsed_data *d, nsed_error *err) {
  /* The M-orthogonal projection onto J u = 0 is the velocity change of a
   * unit-free impulse: du = M^-1 J^T lambda with J du = -J u. */
  if (m->nrow == 0) return NSED_OK;
  nsedi_kin_eval(m, d->x, d->kin);
  int nr = 0;
  for (int j = 0; j < m->njoint; j++) nr += nsedi_joint_rows(m, j, d->kin, d->t, d->rows + nr);
  for (int i = 0; i < nr; i++) d->target[i] = -d->rows[i].vel;
  for (int k = 0; k < m->nv; k++) d->f[k] = 0.0;
  int deficient = 0;
  int rc = nsedi_solve_constrained(m, d->ws, nr, d->rows, d->rows, d->target, d->f, d->du, d->lam,
                                   &deficient);
  if (rc)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "the initial velocities cannot be made consistent with the joints "
                          "(contradictory joints?)");
  for (int b = 0; b < m->nbody; b++)
    for (int k = 0; k < 3; k++) {
      d->x[13 * b + 7 + k] += d->du[6 * b + k];
      d->x[13 * b + 10 + k] += d->du[6 * b + 3 + k];
    }
  return NSED_OK;
}

/* A roller whose contact point has reached its tip and turns away from the
 * floor hands the contact over to the next roller of its wheel, which
 * touches at the same instant (at the same point when psi = 0). Kept in the
 * event problem it would duplicate the incoming contact's rows, a
 * degenerate problem whose solution may keep the wrong one; the tip's
 * future is known (it rises with the wheel's turn), so it leaves the
 * candidates and opens. Returns the new number of candidates. */
static int drop_handed_over(const nsed_model *m, nsed_data *d, int n) {
  int kept = 0;
  memset(d->taking_over, 0, sizeof(int) * (size_t)m->ncontact);
  for (int i = 0; i < n; i++) {
    int c = d->cand[i], w = m->contact[c].carrier, taken = 0;
    if (w >= 0 && d->geom[c].leaving)
      for (int k = 0; k < n && !taken; k++) {
        int o = d->cand[k];
        taken = o != c && m->contact[o].carrier == w && !d->geom[o].leaving &&
                d->geom[o].gap <= m->opt.contact_tol;
        if (taken) d->taking_over[o] = 1;
      }
    if (!taken) d->cand[kept++] = c;
  }
  return kept;
}

/* An open roller whose wheel still stands on another roller that is not
 * leaving: its gap closes tangentially towards that roller's handover
 * (below contact_tol within ~3e-5 s of it) and its approach speed there is
 * the geometry's, not an impact's. Pulled into another contact's event (a
 * vehicle spinning in place hands over on all wheels within microseconds)
 * it was struck by an impact, and the vehicle rocked from wheel to wheel
 * until the Zeno guard stopped it (the 1000-unit coast at t = 306.84). Its
 * own handover comes at the other roller's region event. */
static int next_roller_waiting(const nsed_model *m, const nsed_data *d, int c) {
  int w = m->contact[c].carrier;
  if (w < 0) return 0;
  for (int k = 0; k < m->ncontact; k++)
    if (k != c && m->contact[k].carrier == w && d->mode[k] != NSED_MODE_OPEN &&
        d->geom_ok[k] && !d->geom[k].leaving)
      return 1;
  return 0;
}

int nsedi_resolve(const nsed_model *m, nsed_data *d, const int *fired, const nsed_observer *obs,
                  nsed_error *err) {
  const nsed_options *o = &m->opt;
  int nc = m->ncontact;
  double vtol = o->slip_tol;
  d->failure_contact = -1;
  nsedi_normalize_quats(m, d->x);
  refresh_geometry(m, d);
  memcpy(d->prev_mode, d->mode, sizeof(nsed_mode) * (size_t)nc);
  memset(d->impacted, 0, sizeof(int) * (size_t)nc);

  /* Time events first: they change no mode. */
  if (fired && fired[NSEDI_ROOTS_PER_CONTACT * nc]) {
    int rc = emit(m, d, obs, NSED_EVENT_TIME, -1, NSED_MODE_OPEN, NSED_MODE_OPEN, NULL);
    if (rc) return nsed_error_set(err, rc, "writing the event log failed");
  }
  d->t_next_breakpoint = nsedi_next_breakpoint(m, d->t);

  int n = 0;
  for (int c = 0; c < nc; c++) {
    if (!d->geom_ok[c]) {
      if (d->mode[c] != NSED_MODE_OPEN || d->geom[c].gap <= o->contact_tol) {
        d->failure_contact = c;
        return nsed_error_set(err, NSED_ERR_EVENT,
                              "t = %.17g: contact '%s' touches with a degenerate geometry (a "
                              "disk lying flat: its rim contact is undefined; gap %.3g m)",
                              d->t, m->contact[c].def.name, d->geom[c].gap);
      }
      continue;
    }
    /* An open contact joins the event problem when its closing indicator
     * fired (or at the start, or if it penetrates beyond the tolerance):
     * one that is merely near, e.g. a roller that just handed its contact
     * over at the same point, must not be pulled into an unrelated event's
     * degenerate problem. */
    if (m->contact[c].def.law == NSED_CONTACT_COMPLIANT) continue; /* a force law, not a constraint */
    /* A contact that touches at this event and approaches, or has no
     * normal velocity (a roller arriving tangentially as its neighbour's
     * contact point reaches that roller's tip), joins too: its own gap
     * root is quiet (within contact_tol, or see open_offset below), and
     * left out it would sink unnoticed. */
    const nsedi_contact_geom *gg = &d->geom[c];
    int grazing = gg->gap <= o->contact_tol && gg->row[0].vel <= 1e3 * vtol &&
                  !next_roller_waiting(m, d, c);
    int open_hit = d->mode[c] == NSED_MODE_OPEN &&
                   (fired ? fired[NSEDI_ROOTS_PER_CONTACT * c] != 0 ||
                                gg->gap < -o->contact_tol || grazing
                          : gg->gap <= o->contact_tol);
    if (d->mode[c] != NSED_MODE_OPEN || open_hit) d->cand[n++] = c;
  }
  n = drop_handed_over(m, d, n);
  nsed_lcp_stats ist = {0}, ast = {0};
  int approaching = 0;
  /* Only a contact that was open can impact: a closed one's small normal
   * velocity is drift, which the Baumgarte terms correct. */
  for (int i = 0; i < n; i++) {
    int c = d->cand[i];
    /* A roller taking over touches down tangentially (both rollers are on
     * the wheel's envelope): an approach speed below the grazing speed is
     * the event's round-off, not an impact. */
    double vn = d->geom[c].row[0].vel;
    if (d->taking_over[c] && vn >= -1e3 * vtol) continue;
    approaching |= d->prev_mode[c] == NSED_MODE_OPEN && vn < -vtol;
  }
  if (approaching) {
    int rc = impact(m, d, n, &ist, err);
    if (rc) return rc;
    refresh_geometry(m, d);
  }
  /* Acceleration problem for those touching without separating velocity. */
  int na = 0;
  for (int i = 0; i < n; i++) {
    int c = d->cand[i];
    double vn = d->geom[c].row[0].vel;
    if (vn <= vtol || (d->taking_over[c] && vn <= 1e3 * vtol)) d->cand[na++] = c;
  }
  for (int i = 0; i < na; i++) {
    int c = d->cand[i];
    d->stopping[c] = fired && d->prev_mode[c] == NSED_MODE_SLIP &&
                     m->contact[c].def.law == NSED_CONTACT_COULOMB &&
                     (fired[NSEDI_ROOTS_PER_CONTACT * c + 1] || fired[NSEDI_ROOTS_PER_CONTACT * c + 2]) &&
                     slip_speed(&d->geom[c]) > o->slip_tol &&
                     slip_speed(&d->geom[c]) <= 100 * o->slip_stop_speed && !d->onset_lock[c];
  }
  /* A locked onset reaching its release speed (or any other event) is
   * decided anew: kinetic friction along v from here on. */
  memset(d->onset_lock, 0, sizeof(int) * (size_t)nc);
  for (int c = 0; c < nc; c++) d->mode[c] = NSED_MODE_OPEN;
  double fscale = 1e-300;
  if (na > 0) {
    int rc = accel_problem(m, d, na, fired, &ast, err);
    if (rc) return rc;
    d->nacc = na;
    for (int k = 0; k < m->nv; k++) fscale = fmax(fscale, fabs(d->f[k]));
    for (int i = 0; i < na; i++) {
      int c = d->cand[i];
      nsed_cp_mode cm = d->cmode[i];
      d->mode[c] = cm == NSED_CP_OPEN ? NSED_MODE_OPEN
                   : cm == NSED_CP_STICK ? NSED_MODE_STICK
                                         : NSED_MODE_SLIP;
      /* The normal force reached zero (its indicator fired) and the LCP
       * keeps it at ~0: the contact opens, otherwise the force would keep
       * decreasing below zero without another sign change. */
      if (fired && d->prev_mode[c] != NSED_MODE_OPEN && fired[NSEDI_ROOTS_PER_CONTACT * c] &&
          d->cl[3 * i] <= 1e-9 * fscale)
        d->mode[c] = NSED_MODE_OPEN;
      if (d->mode[c] == NSED_MODE_SLIP) {
        double s1 = d->cdir[2 * i], s2 = d->cdir[2 * i + 1], sn = hypot(s1, s2);
        if (!(sn > 0.5)) {
          /* A slipping contact keeps its own direction. */
          const nsedi_contact_geom *g = &d->geom[c];
          double sp = slip_speed(g);
          s1 = sp > 0 ? g->row[1].vel / sp : 1.0;
          s2 = sp > 0 ? g->row[2].vel / sp : 0.0;
          sn = hypot(s1, s2);
        }
        d->slip_dir0[2 * c] = s1 / sn;
        d->slip_dir0[2 * c + 1] = s2 / sn;
      }
    }
  }
  if (na > 0 && settle_velocities(m, d)) {
    /* The onsets are the slips now at rest: a slip stopped here that the
     * event problem restarts is one (judged on the pre-impulse speed it
     * ran on unlocked, its friction along a direction of round-off: six
     * sprung wheels stalled so at t = 12.4596). */
    refresh_geometry(m, d);
  }
  int rc0 = nsedi_onset_resolve(m, d, err);
  if (rc0) return rc0;
  for (int c = 0; c < nc; c++)
    d->region_sign[c] = d->geom[c].region >= 0 ? 1.0 : -1.0;
  /* The closing indicator of an open contact is gap - offset. A contact
   * that lifts off (its normal force reached zero) leaves with a gap that
   * grows quadratically from round-off level, so it is allowed contact_tol
   * of penetration before it counts as closing again; one that bounces off
   * leaves with a velocity and keeps the exact level (impact times).
   * A roller's next contact arrives tangentially (an omni-wheel handover):
   * its gap touches zero quadratically and round-off makes it cross zero
   * up to ~3e-7 s early, with a spurious approach speed. A tenth of
   * contact_tol keeps that root quiet; the handover is resolved at the
   * outgoing roller's region event, which crosses linearly and exactly. */
  for (int c = 0; c < nc; c++) {
    int roller = m->body[m->contact[c].body].def.shape.type == NSED_SHAPE_ROLLER;
    double off = d->mode[c] == NSED_MODE_OPEN && d->geom_ok[c] ? fmin(0.0, d->geom[c].gap) : 0.0;
    /* A roller lifting off near its tip lands again within microseconds
     * (the omni vehicle's wheels rock on their three contacts), before
     * the stabilisation has removed the landing's penetration: the margin
     * adds up per lift-off, so a roller's is a tenth (the vehicle reached
     * 2e-9 of penetration with the full one). */
    if (d->mode[c] == NSED_MODE_OPEN && d->prev_mode[c] != NSED_MODE_OPEN && !d->impacted[c])
      off -= roller ? 0.1 * o->contact_tol : o->contact_tol;
    else if (roller && d->geom_ok[c])
      off = fmin(-0.1 * o->contact_tol, d->geom[c].gap); /* a level, not a step per bounce */
    d->open_offset[c] = off;
  }

  /* Record the changes; run the Zeno guard. */
  for (int c = 0; c < nc; c++) {
    nsed_mode from = d->prev_mode[c], to = d->mode[c];
    if (fired && from == NSED_MODE_SLIP && to == NSED_MODE_SLIP && !d->impacted[c] &&
        (fired[NSEDI_ROOTS_PER_CONTACT * c + 1] || fired[NSEDI_ROOTS_PER_CONTACT * c + 2]) &&
        slip_speed(&d->geom[c]) <= o->slip_tol && zeno_storm(m, d, c)) {
      /* A slip that cannot start: its indicators fire again at once, the
       * event problem says it cannot stick, and it never gets past
       * slip_tol (an onset released below slip_tol: onset.c holds its
       * direction up to slip_stop_speed). Left alone the re-anchoring never
       * ends; say so. */
      d->failure_contact = c;
      return nsed_error_set(err, NSED_ERR_EVENT,
                            "t = %.17g: contact '%s' cannot start slipping: %d re-anchorings "
                            "within %g s at slip speed %.3g m/s; the event problem rules out "
                            "sticking and the slip never grows past solver.slip_tol = %g (an "
                            "onset is held on its starting direction up to "
                            "solver.slip_stop_speed = %g, which must be larger)",
                            d->t, m->contact[c].def.name, o->zeno_events, o->zeno_window,
                            slip_speed(&d->geom[c]), o->slip_tol, o->slip_stop_speed);
    }
    if (from == to && !d->impacted[c]) continue;
    if (from == NSED_MODE_SLIP && to == NSED_MODE_SLIP && !d->impacted[c]) continue;
    if (!fired && !d->impacted[c]) continue; /* initial modes are not events */
    /* Closing with a negligible approach speed (a roller handover, a
     * grazing touch) is a closure, though the impact problem removed it. */
    int real_impact = d->impacted[c] && d->impact_speed[c] > 1e3 * o->slip_tol;
    nsed_event_kind kind = transition_kind(from, to, real_impact);
    int plastic_now = d->impacted[c] && (d->plastic[c] || fabs(d->geom[c].row[0].vel) <= vtol);
    if (d->impacted[c] && plastic_now && !d->plastic[c] && m->contact[c].def.restitution > 0)
      kind = NSED_EVENT_ZENO; /* below the Zeno velocity: the guard closed it */
    int rc = emit(m, d, obs, kind, c, from, to, d->impacted[c] ? &ist : &ast);
    if (rc) return nsed_error_set(err, rc, "writing the event log failed");
    if (kind == NSED_EVENT_ZENO) d->plastic[c] = 1;
    if (zeno_storm(m, d, c)) {
      const nsedi_contact_geom *g = &d->geom[c];
      double speed = fmax(fabs(g->row[0].vel), slip_speed(g));
      if (speed <= o->zeno_velocity && !d->plastic[c]) {
        d->plastic[c] = 1;
        rc = emit(m, d, obs, NSED_EVENT_ZENO, c, to, to, NULL);
        if (rc) return nsed_error_set(err, rc, "writing the event log failed");
      } else if (speed > o->zeno_velocity) {
        d->failure_contact = c;
        return nsed_error_set(err, NSED_ERR_EVENT,
                              "t = %.17g: event storm on contact '%s': %d events within %g s "
                              "at relative speed %.3g m/s (above the Zeno guard's %.3g m/s); "
                              "last transition %s -> %s",
                              d->t, m->contact[c].def.name, o->zeno_events, o->zeno_window, speed,
                              o->zeno_velocity, nsed_mode_name(from), nsed_mode_name(to));
      }
    }
    if (d->stats.events >= o->max_events)
      return nsed_error_set(err, NSED_ERR_EVENT, "t = %.17g: more than %d events (solver.max_events)",
                            d->t, o->max_events);
  }
  /* Check the new modes once in the smooth-phase equations. */
  int rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
  if (rc) return rc;
  for (int k = 0; k < m->nv; k++) fscale = fmax(fscale, fabs(d->f[k]));
  for (int c = 0; c < nc; c++) {
    if (d->mode[c] == NSED_MODE_OPEN) continue;
    const double *l = d->lambda_c + 3 * c;
    if (l[0] < -1e-8 * fscale)
      return nsed_error_set(err, NSED_ERR_EVENT,
                            "t = %.17g: contact '%s' was closed by the contact problem but its "
                            "normal force is %.6g N < 0 in the smooth phase (inconsistent mode)",
                            d->t, m->contact[c].def.name, l[0]);
  }
  return NSED_OK;
}
