/* The contact geometry of every shape-plane pair against brute force: for
 * random orientations, positions and plane normals, the smallest gap over
 * a shape's contacts (its features' for a box, cylinder or capsule) equals
 * the smallest signed distance to the plane over dense samples of the
 * shape's surface, and each contact point lies on its feature of the
 * surface (a vertex, a rim's circle, a cap's sphere). Sampling finds a point at most the sampling
 * step's sagitta above the true closest one, so the check is
 * 0 <= brute - gap <= that bound. A sphere against a box, a cylinder, a
 * disk or an ellipsoid likewise, the distance from its centre to samples of
 * the other body's surface; the ellipsoid's nearest point also satisfies
 * the closest-point equations to round-off. A capsule against a capsule:
 * the distance between their axes' segments by a ternary search along one
 * (the distance from a point moving on a line to a segment is convex)
 * with the exact point-to-segment distance to the other, including nearly
 * parallel axes, and the contact points on both surfaces.
 *
 * The superellipsoid sum |y_i / a_i|^p = 1 (random p in [2, 100]) is
 * sampled through its cube map y = D v / |v|_p (v on the faces of the cube
 * [-1, 1]^3), whose derivative is at most (1 + sqrt 3) max a_i per unit of
 * a face coordinate, so every surface point is within that times half a
 * grid cell's diagonal of a sample: the sampling bound (linear: there is
 * no curvature bound at its edges). Its contact points must also satisfy
 * the closest-point equations to round-off (on the surface, normal along
 * the plane's or the line to the sphere's centre), and with p = 2 its
 * gaps are the ellipsoid's (an independent formula) to round-off. */
#include <math.h>
#include <stdint.h>

#include "kinematics.h"
#include "rows.h"
#include "engine_util.h"
#include "math3.h"
#include "model_impl.h"
#include "nsed_test.h"
#include "superellipsoid.h"

static unsigned long long rng = 0x9e3779b97f4a7c15ull;
static double urand(void) { return nsed_test_urand(&rng); }
static double srnd(double a) { return a * (2 * urand() - 1); }

enum { NG_CUBE = 300 };

/* Samples of the superellipsoid (body axes) by its cube map, each passed
 * to visit(ctx, point); returns the sampling bound (see the header). */
static double sample_superellipsoid(const nsed_shape *s, void (*visit)(void *, const double *),
                                    void *ctx) {
  double amax = fmax(s->half[0], fmax(s->half[1], s->half[2])), v[3], y[3];
  for (int ax = 0; ax < 3; ax++)
    for (int sg = -1; sg <= 1; sg += 2)
      for (int i = 0; i <= NG_CUBE; i++)
        for (int j = 0; j <= NG_CUBE; j++) {
          v[ax] = sg;
          v[(ax + 1) % 3] = 2.0 * i / NG_CUBE - 1;
          v[(ax + 2) % 3] = 2.0 * j / NG_CUBE - 1;
          double norm = 0;
          for (int k = 0; k < 3; k++) norm += pow(fabs(v[k]), s->exponent);
          norm = pow(norm, 1 / s->exponent);
          for (int k = 0; k < 3; k++) y[k] = s->half[k] * v[k] / norm;
          visit(ctx, y);
        }
  return (1 + sqrt(3.0)) * amax * sqrt(2.0) / NG_CUBE;
}

/* The closest-point equations at a superellipsoid's point y (body axes)
 * whose outward normal must lie along the unit e (body axes): |f(y)| and
 * |unit grad f(y) - e|. */
static double superellipsoid_residual(const nsed_shape *s, const double y[3], const double e[3]) {
  double g[3], d[3];
  double f = nsedi_sq_value(s->half, s->exponent, y, g, NULL), gn = nsedi_v3_norm(g);
  for (int i = 0; i < 3; i++) d[i] = g[i] / gn - e[i];
  return fmax(fabs(f), nsedi_v3_norm(d));
}

enum { NSAMPLE_ANGLE = 720 };

static double dist(const double p[3], const double pt[3], const double n[3]) {
  double d[3];
  nsedi_v3_sub(d, p, pt);
  return nsedi_v3_dot(d, n);
}

/* Body point b (body frame) in the world. */
static void world(const nsedi_kin *k, const double b[3], double w[3]) {
  nsedi_kin_dir(k, b, w);
  nsedi_v3_add(w, w, k->r);
}

typedef struct {
  const nsedi_kin *k;
  const double *pt, *n;
  double best;
} plane_ctx;

static void plane_visit(void *ctx, const double y[3]) {
  plane_ctx *pc = ctx;
  double p[3];
  world(pc->k, y, p);
  pc->best = fmin(pc->best, dist(p, pc->pt, pc->n));
}

/* The smallest signed distance over samples of the shape's surface and the
 * sampling bound on how far above the true minimum it can be. */
static double brute_force(const nsed_shape *s, const nsedi_kin *k, const double pt[3],
                          const double n[3], double *bound) {
  double best = INFINITY, p[3], b[3];
  double h = 2 * M_PI / NSAMPLE_ANGLE;
  switch (s->type) {
    case NSED_SHAPE_BOX:
      for (int v = 0; v < 8; v++) {
        for (int i = 0; i < 3; i++) b[i] = (v >> i & 1 ? 1 : -1) * s->half[i];
        world(k, b, p);
        best = fmin(best, dist(p, pt, n));
      }
      *bound = 0; /* a box's lowest point is a vertex: exact */
      return best;
    case NSED_SHAPE_CYLINDER:
    case NSED_SHAPE_DISK:
      for (int e = 0; e < (s->type == NSED_SHAPE_DISK ? 1 : 2); e++)
        for (int j = 0; j < NSAMPLE_ANGLE; j++) {
          b[0] = s->radius * cos(j * h);
          b[1] = s->radius * sin(j * h);
          b[2] = s->type == NSED_SHAPE_DISK ? 0 : (e ? 0.5 : -0.5) * s->length;
          world(k, b, p);
          best = fmin(best, dist(p, pt, n));
        }
      *bound = s->radius * (1 - cos(h / 2));
      return best;
    case NSED_SHAPE_CAPSULE:
    case NSED_SHAPE_SPHERE: {
      /* a sphere's lowest point is its centre minus r n (sampling its
       * surface on a grid would only add the grid's error): the caps'
       * centres are sampled along the segment instead */
      int nseg = s->type == NSED_SHAPE_SPHERE ? 1 : NSAMPLE_ANGLE;
      for (int j = 0; j < nseg; j++) {
        b[0] = b[1] = 0;
        b[2] = s->type == NSED_SHAPE_SPHERE ? 0 : s->length * ((double)j / (nseg - 1) - 0.5);
        world(k, b, p);
        best = fmin(best, dist(p, pt, n) - s->radius);
      }
      *bound = 0; /* the ends of the segment are sampled: the minimum is at one */
      return best;
    }
    case NSED_SHAPE_ELLIPSOID: {
      /* on a latitude-longitude grid of the body's unit sphere, scaled */
      for (int i = 0; i <= NSAMPLE_ANGLE / 2; i++)
        for (int j = 0; j < NSAMPLE_ANGLE; j++) {
          double th = i * h, ph = j * h;
          b[0] = s->half[0] * sin(th) * cos(ph);
          b[1] = s->half[1] * sin(th) * sin(ph);
          b[2] = s->half[2] * cos(th);
          world(k, b, p);
          best = fmin(best, dist(p, pt, n));
        }
      /* a grid cell's sides on the surface are at most amax h, so the true
       * minimum is within d = amax h / sqrt(2) of a sample along the
       * surface, where the distance to the plane rises by at most
       * kappa_max d^2 / 2 (kappa_max = amax / amin^2, the largest normal
       * curvature) */
      double amax = fmax(s->half[0], fmax(s->half[1], s->half[2]));
      double amin = fmin(s->half[0], fmin(s->half[1], s->half[2]));
      double dd = amax * h / sqrt(2.0), curv = amax / (amin * amin);
      *bound = 0.5 * curv * dd * dd;
      return best;
    }
    case NSED_SHAPE_SUPERELLIPSOID: {
      plane_ctx pc = {k, pt, n, INFINITY};
      *bound = sample_superellipsoid(s, plane_visit, &pc);
      return pc.best;
    }
    default:
      *bound = INFINITY;
      return NAN;
  }
}

/* How far the contact point p of contact c is from its feature of the
 * body's surface: a box's vertex; a rim (on its circle: radius and plane);
 * a sphere or an end cap (its radius from the centre). */
static double off_surface(const nsed_model *m, int c, const nsedi_kin *k, const double p[3],
                          const double n[3]) {
  const nsedi_contact *C = &m->contact[c];
  const nsed_shape *s = &m->body[C->body].def.shape;
  double centre[3], d[3], axis[3], ez[3] = {0, 0, 1};
  world(k, C->feature_point, centre);
  nsedi_v3_sub(d, p, centre);
  switch (s->type) {
    case NSED_SHAPE_BOX: return nsedi_v3_norm(d);
    case NSED_SHAPE_DISK:
    case NSED_SHAPE_CYLINDER:
      nsedi_kin_dir(k, ez, axis);
      return fmax(fabs(nsedi_v3_dot(d, axis)), fabs(nsedi_v3_norm(d) - s->radius));
    case NSED_SHAPE_ELLIPSOID: {
      double pb[3], r = 0;
      nsedi_m3_mulTv(pb, k->R, d);
      for (int i = 0; i < 3; i++) r += pb[i] * pb[i] / (s->half[i] * s->half[i]);
      return fabs(sqrt(r) - 1) * fmin(s->half[0], fmin(s->half[1], s->half[2]));
    }
    case NSED_SHAPE_SUPERELLIPSOID: {
      /* on the surface, its outward normal along the plane's -n; the
       * residual (relative) in the smallest semi-axis' units */
      double pb[3], nb[3];
      nsedi_m3_mulTv(pb, k->R, d);
      nsedi_m3_mulTv(nb, k->R, n);
      nsedi_v3_scale(nb, nb, -1.0);
      return superellipsoid_residual(s, pb, nb) * fmin(s->half[0], fmin(s->half[1], s->half[2]));
    }
    default: return fabs(nsedi_v3_norm(d) - s->radius);
  }
}

static void one_shape(nsed_shape_type type) {
  nsed_error err;
  double worst = 0, worst_point = 0;
  for (int trial = 0; trial < 50; trial++) {
    nsed_model *m;
    must(nsed_model_create(&m, &err), &err);
    nsed_body_def b;
    nsed_body_def_default(&b);
    snprintf(b.name, sizeof b.name, "body");
    b.shape.type = type;
    b.shape.radius = 0.1 + 0.3 * urand();
    b.shape.length = 0.1 + 0.5 * urand();
    b.shape.exponent = trial % 5 == 0 ? NSED_SUPERELLIPSOID_MAX_EXPONENT : 2 + 30 * urand() * urand();
    for (int i = 0; i < 3; i++) {
      b.shape.half[i] = 0.05 + 0.3 * urand();
      b.position[i] = srnd(2.0);
    }
    for (int i = 0; i < 4; i++) b.quat[i] = srnd(1.0);
    b.position[2] += 3.0;
    must(nsed_model_add_body(m, &b, &err), &err);
    nsed_plane_def pd;
    nsed_plane_def_default(&pd);
    snprintf(pd.name, sizeof pd.name, "plane");
    for (int i = 0; i < 3; i++) pd.normal[i] = srnd(0.5), pd.point[i] = srnd(1.0);
    pd.normal[2] += 1.0;
    must(nsed_model_add_plane(m, &pd, &err), &err);
    nsed_contact_def c, f;
    nsed_contact_def_default(&c);
    snprintf(c.name, sizeof c.name, "c");
    snprintf(c.body, sizeof c.body, "body");
    snprintf(c.other, sizeof c.other, "plane");
    int nf = nsed_shape_features(type);
    for (int i = 0; i < (nf ? nf : 1); i++) {
      if (nf) must(nsed_contact_feature(&c, type, i, &f, &err), &err);
      must(nsed_model_add_contact(m, nf ? &f : &c, &err), &err);
    }
    must(nsed_model_finalize(m, &err), &err);
    const nsed_plane_def *pl = nsed_model_plane_def(m, 0);
    double x[13];
    const nsed_body_def *bd = nsed_model_body_def(m, 0);
    for (int i = 0; i < 3; i++) {
      x[i] = bd->position[i];
      x[7 + i] = srnd(1.0);
      x[10 + i] = srnd(2.0);
    }
    for (int i = 0; i < 4; i++) x[3 + i] = bd->quat[i];
    nsedi_kin kin[1];
    nsedi_kin_eval(m, x, kin);
    double gap = INFINITY;
    for (int ci = 0; ci < nsed_model_ncontact(m); ci++) {
      nsedi_contact_geom g;
      if (nsedi_contact_eval(m, ci, kin, NULL, 0, &g) != NSED_OK) continue;
      gap = fmin(gap, g.gap);
      worst_point = fmax(worst_point, off_surface(m, ci, kin, g.p, g.n));
    }
    double bound, brute = brute_force(&bd->shape, kin, pl->point, pl->normal, &bound);
    double scale = 1 + fabs(brute);
    CHECK_MSG(brute - gap >= -1e-13 * scale && brute - gap <= bound + 1e-13 * scale,
              "%s trial %d: gap %.17g, brute force %.17g (bound %.3g)", nsed_shape_type_name(type),
              trial, gap, brute, bound);
    worst = fmax(worst, fabs(brute - gap) - bound);
    nsed_model_free(&m);
  }
  printf("%-9s against a plane, 50 random poses: |brute force - gap| beyond the sampling bound "
         "%.1e m, contact points off the surface by %.1e m\n",
         nsed_shape_type_name(type), fmax(worst, 0), worst_point);
  CHECK_NEAR(worst_point, 0, 1e-13, 0);
}

/* Samples of body B's surface (its own axes) for the sphere pairs, each
 * passed to visit; returns the sampling bound: the farthest any surface
 * point is from its nearest sample (half a grid cell's diagonal), which
 * bounds how far the sampled distance can be above the true one (the
 * distance to a point is 1-Lipschitz). */
typedef struct {
  const nsedi_kin *k;
  const double *centre;
  double best;
} sample_ctx;

static void visit(sample_ctx *sc, const double pb[3]) {
  double pw[3], dd[3];
  world(sc->k, pb, pw);
  nsedi_v3_sub(dd, sc->centre, pw);
  sc->best = fmin(sc->best, nsedi_v3_norm(dd));
}

static void visit_any(void *ctx, const double *pb) { visit(ctx, pb); }

static double sample_surface(const nsed_shape *s, sample_ctx *sc) {
  enum { NG = 200, NA = 720 };
  double pb[3], bound = 0, ha = 2 * M_PI / NA;
  switch (s->type) {
    case NSED_SHAPE_BOX:
      for (int f = 0; f < 6; f++) {
        int ax = f / 2, u = (ax + 1) % 3, v = (ax + 2) % 3;
        bound = fmax(bound, hypot(2 * s->half[u] / NG, 2 * s->half[v] / NG) / 2);
        for (int i = 0; i <= NG; i++)
          for (int j = 0; j <= NG; j++) {
            pb[ax] = (f % 2 ? 1 : -1) * s->half[ax];
            pb[u] = s->half[u] * (2.0 * i / NG - 1);
            pb[v] = s->half[v] * (2.0 * j / NG - 1);
            visit(sc, pb);
          }
      }
      return bound;
    case NSED_SHAPE_CYLINDER:
    case NSED_SHAPE_DISK: {
      double h = s->type == NSED_SHAPE_CYLINDER ? 0.5 * s->length : 0.0;
      for (int j = 0; j < NA; j++) {
        double c = cos(j * ha), sn = sin(j * ha);
        for (int i = 0; i <= NG; i++) {
          for (int e = -1; e <= 1; e += 2) { /* the end faces (one disk) */
            pb[0] = s->radius * i / NG * c, pb[1] = s->radius * i / NG * sn, pb[2] = e * h;
            visit(sc, pb);
          }
          if (h > 0) { /* the side */
            pb[0] = s->radius * c, pb[1] = s->radius * sn, pb[2] = h * (2.0 * i / NG - 1);
            visit(sc, pb);
          }
        }
      }
      return hypot(s->radius * ha, fmax(s->radius, 2 * h) / NG) / 2;
    }
    case NSED_SHAPE_ELLIPSOID: {
      double amax = fmax(s->half[0], fmax(s->half[1], s->half[2]));
      for (int i = 0; i <= NA / 2; i++)
        for (int j = 0; j < NA; j++) {
          pb[0] = s->half[0] * sin(i * ha) * cos(j * ha);
          pb[1] = s->half[1] * sin(i * ha) * sin(j * ha);
          pb[2] = s->half[2] * cos(i * ha);
          visit(sc, pb);
        }
      return amax * ha / sqrt(2.0);
    }
    case NSED_SHAPE_SUPERELLIPSOID:
      return sample_superellipsoid(s, visit_any, sc);
    default: return INFINITY;
  }
}

/* The closest-point equations at an ellipsoid's contact point p: p on the
 * surface, sum (p_i / a_i)^2 = 1, and the sphere's centre x along the
 * surface normal D^-2 p; returns the larger residual (relative). */
static double ellipsoid_residual(const nsedi_kin *kb, const double *a, const double p[3],
                                 const double x[3]) {
  double d[3], pb[3], xb[3], grad[3], u[3], v[3], cr[3], f = 0;
  nsedi_v3_sub(d, p, kb->r);
  nsedi_m3_mulTv(pb, kb->R, d);
  nsedi_v3_sub(d, x, kb->r);
  nsedi_m3_mulTv(xb, kb->R, d);
  for (int i = 0; i < 3; i++) {
    f += pb[i] * pb[i] / (a[i] * a[i]);
    grad[i] = pb[i] / (a[i] * a[i]);
  }
  nsedi_v3_sub(u, xb, pb);
  nsedi_v3_scale(u, u, 1.0 / nsedi_v3_norm(u));
  nsedi_v3_scale(v, grad, 1.0 / nsedi_v3_norm(grad));
  nsedi_v3_cross(cr, u, v);
  return fmax(fabs(f - 1), nsedi_v3_norm(cr) + fmax(0.0, -nsedi_v3_dot(u, v)));
}

/* A sphere against a box, a cylinder, a disk or an ellipsoid (the other
 * body): the gap against the smallest distance from the sphere's centre to
 * samples of the other's surface, less the radius, over random poses with
 * the centre outside the other body. */

/* Kinematics of a two-body model at its bodies' initial positions and
 * orientations (velocities zero). */
static void kin_at_defs(const nsed_model *m, nsedi_kin kin[2]) {
  double x[26] = {0};
  for (int j = 0; j < 2; j++) {
    const nsed_body_def *bd = nsed_model_body_def(m, j);
    for (int i = 0; i < 3; i++) x[13 * j + i] = bd->position[i];
    for (int i = 0; i < 4; i++) x[13 * j + 3 + i] = bd->quat[i];
  }
  nsedi_kin_eval(m, x, kin);
}

static void sphere_against(nsed_shape_type type) {
  nsed_error err;
  double worst = 0, worst_eq = 0;
  int ntrial = 0;
  while (ntrial < 30) {
    nsed_model *m;
    must(nsed_model_create(&m, &err), &err);
    nsed_body_def b;
    nsed_body_def_default(&b);
    snprintf(b.name, sizeof b.name, "ball");
    b.shape.type = NSED_SHAPE_SPHERE;
    b.shape.radius = 0.05 + 0.1 * urand();
    for (int i = 0; i < 3; i++) b.position[i] = srnd(1.5);
    must(nsed_model_add_body(m, &b, &err), &err);
    nsed_body_def_default(&b);
    snprintf(b.name, sizeof b.name, "other");
    b.shape.type = type;
    b.shape.radius = 0.1 + 0.4 * urand();
    b.shape.length = 0.1 + 0.8 * urand();
    for (int i = 0; i < 3; i++) b.shape.half[i] = 0.1 + 0.4 * urand();
    b.shape.exponent = ntrial % 5 == 0 ? NSED_SUPERELLIPSOID_MAX_EXPONENT : 2 + 30 * urand() * urand();
    for (int i = 0; i < 4; i++) b.quat[i] = srnd(1.0);
    must(nsed_model_add_body(m, &b, &err), &err);
    nsed_contact_def c;
    nsed_contact_def_default(&c);
    snprintf(c.name, sizeof c.name, "c");
    snprintf(c.body, sizeof c.body, "ball");
    snprintf(c.other, sizeof c.other, "other");
    must(nsed_model_add_contact(m, &c, &err), &err);
    must(nsed_model_finalize(m, &err), &err);
    nsedi_kin kin[2];
    kin_at_defs(m, kin);
    nsedi_contact_geom g;
    if (nsedi_contact_eval(m, 0, kin, NULL, 0, &g) != NSED_OK) { /* centre inside: no geometry */
      nsed_model_free(&m);
      continue;
    }
    const nsed_shape *sh = &nsed_model_body_def(m, 1)->shape;
    double rs = nsed_model_body_def(m, 0)->shape.radius;
    sample_ctx sc = {&kin[1], kin[0].r, INFINITY};
    double bound = sample_surface(sh, &sc), best = sc.best - rs;
    CHECK_MSG(best - g.gap >= -1e-13 && best - g.gap <= bound + 1e-13,
              "sphere/%s trial %d: gap %.17g, brute force %.17g (bound %.3g)",
              nsed_shape_type_name(type), ntrial, g.gap, best, bound);
    worst = fmax(worst, fabs(best - g.gap) - bound);
    if (type == NSED_SHAPE_ELLIPSOID) {
      /* the contact point is the centre's nearest surface point less the
       * sphere's radius along n: add it back */
      double q[3];
      nsedi_v3_axpy(q, g.p, rs, g.n);
      nsedi_v3_axpy(q, kin[0].r, -(g.gap + rs), g.n);
      worst_eq = fmax(worst_eq, ellipsoid_residual(&kin[1], sh->half, q, kin[0].r));
    }
    if (type == NSED_SHAPE_SUPERELLIPSOID) {
      /* the surface point (the centre less gap + radius along n), its
       * normal along n, in B's axes */
      double q[3], d[3], qb[3], nb[3];
      nsedi_v3_axpy(q, kin[0].r, -(g.gap + rs), g.n);
      nsedi_v3_sub(d, q, kin[1].r);
      nsedi_m3_mulTv(qb, kin[1].R, d);
      nsedi_m3_mulTv(nb, kin[1].R, g.n);
      /* the equations' condition grows with p (f and its gradient's
       * direction move p times a point's relative error) */
      worst_eq = fmax(worst_eq, superellipsoid_residual(sh, qb, nb) / sh->exponent);
    }
    ntrial++;
    nsed_model_free(&m);
  }
  printf("sphere against the %-9s, 30 random poses: |brute force - gap| beyond the sampling bound "
         "%.1e m",
         nsed_shape_type_name(type), fmax(worst, 0));
  if (type == NSED_SHAPE_ELLIPSOID || type == NSED_SHAPE_SUPERELLIPSOID) {
    printf(", closest-point equations' residual %.1e%s", worst_eq,
           type == NSED_SHAPE_SUPERELLIPSOID ? " per unit of p" : "");
    CHECK_NEAR(worst_eq, 0, 1e-14, 0);
  }
  printf("\n");
}

/* Distance from point p to the segment c +- h w. */
static double point_segment(const double p[3], const double c[3], const double w[3], double h) {
  double d[3], q[3];
  nsedi_v3_sub(d, p, c);
  double t = fmax(-h, fmin(h, nsedi_v3_dot(d, w)));
  nsedi_v3_axpy(q, d, -t, w);
  return nsedi_v3_norm(q);
}

/* Random capsule pairs (a third of them with nearly parallel axes): the
 * gap against the segments' distance found by ternary search along A's
 * segment of the convex point-to-segment distance to B's. */
static void capsule_capsule(void) {
  nsed_error err;
  double worst = 0, worst_surface = 0;
  int ntrial = 0, nparallel = 0;
  while (ntrial < 60) {
    nsed_model *m;
    must(nsed_model_create(&m, &err), &err);
    nsed_body_def b;
    for (int j = 0; j < 2; j++) {
      nsed_body_def_default(&b);
      snprintf(b.name, sizeof b.name, j ? "other" : "rod");
      b.shape.type = NSED_SHAPE_CAPSULE;
      b.shape.radius = 0.05 + 0.2 * urand();
      b.shape.length = 0.1 + 1.5 * urand();
      for (int i = 0; i < 3; i++) b.position[i] = srnd(1.0);
      for (int i = 0; i < 4; i++) b.quat[i] = srnd(1.0);
      if (j == 1 && ntrial % 3 == 2) { /* axes within 1e-4 rad of parallel */
        const nsed_body_def *a = nsed_model_body_def(m, 0);
        double tilt[4] = {1, 1e-4 * srnd(1.0), 1e-4 * srnd(1.0), 0}, q[4];
        nsedi_quat_mul(q, a->quat, tilt);
        for (int i = 0; i < 4; i++) b.quat[i] = q[i];
      }
      must(nsed_model_add_body(m, &b, &err), &err);
    }
    nsed_contact_def c;
    nsed_contact_def_default(&c);
    snprintf(c.name, sizeof c.name, "c");
    snprintf(c.body, sizeof c.body, "rod");
    snprintf(c.other, sizeof c.other, "other");
    must(nsed_model_add_contact(m, &c, &err), &err);
    must(nsed_model_finalize(m, &err), &err);
    nsedi_kin kin[2];
    kin_at_defs(m, kin);
    nsedi_contact_geom g;
    const nsed_shape *sa = &nsed_model_body_def(m, 0)->shape, *sb = &nsed_model_body_def(m, 1)->shape;
    double ez[3] = {0, 0, 1}, u[3], w[3], p[3];
    nsedi_kin_dir(&kin[0], ez, u);
    nsedi_kin_dir(&kin[1], ez, w);
    if (nsedi_contact_eval(m, 0, kin, NULL, 0, &g) != NSED_OK) {
      /* only overlapping parallel segments have no nearest point */
      CHECK_MSG(1 - nsedi_v3_dot(u, w) * nsedi_v3_dot(u, w) < 1e-11, "capsules trial %d: no geometry",
                ntrial);
      nsed_model_free(&m);
      continue;
    }
    double ha = 0.5 * sa->length, hb = 0.5 * sb->length, lo = -ha, hi = ha, best = INFINITY;
    for (int k = 0; k < 200 && hi - lo > 1e-15; k++) {
      double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3, f1, f2;
      nsedi_v3_axpy(p, kin[0].r, m1, u);
      f1 = point_segment(p, kin[1].r, w, hb);
      nsedi_v3_axpy(p, kin[0].r, m2, u);
      f2 = point_segment(p, kin[1].r, w, hb);
      best = fmin(best, fmin(f1, f2));
      if (f1 < f2) hi = m2;
      else lo = m1;
    }
    best -= sa->radius + sb->radius;
    CHECK_MSG(fabs(best - g.gap) <= 1e-12, "capsules trial %d: gap %.17g, ternary search %.17g",
              ntrial, g.gap, best);
    worst = fmax(worst, fabs(best - g.gap));
    /* the contact point lies on the rod's surface, the other's at gap along n */
    double q[3];
    nsedi_v3_axpy(q, g.p, -g.gap, g.n);
    worst_surface = fmax(worst_surface, fabs(point_segment(g.p, kin[0].r, u, ha) - sa->radius));
    worst_surface = fmax(worst_surface, fabs(point_segment(q, kin[1].r, w, hb) - sb->radius));
    nparallel += ntrial % 3 == 2;
    ntrial++;
    nsed_model_free(&m);
  }
  CHECK_NEAR(worst_surface, 0, 1e-14, 0);
  printf("capsule against capsule, 60 random poses (%d nearly parallel): |ternary search - gap| "
         "%.1e m, contact points off the surfaces %.1e m\n",
         nparallel, worst, worst_surface);
}

/* A superellipsoid with p = 2 is the ellipsoid: its gaps against a plane
 * and under a sphere, and their rows' velocities and biases, equal the
 * ellipsoid pairs' (closed form; the ellipsoid's own Newton iteration) to
 * round-off, over random poses and velocities. */
static void superellipsoid_p2(void) {
  nsed_error err;
  double worst = 0, worst_row = 0;
  for (int trial = 0; trial < 40; trial++) {
    int on_sphere = trial % 2;
    double gap[2], vel[2][3], bias[2][3];
    double half[3], pos[3], q[4], rpos[3], x[26];
    for (int i = 0; i < 3; i++) half[i] = 0.1 + 0.3 * urand(), pos[i] = srnd(0.5), rpos[i] = srnd(1.5);
    for (int i = 0; i < 4; i++) q[i] = srnd(1.0);
    for (int i = 0; i < 26; i++) x[i] = srnd(1.0);
    for (int v = 0; v < 2; v++) {
      nsed_model *m;
      must(nsed_model_create(&m, &err), &err);
      nsed_body_def b;
      nsed_body_def_default(&b);
      snprintf(b.name, sizeof b.name, "egg");
      b.shape.type = v ? NSED_SHAPE_SUPERELLIPSOID : NSED_SHAPE_ELLIPSOID;
      b.shape.exponent = 2;
      for (int i = 0; i < 3; i++) b.shape.half[i] = half[i];
      must(nsed_model_add_body(m, &b, &err), &err);
      nsed_body_def_default(&b);
      snprintf(b.name, sizeof b.name, "ball");
      b.shape.type = NSED_SHAPE_SPHERE;
      b.shape.radius = 0.1;
      must(nsed_model_add_body(m, &b, &err), &err);
      nsed_contact_def c;
      nsed_contact_def_default(&c);
      snprintf(c.name, sizeof c.name, "c");
      snprintf(c.body, sizeof c.body, on_sphere ? "ball" : "egg");
      if (on_sphere) snprintf(c.other, sizeof c.other, "egg");
      must(nsed_model_add_contact(m, &c, &err), &err);
      must(nsed_model_finalize(m, &err), &err);
      for (int i = 0; i < 3; i++) x[i] = pos[i], x[13 + i] = rpos[i];
      for (int i = 0; i < 4; i++) x[3 + i] = q[i];
      x[16] = 1, x[17] = x[18] = x[19] = 0;
      nsedi_kin kin[2];
      nsedi_kin_eval(m, x, kin);
      nsedi_contact_geom g;
      int rc = nsedi_contact_eval(m, 0, kin, NULL, 0, &g);
      gap[v] = rc == NSED_OK ? g.gap : NAN;
      for (int r = 0; r < 3; r++) vel[v][r] = g.row[r].vel, bias[v][r] = g.row[r].bias;
      nsed_model_free(&m);
    }
    if (isnan(gap[0]) && isnan(gap[1])) continue; /* the ball's centre inside */
    worst = fmax(worst, fabs(gap[0] - gap[1]));
    for (int r = 0; r < 3; r++)
      worst_row = fmax(worst_row, fmax(fabs(vel[0][r] - vel[1][r]) / (1 + fabs(vel[0][r])),
                                       fabs(bias[0][r] - bias[1][r]) / (1 + fabs(bias[0][r]))));
  }
  printf("superellipsoid p = 2 against the ellipsoid's formulas, 40 poses: gaps differ by %.1e m, "
         "rows' velocities and biases by %.1e (relative)\n",
         worst, worst_row);
  CHECK_NEAR(worst, 0, 1e-14, 0);
  CHECK_NEAR(worst_row, 0, 1e-13, 0);
}

int main(void) {
  const nsed_shape_type types[] = {NSED_SHAPE_SPHERE,    NSED_SHAPE_DISK,
                                   NSED_SHAPE_BOX,       NSED_SHAPE_CYLINDER,
                                   NSED_SHAPE_CAPSULE,   NSED_SHAPE_ELLIPSOID,
                                   NSED_SHAPE_SUPERELLIPSOID};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) one_shape(types[i]);
  const nsed_shape_type others[] = {NSED_SHAPE_BOX, NSED_SHAPE_CYLINDER, NSED_SHAPE_DISK,
                                    NSED_SHAPE_ELLIPSOID, NSED_SHAPE_SUPERELLIPSOID};
  for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) sphere_against(others[i]);
  superellipsoid_p2();
  capsule_capsule();
  return TEST_DONE();
}
