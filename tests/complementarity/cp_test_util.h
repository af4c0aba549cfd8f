/* Helpers shared by the complementarity tests: a seeded generator, Delassus
 * matrices built by hand (G = J M^-1 J^T) and independent checks of contact
 * solutions (they do not reuse the library's verification). */
#ifndef NSED_CP_TEST_UTIL_H
#define NSED_CP_TEST_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsed/complementarity.h"

/* A solver of the given friction model and polygon sides; exits the test
 * program with a message if it cannot be created. */
static inline nsed_contact_solver *cpt_solver(nsed_friction_model model, int sides) {
  nsed_complementarity_settings s;
  nsed_complementarity_default_settings(&s);
  s.model = model;
  s.sides = sides;
  nsed_contact_solver *cs = NULL;
  nsed_error err;
  if (nsed_contact_solver_create(&s, 1, &cs, &err) != NSED_OK) {
    fprintf(stderr, "creating a contact solver failed: %s\n", err.message);
    exit(1);
  }
  return cs;
}

/* A solver with the default settings on the given LCP path; exits the test
 * program with a message if it cannot be created. */
static inline nsed_contact_solver *cpt_path_solver(nsed_lcp_path path) {
  nsed_complementarity_settings s;
  nsed_complementarity_default_settings(&s);
  s.path = path;
  nsed_contact_solver *cs = NULL;
  nsed_error err;
  if (nsed_contact_solver_create(&s, 2, &cs, &err) != NSED_OK) {
    fprintf(stderr, "creating a contact solver failed: %s\n", err.message);
    exit(1);
  }
  return cs;
}

/* splitmix64: fixed seed, same numbers on every machine */
typedef struct {
  uint64_t s;
} cpt_rng;

static inline uint64_t cpt_next(cpt_rng *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
/* uniform in [0, 1) */
static inline double cpt_unif(cpt_rng *r) { return (double)(cpt_next(r) >> 11) * 0x1.0p-53; }
static inline int cpt_int(cpt_rng *r, int lo, int hi) { return lo + (int)(cpt_next(r) % (uint64_t)(hi - lo + 1)); }

/* A random system of k freedoms: inverse masses minv in [0.5, 2], a
 * velocity y in [-1, 1]^k and a contact Jacobian J (rows x k, column-major,
 * entries in [-1, 1]), drawn freedom by freedom in that order. */
static inline void cpt_random_system(cpt_rng *rng, int rows, int k, double *J, double *minv, double *y) {
  for (int d = 0; d < k; d++) {
    minv[d] = 0.5 + 1.5 * cpt_unif(rng);
    y[d] = 2.0 * cpt_unif(rng) - 1.0;
    for (int r = 0; r < rows; r++) J[(size_t)d * rows + r] = 2.0 * cpt_unif(rng) - 1.0;
  }
}

/* v = J y: the contacts' relative velocities (or accelerations) of y. */
static inline void cpt_apply(int rows, int k, const double *J, const double *y, double *v) {
  for (int r = 0; r < rows; r++) {
    double s = 0.0;
    for (int d = 0; d < k; d++) s += J[(size_t)d * rows + r] * y[d];
    v[r] = s;
  }
}

/* G = J diag(minv) J^T for J (rows x k, column-major). */
static inline void cpt_delassus(int rows, int k, const double *J, const double *minv, double *G) {
  for (int j = 0; j < rows; j++)
    for (int i = 0; i < rows; i++) {
      double s = 0.0;
      for (int d = 0; d < k; d++) s += J[(size_t)d * rows + i] * minv[d] * J[(size_t)d * rows + j];
      G[(size_t)j * rows + i] = s;
    }
}

/* Rigid box (mass m, half sizes hx, hy, hz) resting on its 4 bottom corners
 * on the plane z = 0, axes aligned with the world: contact frame (n, t1, t2) =
 * (z, x, y). Fills J (12 x 6, column-major, u = (v, omega) in world) and
 * minv (6). */
static inline void cpt_box4(double m, double hx, double hy, double hz, double *J, double *minv) {
  double I[3] = {m * (hy * hy + hz * hz) / 3.0, m * (hx * hx + hz * hz) / 3.0,
                 m * (hx * hx + hy * hy) / 3.0};
  for (int d = 0; d < 3; d++) {
    minv[d] = 1.0 / m;
    minv[3 + d] = 1.0 / I[d];
  }
  static const double sx[4] = {1, -1, -1, 1}, sy[4] = {1, 1, -1, -1};
  memset(J, 0, sizeof(double) * 72);
  for (int c = 0; c < 4; c++) {
    double r[3] = {sx[c] * hx, sy[c] * hy, -hz};
    double e[3][3] = {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}; /* n, t1, t2 */
    for (int k = 0; k < 3; k++) {
      int row = 3 * c + k;
      const double *ek = e[k];
      /* e . (v + w x r) = e . v + (r x e) . w */
      double rxe[3] = {r[1] * ek[2] - r[2] * ek[1], r[2] * ek[0] - r[0] * ek[2],
                       r[0] * ek[1] - r[1] * ek[0]};
      for (int d = 0; d < 3; d++) {
        J[(size_t)d * 12 + row] = ek[d];
        J[(size_t)(3 + d) * 12 + row] = rxe[d];
      }
    }
  }
}

typedef struct {
  double *lambda, *a, *slip;
  nsed_cp_mode *mode;
  nsed_contact_solution sol;
} cpt_sol;

static inline void cpt_sol_init(cpt_sol *s, int nc) {
  s->lambda = calloc((size_t)(3 * nc + 1), sizeof(double));
  s->a = calloc((size_t)(3 * nc + 1), sizeof(double));
  s->slip = calloc((size_t)(2 * nc + 1), sizeof(double));
  s->mode = calloc((size_t)(nc + 1), sizeof(nsed_cp_mode));
  s->sol = (nsed_contact_solution){.lambda = s->lambda, .a = s->a, .mode = s->mode, .slip_dir = s->slip};
}
static inline void cpt_sol_free(cpt_sol *s) {
  free(s->lambda);
  free(s->a);
  free(s->slip);
  free(s->mode);
}

#endif
