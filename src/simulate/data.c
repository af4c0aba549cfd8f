/* Simulation data: creation from a finalized model, accessors, and the small
 * state operations the event stages share. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "drive.h"
#include "forces.h"
#include "math3.h"
#include "track.h"
#include "sim_impl.h"
#include "tolerances.h"

#define ALLOC(ptr, n) ((ptr) = calloc((size_t)((n) > 0 ? (n) : 1), sizeof *(ptr)))

static int alloc_phase(nsedi_phase *p, int nc, int nkink) {
  return ALLOC(p->kink_seg, nkink) && ALLOC(p->mode, nc) && ALLOC(p->held, nc) && ALLOC(p->slow, nc) && ALLOC(p->hold_mu, nc) && ALLOC(p->off_circle, nc) && ALLOC(p->dir, 2 * nc) &&
         ALLOC(p->root_offset, NSEDI_ROOTS_PER_CONTACT * nc) && ALLOC(p->region_sign, nc) && ALLOC(p->region_rising, nc) &&
         ALLOC(p->track_live, nc) && ALLOC(p->force_anchor, 3 * nc) && ALLOC(p->spin, nc) &&
         ALLOC(p->spin_sign, nc) && ALLOC(p->spin_anchor, nc) && ALLOC(p->sector, nc) &&
         ALLOC(p->kink_side, 3 * nc) && ALLOC(p->clearing, nc) && ALLOC(p->clear_at, nc) &&
         ALLOC(p->clear_to, nc) && ALLOC(p->edge, nc) && ALLOC(p->edge_row, nc);
}

static void free_phase(nsedi_phase *p) {
  void *a[] = {p->kink_seg, p->mode, p->held, p->slow, p->hold_mu, p->off_circle, p->dir, p->root_offset, p->region_sign, p->region_rising, p->track_live,
               p->force_anchor, p->spin, p->spin_sign, p->spin_anchor, p->sector, p->kink_side,
               p->clearing, p->clear_at, p->clear_to, p->edge, p->edge_row};
  for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) free(a[i]);
}

static int alloc_cache(nsedi_cache *c, const nsed_model *m) {
  int nc = m->ncontact;
  return ALLOC(c->x_key, m->nstate) && ALLOC(c->kin, m->nbody) && ALLOC(c->geom, nc) &&
         ALLOC(c->geom_ok, nc) &&
         ALLOC(c->lambda_c, 3 * nc) && ALLOC(c->tau, nc) && ALLOC(c->share_n, nc) &&
         ALLOC(c->lambda_j, m->nrow) &&
         ALLOC(c->f, m->nv) && ALLOC(c->du, m->nv);
}

static int alloc_memo(nsedi_rhs_memo *r, int n) {
  return ALLOC(r->xdot, n) && ALLOC(r->xdot_check, n);
}

static void free_memo(nsedi_rhs_memo *r) {
  void *a[] = {r->xdot, r->xdot_check};
  for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) free(a[i]);
}

static int alloc_land(nsedi_land_ws *l, const nsed_model *m) {
  int nroot = nsedi_nroot(m);
  return ALLOC(l->g, 3 * nroot) && ALLOC(l->x, m->nstate + NSEDI_NWORK) &&
         ALLOC(l->corr, m->nstate + NSEDI_NWORK) && ALLOC(l->set, nroot);
}

static void free_land(nsedi_land_ws *l) {
  void *a[] = {l->g, l->x, l->corr, l->set};
  for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) free(a[i]);
}

static void free_cache(nsedi_cache *c) {
  void *a[] = {c->x_key, c->kin, c->geom, c->geom_ok, c->lambda_c, c->tau, c->share_n, c->lambda_j,
               c->f, c->du};
  for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) free(a[i]);
}

static int alloc_smooth(nsedi_smooth_ws *s, const nsed_model *m) {
  /* Per contact: the normal row and, sticking, the two tangential rows;
   * and its spin row while exact torsional friction holds its spin. */
  s->maxr = m->nrow + 3 * m->ncontact + nsedi_n_exact_torsion(m);
  int ok = ALLOC(s->rows, s->maxr) && ALLOC(s->cols, s->maxr) && ALLOC(s->target, s->maxr) &&
           ALLOC(s->lam, s->maxr) && ALLOC(s->row_contact, s->maxr) && ALLOC(s->anchor, s->maxr) &&
           ALLOC(s->load_anchor, s->maxr) && ALLOC(s->weight, s->maxr) &&
           ALLOC(s->centre_grad, 3 * m->ncontact);
  if (ok) s->ws = nsedi_dyn_ws_create(m, s->maxr);
  return ok && s->ws;
}

static void free_smooth(nsedi_smooth_ws *s) {
  nsedi_dyn_ws_free(&s->ws);
  void *a[] = {s->rows,   s->cols,        s->target, s->lam, s->row_contact,
               s->anchor, s->load_anchor, s->weight, s->centre_grad};
  for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) free(a[i]);
}

static int alloc_event(nsedi_event_ws *e, const nsed_model *m) {
  int nc = m->ncontact, nv = m->nv, nt = nsedi_n_exact_torsion(m), nr = 3 * nc + nt;
  return ALLOC(e->prev_mode, nc) && ALLOC(e->prev_held, nc) && ALLOC(e->prev_slow, nc) &&
         ALLOC(e->prev_off_circle, nc) && ALLOC(e->prev_dir, 2 * nc) && ALLOC(e->prev_hold_mu, nc) &&
         ALLOC(e->prev_spin, nc) && ALLOC(e->prev_spin_sign, nc) && ALLOC(e->trigger, nc) &&
         ALLOC(e->pose_dir, 2 * nc) && ALLOC(e->accel_floor, nc) && ALLOC(e->cand, nc) && ALLOC(e->impacted, nc) &&
         ALLOC(e->impact_speed, nc) && ALLOC(e->impulse, 3 * nc) && ALLOC(e->taking_over, nc) && ALLOC(e->W, nr) &&
         ALLOC(e->G, nr * nr) && ALLOC(e->b, nr) && ALLOC(e->PWt, nr * nv) &&
         ALLOC(e->cl, nr) && ALLOC(e->ca, nr) && ALLOC(e->cdir, 2 * nc) && ALLOC(e->cl_twice, nr) &&
         ALLOC(e->cmode_twice, nc + nt) &&
         ALLOC(e->cpc, nc) && ALLOC(e->cmode, nc) && ALLOC(e->spin_of, nt) && ALLOC(e->cps, nt) &&
         ALLOC(e->cspin, nt) && ALLOC(e->cspin_sign, nt) && ALLOC(e->settle_rows, nr) &&
         ALLOC(e->settle_G, nr * nr) && ALLOC(e->settle_rhs, nr) &&
         ALLOC(e->settle_piv, 2 * nr) && ALLOC(e->settle_want, nr) &&
         ALLOC(e->settle_hard, nr) && ALLOC(e->settle_weight, nr) && ALLOC(e->du_imp, nv) &&
         ALLOC(e->x_tmp, m->nstate + NSEDI_NWORK) && ALLOC(e->force_ev, 3 * nc) &&
         ALLOC(e->project_vel, m->nrow + 3 * nc + nt) && ALLOC(e->prev_edge, nc) &&
         ALLOC(e->prev_edge_row, nc) && ALLOC(e->edge_out, nc) && ALLOC(e->edge_entered, nc) &&
         nsedi_lstsq_ws_init(&e->settle_lstsq, nc > 0 ? nr : 1, 1) == 0;
}

static void free_event(nsedi_event_ws *e) {
  void *a[] = {e->prev_mode, e->prev_held, e->prev_slow, e->prev_off_circle, e->prev_dir,
               e->prev_hold_mu, e->trigger, e->pose_dir, e->accel_floor, e->cand, e->impacted,
               e->impact_speed, e->impulse, e->taking_over, e->W, e->G, e->b, e->PWt, e->cl, e->ca,
               e->cdir, e->cl_twice, e->cmode_twice, e->cpc, e->cmode, e->prev_spin, e->prev_spin_sign, e->spin_of, e->cps,
               e->cspin, e->cspin_sign, e->settle_rows, e->settle_G, e->settle_rhs,
               e->settle_piv, e->settle_want, e->settle_hard, e->settle_weight, e->du_imp, e->x_tmp, e->force_ev, e->project_vel,
               e->prev_edge, e->prev_edge_row, e->edge_out, e->edge_entered};
  for (size_t i = 0; i < sizeof a / sizeof a[0]; i++) free(a[i]);
  nsedi_lstsq_ws_free(&e->settle_lstsq);
}

/* Bodies that start inside each other (or the floor) beyond contact_tol are
 * an inconsistent initial state: a closed contact would be held at that
 * penetration for the whole run. Compliant contacts may start overlapping
 * (their force is the overlap's). */
int nsed_data_check_initial_state(const nsed_model *m, const nsed_data *d, int *contact,
                                  nsed_error *err) {
  if (contact) *contact = -1;
  for (int c = 0; c < m->ncontact; c++) {
    const nsedi_contact_geom *g = &d->cache.geom[c];
    if (m->contact[c].def.law == NSED_CONTACT_COMPLIANT || !(g->gap < -m->opt.contact_tol)) continue;
    const nsedi_contact *C = &m->contact[c];
    if (contact) *contact = c;
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "contact '%s' starts interpenetrating: body '%s' is %s%.6g m inside %s%s%s%s at "
                          "t = 0 (more than solver.contact_tol = %g m); move the bodies apart, to "
                          "touching at most",
                          C->def.name, m->body[C->body].def.name,
                          d->cache.geom_ok[c] ? "" : "at least ", -g->gap,
                          C->other >= 0 ? "body '" : C->plane >= 0 ? "plane '" : "the floor",
                          C->other >= 0 ? m->body[C->other].def.name
                                        : C->plane >= 0 ? m->plane[C->plane].name : "",
                          C->other >= 0 || C->plane >= 0 ? "'" : "",
                          C->pair == NSEDI_PAIR_BOX_PLANE ? " (a vertex of the box)" : "",
                          m->opt.contact_tol);
  }
  return NSED_OK;
}

int nsed_data_create(const nsed_model *m, nsed_data **out, nsed_error *err) {
  if (!m->finalized)
    return nsed_error_set(err, NSED_ERR_INPUT, "nsed_data_create: the model is not finalized");
  nsed_data *d = calloc(1, sizeof *d);
  if (!d) return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory creating simulation data");
  d->m = m;
  int nc = m->ncontact, nb = m->nbody, ze = m->opt.zeno_events;
  int ok = ALLOC(d->x, m->nstate + NSEDI_NWORK) && alloc_phase(&d->ph, nc, m->nkink) &&
           alloc_cache(&d->cache, m) && alloc_memo(&d->memo, m->nstate + NSEDI_NWORK) && alloc_land(&d->land, m) &&
           alloc_smooth(&d->sw, m) && alloc_event(&d->ev, m) &&
           ALLOC(d->zeno.plastic, nc) && ALLOC(d->zeno.t, nc * ze) && ALLOC(d->zeno.n, nc) &&
           ALLOC(d->zeno.quiet_t, nc * ze) && ALLOC(d->zeno.quiet_n, nc) &&
           ALLOC(d->step_check.g, nsedi_nroot(m)) && ALLOC(d->step_check.x, m->nstate + NSEDI_NWORK);
  if (!ok) {
    nsed_data_free(&d);
    return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory creating simulation data");
  }
  int rc = nsed_contact_solver_create(&m->opt.friction, nc > 0 ? nc : 1, &d->cs, err);
  if (rc) {
    nsed_data_free(&d);
    return rc;
  }
  for (int i = 0; i < nb; i++) {
    const nsedi_body *bi = &m->body[i];
    const nsed_body_def *b = &bi->def;
    if (bi->parent >= 0) {
      /* Its turn starts at zero (its pose fixed its frame), its rate is
       * its own; the rest is its parent's motion (attached_model.c). */
      d->x[bi->xspin] = 0;
      d->x[bi->xrate] = b->angular_velocity[bi->rotor_axis];
      continue;
    }
    double *s = d->x + bi->xbody;
    nsedi_v3_copy(s, b->position);
    for (int k = 0; k < 4; k++) s[3 + k] = b->quat[k];
    nsedi_v3_copy(s + 7, b->velocity);
    nsedi_v3_copy(s + 10, b->angular_velocity);
  }
  for (int c = 0; c < nc; c++) {
    d->ph.dir[2 * c] = 1.0;
    d->ph.hold_mu[c] = m->contact[c].def.mu;
    d->ph.spin_sign[c] = 1.0;
    d->ph.edge[c] = -1;
  }
  nsedi_kin_eval(m, d->x, d->cache.kin);
  for (int j = 0; j < m->njoint; j++) {
    double qd;
    if (m->joint[j].xangle >= 0) nsedi_joint_angle(m, j, d->cache.kin, NULL, &d->x[m->joint[j].xangle], &qd);
  }
  d->t = 0.0;
  d->t_next_breakpoint = INFINITY;
  d->failure_contact = -1;
  d->failed_problem = d->failed_nc = 0;
  /* The contact snapshot is meaningful before the first step. */
  nsedi_refresh_geometry(m, d);
  nsedi_monitor_init(m, d);
  *out = d;
  return NSED_OK;
}

void nsed_data_free(nsed_data **pd) {
  if (!pd || !*pd) return;
  nsed_data *d = *pd;
  nsedi_integrator_free(&d->integ);
  nsed_contact_solver_free(&d->cs);
  free_phase(&d->ph);
  free_cache(&d->cache);
  free_memo(&d->memo);
  free_land(&d->land);
  free_smooth(&d->sw);
  free_event(&d->ev);
  free(d->x);
  free(d->zeno.plastic);
  free(d->zeno.t);
  free(d->zeno.n);
  free(d->zeno.quiet_t);
  free(d->zeno.quiet_n);
  free(d->step_check.g);
  free(d->step_check.x);
  free(d);
  *pd = NULL;
}

double nsed_data_time(const nsed_data *d) { return d->t; }

void nsed_data_body_state(const nsed_data *d, int i, double out[13]) {
  nsedi_kin_body_output(d->m, i, d->x, out);
}

void nsed_data_contact(const nsed_data *d, int i, nsed_contact_info *out) {
  const nsedi_contact_geom *g = &d->cache.geom[i];
  out->mode = d->ph.mode[i];
  out->gap = g->gap;
  for (int k = 0; k < 3; k++) {
    out->lambda[k] = d->cache.lambda_c[3 * i + k];
    out->point[k] = g->p[k];
  }
  out->slip_speed = nsedi_slip_speed(g);
  out->moment = d->cache.tau[i];
  out->spin = d->ph.spin[i];
}

int nsed_data_joint_multipliers(const nsed_data *d, int j, double out[6]) {
  const nsedi_joint *J = &d->m->joint[j];
  for (int k = 0; k < J->nrow; k++) out[k] = d->cache.lambda_j[J->row0 + k];
  return J->nrow;
}

int nsed_data_joint_coordinates(const nsed_data *d, int j, double out[4]) {
  if (j < 0 || j >= d->m->njoint) return NSED_ERR_INPUT;
  double axis[3], rhoa[3], rhob[3];
  nsedi_joint_angle(d->m, j, d->cache.kin, d->x, &out[0], &out[1]);
  nsedi_joint_axial(d->m, j, d->cache.kin, axis, rhoa, rhob, &out[2], &out[3]);
  return NSED_OK;
}

double nsed_data_energy(const nsed_model *m, const nsed_data *d) {
  /* From the kinematic cache, which the loop refreshes at every sample. */
  return nsedi_kinetic_energy(m, d->cache.kin) + nsedi_potential_energy(m, d->cache.kin);
}

const nsed_stats *nsed_data_stats(const nsed_data *d) { return &d->stats; }

int nsed_data_failed_problem(const nsed_data *d, nsed_contact_problem *p, int *impact) {
  if (!d || !d->failed_problem) return 0;
  const nsedi_event_ws *ev = &d->ev;
  *p = (nsed_contact_problem){.nc = d->failed_nc, .G = ev->G, .b = ev->b, .contacts = ev->cpc,
                              .nw = ev->nw, .spins = ev->cps};
  if (impact) *impact = d->failed_problem == 2;
  return 1;
}

int nsed_data_failed_problem_write(const nsed_data *d, const char *path, const char *comment,
                                   nsed_error *err) {
  nsed_contact_problem p;
  int impact = 0;
  if (!nsed_data_failed_problem(d, &p, &impact))
    return nsed_error_set(err, NSED_ERR_INPUT, "%s: the last event problem was solved: nothing to write", path);
  return nsed_contact_problem_write(path, &p, impact, comment, err);
}

int nsed_data_failed_problem_contact(const nsed_data *d, int i) {
  if (!d || !d->failed_problem || i < 0 || i >= d->failed_nc) return -1;
  return d->ev.cand[i];
}

double nsedi_state_kinetic(const nsed_model *m, nsed_data *d) {
  nsedi_kin_eval(m, d->x, d->cache.kin);
  return nsedi_kinetic_energy(m, d->cache.kin);
}

void nsedi_add_velocity(const nsed_model *m, double *x, const double *du) {
  for (int b = 0; b < m->nbody; b++) {
    const nsedi_body *bb = &m->body[b];
    if (bb->parent >= 0) {
      x[bb->xrate] += du[6 * b + 3 + bb->rotor_axis];
      continue;
    }
    for (int k = 0; k < 3; k++) {
      x[bb->xbody + 7 + k] += du[6 * b + k];
      x[bb->xbody + 10 + k] += du[6 * b + 3 + k];
    }
  }
}

void nsedi_add_displacement(const nsed_model *m, double *x, const double *dq) {
  for (int b = 0; b < m->nbody; b++) {
    if (m->body[b].parent >= 0) {
      /* Only its turn is its own (its rate is a velocity). */
      x[m->body[b].xspin] += dq[6 * b + 3 + m->body[b].rotor_axis];
      continue;
    }
    double *s = x + m->body[b].xbody, th[3];
    for (int k = 0; k < 3; k++) {
      s[k] += dq[6 * b + k];
      th[k] = dq[6 * b + 3 + k];
    }
    /* As the state's frame turns at wv (kinematics.h): a rotor's turn about
     * its axis is its own angle. */
    int a = m->body[b].rotor_axis;
    if (a >= 0) {
      x[m->body[b].xspin] += th[a];
      th[a] = 0.0;
    }
    double angle = sqrt(th[0] * th[0] + th[1] * th[1] + th[2] * th[2]);
    if (angle == 0.0) continue;
    double sn = sin(0.5 * angle) / angle, turn[4] = {cos(0.5 * angle), sn * th[0], sn * th[1], sn * th[2]};
    nsedi_quat_mul(s + 3, s + 3, turn);
  }
}

void nsedi_refresh_geometry(const nsed_model *m, nsed_data *d) {
  nsedi_cache *ca = &d->cache;
  ca->key_valid = 0; /* the caches no longer hold the keyed evaluation */
  ca->geom_partial = 0;
  nsedi_kin_eval(m, d->x, ca->kin);
  for (int c = 0; c < m->ncontact; c++)
    ca->geom_ok[c] =
        nsedi_contact_eval(m, c, ca->kin, nsedi_live_track(m, d, d->x, c), nsedi_contact_side(m, d, c),
                           &ca->geom[c]) == NSED_OK;
}

void nsedi_track_reanchor(const nsed_model *m, nsed_data *d) {
  for (int c = 0; c < m->ncontact; c++) {
    int xt = m->contact[c].xtrack;
    if (xt < 0) continue;
    /* The side the point is evaluated on, not the indicator's sign: at a
     * region root the sign is round-off, the side is decided by the motion. */
    int live = d->ph.mode[c] != NSED_MODE_OPEN && !d->cache.geom[c].at_tip;
    /* A closed contact's explicit point exists (its geometry was evaluated). */
    if (live && !d->ph.track_live[c] && nsedi_track_init(m, c, d->cache.kin, d->x + xt)) live = 0;
    d->ph.track_live[c] = live;
  }
}

int nsedi_track_check(const nsed_model *m, nsed_data *d, double t, const double *x, nsed_error *err) {
  for (int c = 0; c < m->ncontact; c++) {
    const nsedi_contact *C = &m->contact[c];
    int xt = C->xtrack;
    if (xt < 0 || !d->ph.track_live[c]) continue;
    double res = nsedi_track_residual(m, c, d->cache.kin, x + xt);
    d->stats.max_track_residual = fmax(d->stats.max_track_residual, res);
    if (res <= NSEDI_TRACK_TOL) continue;
    d->failure_contact = c;
    if (C->pair == NSEDI_PAIR_ROLLER_PLANE)
      return nsed_error_set(err, NSED_ERR_EVENT,
                            "t = %.17g: contact '%s': differential tracking left its validity: "
                            "the tracked point (q = %.6g, phi = %.6g) misses the lowest point by "
                            "a tangency residual of %.3g (limit %g%s); tighten solver.rtol/atol or "
                            "use contact_tracking: explicit",
                            t, C->def.name, x[xt], x[xt + 1], res, NSEDI_TRACK_TOL,
                            isfinite(res) ? "" : ": q is off the roller's profile");
    return nsed_error_set(err, NSED_ERR_EVENT,
                          "t = %.17g: contact '%s': differential tracking left its validity: the "
                          "tracked point (%.6g, %.6g, %.6g) in the body's axes misses the "
                          "closest-point equations by %.3g (limit %g); tighten solver.rtol/atol "
                          "or use tracking: explicit",
                          t, C->def.name, x[xt], x[xt + 1], x[xt + 2], res,
                          NSEDI_TRACK_TOL);
  }
  return NSED_OK;
}

void nsedi_normalize_quats(const nsed_model *m, double *x) {
  for (int i = 0; i < m->nbody; i++) {
    if (m->body[i].xbody >= 0) nsedi_quat_normalize(x + m->body[i].xbody + 3);
    /* A rotor's turn is an angle: kept within one turn, its integration
     * error stays absolute rather than growing with the turns made. */
    if (m->body[i].xspin >= 0) x[m->body[i].xspin] = remainder(x[m->body[i].xspin], 2 * M_PI);
  }
}
