/* The paper's event resolver (Xu, Wang & Wang 2017, section 3): try mode
 * combinations in a fixed order and keep the first that is consistent,
 * instead of solving the complementarity problem. Selectable with
 * solver.event_resolver = trial, for comparison with the LCP resolver.
 *
 * Order per contact: a stick candidate tries stick, then slip (in the
 * direction opposite to the friction force the stick trial needed), then
 * open; a slipping contact tries slip, then open; a frictionless one closed,
 * then open. Consistency: closed needs lambda_n >= 0, open needs the normal
 * relative acceleration >= 0, stick needs the tangential force inside the
 * friction polygon (or circle), slip onset needs the tangential relative
 * acceleration to point along the slip direction. Each trial is one
 * evaluation of the smooth-phase equations, so the cost grows as 3^n: it is
 * meant for the few-contact systems of the paper. */
#include <math.h>
#include <string.h>

#include "sim_impl.h"
#include "tolerances.h"

#define NSEDI_TRIAL_MAX_CONTACTS 10

/* Inside the friction polygon (or circle) of the model, with tolerance. */
static int inside_friction(const nsed_options *o, double mu0, const double l[3], double tol) {
  return nsedi_friction_margin(o, mu0, l[0], l[1], l[2]) >= -tol;
}

/* Trial k of contact i: 0 stick/closed, 1 slip, 2 open (for stick candidates). */
static nsed_mode trial_mode(const nsed_cp_contact *p, int k) {
  if (p->kind == NSED_CP_STICK_CANDIDATE) return k == 0 ? NSED_MODE_STICK : k == 1 ? NSED_MODE_SLIP : NSED_MODE_OPEN;
  return k == 0 ? NSED_MODE_SLIP : NSED_MODE_OPEN;
}

int nsedi_trial_modes(const nsed_model *m, nsed_data *d, int n, nsed_lcp_stats *st, nsed_error *err) {
  const nsed_options *o = &m->opt;
  if (n > NSEDI_TRIAL_MAX_CONTACTS)
    return nsed_error_set(err, NSED_ERR_EVENT,
                          "t = %.17g: the trial-and-error resolver handles at most %d touching "
                          "contacts (%d here): use solver.event_resolver = lcp",
                          d->t, NSEDI_TRIAL_MAX_CONTACTS, n);
  int ntr[NSEDI_TRIAL_MAX_CONTACTS], k[NSEDI_TRIAL_MAX_CONTACTS];
  double stick_dir[2 * NSEDI_TRIAL_MAX_CONTACTS];
  long total = 1;
  for (int i = 0; i < n; i++) {
    ntr[i] = d->ev.cpc[i].kind == NSED_CP_STICK_CANDIDATE ? 3 : 2;
    k[i] = 0;
    total *= ntr[i];
    stick_dir[2 * i] = stick_dir[2 * i + 1] = 0;
  }
  double fscale = 1e-300;
  for (int q = 0; q < m->nv; q++) fscale = fmax(fscale, fabs(d->cache.f[q]));
  double tol = NSEDI_TRIAL_TOL * fscale;
  int tries = 0;
  for (long it = 0; it < total; it++, tries++) {
    /* Set the trial's modes. */
    int skip = 0, saturated = 0;
    for (int i = 0; i < n; i++) {
      int c = d->ev.cand[i];
      const nsed_cp_contact *p = &d->ev.cpc[i];
      d->ph.mode[c] = trial_mode(p, k[i]);
      /* At a friction saturation root the force is on the boundary moving
       * out: stick is not a candidate (the LCP's shrunk mu0 says so). */
      if (d->ph.mode[c] == NSED_MODE_STICK && p->mu0 < m->contact[c].def.mu0) saturated = 1;
      if (d->ph.mode[c] == NSED_MODE_SLIP) {
        if (p->kind == NSED_CP_SLIPPING) {
          d->ph.dir[2 * c] = p->slip_dir[0];
          d->ph.dir[2 * c + 1] = p->slip_dir[1];
        } else {
          double s1 = stick_dir[2 * i], s2 = stick_dir[2 * i + 1];
          if (!(hypot(s1, s2) > 0)) skip = 1; /* no stick trial said which way */
          d->ph.dir[2 * c] = s1;
          d->ph.dir[2 * c + 1] = s2;
        }
      }
    }
    int ok = !skip;
    if (ok) {
      nsed_error e;
      if (nsedi_eval(m, d, d->t, d->x, NULL, &e) != NSED_OK) ok = 0;
    }
    for (int i = 0; ok && i < n; i++) {
      int c = d->ev.cand[i];
      const double *l = d->cache.lambda_c + 3 * c;
      const nsedi_contact_geom *g = &d->cache.geom[c];
      switch (d->ph.mode[c]) {
        case NSED_MODE_OPEN:
          ok = nsedi_row_accel(&g->row[0], d->cache.du) >= -NSEDI_TRIAL_TOL * (1 + fabs(g->row[0].bias));
          break;
        case NSED_MODE_STICK:
          if (!(l[0] >= -tol)) ok = 0;
          else if (saturated || !inside_friction(o, d->ev.cpc[i].mu0, l, tol)) {
            /* Remember which way the unbalanced demand pushes: slip opposes
             * the friction force that sticking would need. */
            double lt = hypot(l[1], l[2]);
            if (lt > 0) {
              stick_dir[2 * i] = -l[1] / lt;
              stick_dir[2 * i + 1] = -l[2] / lt;
            }
            ok = 0;
          }
          break;
        case NSED_MODE_SLIP:
          if (!(l[0] >= -tol)) ok = 0;
          else if (d->ev.cpc[i].kind == NSED_CP_STICK_CANDIDATE) {
            double a1 = nsedi_row_accel(&g->row[1], d->cache.du), a2 = nsedi_row_accel(&g->row[2], d->cache.du);
            ok = a1 * d->ph.dir[2 * c] + a2 * d->ph.dir[2 * c + 1] >= 0;
          }
          break;
      }
    }
    if (ok) {
      for (int i = 0; i < n; i++) {
        int c = d->ev.cand[i];
        d->ev.cmode[i] = d->ph.mode[c] == NSED_MODE_OPEN ? NSED_CP_OPEN
                      : d->ph.mode[c] == NSED_MODE_STICK ? NSED_CP_STICK
                                                      : NSED_CP_SLIP;
        for (int q = 0; q < 3; q++) d->ev.cl[3 * i + q] = d->cache.lambda_c[3 * c + q];
        d->ev.cdir[2 * i] = d->ph.mode[c] == NSED_MODE_SLIP ? d->ph.dir[2 * c] : 0.0;
        d->ev.cdir[2 * i + 1] = d->ph.mode[c] == NSED_MODE_SLIP ? d->ph.dir[2 * c + 1] : 0.0;
      }
      st->lcp_size = 0;
      st->pivots = tries + 1; /* the number of trials */
      st->residual = 0.0;
      st->path = "trial";
      return NSED_OK;
    }
    /* Next combination, first contact fastest (its own order first). */
    for (int i = 0; i < n; i++) {
      if (++k[i] < ntr[i]) break;
      k[i] = 0;
    }
  }
  return nsed_error_set(err, NSED_ERR_EVENT,
                        "t = %.17g: no consistent contact mode among %ld trials of %d contact(s) "
                        "(the trial-and-error resolver; the LCP resolver may still find one)",
                        d->t, total, n);
}
