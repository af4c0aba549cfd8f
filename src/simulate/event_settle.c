/* Event stage "settle": impulses du = P W^T L on the rows that stay active
 * which remove the residual velocities the event leaves (docs/engine.md,
 * "Settling impulses"):
 *  - the tangential velocity of a slip that stopped here (located by its
 *    root to round-off) and of a slip starting from rest, so that it starts
 *    exactly from rest along its direction;
 *  - the velocity across its direction of a slip entering the slow hold,
 *    which its fast-turning free direction would remove within |v|/(mu
 *    lambda_n G) s (docs/engine.md, "Slip direction");
 *  - the normal velocity of a contact that closed without an impact (an
 *    approach below the impact threshold: a roller taking over is located
 *    to ~5e-7 s, and on a sprung wheel the late root leaves ~1e-7 m/s of
 *    approach that the stabilisation would turn into 1e-8 m of gap).
 * Every other closed row keeps its velocity: a lone impulse would nudge the
 * other contacts of the same assembly, a velocity error the stabilisation
 * then turns into a drifting gap. The impulses' kinetic energy change is
 * booked as contact work. */
#include <math.h>
#include <string.h>

#include "sim_impl.h"
#include "small_lu.h"
#include "tolerances.h"

/* Rows of the settling problem and their velocity changes; returns 1 when
 * something is to be removed. */
static int settle_rows(const nsed_model *m, nsed_data *d, int *ns) {
  nsedi_event_ws *ev = &d->ev;
  int any = 0;
  *ns = 0;
  for (int i = 0; i < ev->na; i++) {
    int c = ev->cand[i];
    if (d->ph.mode[c] == NSED_MODE_OPEN) continue;
    int coulomb = nsedi_coulomb_friction(m, c);
    int stopped = coulomb && (ev->trigger[c] & (NSEDI_TRIG_STOPPED | NSEDI_TRIG_ONSET)) != 0;
    /* Entering the slow hold: only the velocity across its direction goes. */
    int hold = coulomb && !stopped && (ev->trigger[c] & NSEDI_TRIG_HOLD) != 0;
    double s1 = d->ph.dir[2 * c], s2 = d->ph.dir[2 * c + 1];
    double v1 = ev->W[3 * i + 1].vel, v2 = ev->W[3 * i + 2].vel, across = v2 * s1 - v1 * s2;
    /* Below NSEDI_LANDED_APPROACH slip_tol the stabilisation's peak gap,
     * ~v / (e eta), stays near 1e-10: left to it. */
    int landed = ev->prev_mode[c] == NSED_MODE_OPEN && !ev->impacted[c] &&
                 fabs(ev->W[3 * i].vel) > NSEDI_LANDED_APPROACH * m->opt.slip_tol;
    int rows = stopped || hold || d->ph.mode[c] == NSED_MODE_STICK ? 3 : 1;
    any |= stopped || landed || hold;
    for (int r = 0; r < rows; r++) {
      double dv = 0.0;
      if ((stopped && r > 0) || (landed && r == 0)) dv = -ev->W[3 * i + r].vel;
      if (hold && r > 0) dv = across * (r == 1 ? s2 : -s1);
      ev->settle_rows[*ns] = 3 * i + r;
      ev->settle_rhs[(*ns)++] = dv;
    }
  }
  return any;
}

int nsedi_event_settle(const nsed_model *m, nsed_data *d, nsed_error *err) {
  (void)err;
  nsedi_event_ws *ev = &d->ev;
  int ns, nw = 3 * ev->na;
  if (ev->na == 0 || !settle_rows(m, d, &ns)) return NSED_OK;
  const int *sel = ev->settle_rows;
  double *A = ev->settle_G;
  for (int a = 0; a < ns; a++)
    for (int b = 0; b < ns; b++) A[(size_t)b * ns + a] = ev->G[(size_t)sel[b] * nw + sel[a]];
  /* Dependent rows (two rollers at one point): the gamma stabilisation
   * removes the residual instead. */
  if (nsedi_small_lu_factor(ns, A, ev->settle_piv, ev->settle_piv + ns) < NSEDI_SETTLE_PIVOT)
    return NSED_OK;
  nsedi_small_lu_solve(ns, A, ev->settle_piv, 1, ev->settle_rhs);
  int nv = m->nv;
  double T0 = nsedi_state_kinetic(m, d);
  memset(ev->du_imp, 0, sizeof(double) * (size_t)nv);
  for (int a = 0; a < ns; a++) {
    const double *col = ev->PWt + (size_t)sel[a] * nv;
    for (int q = 0; q < nv; q++) ev->du_imp[q] += col[q] * ev->settle_rhs[a];
  }
  nsedi_add_velocity(m, d->x, ev->du_imp);
  d->x[m->nstate + 1] += nsedi_state_kinetic(m, d) - T0;
  nsedi_refresh_geometry(m, d);
  return NSED_OK;
}
