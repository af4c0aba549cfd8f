#include "roller_shape.h"

#include <math.h>

/* With R1 = R cos(alpha) and the roller axis turned by psi about the
 * wheel radius through its centre, the touching point at wheel angle q is
 * (seed 000 §5.2) r_P = r_O - m i2 - h n, m = R1 tan q / cos psi,
 * h = R - R1 / cos q. Its coordinates along and across the axis give the
 * profile below; at q = alpha it closes (r = 0) at x = R sin(alpha) / cos(psi). */
void nsedi_roller_profile(const nsed_shape *s, double q, double *x, double *r, double *dx,
                          double *dr) {
  double R = s->radius, R1 = R * cos(M_PI / s->rollers), cp = cos(s->psi), sp = sin(s->psi);
  double sq = sin(q), cq = cos(q), tq = sq / cq;
  double h = R - R1 / cq, dh = -R1 * sq / (cq * cq);
  double w = sqrt(1 - sq * sq * cp * cp), dw = -sq * cq * cp * cp / w;
  if (x) *x = R * sq * cp + R1 * tq * sp * sp / cp;
  if (dx) *dx = R * cq * cp + R1 * sp * sp / (cp * cq * cq);
  if (r) *r = h * w;
  if (dr) *dr = dh * w + h * dw;
}

double nsedi_roller_half_length(const nsed_shape *s) {
  return s->radius * sin(M_PI / s->rollers) / cos(s->psi);
}

/* Slices perpendicular to the axis (discs of radius r at x): mass ~ int r^2
 * dx, axial moment ~ int r^4 / 2 dx, transverse ~ int (r^4 / 4 + r^2 x^2) dx,
 * integrated over q with dx = x'(q) dq by Simpson's rule (2000 panels:
 * relative error below 1e-10, measured against quadrature in x), then scaled by the given mass. */
void nsedi_roller_inertia(const nsed_shape *s, double mass, double J[3]) {
  double a = M_PI / s->rollers;
  const int N = 2000;
  double m0 = 0, ax = 0, tr = 0, h = 2 * a / N;
  for (int k = 0; k <= N; k++) {
    double q = -a + k * h, x, r, dx;
    nsedi_roller_profile(s, q, &x, &r, &dx, NULL);
    if (r < 0) r = 0;
    double wt = ((k == 0 || k == N) ? 1 : (k % 2 ? 4 : 2)) * dx, r2 = r * r;
    m0 += wt * r2;
    ax += wt * 0.5 * r2 * r2;
    tr += wt * (0.25 * r2 * r2 + r2 * x * x);
  }
  J[0] = mass * ax / m0;
  J[1] = J[2] = mass * tr / m0;
}
