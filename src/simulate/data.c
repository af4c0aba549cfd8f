/* Simulation data: creation from a finalized model, accessors. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "forces.h"
#include "math3.h"
#include "roller.h"
#include "sim_impl.h"

#define ALLOC(ptr, n) ((ptr) = calloc((size_t)((n) > 0 ? (n) : 1), sizeof *(ptr)))

int nsed_data_create(const nsed_model *m, nsed_data **out, nsed_error *err) {
  if (!m->finalized)
    return nsed_error_set(err, NSED_ERR_INPUT, "nsed_data_create: the model is not finalized");
  nsed_data *d = calloc(1, sizeof *d);
  if (!d) return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory creating simulation data");
  d->m = m;
  int nc = m->ncontact, nv = m->nv, nb = m->nbody;
  d->maxr = m->nrow + 3 * nc;
  int ze = m->opt.zeno_events;
  int ok = ALLOC(d->x, m->nstate + NSEDI_NWORK) && ALLOC(d->mode, nc) && ALLOC(d->slip_dir0, 2 * nc) &&
           ALLOC(d->open_offset, nc) && ALLOC(d->kin, nb) && ALLOC(d->geom, nc) &&
           ALLOC(d->geom_ok, nc) && ALLOC(d->lambda_c, 3 * nc) && ALLOC(d->lambda_j, m->nrow) &&
           ALLOC(d->rows, d->maxr) && ALLOC(d->cols, d->maxr) && ALLOC(d->target, d->maxr) &&
           ALLOC(d->lam, d->maxr) && ALLOC(d->row_contact, d->maxr) && ALLOC(d->f, nv) &&
           ALLOC(d->du, nv) && ALLOC(d->cand, nc) && ALLOC(d->W, 3 * nc) &&
           ALLOC(d->G, 9 * nc * nc) && ALLOC(d->b, 3 * nc) && ALLOC(d->PWt, 3 * nc * nv) &&
           ALLOC(d->cl, 3 * nc) && ALLOC(d->ca, 3 * nc) && ALLOC(d->cdir, 2 * nc) &&
           ALLOC(d->cpc, nc) && ALLOC(d->cmode, nc) && ALLOC(d->zeno_t, nc * ze) &&
           ALLOC(d->zeno_n, nc) && ALLOC(d->prev_mode, nc) && ALLOC(d->impacted, nc) &&
           ALLOC(d->plastic, nc) && ALLOC(d->du_imp, nv) && ALLOC(d->stopping, nc) && ALLOC(d->region_sign, nc) && ALLOC(d->track_live, nc) && ALLOC(d->stop_rows, 3 * nc) && ALLOC(d->taking_over, nc) && ALLOC(d->stop_G, 9 * nc * nc) && ALLOC(d->stop_rhs, 3 * nc) && ALLOC(d->stop_piv, 6 * nc) && ALLOC(d->impact_speed, nc) && ALLOC(d->onset_lock, nc) && ALLOC(d->lock_mu, nc);
  if (ok) d->ws = nsedi_dyn_ws_create(m, d->maxr);
  if (!ok || !d->ws) {
    nsed_data_free(&d);
    return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory creating simulation data");
  }
  int rc = nsed_contact_solver_create(&m->opt.friction, nc > 0 ? nc : 1, &d->cs, err);
  if (rc) {
    nsed_data_free(&d);
    return rc;
  }
  for (int i = 0; i < nb; i++) {
    const nsed_body_def *b = &m->body[i].def;
    double *s = d->x + 13 * i;
    nsedi_v3_copy(s, b->position);
    for (int k = 0; k < 4; k++) s[3 + k] = b->quat[k];
    nsedi_v3_copy(s + 7, b->velocity);
    nsedi_v3_copy(s + 10, b->angular_velocity);
  }
  d->t = 0.0;
  d->t_next_breakpoint = INFINITY;
  d->failure_contact = -1;
  nsedi_kin_eval(m, d->x, d->kin);
  /* The contact snapshot is meaningful before the first step. */
  for (int c = 0; c < nc; c++)
    d->geom_ok[c] = nsedi_contact_eval(m, c, d->kin, nsedi_live_track(m, d, d->x, c), &d->geom[c]) == NSED_OK;
  d->energy_initial = nsedi_kinetic_energy(m, d->kin) + nsedi_potential_energy(m, d->kin);
  *out = d;
  return NSED_OK;
}

void nsed_data_free(nsed_data **pd) {
  if (!pd || !*pd) return;
  nsed_data *d = *pd;
  nsedi_integrator_free(&d->integ);
  nsed_contact_solver_free(&d->cs);
  nsedi_dyn_ws_free(&d->ws);
  void *arrays[] = {d->x,      d->mode,   d->slip_dir0, d->open_offset, d->kin,   d->geom,
                    d->geom_ok, d->lambda_c, d->lambda_j, d->rows,       d->cols,  d->target,
                    d->lam,    d->row_contact, d->f,    d->du,          d->cand,  d->W,
                    d->G,      d->b,      d->PWt,       d->cl,          d->ca,    d->cdir,
                    d->cpc,    d->cmode,  d->zeno_t,    d->zeno_n, d->prev_mode, d->impacted,
                    d->plastic, d->du_imp, d->stopping, d->region_sign, d->track_live, d->stop_rows, d->taking_over, d->stop_G, d->stop_rhs, d->stop_piv, d->impact_speed, d->onset_lock, d->lock_mu};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) free(arrays[i]);
  free(d);
  *pd = NULL;
}

double nsed_data_time(const nsed_data *d) { return d->t; }

void nsed_data_body_state(const nsed_data *d, int i, double out[13]) {
  memcpy(out, d->x + 13 * i, 13 * sizeof(double));
  nsedi_quat_normalize(out + 3);
}

void nsed_data_contact(const nsed_data *d, int i, nsed_contact_info *out) {
  const nsedi_contact_geom *g = &d->geom[i];
  out->mode = d->mode[i];
  out->gap = g->gap;
  for (int k = 0; k < 3; k++) {
    out->lambda[k] = d->lambda_c[3 * i + k];
    out->point[k] = g->p[k];
  }
  out->slip_speed = hypot(g->row[1].vel, g->row[2].vel);
}

int nsed_data_joint_multipliers(const nsed_data *d, int j, double out[6]) {
  const nsedi_joint *J = &d->m->joint[j];
  for (int k = 0; k < J->nrow; k++) out[k] = d->lambda_j[J->row0 + k];
  return J->nrow;
}

double nsed_data_energy(const nsed_model *m, const nsed_data *d) {
  /* From the kinematic cache, which the loop refreshes at every sample. */
  return nsedi_kinetic_energy(m, d->kin) + nsedi_potential_energy(m, d->kin);
}

const nsed_stats *nsed_data_stats(const nsed_data *d) { return &d->stats; }

const char *nsed_mode_name(nsed_mode mode) {
  static const char *names[] = {"open", "stick", "slip"};
  return (unsigned)mode < 3 ? names[mode] : "unknown";
}

const char *nsed_event_kind_name(nsed_event_kind kind) {
  static const char *names[] = {"stick", "slip", "close", "open", "impact", "zeno", "time", "failure"};
  return (unsigned)kind < 8 ? names[kind] : "unknown";
}

void nsedi_track_reanchor(const nsed_model *m, nsed_data *d) {
  for (int c = 0; c < m->ncontact; c++) {
    int xt = m->contact[c].xtrack;
    if (xt < 0) continue;
    int live = d->mode[c] != NSED_MODE_OPEN && d->geom[c].region >= 0;
    if (live && !d->track_live[c]) nsedi_roller_track_init(m, c, d->kin, d->x + xt);
    d->track_live[c] = live;
  }
}

int nsedi_track_check(const nsed_model *m, nsed_data *d, nsed_error *err) {
  for (int c = 0; c < m->ncontact; c++) {
    int xt = m->contact[c].xtrack;
    if (xt < 0 || !d->track_live[c]) continue;
    double res = nsedi_roller_track_residual(m, c, d->kin, d->x + xt);
    if (res <= NSEDI_TRACK_TOL) continue;
    d->failure_contact = c;
    return nsed_error_set(err, NSED_ERR_EVENT,
                          "t = %.17g: contact '%s': differential tracking left its validity: "
                          "the tracked point (q = %.6g, phi = %.6g) misses the lowest point by a "
                          "tangency residual of %.3g (limit %g%s); tighten solver.rtol/atol or "
                          "use contact_tracking: explicit",
                          d->t, m->contact[c].def.name, d->x[xt], d->x[xt + 1], res,
                          NSEDI_TRACK_TOL, isfinite(res) ? "" : ": q is off the roller's profile");
  }
  return NSED_OK;
}

void nsedi_normalize_quats(const nsed_model *m, double *x) {
  for (int i = 0; i < m->nbody; i++) nsedi_quat_normalize(x + 13 * i + 3);
}
