/* The contact solver object: settings, the acceleration and impact
 * drivers (validate -> choose the formulation -> solve -> a = G lambda + b ->
 * decide the modes) and the plain-LCP entry point.
 *
 * Mode rules (docs/complementarity.md §5), with scale-aware tolerances
 * tol_l = NSEDI_CP_MODE_TOL ||lambda||_inf and
 * tol_a = NSEDI_CP_MODE_TOL max(||b||_inf, max|G_ij| ||lambda||_inf):
 *  - OPEN when the contact separates: acceleration problem lambda_n <= tol_l and
 *    a_n > tol_a; impact problem v_n+ > tol_a (it bounces or leaves);
 *  - otherwise closed: a SLIPPING contact stays SLIP with its slip direction; a
 *    stick candidate is STICK if |a_T| <= tol_a, else SLIP with slip_dir =
 *    a_T/|a_T| (the direction slip starts in); a frictionless closed contact is
 *    SLIP (no tangential constraint) with slip_dir the direction of a_T, or 0.
 * Torsional rows (§11) follow their contact: OPEN when it opens; a SLIPPING
 * one stays SLIP with its sign; a stick candidate is STICK if |a_w| is within
 * NSEDI_CP_MODE_TOL of its own row's scale (moments and spin accelerations
 * have other units than forces and accelerations), else SLIP with
 * sign(a_w); a frictionless one SLIP with sign(a_w), or 0. */
#include "cp_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nsed_complementarity_default_settings(nsed_complementarity_settings *s) {
  if (!s) return;
  s->model = NSED_FRICTION_POLYGON_FACE;
  s->sides = 8;
  s->path = NSED_LCP_PATH_AUTO;
  s->tol = 1e-9;
  s->max_pivots = 10000;
  s->cone_tol = 1e-12;
}

static int check_settings(const nsed_complementarity_settings *s, nsed_error *err) {
  if ((int)s->model < 0 || s->model > NSED_FRICTION_EXACT_CONE)
    return nsed_error_set(err, NSED_ERR_INPUT, "friction model %d unknown", (int)s->model);
  if (s->sides < 4 || s->sides % 4 != 0 || s->sides > 4096)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "polygon sides %d invalid: a multiple of 4 in [4, 4096] (4 n*)", s->sides);
  if ((int)s->path < 0 || s->path > NSED_LCP_PATH_MILP)
    return nsed_error_set(err, NSED_ERR_INPUT, "LCP path %d unknown", (int)s->path);
  if (!(s->tol > 0.0 && s->tol < 1.0))
    return nsed_error_set(err, NSED_ERR_INPUT, "LCP tolerance %g invalid: must be in (0, 1)", s->tol);
  if (s->max_pivots < 1)
    return nsed_error_set(err, NSED_ERR_INPUT, "max_pivots %d invalid: must be >= 1", s->max_pivots);
  if (!(s->cone_tol > 0.0 && s->cone_tol < 1.0))
    return nsed_error_set(err, NSED_ERR_INPUT, "cone tolerance %g invalid: must be in (0, 1)", s->cone_tol);
  return NSED_OK;
}

/* The direction tables of an m-sided polygon (nsedi_polygon_dirs). */
static int polygon_dirs(nsedi_polygon_dirs *d, int m) {
  double *all = malloc(sizeof(double) * 12 * (size_t)m);
  if (!all) return NSED_ERR_NOMEM;
  d->at = all;
  d->shifted = all + 2 * m;
  const double h = 2.0 * M_PI / m;
  for (int k = 0; k < 2; k++) {
    d->check[k] = all + (4 + 4 * k) * (size_t)m;
    d->check_mid[k] = all + (6 + 4 * k) * (size_t)m;
  }
  for (int j = 0; j < m; j++) {
    double th = 2.0 * M_PI * j / m, ph = M_PI / m + 2.0 * M_PI * j / m;
    d->at[2 * j] = cos(th), d->at[2 * j + 1] = sin(th);
    d->shifted[2 * j] = cos(ph), d->shifted[2 * j + 1] = sin(ph);
    for (int k = 0; k < 2; k++) {
      double off = k ? M_PI / m : 0.0;
      d->check[k][2 * j] = cos(off + j * h), d->check[k][2 * j + 1] = sin(off + j * h);
      d->check_mid[k][2 * j] = cos(off + (j + 0.5) * h), d->check_mid[k][2 * j + 1] = sin(off + (j + 0.5) * h);
    }
  }
  d->check_half = cos(h / 2);
  return NSED_OK;
}

int nsed_contact_solver_create(const nsed_complementarity_settings *s, int max_contacts,
                               nsed_contact_solver **out, nsed_error *err) {
  if (!out) return nsed_error_set(err, NSED_ERR_INPUT, "contact solver: out is NULL");
  *out = NULL;
  nsed_complementarity_settings def;
  nsed_complementarity_default_settings(&def);
  if (!s) s = &def;
  int rc = check_settings(s, err);
  if (rc != NSED_OK) return rc;
  if (max_contacts < 0)
    return nsed_error_set(err, NSED_ERR_INPUT, "max_contacts %d is negative", max_contacts);
  nsed_contact_solver *cs = calloc(1, sizeof *cs);
  if (!cs) return nsed_error_set(err, NSED_ERR_NOMEM, "out of memory for the contact solver");
  cs->set = *s;
  rc = polygon_dirs(&cs->dirs, s->sides);
  if (rc == NSED_OK) rc = nsedi_ws_reserve_contacts(&cs->ws, max_contacts > 0 ? max_contacts : 1, 0, s->sides);
  if (rc == NSED_OK) rc = nsedi_siconos_create(&cs->sic);
  if (rc != NSED_OK) {
    nsed_contact_solver_free(&cs);
    return nsed_error_set(err, rc, "out of memory for a contact solver of %d contacts", max_contacts);
  }
  *out = cs;
  return NSED_OK;
}

void nsed_contact_solver_set_lcp_observer(nsed_contact_solver *s, nsed_lcp_observer fn, void *user) {
  if (!s) return;
  s->observer = fn;
  s->observer_user = fn ? user : NULL;
}

void nsed_contact_solver_free(nsed_contact_solver **s) {
  if (!s || !*s) return;
  nsedi_siconos_free(&(*s)->sic);
  nsedi_fc3d_free(&(*s)->fc);
  nsedi_ws_free(&(*s)->ws);
  free((*s)->dirs.at);
  free(*s);
  *s = NULL;
}

static int check_problem(const nsed_contact_problem *p, const nsed_contact_solution *sol, int impact,
                         nsed_error *err) {
  if (!p || !sol) return nsed_error_set(err, NSED_ERR_INPUT, "contact problem or solution is NULL");
  if (p->nc < 0) return nsed_error_set(err, NSED_ERR_INPUT, "number of contacts %d is negative", p->nc);
  if (p->nw < 0)
    return nsed_error_set(err, NSED_ERR_INPUT, "number of torsional rows (spins) %d is negative", p->nw);
  if (p->nc == 0 && p->nw == 0) return NSED_OK;
  if (p->nc == 0)
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "%d torsional rows (spins) but no contacts: each is bounded by a contact's "
                          "normal force", p->nw);
  if (!p->G || !p->b || !p->contacts)
    return nsed_error_set(err, NSED_ERR_INPUT, "contact problem of %d contacts: G, b or contacts is NULL", p->nc);
  if (!sol->lambda || !sol->a || !sol->mode || !sol->slip_dir)
    return nsed_error_set(err, NSED_ERR_INPUT, "contact solution arrays must not be NULL");
  if (p->nw > 0 && !p->spins)
    return nsed_error_set(err, NSED_ERR_INPUT, "contact problem of %d torsional rows: spins is NULL", p->nw);
  if (p->nw > 0 && (!sol->spin_mode || !sol->spin_sign))
    return nsed_error_set(err, NSED_ERR_INPUT,
                          "contact solution for %d torsional rows: spin_mode or spin_sign is NULL", p->nw);
  size_t n3 = 3 * (size_t)p->nc, ng = n3 + (size_t)p->nw;
  for (size_t j = 0; j < ng; j++)
    for (size_t i = 0; i < ng; i++)
      if (!isfinite(p->G[j * ng + i])) {
        if (i >= n3 || j >= n3)
          return nsed_error_set(err, NSED_ERR_NONFINITE, "G(%zu,%zu) = %g (spin %zu's %s) is not finite",
                                i, j, p->G[j * ng + i], (i >= n3 ? i : j) - n3, i >= n3 ? "row" : "column");
        return nsed_error_set(err, NSED_ERR_NONFINITE, "G(%zu,%zu) = %g is not finite", i, j, p->G[j * ng + i]);
      }
  for (size_t i = 0; i < ng; i++)
    if (!isfinite(p->b[i])) {
      if (i >= n3)
        return nsed_error_set(err, NSED_ERR_NONFINITE, "b(%zu) = %g (spin %zu) is not finite", i, p->b[i],
                              i - n3);
      return nsed_error_set(err, NSED_ERR_NONFINITE, "b(%zu) = %g is not finite", i, p->b[i]);
    }
  for (int i = 0; i < p->nc; i++) {
    const nsed_cp_contact *c = &p->contacts[i];
    if ((int)c->kind < 0 || c->kind > NSED_CP_FRICTIONLESS)
      return nsed_error_set(err, NSED_ERR_INPUT, "contact %d: kind %d unknown", i, (int)c->kind);
    if (!(c->mu >= 0.0 && isfinite(c->mu)) || !(c->mu0 >= 0.0 && isfinite(c->mu0)))
      return nsed_error_set(err, NSED_ERR_INPUT,
                            "contact %d: friction coefficients mu = %g, mu0 = %g must be finite and >= 0",
                            i, c->mu, c->mu0);
    if (c->kind == NSED_CP_SLIPPING) {
      double s = hypot(c->slip_dir[0], c->slip_dir[1]);
      if (!(fabs(s - 1.0) <= NSEDI_CP_UNIT_TOL))
        return nsed_error_set(err, NSED_ERR_INPUT,
                              "contact %d: slip direction (%g, %g) is not a unit vector", i,
                              c->slip_dir[0], c->slip_dir[1]);
    }
    if (impact && !(c->restitution >= 0.0 && c->restitution <= 1.0))
      return nsed_error_set(err, NSED_ERR_INPUT, "contact %d: restitution %g not in [0, 1]", i,
                            c->restitution);
  }
  for (int k = 0; k < p->nw; k++) {
    const nsed_cp_spin *w = &p->spins[k];
    if (w->contact < 0 || w->contact >= p->nc)
      return nsed_error_set(err, NSED_ERR_INPUT, "spin %d: contact %d out of range [0, %d)", k, w->contact,
                            p->nc);
    if ((int)w->kind < 0 || w->kind > NSED_CP_FRICTIONLESS)
      return nsed_error_set(err, NSED_ERR_INPUT, "spin %d: kind %d unknown", k, (int)w->kind);
    if (!(w->mu >= 0.0 && isfinite(w->mu)))
      return nsed_error_set(err, NSED_ERR_INPUT,
                            "spin %d: torsional friction coefficient mu = %g must be finite and >= 0", k,
                            w->mu);
    /* the kinetic moment is -mu lambda_n sign: any other magnitude would be a
     * different friction law, so the sign is exact, not normalised */
    if (w->kind == NSED_CP_SLIPPING && !(w->sign == 1.0 || w->sign == -1.0))
      return nsed_error_set(err, NSED_ERR_INPUT, "spin %d: SLIPPING needs sign +1 or -1, not %g", k,
                            w->sign);
  }
  return NSED_OK;
}

/* The coefficient torsional row k's moment is bounded with in this solve:
 * mu while it carries a moment, 0 when it carries none (its lambda_w = 0). */
static double spin_mu(const nsedi_cp *p, int k) {
  int kd = p->wkind[k];
  return kd == NSED_CP_STICK_CANDIDATE || kd == NSED_CP_SLIPPING ? p->w[k].mu : 0.0;
}

/* Moment scale of torsional row k given the force scale fs: its moment, or
 * what the friction bound allows at that force, whichever is larger. */
static double spin_moment_scale(const nsedi_cp *p, const double *lam, int k, double fs) {
  return fmax(fabs(lam[3 * p->nc + k]), spin_mu(p, k) * fs);
}

/* The largest share of the torsional columns in one contact row,
 * max_i sum_k |G_i,w_k| (moment scale of k): it is 0 without moments, so
 * the contacts' scales are then exactly what they were without torsional
 * rows. */
static double torsion_share(const nsedi_cp *p, const double *lam, double fs) {
  const size_t n3 = 3 * (size_t)p->nc, ng = n3 + (size_t)p->nw;
  double worst = 0.0;
  for (size_t i = 0; i < n3; i++) {
    double sum = 0.0;
    for (int k = 0; k < p->nw; k++) {
      double ms = spin_moment_scale(p, lam, k, fs);
      if (ms > 0.0) sum += fabs(p->G[(n3 + (size_t)k) * ng + i]) * ms;
    }
    worst = fmax(worst, sum);
  }
  return worst;
}

/* Acceleration scale of torsional row k (units of a_w, not of a_n): |b_w|
 * or what the unknowns' scales put into the row, sum_j |G_wj| (scale of j),
 * force scale fs for force columns and the moment scale for torsional ones.
 * A row's own scale, so that a small moment row is not judged by the force
 * rows' round-off nor a large one by theirs. */
static double spin_accel_scale(const nsedi_cp *p, const double *b, const double *lam, int k, double fs) {
  const size_t n3 = 3 * (size_t)p->nc, ng = n3 + (size_t)p->nw, R = n3 + (size_t)k;
  double sum = 0.0;
  for (size_t j = 0; j < n3; j++) sum += fabs(p->G[j * ng + R]) * fs;
  for (int l = 0; l < p->nw; l++) sum += fabs(p->G[(n3 + (size_t)l) * ng + R]) * spin_moment_scale(p, lam, l, fs);
  return fmax(fabs(b[R]), sum);
}

static void decide_modes(const nsedi_cp *p, const double *b, int impact, nsed_contact_solution *sol) {
  const int nc = p->nc, n3 = 3 * nc;
  const size_t ng = (size_t)n3 + (size_t)p->nw;
  double lmax = 0.0, gmax = 0.0, bmax = 0.0;
  for (int i = 0; i < n3; i++) lmax = fmax(lmax, fabs(sol->lambda[i]));
  for (size_t j = 0; j < (size_t)n3; j++)
    for (size_t i = 0; i < (size_t)n3; i++) gmax = fmax(gmax, fabs(p->G[j * ng + i]));
  for (int i = 0; i < n3; i++) bmax = fmax(bmax, fabs(b[i]));
  double tol_l = NSEDI_CP_MODE_TOL * lmax,
         tol_a = NSEDI_CP_MODE_TOL * fmax(fmax(bmax, gmax * lmax), torsion_share(p, sol->lambda, lmax));
  for (int i = 0; i < nc; i++) {
    double ln = sol->lambda[3 * i], an = sol->a[3 * i];
    double at1 = sol->a[3 * i + 1], at2 = sol->a[3 * i + 2], at = hypot(at1, at2);
    double *sd = sol->slip_dir + 2 * i;
    sd[0] = sd[1] = 0.0;
    int open = impact ? an > tol_a : (ln <= tol_l && an > tol_a);
    if (open) {
      sol->mode[i] = NSED_CP_OPEN;
    } else if (p->kind[i] == NSED_CP_SLIPPING) {
      sol->mode[i] = NSED_CP_SLIP;
      sd[0] = p->c[i].slip_dir[0];
      sd[1] = p->c[i].slip_dir[1];
    } else if (p->kind[i] == NSED_CP_STICK_CANDIDATE && at <= tol_a) {
      sol->mode[i] = NSED_CP_STICK;
    } else {
      sol->mode[i] = NSED_CP_SLIP;
      if (at > tol_a) {
        sd[0] = at1 / at;
        sd[1] = at2 / at;
      }
    }
  }
  for (int k = 0; k < p->nw; k++) {
    double aw = sol->a[n3 + k];
    sol->spin_sign[k] = 0.0;
    if (sol->mode[p->w[k].contact] == NSED_CP_OPEN) {
      sol->spin_mode[k] = NSED_CP_OPEN;
    } else if (p->wkind[k] == NSED_CP_SLIPPING) {
      sol->spin_mode[k] = NSED_CP_SLIP;
      sol->spin_sign[k] = p->w[k].sign;
    } else {
      double tol_w = NSEDI_CP_MODE_TOL * spin_accel_scale(p, b, sol->lambda, k, lmax);
      if (p->wkind[k] == NSED_CP_STICK_CANDIDATE && fabs(aw) <= tol_w) {
        sol->spin_mode[k] = NSED_CP_STICK;
      } else {
        sol->spin_mode[k] = NSED_CP_SLIP;
        if (fabs(aw) > tol_w) sol->spin_sign[k] = aw > 0.0 ? 1.0 : -1.0;
      }
    }
  }
}

/* a = G lambda + b */
static void apply_G(int n, const double *G, const double *b, const double *lam, double *a) {
  for (int r = 0; r < n; r++) a[r] = b[r];
  for (int j = 0; j < n; j++) {
    double l = lam[j];
    if (l == 0.0) continue;
    const double *g = G + (size_t)j * n;
    for (int r = 0; r < n; r++) a[r] += g[r] * l;
  }
}

/* Independent check of a polygon solution against the contact laws
 * themselves (not the LCP it came from: the face form's elimination through
 * G_TT^-1 can amplify round-off that the LCP residual does not see). sides
 * faces with normals at off + 2 pi j/m at distance rad (per unit mu lambda_n).
 * Returns 1 if lambda_n >= 0, a_n >= 0 (bn: the complementarity b), lambda_n
 * a_n = 0, lambda_T in the polygon and, for a slipping stick candidate,
 * maximal dissipation hold to NSEDI_CP_LAW_TOL of the problem's scales; and
 * for each torsional stick candidate |lambda_w| <= mu lambda_n and maximal
 * dissipation -a_w lambda_w >= mu lambda_n |a_w|, to NSEDI_CP_LAW_TOL of
 * that row's own moment and acceleration scales. */
static int laws_hold(const nsedi_cp *p, const double *lam, const double *a, const nsedi_polygon_dirs *dirs,
                     int sides, int shifted, double rad) {
  const int nc = p->nc, n3 = 3 * nc;
  const size_t ng = (size_t)n3 + (size_t)p->nw;
  double lmax = 0.0, gmax = 0.0, bmax = 0.0;
  for (int i = 0; i < n3; i++) lmax = fmax(lmax, fabs(lam[i])), bmax = fmax(bmax, fabs(p->b[i]));
  for (size_t j = 0; j < (size_t)n3; j++)
    for (size_t i = 0; i < (size_t)n3; i++) gmax = fmax(gmax, fabs(p->G[j * ng + i]));
  /* force scale: at least what b needs (b / G), so round-off on an
   * all-but-zero lambda is not judged against lambda itself */
  double lref = fmax(lmax, gmax > 0.0 ? bmax / gmax : 0.0);
  double as = fmax(fmax(bmax, gmax * lref), torsion_share(p, lam, lref));
  double tl = NSEDI_CP_LAW_TOL * lref, ta = NSEDI_CP_LAW_TOL * as;
  const double *face = dirs->check[shifted], *vertex = dirs->check_mid[shifted];
  for (int i = 0; i < nc; i++) {
    double ln = lam[3 * i], an = a[3 * i];
    if (!(ln >= -tl && an >= -ta)) return 0;
    if (ln > tl && an > ta && fmin(ln / lref, an / as) > NSEDI_CP_LAW_TOL) return 0;
    if (p->kind[i] != NSED_CP_STICK_CANDIDATE) continue;
    double l1 = lam[3 * i + 1], l2 = lam[3 * i + 2], a1 = a[3 * i + 1], a2 = a[3 * i + 2];
    double lim = p->mu[i] * ln * rad + tl, hmax = 0.0;
    for (int j = 0; j < sides; j++) {
      double c = face[2 * j], s = face[2 * j + 1];
      if (c * l1 + s * l2 > lim) return 0;
      /* support of the polygon in direction -a_T: at its vertices */
      double vr = p->mu[i] * ln * rad / dirs->check_half, vc = vertex[2 * j], vs = vertex[2 * j + 1];
      hmax = fmax(hmax, -vr * (vc * a1 + vs * a2));
    }
    if (-(a1 * l1 + a2 * l2) < hmax - NSEDI_CP_LAW_TOL * lref * as) return 0;
  }
  for (int k = 0; k < p->nws; k++) {
    const int w = p->wstick[k];
    const double mu = p->w[w].mu, ln = lam[3 * p->w[w].contact], lw = lam[n3 + w], aw = a[n3 + w];
    const double ms = spin_moment_scale(p, lam, w, lref), aws = spin_accel_scale(p, p->b, lam, w, lref);
    if (!(fabs(lw) <= mu * ln + NSEDI_CP_LAW_TOL * ms)) return 0;
    /* the interval's support in direction -a_w is mu lambda_n |a_w| */
    if (!(-aw * lw >= mu * ln * fabs(aw) - NSEDI_CP_LAW_TOL * ms * aws)) return 0;
  }
  return 1;
}

/* One polygon formulation (0 face, 1 circumscribed polygon in vertex form,
 * 2 inscribed vertex form), its answer checked against the laws; an answer
 * that passed the LCP check but not the laws (ill-conditioning) is re-solved
 * once by nsed's Lemke alone before giving up with NSED_ERR_LCP. */
static int polygon_checked(nsed_contact_solver *s, const nsedi_cp *p, int form, double *lambda,
                           nsed_lcp_stats *stats, nsed_error *err) {
  const int m = s->set.sides, ng = 3 * p->nc + p->nw;
  const int shifted = form == 2;
  const double rad = form == 2 ? cos(M_PI / m) : 1.0;
  const nsed_lcp_path saved = s->set.path;
  int rc = NSED_OK;
  char first[160] = ""; /* the first attempt's law failure, kept for the final message */
  for (int attempt = 0; attempt < 2; attempt++) {
    if (form == 0)
      rc = nsedi_face_solve(s, p, lambda, stats, err);
    else if (form == 1)
      rc = nsedi_vertex_solve(s, p, 1.0 / cos(M_PI / m), s->dirs.shifted, NSEDI_FORM_FACE_VIA_VERTEX, lambda,
                              stats, err);
    else
      rc = nsedi_vertex_solve(s, p, 1.0, s->dirs.at, NSEDI_FORM_VERTEX, lambda, stats, err);
    if (rc != NSED_OK) {
      if (first[0] && err) {
        char again[sizeof err->message];
        snprintf(again, sizeof again, "%s", err->message);
        nsed_error_set(err, rc, "%s; nsed's Lemke alone then: %s", first, again);
      }
      break;
    }
    apply_G(ng, p->G, p->b, lambda, s->ws.acc);
    if (laws_hold(p, lambda, s->ws.acc, &s->dirs, m, shifted, rad)) break;
    if (first[0])
      rc = nsed_error_set(err, NSED_ERR_LCP,
                          "%s; nsed's Lemke alone then: its answer (residual %.3g) violates them too",
                          first, stats->residual);
    else
      rc = nsed_error_set(err, NSED_ERR_LCP,
                          "%d contacts: the LCP answer (%s, residual %.3g) violates the contact laws",
                          p->nc, stats->path, stats->residual);
    if (s->set.path == NSED_LCP_PATH_NSED_LEMKE) break;
    snprintf(first, sizeof first, "the answer of %s (residual %.3g) violates the contact laws",
             stats->path, stats->residual);
    s->set.path = NSED_LCP_PATH_NSED_LEMKE;
  }
  s->set.path = saved;
  return rc;
}

static int solve_contacts(nsed_contact_solver *s, const nsed_contact_problem *pp, int impact,
                          nsed_contact_solution *sol, nsed_lcp_stats *stats, nsed_error *err) {
  nsed_lcp_stats dummy;
  if (!stats) stats = &dummy;
  memset(stats, 0, sizeof *stats);
  stats->path = "none";
  if (!s) return nsed_error_set(err, NSED_ERR_INPUT, "contact solver is NULL");
  int rc = check_problem(pp, sol, impact, err);
  if (rc != NSED_OK) return rc;
  int nc = pp->nc, nw = pp->nw, ng = 3 * nc + nw, m = s->set.sides;
  if (nc == 0) {
    stats->path = "empty";
    return NSED_OK;
  }
  rc = nsedi_ws_reserve_contacts(&s->ws, nc, nw, m);
  if (rc != NSED_OK)
    return nsed_error_set(err, rc, "out of memory for %d contacts and %d torsional rows", nc, nw);
  nsedi_workspace *ws = &s->ws;
  /* Effective kinds and coefficients. At impact every frictional contact is a
   * stick candidate at impulse level; a sliding one keeps its kinetic mu. */
  int ns = 0;
  for (int i = 0; i < nc; i++) {
    const nsed_cp_contact *c = &pp->contacts[i];
    int k = (int)c->kind;
    double mu = k == NSED_CP_STICK_CANDIDATE ? c->mu0 : (k == NSED_CP_SLIPPING ? c->mu : 0.0);
    if (impact && k == NSED_CP_SLIPPING) k = NSED_CP_STICK_CANDIDATE;
    if (mu == 0.0 && k == NSED_CP_STICK_CANDIDATE) k = NSED_CP_FRICTIONLESS;
    ws->kind[i] = k;
    ws->mu_eff[i] = mu;
    if (k == NSED_CP_STICK_CANDIDATE) ws->stick[ns++] = i;
  }
  /* The torsional rows the same way: one coefficient, used both ways. */
  int nws = 0, wcarry = 0;
  for (int k = 0; k < nw; k++) {
    const nsed_cp_spin *w = &pp->spins[k];
    int kd = (int)w->kind;
    if (impact && kd == NSED_CP_SLIPPING) kd = NSED_CP_STICK_CANDIDATE;
    if (w->mu == 0.0 && kd == NSED_CP_STICK_CANDIDATE) kd = NSED_CP_FRICTIONLESS;
    ws->wkind[k] = kd;
    if (kd == NSED_CP_STICK_CANDIDATE) ws->wstick[nws++] = k;
    if (kd == NSED_CP_STICK_CANDIDATE || (kd == NSED_CP_SLIPPING && w->mu > 0.0)) wcarry++;
  }
  /* Impact: normal complementarity on v_n+ + e v_n- = (G Lambda)_n + (1+e) b_n. */
  memcpy(ws->bmod, pp->b, sizeof(double) * (size_t)ng);
  if (impact)
    for (int i = 0; i < nc; i++) ws->bmod[3 * i] *= 1.0 + pp->contacts[i].restitution;
  nsedi_cp p = {.nc = nc, .G = pp->G, .b = ws->bmod, .c = pp->contacts, .kind = ws->kind,
                .mu = ws->mu_eff, .stick = ws->stick, .ns = ns, .nw = nw, .w = pp->spins,
                .wkind = ws->wkind, .wstick = ws->wstick, .nws = nws, .wcarry = wcarry};
  switch (s->set.model) {
  case NSED_FRICTION_POLYGON_FACE:
    if (wcarry > 0) {
      /* The face form eliminates G_TT, and a moment unknown would have to
       * join that elimination; the vertex form of the same circumscribed
       * polygon keeps every unknown and takes the interval as it is
       * (docs/complementarity.md §11). One rule for every moment. */
      rc = polygon_checked(s, &p, 1, sol->lambda, stats, err);
      break;
    }
    rc = polygon_checked(s, &p, 0, sol->lambda, stats, err);
    if (rc == NSED_ERR_SINGULAR || rc == NSED_ERR_LCP ||
        (rc == NSED_LCP_INFEASIBLE && !s->ws.infeasible_proven)) {
      /* G_TT not invertible (redundant contacts), the face LCP unsolved, its
       * answer failing the laws, or only Lemke's ray on it (no proof of
       * infeasibility: the face form's M is not copositive-plus; the
       * enumeration's is): the same circumscribed polygon in vertex form
       * keeps lambda_T as unknowns and inverts nothing. */
      int sic_failed = stats->siconos_failed;
      char face[sizeof err->message / 2] = "";
      if (err && rc != NSED_ERR_SINGULAR) { /* cut to half the message: room for the vertex form's */
        size_t len = strnlen(err->message, sizeof face - 1);
        memcpy(face, err->message, len);
        face[len] = '\0';
      }
      rc = polygon_checked(s, &p, 1, sol->lambda, stats, err);
      stats->siconos_failed |= sic_failed;
      if (rc != NSED_OK && face[0] && err) {
        char vertex[sizeof err->message];
        snprintf(vertex, sizeof vertex, "%s", err->message);
        nsed_error_set(err, rc, "face form: %s; the same polygon in vertex form: %s", face, vertex);
      }
    }
    break;
  case NSED_FRICTION_POLYGON_VERTEX:
    rc = polygon_checked(s, &p, 2, sol->lambda, stats, err);
    break;
  case NSED_FRICTION_EXACT_CONE:
    rc = nsedi_cone_solve(s, &p, sol->lambda, stats, err);
    /* No contact may stick: the cone is not involved, and the problem is
     * the normal rows' LCP, which the polygon path solves exactly, or
     * proves to have no solution. */
    if (rc == NSEDI_CONE_AS_LCP) rc = polygon_checked(s, &p, 2, sol->lambda, stats, err);
    break;
  }
  if (rc != NSED_OK) {
    memset(sol->lambda, 0, sizeof(double) * (size_t)ng);
    memcpy(sol->a, pp->b, sizeof(double) * (size_t)ng);
    for (int i = 0; i < nc; i++) {
      sol->mode[i] = NSED_CP_OPEN;
      sol->slip_dir[2 * i] = sol->slip_dir[2 * i + 1] = 0.0;
    }
    for (int k = 0; k < nw; k++) {
      sol->spin_mode[k] = NSED_CP_OPEN;
      sol->spin_sign[k] = 0.0;
    }
    return rc;
  }
  /* The true relative acceleration (post-impact velocity): G lambda + b. */
  apply_G(ng, pp->G, pp->b, sol->lambda, sol->a);
  decide_modes(&p, pp->b, impact, sol);
  return NSED_OK;
}

int nsed_contact_solve_accel(nsed_contact_solver *s, const nsed_contact_problem *p,
                             nsed_contact_solution *sol, nsed_lcp_stats *stats, nsed_error *err) {
  return solve_contacts(s, p, 0, sol, stats, err);
}

int nsed_contact_solve_impact(nsed_contact_solver *s, const nsed_contact_problem *p,
                              nsed_contact_solution *sol, nsed_lcp_stats *stats, nsed_error *err) {
  return solve_contacts(s, p, 1, sol, stats, err);
}

int nsed_lcp_solve(nsed_contact_solver *s, int n, const double *M, const double *q, double *z,
                   double *w, nsed_lcp_stats *stats, nsed_error *err) {
  nsed_lcp_stats dummy;
  if (!stats) stats = &dummy;
  memset(stats, 0, sizeof *stats);
  stats->path = "none";
  if (!s) return nsed_error_set(err, NSED_ERR_INPUT, "LCP solve: solver is NULL");
  if (n < 0) return nsed_error_set(err, NSED_ERR_INPUT, "LCP size %d is negative", n);
  if (n > 0 && (!M || !q || !z || !w))
    return nsed_error_set(err, NSED_ERR_INPUT, "LCP of size %d: M, q, z or w is NULL", n);
  int rc = nsedi_ws_reserve_lcp(&s->ws, n);
  if (rc != NSED_OK) return nsed_error_set(err, rc, "out of memory for an LCP of size %d", n);
  return nsedi_lcp_run(s, n, M, q, z, w, stats, NSEDI_FORM_PLAIN, err);
}
