/* The law monitor: at every output sample, after every event and at every
 * integrator step's end that holds no root (simulate.c), every
 * contact is checked against its law and every joint against its drift
 * tolerance, on the forces the smooth phase actually applies
 * (docs/engine.md, "The law monitor"). It cannot be switched off: a run
 * whose forces leave the law stops with NSED_ERR_LAW naming the time, the
 * contact, its mode and the numbers, and every run records the worst
 * margin of each check. */
#include <math.h>
#include <string.h>

#include "sim_impl.h"
#include "tolerances.h"

void nsedi_monitor_init(const nsed_model *m, nsed_data *d) {
  const nsed_options *o = &m->opt;
  const double tol[NSED_LAW_NCHECK] = {
      [NSED_LAW_NORMAL_FORCE] = NSEDI_LAW_NORMAL_TOL,
      [NSED_LAW_STICK_FRICTION] = NSEDI_LAW_FRICTION_TOL,
      [NSED_LAW_SLIP_FRICTION] = NSEDI_LAW_FRICTION_TOL,
      [NSED_LAW_SLIP_DIRECTION] = NSEDI_LAW_DIRECTION_TOL,
      [NSED_LAW_OPEN_GAP] = o->contact_tol + o->drift_tol,
      [NSED_LAW_CLOSED_GAP] = o->drift_tol,
      [NSED_LAW_JOINT_DRIFT] = o->drift_tol,
      [NSED_LAW_SPIN_FRICTION] = NSEDI_LAW_FRICTION_TOL,
      [NSED_LAW_STICK_VELOCITY] = NSEDI_LAW_STICK_SPEED * o->slip_tol,
  };
  for (int k = 0; k < NSED_LAW_NCHECK; k++) {
    nsed_law_margin *lm = &d->stats.law[k];
    lm->worst = INFINITY;
    lm->tolerance = tol[k];
    lm->t = 0.0;
    lm->where = -1;
    lm->count = 0;
  }
}

/* One evaluation of a check: keep the worst; 1 when it is a violation. */
static int note(nsed_data *d, double t, nsed_law_check k, double margin, int where) {
  nsed_law_margin *lm = &d->stats.law[k];
  lm->count++;
  if (margin < lm->worst) {
    lm->worst = margin;
    lm->t = t;
    lm->where = where;
  }
  return !(margin >= -lm->tolerance); /* NaN is a violation */
}

/* Euclidean norms by their squares, hypot's scaling only where a square
 * overflows: hypot costs a good part of a check on a small problem (the
 * monitor runs at every step's end). */
static inline double norm2(double x, double y) {
  double s = sqrt(x * x + y * y);
  return isinf(s) ? hypot(x, y) : s;
}
static inline double norm3(const double *v) {
  double s = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  return isinf(s) ? hypot(hypot(v[0], v[1]), v[2]) : s;
}

/* The force scale of the instant: the largest applied force on a body or
 * normal force of a closed contact (N). */
static double force_scale(const nsed_model *m, const nsed_data *d) {
  double s = 0.0;
  for (int b = 0; b < m->nbody; b++)
    s = fmax(s, norm3(d->cache.f + 6 * b));
  for (int c = 0; c < m->ncontact; c++) s = fmax(s, fabs(d->cache.lambda_c[3 * c]));
  return s > 0 ? s : 1.0;
}

/* What lets positions drift past drift_tol, for the message: no
 * stabilisation, or an rtol that holds positions only to about rtol times
 * their size (docs/engine.md, "Loose tolerances"). */
static const char *drift_cause(const nsed_model *m) {
  const nsed_options *o = &m->opt;
  if (o->baumgarte_eta == 0 && o->baumgarte_xi == 0)
    return "; positions are not stabilised (solver.baumgarte eta and xi are 0), so their drift grows "
           "without bound";
  if (o->drift_tol < NSEDI_DRIFT_RTOL_HINT * o->rtol)
    return "; solver.rtol holds positions to about rtol times their size: raise solver.drift_tol or "
           "tighten solver.rtol";
  return "";
}

static int violation(const nsed_model *m, nsed_data *d, double t, nsed_law_check k, int where, double value,
                     const char *what, nsed_error *err) {
  const nsed_law_margin *lm = &d->stats.law[k];
  if (k == NSED_LAW_JOINT_DRIFT) {
    int servo = m->joint[where].def.type == NSED_JOINT_SERVO;
    return nsed_error_set(err, NSED_ERR_LAW,
                          "t = %.17g: joint '%s' drifted: |phi| = %.3g exceeds solver.drift_tol = "
                          "%.3g (law monitor, check %s)%s%s",
                          t, m->joint[where].def.name, -lm->worst, lm->tolerance,
                          nsed_law_check_name(k),
                          servo ? "; a position-level servo starts at its prescribed angle, an "
                                  "acceleration-level one (servo_feedback) from the bodies' own"
                                : "",
                          drift_cause(m));
  }
  d->failure_contact = where;
  const nsed_contact_def *cd = &m->contact[where].def;
  const double *l = d->cache.lambda_c + 3 * where;
  const nsedi_contact_geom *g = &d->cache.geom[where];
  return nsed_error_set(err, NSED_ERR_LAW,
                        "t = %.17g: contact '%s' (%s) violates its law: %s (check %s: margin %.3g, "
                        "tolerance %.3g); lambda_n %.9g N, lambda_t (%.9g, %.9g) N, mu %g, mu0 %g, "
                        "gap %.3g m, slip speed %.3g m/s%s",
                        t, cd->name, nsed_mode_name(d->ph.mode[where]), what,
                        nsed_law_check_name(k), value, lm->tolerance, l[0], l[1], l[2], cd->mu,
                        cd->mu0, g->gap, hypot(g->row[1].vel, g->row[2].vel),
                        k == NSED_LAW_CLOSED_GAP ? drift_cause(m) : "");
}

/* Exact torsional friction of closed contact c: a sticking spin's moment
 * within +-torsion lambda_n; a turning one's equal to -torsion lambda_n
 * times its sign, and the spin not reversed beyond its noise (a stop its
 * root missed). Returns the violated check or -1. */
static int check_spin(const nsed_model *m, nsed_data *d, double t, int c, double fref, double *value,
                      const char **what) {
  const nsed_contact_def *cd = &m->contact[c].def;
  double fn = fmax(d->cache.lambda_c[3 * c], 0.0), tau = d->cache.tau[c];
  double bound = cd->torsion * fn, scale = bound + NSEDI_FORCE_FLOOR * fref * cd->torsion;
  if (d->ph.spin[c] == NSED_MODE_STICK) {
    *value = (bound - fabs(tau)) / scale;
    *what = "the sticking spin's moment is outside +-torsion lambda_n";
  } else {
    double sign = d->ph.spin_sign[c], w = d->cache.geom[c].spin.vel;
    int reversed = sign * w < -nsedi_spin_noise(m, d, c) - nsedi_spin_rest_speed(m, c);
    *value = reversed ? -1.0 : -fabs(tau + sign * bound) / scale;
    *what = reversed ? "the spin reversed without stopping"
                     : "the turning spin's moment is not -torsion lambda_n against its spin";
  }
  return note(d, t, NSED_LAW_SPIN_FRICTION, *value, c) ? NSED_LAW_SPIN_FRICTION : -1;
}

/* The checks of one contact; returns the violated check or -1. */
static int check_contact(const nsed_model *m, nsed_data *d, double t, int c, double fref, double *value,
                         const char **what) {
  const nsed_options *o = &m->opt;
  const nsed_contact_def *cd = &m->contact[c].def;
  const nsedi_contact_geom *g = &d->cache.geom[c];
  const double *l = d->cache.lambda_c + 3 * c;
  double ln = l[0], lt = norm2(l[1], l[2]);
  double v1 = g->row[1].vel, v2 = g->row[2].vel, sp = norm2(v1, v2);
  int compliant = cd->law == NSED_CONTACT_COMPLIANT;
  if (!d->cache.geom_ok[c]) return -1; /* a degenerate geometry ends the run elsewhere */
  if (d->ph.mode[c] == NSED_MODE_OPEN && !compliant) {
    if (g->gap_bound) return -1; /* its gap is above a positive bound: nothing to judge */
    *value = g->gap;
    *what = "an open contact penetrates";
    return note(d, t, NSED_LAW_OPEN_GAP, g->gap, c) ? NSED_LAW_OPEN_GAP : -1;
  }
  if (!compliant) {
    *value = -fabs(g->gap);
    *what = "a closed contact has drifted from the surface";
    if (note(d, t, NSED_LAW_CLOSED_GAP, *value, c)) return NSED_LAW_CLOSED_GAP;
  }
  /* A contact that started its phase unloaded within its force's noise
   * has its lift-off root watched from that noise below zero
   * (event_anchor.c): a pull down to there is the root's to find. */
  double watched = compliant ? 0.0 : fmin(0.0, d->ph.root_offset[NSEDI_ROOTS_PER_CONTACT * c + NSEDI_ROOT_CONTACT]);
  *value = (ln - watched) / fref;
  *what = "the normal force pulls";
  if (note(d, t, NSED_LAW_NORMAL_FORCE, *value, c)) return NSED_LAW_NORMAL_FORCE;
  double floor = NSEDI_FORCE_FLOOR * fref;
  if (d->ph.spin[c] != NSED_MODE_OPEN) {
    int k = check_spin(m, d, t, c, fref, value, what);
    if (k >= 0) return k;
  }
  if (d->ph.mode[c] == NSED_MODE_STICK && cd->law == NSED_CONTACT_COULOMB) {
    /* A stick is at rest: its phase holds its tangential acceleration at
     * zero, so a velocity it started with (a settling impulse the event
     * could not apply) would stay, a creep no friction law allows. Judged
     * beyond the drift the integration's error leaves (NSEDI_LAW_STICK_NOISE
     * times the velocity's noise). */
    *value = -fmax(0.0, sp - NSEDI_LAW_STICK_NOISE * nsedi_slip_noise(m, d, c));
    *what = "the sticking contact slides";
    if (note(d, t, NSED_LAW_STICK_VELOCITY, *value, c)) return NSED_LAW_STICK_VELOCITY;
  }
  if (d->ph.mode[c] == NSED_MODE_STICK) {
    /* A stick's friction rides on its normal force, which may be below
     * zero within the normal check's tolerance (that check judges the
     * pull): its set is mu0 |lambda_n| then, as a slip's friction is. */
    double fn0 = fabs(ln);
    *value = nsedi_friction_margin(o, cd->mu0, fn0, l[1], l[2]) / (cd->mu0 * fn0 + floor);
    *what = "the sticking friction force is outside the friction set of mu0 lambda_n";
    return note(d, t, NSED_LAW_STICK_FRICTION, *value, c) ? NSED_LAW_STICK_FRICTION : -1;
  }
  /* A slip's friction rides on its normal force, which may be below zero
   * within the normal check's tolerance (that check judges the pull): its
   * magnitude is mu |lambda_n| then. */
  double mu = nsedi_kinetic_mu(m, c, sp, l[1], l[2]), fn = fabs(ln);
  int coulomb_slow = cd->law == NSED_CONTACT_COULOMB && d->ph.held[c] && d->ph.slow[c];
  if (coulomb_slow && d->ph.off_circle[c]) {
    /* An onset the friction circle does not admit slips on the event
     * problem's force, on the friction polygon's boundary, until it is fast
     * (docs/engine.md, "Onsets the circle does not admit"). */
    *value = -fabs(nsedi_friction_margin(o, cd->mu0, ln, l[1], l[2])) / (cd->mu0 * fn + floor);
    *what = "a slip onset off the friction circle is not on the friction polygon's boundary";
  } else {
    *value = -fabs(lt - mu * fn) / (mu * fn + floor);
    *what = "the slipping friction force is not the law's kinetic friction (mu lambda_n; in the "
            "vertex form on the inscribed polygon)";
  }
  if (note(d, t, NSED_LAW_SLIP_FRICTION, *value, c)) return NSED_LAW_SLIP_FRICTION;
  if (lt > floor && cd->law == NSED_CONTACT_COULOMB && d->ph.held[c] && d->ph.slow[c]) {
    /* Below slip_stop_speed the direction of a slip is held on s (its
     * velocity's direction is not resolved there, docs/engine.md "Slip
     * direction"): the friction must oppose s, and the slip must not have
     * reversed along it below where its stop root watches (its offset, at
     * most the noise below zero at the phase start) or its velocity's
     * noise: a stop its root missed. */
    double s1 = d->ph.dir[2 * c], s2 = d->ph.dir[2 * c + 1];
    double cosang = -(l[1] * s1 + l[2] * s2) / lt;
    double level = fmin(d->ph.root_offset[NSEDI_ROOTS_PER_CONTACT * c + NSEDI_ROOT_FRICTION],
                        -nsedi_slip_noise(m, d, c));
    int reversed = v1 * s1 + v2 * s2 < level - o->slip_tol;
    *value = reversed ? -M_PI : -acos(fmax(-1.0, fmin(1.0, cosang)));
    *what = reversed ? "the slip reversed along its held direction without stopping"
                     : "the friction force does not oppose the slip's held direction";
    if (note(d, t, NSED_LAW_SLIP_DIRECTION, *value, c)) return NSED_LAW_SLIP_DIRECTION;
  } else if (sp > o->slip_tol && lt > floor) {
    /* The angle between -lambda_t and v, less what the noise of v across
     * lambda_t leaves undetermined at this speed. */
    double along = -(l[1] * v1 + l[2] * v2) / lt, across = fabs(l[1] * v2 - l[2] * v1) / lt;
    double resolved = fmax(0.0, across - nsedi_slip_noise(m, d, c));
    /* atan2(+-0, along > 0) is +-0: the common case (the friction opposes
     * the slip within its noise) without the call, to the same bits. */
    *value = resolved == 0 && along > 0 ? -resolved : -atan2(resolved, along);
    *what = "the friction force does not oppose the slip velocity";
    if (note(d, t, NSED_LAW_SLIP_DIRECTION, *value, c)) return NSED_LAW_SLIP_DIRECTION;
  }
  return -1;
}

int nsedi_monitor_check(const nsed_model *m, nsed_data *d, double t, nsed_error *err) {
  double fref = force_scale(m, d);
  for (int j = 0; j < m->njoint; j++)
    for (int i = m->joint[j].row0; i < m->joint[j].row0 + m->joint[j].nrow; i++)
      if (!d->sw.rows[i].own_feedback && note(d, t, NSED_LAW_JOINT_DRIFT, -fabs(d->sw.rows[i].pos), j))
        return violation(m, d, t, NSED_LAW_JOINT_DRIFT, j, -fabs(d->sw.rows[i].pos), "", err);
  for (int c = 0; c < m->ncontact; c++) {
    double value = 0;
    const char *what = "";
    int k = check_contact(m, d, t, c, fref, &value, &what);
    if (k >= 0) return violation(m, d, t, (nsed_law_check)k, c, value, what, err);
  }
  return NSED_OK;
}
