/* The friction law's sets: the polygon (or circle) a stick's force stays
 * in, and the polygon a vertex-form slip's force lies on (docs/engine.md,
 * "Stick to slip"; docs/friction-models.md). One place for both, since a
 * slip's force must lie on the boundary of the set its sticks are held
 * in; nsedi_kinetic_mu (sim_impl.h) applies them. */
#include <math.h>

#include "sim_impl.h"

/* Face j's margin: the polygon's inradius less lambda_t's component along
 * the face's normal at th_j = 2 pi j/m + off. */
static double face_margin(int m, int j, double off, double r, double l1, double l2) {
  double th = 2 * M_PI * j / m + off;
  return r - (cos(th) * l1 + sin(th) * l2);
}

double nsedi_friction_margin(const nsed_options *o, double mu0, double ln, double l1, double l2) {
  if (o->friction.model == NSED_FRICTION_EXACT_CONE) return mu0 * ln - hypot(l1, l2);
  int m = o->friction.sides;
  /* Face form: faces at th_j = 2 pi j/m, circumscribed. Vertex form:
   * vertices at th_j (inscribed), so faces at th_j + pi/m with distance
   * mu0 cos(pi/m). */
  double off = 0, scale = 1;
  if (o->friction.model == NSED_FRICTION_POLYGON_VERTEX) {
    off = M_PI / m;
    scale = cos(M_PI / m);
  }
  double r = scale * mu0 * ln, worst = INFINITY;
  /* No tangential force (a rolling ball's stick): every face's margin is
   * r - (+-0), and the loop keeps face 0's, r - (l1 + l2) to the bit (the
   * zeros' signs included), without its 2m sines and cosines. */
  if (l1 == 0 && l2 == 0 && isfinite(r)) return r - (l1 + l2);
  /* The least margin is the face whose normal is nearest lambda_t's
   * direction (within pi/m of it), or a neighbour within round-off of it
   * at a vertex: a face two or more away has a margin larger by at least
   * |lambda_t| (cos(pi/m) - cos(3 pi/m)), far above round-off.
   * Those three, computed as the whole loop computes them, give the loop's
   * minimum at 6 sines and cosines instead of 2m (the indicators of every
   * sticking contact call this at each evaluation). */
  if (m > 6 && isfinite(l1) && isfinite(l2) && (l1 != 0 || l2 != 0)) {
    double a = (atan2(l2, l1) - off) * m / (2 * M_PI);
    int near = (int)lround(a) % m;
    for (int k = -1; k <= 1; k++) worst = fmin(worst, face_margin(m, (near + k + 2 * m) % m, off, r, l1, l2));
    return worst;
  }
  for (int j = 0; j < m; j++) {
    double s = face_margin(m, j, off, r, l1, l2);
    if (s < worst) worst = s;
  }
  return worst;
}

double nsedi_sector_margin(int sides, int k, double f1, double f2) {
  double h = 2 * M_PI / sides, a = k * h, b = (k + 1) * h;
  double from_lower = cos(a) * f2 - sin(a) * f1, to_upper = f1 * sin(b) - f2 * cos(b);
  return fmin(from_lower, to_upper);
}

int nsedi_vertex_sector(int sides, double f1, double f2, double on_vertex, double turn) {
  double h = 2 * M_PI / sides, phi = atan2(f2, f1);
  if (phi < 0) phi += 2 * M_PI;
  double u = phi / h, r = nearbyint(u);
  int k = (int)floor(u);
  if (fabs(phi - r * h) <= on_vertex && turn != 0) k = turn > 0 ? (int)r : (int)r - 1;
  return ((k % sides) + sides) % sides;
}

double nsedi_inscribed_radius(int sides, double f1, double f2) {
  if (!(hypot(f1, f2) > 0)) return 1.0;
  /* Vertices at 2 pi j/sides, the faces' normals half way between. */
  double h = 2 * M_PI / sides;
  double from_normal = remainder(atan2(f2, f1) - h / 2, h);
  return cos(h / 2) / cos(from_normal);
}
