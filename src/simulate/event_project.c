/* The event step's projection stage (docs/engine.md, "Projection at
 * events"): the closed contacts of the ending phase brought back onto their
 * surfaces when one has drifted beyond contact_tol.
 *
 * In a smooth phase the stabilisation holds a closed contact's gap; a
 * plastic impact stops an approach without moving the contact back, and a
 * contact that opens below the floor lands a margin lower still. Where
 * phases are too short for the stabilisation (a chatter of thousands of
 * landings), the gap would ratchet away. The positions are moved by the
 * smallest displacement in the kinetic metric that closes every such gap
 * and leaves the joints' rows unchanged to first order:
 * dq = M^-1 J^T lambda with J_contacts dq = -gap, J_joints dq = 0 (a Gauss-
 * Newton step on the constraint manifold, repeated while it converges).
 * Moving the positions moves the rows: a rolling body's contact point is
 * another material point afterwards, whose velocity differs by the spin
 * times the point's shift. The velocities are therefore changed by the
 * smallest amount in the kinetic metric that gives every holding row (the
 * joints', the closed contacts' normal rows, the sticks' tangential rows,
 * a sticking spin's row) the velocity it had before the move. The energy
 * both steps change is booked as contact work, so the energy balance stays
 * exact. */
#include <math.h>
#include <string.h>

#include "sim_impl.h"
#include "tolerances.h"
#include "track.h"

static int projected(const nsed_model *m, const nsed_data *d, int c) {
  return d->ph.mode[c] != NSED_MODE_OPEN && m->contact[c].def.law != NSED_CONTACT_COMPLIANT &&
         d->cache.geom_ok[c];
}

/* The largest |gap| of the contacts projected, at the cached geometry. */
static double worst_gap(const nsed_model *m, const nsed_data *d) {
  double worst = 0.0;
  for (int c = 0; c < m->ncontact; c++)
    if (projected(m, d, c)) worst = fmax(worst, fabs(d->cache.geom[c].gap));
  return worst;
}

/* The largest |phi| of the joints' rows that the step keeps (m or rad). */
static double worst_drift(const nsed_model *m, nsed_data *d) {
  nsedi_row *rows = d->sw.rows;
  double worst = 0.0;
  for (int j = 0; j < m->njoint; j++) {
    int n = nsedi_joint_rows(m, j, d->cache.kin, d->t, rows);
    for (int k = 0; k < n; k++)
      if (!rows[k].own_feedback) worst = fmax(worst, fabs(rows[k].pos));
  }
  return worst;
}

/* Rows of one Gauss-Newton step: every joint row whose feedback is
 * Baumgarte's (kept), then each projected contact's normal row (closed). */
static int step_rows(const nsed_model *m, nsed_data *d) {
  nsedi_smooth_ws *w = &d->sw;
  int nr = 0;
  for (int j = 0; j < m->njoint; j++) {
    int n = nsedi_joint_rows(m, j, d->cache.kin, d->t, w->rows + nr), kept = 0;
    for (int k = 0; k < n; k++)
      if (!w->rows[nr + k].own_feedback) w->rows[nr + kept++] = w->rows[nr + k];
    for (int k = 0; k < kept; k++) w->target[nr + k] = 0.0;
    nr += kept;
  }
  for (int c = 0; c < m->ncontact; c++) {
    if (!projected(m, d, c)) continue;
    w->rows[nr] = d->cache.geom[c].row[0];
    w->target[nr++] = -d->cache.geom[c].gap;
  }
  return nr;
}

/* The rows the phase holds at velocity level, at the cached kinematics and
 * geometry, in a fixed order: every joint row whose feedback is
 * Baumgarte's, then for each projected contact its normal row, a stick's
 * two tangential rows, a sticking spin's row. Returns their number. */
static int holding_rows(const nsed_model *m, nsed_data *d, nsedi_row *rows) {
  int nr = 0;
  for (int j = 0; j < m->njoint; j++) {
    int n = nsedi_joint_rows(m, j, d->cache.kin, d->t, rows + nr), kept = 0;
    for (int k = 0; k < n; k++)
      if (!rows[nr + k].own_feedback) rows[nr + kept++] = rows[nr + k];
    nr += kept;
  }
  for (int c = 0; c < m->ncontact; c++) {
    if (!projected(m, d, c)) continue;
    const nsedi_contact_geom *g = &d->cache.geom[c];
    rows[nr++] = g->row[0];
    if (d->ph.mode[c] == NSED_MODE_STICK) {
      rows[nr++] = g->row[1];
      rows[nr++] = g->row[2];
    }
    if (nsedi_exact_torsion(m, c) && d->ph.spin[c] == NSED_MODE_STICK) rows[nr++] = g->spin;
  }
  return nr;
}

/* The velocities after the move: the change du = M^-1 J^T lambda, smallest
 * in the kinetic metric, with J du = (each holding row's velocity before)
 * - (its velocity now). Rows that contradict each other (a least-squares
 * residual) leave the velocities as they are, for the law monitor to
 * judge. */
static void restore_row_velocities(const nsed_model *m, nsed_data *d, int nbefore) {
  nsedi_smooth_ws *w = &d->sw;
  int nr = holding_rows(m, d, w->rows), deficient = 0;
  if (nr != nbefore || nr == 0) return;
  for (int i = 0; i < nr; i++) w->target[i] = d->ev.project_vel[i] - w->rows[i].vel;
  for (int k = 0; k < m->nv; k++) d->cache.f[k] = 0.0;
  if (nsedi_solve_constrained(m, w->ws, nr, w->rows, w->rows, w->target, d->cache.f, NULL,
                              d->cache.du, w->lam, &deficient))
    return;
  nsedi_add_velocity(m, d->x, d->cache.du);
  nsedi_refresh_geometry(m, d);
}

int nsedi_event_project(const nsed_model *m, nsed_data *d, nsed_error *err) {
  double worst = worst_gap(m, d);
  if (!(worst > m->opt.contact_tol)) return NSED_OK;
  double energy_before = nsed_data_energy(m, d), first = worst;
  nsedi_smooth_ws *w = &d->sw;
  int nhold = holding_rows(m, d, w->rows);
  for (int i = 0; i < nhold; i++) d->ev.project_vel[i] = w->rows[i].vel;
  double done = NSEDI_PROJECT_REL * m->opt.contact_tol;
  for (int it = 0; it < NSEDI_PROJECT_ITERATIONS && worst > done; it++) {
    double drift = worst_drift(m, d);
    int nr = step_rows(m, d), deficient = 0;
    for (int k = 0; k < m->nv; k++) d->cache.f[k] = 0.0;
    /* Contacts closed on the same surface twice (redundant rows) take the
     * least-squares displacement; gaps no displacement can close together
     * are left to the law monitor, which names the contact. */
    if (nsedi_solve_constrained(m, w->ws, nr, w->rows, w->rows, w->target, d->cache.f, NULL,
                                d->cache.du, w->lam, &deficient))
      break;
    size_t bytes = sizeof(double) * (size_t)(m->nstate + NSEDI_NWORK);
    memcpy(d->ev.x_tmp, d->x, bytes);
    nsedi_add_displacement(m, d->x, d->cache.du);
    nsedi_normalize_quats(m, d->x);
    nsedi_refresh_geometry(m, d);
    double now = worst_gap(m, d);
    if (!(now < worst) || !(worst_drift(m, d) <= drift + done)) {
      /* Not converging (a step beyond the gaps' linear range), or gaps
       * closed at the joints' expense (rows that contradict each other,
       * which the least-squares step shares): the step is undone and the
       * law monitor judges what is left. */
      memcpy(d->x, d->ev.x_tmp, bytes);
      nsedi_refresh_geometry(m, d);
      break;
    }
    worst = now;
  }
  /* The solve used the evaluation's caches (forces, accelerations,
   * multipliers): unchanged positions are evaluated again for the stages
   * that read them. */
  if (worst == first) return nsedi_eval(m, d, d->t, d->x, NULL, err);
  /* Tracked contact points follow the bodies (their states restart at the
   * explicit point, as at an event that closes them). */
  for (int c = 0; c < m->ncontact; c++) {
    int xt = m->contact[c].xtrack;
    if (xt >= 0 && d->ph.track_live[c] && nsedi_track_init(m, c, d->cache.kin, d->x + xt))
      d->ph.track_live[c] = 0;
  }
  nsedi_refresh_geometry(m, d);
  restore_row_velocities(m, d, nhold);
  d->stats.projections++;
  d->stats.max_projected_gap = fmax(d->stats.max_projected_gap, first);
  int rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
  if (rc) return rc;
  d->x[m->nstate + 1] += nsed_data_energy(m, d) - energy_before;
  return NSED_OK;
}
