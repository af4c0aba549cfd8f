/* The smooth phase: for the current modes, the equations of motion with the
 * bilateral rows and the closed contacts' rows held at acceleration level
 * (Baumgarte-stabilised), and the indicator functions whose sign change ends
 * the phase (DESIGN.md §6). */
#include <math.h>
#include <string.h>

#include "forces.h"
#include "math3.h"
#include "sim_impl.h"

int nsedi_nroot(const nsed_model *m) { return NSEDI_ROOTS_PER_CONTACT * m->ncontact + 1; }

/* Unit slip direction (t1, t2) from the tangential velocity, or the
 * phase's reference direction while the slip speed is still ~0 (onset). */
static void slip_direction(const nsed_model *m, const nsed_data *d, int c, double s[2]) {
  const nsedi_contact_geom *g = &d->geom[c];
  double v1 = g->row[1].vel, v2 = g->row[2].vel, sp = hypot(v1, v2);
  if (sp > 1e-3 * m->opt.slip_tol) {
    s[0] = v1 / sp;
    s[1] = v2 / sp;
  } else {
    s[0] = d->slip_dir0[2 * c];
    s[1] = d->slip_dir0[2 * c + 1];
  }
}

/* Friction of a slipping contact: its unit direction s (t1, t2) and the
 * coefficient: mu for exact Coulomb, mu min(1, |v|/delta) along v for the
 * regularised law (zero at rest). */
static double friction_of(const nsed_model *m, const nsed_data *d, int c, double s[2]) {
  const nsed_contact_def *cd = &m->contact[c].def;
  if (d->onset_lock[c]) {
    s[0] = d->slip_dir0[2 * c];
    s[1] = d->slip_dir0[2 * c + 1];
    return d->lock_mu[c];
  }
  if (cd->law == NSED_CONTACT_COULOMB) {
    slip_direction(m, d, c, s);
    return cd->mu;
  }
  const nsedi_contact_geom *g = &d->geom[c];
  double v1 = g->row[1].vel, v2 = g->row[2].vel, sp = hypot(v1, v2);
  s[0] = sp > 0 ? v1 / sp : 1.0;
  s[1] = sp > 0 ? v2 / sp : 0.0;
  return cd->mu * fmin(1.0, sp / cd->delta);
}

/* Seed 004's compliant contact: a spring-damper normal force while the
 * surfaces overlap and regularised friction, applied as forces through the
 * contact's rows (no constraint, no event). */
static void compliant_force(const nsed_model *m, nsed_data *d, int c) {
  const nsed_contact_def *cd = &m->contact[c].def;
  const nsedi_contact_geom *g = &d->geom[c];
  double *l = d->lambda_c + 3 * c;
  l[0] = l[1] = l[2] = 0;
  if (g->gap >= 0) return;
  double fn = fmax(0.0, -cd->stiffness * g->gap - cd->damping * g->row[0].vel);
  double v1 = g->row[1].vel, v2 = g->row[2].vel, sp = hypot(v1, v2);
  double k = sp > 0 ? cd->mu * fn * fmin(1.0, sp / cd->delta) / sp : 0.0;
  l[0] = fn;
  l[1] = -k * v1;
  l[2] = -k * v2;
  for (int r = 0; r < 3; r++) {
    const nsedi_row *row = &g->row[r];
    for (int q = 0; q < 6; q++) {
      if (row->a >= 0) d->f[6 * row->a + q] += l[r] * row->ja[q];
      if (row->b >= 0) d->f[6 * row->b + q] += l[r] * row->jb[q];
    }
  }
}

int nsedi_eval(const nsed_model *m, nsed_data *d, double t, const double *x, double *xdot,
               nsed_error *err) {
  const nsed_options *o = &m->opt;
  double eta = o->baumgarte_eta, xi = o->baumgarte_xi, gam = o->baumgarte_gamma;
  for (int i = 0; i < m->nstate; i++)
    if (!isfinite(x[i]))
      return i < m->nbstate ? nsed_error_set(err, NSED_ERR_NONFINITE,
                                             "non-finite state at t = %.17g: body '%s', state "
                                             "component %d",
                                             t, m->body[i / 13].def.name, i % 13)
                            : nsed_error_set(err, NSED_ERR_NONFINITE,
                                             "non-finite contact tracking state at t = %.17g", t);
  nsedi_kin_eval(m, x, d->kin);
  nsedi_applied_forces(m, d->kin, t, d->f);
  int nr = 0;
  for (int j = 0; j < m->njoint; j++) {
    int n = nsedi_joint_rows(m, j, d->kin, t, d->rows + nr);
    for (int k = 0; k < n; k++, nr++) {
      nsedi_row *r = &d->rows[nr];
      d->cols[nr] = *r;
      d->target[nr] = -(r->bias + 2 * eta * r->vel + xi * xi * r->pos);
      d->row_contact[nr] = -1;
    }
  }
  for (int c = 0; c < m->ncontact; c++) {
    nsedi_contact_geom *g = &d->geom[c];
    int rc = nsedi_contact_eval(m, c, d->kin, nsedi_live_track(m, d, x, c), g);
    d->geom_ok[c] = rc == NSED_OK;
    d->lambda_c[3 * c] = d->lambda_c[3 * c + 1] = d->lambda_c[3 * c + 2] = 0;
    if (m->contact[c].def.law == NSED_CONTACT_COMPLIANT) {
      if (rc == NSED_OK) compliant_force(m, d, c);
      continue;
    }
    if (d->mode[c] == NSED_MODE_OPEN) continue;
    if (rc)
      return nsed_error_set(err, NSED_ERR_EVENT,
                            "t = %.17g: contact '%s' has a degenerate geometry (a disk lying flat "
                            "or coincident sphere centres)",
                            t, m->contact[c].def.name);
    nsedi_row *rn = &d->rows[nr];
    *rn = g->row[0];
    d->cols[nr] = *rn;
    d->target[nr] = -(rn->bias + 2 * eta * rn->vel + xi * xi * g->gap);
    d->row_contact[nr] = c;
    if (d->mode[c] == NSED_MODE_SLIP) {
      /* Kinetic friction -mu*lambda_n*s rides on the normal column. */
      double s[2], mu = friction_of(m, d, c, s);
      nsedi_row *col = &d->cols[nr];
      for (int k = 0; k < 6; k++) {
        col->ja[k] -= mu * (s[0] * g->row[1].ja[k] + s[1] * g->row[2].ja[k]);
        col->jb[k] -= mu * (s[0] * g->row[1].jb[k] + s[1] * g->row[2].jb[k]);
      }
      nr++;
    } else {
      nr++;
      for (int k = 1; k <= 2; k++, nr++) {
        d->rows[nr] = g->row[k];
        d->cols[nr] = g->row[k];
        d->target[nr] = -(g->row[k].bias + gam * g->row[k].vel);
        d->row_contact[nr] = c;
      }
    }
  }
  int deficient = 0;
  int rc = nsedi_solve_constrained(m, d->ws, nr, d->rows, d->cols, d->target, d->f, d->du, d->lam,
                                   &deficient);
  if (rc)
    return nsed_error_set(err, rc,
                          "t = %.17g: the constrained equations of motion are inconsistent "
                          "(%d rows; redundant constraints that contradict each other?)",
                          t, nr);
  /* Scatter multipliers. */
  for (int i = 0; i < m->nrow && i < nr; i++) d->lambda_j[i] = d->lam[i];
  for (int i = m->nrow; i < nr; i++) {
    int c = d->row_contact[i];
    if (d->mode[c] == NSED_MODE_SLIP) {
      double s[2], mu = friction_of(m, d, c, s), ln = d->lam[i];
      d->lambda_c[3 * c] = ln;
      d->lambda_c[3 * c + 1] = -mu * ln * s[0];
      d->lambda_c[3 * c + 2] = -mu * ln * s[1];
    } else {
      d->lambda_c[3 * c] = d->lam[i];
      d->lambda_c[3 * c + 1] = d->lam[i + 1];
      d->lambda_c[3 * c + 2] = d->lam[i + 2];
      i += 2;
    }
  }
  if (xdot) {
    for (int b = 0; b < m->nbody; b++) {
      const double *s = x + 13 * b;
      double *sd = xdot + 13 * b;
      nsedi_v3_copy(sd, s + 7);
      nsedi_quat_deriv(sd + 3, s + 3, s + 10);
      for (int k = 0; k < 3; k++) {
        sd[7 + k] = d->du[6 * b + k];
        sd[10 + k] = d->du[6 * b + 3 + k];
      }
    }
    /* Powers: contact forces on the relative velocities, joint forces on
     * their rows' velocities (u from the state), external loads. */
    double pc = 0, pj = 0;
    for (int c = 0; c < m->ncontact; c++) {
      if (d->mode[c] == NSED_MODE_OPEN && m->contact[c].def.law != NSED_CONTACT_COMPLIANT) continue;
      /* On the body's absolute velocity: a moving floor (belt) feeds power. */
      const nsedi_contact_geom *gc = &d->geom[c];
      const double *dirs[3] = {gc->n, gc->t1, gc->t2};
      int floor = m->contact[c].other == NSEDI_GROUND;
      for (int k = 0; k < 3; k++)
        pc += d->lambda_c[3 * c + k] *
              (gc->row[k].vel + (floor ? nsedi_v3_dot(dirs[k], m->opt.floor_velocity) : 0.0));
    }
    for (int i = 0; i < m->nrow && i < nr; i++) {
      const nsedi_row *r = &d->rows[i];
      double ju = 0;
      for (int k = 0; k < 6; k++) {
        if (r->a >= 0) ju += r->ja[k] * x[13 * r->a + 7 + k];
        if (r->b >= 0) ju += r->jb[k] * x[13 * r->b + 7 + k];
      }
      pj += d->lam[i] * ju;
    }
    for (int c = 0; c < m->ncontact; c++) {
      int xt = m->contact[c].xtrack;
      if (xt < 0) continue;
      xdot[xt] = d->geom[c].track_rate[0];
      xdot[xt + 1] = d->geom[c].track_rate[1];
    }
    xdot[m->nstate] = nsedi_external_power(m, d->kin, t);
    xdot[m->nstate + 1] = pc;
    xdot[m->nstate + 2] = pj;
    for (int i = 0; i < m->nbstate; i++)
      if (!isfinite(xdot[i]))
        return nsed_error_set(err, NSED_ERR_NONFINITE,
                              "non-finite acceleration at t = %.17g: body '%s', component %d "
                              "(a force law returned NaN or Inf?)",
                              t, m->body[i / 13].def.name, i % 13);
    static const char *const work_names[NSEDI_NWORK] = {"external loads", "contact forces",
                                                        "joint forces"};
    for (int k = 0; k < NSEDI_NWORK; k++)
      if (!isfinite(xdot[m->nstate + k]))
        return nsed_error_set(err, NSED_ERR_NONFINITE,
                              "non-finite power of the %s at t = %.17g (a force law out of "
                              "range?)",
                              work_names[k], t);
  }
  return NSED_OK;
}

double nsedi_row_accel(const nsedi_row *r, const double *du) {
  double s = r->bias;
  for (int q = 0; q < 6; q++) {
    if (r->a >= 0) s += r->ja[q] * du[6 * r->a + q];
    if (r->b >= 0) s += r->jb[q] * du[6 * r->b + q];
  }
  return s;
}

double nsedi_friction_margin(const nsed_options *o, double mu0, double ln, double l1, double l2) {
  if (o->friction.model == NSED_FRICTION_EXACT_CONE) return mu0 * ln - hypot(l1, l2);
  int m = o->friction.sides;
  /* Face form: faces at th_j = 2 pi j/m, circumscribed. Vertex form:
   * vertices at th_j (inscribed), so faces at th_j + pi/m with distance
   * mu0 cos(pi/m). */
  double off = 0, scale = 1;
  if (o->friction.model == NSED_FRICTION_POLYGON_VERTEX) {
    off = M_PI / m;
    scale = cos(M_PI / m);
  }
  double worst = INFINITY;
  for (int j = 0; j < m; j++) {
    double th = 2 * M_PI * j / m + off;
    double s = scale * mu0 * ln - (cos(th) * l1 + sin(th) * l2);
    if (s < worst) worst = s;
  }
  return worst;
}

/* Next breakpoint of any piecewise law after t (INFINITY if none). */
static double next_breakpoint(const nsed_model *m, double t) {
  double best = INFINITY;
  const nsed_law *laws[2];
  for (int i = 0; i < m->nforce + m->njoint; i++) {
    int n = 0;
    if (i < m->nforce) {
      laws[n++] = &m->force[i].def.magnitude;
    } else {
      const nsed_joint_def *jd = &m->joint[i - m->nforce].def;
      if (jd->has_torque) laws[n++] = &jd->torque;
      if (jd->type == NSED_JOINT_SERVO) laws[n++] = &jd->servo_angle;
    }
    for (int k = 0; k < n; k++) {
      if (laws[k]->type != NSED_LAW_PIECEWISE) continue;
      for (int p = 0; p < laws[k]->npoints; p++)
        if (laws[k]->times[p] > t && laws[k]->times[p] < best) best = laws[k]->times[p];
    }
  }
  return best;
}

int nsedi_indicators(const nsed_model *m, nsed_data *d, double t, const double *x, double *g) {
  nsed_error err;
  int rc = nsedi_eval(m, d, t, x, NULL, &err);
  if (rc) {
    d->rhs_err = err;
    return rc;
  }
  const nsed_options *o = &m->opt;
  for (int c = 0; c < m->ncontact; c++) {
    double *gc = g + NSEDI_ROOTS_PER_CONTACT * c;
    const nsedi_contact_geom *geo = &d->geom[c];
    const double *l = d->lambda_c + 3 * c;
    gc[0] = gc[1] = gc[2] = 1.0;
    /* A closed contact whose point moves onto another smooth piece of the
     * surface (a roller's body onto its tip) changes its acceleration
     * terms: an event. The region's sign at the phase start orients it. */
    gc[3] = d->mode[c] != NSED_MODE_OPEN && d->region_sign[c] != 0 ? d->region_sign[c] * geo->region : 1.0;
    if (m->contact[c].def.law == NSED_CONTACT_COMPLIANT) continue; /* a force law: no events */
    switch (d->mode[c]) {
      case NSED_MODE_OPEN:
        /* Degenerate geometry still has a gap (a flat disk's rim height). */
        gc[0] = geo->gap - d->open_offset[c];
        break;
      case NSED_MODE_STICK:
        gc[0] = l[0];
        gc[1] = nsedi_friction_margin(o, m->contact[c].def.mu0, l[0], l[1], l[2]);
        break;
      case NSED_MODE_SLIP:
        gc[0] = l[0];
        if (m->contact[c].def.law == NSED_CONTACT_REGULARIZED) break; /* never sticks */
        /* |v_t| does not change sign; its projection on the phase's initial
         * slip direction does, at the instant the slip stops (1D) or turns
         * by 90 degrees (2D, then the event re-anchors the direction). */
        {
          /* |v_t| does not change sign when a slip stops; its projection on
           * the phase's initial direction s0 does (exactly, for a slip that
           * keeps its direction), or crosses zero when the slip turns by 90
           * degrees (the event then re-anchors s0). A 2D slip can also stop
           * while turning, approaching zero along another direction without
           * the projection changing sign, and the integrator would stall at
           * the discontinuity: the third indicator fires there, at
           * |v_t| = 2 eps (1 - cos(turn)) + 1e-3 slip_tol, eps =
           * slip_stop_speed: for a slip that keeps its direction that is
           * 1e-12 m/s (by default) before the exact stop, which the
           * projection then locates. */
          double proj = geo->row[1].vel * d->slip_dir0[2 * c] + geo->row[2].vel * d->slip_dir0[2 * c + 1];
          double sp = hypot(geo->row[1].vel, geo->row[2].vel);
          gc[1] = proj;
          gc[2] = sp > 0 ? sp - 2 * o->slip_stop_speed * (1 - proj / sp) - 1e-3 * o->slip_tol
                         : 0.0;
          /* An onset on the event problem's force (onset.c) is released to
           * kinetic friction along v once its speed reaches slip_stop_speed. */
          if (d->onset_lock[c]) gc[2] = o->slip_stop_speed - sp;
        }
        break;
    }
  }
  double bp = d->t_next_breakpoint;
  g[NSEDI_ROOTS_PER_CONTACT * m->ncontact] = isfinite(bp) ? bp - t : 1.0;
  return NSED_OK;
}

double nsedi_next_breakpoint(const nsed_model *m, double t) { return next_breakpoint(m, t); }
