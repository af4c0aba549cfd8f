/* The friction polygon's margin (nsedi_friction_margin, src/simulate/
 * friction_law.c) against its definition: the least, over the polygon's m
 * faces, of the inradius less lambda_t's component along the face's
 * normal, every face computed (2 m sines and cosines). The engine computes
 * only the face nearest lambda_t's direction and its two neighbours; the
 * answers must be the same bit for bit, so that the indicators and the law
 * monitor decide as before. Random forces, forces along every face's normal
 * and every vertex (the ties), tiny, huge and zero forces, faces of 3 to 64
 * sides, face and vertex forms. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "engine_util.h"
#include "nsed_test.h"
#include "sim_impl.h"

static double by_definition(int m, int vertex_form, double mu0, double ln, double l1, double l2) {
  double off = vertex_form ? M_PI / m : 0, scale = vertex_form ? cos(M_PI / m) : 1;
  double worst = INFINITY;
  for (int j = 0; j < m; j++) {
    double th = 2 * M_PI * j / m + off;
    double s = scale * mu0 * ln - (cos(th) * l1 + sin(th) * l2);
    if (s < worst) worst = s;
  }
  return worst;
}

static uint64_t rng = 88172645463325252ull;
static double uniform(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0;
}

static long compared, differed;

static void compare(const nsed_options *o, int vertex_form, double mu0, double ln, double l1, double l2) {
  double a = nsedi_friction_margin(o, mu0, ln, l1, l2);
  double b = by_definition(o->friction.sides, vertex_form, mu0, ln, l1, l2);
  compared++;
  if (memcmp(&a, &b, sizeof a) != 0 && !(isnan(a) && isnan(b))) {
    if (differed++ < 5)
      CHECK_MSG(0, "m = %d %s: lambda (%.17g, %.17g, %.17g): %.17g against %.17g", o->friction.sides,
                vertex_form ? "vertex" : "face", ln, l1, l2, a, b);
  }
}

int main(void) {
  nsed_options o;
  memset(&o, 0, sizeof o);
  for (int vertex_form = 0; vertex_form < 2; vertex_form++)
    for (int m = 3; m <= 64; m++) {
      o.friction.model = vertex_form ? NSED_FRICTION_POLYGON_VERTEX : NSED_FRICTION_POLYGON_FACE;
      o.friction.sides = m;
      for (int i = 0; i < 4000; i++) {
        double mu0 = 0.05 + uniform(), ln = 10 * uniform(), phi = 2 * M_PI * uniform();
        double r = mu0 * ln * 2 * uniform(), scale = pow(10, -300 + 600 * uniform() * (i % 7 == 0));
        compare(&o, vertex_form, mu0, ln * scale, r * scale * cos(phi), r * scale * sin(phi));
      }
      /* along each face's normal and each vertex, where neighbours tie */
      for (int j = 0; j < 2 * m; j++) {
        double th = M_PI * j / m, r = 0.3 + uniform();
        compare(&o, vertex_form, 0.5, 1.0, r * cos(th), r * sin(th));
        compare(&o, vertex_form, 0.5, 1.0, cos(th), sin(th));
      }
      /* no tangential force: every sign of every zero, normal force zero too */
      const double zeros[2] = {0.0, -0.0}, lns[4] = {1.0, 0.0, -0.0, -1.0};
      for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
          for (int k = 0; k < 4; k++) compare(&o, vertex_form, 0.5, lns[k], zeros[a], zeros[b]);
      compare(&o, vertex_form, 0.5, NAN, 0.0, 0.0);
      compare(&o, vertex_form, 0.5, INFINITY, -0.0, 0.0);
      compare(&o, vertex_form, 0.5, 1.0, DBL_MIN, -DBL_MIN);
      compare(&o, vertex_form, 0.5, 1.0, 1e300, -1e300);
      compare(&o, vertex_form, 0.5, NAN, 0.1, 0.2);
      compare(&o, vertex_form, 0.5, 1.0, NAN, 0.2);
      compare(&o, vertex_form, 0.5, 1.0, INFINITY, 0.2);
    }
  printf("%ld margins compared with every face's, %ld differ\n", compared, differed);
  CHECK(differed == 0);
  return TEST_DONE();
}
