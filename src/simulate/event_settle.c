/* Event stage "settle": impulses du = P W^T L on the rows that stay active
 * which remove the residual velocities the event leaves (docs/engine.md,
 * "The event step" and "Settling on dependent rows"):
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
 * then turns into a drifting gap; a slip's tangential velocity too, since
 * its friction follows the direction the event problem posed it with (and
 * a slow slip's stop must not be crossed unseen). Dependent rows are
 * settled by least squares, a stick among the kept rows staying at rest.
 * The impulses' kinetic energy change is booked as contact work, and the
 * fast held slips that dependent rows still turned take their new
 * velocities' directions. */
#include <math.h>
#include <string.h>

#include "sim_impl.h"
#include "small_lu.h"
#include "tolerances.h"

/* Rows of the settling problem and their velocity changes; returns 1 when
 * something is to be removed. */
static int settle_rows(const nsed_model *m, nsed_data *d, int ask_holds, int *holds, int *ns) {
  nsedi_event_ws *ev = &d->ev;
  int any = 0;
  *ns = 0;
  *holds = 0;
  for (int i = 0; i < ev->na; i++) {
    int c = ev->cand[i];
    if (d->ph.mode[c] == NSED_MODE_OPEN) continue;
    int coulomb = nsedi_coulomb_friction(m, c);
    int stopped = coulomb && (ev->trigger[c] & (NSEDI_TRIG_STOPPED | NSEDI_TRIG_ONSET)) != 0;
    /* Entering the slow hold: only the velocity across its direction goes. */
    int hold = coulomb && !stopped && (ev->trigger[c] & NSEDI_TRIG_HOLD) != 0;
    *holds |= hold;
    hold &= ask_holds;
    double s1 = d->ph.dir[2 * c], s2 = d->ph.dir[2 * c + 1];
    double v1 = ev->W[3 * i + 1].vel, v2 = ev->W[3 * i + 2].vel, across = v2 * s1 - v1 * s2;
    /* Below NSEDI_LANDED_APPROACH slip_tol the stabilisation's peak gap,
     * ~v / (e eta), stays near 1e-10: left to it. */
    int landed = ev->prev_mode[c] == NSED_MODE_OPEN && !ev->impacted[c] &&
                 fabs(ev->W[3 * i].vel) > NSEDI_LANDED_APPROACH * m->opt.slip_tol;
    /* A slow slip that goes on may be a hair from its stop: an impulse
     * elsewhere must not push its velocity across zero, where its stop
     * root would start negative and never fire. */
    int slow = coulomb && !stopped && !hold && d->ph.mode[c] == NSED_MODE_SLIP && d->ph.held[c] &&
               d->ph.slow[c];
    /* A slip's tangential velocity is kept too: its friction follows the
     * direction the event problem posed, and a nudge to a slip slow enough
     * would turn it (and move the forces of the sticks it is coupled with
     * off the problem's answer). */
    int rows = coulomb || d->ph.mode[c] == NSED_MODE_STICK ? 3 : 1;
    any |= stopped || landed || hold;
    for (int r = 0; r < rows; r++) {
      double dv = 0.0;
      int asked = (stopped && r > 0) || (landed && r == 0) || (hold && r > 0);
      if ((stopped && r > 0) || (landed && r == 0)) dv = -ev->W[3 * i + r].vel;
      if (hold && r > 0) dv = across * (r == 1 ? s2 : -s1);
      ev->settle_rows[*ns] = 3 * i + r;
      ev->settle_hard[*ns] = asked || (slow && r > 0);
      ev->settle_rhs[(*ns)++] = dv;
    }
  }
  /* Exact torsional friction: a spin that stops or starts from rest loses
   * its residual spin velocity; a sticking one keeps its own. */
  for (int k = 0; k < ev->nw; k++) {
    int c = ev->cand[ev->spin_of[k]], trig = ev->trigger[c];
    int stick = d->ph.spin[c] == NSED_MODE_STICK;
    int onset = d->ph.spin[c] == NSED_MODE_SLIP && (trig & NSEDI_TRIG_SPIN_ONSET);
    if (!stick && !onset) continue;
    int stopped = onset || (trig & NSEDI_TRIG_SPIN_STOPPED);
    int r = 3 * ev->na + k;
    any |= stopped;
    ev->settle_rows[*ns] = r;
    ev->settle_hard[*ns] = stopped;
    ev->settle_rhs[(*ns)++] = stopped ? -ev->W[r].vel : 0.0;
  }
  return any;
}

/* The settling matrix of the selected rows into A, each row scaled by w
 * (NULL: unscaled). */
static void settle_matrix(const nsedi_event_ws *ev, int ns, const double *w, double *A) {
  int ld = ev->ldg;
  const int *sel = ev->settle_rows;
  for (int a = 0; a < ns; a++)
    for (int b = 0; b < ns; b++)
      A[(size_t)b * ns + a] = (w ? w[a] : 1.0) * ev->G[(size_t)sel[b] * ld + sel[a]];
}

/* Dependent rows: in some configurations of an assembly a set of contact
 * impulses balances itself (the vehicle spinning in place, one roller
 * landing on its tip while another wheel's roller sticks), so not every
 * row can be given its velocity. The hard rows come first: those whose
 * change the event asks for (a stop's or an onset's residual, a slow
 * hold's transverse velocity, a landing's approach) and a slow slip's,
 * which must not be pushed across its stop. The impulse is the minimum-
 * norm least-squares one with the other rows, which only keep their
 * velocity, weighted by NSEDI_SETTLE_KEPT_WEIGHT, so that they absorb what
 * the dependency forces (a small velocity change of a closed normal or a
 * stick, which its stabilisation removes). Returns 1 when every hard row
 * is reached to within NSEDI_SETTLE_CONSISTENT of the largest change asked
 * or to within its rest speed (slip_tol; a spin's slip_tol / torsion: the
 * velocity below which a contact counts as at rest) and every kept stick
 * stays at rest, else 0 (the hard rows contradict each other: two rollers
 * at one point asked different velocities, the stops of a rigid table's
 * two feet beside a third foot's slow slip, a hold's transverse velocity
 * on rows tied to a stick); nothing is then applied, a hold keeps its
 * transverse velocity, a stop whose residual stays slips on along it
 * (nsedi_event_unstopped), and the law monitor watches the rest. */
static double hard_row_rest_speed(const nsed_model *m, const nsedi_event_ws *ev, int ncand, int row) {
  if (row < 3 * ncand) return m->opt.slip_tol;
  return nsedi_spin_rest_speed(m, ev->cand[ev->spin_of[row - 3 * ncand]]);
}

/* Whether every Coulomb stick among the kept rows stays at rest (within
 * slip_tol) after the least-squares impulse x of matrix A: a stick starts
 * at rest, and a velocity the impulse gave it would stay (its phase holds
 * its tangential acceleration at zero), a creep the law monitor stops. */
static int kept_sticks_at_rest(const nsed_model *m, const nsed_data *d, int ns, const double *A,
                               const double *x) {
  const nsedi_event_ws *ev = &d->ev;
  for (int a = 0; a + 1 < ns; a++) {
    int row = ev->settle_rows[a];
    if (row >= 3 * ev->na || row % 3 != 1 || ev->settle_rows[a + 1] != row + 1 || ev->settle_hard[a])
      continue;
    int c = ev->cand[row / 3];
    if (d->ph.mode[c] != NSED_MODE_STICK || !nsedi_coulomb_friction(m, c)) continue;
    double v[2];
    for (int r = 0; r < 2; r++) {
      v[r] = ev->W[row + r].vel;
      for (int b = 0; b < ns; b++) v[r] += A[(size_t)b * ns + a + r] * x[b];
    }
    if (hypot(v[0], v[1]) > m->opt.slip_tol) return 0;
  }
  return 1;
}

static int settle_dependent(const nsed_model *m, nsed_data *d, int ncand, int ns) {
  nsedi_event_ws *ev = &d->ev;
  double *A = ev->settle_G, *x = ev->settle_rhs, *w = ev->settle_weight;
  for (int a = 0; a < ns; a++) {
    w[a] = ev->settle_hard[a] ? 1.0 : NSEDI_SETTLE_KEPT_WEIGHT;
    x[a] = w[a] * ev->settle_want[a];
  }
  settle_matrix(ev, ns, w, A);
  int rank = 0;
  if (nsedi_lstsq_square(&ev->settle_lstsq, ns, A, 1, x, NSEDI_SCHUR_RANK_CUT, &rank) != 0) return 0;
  settle_matrix(ev, ns, NULL, A);
  double want = 0;
  for (int a = 0; a < ns; a++)
    if (ev->settle_hard[a]) want = fmax(want, fabs(ev->settle_want[a]));
  for (int a = 0; a < ns; a++) {
    if (!ev->settle_hard[a]) continue;
    double r = -ev->settle_want[a];
    for (int b = 0; b < ns; b++) r += A[(size_t)b * ns + a] * x[b];
    if (fabs(r) > fmax(NSEDI_SETTLE_CONSISTENT * want, hard_row_rest_speed(m, ev, ncand, ev->settle_rows[a])))
      return 0;
  }
  return kept_sticks_at_rest(m, d, ns, A, x);
}

/* A fast slip's friction opposes its velocity; held, its direction is
 * that velocity's at the phase start, and its turn indicator is measured
 * from it. The impulses above keep the slips' velocities, except where
 * dependent rows share what they cannot all be given (least squares), so
 * every fast held slip takes its velocity's direction after them
 * (docs/engine.md, "Slips the settling impulse reaches"). Slow slips keep
 * theirs: below slip_stop_speed the velocity's direction is not the law's. */
void nsedi_realign_fast_slips(const nsed_model *m, nsed_data *d) {
  for (int c = 0; c < m->ncontact; c++) {
    if (d->ph.mode[c] != NSED_MODE_SLIP || !d->ph.held[c] || d->ph.slow[c] || !nsedi_coulomb_friction(m, c))
      continue;
    const nsedi_contact_geom *g = &d->cache.geom[c];
    double sp = nsedi_slip_speed(g);
    if (!(sp > 0)) continue;
    d->ph.dir[2 * c] = g->row[1].vel / sp;
    d->ph.dir[2 * c + 1] = g->row[2].vel / sp;
  }
}

/* Whether the settling rows are independent, by the singular values of
 * their matrix (NSEDI_SCHUR_RANK_CUT, as the dependent solve's rank). The
 * LU's pivots do not tell: partial pivoting can leave every pivot far from
 * zero on rows of which three or more are dependent to round-off, and
 * solved exactly there the impulse is the residual over the smallest
 * singular value, a motion the rows do not see (docs/engine.md, "Settling
 * on dependent rows"). */
static int settle_full_rank(nsedi_event_ws *ev, int ns) {
  double *A = ev->settle_G, *zero = ev->settle_weight;
  settle_matrix(ev, ns, NULL, A);
  memset(zero, 0, sizeof(double) * (size_t)ns);
  int rank = 0;
  if (nsedi_lstsq_square(&ev->settle_lstsq, ns, A, 1, zero, NSEDI_SCHUR_RANK_CUT, &rank) != 0) return 0;
  return rank == ns;
}

/* Solve the settling problem of rows settle_rows[0, ns) (the candidates
 * cand[0, ncand) of the current build) for the changes settle_rhs and
 * apply the impulses, their kinetic energy change booked as contact work.
 * Returns 0 where dependent rows contradict each other (nothing applied). */
static int settle_apply(const nsed_model *m, nsed_data *d, int ncand, int ns) {
  nsedi_event_ws *ev = &d->ev;
  const int *sel = ev->settle_rows;
  memcpy(ev->settle_want, ev->settle_rhs, sizeof(double) * (size_t)ns);
  double *A = ev->settle_G;
  int independent = settle_full_rank(ev, ns);
  settle_matrix(ev, ns, NULL, A);
  if (independent && nsedi_small_lu_factor(ns, A, ev->settle_piv, ev->settle_piv + ns) >= NSEDI_SETTLE_PIVOT)
    nsedi_small_lu_solve(ns, A, ev->settle_piv, 1, ev->settle_rhs);
  else if (!settle_dependent(m, d, ncand, ns))
    return 0;
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
  return 1;
}

/* The hold is the limit of the flight's decaying bounces only where every
 * other touching contact keeps its velocity: each row is hard, so that on
 * dependent rows a hold that would take its velocity from the others (the
 * struck contact's, given back its approach; a wheel's roll, stopped to
 * keep both feet of a tip it rolls over) is refused and the contact flies
 * (docs/engine.md, "Flights below the margin"). */
int nsedi_settle_hovering(const nsed_model *m, nsed_data *d) {
  nsedi_event_ws *ev = &d->ev;
  int ns = 0, any = 0;
  for (int i = 0; i < ev->n; i++) {
    int c = ev->cand[i];
    const nsedi_contact_geom *g = &d->cache.geom[c];
    int hover = (ev->trigger[c] & NSEDI_TRIG_HOVER) != 0;
    if (!hover && !(g->row[0].vel <= m->opt.slip_tol)) continue; /* leaving: not held */
    any |= hover;
    int rows = nsedi_coulomb_friction(m, c) ? 3 : 1;
    for (int r = 0; r < rows; r++) {
      ev->settle_rows[ns] = 3 * i + r;
      ev->settle_hard[ns] = 1;
      ev->settle_rhs[ns++] = hover && r == 0 ? -g->row[0].vel : 0.0;
    }
  }
  if (!any) return 0;
  return settle_apply(m, d, ev->n, ns);
}

int nsedi_event_settle(const nsed_model *m, nsed_data *d, nsed_error *err) {
  (void)err;
  nsedi_event_ws *ev = &d->ev;
  int ns;
  ev->settled = ev->settle_refused = 0;
  /* From here on a stop's residual is what the impulse left of it. */
  ev->stops_unsettled = 0;
  int holds = 0;
  if (ev->na == 0 || !settle_rows(m, d, 1, &holds, &ns)) return NSED_OK;
  int applied = settle_apply(m, d, ev->na, ns);
  /* A hold's transverse velocity stands for the fast turn of a free
   * direction; where the rows are tied that turn is not fast (its inverse
   * mass is the tie's), and removing it would move the others. The hold
   * then keeps it (below slip_stop_speed the velocity's direction is not
   * the law's), and the rest is settled without it (docs/engine.md, "A
   * hold the tie cannot settle"). */
  if (!applied && holds) {
    if (!settle_rows(m, d, 0, &holds, &ns)) return NSED_OK;
    applied = settle_apply(m, d, ev->na, ns);
  }
  if (!applied) {
    ev->settle_refused = 1;
    return NSED_OK;
  }
  nsedi_realign_fast_slips(m, d);
  ev->settled = 1;
  return NSED_OK;
}
