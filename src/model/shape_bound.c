/* How far a body's shape reaches from its centre: the radius of a sphere
 * about the body's origin that holds every point of the shape. Open
 * contacts with a plane use it for a lower bound of their gap
 * (docs/engine.md, "Open contacts far from their plane"). */
#include <math.h>

#include "model_impl.h"
#include "roller_shape.h"

/* The roller's profile sampled over its sector: the largest distance
 * sqrt(x^2 + r^2) of a sample from the centre, plus what the distance can
 * gain between samples, half a spacing times its rate of change; that rate
 * is at most |(x', r')|, taken here as twice its largest sampled value. */
static double roller_bound(const nsed_shape *s) {
  enum { N = 1024 };
  double a = M_PI / s->rollers, h = 2 * a / N, best = 0, speed = 0;
  for (int k = 0; k <= N; k++) {
    double q = -a + h * k, x, r, dx, dr;
    nsedi_roller_profile(s, q, &x, &r, &dx, &dr);
    best = fmax(best, hypot(x, r));
    speed = fmax(speed, hypot(dx, dr));
  }
  return best + 0.5 * h * 2 * speed;
}

double nsedi_shape_bound_radius(const nsed_shape *s) {
  const double *h = s->half;
  switch (s->type) {
    case NSED_SHAPE_POINT:
      return 0.0;
    case NSED_SHAPE_SPHERE:
    case NSED_SHAPE_DISK:
      return s->radius;
    case NSED_SHAPE_CYLINDER:
      return hypot(s->radius, 0.5 * s->length);
    case NSED_SHAPE_CAPSULE:
      return s->radius + 0.5 * s->length;
    case NSED_SHAPE_BOX:
    case NSED_SHAPE_ELLIPSOID:
    case NSED_SHAPE_SUPERELLIPSOID: /* inside its box for every exponent >= 2 */
      return sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    case NSED_SHAPE_ROLLER:
      return roller_bound(s);
    default:
      return INFINITY;
  }
}
