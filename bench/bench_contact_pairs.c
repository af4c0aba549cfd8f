/* The cost of one contact evaluation (gap, frame, rows, spin row) per
 * surface pair: nsedi_contact_eval on 64 random poses, repeated until
 * 0.2 s have passed, in ns per call; and, in the same run, the ratio to the
 * sphere against a plane (the cheapest). Prints a markdown table. The
 * superellipsoid's exponent is 4.
 *   bench_contact_pairs */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "kinematics.h"
#include "model_impl.h"
#include "nsed/nsed.h"
#include "rows.h"

enum { NPOSE = 64 };

static uint64_t rng = 88172645463325252ull;
static double urand(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0;
}
static double srnd(double a) { return a * (2 * urand() - 1); }

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void body(nsed_model *m, const char *name, nsed_shape_type type, nsed_error *err) {
  nsed_body_def b;
  nsed_body_def_default(&b);
  snprintf(b.name, sizeof b.name, "%s", name);
  b.shape.type = type;
  b.shape.radius = 0.2;
  b.shape.length = 0.5;
  b.shape.rollers = 4;
  b.shape.half[0] = 0.3, b.shape.half[1] = 0.2, b.shape.half[2] = 0.1;
  b.shape.exponent = 4;
  if (type == NSED_SHAPE_POINT) b.inertia[0] = b.inertia[1] = b.inertia[2] = 0.1;
  b.position[2] = 2;
  if (nsed_model_add_body(m, &b, err) < 0) fprintf(stderr, "%s\n", err->message);
}

/* ns per nsedi_contact_eval of the model's contact 0 over random poses. */
static double cost(nsed_shape_type type, nsed_shape_type other, const char **name) {
  static char label[64];
  nsed_error err;
  nsed_model *m;
  nsed_model_create(&m, &err);
  body(m, "a", type, &err);
  if (other != NSED_SHAPE_NONE) body(m, "b", other, &err);
  nsed_contact_def c;
  nsed_contact_def_default(&c);
  snprintf(c.name, sizeof c.name, "c");
  snprintf(c.body, sizeof c.body, "a");
  if (other != NSED_SHAPE_NONE) snprintf(c.other, sizeof c.other, "b");
  if (nsed_shape_features(type) > 0) c.feature = 1;
  if (nsed_model_add_contact(m, &c, &err) < 0 || nsed_model_finalize(m, &err)) {
    fprintf(stderr, "bench_contact_pairs: %s\n", err.message);
    return NAN;
  }
  snprintf(label, sizeof label, "%s against %s", nsed_shape_type_name(type),
           other == NSED_SHAPE_NONE ? "a plane" : nsed_shape_type_name(other));
  *name = label;
  static double x[NPOSE][26];
  static nsedi_kin kin[NPOSE][2];
  for (int p = 0; p < NPOSE; p++) {
    for (int j = 0; j < 2; j++) {
      double *s = x[p] + 13 * j, qn = 0;
      for (int i = 0; i < 3; i++) s[i] = srnd(1.0), s[7 + i] = srnd(1.0), s[10 + i] = srnd(2.0);
      s[2] += 2 + 2 * j;
      for (int i = 0; i < 4; i++) s[3 + i] = srnd(1.0), qn += s[3 + i] * s[3 + i];
      for (int i = 0; i < 4; i++) s[3 + i] /= sqrt(qn);
    }
    nsedi_kin_eval(m, x[p], kin[p]);
  }
  nsedi_contact_geom g;
  double sink = 0, t0 = now(), t;
  long calls = 0;
  do {
    for (int p = 0; p < NPOSE; p++, calls++) {
      nsedi_contact_eval(m, 0, kin[p], NULL, 0, &g);
      sink += g.gap;
    }
    t = now() - t0;
  } while (t < 0.2);
  if (sink == 12345.678) printf(" ");
  nsed_model_free(&m);
  return 1e9 * t / calls;
}

int main(void) {
  struct {
    nsed_shape_type a, b;
  } pairs[] = {{NSED_SHAPE_SPHERE, NSED_SHAPE_NONE},   {NSED_SHAPE_POINT, NSED_SHAPE_NONE},
               {NSED_SHAPE_BOX, NSED_SHAPE_NONE},      {NSED_SHAPE_CAPSULE, NSED_SHAPE_NONE},
               {NSED_SHAPE_DISK, NSED_SHAPE_NONE},     {NSED_SHAPE_CYLINDER, NSED_SHAPE_NONE},
               {NSED_SHAPE_ELLIPSOID, NSED_SHAPE_NONE}, {NSED_SHAPE_ROLLER, NSED_SHAPE_NONE},
               {NSED_SHAPE_SPHERE, NSED_SHAPE_SPHERE}, {NSED_SHAPE_SPHERE, NSED_SHAPE_CAPSULE},
               {NSED_SHAPE_SPHERE, NSED_SHAPE_BOX},    {NSED_SHAPE_SPHERE, NSED_SHAPE_CYLINDER},
               {NSED_SHAPE_SPHERE, NSED_SHAPE_DISK},   {NSED_SHAPE_SPHERE, NSED_SHAPE_ELLIPSOID},
               {NSED_SHAPE_SUPERELLIPSOID, NSED_SHAPE_NONE},
               {NSED_SHAPE_SPHERE, NSED_SHAPE_SUPERELLIPSOID}};
  int n = (int)(sizeof pairs / sizeof pairs[0]);
  double base = NAN;
  printf("| pair | ns per evaluation | ratio to sphere against a plane |\n|---|---|---|\n");
  for (int i = 0; i < n; i++) {
    const char *name = "";
    double ns = cost(pairs[i].a, pairs[i].b, &name);
    if (i == 0) base = ns;
    printf("| %s | %.0f | %.2f |\n", name, ns, ns / base);
  }
  return 0;
}
