/* The event problems of the complementarity layer: their assembly from the
 * dynamics (W, G, b, P W^T for the candidates), their solution with errors
 * that name the contacts, and the event stage "impact". */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "forces.h"
#include "sim_impl.h"
#include "tolerances.h"

/* Bilateral rows with their Baumgarte targets into the smooth workspace. */
static int joint_rows(const nsed_model *m, nsed_data *d) {
  nsedi_smooth_ws *w = &d->sw;
  int nr = 0;
  for (int j = 0; j < m->njoint; j++) {
    int n = nsedi_joint_rows(m, j, d->cache.kin, d->t, w->rows + nr);
    for (int k = 0; k < n; k++, nr++) w->target[nr] = nsedi_joint_row_target(&m->opt, &w->rows[nr]);
  }
  return nr;
}

int nsedi_event_build(const nsed_model *m, nsed_data *d, int n) {
  nsedi_event_ws *ev = &d->ev;
  int nj = joint_rows(m, d);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 3; k++) ev->W[3 * i + k] = d->cache.geom[ev->cand[i]].row[k];
  /* The spin rows of the candidates with exact torsional friction follow. */
  ev->nw = 0;
  for (int i = 0; i < n; i++) {
    if (!nsedi_exact_torsion(m, ev->cand[i])) continue;
    ev->spin_of[ev->nw] = i;
    ev->W[3 * n + ev->nw++] = d->cache.geom[ev->cand[i]].spin;
  }
  ev->ldg = 3 * n + ev->nw;
  nsedi_applied_forces(m, d->cache.kin, d->x, d->t, d->cache.f);
  return nsedi_delassus(m, d->sw.ws, nj, d->sw.rows, d->sw.target, d->cache.f, ev->ldg, ev->W,
                        ev->G, ev->b, ev->PWt);
}

/* The candidates with their gaps and speeds, for an error message. */
static void describe(const nsed_model *m, const nsed_data *d, int n, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && used + 80 < len; i++) {
    int c = d->ev.cand[i];
    const nsedi_contact_geom *g = &d->cache.geom[c];
    used += (size_t)snprintf(buf + used, len - used, "%s%s (gap %.3g, v_n %.3g, slip %.3g)",
                             i ? ", " : "", m->contact[c].def.name, g->gap, g->row[0].vel,
                             nsedi_slip_speed(g));
  }
}

int nsedi_event_solve(const nsed_model *m, nsed_data *d, int n, int impact_level,
                      nsed_lcp_stats *st, nsed_error *err) {
  nsedi_event_ws *ev = &d->ev;
  nsed_contact_problem prob = {.nc = n, .G = ev->G, .b = ev->b, .contacts = ev->cpc,
                               .nw = ev->nw, .spins = ev->cps};
  nsed_contact_solution sol = {.lambda = ev->cl, .a = ev->ca, .mode = ev->cmode, .slip_dir = ev->cdir,
                               .spin_mode = ev->cspin, .spin_sign = ev->cspin_sign};
  nsed_error lerr;
  nsed_error_clear(&lerr);
  int rc = impact_level ? nsed_contact_solve_impact(d->cs, &prob, &sol, st, &lerr)
                        : nsed_contact_solve_accel(d->cs, &prob, &sol, st, &lerr);
  d->stats.lcp_solves++;
  d->failed_problem = rc ? 1 + (impact_level != 0) : 0;
  d->failed_nc = n;
  if (rc) {
    char buf[512];
    describe(m, d, n, buf, sizeof buf);
    d->failure_contact = n == 1 ? ev->cand[0] : -1;
    return nsed_error_set(err, rc < 0 ? rc : NSED_ERR_LCP,
                          "t = %.17g: %s problem of %d contact(s) not solved%s: %s; contacts: %s",
                          d->t, impact_level ? "impact" : "contact", n,
                          rc == NSED_LCP_INFEASIBLE ? " (no solution: Painleve?)" : "",
                          lerr.message, buf);
  }
  if (st->residual > d->stats.max_lcp_residual) d->stats.max_lcp_residual = st->residual;
  return NSED_OK;
}

/* Only a contact that was open can impact: a closed one's small normal
 * velocity is drift, which the Baumgarte terms correct. A roller taking
 * over touches down tangentially (both rollers are on the wheel's
 * envelope): an approach below the grazing speed is the event's round-off. */
static int approaching(const nsed_model *m, const nsed_data *d) {
  const nsedi_event_ws *ev = &d->ev;
  double vtol = m->opt.slip_tol;
  for (int i = 0; i < ev->n; i++) {
    int c = ev->cand[i];
    double vn = d->cache.geom[c].row[0].vel;
    if (ev->taking_over[c] && vn >= -NSEDI_GRAZING_APPROACH * vtol) continue;
    if (ev->prev_mode[c] == NSED_MODE_OPEN && vn < -vtol) return 1;
  }
  return 0;
}

/* A closed contact that an impact elsewhere lifts: it flies while its
 * separating velocity v_n lasts against the acceleration a that its load
 * before the event, lambda_n, gave it (lambda_n G_nn, G_nn its inverse
 * mass along n), rising v_n^2 / (2 a). Below its lift-off margin that
 * flight is not resolved: its landing root is watched from the margin, so
 * it would sink the margin and land faster than it left, sqrt(2 a margin),
 * the rigid rocking's decaying bounces (a box landing flat) then fed each
 * time from that sink and never dying out. Such a contact is held closed
 * and its separating velocity settled, the limit of those bounces
 * (docs/engine.md, "Flights below the margin"). */
static void mark_hovering(const nsed_model *m, nsed_data *d) {
  nsedi_event_ws *ev = &d->ev;
  for (int i = 0; i < ev->n; i++) {
    int c = ev->cand[i];
    double vn = d->cache.geom[c].row[0].vel;
    if (ev->prev_mode[c] == NSED_MODE_OPEN || !d->cache.geom_ok[c] || !(vn > m->opt.slip_tol)) continue;
    double a = d->cache.lambda_c[3 * c] * ev->G[(size_t)(3 * i) * (size_t)ev->ldg + (size_t)(3 * i)];
    if (vn * vn <= 2 * a * nsedi_liftoff_margin(m, c)) ev->trigger[c] |= NSEDI_TRIG_HOVER;
  }
}

int nsedi_event_impact(const nsed_model *m, nsed_data *d, nsed_error *err) {
  const nsed_options *o = &m->opt;
  nsedi_event_ws *ev = &d->ev;
  int n = ev->n;
  if (!approaching(m, d)) return NSED_OK;
  int rc = nsedi_event_build(m, d, n);
  if (rc)
    return nsed_error_set(err, rc, "t = %.17g: the impact problem could not be assembled (%s)",
                          d->t, nsed_status_text(rc));
  for (int i = 0; i < n; i++) {
    int c = ev->cand[i];
    const nsed_contact_def *cd = &m->contact[c].def;
    for (int k = 0; k < 3; k++) ev->b[3 * i + k] = ev->W[3 * i + k].vel;
    nsed_cp_contact *p = &ev->cpc[i];
    memset(p, 0, sizeof *p);
    /* A regularised friction force is finite: it gives no impulse. */
    p->kind = cd->mu0 > 0 && cd->law == NSED_CONTACT_COULOMB ? NSED_CP_STICK_CANDIDATE
                                                             : NSED_CP_FRICTIONLESS;
    p->mu = cd->mu;
    p->mu0 = cd->mu0;
    double vn = d->cache.geom[c].row[0].vel;
    p->restitution = (d->zeno.plastic[c] || -vn < o->zeno_velocity) ? 0.0 : cd->restitution;
  }
  /* Exact torsional friction takes its moment impulse within torsion
   * Lambda_n, like the tangential impulse. */
  for (int k = 0; k < ev->nw; k++) {
    int c = ev->cand[ev->spin_of[k]];
    ev->b[3 * n + k] = ev->W[3 * n + k].vel;
    ev->cps[k] = (nsed_cp_spin){.contact = ev->spin_of[k], .kind = NSED_CP_STICK_CANDIDATE,
                                .mu = m->contact[c].def.torsion, .sign = 1.0};
  }
  rc = nsedi_event_solve(m, d, n, 1, &ev->ist, err);
  if (rc) return rc;
  int nv = m->nv;
  double T0 = nsedi_state_kinetic(m, d);
  memset(ev->du_imp, 0, sizeof(double) * (size_t)nv);
  for (int k = 0; k < ev->ldg; k++)
    for (int q = 0; q < nv; q++) ev->du_imp[q] += ev->PWt[(size_t)k * nv + q] * ev->cl[k];
  nsedi_add_velocity(m, d->x, ev->du_imp);
  d->x[m->nstate + 1] += nsedi_state_kinetic(m, d) - T0; /* the impulses' work */
  for (int i = 0; i < n; i++) {
    int c = ev->cand[i];
    ev->impacted[c] = ev->prev_mode[c] == NSED_MODE_OPEN && ev->b[3 * i] < -o->slip_tol;
    ev->impact_speed[c] = -ev->b[3 * i];
    for (int k = 0; k < 3; k++) ev->impulse[3 * c + k] = ev->cl[3 * i + k];
  }
  ev->impact = 1;
  nsedi_refresh_geometry(m, d);
  mark_hovering(m, d);
  nsedi_settle_hovering(m, d);
  return NSED_OK;
}
