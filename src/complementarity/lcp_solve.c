/* The LCP paths. AUTO tries, in order, stopping at the first answer that
 * passes nsed's own verification (residual <= settings.tol):
 *   trivial (q >= 0: z = 0)
 *   nsed's Lemke (+ polish)   -> "nsed-lemke"
 *   Siconos' Lemke (+ polish, at most NSEDI_SICONOS_PIVOTS_PER_UNKNOWN
 *     pivots per unknown) -> "siconos-lemke"
 *   nsed's Lemke on M + eps I, eps = NSEDI_LCP_REG_EPS (relative to max|M_ij|),
 *     its support re-solved on the original M (polish), or the perturbed
 *     answer where it is the better one of M -> "nsed-lemke+reg"
 *   enumeration for n <= 16   -> "enum"
 *   above, a mixed-integer search (not on the face form's LCP, whose
 *     fallback is the vertex form)  -> "milp"
 * and otherwise fails clearly: NSED_LCP_INFEASIBLE when nsed's Lemke ended on
 * a secondary ray and no later path found a solution (for n <= 16 the
 * enumeration proves it), NSED_ERR_LCP with every attempt's outcome. The
 * forced paths run one method (still verified). */
#include "cp_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { P_NONE, P_EMPTY, P_TRIVIAL, P_SICONOS, P_NSED, P_REG, P_ENUM, P_MILP, P_COUNT };

/* stats->path must be a static string: one per (formulation, method). */
static const char *const path_names[4][P_COUNT] = {
    {"none", "empty", "trivial", "siconos-lemke", "nsed-lemke", "nsed-lemke+reg", "enum", "milp"},
    {"face/none", "face/empty", "face/trivial", "face/siconos-lemke", "face/nsed-lemke",
     "face/nsed-lemke+reg", "face/enum", "face/milp"},
    {"vertex/none", "vertex/empty", "vertex/trivial", "vertex/siconos-lemke", "vertex/nsed-lemke",
     "vertex/nsed-lemke+reg", "vertex/enum", "vertex/milp"},
    {"face-as-vertex/none", "face-as-vertex/empty", "face-as-vertex/trivial",
     "face-as-vertex/siconos-lemke", "face-as-vertex/nsed-lemke", "face-as-vertex/nsed-lemke+reg",
     "face-as-vertex/enum", "face-as-vertex/milp"},
};

/* The observer's names of the formulations, in path_names' order. */
static const char *const form_names[4] = {"lcp", "face", "vertex", "face-as-vertex"};

static const char *outcome_name(int st) {
  switch (st) {
  case NSEDI_LCP_SOLVED: return "terminated";
  case NSEDI_LCP_RAY: return "secondary ray";
  case NSEDI_LCP_MAXPIV: return "pivot limit";
  case NSEDI_LCP_TOO_BIG: return "too large";
  default: return "library failure";
  }
}

static const char *milp_outcome_name(int st) {
  switch (st) {
  case NSEDI_LCP_SOLVED: return "found a pair";
  case NSEDI_LCP_RAY: return "no pair within its bound";
  case NSEDI_LCP_MAXPIV: return "pivot limit";
  case NSEDI_LCP_TIME_LIMIT: return "time limit";
  case NSEDI_LCP_UNAVAILABLE: return "not in this build (-Dglpk=disabled)";
  default: return "library failure";
  }
}

static void finish(nsed_lcp_stats *st, int form, int method, int pivots, double res) {
  st->path = path_names[form][method];
  st->pivots = pivots;
  st->residual = res;
}

/* The residual on M of the answer z of M + shift I, or INFINITY where the
 * shift moved w by more than tol ||q||. */
static double regularised_residual(nsedi_workspace *ws, int n, const double *M, const double *q, const double *z,
                                   double *w, double shift, double tol) {
  double zmax = 0.0, qs = 0.0;
  for (int i = 0; i < n; i++) {
    zmax = fmax(zmax, fabs(z[i]));
    qs = fmax(qs, fabs(q[i]));
  }
  if (!(shift * zmax <= tol * qs)) return INFINITY;
  return nsedi_lcp_residual(n, M, q, z, w, ws->cn);
}

int nsedi_lcp_run(nsed_contact_solver *s, int n, const double *M, const double *q, double *z,
                  double *w, nsed_lcp_stats *stats, int form, nsed_error *err) {
  nsedi_workspace *ws = &s->ws;
  const double tol = s->set.tol;
  const int maxp = s->set.max_pivots;
  const nsed_lcp_path path = s->set.path;
  stats->lcp_size = n;
  stats->siconos_failed = 0;
  finish(stats, form, P_NONE, 0, INFINITY);
  if (n == 0) {
    finish(stats, form, P_EMPTY, 0, 0.0);
    return NSED_OK;
  }
  if (!nsedi_all_finite((size_t)n * (size_t)n, M) || !nsedi_all_finite((size_t)n, q))
    return nsed_error_set(err, NSED_ERR_NONFINITE, "LCP of size %d has non-finite entries in M or q", n);
  int rc = nsedi_ws_reserve_lcp(ws, n);
  if (rc != NSED_OK) return nsed_error_set(err, rc, "out of memory for an LCP of size %d", n);
  if (s->observer && s->observer(s->observer_user, form_names[form], n, M, q) != 0)
    return nsed_error_set(err, NSED_ERR_IO, "the LCP observer failed on the %s LCP of size %d",
                          form_names[form], n);

  int trivial = 1;
  for (int i = 0; i < n; i++)
    if (q[i] < 0.0) trivial = 0;
  if (trivial && path != NSED_LCP_PATH_ENUM) {
    memset(z, 0, sizeof(double) * (size_t)n);
    finish(stats, form, P_TRIVIAL, 0, nsedi_lcp_residual(n, M, q, z, w, ws->cn));
    return NSED_OK;
  }

  int piv = 0, st_sic = -1, st_nsed = -1, st_reg = -1, st_enum = -1, st_milp = -1, tried = 0, nodes = 0;
  double r_sic = INFINITY, r_nsed = INFINITY, r_reg = INFINITY, r_milp = INFINITY, milp_bound = 0.0;

  /* nsed's Lemke goes first: on the random frictional LCPs of
   * bench/bench_lcp.c (face form, verified) it is the cheaper of the two at
   * every size, 0.95x Siconos' at 5 unknowns, 0.72x at 9, 0.11x at 108, and
   * solves every one of them where Siconos' fails up to 13 of 50
   * (docs/complementarity.md, "Which Lemke first"). */
  int auto_path = path == NSED_LCP_PATH_AUTO;
  if (auto_path || path == NSED_LCP_PATH_NSED_LEMKE) {
    st_nsed = nsedi_lemke(ws, n, M, q, z, w, maxp, &piv);
    r_nsed = nsedi_lcp_residual(n, M, q, z, w, ws->cn);
    if (st_nsed == NSEDI_LCP_SOLVED && r_nsed > tol) r_nsed = nsedi_lcp_polish(ws, n, M, q, z, w, r_nsed);
    if (st_nsed == NSEDI_LCP_SOLVED && r_nsed <= tol) {
      finish(stats, form, P_NSED, piv, r_nsed);
      return NSED_OK;
    }
  }
  if (auto_path || path == NSED_LCP_PATH_SICONOS_LEMKE) {
    /* Siconos only reads M and q (it copies them into its tableau). The
     * AUTO path's cap bounds a run that cycles
     * (NSEDI_SICONOS_PIVOTS_PER_UNKNOWN); the basis it stops on is judged
     * like any other answer. */
    int cap = auto_path && n <= maxp / NSEDI_SICONOS_PIVOTS_PER_UNKNOWN ? NSEDI_SICONOS_PIVOTS_PER_UNKNOWN * n
                                                                          : maxp;
    st_sic = nsedi_siconos_lemke(s->sic, n, (double *)M, (double *)q, z, w, cap, &piv);
    r_sic = nsedi_lcp_residual(n, M, q, z, w, ws->cn);
    if (st_sic == NSEDI_LCP_SOLVED && r_sic > tol) r_sic = nsedi_lcp_polish(ws, n, M, q, z, w, r_sic);
    if (r_sic <= tol) {
      finish(stats, form, P_SICONOS, piv, r_sic);
      return NSED_OK;
    }
    stats->siconos_failed = 1;
  }
  if (path == NSED_LCP_PATH_AUTO) {
    /* Bounded regularised retries: M + eps I is better conditioned (Moby and
     * Drake do the same); the support found is then re-solved on M itself, so
     * the accepted answer solves the original problem, not the perturbed one. */
    double mmax = 0.0;
    for (size_t k = 0; k < (size_t)n * (size_t)n; k++) mmax = fmax(mmax, fabs(M[k]));
    static const double eps_rel[] = NSEDI_LCP_REG_EPS;
    for (int t = 0; t < (int)(sizeof eps_rel / sizeof eps_rel[0]); t++) {
      memcpy(ws->Mw, M, sizeof(double) * (size_t)n * (size_t)n);
      for (int i = 0; i < n; i++) ws->Mw[(size_t)i * n + i] += eps_rel[t] * (mmax > 0.0 ? mmax : 1.0);
      int p2 = 0;
      st_reg = nsedi_lemke(ws, n, ws->Mw, q, z, w, maxp, &p2);
      piv += p2;
      if (st_reg != NSEDI_LCP_SOLVED) continue;
      /* Re-solved on the original support. The perturbed answer itself is
       * kept where it is the better answer of M and the perturbation moved
       * w by at most tol ||q||: an answer "at infinity" of an infeasible
       * LCP is not (its z grows as 1/eps), and on a support whose rows are
       * nearly dependent the exact re-solve amplifies round-off where the
       * perturbed answer does not (docs/complementarity.md, "Regularised
       * answers on nearly dependent supports"). */
      r_reg = nsedi_lcp_polish(ws, n, M, q, z, w, regularised_residual(ws, n, M, q, z, w, eps_rel[t] * mmax, tol));
      if (r_reg <= tol) {
        finish(stats, form, P_REG, piv, r_reg);
        return NSED_OK;
      }
    }
  }
  if (path == NSED_LCP_PATH_AUTO || path == NSED_LCP_PATH_ENUM) {
    st_enum = nsedi_enum(ws, n, M, q, z, w, tol, &tried);
    if (st_enum == NSEDI_LCP_SOLVED) {
      finish(stats, form, P_ENUM, tried, nsedi_lcp_residual(n, M, q, z, w, ws->cn));
      return NSED_OK;
    }
  }
  /* Not on the face form's LCP: where it fails, the same polygon in vertex
   * form follows (contact_solver.c), and the last resort runs there once. */
  if ((path == NSED_LCP_PATH_AUTO && st_enum == NSEDI_LCP_TOO_BIG && form != NSEDI_FORM_FACE) ||
      path == NSED_LCP_PATH_MILP) {
    /* Bounds from small to large, the time shared evenly: a small bound
     * keeps the search short where the answer is of the problem's scale,
     * a larger one reaches pairs that load dependent contacts against
     * each other (NSEDI_LCP_MILP_BOUNDS). */
    static const double bounds[] = NSEDI_LCP_MILP_BOUNDS;
    const int nb = (int)(sizeof bounds / sizeof bounds[0]);
    for (int k = 0; k < nb && st_milp != NSEDI_LCP_UNAVAILABLE; k++) {
      int rung_nodes = 0;
      st_milp = nsedi_lcp_milp(ws, n, M, q, z, w, bounds[k], NSEDI_LCP_MILP_TIME_MS / nb, maxp, &rung_nodes);
      nodes += rung_nodes;
      milp_bound = bounds[k];
      if (st_milp != NSEDI_LCP_SOLVED) continue;
      r_milp = nsedi_lcp_residual(n, M, q, z, w, ws->cn);
      if (r_milp > tol) r_milp = nsedi_lcp_polish(ws, n, M, q, z, w, r_milp);
      if (r_milp <= tol) {
        finish(stats, form, P_MILP, nodes, r_milp);
        return NSED_OK;
      }
    }
  }
  /* No verified answer: leave z = 0 rather than a wrong candidate. */
  memset(z, 0, sizeof(double) * (size_t)n);
  (void)nsedi_lcp_residual(n, M, q, z, w, ws->cn);
  stats->pivots = piv;
  ws->infeasible_proven = st_enum == NSEDI_LCP_RAY;
  int infeasible = st_enum == NSEDI_LCP_RAY ||
                   (st_enum != NSEDI_LCP_SOLVED && st_nsed == NSEDI_LCP_RAY &&
                    (st_reg == -1 || st_reg == NSEDI_LCP_RAY));
  char buf[640];
  snprintf(buf, sizeof buf,
           "siconos-lemke: %s, residual %.3g; nsed-lemke: %s, residual %.3g; regularised: %s, "
           "residual %.3g; enumeration: %s (%d bases); mixed-integer: %s (%d nodes, bound %g), residual %.3g",
           st_sic < 0 ? "not tried" : outcome_name(st_sic), r_sic,
           st_nsed < 0 ? "not tried" : outcome_name(st_nsed), r_nsed,
           st_reg < 0 ? "not tried" : outcome_name(st_reg), r_reg,
           st_enum < 0 ? "not tried" : (st_enum == NSEDI_LCP_RAY ? "no solution" : outcome_name(st_enum)),
           tried, st_milp < 0 ? "not tried" : milp_outcome_name(st_milp), nodes, milp_bound, r_milp);
  if (st_enum == NSEDI_LCP_RAY)
    return nsed_error_set(err, NSED_LCP_INFEASIBLE,
                          "LCP of size %d has no solution (%s; tolerance %.3g)", n, buf, tol);
  if (infeasible) /* Lemke's ray proves it for a copositive-plus M only */
    return nsed_error_set(err, NSED_LCP_INFEASIBLE,
                          "LCP of size %d: no solution found, nsed's Lemke ended on a secondary ray "
                          "(a proof of infeasibility only where M is copositive-plus) (%s; tolerance %.3g)",
                          n, buf, tol);
  return nsed_error_set(err, NSED_ERR_LCP, "LCP of size %d not solved within tolerance %.3g (%s)", n,
                        tol, buf);
}
