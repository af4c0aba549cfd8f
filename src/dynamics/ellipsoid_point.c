/* The nearest point y of the ellipsoid sum (y_i / a_i)^2 = 1 to an outside
 * point x. The closest-point equations x - y = t grad f(y) / 2, f(y) = 0
 * (Kosenko's, and Otter et al.'s, for two surfaces, one a point) give
 * y_i = a_i^2 x_i / (a_i^2 + t) with t > 0 the root of
 *   F(t) = sum (a_i x_i / (a_i^2 + t))^2 - 1.
 * F is decreasing and convex for t > -min a_i^2, so Newton's iteration from
 * a point left of the root climbs to it monotonically, quadratically at
 * the end; the start max(0, sqrt(sum a_i^2 x_i^2) - max a_i^2) is such a
 * point (a lower bound of the root). Differentiating F(t(x), x) = 0 gives
 * the rate dt = -(F_x . xd) / F_t, and so dy. */
#include "ellipsoid_point.h"

#include <math.h>

#include "tolerances.h"

int nsedi_ellipsoid_nearest(const double a[3], const double x[3], const double xd[3], double y[3],
                            double yd[3]) {
  double a2[3], s = 0, amax2 = 0;
  for (int i = 0; i < 3; i++) {
    a2[i] = a[i] * a[i];
    s += a2[i] * x[i] * x[i];
    amax2 = fmax(amax2, a2[i]);
  }
  double f0 = 0;
  for (int i = 0; i < 3; i++) f0 += x[i] * x[i] / a2[i];
  if (!(f0 > 1)) return 1;
  double t = fmax(0.0, sqrt(s) - amax2);
  int done = 0;
  for (int it = 0; it < NSEDI_NEAREST_MAX_ITER && !done; it++) {
    double F = -1, Ft = 0;
    for (int i = 0; i < 3; i++) {
      double u = a[i] * x[i] / (a2[i] + t);
      F += u * u;
      Ft -= 2 * u * u / (a2[i] + t);
    }
    /* Near the root F is round-off (a few ulps of the sum, about 1), which
     * moves Newton's step by up to 1.5 eps (max a_i^2 + t): a step below
     * that, or a rounded F at or below zero, ends the iteration. */
    double dt = -F / Ft;
    done = !(F > 0) || !(dt > NSEDI_NEAREST_STEP * (amax2 + t));
    if (F > 0) t += dt;
  }
  if (!done) return 2;
  double Ft = 0, Fxd = 0;
  for (int i = 0; i < 3; i++) {
    double den = a2[i] + t, u = a[i] * x[i] / den;
    y[i] = a2[i] * x[i] / den;
    Ft -= 2 * u * u / den;
    Fxd += 2 * a2[i] * x[i] * xd[i] / (den * den);
  }
  double td = -Fxd / Ft;
  for (int i = 0; i < 3; i++) {
    double den = a2[i] + t;
    yd[i] = a2[i] * xd[i] / den - a2[i] * x[i] * td / (den * den);
  }
  return 0;
}
