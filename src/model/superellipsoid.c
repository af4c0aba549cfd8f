/* Superellipsoid points (docs/engine.md, "Algebraic surfaces").
 *
 * Support point. Maximising d . y on f(y) = 0 gives d_i = l p sgn(y_i)
 * |y_i|^(p-1) / a_i^p; with u_i = a_i |d_i|, q = p / (p - 1) (the dual
 * exponent) and S = sum u_i^q it is y_i = a_i sgn(d_i) u_i^(q-1) S^(-1/p),
 * the gradient of the support function h(d) = S^(1/q); its rate is the
 * Hessian of h applied to dd:
 *   yd_i = (q - 1) (a_i^2 u_i^(q-2) S^(-1/p) dd_i - y_i (y . dd) S^(1/p-1)).
 * For p > 2, u_i^(q-2) is unbounded as d_i -> 0: the surface is flat
 * across the coordinate plane y_i = 0.
 *
 * Nearest point. The closest-point equations x - y = t grad f(y), f(y) = 0
 * (Kosenko's eqs. 5 with one surface a point; Otter et al.'s variant 2)
 * separate: with xi = |x_i| / a_i, eta = |y_i| / a_i and s = p t, each
 * eta_i solves eta + (s / a_i^2) eta^(p-1) = xi_i, whose left side is
 * increasing and convex in eta >= 0, so Newton's iteration from a point
 * right of the root descends to it monotonically; |eta(s)|_p decreases in
 * s from |xi|_p > 1 at s = 0, and a Newton iteration kept in a bracket
 * (bisection where it would leave it) finds where it is 1, in the
 * variable r = s^(1/(p-1)) (nearest_G says why). */
#include "superellipsoid.h"

#include <math.h>
#include <stddef.h>

#include "math3.h"
#include "tolerances.h"

/* x^e for x >= 0: by squaring when e is a whole number (the algebraic
 * surfaces' even p, and p - 1, p - 2), which is several times cheaper than
 * pow and as exact. */
static double power(double x, double e) {
  if (e != floor(e) || e > 128) return pow(x, e);
  unsigned k = (unsigned)e;
  double r = 1;
  for (double b = x; k; k >>= 1, b *= b)
    if (k & 1) r *= b;
  return r;
}

double nsedi_sq_exponent(const nsed_shape *s) {
  return s->type == NSED_SHAPE_SUPERELLIPSOID ? s->exponent : 2.0;
}

double nsedi_sq_value(const double a[3], double p, const double y[3], double g[3], double h[3]) {
  double f = -1;
  for (int i = 0; i < 3; i++) {
    double e = fabs(y[i]) / a[i];
    f += power(e, p);
    if (g) g[i] = copysign(p * power(e, p - 1) / a[i], y[i]);
    if (h) h[i] = p * (p - 1) * power(e, p - 2) / (a[i] * a[i]);
  }
  return f;
}

int nsedi_sq_support(const double a[3], double p, const double d[3], const double dd[3],
                     double y[3], double yd[3]) {
  double q = p / (p - 1), u[3], S = 0;
  for (int i = 0; i < 3; i++) {
    u[i] = a[i] * fabs(d[i]);
    S += pow(u[i], q);
  }
  double Sp = pow(S, 1.0 / p);
  for (int i = 0; i < 3; i++) y[i] = copysign(a[i] * pow(u[i], q - 1) / Sp, d[i]);
  double ydd = nsedi_v3_dot(y, dd);
  for (int i = 0; i < 3; i++) {
    double lead = 0;
    if (dd[i] != 0) {
      if (u[i] == 0 && q < 2) return 1;
      lead = a[i] * a[i] * pow(u[i], q - 2) / Sp * dd[i];
    }
    yd[i] = (q - 1) * (lead - y[i] * ydd * Sp / S);
  }
  return 0;
}

/* eta solving eta + c eta^(p-1) = xi (xi >= 0, c >= 0), and d eta / d c. */
static double scaled_coordinate(double xi, double c, double p, double *deta_dc) {
  *deta_dc = 0;
  if (xi == 0) return 0;
  if (c == 0) return xi;
  /* Both eta <= xi and c eta^(p-1) <= xi: the smaller bound is right of the
   * root, and close to it in either limit. */
  double eta = fmin(xi, pow(xi / c, 1.0 / (p - 1)));
  for (int it = 0; it < NSEDI_NEAREST_MAX_ITER; it++) {
    double pw = power(eta, p - 2), phi = eta + c * pw * eta - xi, dphi = 1 + c * (p - 1) * pw;
    double step = phi / dphi;
    /* From the right the iterates decrease; a step that does not is round-off. */
    if (!(step > NSEDI_NEAREST_STEP * eta)) break;
    eta -= step;
  }
  double pw = power(eta, p - 2);
  *deta_dc = -pw * eta / (1 + c * (p - 1) * pw);
  return eta;
}

/* G(r) = |eta(r)|_p - 1 with s = r^(p-1), and dG/dr. In r the solution
 * varies on the scale of 1 / max xi (eta_i leaves xi_i where
 * (r xi_i)^(p-1) ~ a_i^2), and the p-norm makes G a distance-like
 * quantity: in s, or in F = sum eta^p - 1, a point well outside a
 * large-p surface puts the root 3^-98 from 0 with F at 3^100. */
static double nearest_G(const double a[3], double p, const double xi[3], double r, double eta[3],
                        double *Gr) {
  double sum = 0, dsum = 0, rp = power(r, p - 2);
  for (int i = 0; i < 3; i++) {
    double a2 = a[i] * a[i], de;
    eta[i] = scaled_coordinate(xi[i], rp * r / a2, p, &de);
    sum += power(eta[i], p);
    dsum += p * power(eta[i], p - 1) * de * (p - 1) * rp / a2;
  }
  double norm = pow(sum, 1 / p);
  *Gr = norm / (p * sum) * dsum;
  return norm - 1;
}

/* The rate of y = x - t grad f(y) for x moving at xd:
 * (I + t H) yd = xd - td g with g . yd = 0 (H diagonal, I + t H >= I). */
static void rate_at(const double a[3], double p, const double y[3], double t, const double xd[3],
                    double yd[3]) {
  double g[3], h[3], D[3], num = 0, den = 0;
  nsedi_sq_value(a, p, y, g, h);
  for (int i = 0; i < 3; i++) {
    D[i] = 1 + t * h[i];
    num += g[i] * xd[i] / D[i];
    den += g[i] * g[i] / D[i];
  }
  double td = num / den;
  for (int i = 0; i < 3; i++) yd[i] = (xd[i] - td * g[i]) / D[i];
}

int nsedi_sq_nearest(const double a[3], double p, const double x[3], const double xd[3],
                     double y[3], double yd[3]) {
  double xi[3], eta[3], q = p / (p - 1), bound = 0;
  for (int i = 0; i < 3; i++) {
    xi[i] = fabs(x[i]) / a[i];
    bound += pow(xi[i] * a[i] * a[i], q);
  }
  double Gr, G = nearest_G(a, p, xi, 0, eta, &Gr);
  if (!(G > 0)) return 1;
  /* eta_i <= (xi_i a_i^2 / s)^(1/(p-1)), so G <= 0 from s = |xi a^2|_q on:
   * the root lies in [0, that^(1/(p-1))]. */
  double lo = 0, hi = pow(pow(bound, 1 / q), 1 / (p - 1)), r = 0.5 * hi;
  G = nearest_G(a, p, xi, r, eta, &Gr);
  int done = 0;
  for (int it = 0; it < NSEDI_NEAREST_MAX_ITER && !done; it++) {
    if (G > 0) lo = r;
    else if (G < 0) hi = r;
    else break;
    /* Newton's step inside the bracket, else bisection. A step or a
     * bracket of a few ulps of r is round-off. */
    double next = r - G / Gr;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    double tol = NSEDI_NEAREST_STEP * next;
    done = fabs(next - r) <= tol || hi - lo <= tol;
    r = next;
    G = nearest_G(a, p, xi, r, eta, &Gr);
  }
  if (!done && G != 0) return 2;
  for (int i = 0; i < 3; i++) y[i] = copysign(a[i] * eta[i], x[i]);
  rate_at(a, p, y, power(r, p - 1) / p, xd, yd);
  return 0;
}

int nsedi_sq_support_rate(const double a[3], double p, const double y[3], const double d[3],
                          const double dd[3], double yd[3]) {
  /* grad f(y) = l d, H yd = ld d + l dd, g . yd = 0: with A = H^-1 d and
   * B = H^-1 dd, ld = -l (g . B) / (g . A), yd = ld A + l B. */
  double g[3], h[3], A[3], B[3];
  nsedi_sq_value(a, p, y, g, h);
  for (int i = 0; i < 3; i++) {
    if (h[i] == 0 && (d[i] != 0 || dd[i] != 0)) return 1;
    A[i] = h[i] == 0 ? 0 : d[i] / h[i];
    B[i] = h[i] == 0 ? 0 : dd[i] / h[i];
  }
  double l = nsedi_v3_dot(g, d), ld = -l * nsedi_v3_dot(g, B) / nsedi_v3_dot(g, A);
  for (int i = 0; i < 3; i++) yd[i] = ld * A[i] + l * B[i];
  return 0;
}

void nsedi_sq_nearest_rate(const double a[3], double p, const double y[3], const double x[3],
                           const double xd[3], double yd[3]) {
  double g[3], r[3];
  nsedi_sq_value(a, p, y, g, NULL);
  nsedi_v3_sub(r, x, y);
  rate_at(a, p, y, nsedi_v3_dot(g, r) / nsedi_v3_dot(g, g), xd, yd);
}

/* max(|f(y)|, |unit grad f(y) - e|) for a unit e. */
static double residual_along(const double a[3], double p, const double y[3], const double e[3]) {
  double g[3], diff[3];
  double f = nsedi_sq_value(a, p, y, g, NULL), gn = nsedi_v3_norm(g);
  for (int i = 0; i < 3; i++) diff[i] = g[i] / gn - e[i];
  return fmax(fabs(f), nsedi_v3_norm(diff));
}

double nsedi_sq_support_residual(const double a[3], double p, const double y[3],
                                 const double d[3]) {
  return residual_along(a, p, y, d);
}

double nsedi_sq_nearest_residual(const double a[3], double p, const double y[3],
                                 const double x[3]) {
  double r[3];
  nsedi_v3_sub(r, x, y);
  double rn = nsedi_v3_norm(r);
  if (!(rn > 0)) return NAN;
  nsedi_v3_scale(r, r, 1.0 / rn);
  return residual_along(a, p, y, r);
}

void nsedi_sq_inertia(const double a[3], double p, double mass, double J[3]) {
  /* Dirichlet: the mean of (y_i / a_i)^2 over the solid is
   * G(3/p) G(1 + 3/p) / (G(1/p) G(1 + 5/p)), 1/5 for the ellipsoid. */
  double k = tgamma(3 / p) * tgamma(1 + 3 / p) / (tgamma(1 / p) * tgamma(1 + 5 / p));
  double m2[3];
  for (int i = 0; i < 3; i++) m2[i] = k * a[i] * a[i];
  J[0] = mass * (m2[1] + m2[2]);
  J[1] = mass * (m2[0] + m2[2]);
  J[2] = mass * (m2[0] + m2[1]);
}
