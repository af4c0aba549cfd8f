/* The indicator functions whose sign change ends a smooth phase (DESIGN.md
 * §6; docs/engine.md, "Indicators"). Every indicator is positive while its
 * mode holds and is detected only when decreasing through zero. */
#include <math.h>
#include <string.h>

#include "sim_impl.h"
#include "tolerances.h"

int nsedi_nroot(const nsed_model *m) {
  return NSEDI_ROOTS_PER_CONTACT * m->ncontact + 1 + 2 * m->nkink;
}

/* sum_k |J_k u_k| of a row at the cached velocities (plus the known term,
 * a moving floor's): the magnitudes its velocity is made of. */
static double row_magnitude(const nsedi_row *r, const nsedi_kin *kin) {
  double sum = 0, ju = 0;
  for (int side = 0; side < 2; side++) {
    int b = side ? r->b : r->a;
    if (b < 0) continue;
    const double *J = side ? r->jb : r->ja;
    for (int k = 0; k < 3; k++) {
      double tv = J[k] * kin[b].v[k], tw = J[3 + k] * kin[b].wb[k];
      sum += fabs(tv) + fabs(tw);
      ju += tv + tw;
    }
  }
  return sum + fabs(r->vel - ju);
}

/* A relative velocity's noise from the magnitudes it is made of. */
static double noise_of(const nsed_model *m, double mag) {
  return fmax(m->opt.rtol, NSEDI_VELOCITY_ROUNDOFF) * mag + m->opt.atol;
}

double nsedi_spin_noise(const nsed_model *m, const nsed_data *d, int c) {
  return noise_of(m, row_magnitude(&d->cache.geom[c].spin, d->cache.kin));
}

double nsedi_slip_noise(const nsed_model *m, const nsed_data *d, int c) {
  const nsedi_contact_geom *g = &d->cache.geom[c];
  return noise_of(m, fmax(row_magnitude(&g->row[1], d->cache.kin), row_magnitude(&g->row[2], d->cache.kin)));
}

double nsedi_normal_noise(const nsed_model *m, const nsed_data *d, int c) {
  return noise_of(m, row_magnitude(&d->cache.geom[c].row[0], d->cache.kin));
}

int nsedi_separating(const nsed_model *m, const nsed_data *d, int c) {
  double vn = d->cache.geom[c].row[0].vel;
  if (d->ev.prev_mode[c] != NSED_MODE_OPEN && !d->ev.impact) return 0;
  return vn > m->opt.slip_tol && vn > nsedi_normal_noise(m, d, c);
}

/* slip_stop_speed raised to NSEDI_SLOW_NOISE times a slip noise. */
static double slow_speed_of(const nsed_model *m, double noise) {
  return fmax(m->opt.slip_stop_speed, NSEDI_SLOW_NOISE * noise);
}

double nsedi_slow_speed(const nsed_model *m, const nsed_data *d, int c) {
  return slow_speed_of(m, nsedi_slip_noise(m, d, c));
}

double nsedi_line_root(const nsed_model *m, const nsed_data *d, int c, int slow, const double s[2]) {
  const nsedi_contact_geom *geo = &d->cache.geom[c];
  double v1 = geo->row[1].vel, v2 = geo->row[2].vel, sp = hypot(v1, v2);
  double noise = nsedi_slip_noise(m, d, c), stop = slow_speed_of(m, noise);
  /* Slow: until it speeds up past slip_stop_speed. Fast: while its
   * velocity stays within NSEDI_SLIP_LINE_TOL rad of s (beyond the noise
   * of the velocity across s) and above half slip_stop_speed (the band
   * keeps a regime's root away from zero at its start). */
  if (slow) return stop - sp;
  double across = fabs(v2 * s[0] - v1 * s[1]) - noise;
  return fmin(NSEDI_SLIP_LINE_TOL * sp - across, sp - NSEDI_SLOW_ENTRY * stop);
}

/* A free slip's sector indicator in the vertex form (law_kinks.c): its
 * force's direction f = -v_t inside the sector the phase started in, or
 * past its vertices by no more than the velocity's noise (a crossing
 * within it is not located: the direction is not known that well, and a
 * slip whose direction rests on a vertex would cross it at every restart);
 * 1 where it has none. */
static double sector_root(const nsed_model *m, const nsed_data *d, int c) {
  int k = d->ph.sector[c];
  if (k < 0) return 1.0;
  const nsedi_contact_geom *g = &d->cache.geom[c];
  return nsedi_sector_margin(m->opt.friction.sides, k, -g->row[1].vel, -g->row[2].vel) +
         nsedi_slip_noise(m, d, c);
}

double nsedi_law_kink(const nsed_model *m, const nsed_data *d, int c, int slot, double *rate) {
  const nsed_contact_def *cd = &m->contact[c].def;
  if (cd->law != NSED_CONTACT_COMPLIANT || !d->cache.geom_ok[c]) return NAN;
  const nsedi_contact_geom *g = &d->cache.geom[c];
  double v = NAN, r = 0;
  if (slot == NSEDI_ROOT_CONTACT) {
    v = g->gap, r = g->row[0].vel;
  } else if (slot == NSEDI_ROOT_LINE) {
    v = -cd->stiffness * g->gap - cd->damping * g->row[0].vel;
    r = -cd->stiffness * g->row[0].vel - cd->damping * nsedi_row_accel(&g->row[0], d->cache.du);
  }
  if (rate) *rate = r;
  return v;
}

/* The compliant law's kinks (law_kinks.c): the side the phase started on
 * times the kink function, where the slot has one. */
static void kink_root(const nsed_model *m, const nsed_data *d, int c, int slot, double *g) {
  double side = d->ph.kink_side[3 * c + slot], v = side != 0 ? nsedi_law_kink(m, d, c, slot, NULL) : NAN;
  if (!isnan(v)) g[slot] = side * v;
}

/* A closed contact's region indicator, oriented by its side. One that
 * started below zero and rising (event_anchor.c, mark_region_rising) is
 * max(r, T dr/dt): positive while it rises and wherever it is above zero,
 * it falls through zero where r does once above zero (its exit), and where
 * dr/dt does while r is below zero (the turn reversing short of the
 * sector). Which term reaches zero tells the two apart at the event
 * (nsedi_region_turned_back); T = 1 time unit weighs them, and matters only
 * where r and dr/dt are both within round-off of zero together. */
static double region_indicator(const nsed_data *d, int c, const nsedi_contact_geom *geo) {
  double sg = d->ph.region_sign[c], r = sg * geo->region;
  return d->ph.region_rising[c] ? fmax(r, NSEDI_REGION_TURN_TIME * sg * geo->region_rate) : r;
}

int nsedi_region_turned_back(const nsed_data *d, int c) {
  const nsedi_contact_geom *geo = &d->cache.geom[c];
  double sg = d->ph.region_sign[c], r = sg * geo->region;
  return d->ph.region_rising[c] && r < 0 && NSEDI_REGION_TURN_TIME * sg * geo->region_rate > r;
}

void nsedi_contact_indicators(const nsed_model *m, const nsed_data *d, int c,
                              double g[NSEDI_ROOTS_PER_CONTACT]) {
  const nsed_options *o = &m->opt;
  const nsedi_contact_geom *geo = &d->cache.geom[c];
  const double *l = d->cache.lambda_c + 3 * c;
  const nsed_contact_def *cd = &m->contact[c].def;
  g[0] = g[1] = g[2] = g[NSEDI_ROOT_MINIMUM] = g[NSEDI_ROOT_SPIN] = 1.0;
  /* A closed contact whose point moves onto another smooth piece of the
   * surface (a roller's body onto its tip) changes its acceleration terms:
   * an event. Its side at the phase start orients it (region_sign; a
   * roller's is the side it is evaluated on, which within the boundary's
   * band need not be the region's sign, and on which it stays up to this
   * root: docs/rollers.md, "Sides are fixed within a phase"). */
  g[NSEDI_ROOT_REGION] = d->ph.mode[c] != NSED_MODE_OPEN && d->ph.region_sign[c] != 0 && d->ph.edge[c] < 0
                             ? region_indicator(d, c, geo)
                             : 1.0; /* a tip on its sector edge is held there */
  if (cd->law == NSED_CONTACT_COMPLIANT) { /* a force law: no events, only its kinks */
    for (int k = NSEDI_ROOT_CONTACT; k <= NSEDI_ROOT_LINE; k++) kink_root(m, d, c, k, g);
    return;
  }
  /* Exact torsion: a sticking spin until its moment reaches torsion
   * lambda_n; a turning one until its spin velocity reaches zero. */
  if (d->ph.spin[c] == NSED_MODE_STICK)
    g[NSEDI_ROOT_SPIN] = cd->torsion * l[0] - fabs(d->cache.tau[c]);
  else if (d->ph.spin[c] == NSED_MODE_SLIP)
    g[NSEDI_ROOT_SPIN] = d->ph.spin_sign[c] * geo->spin.vel;
  switch (d->ph.mode[c]) {
    case NSED_MODE_OPEN:
      /* Degenerate geometry still has a gap (a flat disk's rim height). */
      g[NSEDI_ROOT_CONTACT] = geo->gap;
      /* A lift-off's margin, until the gap rises clear of it. */
      g[NSEDI_ROOT_LINE] = nsedi_liftoff_clearance_root(d, c);
      break;
    case NSED_MODE_STICK:
      /* the normal force as the minimum-norm share gives it, where the
       * unilateral share unloaded it (eval.c): its lift-off, as before */
      g[NSEDI_ROOT_CONTACT] = d->cache.share_n[c];
      g[NSEDI_ROOT_FRICTION] = nsedi_friction_margin(o, cd->mu0, l[0], l[1], l[2]);
      break;
    case NSED_MODE_SLIP:
      g[NSEDI_ROOT_CONTACT] = d->cache.share_n[c];
      if (cd->law == NSED_CONTACT_REGULARIZED) break; /* never sticks */
      if (d->ph.held[c]) {
        /* Held on the direction s: its speed along s crosses zero where it
         * stops, transversally when it decelerates; its minimum, where a stop
         * may hide inside one step. */
        double s1 = d->ph.dir[2 * c], s2 = d->ph.dir[2 * c + 1];
        double v1 = geo->row[1].vel, v2 = geo->row[2].vel;
        g[NSEDI_ROOT_FRICTION] = v1 * s1 + v2 * s2;
        g[NSEDI_ROOT_MINIMUM] = -(nsedi_row_accel(&geo->row[1], d->cache.du) * s1 +
                                  nsedi_row_accel(&geo->row[2], d->cache.du) * s2);
        g[NSEDI_ROOT_LINE] = nsedi_line_root(m, d, c, d->ph.slow[c], d->ph.dir + 2 * c);
      } else {
        /* Free: slowed below slip_stop_speed its direction would be stiff to
         * integrate (it turns at a rate ~ 1/|v|): it is held there. */
        g[NSEDI_ROOT_FRICTION] = nsedi_slip_speed(geo) - NSEDI_SLOW_ENTRY * nsedi_slow_speed(m, d, c);
        /* The vertex form's friction has a kink where its direction
         * crosses a vertex (law_kinks.c). */
        g[NSEDI_ROOT_LINE] = sector_root(m, d, c);
      }
      break;
  }
}

int nsedi_indicators(const nsed_model *m, nsed_data *d, double t, const double *x, double *g) {
  if (!nsedi_cached_at(m, d, t, x)) {
    nsed_error err;
    int rc = nsedi_eval(m, d, t, x, NULL, &err);
    if (rc) {
      d->rhs_err = err;
      return rc;
    }
  } else {
    nsedi_eval_complete(m, d, x); /* the open contacts' gaps */
  }
  for (int c = 0; c < m->ncontact; c++) {
    double *gc = g + NSEDI_ROOTS_PER_CONTACT * c;
    nsedi_contact_indicators(m, d, c, gc);
    for (int k = 0; k < NSEDI_ROOTS_PER_CONTACT; k++)
      gc[k] -= d->ph.root_offset[NSEDI_ROOTS_PER_CONTACT * c + k];
  }
  double bp = d->t_next_breakpoint;
  g[NSEDI_ROOTS_PER_CONTACT * m->ncontact] = isfinite(bp) ? bp - t : 1.0;
  if (m->nkink > 0) nsedi_kink_indicators(m, d, x, g + nsedi_kink_root(m, 0));
  return NSED_OK;
}

/* Next breakpoint of any piecewise law after t (INFINITY if none). */
double nsedi_next_breakpoint(const nsed_model *m, double t) {
  double best = INFINITY;
  const nsed_law *laws[6];
  for (int i = 0; i < m->nforce + m->njoint; i++) {
    int n = 0;
    if (i < m->nforce) {
      laws[n++] = &m->force[i].def.magnitude;
    } else {
      const nsed_joint_def *jd = &m->joint[i - m->nforce].def;
      if (jd->has_torque) laws[n++] = &jd->torque;
      if (jd->type == NSED_JOINT_SERVO) laws[n++] = &jd->servo_angle;
      const nsed_joint_drive *dr[2] = {&jd->drive, &jd->axial_drive};
      for (int k = 0; k < 2; k++)
        if (dr[k]->type == NSED_DRIVE_FEEDBACK) {
          laws[n++] = &dr[k]->reference;
          laws[n++] = &dr[k]->feedforward;
        }
    }
    for (int k = 0; k < n; k++) {
      if (laws[k]->type != NSED_LAW_PIECEWISE) continue;
      for (int p = 0; p < laws[k]->npoints; p++)
        if (laws[k]->times[p] > t && laws[k]->times[p] < best) best = laws[k]->times[p];
    }
  }
  return best;
}
