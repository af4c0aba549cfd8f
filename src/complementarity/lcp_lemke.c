/* nsed's own Lemke: complementary pivoting with the lexicographic ratio test,
 * made robust against the round-off that defeats Siconos 4.4's version
 * (docs/complementarity.md, "robustness"):
 *  - the LCP is first scaled symmetrically: w~ = D M D z~ + D q / s with
 *    d_i = 1 / sqrt(max(max_j |M_ij|, max_j |M_ji|)) and the scalar s =
 *    ||D q||_inf, which keeps complementarity and makes every entry of the
 *    tableau at most 1, so absolute thresholds mean something. A congruence
 *    keeps a copositive-plus M copositive-plus, so a secondary ray still
 *    proves infeasibility there; scaling rows and columns apart (R M C) did
 *    not, and ended vertex-form problems that have solutions on rays;
 *  - a pivot must exceed NSEDI_LEMKE_PIVOT_REL of its column's largest
 *    entry and NSEDI_LEMKE_PIVOT_ABS times the tableau's growth (noise is
 *    never pivoted on);
 *  - ties in the minimum-ratio test and in the lexicographic comparison are
 *    detected with tolerances, not by floating-point equality: the ratio
 *    test's is the ratios' round-off, estimated from the tableau's growth,
 *    kept between NSEDI_LEMKE_TIE_RATIO and NSEDI_LEMKE_TIE_CAP;
 *  - when z0 is among the tied rows it leaves (the run ends at once);
 *  - a tie that survives all of B^-1's columns goes to the largest pivot.
 * The tableau is dense n x (2n+2) in ws (no allocation here). */
#include "cp_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Gauss-Jordan pivot on (r, e) of the n x ncol column-major tableau.
 * Returns max_i |T_ie| * max_c |T_rc|, the size of its largest update
 * a - b c: each rounds by about an ulp of that, so the sum over the pivots
 * (the tableau's growth) bounds the entries' round-off in ulps. */
static double pivot(double *T, int n, int ncol, int r, int e) {
  double inv = 1.0 / T[(size_t)e * n + r], rmax = 0.0, emax = 0.0;
  for (int c = 0; c < ncol; c++) T[(size_t)c * n + r] *= inv;
  T[(size_t)e * n + r] = 1.0;
  const double *colE = T + (size_t)e * n;
  for (int i = 0; i < n; i++)
    if (i != r) emax = nsedi_maxf(emax, fabs(colE[i]));
  for (int c = 0; c < ncol; c++) {
    if (c == e) continue;
    double trc = T[(size_t)c * n + r];
    if (trc == 0.0) continue;
    rmax = nsedi_maxf(rmax, fabs(trc));
    double *col = T + (size_t)c * n;
    for (int i = 0; i < n; i++)
      if (i != r) col[i] -= colE[i] * trc;
  }
  double *ce = T + (size_t)e * n;
  for (int i = 0; i < n; i++)
    if (i != r) ce[i] = 0.0;
  return emax * rmax;
}

/* Row leaving when column e enters, or -1 on a ray. z0row: the row where z0
 * is basic (-1 if none); growth: 1 plus the pivots' updates so far, which
 * bounds the tableau's round-off in units of the unit round-off. */
static int ratio_test(const double *T, int n, int e, int z0row, double growth, int *cand, double *ratio) {
  const double *colE = T + (size_t)e * n, *rhs = T + (size_t)(2 * n + 1) * n;
  double cmax = 0.0;
  for (int i = 0; i < n; i++)
    if (colE[i] > cmax) cmax = colE[i];
  double ptol = nsedi_maxf(NSEDI_LEMKE_PIVOT_REL * cmax, NSEDI_LEMKE_PIVOT_ABS * growth);
  double theta = INFINITY;
  for (int i = 0; i < n; i++) {
    ratio[i] = colE[i] > ptol ? nsedi_maxf(rhs[i], 0.0) / colE[i] : INFINITY;
    if (ratio[i] < theta) theta = ratio[i];
  }
  if (theta == INFINITY) return -1;
  /* Ratios equal in real arithmetic differ by their round-off, about
   * eps growth (1 + theta) / T_ie: tied within it, kept between the floor
   * and the cap (NSEDI_LEMKE_TIE_RATIO, NSEDI_LEMKE_TIE_CAP). */
  const double scale = nsedi_maxf(theta, 1.0), window = theta + NSEDI_LEMKE_TIE_CAP * scale;
  double cmin = INFINITY;
  for (int i = 0; i < n; i++)
    if (ratio[i] <= window) cmin = nsedi_minf(cmin, colE[i]);
  double noise = DBL_EPSILON * growth * (1.0 + theta) / cmin;
  double ttol = nsedi_minf(nsedi_maxf(NSEDI_LEMKE_TIE_RATIO * scale, noise), NSEDI_LEMKE_TIE_CAP * scale);
  int nc = 0;
  for (int i = 0; i < n; i++)
    if (ratio[i] <= theta + ttol) cand[nc++] = i;
  if (nc == 1) return cand[0];
  for (int k = 0; k < nc; k++)
    if (cand[k] == z0row) return z0row;
  /* Lexicographic minimum of the rows of B^-1 (the w columns) over the pivot. */
  for (int c = 0; c < n && nc > 1; c++) {
    const double *col = T + (size_t)c * n;
    double vmin = INFINITY, vabs = 0.0;
    for (int k = 0; k < nc; k++) {
      double v = col[cand[k]] / colE[cand[k]];
      if (v < vmin) vmin = v;
      if (fabs(v) > vabs) vabs = fabs(v);
    }
    double ltol = NSEDI_LEMKE_TIE_LEX * vabs;
    int m = 0;
    for (int k = 0; k < nc; k++)
      if (col[cand[k]] / colE[cand[k]] <= vmin + ltol) cand[m++] = cand[k];
    nc = m;
  }
  int best = cand[0];
  for (int k = 1; k < nc; k++)
    if (colE[cand[k]] > colE[best]) best = cand[k];
  return best;
}

int nsedi_lemke(nsedi_workspace *ws, int n, const double *M, const double *q, double *z, double *w,
                int max_pivots, int *pivots) {
  *pivots = 0;
  int trivial = 1;
  for (int i = 0; i < n; i++)
    if (!(q[i] >= 0.0)) trivial = 0;
  if (trivial) {
    for (int i = 0; i < n; i++) {
      z[i] = 0.0;
      w[i] = q[i];
    }
    return NSEDI_LCP_SOLVED;
  }
  /* Symmetric scaling D M D (rs = cs = d), q to unit max-norm. |M_ij| d_i
   * d_j <= 1 since |M_ij| is at most both r_i and r_j. */
  double *rs = ws->rs, *cs = ws->cs;
  for (int i = 0; i < n; i++) {
    double m = 0.0;
    for (int j = 0; j < n; j++) m = nsedi_maxf(m, nsedi_maxf(fabs(M[(size_t)j * n + i]), fabs(M[(size_t)i * n + j])));
    rs[i] = cs[i] = m > 0.0 ? 1.0 / sqrt(m) : 1.0;
  }
  double qs = 0.0;
  for (int i = 0; i < n; i++) qs = nsedi_maxf(qs, fabs(rs[i] * q[i]));
  /* Tableau [I | -M~ | -e | q~]. */
  int ncol = 2 * n + 2;
  double *T = ws->tab;
  memset(T, 0, sizeof(double) * (size_t)n * (size_t)ncol);
  for (int i = 0; i < n; i++) T[(size_t)i * n + i] = 1.0;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) T[(size_t)(n + j) * n + i] = -rs[i] * M[(size_t)j * n + i] * cs[j];
  for (int i = 0; i < n; i++) {
    T[(size_t)(2 * n) * n + i] = -1.0;
    T[(size_t)(2 * n + 1) * n + i] = rs[i] * q[i] / qs;
  }
  int *basis = ws->basis;
  for (int i = 0; i < n; i++) basis[i] = i;
  /* z0 enters; the row of the most negative q~ leaves (ties: the last index,
   * which is the lexicographic choice for the identity B^-1). */
  const double *rhs = T + (size_t)(2 * n + 1) * n;
  double qmin = INFINITY;
  for (int i = 0; i < n; i++) qmin = nsedi_minf(qmin, rhs[i]);
  int r = -1;
  for (int i = 0; i < n; i++)
    if (rhs[i] <= qmin + NSEDI_LEMKE_TIE_RATIO) r = i;
  int z0 = 2 * n;
  double growth = 1.0 + pivot(T, n, ncol, r, z0);
  int leaving = basis[r];
  basis[r] = z0;
  int z0row = r;
  int status = NSEDI_LCP_MAXPIV;
  int np = 1;
  while (np < max_pivots) {
    int e = leaving < n ? leaving + n : leaving - n;
    r = ratio_test(T, n, e, z0row, growth, ws->cand, w); /* w: scratch until the end */
    if (r < 0) {
      status = NSEDI_LCP_RAY;
      break;
    }
    growth += pivot(T, n, ncol, r, e);
    np++;
    leaving = basis[r];
    basis[r] = e;
    if (leaving == z0) {
      status = NSEDI_LCP_SOLVED;
      break;
    }
  }
  *pivots = np;
  for (int j = 0; j < n; j++) z[j] = 0.0;
  for (int i = 0; i < n; i++)
    if (basis[i] >= n && basis[i] < 2 * n) {
      int j = basis[i] - n;
      z[j] = nsedi_maxf(rhs[i], 0.0) * cs[j] * qs;
    }
  for (int i = 0; i < n; i++) {
    double s = q[i];
    for (int j = 0; j < n; j++) s += M[(size_t)j * n + i] * z[j];
    w[i] = s;
  }
  return status;
}
