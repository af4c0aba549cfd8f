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
#include <stdlib.h>
#include <string.h>

#include "maxmin_lp.h"
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

/* A friction polygon's faces: face j's normal at th_j = 2 pi j / sides +
 * off, at distance scale mu0 lambda_n (the face form circumscribes the
 * circle, the vertex form inscribes it). The cone has none, unless its
 * inscribed polygon of cone_sides is asked for (cone_sides > 0). */
typedef struct {
  int sides;
  double off, scale;
} polygon;

static polygon polygon_of(const nsed_options *o, int cone_sides) {
  int cone = o->friction.model == NSED_FRICTION_EXACT_CONE;
  int sides = cone ? cone_sides : o->friction.sides;
  int vertex = cone || o->friction.model == NSED_FRICTION_POLYGON_VERTEX;
  polygon p = {sides, 0.0, 1.0};
  if (vertex && sides > 0) p.off = M_PI / sides, p.scale = cos(M_PI / sides);
  return p;
}

static void each_margin(const nsed_model *m, const nsed_data *d, const scope *sc, const double *f,
                        margin_fn fn, void *ctx) {
  const nsed_options *o = &m->opt;
  polygon pg = polygon_of(o, 0);
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
    for (int j = 0; j < pg.sides; j++) {
      double th = 2 * M_PI * j / pg.sides + pg.off, cs = cos(th), sn = sin(th);
      const double gp[3] = {pg.scale * mu0, -cs, -sn};
      fn(ctx, c, pg.scale * mu0 * l[0] - cs * l[1] - sn * l[2], gp);
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

/* ---- the friction shares deepened by a linear program ----
 * The projected ascent climbs a ridge where several margins bind by
 * zigzagging and stops on its step count, far below the top where a stick
 * near saturation shares its load with others that have room
 * (docs/engine.md, "Redundant contacts": a pushed box whose friction root
 * then fired every 2.5e-7 s). After the climb the friction shares are
 * therefore taken, the normal forces held as the climb left them (their
 * free twist centred, so that a tipping box's trailing vertices unload
 * together), to the largest smallest friction margin. The solutions are
 * x + N z (x the climbed forces, N the null space of the phase's system on
 * the anchored components) and a polygon's face margins are linear in the
 * forces, so that is a linear program; the cone's circle enters through its
 * inscribed polygon of NSEDI_ANCHOR_LP_SIDES sides, whose margins are
 * below the circle's. Only the smallest margin is raised: the others stay
 * where the simplex's vertex leaves them (raising them in turn, the
 * lexicographic deepest point, was measured worse: docs/engine.md). */
typedef struct {
  int q, r, nm, cap;  /* anchored components, null-space rank, rows, rows allocated */
  int *comp, *pos;    /* comp[k]: a force component 3 c + j; pos: its inverse (-1 if none) */
  double *x, *Z, *A, *cv, *y, fscale;
  char *eq;
} lp_build;

static void lp_free(lp_build *b) {
  free(b->comp), free(b->pos), free(b->x), free(b->Z), free(b->A), free(b->cv), free(b->y), free(b->eq);
}

/* Row nm: the margin g . l of contact c (g on its normal and tangential
 * forces) relative to the force scale, cv + A y; held at 0 where eq. */
static void lp_row(lp_build *b, int c, const double g[3], char eq) {
  int k = b->nm++;
  double v = 0;
  for (int j = 0; j < 3; j++) v += g[j] * b->x[3 * c + j];
  b->cv[k] = eq ? 0.0 : v / b->fscale;
  b->eq[k] = eq;
  for (int col = 0; col < b->r; col++) {
    double a = 0;
    for (int j = 0; j < 3; j++) {
      int p = b->pos[3 * c + j];
      if (p >= 0) a += g[j] * b->Z[(size_t)col * b->q + p];
    }
    b->A[(size_t)col * b->cap + k] = a;
  }
}

/* The rows: each closed contact's normal force held, each stick's faces. */
static void lp_rows(const nsed_model *m, const nsed_data *d, const scope *sc, lp_build *b) {
  polygon pg = polygon_of(&m->opt, NSEDI_ANCHOR_LP_SIDES);
  for (int i = 0; i < sc->n; i++) {
    int c = sc->list[i];
    nsed_mode mode = d->ph.mode[c];
    if (mode == NSED_MODE_OPEN || m->contact[c].def.law != NSED_CONTACT_COULOMB) continue;
    const double gn[3] = {1, 0, 0};
    lp_row(b, c, gn, 1);
    if (mode != NSED_MODE_STICK) continue;
    double mu0 = m->contact[c].def.mu0;
    for (int j = 0; j < pg.sides; j++) {
      double th = 2 * M_PI * j / pg.sides + pg.off;
      const double gp[3] = {pg.scale * mu0, -cos(th), -sin(th)};
      lp_row(b, c, gp, 0);
    }
  }
}

/* The anchored components (each closed contact's normal force, a stick's
 * friction too) and room for the program; 0, or -1 out of memory. */
static int lp_alloc(const nsed_model *m, const nsed_data *d, const scope *sc, lp_build *b) {
  int nc = m->ncontact, rows = 0;
  int sides = polygon_of(&m->opt, NSEDI_ANCHOR_LP_SIDES).sides;
  b->pos = malloc(sizeof(int) * 3 * (size_t)nc);
  b->comp = malloc(sizeof(int) * 3 * (size_t)nc);
  b->x = malloc(sizeof(double) * 3 * (size_t)nc);
  if (!b->pos || !b->comp || !b->x) return -1;
  for (int k = 0; k < 3 * nc; k++) b->pos[k] = -1;
  for (int i = 0; i < sc->n; i++) {
    int c = sc->list[i];
    nsed_mode mode = d->ph.mode[c];
    if (mode == NSED_MODE_OPEN || m->contact[c].def.law != NSED_CONTACT_COULOMB) continue;
    int n = mode == NSED_MODE_STICK ? 3 : 1;
    for (int j = 0; j < n; j++) b->pos[3 * c + j] = b->q, b->comp[b->q++] = 3 * c + j;
    rows += 1 + (mode == NSED_MODE_STICK ? sides : 0);
  }
  b->cap = rows > b->q ? rows : b->q;
  b->Z = malloc(sizeof(double) * (size_t)b->q * (size_t)(b->q + 1));
  b->A = malloc(sizeof(double) * (size_t)b->cap * (size_t)(b->q + 1));
  b->cv = malloc(sizeof(double) * (size_t)(b->cap + 1));
  b->y = malloc(sizeof(double) * (size_t)(b->q + 1));
  b->eq = malloc((size_t)(b->cap + 1));
  return b->Z && b->A && b->cv && b->y && b->eq ? 0 : -1;
}

/* The null space's orthonormal basis into Z (q x r): the anchored solve is
 * the projection a -> x + P (a - x) onto the solutions, so P's columns are
 * the answers to unit anchors less the answer to none. P is a projector
 * (its nonzero singular values are at least 1), so Gram-Schmidt with
 * pivoting on its columns finds a column of norm at least 1/sqrt(q) while
 * its range is not exhausted, and then only round-off:
 * NSEDI_ANCHOR_LP_RANGE / sqrt(q) separates the two. */
static int null_basis(const nsed_model *m, nsed_data *d, lp_build *b, nsed_error *err) {
  int q = b->q, nc3 = 3 * m->ncontact;
  double *P = b->A, *base = b->cv; /* scratch: q x q and q, before the rows */
  memset(d->ph.force_anchor, 0, sizeof(double) * (size_t)nc3);
  int rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
  if (rc) return rc;
  for (int j = 0; j < q; j++) base[j] = d->cache.lambda_c[b->comp[j]];
  for (int k = 0; k < q; k++) {
    memset(d->ph.force_anchor, 0, sizeof(double) * (size_t)nc3);
    d->ph.force_anchor[b->comp[k]] = b->fscale;
    rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
    if (rc) return rc;
    for (int j = 0; j < q; j++) P[(size_t)k * q + j] = (d->cache.lambda_c[b->comp[j]] - base[j]) / b->fscale;
  }
  double cut = NSEDI_ANCHOR_LP_RANGE / sqrt((double)q);
  b->r = 0;
  while (b->r < q) {
    int best = -1;
    double bn = cut;
    for (int k = 0; k < q; k++) {
      double s = 0;
      for (int j = 0; j < q; j++) s += P[(size_t)k * q + j] * P[(size_t)k * q + j];
      if (sqrt(s) > bn) bn = sqrt(s), best = k;
    }
    if (best < 0) break;
    double *z = b->Z + (size_t)b->r * q;
    for (int j = 0; j < q; j++) z[j] = P[(size_t)best * q + j] / bn;
    for (int k = 0; k < q; k++) {
      double *col = P + (size_t)k * q, dot = 0;
      for (int j = 0; j < q; j++) dot += z[j] * col[j];
      for (int j = 0; j < q; j++) col[j] -= dot * z[j];
    }
    b->r++;
  }
  return NSED_OK;
}

/* The sticks' friction margins at forces f (the law's own: the polygon's
 * or the circle's), relative to fscale, sorted ascending into out; their
 * number. */
static int sorted_friction_margins(const nsed_model *m, const nsed_data *d, const scope *sc, const double *f,
                                   double *out) {
  int n = 0;
  for (int i = 0; i < sc->n; i++) {
    int c = sc->list[i];
    if (d->ph.mode[c] != NSED_MODE_STICK || m->contact[c].def.law != NSED_CONTACT_COULOMB) continue;
    const double *l = f + 3 * c;
    double v = nsedi_friction_margin(&m->opt, m->contact[c].def.mu0, l[0], l[1], l[2]) / sc->fscale;
    int k = n++;
    for (; k > 0 && out[k - 1] > v; k--) out[k] = out[k - 1];
    out[k] = v;
  }
  return n;
}

/* Is a deeper than b lexicographically: at the first of their sorted
 * margins that differ by more than tol, a's larger? */
static int lex_deeper(int n, const double *a, const double *b, double tol) {
  for (int k = 0; k < n; k++)
    if (fabs(a[k] - b[k]) > tol) return a[k] > b[k];
  return 0;
}

/* What the program resolves, relative to fscale: GLPK's tolerance
 * (NSEDI_ANCHOR_LP_GAIN), and on the cone the inscribed polygon's distance
 * from the circle, mu0 lambda_n (1 - cos(pi/NSEDI_ANCHOR_LP_SIDES)) at the
 * largest load: within it the polygon's order of two shares need not be
 * the circle's. */
static double lp_resolution(const nsed_model *m, const nsed_data *d, const scope *sc, const double *f) {
  double tol = NSEDI_ANCHOR_LP_GAIN;
  if (m->opt.friction.model != NSED_FRICTION_EXACT_CONE) return tol;
  for (int i = 0; i < sc->n; i++) {
    int c = sc->list[i];
    if (d->ph.mode[c] != NSED_MODE_STICK) continue;
    double load = m->contact[c].def.mu0 * f[3 * c] / sc->fscale;
    tol = fmax(tol, load * (1 - cos(M_PI / NSEDI_ANCHOR_LP_SIDES)));
  }
  return tol;
}

/* The climbed anchor's friction shares deepened (above): the program's
 * answer replaces them where its sorted friction margins are
 * lexicographically deeper than the climbed ones beyond the program's
 * resolution (lp_resolution).
 * The caches end evaluated with the anchor. */
static int deepen(const nsed_model *m, nsed_data *d, const scope *sc, double *climbed, nsed_error *err) {
  size_t n3 = 3 * (size_t)m->ncontact;
  lp_build b = {0};
  b.fscale = sc->fscale;
  memcpy(climbed, d->ph.force_anchor, sizeof(double) * n3);
  int rc = lp_alloc(m, d, sc, &b);
  if (rc) {
    lp_free(&b);
    return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory (the redundant forces' anchor)");
  }
  memcpy(b.x, climbed, sizeof(double) * n3);
  rc = b.q > 0 ? null_basis(m, d, &b, err) : NSED_OK;
  int moved = 0;
  if (rc == NSED_OK && b.r > 0) {
    lp_rows(m, d, sc, &b);
    if (nsedi_maxmin_lp(b.nm, b.r, b.A, b.cv, b.eq, 1.0, b.y) == 0) {
      memcpy(d->ph.force_anchor, climbed, sizeof(double) * n3);
      for (int k = 0; k < b.q; k++) {
        double v = 0;
        for (int col = 0; col < b.r; col++) v += b.Z[(size_t)col * b.q + k] * b.y[col];
        d->ph.force_anchor[b.comp[k]] += b.fscale * v;
      }
      rc = nsedi_eval(m, d, d->t, d->x, NULL, err);
      /* the program's rows are spent: their room holds the two sorted lists */
      double *before = b.A, *after = b.A + b.cap;
      int n = sorted_friction_margins(m, d, sc, climbed, before);
      sorted_friction_margins(m, d, sc, d->cache.lambda_c, after);
      moved = rc == NSED_OK && lex_deeper(n, after, before, lp_resolution(m, d, sc, climbed));
      if (moved) memcpy(d->ph.force_anchor, d->cache.lambda_c, sizeof(double) * n3);
    }
  }
  lp_free(&b);
  if (!moved) memcpy(d->ph.force_anchor, climbed, sizeof(double) * n3);
  if (rc) return rc;
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
  rc = climb(m, d, &sc, err);
  if (rc) return rc;
  double *climbed = malloc(sizeof(double) * 3 * (size_t)nc);
  if (!climbed) return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory (the redundant forces' anchor)");
  rc = deepen(m, d, &sc, climbed, err);
  free(climbed);
  return rc;
}
