/* The smooth phase: for the current phase's modes, the equations of motion
 * with the bilateral rows and the closed contacts' rows held at
 * acceleration level (Baumgarte-stabilised), solved for the accelerations
 * and multipliers (DESIGN.md §6; docs/engine.md, "Smooth phases"). */
#include <math.h>
#include <string.h>

#include "drive.h"
#include "forces.h"
#include "math3.h"
#include "shape_pairs.h"
#include "sim_impl.h"
#include "tolerances.h"

/* Friction of a slipping contact: its unit direction s (t1, t2) and the
 * coefficient. Exact Coulomb: along the held direction, or along the slip
 * velocity when free; regularised: along v (zero at rest). The coefficient
 * is the law's (nsedi_kinetic_mu), or a slow onset's polygon force. */
static double friction_of(const nsed_model *m, const nsed_data *d, int c, double s[2]) {
  const nsed_contact_def *cd = &m->contact[c].def;
  const nsedi_contact_geom *g = &d->cache.geom[c];
  double v1 = g->row[1].vel, v2 = g->row[2].vel, sp = hypot(v1, v2);
  if (cd->law == NSED_CONTACT_COULOMB && (d->ph.held[c] || !(sp > 0))) {
    s[0] = d->ph.dir[2 * c];
    s[1] = d->ph.dir[2 * c + 1];
    if (d->ph.held[c] && d->ph.slow[c] && d->ph.off_circle[c]) return d->ph.hold_mu[c];
  } else {
    s[0] = sp > 0 ? v1 / sp : 1.0;
    s[1] = sp > 0 ? v2 / sp : 0.0;
  }
  return nsedi_kinetic_mu(m, c, sp, -s[0], -s[1]);
}

double nsedi_torsion_factor(const nsed_contact_def *cd, const nsedi_contact_geom *g) {
  if (!(cd->torsion > 0)) return 0.0;
  double ws = g->spin.vel / cd->torsion_rate;
  return -cd->torsion * (ws > 1 ? 1.0 : ws < -1 ? -1.0 : ws);
}

/* The torsional moment per unit normal force the phase applies through the
 * normal force's column: exact torsion turning, -torsion times its sign;
 * exact torsion sticking, none (its own row carries the moment);
 * regularised, the saturated law of the spin velocity. */
static double phase_torsion_factor(const nsed_model *m, const nsed_data *d, int c) {
  if (!nsedi_exact_torsion(m, c)) return nsedi_torsion_factor(&m->contact[c].def, &d->cache.geom[c]);
  return d->ph.spin[c] == NSED_MODE_SLIP ? -m->contact[c].def.torsion * d->ph.spin_sign[c] : 0.0;
}

/* Seed 004's compliant contact: a spring-damper normal force while the
 * surfaces overlap and regularised friction, applied as forces through the
 * contact's rows (no constraint, no event). */
static void compliant_force(const nsed_model *m, nsed_data *d, int c) {
  const nsed_contact_def *cd = &m->contact[c].def;
  const nsedi_contact_geom *g = &d->cache.geom[c];
  double *l = d->cache.lambda_c + 3 * c;
  l[0] = l[1] = l[2] = 0;
  if (g->gap >= 0) return;
  double fn = fmax(0.0, -cd->stiffness * g->gap - cd->damping * g->row[0].vel);
  double v1 = g->row[1].vel, v2 = g->row[2].vel, sp = hypot(v1, v2);
  double k = sp > 0 ? cd->mu * fn * fmin(1.0, sp / cd->delta) / sp : 0.0;
  l[0] = fn;
  l[1] = -k * v1;
  l[2] = -k * v2;
  d->cache.tau[c] = fn * nsedi_torsion_factor(cd, g);
  for (int r = 0; r < 4; r++) {
    const nsedi_row *row = r < 3 ? &g->row[r] : &g->spin;
    double lr = r < 3 ? l[r] : d->cache.tau[c];
    for (int q = 0; q < 6; q++) {
      if (row->a >= 0) d->cache.f[6 * row->a + q] += lr * row->ja[q];
      if (row->b >= 0) d->cache.f[6 * row->b + q] += lr * row->jb[q];
    }
  }
}

double nsedi_joint_row_target(const nsed_options *o, const nsedi_row *r) {
  if (r->own_feedback) return -r->bias;
  double eta = o->baumgarte_eta, xi = o->baumgarte_xi;
  return -(r->bias + 2 * eta * r->vel + xi * xi * r->pos);
}

/* The joints' rows with their Baumgarte targets; returns their number. */
static int joint_rows(const nsed_model *m, nsed_data *d, double t) {
  nsedi_smooth_ws *w = &d->sw;
  int nr = 0;
  for (int j = 0; j < m->njoint; j++) {
    int n = nsedi_joint_rows(m, j, d->cache.kin, t, w->rows + nr);
    for (int k = 0; k < n; k++, nr++) {
      w->cols[nr] = w->rows[nr];
      w->target[nr] = nsedi_joint_row_target(&m->opt, &w->rows[nr]);
      w->row_contact[nr] = -1;
      w->anchor[nr] = 0.0;
    }
  }
  return nr;
}

/* A velocity-level row held by the gamma stabilisation. */
static void add_velocity_row(nsedi_smooth_ws *w, int nr, const nsedi_row *r, double gam, int c,
                             double anchor) {
  w->rows[nr] = *r;
  w->cols[nr] = *r;
  w->target[nr] = -(r->bias + gam * r->vel);
  w->row_contact[nr] = c;
  w->anchor[nr] = anchor;
}

/* The gamma of stick c's tangential rows. A stick whose slip stopped at
 * this event, evaluated before the settle stage has removed its residual
 * tangential velocity (event_settle.c), has nothing for the stabilisation
 * to remove: the impulse will. Its demand, gamma v_t over the contact's
 * inverse mass along v_t, is no force the phase carries, and where the
 * stick's rows nearly depend on other sticks' (the tie of the tips of a
 * mecanum car's wheels) that inverse mass is small and the demand would
 * push the stick off its friction set in the mode decision (docs/engine.md,
 * "A stop's residual in the mode decision"). */
static double stick_gamma(const nsed_data *d, int c, double gam) {
  return d->ev.stops_unsettled && (d->ev.trigger[c] & NSEDI_TRIG_STOPPED) ? 0.0 : gam;
}

/* The rows of closed contact c from row nr on; returns the new count.
 * Stick: the normal row and both tangential rows. Slip: the normal row,
 * whose force column carries the kinetic friction -mu s. A turning spin's
 * moment is proportional to lambda_n too: the normal column carries it; a
 * sticking spin (exact torsion) adds its own row last. */
static int contact_rows(const nsed_model *m, nsed_data *d, int c, int nr) {
  const nsed_options *o = &m->opt;
  nsedi_smooth_ws *w = &d->sw;
  const nsedi_contact_geom *g = &d->cache.geom[c];
  double eta = o->baumgarte_eta, xi = o->baumgarte_xi, gam = o->baumgarte_gamma;
  int n0 = nr;
  w->rows[nr] = g->row[0];
  w->cols[nr] = g->row[0];
  w->target[nr] = -(g->row[0].bias + 2 * eta * g->row[0].vel + xi * xi * g->gap);
  if (d->ph.edge_row[c] && d->ph.edge[c] >= 0) {
    /* A tip on its wheel's sector edge: its load holds the wheel on the edge
     * (its region indicator at zero), its gap follows from its partner's
     * (docs/rollers.md, "The sector edge's sliding mode"). */
    nsedi_roller_region_row(m, c, d->cache.kin, &w->rows[nr]);
    const nsedi_row *r = &w->rows[nr];
    w->target[nr] = -(r->bias + 2 * eta * r->vel + xi * xi * r->pos);
  }
  w->row_contact[nr] = c;
  const double *anchor = d->ph.force_anchor + 3 * c;
  w->anchor[nr] = anchor[0];
  double mu = 0.0, s[2] = {0.0, 0.0};
  if (d->ph.mode[c] == NSED_MODE_STICK) {
    double gam_t = stick_gamma(d, c, gam);
    add_velocity_row(w, nr + 1, &g->row[1], gam_t, c, anchor[1]);
    add_velocity_row(w, nr + 2, &g->row[2], gam_t, c, anchor[2]);
    nr += 3;
  } else {
    mu = friction_of(m, d, c, s);
    nr += 1;
  }
  double tf = phase_torsion_factor(m, d, c);
  nsedi_row *col = &w->cols[n0];
  for (int k = 0; k < 6; k++) {
    col->ja[k] -= mu * (s[0] * g->row[1].ja[k] + s[1] * g->row[2].ja[k]) - tf * g->spin.ja[k];
    col->jb[k] -= mu * (s[0] * g->row[1].jb[k] + s[1] * g->row[2].jb[k]) - tf * g->spin.jb[k];
  }
  if (nsedi_exact_torsion(m, c) && d->ph.spin[c] == NSED_MODE_STICK)
    add_velocity_row(w, nr++, &g->spin, gam, c, d->ph.spin_anchor[c]);
  return nr;
}

int nsedi_forces_anchored(const nsed_model *m, const nsed_data *d) {
  for (int c = 0; c < m->ncontact; c++) {
    if (d->ph.mode[c] == NSED_MODE_OPEN || m->contact[c].def.law == NSED_CONTACT_COMPLIANT) continue;
    if (d->ph.mode[c] == NSED_MODE_SLIP && m->contact[c].def.mu > 0) return 0;
    if (phase_torsion_factor(m, d, c) != 0) return 0;
  }
  return 1;
}

/* Redundant sticks' friction shared by their normal loads (docs/engine.md,
 * "Redundant contacts"): the solution nearest the anchor scales each
 * stick's anchored friction with its current normal force (the anchor's
 * ratio of friction to normal force, rho = F_anchor / N_anchor, times N)
 * and weighs its tangential rows by N_ref / N in the distance, so that
 * the load the anchor does not carry goes to the sticks in proportion to
 * their normal forces and a stick whose normal force vanishes (a box's
 * trailing edge as it tips) carries friction that vanishes with it. The
 * normal forces are the first solve's (the one nearest the anchor); the
 * anchor at the event is a solution, where this changes nothing. */
static int share_by_load(const nsed_model *m, nsed_data *d, int nr) {
  nsedi_smooth_ws *w = &d->sw;
  double nref = 0;
  for (int i = 0; i < nr; i++) w->load_anchor[i] = w->anchor[i], w->weight[i] = 1.0;
  for (int i = m->nrow; i < nr; i++) nref = fmax(nref, fabs(w->lam[i]));
  int any = 0;
  for (int i = m->nrow; i < nr; i++) {
    int c = w->row_contact[i], stick = d->ph.mode[c] == NSED_MODE_STICK;
    if (stick && m->contact[c].def.mu > 0) {
      const double *fa = d->ph.force_anchor + 3 * c;
      double n = w->lam[i], floor = NSEDI_LOAD_SHARE_FLOOR * nref;
      /* the anchor's ratio where it carries a load beyond the solve's
       * round-off; below, its ratio is noise and none is kept */
      int loaded = fa[0] > NSEDI_FORCE_FLOOR * nref;
      for (int k = 1; k <= 2; k++) {
        w->load_anchor[i + k] = loaded ? fa[k] / fa[0] * fmax(n, 0.0) : 0.0;
        w->weight[i + k] = nref / fmax(n, floor);
      }
      any = 1;
    }
    if (stick) i += 2;
    if (nsedi_exact_torsion(m, c) && d->ph.spin[c] == NSED_MODE_STICK) i++;
  }
  if (!any || !(nref > 0)) return NSED_OK;
  /* The first answer already at the load shares (weighted distance within
   * NSEDI_LOAD_SHARE_KEEP of the largest normal force; weights >= 1): the
   * weighted solve could move no row by more than twice that, so it is
   * not run (a set resting still, its loads those of the anchor). */
  double dist2 = 0, keep = NSEDI_LOAD_SHARE_KEEP * nref;
  for (int i = 0; i < nr; i++) {
    double e = w->lam[i] - w->load_anchor[i];
    dist2 += w->weight[i] * e * e;
  }
  if (dist2 <= keep * keep) return NSED_OK;
  int deficient = 0;
  nsedi_dyn_ws_weights(w->ws, w->weight);
  int rc = nsedi_solve_constrained(m, w->ws, nr, w->rows, w->cols, w->target, d->cache.f,
                                   w->load_anchor, d->cache.du, w->lam, &deficient);
  nsedi_dyn_ws_weights(w->ws, NULL);
  return rc;
}

/* Is row i a closed contact's normal row (contact_rows puts it first)? */
static int normal_row(const nsed_model *m, const nsedi_smooth_ws *w, int i) {
  return i >= m->nrow && (i == m->nrow || w->row_contact[i - 1] != w->row_contact[i]);
}

/* The minimum-norm share of redundant contacts where some slip (docs/engine.md,
 * "Redundant contacts") is the one equally stiff contacts would take; where
 * it pulls on a contact, the contact carries nothing, as a spring that
 * cannot pull: the least-norm share with every normal force >= 0. The
 * contact whose force is most negative is unloaded (its row kept, its force
 * column weighted out of the least-squares solve: an infinite weight with
 * the anchor at zero) and the rest solved again, until none pulls. With one
 * free twist (a face's four corners) that is the least-norm share; with
 * more, a share without a pull, not always the least-norm one. Where
 * the other columns cannot hold the rows (the set must lose a contact: a
 * lift-off the event step decides), the minimum-norm share stays. The
 * shares before, cache.share_n, are the lift-off indicators: they cross
 * zero where the minimum-norm share does, as without this pass. */
static int unilateral_share(const nsed_model *m, nsed_data *d, int nr) {
  nsedi_smooth_ws *w = &d->sw;
  double scale = 0, low = 0;
  for (int i = m->nrow; i < nr; i++)
    if (normal_row(m, w, i)) {
      scale = fmax(scale, fabs(w->lam[i]));
      low = fmin(low, w->lam[i]);
    }
  if (!(low < -NSEDI_FORCE_FLOOR * scale)) return NSED_OK;
  for (int i = 0; i < nr; i++) {
    w->weight[i] = 1.0;
    w->load_anchor[i] = 0.0;
    if (normal_row(m, w, i)) d->cache.share_n[w->row_contact[i]] = w->lam[i];
  }
  int rc = NSED_OK;
  for (int round = 0; round < m->ncontact; round++) {
    int worst = -1;
    double most = -NSEDI_FORCE_FLOOR * scale;
    for (int i = m->nrow; i < nr; i++)
      if (normal_row(m, w, i) && isfinite(w->weight[i]) && w->lam[i] < most) most = w->lam[i], worst = i;
    if (worst < 0) break;
    w->weight[worst] = INFINITY;
    w->unloaded++;
    int deficient = 0;
    nsedi_dyn_ws_weights(w->ws, w->weight);
    rc = nsedi_solve_constrained(m, w->ws, nr, w->rows, w->cols, w->target, d->cache.f, w->load_anchor,
                                 d->cache.du, w->lam, &deficient);
    nsedi_dyn_ws_weights(w->ws, NULL);
    if (rc) break;
  }
  if (rc == NSED_OK) return NSED_OK;
  w->unloaded = 0;
  int deficient = 0;
  return nsedi_solve_constrained(m, w->ws, nr, w->rows, w->cols, w->target, d->cache.f, NULL, d->cache.du,
                                 w->lam, &deficient);
}

/* Contact forces from the multipliers of the solved rows (contact_rows'
 * order: normal, the tangential rows while sticking, the spin row while
 * the spin sticks). */
static void scatter_contact_forces(const nsed_model *m, nsed_data *d, int nr) {
  nsedi_smooth_ws *w = &d->sw;
  for (int i = 0; i < m->nrow && i < nr; i++) d->cache.lambda_j[i] = w->lam[i];
  for (int i = m->nrow; i < nr; i++) {
    int c = w->row_contact[i];
    double *l = d->cache.lambda_c + 3 * c;
    double ln = w->lam[i];
    l[0] = ln;
    if (!w->unloaded) d->cache.share_n[c] = ln;
    if (d->ph.mode[c] == NSED_MODE_STICK) {
      l[1] = w->lam[i + 1];
      l[2] = w->lam[i + 2];
      i += 2;
    } else {
      double s[2], mu = friction_of(m, d, c, s);
      l[1] = -mu * ln * s[0];
      l[2] = -mu * ln * s[1];
    }
    if (nsedi_exact_torsion(m, c) && d->ph.spin[c] == NSED_MODE_STICK)
      d->cache.tau[c] = w->lam[++i];
    else
      d->cache.tau[c] = ln * phase_torsion_factor(m, d, c);
  }
}

/* The powers of the contact forces (on the bodies' absolute velocities: a
 * moving floor feeds power) and of the joint forces. */
static void powers(const nsed_model *m, const nsed_data *d, const double *x, int nr, double *pc,
                   double *pj) {
  *pc = *pj = 0;
  for (int c = 0; c < m->ncontact; c++) {
    if (d->ph.mode[c] == NSED_MODE_OPEN && m->contact[c].def.law != NSED_CONTACT_COMPLIANT) continue;
    const nsedi_contact_geom *gc = &d->cache.geom[c];
    const double *dirs[3] = {gc->n, gc->t1, gc->t2};
    for (int k = 0; k < 3; k++)
      *pc += d->cache.lambda_c[3 * c + k] * (gc->row[k].vel + nsedi_v3_dot(dirs[k], gc->surface_v));
    /* The torsional moment on the body's own spin (a turning floor's added back). */
    const nsedi_contact *C = &m->contact[c];
    int on_floor = C->other == NSEDI_GROUND && C->plane < 0;
    double spin_abs = gc->spin.vel + (on_floor ? m->opt.floor_spin : 0.0);
    *pc += d->cache.tau[c] * spin_abs;
  }
  for (int i = 0; i < m->nrow && i < nr; i++) {
    const nsedi_row *r = &d->sw.rows[i];
    /* Joint rows: an attached rotor carries none (attached_model.c). */
    double ju = 0;
    for (int k = 0; k < 6; k++) {
      if (r->a >= 0) ju += r->ja[k] * x[m->body[r->a].xbody + 7 + k];
      if (r->b >= 0) ju += r->jb[k] * x[m->body[r->b].xbody + 7 + k];
    }
    *pj += d->sw.lam[i] * ju;
  }
}

static int check_state(const nsed_model *m, double t, const double *x, nsed_error *err) {
  for (int i = 0; i < m->nstate; i++)
    if (!isfinite(x[i]))
      return i < m->nbstate ? nsed_error_set(err, NSED_ERR_NONFINITE,
                                             "non-finite state at t = %.17g: body '%s', state "
                                             "component %d",
                                             t, m->body[nsedi_state_body(m, i)].def.name, i % 13)
                            : nsed_error_set(err, NSED_ERR_NONFINITE,
                                             "non-finite extra state %d (contact tracking, a "
                                             "joint drive's angle, a rotor's turn or an attached "
                                             "rotor's rate) at t = %.17g",
                                             i - m->nbstate, t);
  return NSED_OK;
}

/* xdot from the accelerations, tracking rates and powers. */
static int state_derivative(const nsed_model *m, nsed_data *d, double t, const double *x, int nr,
                            double *xdot, nsed_error *err) {
  for (int b = 0; b < m->nbody; b++) {
    const nsedi_body *bb = &m->body[b];
    if (bb->parent >= 0) {
      /* Its turn relative to its frame, which turns at wv; its rate. */
      const nsedi_kin *k = &d->cache.kin[b];
      xdot[bb->xspin] = k->wb[bb->rotor_axis] - k->wv[bb->rotor_axis];
      xdot[bb->xrate] = d->cache.du[6 * b + 3 + bb->rotor_axis];
      continue;
    }
    const double *s = x + bb->xbody;
    double *sd = xdot + bb->xbody;
    nsedi_v3_copy(sd, s + 7);
    /* The state's frame turns at wv: a rotor's spin about its axis goes to
     * its own angle instead (kinematics.h). */
    nsedi_quat_deriv(sd + 3, s + 3, d->cache.kin[b].wv);
    int a = m->body[b].rotor_axis;
    if (a >= 0) xdot[m->body[b].xspin] = s[10 + a];
    for (int k = 0; k < 3; k++) {
      sd[7 + k] = d->cache.du[6 * b + k];
      sd[10 + k] = d->cache.du[6 * b + 3 + k];
    }
  }
  for (int c = 0; c < m->ncontact; c++) {
    int xt = m->contact[c].xtrack;
    if (xt < 0) continue;
    for (int k = 0; k < m->contact[c].ntrack; k++) xdot[xt + k] = d->cache.geom[c].track_rate[k];
  }
  for (int j = 0; j < m->njoint; j++) {
    if (m->joint[j].xangle < 0) continue;
    double q;
    nsedi_joint_angle(m, j, d->cache.kin, x, &q, &xdot[m->joint[j].xangle]);
  }
  double pc, pj;
  powers(m, d, x, nr, &pc, &pj);
  xdot[m->nstate] = nsedi_external_power(m, d->cache.kin, x, t);
  xdot[m->nstate + 1] = pc;
  xdot[m->nstate + 2] = pj;
  for (int i = 0; i < m->nbstate; i++)
    if (!isfinite(xdot[i]))
      return nsed_error_set(err, NSED_ERR_NONFINITE,
                            "non-finite acceleration at t = %.17g: body '%s', component %d "
                            "(a force law returned NaN or Inf?)",
                            t, m->body[nsedi_state_body(m, i)].def.name, i % 13);
  for (int b = 0; b < m->nbody; b++)
    if (m->body[b].parent >= 0 && !isfinite(xdot[m->body[b].xrate]))
      return nsed_error_set(err, NSED_ERR_NONFINITE,
                            "non-finite acceleration at t = %.17g: body '%s' (attached), its rate "
                            "(a force law returned NaN or Inf?)",
                            t, m->body[b].def.name);
  static const char *const work_names[NSEDI_NWORK] = {"external loads", "contact forces",
                                                      "joint forces"};
  for (int k = 0; k < NSEDI_NWORK; k++)
    if (!isfinite(xdot[m->nstate + k]))
      return nsed_error_set(err, NSED_ERR_NONFINITE,
                            "non-finite power of the %s at t = %.17g (a force law out of range?)",
                            work_names[k], t);
  return NSED_OK;
}

/* Whether the right-hand side itself reads contact c's geometry: a closed
 * contact's rows and forces, a compliant law's force, a tracked point's
 * rates. An open contact's is read by the indicators and the event step,
 * which evaluate it (nsedi_eval, nsedi_eval_complete). */
static int rhs_reads_geometry(const nsed_model *m, const nsed_data *d, int c) {
  return d->ph.mode[c] != NSED_MODE_OPEN || m->contact[c].def.law == NSED_CONTACT_COMPLIANT ||
         m->contact[c].xtrack >= 0;
}

static int contact_geometry(const nsed_model *m, nsed_data *d, const double *x, int c) {
  nsedi_cache *ca = &d->cache;
  int grc = nsedi_contact_eval(m, c, ca->kin, nsedi_live_track(m, d, x, c),
                               nsedi_contact_side(m, d, c), &ca->geom[c]);
  ca->geom_ok[c] = grc == NSED_OK;
  return grc;
}

/* An open contact with a plane whose body's shape lies wholly above it,
 * by more than NSEDI_OPEN_BOUND_MARGIN contact tolerances: what its
 * indicators and the law monitor ask of it at a step's end is a gap above
 * its closing level, and the distance of its centre from the plane less
 * its shape's bound radius is a lower bound of that gap. So it gets that
 * bound (geom.gap_bound) instead of its closest point and rows, which
 * nobody reads before the next full evaluation (an event's, a sample's).
 * Its closing level is at or below zero (event_anchor.c), except while it
 * is watched for clearing a lift-off margin, which needs the gap itself.
 * docs/engine.md, "Open contacts far from their plane". */
static int bounded_above_plane(const nsed_model *m, nsed_data *d, int c) {
  const nsedi_contact *C = &m->contact[c];
  double radius = m->body[C->body].bound_radius;
  if (C->other != NSEDI_GROUND || d->ph.clearing[c] || !isfinite(radius)) return 0;
  nsedi_plane pl;
  nsedi_contact_plane(m, c, &pl);
  double rel[3];
  nsedi_v3_sub(rel, d->cache.kin[C->body].r, pl.point);
  double lower = nsedi_v3_dot(pl.normal, rel) - radius;
  if (!(lower > NSEDI_OPEN_BOUND_MARGIN * m->opt.contact_tol)) return 0;
  nsedi_contact_geom *g = &d->cache.geom[c];
  memset(g, 0, sizeof *g);
  g->gap = lower;
  g->region = 1.0;
  g->gap_bound = 1;
  d->cache.geom_ok[c] = 1;
  return 1;
}

void nsedi_eval_complete(const nsed_model *m, nsed_data *d, const double *x) {
  if (!d->cache.geom_partial) return;
  for (int c = 0; c < m->ncontact; c++)
    if (!rhs_reads_geometry(m, d, c) && !bounded_above_plane(m, d, c))
      (void)contact_geometry(m, d, x, c);
  d->cache.geom_partial = 0;
}

static int eval_at(const nsed_model *m, nsed_data *d, double t, const double *x, double *xdot,
                   int all_contacts, nsed_error *err) {
  nsedi_cache *ca = &d->cache;
  ca->key_valid = 0;
  ca->geom_partial = 0;
  int rc = check_state(m, t, x, err);
  if (rc) return rc;
  nsedi_kin_eval(m, x, ca->kin);
  nsedi_applied_forces(m, ca->kin, x, t, ca->f);
  int nr = joint_rows(m, d, t);
  for (int c = 0; c < m->ncontact; c++) {
    nsedi_contact_geom *g = &ca->geom[c];
    ca->lambda_c[3 * c] = ca->lambda_c[3 * c + 1] = ca->lambda_c[3 * c + 2] = 0;
    ca->tau[c] = 0;
    ca->share_n[c] = 0;
    if (!all_contacts && !rhs_reads_geometry(m, d, c)) {
      ca->geom_partial = 1;
      continue;
    }
    int grc = contact_geometry(m, d, x, c);
    if (m->contact[c].def.law == NSED_CONTACT_COMPLIANT) {
      if (grc == NSED_OK) compliant_force(m, d, c);
      continue;
    }
    if (d->ph.mode[c] == NSED_MODE_OPEN) continue;
    if (grc) {
      d->failure_contact = c;
      d->rhs_past_event = g->past_event;
      return nsed_error_set(err, NSED_ERR_EVENT,
                            "t = %.17g: contact '%s' has a degenerate geometry: %s", t,
                            m->contact[c].def.name, nsedi_pair_degenerate(m->contact[c].pair));
    }
    nr = contact_rows(m, d, c, nr);
  }
  int deficient = 0, anchored = nsedi_forces_anchored(m, d);
  d->sw.unloaded = 0;
  d->sw.nr = nr;
  rc = nsedi_solve_constrained(m, d->sw.ws, nr, d->sw.rows, d->sw.cols, d->sw.target, ca->f,
                               anchored ? d->sw.anchor : NULL, ca->du, d->sw.lam, &deficient);
  if (rc == NSED_OK && deficient && anchored && d->ph.load_shares) rc = share_by_load(m, d, nr);
  if (rc == NSED_OK && deficient && !anchored) rc = unilateral_share(m, d, nr);
  d->sw.deficient = deficient;
  if (rc)
    return nsed_error_set(err, rc,
                          "t = %.17g: the constrained equations of motion are inconsistent "
                          "(%d rows; redundant constraints that contradict each other?)",
                          t, nr);
  scatter_contact_forces(m, d, nr);
  return xdot ? state_derivative(m, d, t, x, nr, xdot, err) : NSED_OK;
}

int nsedi_eval(const nsed_model *m, nsed_data *d, double t, const double *x, double *xdot,
               nsed_error *err) {
  return eval_at(m, d, t, x, xdot, 1, err);
}

int nsedi_eval_rhs(const nsed_model *m, nsed_data *d, double t, const double *x, double *xdot,
                   nsed_error *err) {
  return eval_at(m, d, t, x, xdot, 0, err);
}

double nsedi_row_accel(const nsedi_row *r, const double *du) {
  double s = r->bias;
  for (int q = 0; q < 6; q++) {
    if (r->a >= 0) s += r->ja[q] * du[6 * r->a + q];
    if (r->b >= 0) s += r->jb[q] * du[6 * r->b + q];
  }
  return s;
}
