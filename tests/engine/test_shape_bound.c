/* The bound radius of each shape (src/model/shape_bound.c), which gives an
 * open contact far above its plane a lower bound of its gap at a step's
 * end (docs/engine.md, "Open contacts far from their plane"):
 *  - every contact point the geometry finds against the floor (every
 *    feature's: a box's vertices, a cylinder's rims, a capsule's end caps),
 *    for 4000 random orientations a shape, lies within the bound of the
 *    body's centre (to the round-off of |p - r|, 1e-12) (so the centre's height less the bound is below the gap), and
 *    where the bound is a distance the shape reaches (a sphere, a disk's
 *    rim, a cylinder's rim, a capsule's end, a box's vertex, a roller's
 *    tip) the farthest point found is within 1% of it: not a loose bound;
 *  - the same from the centre's height: height - bound <= gap.
 * That the bound leaves runs unchanged bit for bit is engine_rhs_memo's
 * check (every contact's geometry in every right-hand side, against the
 * partial geometry and the bounds). */
#include <math.h>

#include "engine_util.h"
#include "kinematics.h"
#include "model_impl.h"
#include "nsed_test.h"
#include "rows.h"

static unsigned long long rng = 0x5DEECE66Dull;

static double gauss(void) {
  double u1 = nsed_test_urand(&rng), u2 = nsed_test_urand(&rng);
  return sqrt(-2 * log(1 - u1)) * cos(2 * M_PI * u2);
}

typedef struct {
  const char *name;
  nsed_shape shape;
  int attained; /* the bound is a distance the shape reaches */
} shape_case;

static void one_shape(const shape_case *sc) {
  nsed_error err;
  nsed_model *m = NULL;
  must(nsed_model_create(&m, &err), &err);
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "body");
  b.mass = 1.0;
  b.shape = sc->shape;
  b.position[2] = 10.0;
  must(nsed_model_add_body(m, &b, &err), &err);
  nsed_contact_def c;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "body_floor");
  snprintf(c.body, sizeof c.body, "body");
  int nf = nsed_shape_features(sc->shape.type);
  if (nf == 0) {
    must(nsed_model_add_contact(m, &c, &err), &err);
  } else {
    for (int f = 0; f < nf; f++) { /* every vertex, rim or end cap */
      nsed_contact_def cf;
      must(nsed_contact_feature(&c, sc->shape.type, f, &cf, &err), &err);
      must(nsed_model_add_contact(m, &cf, &err), &err);
    }
  }
  must(nsed_model_finalize(m, &err), &err);
  double bound = m->body[0].bound_radius, far = 0, worst_gap = -INFINITY;
  CHECK_MSG(isfinite(bound) && bound > 0, "%s: bound %g", sc->name, bound);
  double *x = calloc((size_t)m->nstate, sizeof(double));
  if (!x) {
    CHECK_MSG(0, "out of memory");
    nsed_model_free(&m);
    return;
  }
  nsedi_kin kin[1];
  int evaluated = 0;
  for (int k = 0; k < 4000; k++) {
    double *s = x + m->body[0].xbody;
    s[2] = 10.0;
    for (int i = 0; i < 4; i++) s[3 + i] = gauss();
    double qn = sqrt(s[3] * s[3] + s[4] * s[4] + s[5] * s[5] + s[6] * s[6]);
    for (int i = 0; i < 4; i++) s[3 + i] /= qn;
    if (m->body[0].xspin >= 0) x[m->body[0].xspin] = 0;
    nsedi_kin_eval(m, x, kin);
    int ok = 0;
    for (int ci = 0; ci < m->ncontact; ci++) {
      nsedi_contact_geom g;
      if (nsedi_contact_eval(m, ci, kin, NULL, 0, &g) != NSED_OK) continue; /* a disk lying flat */
      ok = 1;
      double d[3] = {g.p[0] - kin[0].r[0], g.p[1] - kin[0].r[1], g.p[2] - kin[0].r[2]};
      far = fmax(far, sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]));
      worst_gap = fmax(worst_gap, (kin[0].r[2] - bound) - g.gap); /* <= 0: a lower bound */
    }
    evaluated += ok;
  }
  printf("%-26s bound %.6f, farthest contact point %.6f (%d orientations), height - bound - gap <= %.2e\n",
         sc->name, bound, far, evaluated, worst_gap);
  CHECK(evaluated > 3900);
  /* |p - r| at a height of 10 carries round-off of ~1e-15 (the bound is
   * used only where it clears the plane by a contact tolerance) */
  double eps = 1e-12 * (1 + bound);
  CHECK_MSG(far <= bound + eps, "%s: a contact point %.17g from the centre, bound %.17g", sc->name,
            far, bound);
  CHECK(worst_gap <= eps);
  if (sc->attained) CHECK_MSG(far >= 0.99 * bound, "%s: farthest %.6f of %.6f", sc->name, far, bound);
  free(x);
  nsed_model_free(&m);
}

int main(void) {
  shape_case cases[] = {
      {"sphere", {.type = NSED_SHAPE_SPHERE, .radius = 0.3}, 1},
      {"disk", {.type = NSED_SHAPE_DISK, .radius = 0.4}, 1},
      {"cylinder", {.type = NSED_SHAPE_CYLINDER, .radius = 0.2, .length = 0.7}, 1},
      {"capsule", {.type = NSED_SHAPE_CAPSULE, .radius = 0.1, .length = 0.6}, 1},
      {"box", {.type = NSED_SHAPE_BOX, .half = {0.3, 0.2, 0.1}}, 1},
      {"ellipsoid", {.type = NSED_SHAPE_ELLIPSOID, .half = {0.3, 0.2, 0.1}}, 0},
      {"superellipsoid p = 4", {.type = NSED_SHAPE_SUPERELLIPSOID, .half = {0.3, 0.2, 0.1}, .exponent = 4}, 0},
      {"roller n = 4, psi = 0", {.type = NSED_SHAPE_ROLLER, .radius = 1.0, .rollers = 4}, 1},
      {"roller n = 8, psi = 0.785", {.type = NSED_SHAPE_ROLLER, .radius = 1.0, .rollers = 8, .psi = 0.785}, 1},
      {"roller n = 32, psi = 0.4", {.type = NSED_SHAPE_ROLLER, .radius = 0.05, .rollers = 32, .psi = 0.4}, 1},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) one_shape(&cases[k]);
  return TEST_DONE();
}
