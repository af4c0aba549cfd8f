/* The forces of redundant contacts in a smooth phase (docs/engine.md,
 * "Redundant contacts"). When contacts constrain the same motion twice (a
 * box's four vertices on its face, a sphere in a corner), the equations of
 * motion fix the bodies' accelerations but not how the forces share them:
 * the multipliers are determined only up to the null space of the system.
 * The contact laws must hold for the forces reported and watched by the
 * indicators, so the phase takes the solution nearest an anchor chosen at
 * its start: the forces, among those the equations allow, that lie
 * deepest inside every closed contact's law: the largest soft minimum of
 * their margins.
 *
 * Every margin (a normal force, the distance inside a friction polygon or
 * circle) is concave in the forces, and so is their soft minimum, on the
 * affine set of solutions: it has no local maxima but the global one. The
 * search starts on the segment from the event problem's answer (inside
 * every law, but a vertex of the feasible set, often on its boundary: a
 * vertex that carries no load) to the phase's minimum-norm solution
 * (central, but blind to the laws), then climbs by projected ascent: a
 * step along the objective's gradient, projected back onto
 * the solutions by the anchored solve itself (the solution nearest a
 * point is that point's projection). */
#include <math.h>
#include <string.h>

#include "sim_impl.h"
#include "tolerances.h"

/* What a search works on: its contacts, the force scale its margins are
 * relative to, and a gradient's scratch (3 nc). */
typedef struct {
  const int *list; /* the contacts list[0, n): the event problem's */
  int n;
  double fscale;
  double *grad;
} scope;

/* Calls f(ctx, margin, gradient on (n, t1, t2)) for every law margin of the
 * closed Coulomb contacts of the scope at the forces l (3 nc, by contact):
 * the normal force, and for a sticking contact each face of its friction
 * polygon (as nsedi_friction_margin numbers them) or its circle. */
typedef void (*margin_fn)(void *ctx, int c, double margin, const double grad[3]);

static void each_margin(const nsed_model *m, const nsed_data *d, const scope *sc, const double *f,
                        margin_fn fn, void *ctx) {
  const nsed_options *o = &m->opt;
  int sides = o->friction.sides, vertex = o->friction.model == NSED_FRICTION_POLYGON_VERTEX;
  double off = vertex ? M_PI / sides : 0.0, scale = vertex ? cos(M_PI / sides) : 1.0;
  for (int i = 0; i < sc->n; i++) {
    int c = sc->list[i];
    nsed_mode mode = d->ph.mode[c];
    if (mode == NSED_MODE_OPEN || m->contact[c].def.law != NSED_CONTACT_COULOMB) continue;
    const double *l = f + 3 * c, mu0 = m->contact[c].def.mu0;
    const double gn[3] = {1, 0, 0};
    fn(ctx, c, l[0], gn);
    if (mode != NSED_MODE_STICK) continue;
    if (o->friction.model == NSED_FRICTION_EXACT_CONE) {
      /* The circle's margin has a kink at zero friction, where its
       * gradient's direction is the round-off's: within the solve's
       * round-off of zero the gradient fades (a rounded kink), so the climb
       * is not held by noise there (the normal forces' twist). */
      double lt = hypot(l[1], l[2]), ls = hypot(lt, NSEDI_FORCE_FLOOR * sc->fscale);
      const double gc[3] = {mu0, -l[1] / ls, -l[2] / ls};
      fn(ctx, c, mu0 * l[0] - lt, gc);
      continue;
    }
    for (int j = 0; j < sides; j++) {
      double th = 2 * M_PI * j / sides + off, cs = cos(th), sn = sin(th);
      const double gp[3] = {scale * mu0, -cs, -sn};
      fn(ctx, c, scale * mu0 * l[0] - cs * l[1] - sn * l[2], gp);
    }
  }
}

/* The objective: the soft minimum -tau log sum exp(-m_j / tau) of the
 * margins relative to fscale (tau = NSEDI_ANCHOR_SOFTMIN), concave like the
 * minimum but still rising when the smallest margin is pinned (a trailing
 * vertex's normal force, fixed by the moments) and others are not; and its
 * gradient. Two passes: the smallest margin first, for the exponentials'
 * range. */
typedef struct {
  double fscale, tau, lowest, sum, *g;
} softmin;

static void find_lowest(void *ctx, int c, double margin, const double grad[3]) {
  (void)c, (void)grad;
  softmin *s = ctx;
  s->lowest = fmin(s->lowest, margin / s->fscale);
}

static void accumulate(void *ctx, int c, double margin, const double grad[3]) {
  softmin *s = ctx;
  double w = exp(-(margin / s->fscale - s->lowest) / s->tau);
  s->sum += w;
  if (s->g)
    for (int k = 0; k < 3; k++) s->g[3 * c + k] += w * grad[k];
}

/* The soft minimum at temperature tau (relative to the force scale), and
 * the smallest margin itself into *lowest. */
static double objective(const nsed_model *m, const nsed_data *d, const scope *sc, const double *f,
                        double tau, double *g, double *lowest) {
  softmin s = {sc->fscale, tau, INFINITY, 0.0, g};
  each_margin(m, d, sc, f, find_lowest, &s);
  *lowest = s.lowest;
  if (!isfinite(s.lowest)) return INFINITY;
  if (g) memset(g, 0, sizeof(double) * 3 * (size_t)m->ncontact);
  each_margin(m, d, sc, f, accumulate, &s);
  return s.lowest - tau * log(s.sum);
}

/* The anchor at a along the segment from the answer to the minimum-norm forces mn. */
static void point_at(const nsed_model *m, nsed_data *d, const double *mn, double a) {
  const double *ev = d->ev.force_ev;
  for (int k = 0; k < 3 * m->ncontact; k++) d->ph.force_anchor[k] = ev[k] + a * (mn[k] - ev[k]);
}

/* The best point of the segment by ternary search (the objective is concave on it). */
static void seed_on_segment(const nsed_model *m, nsed_data *d, const scope *sc) {
  const double *mn = d->cache.lambda_c;
  double lo = 0.0, hi = 1.0;
  for (int it = 0; it < NSEDI_ANCHOR_SEARCH_STEPS; it++) {
    double a1 = lo + (hi - lo) / 3, a2 = hi - (hi - lo) / 3;
    double low;
    point_at(m, d, mn, a1);
    double m1 = objective(m, d, sc, d->ph.force_anchor, NSEDI_ANCHOR_SOFTMIN, NULL, &low);
    point_at(m, d, mn, a2);
    double m2 = objective(m, d, sc, d->ph.force_anchor, NSEDI_ANCHOR_SOFTMIN, NULL, &low);
    if (m1 < m2)
      lo = a1;
    else
      hi = a2;
  }
  point_at(m, d, mn, 0.5 * (lo + hi));
}

/* Projected ascent from the anchor at temperature tau, which it moves; a
 * step is taken only if it raises the objective and keeps the smallest
 * margin from falling below both zero and where it was (the soft minimum
 * may trade a margin far below tau for others). */
static int climb_at(const nsed_model *m, nsed_data *d, const scope *sc, double tau, nsed_error *err) {
  int nc3 = 3 * m->ncontact;
  double *anchor = d->ph.force_anchor, *g = sc->grad, fscale = sc->fscale, low, trial_low;
  double best = objective(m, d, sc, anchor, tau, NULL, &low);
  for (int it = 0; it < NSEDI_ANCHOR_ASCENT_STEPS; it++) {
    objective(m, d, sc, anchor, tau, g, &low);
    double gn = 0;
    for (int k = 0; k < nc3; k++) gn = fmax(gn, fabs(g[k]));
    if (!(gn > 0)) break;
    int improved = 0;
    for (double eta = fscale / gn; eta > NSEDI_ANCHOR_STEP_FLOOR * fscale / gn && !improved; eta *= 0.5) {
      for (int k = 0; k < nc3; k++) anchor[k] += eta * g[k];
      int rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
      if (rc) return rc;
      double trial = objective(m, d, sc, d->cache.lambda_c, tau, NULL, &trial_low);
      for (int k = 0; k < nc3; k++) anchor[k] -= eta * g[k];
      if (trial > best + NSEDI_ANCHOR_TIE && trial_low >= fmin(low, 0.0)) {
        memcpy(anchor, d->cache.lambda_c, sizeof(double) * (size_t)nc3);
        best = trial;
        improved = 1;
      }
    }
    if (!improved) break;
  }
  return NSED_OK;
}

/* The climb from the anchor at falling temperatures: each sees margins
 * down to about its own size, the last the round-off's; the caches end
 * evaluated with the anchor. */
static int climb(const nsed_model *m, nsed_data *d, const scope *sc, nsed_error *err) {
  int rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
  if (rc) return rc;
  memcpy(d->ph.force_anchor, d->cache.lambda_c, sizeof(double) * 3 * (size_t)m->ncontact);
  for (double tau = NSEDI_ANCHOR_SOFTMIN; tau >= NSEDI_ANCHOR_SOFTMIN_LAST; tau *= NSEDI_ANCHOR_COOLING) {
    rc = climb_at(m, d, sc, tau, err);
    if (rc) return rc;
  }
  return nsedi_eval(m, d, d->t, d->x, NULL, err);
}

int nsedi_centre_force_anchor(const nsed_model *m, nsed_data *d, int na, nsed_error *err) {
  nsedi_event_ws *ev = &d->ev;
  int nc = m->ncontact;
  memset(ev->force_ev, 0, sizeof(double) * 3 * (size_t)nc);
  for (int i = 0; i < na; i++)
    for (int k = 0; k < 3; k++) ev->force_ev[3 * ev->cand[i] + k] = ev->cl[3 * i + k];
  /* The minimum-norm forces of the new phase: the evaluation with no anchor. */
  memset(d->ph.force_anchor, 0, sizeof(double) * 3 * (size_t)nc);
  int rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
  /* Unique forces, or forces that move the bodies (eval.c): nothing to choose. */
  if (rc || !d->sw.deficient || !nsedi_forces_anchored(m, d)) return rc;
  scope sc = {ev->cand, na, ev->fscale, d->sw.centre_grad};
  for (int k = 0; k < 3 * nc; k++) sc.fscale = fmax(sc.fscale, fabs(ev->force_ev[k]));
  seed_on_segment(m, d, &sc);
  return climb(m, d, &sc, err);
}
